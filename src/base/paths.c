/*
 * Where raidlab's files are: see paths.h. Any thread.
 */
#include "config.h"

#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "xalloc.h"

#ifndef RAIDLAB_PKGDATADIR
#error "RAIDLAB_PKGDATADIR: the installed data directory (Makefile.am)"
#endif

const char *
paths_home(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;

	if (h != NULL && h[0] == '/')
		return h;
	pw = getpwuid(getuid());
	return pw != NULL && pw->pw_dir != NULL ? pw->pw_dir : NULL;
}

char *
paths_expand(const char *path)
{
	const char *h;

	if (path[0] == '~' && (path[1] == '/' || path[1] == '\0') &&
	    (h = paths_home()) != NULL)
		return xasprintf("%s%s", h, path + 1);
	return xstrdup(path);
}

char *
paths_xdg(const char *var, const char *dflt, const char *sub)
{
	const char *x = getenv(var), *h;

	if (x != NULL && x[0] == '/')
		return xasprintf("%s/raidlab%s%s", x, sub ? "/" : "",
		    sub ? sub : "");
	if ((h = paths_home()) == NULL)
		return NULL;
	return xasprintf("%s/%s/raidlab%s%s", h, dflt, sub ? "/" : "",
	    sub ? sub : "");
}

bool
paths_uninstalled(void)
{
#if defined(RAIDLAB_BUILDDIR) && defined(RAIDLAB_SRCDIR)
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	struct stat a, b;
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return false;
	*slash = '\0';
	/* The same directory, however reached (symlinks, bind mounts);
	   a deleted or moved build tree no longer matches. */
	return stat(exe[0] != '\0' ? exe : "/", &a) == 0 &&
	    stat(RAIDLAB_BUILDDIR, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino;
#else
	return false;
#endif
}

static bool
is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

char *
paths_presets(void)
{
	const char *d = getenv("RAIDLAB_DATADIR");

	if (d != NULL && *d != '\0')
		return xasprintf("%s/labs", d);
#ifdef RAIDLAB_SRCDIR
	if (paths_uninstalled())
		return xstrdup(RAIDLAB_SRCDIR "/data/labs");
#endif
	if (is_dir(RAIDLAB_PKGDATADIR "/labs"))
		return xstrdup(RAIDLAB_PKGDATADIR "/labs");
#ifdef RAIDLAB_SRCDIR
	/* A binary copied out of its build tree (not installed): the
	   presets of the tree it was built from, while it is there. */
	if (is_dir(RAIDLAB_SRCDIR "/data/labs"))
		return xstrdup(RAIDLAB_SRCDIR "/data/labs");
#endif
	return xstrdup(RAIDLAB_PKGDATADIR "/labs");
}

char *
paths_user_labs(void)
{
	return paths_xdg("XDG_CONFIG_HOME", ".config", "labs");
}

/* dir/ARG.cfg (".cfg" optional) when it exists; else NULL. */
static char *
find_in(const char *dir, const char *arg, bool cfg)
{
	char *p;

	if (dir == NULL)
		return NULL;
	p = xasprintf("%s/%s%s", dir, arg, cfg ? "" : ".cfg");
	if (access(p, F_OK) == 0)
		return p;
	free(p);
	return NULL;
}

char *
paths_find_lab(const char *arg)
{
	char *dir, *p;
	size_t n = strlen(arg);
	bool cfg = n >= 4 && strcmp(arg + n - 4, ".cfg") == 0;

	if (strchr(arg, '/') != NULL || access(arg, F_OK) == 0)
		return xstrdup(arg);
	if (*arg == '\0')
		return NULL;
	/* The user's own first, as XDG_CONFIG_HOME comes before the
	   system's data: a lab saved under a preset's name is the one the
	   user means, and the one the TUI lists first. */
	dir = paths_user_labs();
	p = find_in(dir, arg, cfg);
	free(dir);
	if (p != NULL)
		return p;
	dir = paths_presets();
	p = find_in(dir, arg, cfg);
	free(dir);
	return p;
}

char *
paths_lab(const char *arg)
{
	char *p = paths_find_lab(arg);

	return p != NULL ? p : xstrdup(arg);
}
