/*
 * Size parsing and formatting: see units.h. Any thread.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static const char suffixes[] = "KMGTPE";

/* Shift for a suffix letter, or -1. */
static int
suffix_shift(char c)
{
	const char *p = strchr(suffixes, toupper((unsigned char)c));

	if (c == '\0' || p == NULL)
		return -1;
	return 10 * (int)(p - suffixes + 1);
}

int
units_parse_size(const char *s, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, fracdiv = 1, v;
	const char *p = s;
	int shift = 0, digits = 0;

	while (isspace((unsigned char)*p))
		p++;
	for (; isdigit((unsigned char)*p); p++, digits++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, digits++) {
			if (fracdiv >= UINT64_C(1000000000000))
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
			fracdiv *= 10;
		}
	}
	if (digits == 0)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0' && toupper((unsigned char)*p) != 'B') {
		shift = suffix_shift(*p);
		if (shift < 0)
			return -EINVAL;
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
	}
	if (*p == 'b' || *p == 'B')
		p++;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0')
		return -EINVAL;

	if (shift >= 64 || whole > (UINT64_MAX >> shift))
		return -ERANGE;
	v = whole << shift;
	if (frac != 0) {
		/* frac / fracdiv of a unit must be a whole number of bytes. */
		uint64_t unit = UINT64_C(1) << shift;

		if (frac > UINT64_MAX / unit || (frac * unit) % fracdiv != 0)
			return -EINVAL;
		if (v > UINT64_MAX - frac * unit / fracdiv)
			return -ERANGE;
		v += frac * unit / fracdiv;
	}
	*out = v;
	return 0;
}

const char *
units_format_size(uint64_t bytes, char *buf, size_t len)
{
	double v = (double)bytes;
	int i = -1;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 "B", bytes);
		return buf;
	}
	while (v >= 1024.0 && i < (int)sizeof suffixes - 2) {
		v /= 1024.0;
		i++;
	}
	/* One decimal, dropped when it would read ".0", as lsblk does. */
	if ((uint64_t)(v * 10.0 + 0.5) % 10 == 0)
		snprintf(buf, len, "%.0f%c", v, suffixes[i]);
	else
		snprintf(buf, len, "%.1f%c", v, suffixes[i]);
	return buf;
}

const char *
units_format_exact(uint64_t bytes, char *buf, size_t len)
{
	int i = -1;

	while (
	    bytes != 0 && bytes % 1024 == 0 && i < (int)sizeof suffixes - 2) {
		bytes /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64, bytes);
	else
		snprintf(buf, len, "%" PRIu64 "%c", bytes, suffixes[i]);
	return buf;
}

const char *
units_format_clock(double seconds, char *buf, size_t len)
{
	unsigned t = seconds > 0 ? (unsigned)(seconds + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%u:%02u:%02u", t / 3600, t / 60 % 60,
		    t % 60);
	else
		snprintf(buf, len, "%u:%02u", t / 60, t % 60);
	return buf;
}
