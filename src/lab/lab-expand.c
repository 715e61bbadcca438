/*
 * The expansions of a variant's directory (lab.h, lab_expand_directory):
 * %u, the user raidlab runs as, so that one lab gives every user a
 * directory of their own on a shared host (the default lab's
 * /var/tmp/raidlab-quick-%u), and %% for a literal %. The user comes
 * from the effective uid, not from $USER or $HOME, which su, setpriv and
 * sudo may leave as another user's. Any thread.
 */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "lab.h"

/* The name of the effective user, or its uid when it has none. */
static void
user_name(char *buf, size_t len)
{
	uid_t uid = geteuid();
	struct passwd pw, *res = NULL;
	char tmp[4096];

	/* A name with a '/' would step out of the directory: the uid then. */
	if (getpwuid_r(uid, &pw, tmp, sizeof tmp, &res) == 0 && res != NULL &&
	    res->pw_name[0] != '\0' && strchr(res->pw_name, '/') == NULL &&
	    strcmp(res->pw_name, ".") != 0 && strcmp(res->pw_name, "..") != 0)
		snprintf(buf, len, "%s", res->pw_name);
	else
		snprintf(buf, len, "%lu", (unsigned long)uid);
}

char *
lab_expand_directory(const char *text, char *why, size_t len)
{
	struct strbuf b;
	char user[256];
	const char *p;

	strbuf_init(&b);
	for (p = text; *p != '\0'; p++) {
		if (*p != '%') {
			strbuf_printf(&b, "%c", *p);
			continue;
		}
		if (p[1] == '%') {
			strbuf_add(&b, "%");
		} else if (p[1] == 'u') {
			user_name(user, sizeof user);
			strbuf_add(&b, user);
		} else {
			/* The % and the whole character after it. */
			int n = 2;

			while (p[1] != '\0' &&
			    ((unsigned char)p[n] & 0xc0) == 0x80)
				n++;
			if (p[1] == '\0')
				snprintf(why, len,
				    _("a %% at the end: %%u is the user's "
				      "name, %%%% a %%"));
			else
				snprintf(why, len,
				    _("'%.*s' is not an expansion: %%u is "
				      "the user's name, %%%% a %%"),
				    n, p);
			strbuf_done(&b);
			return NULL;
		}
		p++;
	}
	return strbuf_take(&b);
}
