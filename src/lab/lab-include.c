/*
 * @include in lab text: see lab-include.h. Comments and strings are
 * skipped as libconfig's scanner skips them (lab_text_skip()); libconfig
 * honours the directive only at the start of a line and before a quote,
 * and any other '@' is a syntax error to it, so refusing every @include
 * outside them refuses all it would open, with a clearer message for
 * the rest.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "lab-include.h"
#include "lab-load.h"

#define DIRECTIVE "@include"

/* The quoted name after the directive at p, as written, for the message:
   its length in *len, or NULL when there is none on the line. */
static const char *
named_file(const char *p, int *len)
{
	const char *end;

	p += strlen(DIRECTIVE);
	p += strspn(p, " \t");
	if (*p != '"' || (end = strpbrk(p + 1, "\"\n")) == NULL ||
	    *end != '"' || end - p - 1 > 200)
		return NULL;
	*len = (int)(end - p - 1);
	return p + 1;
}

int
lab_include_check(const char *text, const char *file, struct errlist *errs)
{
	const char *p = text, *q, *name;
	int line = 1, n = 0, len = 0;

	while (*p != '\0') {
		if ((q = lab_text_skip(p, &line)) != p) {
			p = q;
			continue;
		}
		if (*p == '\n')
			line++;
		if (strncmp(p, DIRECTIVE, strlen(DIRECTIVE)) != 0) {
			p++;
			continue;
		}
		if ((name = named_file(p, &len)) != NULL)
			errlist_add(errs, -EINVAL, file, line, DIRECTIVE,
			    _("not allowed: a lab is one self-contained file "
			      "(copy what \"%.*s\" holds into this one)"),
			    len, name);
		else
			errlist_add(errs, -EINVAL, file, line, DIRECTIVE,
			    _("not allowed: a lab is one self-contained file"));
		n++;
		p += strlen(DIRECTIVE);
	}
	return n;
}
