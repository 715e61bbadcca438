/* The fleet's protocol lines: fleet-proto.h. */
#include "config.h"

#include "fleet-proto.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A name field: non-empty, no blank or control character, fits. */
static bool
name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= FLEET_PROTO_NAME)
		return false;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/* The next blank-separated word of *p into buf; false when none fits. */
static bool
word(const char **p, char *buf, size_t len)
{
	const char *s = *p, *end;

	while (*s == ' ')
		s++;
	end = s;
	while (*end != '\0' && *end != ' ')
		end++;
	if (end == s || (size_t)(end - s) >= len)
		return false;
	memcpy(buf, s, (size_t)(end - s));
	buf[end - s] = '\0';
	*p = end;
	return true;
}

static bool
num_long(const char **p, long *out)
{
	char w[32], *end;
	long v;

	/* digits only: strtol would take "+1" and " 1" too */
	if (!word(p, w, sizeof w) || strspn(w, "0123456789") != strlen(w))
		return false;
	errno = 0;
	v = strtol(w, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0)
		return false;
	*out = v;
	return true;
}

static bool
num_double(const char **p, double *out)
{
	char w[48], *end;
	double v;

	/* strtod reads '.': raidlab keeps LC_NUMERIC at "C" (ui/main.c). */
	/* what "%.3f" writes: strtod would take "nan", "0x1p3", "1e3" */
	if (!word(p, w, sizeof w) || !isdigit((unsigned char)w[0]) ||
	    strspn(w, "0123456789.") != strlen(w))
		return false;
	errno = 0;
	v = strtod(w, &end);
	if (errno != 0 || *end != '\0' || !(v >= 0) || v > 1e15)
		return false;
	*out = v;
	return true;
}

static bool
at_end(const char *p)
{
	while (*p == ' ')
		p++;
	return *p == '\0';
}

enum fleet_msg_kind
fleet_proto_parse(const char *line, struct fleet_msg *m)
{
	const char *p = line;
	char kind[16];
	long version;
	bool ok = false;

	memset(m, 0, sizeof *m);
	m->kind = FLEET_MSG_TEXT;
	if (strncmp(line, FLEET_PROTO_PREFIX, strlen(FLEET_PROTO_PREFIX)) != 0)
		return m->kind;
	p += strlen(FLEET_PROTO_PREFIX);
	m->kind = FLEET_MSG_BAD;
	if (!num_long(&p, &version) || version != FLEET_PROTO_VERSION ||
	    !word(&p, kind, sizeof kind))
		return m->kind;
	if (strcmp(kind, "ready") == 0) {
		ok = word(&p, m->host, sizeof m->host) &&
		    word(&p, m->version, sizeof m->version);
		m->kind = FLEET_MSG_READY;
	} else if (strcmp(kind, "wait") == 0) {
		ok = num_long(&p, &m->round) && m->round > 0;
		m->kind = FLEET_MSG_WAIT;
	} else if (strcmp(kind, "live") == 0) {
		ok = word(&p, m->variant, sizeof m->variant) &&
		    word(&p, m->workload, sizeof m->workload) &&
		    num_long(&p, &m->round) && m->round > 0 &&
		    num_double(&p, &m->read_mbps) &&
		    num_double(&p, &m->write_mbps) &&
		    num_double(&p, &m->files_s);
		m->kind = FLEET_MSG_LIVE;
	} else if (strcmp(kind, "done") == 0) {
		ok = num_long(&p, &m->ran) && num_long(&p, &m->failed);
		m->kind = FLEET_MSG_DONE;
	}
	/* the names as the formatter writes them: a tab is no name's */
	if (m->kind == FLEET_MSG_READY)
		ok = ok && name_ok(m->host) && name_ok(m->version);
	if (m->kind == FLEET_MSG_LIVE)
		ok = ok && name_ok(m->variant) && name_ok(m->workload);
	if (!ok || !at_end(p))
		m->kind = FLEET_MSG_BAD;
	return m->kind;
}

int
fleet_proto_format(const struct fleet_msg *m, char *buf, size_t len)
{
	int n;

	switch (m->kind) {
	case FLEET_MSG_READY:
		if (!name_ok(m->host) || !name_ok(m->version))
			return -1;
		n = snprintf(buf, len, FLEET_PROTO_PREFIX "%d ready %s %s\n",
		    FLEET_PROTO_VERSION, m->host, m->version);
		break;
	case FLEET_MSG_WAIT:
		/* what the parser takes back, and nothing else */
		if (m->round <= 0)
			return -1;
		n = snprintf(buf, len, FLEET_PROTO_PREFIX "%d wait %ld\n",
		    FLEET_PROTO_VERSION, m->round);
		break;
	case FLEET_MSG_LIVE:
		if (!name_ok(m->variant) || !name_ok(m->workload))
			return -1;
		if (m->round <= 0 ||
		    !(m->read_mbps >= 0 && m->write_mbps >= 0 &&
			m->files_s >= 0 && m->read_mbps <= 1e15 &&
			m->write_mbps <= 1e15 && m->files_s <= 1e15))
			return -1;
		/* "%.3f" writes '.': LC_NUMERIC stays "C" (ui/main.c). */
		n = snprintf(buf, len,
		    FLEET_PROTO_PREFIX "%d live %s %s %ld %.3f %.3f %.3f\n",
		    FLEET_PROTO_VERSION, m->variant, m->workload, m->round,
		    m->read_mbps, m->write_mbps, m->files_s);
		break;
	case FLEET_MSG_DONE:
		if (m->ran < 0 || m->failed < 0)
			return -1;
		n = snprintf(buf, len, FLEET_PROTO_PREFIX "%d done %ld %ld\n",
		    FLEET_PROTO_VERSION, m->ran, m->failed);
		break;
	default:
		return -1;
	}
	if (n < 0 || (size_t)n >= len)
		return -1;
	return n;
}

int
fleet_proto_go(long round, char *buf, size_t len)
{
	int n = snprintf(buf, len, "go %ld\n", round);

	return n < 0 || (size_t)n >= len ? -1 : n;
}

long
fleet_proto_parse_go(const char *line)
{
	const char *p = line;
	long n;

	if (strncmp(p, "go ", 3) != 0)
		return -1;
	p += 3;
	if (!num_long(&p, &n) || n <= 0 || !at_end(p))
		return -1;
	return n;
}
