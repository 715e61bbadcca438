/*
 * Names in a lab (the lab, its variants and workloads): what makes one
 * valid. They become parts of file names (results), directory names
 * (mount points) and md array names, so the rule is a file name's, in
 * ASCII whatever the locale. See lab.h. Any thread.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "lab.h"

/* ASCII only: isalnum() follows the locale, and a name must mean the same
   file name in every locale. */
static bool
name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
}

/* s for a message: a long one cut after 24 bytes (not inside a UTF-8
   sequence), with "..." after it. */
static void
name_shown(const char *s, char *buf, size_t len)
{
	size_t cut = strlen(s);

	if (cut <= 32) {
		snprintf(buf, len, "%s", s);
		return;
	}
	cut = 24;
	while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	snprintf(buf, len, "%.*s...", (int)cut, s);
}

const char *
lab_name_problem(const char *s, char *buf, size_t len)
{
	char shown[40];
	size_t n = strlen(s), i;

	name_shown(s, shown, sizeof shown);
	for (i = 0; i < n && name_char(s[i]); i++)
		;
	if (n == 0 || i < n)
		snprintf(buf, len,
		    _("'%s' is not a valid name: use letters, digits, '.', "
		      "'_' and '-'"),
		    shown);
	else if (s[0] == '.' || s[0] == '-')
		snprintf(buf, len,
		    _("'%s' is not a valid name: it must start with a letter, "
		      "a digit or '_'"),
		    shown);
	else if (n > LAB_NAME_MAX)
		snprintf(buf, len,
		    _("'%s' is %zu bytes long: a name has at most %d (it "
		      "becomes part of file and directory names)"),
		    shown, n, LAB_NAME_MAX);
	else
		return NULL;
	return buf;
}

bool
lab_name_ok(const char *s)
{
	char buf[8];

	return lab_name_problem(s, buf, sizeof buf) == NULL;
}
