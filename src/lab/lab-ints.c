/*
 * Integers too big for libconfig's reader: see lab-ints.h.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "lab-ints.h"
#include "lab-load.h"

const char *
lab_text_skip(const char *p, int *line)
{
	if (*p == '#' || (p[0] == '/' && p[1] == '/'))
		return p + strcspn(p, "\n");
	if (p[0] == '/' && p[1] == '*') {
		for (p += 2; *p != '\0' && !(p[0] == '*' && p[1] == '/'); p++)
			*line += *p == '\n';
		return *p != '\0' ? p + 2 : p;
	}
	if (*p == '"') {
		for (p++; *p != '\0' && *p != '"'; p++) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			*line += *p == '\n';
		}
		return *p != '\0' ? p + 1 : p;
	}
	return p;
}

int
lab_ints_check(const char *text, const char *file, struct errlist *errs)
{
	const char *p = text, *q;
	int line = 1, n = 0;

	while (*p != '\0') {
		if ((q = lab_text_skip(p, &line)) != p) {
			p = q;
			continue;
		}
		if (*p == '\n')
			line++;
		/* a number starts a token: not inside a name, hex or float */
		if (isdigit((unsigned char)*p) &&
		    (p == text ||
			!(isalnum((unsigned char)p[-1]) || p[-1] == '_' ||
			    p[-1] == '.'))) {
			uint64_t v = 0;
			bool big = false, neg = p > text && p[-1] == '-';

			for (q = p; isdigit((unsigned char)*q); q++) {
				v = v * 10 + (uint64_t)(*q - '0');
				big = big || v > (uint64_t)INT32_MAX + 1;
			}
			if (*q != 'L' && *q != 'x' && *q != 'X' && *q != '.' &&
			    *q != 'e' && *q != 'E' &&
			    (big || v > (uint64_t)INT32_MAX + neg)) {
				errlist_add(errs, -ERANGE, file, line, NULL,
				    _("%s%.*s is too big for an integer here "
				      "(at most 2147483647; larger ones take "
				      "an L suffix, sizes a unit: \"4G\")"),
				    neg ? "-" : "", (int)(q - p), p);
				n++;
			}
			p = q;
			continue;
		}
		p++;
	}
	return n;
}
