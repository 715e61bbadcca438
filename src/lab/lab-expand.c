/*
 * The expansions of a variant's directory (lab.h, lab_expand_directory):
 * %u, the user raidlab runs as, so that one lab gives every user a
 * directory of their own on a shared host (the default lab's
 * /var/tmp/raidlab-quick-%u); %h, the host it runs on, so that the
 * clients of a shared target (or a fleet's hosts that share one machine)
 * each write their own directory; and %% for a literal %. The user comes
 * from the effective uid, not from $USER or $HOME, which su, setpriv and
 * sudo may leave as another user's. Any thread; lab_expand_set_host()
 * before any other thread loads a lab.
 */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "lab.h"

/* lab_expand_set_host()'s name; "" for this machine's. */
static char fleet_host[256];

void
lab_expand_set_host(const char *name)
{
	snprintf(fleet_host, sizeof fleet_host, "%s", name ? name : "");
}

/* The fleet host's name, else this machine's up to its first '.'; a
   name that would step out of the directory (a '/', "." or "..") or is
   empty gives "localhost". */
static void
host_name(char *buf, size_t len)
{
	char host[256] = "";

	if (fleet_host[0] != '\0')
		snprintf(host, sizeof host, "%s", fleet_host);
	else if (gethostname(host, sizeof host - 1) == 0)
		host[strcspn(host, ".")] = '\0';
	else
		host[0] = '\0';
	if (host[0] == '\0' || strchr(host, '/') != NULL ||
	    strcmp(host, ".") == 0 || strcmp(host, "..") == 0)
		snprintf(host, sizeof host, "localhost");
	snprintf(buf, len, "%s", host);
}

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
	char user[256], host[256];
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
		} else if (p[1] == 'h') {
			host_name(host, sizeof host);
			strbuf_add(&b, host);
		} else {
			/* The % and the whole character after it. */
			int n = 2;

			while (p[1] != '\0' &&
			    ((unsigned char)p[n] & 0xc0) == 0x80)
				n++;
			if (p[1] == '\0')
				snprintf(why, len,
				    _("a %% at the end: %%u is the user's "
				      "name, %%h the host's, %%%% a %%"));
			else
				snprintf(why, len,
				    _("'%.*s' is not an expansion: %%u is "
				      "the user's name, %%h the host's, "
				      "%%%% a %%"),
				    n, p);
			strbuf_done(&b);
			return NULL;
		}
		p++;
	}
	return strbuf_take(&b);
}
