/*
 * Holders of a block device, from sysfs and /proc. See holders.h.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/i18n.h"
#include "holders.h"

const unsigned holders_retry_ms[HOLDERS_TRIES] = { 250, 500, 1000, 2000 };

bool
holders_busy_output(const char *output)
{
	static const char *const words[] = { "busy", "in use",
		"exclusive access" };
	size_t n = output != NULL ? strlen(output) : 0;

	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		size_t k = strlen(words[w]);

		for (size_t i = 0; i + k <= n; i++)
			if (strncasecmp(output + i, words[w], k) == 0)
				return true;
	}
	return false;
}

struct out {
	char *buf;
	size_t len, off;
	int n;
};

/* Append one holder's words, "; "-separated, cut at the buffer's end. */
static void
put(struct out *o, const char *s)
{
	int k;

	if (o->off + 1 < o->len) {
		k = snprintf(o->buf + o->off, o->len - o->off, "%s%s",
		    o->n > 0 ? "; " : "", s);
		if (k > 0)
			o->off += (size_t)k;
		if (o->off >= o->len)
			o->off = o->len - 1;
	}
	o->n++;
}

static void
sysfs_holders(dev_t rdev, struct out *o)
{
	char dir[64], w[320];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof dir, "/sys/dev/block/%u:%u/holders", major(rdev),
	    minor(rdev));
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.') {
			snprintf(w, sizeof w, _("held by %s"), de->d_name);
			put(o, w);
		}
	closedir(d);
}

/* Field 3 of mountinfo is MAJ:MIN, field 5 the mount point (octal
   escapes left as they are: it is a diagnosis, not a path to use). */
static void
mounts(dev_t rdev, struct out *o)
{
	char want[32], line[4096], mp[PATH_MAX];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (f == NULL)
		return;
	snprintf(want, sizeof want, "%u:%u", major(rdev), minor(rdev));
	while (fgets(line, sizeof line, f) != NULL) {
		char mm[32];

		if (sscanf(line, "%*s %*s %31s %*s %4095s", mm, mp) == 2 &&
		    strcmp(mm, want) == 0) {
			char w[PATH_MAX + 64];

			snprintf(w, sizeof w, _("mounted on %s"), mp);
			put(o, w);
		}
	}
	fclose(f);
}

static bool
all_digits(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* What a process holds: for a device, an fd on its node (st_rdev); for
   a mounted filesystem, its working directory, root or any open file on
   it (st_dev). */
struct want {
	dev_t dev;
	bool fs;
};

static bool
matches(const char *p, const struct want *w)
{
	struct stat st;

	if (stat(p, &st) != 0)
		return false;
	return w->fs ? st.st_dev == w->dev
		     : S_ISBLK(st.st_mode) && st.st_rdev == w->dev;
}

/* The words for what process pid holds, or NULL when nothing. */
static const char *
pid_holds(const char *pid, const struct want *w)
{
	char dir[300], p[600];
	const char *what = NULL;
	struct dirent *de;
	DIR *d;

	if (w->fs) {
		snprintf(p, sizeof p, "/proc/%s/cwd", pid);
		if (matches(p, w))
			return _("its working directory is there");
		snprintf(p, sizeof p, "/proc/%s/root", pid);
		if (matches(p, w))
			return _("its root is there");
	}
	snprintf(dir, sizeof dir, "/proc/%s/fd", pid);
	if ((d = opendir(dir)) == NULL)
		return NULL;
	while (what == NULL && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		if (matches(p, w))
			what = w->fs ? _("a file open there")
				     : _("the device open");
	}
	closedir(d);
	return what;
}

static void
processes(const struct want *want, struct out *o)
{
	char self[32], path[320], comm[64], w[512];
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (d == NULL)
		return;
	snprintf(self, sizeof self, "%ld", (long)getpid());
	while ((de = readdir(d)) != NULL) {
		const char *what;
		FILE *f;

		if (!all_digits(de->d_name) || strcmp(de->d_name, self) == 0 ||
		    (what = pid_holds(de->d_name, want)) == NULL)
			continue;
		snprintf(path, sizeof path, "/proc/%s/comm", de->d_name);
		comm[0] = '\0';
		if ((f = fopen(path, "re")) != NULL) {
			if (fgets(comm, sizeof comm, f) == NULL)
				comm[0] = '\0';
			comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		/* TRANSLATORS: pid, command name, then what it holds */
		snprintf(w, sizeof w, _("pid %s (%s): %s"), de->d_name, comm,
		    what);
		put(o, w);
	}
	closedir(d);
}

/* Whether directory path is the root of a mount: its device differs
   from its parent's, or it is its parent ("/"). */
static bool
mount_root(const char *path, const struct stat *st)
{
	char up[PATH_MAX + 4];
	struct stat pst;

	if (snprintf(up, sizeof up, "%s/..", path) >= (int)sizeof up ||
	    stat(up, &pst) != 0)
		return false;
	return pst.st_dev != st->st_dev || pst.st_ino == st->st_ino;
}

int
holders_describe(const char *path, char *buf, size_t len)
{
	struct out o = { buf, len, 0, 0 };
	struct stat st;

	if (len > 0)
		buf[0] = '\0';
	if (path == NULL || stat(path, &st) != 0)
		return 0;
	if (S_ISBLK(st.st_mode)) {
		struct want w = { st.st_rdev, false };

		sysfs_holders(st.st_rdev, &o);
		mounts(st.st_rdev, &o);
		processes(&w, &o);
	} else if (S_ISDIR(st.st_mode) && mount_root(path, &st)) {
		struct want w = { st.st_dev, true };

		processes(&w, &o);
	}
	return o.n;
}

bool
holders_mount_stands(const char *mp)
{
	char parent[PATH_MAX + 4];
	struct stat st, pst;

	if (snprintf(parent, sizeof parent, "%s/..", mp) >=
		(int)sizeof parent ||
	    stat(mp, &st) < 0 || stat(parent, &pst) < 0)
		return false;
	return st.st_dev != pst.st_dev;
}
