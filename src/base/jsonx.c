/*
 * jansson helpers: see jsonx.h. Any thread.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "jsonx.h"
#include "strbuf.h"
#include "xalloc.h"

json_t *
jsonx_str(const char *s)
{
	json_t *j;
	char *c, *p;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	c = xstrdup(s);
	for (p = c; *p != '\0'; p++)
		if ((unsigned char)*p >= 0x80 || (unsigned char)*p < 0x20)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

static bool
cont(unsigned char c, unsigned char lo, unsigned char hi)
{
	return c >= lo && c <= hi;
}

/* The length of the valid UTF-8 sequence at p (RFC 3629: no overlong
   forms, no surrogates), or 0. p is NUL-terminated: a NUL is no
   continuation byte, so nothing is read past it. */
static size_t
utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return cont(p[1], 0x80, 0xbf) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80,
			      hi = c == 0xed ? 0x9f : 0xbf;

		return cont(p[1], lo, hi) && cont(p[2], 0x80, 0xbf) ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80,
			      hi = c == 0xf4 ? 0x8f : 0xbf;

		return cont(p[1], lo, hi) && cont(p[2], 0x80, 0xbf) &&
			cont(p[3], 0x80, 0xbf)
		    ? 4
		    : 0;
	}
	return 0;
}

json_t *
jsonx_str_bytes(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf b;
	json_t *j;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	strbuf_init(&b);
	while (*p != '\0') {
		size_t n = utf8_len(p);

		if (n == 0)
			strbuf_printf(&b, "\\x%02x", *p++);
		else
			strbuf_printf(&b, "%.*s", (int)n, (const char *)p);
		p += n;
	}
	j = json_string(b.s);
	strbuf_done(&b);
	return j != NULL ? j : json_string("");
}
