/*
 * md arrays in sysfs: see mdsys.h. Any thread.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/tick.h"
#include "base/xalloc.h"
#include "mdsys.h"

/* What raidlab records of an array (md(4)). */
static const char *const fact_attrs[] = {
	"level",
	"layout",
	"chunk_size",
	"raid_disks",
	"metadata_version",
	"array_state",
	"array_size",
	"component_size",
	"consistency_policy",
	"sync_action",
	"degraded",
	"bitmap/location",
	"bitmap/chunksize",
	"bitmap/backlog", /* write_behind's limit */
	"bitmap_type", /* Linux 6.18: "[bitmap] llbitmap none" */
	/* the knobs a lab may set (md(4)): found or set, they change
	   results, and a reboot forgets them */
	"journal_mode",
	"stripe_cache_size",
	"group_thread_cnt",
	"skip_copy",
	"preread_bypass_threshold",
	"sync_speed_min",
	"sync_speed_max",
	"mismatch_cnt",
	/* the I/O hints md gives the block layer, which mkfs reads when it
	   is told no geometry */
	"../queue/minimum_io_size",
	"../queue/optimal_io_size",
	NULL,
};

/* Each member's md/dev-NAME/state ("in_sync,write_mostly"): which are
   write-mostly, faulty or spare. */
static json_t *
member_states(const char *sysroot, const char *name)
{
	char path[PATH_MAX];
	json_t *o = json_object();
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof path, "%s/block/%s/md",
	    sysroot ? sysroot : "/sys", name);
	if ((dir = opendir(path)) == NULL)
		return o;
	while ((d = readdir(dir)) != NULL) {
		char attr[300], *v;

		if (strncmp(d->d_name, "dev-", 4) != 0)
			continue;
		snprintf(attr, sizeof attr, "%s/state", d->d_name);
		if ((v = mdsys_attr(sysroot, name, attr)) == NULL)
			continue;
		json_object_set_new(o, d->d_name + 4, json_string(v));
		free(v);
	}
	closedir(dir);
	return o;
}

bool
mdsys_kernel_name(const char *dev, char *name, size_t len)
{
	char real[PATH_MAX];
	const char *base;

	if (realpath(dev, real) == NULL)
		return false;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strncmp(base, "md", 2) != 0 || base[2] < '0' || base[2] > '9')
		return false;
	snprintf(name, len, "%s", base);
	return true;
}

char *
mdsys_attr(const char *sysroot, const char *name, const char *attr)
{
	char path[PATH_MAX], buf[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "%s/block/%s/md/%s",
	    sysroot ? sysroot : "/sys", name, attr);
	if ((f = fopen(path, "re")) == NULL)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return xstrdup(buf);
}

json_t *
mdsys_facts(const char *sysroot, const char *name)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(name));
	for (const char *const *a = fact_attrs; *a != NULL; a++) {
		char *v = mdsys_attr(sysroot, name, *a);
		char key[64];

		if (v == NULL)
			continue;
		/* "bitmap/location" -> "bitmap_location",
		   "../queue/optimal_io_size" -> "optimal_io_size" */
		snprintf(key, sizeof key, "%s",
		    strncmp(*a, "../queue/", 9) == 0 ? *a + 9 : *a);
		for (char *c = key; *c; c++)
			if (*c == '/')
				*c = '_';
		json_object_set_new(o, key, json_string(v));
		free(v);
	}
	json_object_set_new(o, "members", member_states(sysroot, name));
	return o;
}

int
mdsys_write(const char *sysroot, const char *name, const char *attr,
    const char *value, char **found, char **now)
{
	char path[PATH_MAX];
	int rc;

	*found = *now = NULL;
	if (strncmp(attr, "md/", 3) != 0)
		return -EINVAL;
	*found = mdsys_attr(sysroot, name, attr + 3);
	if (*found == NULL)
		return -ENOENT;
	snprintf(path, sizeof path, "%s/block/%s/%s",
	    sysroot ? sysroot : "/sys", name, attr);
	rc = mdsys_put(path, value);
	*now = mdsys_attr(sysroot, name, attr + 3);
	return rc;
}

int
mdsys_put(const char *path, const char *value)
{
	int rc = 0;
	FILE *f;

	if ((f = fopen(path, "we")) == NULL)
		return -errno;
	/* sysfs takes the value in one write(); the error comes with it */
	setvbuf(f, NULL, _IONBF, 0);
	if (fprintf(f, "%s\n", value) < 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

bool
mdsys_sync_progress(const char *sysroot, const char *name,
    unsigned long long *done, unsigned long long *total, char *action,
    size_t alen)
{
	char *act = mdsys_attr(sysroot, name, "sync_action");
	char *sc = mdsys_attr(sysroot, name, "sync_completed");
	bool busy = act != NULL && strcmp(act, "idle") != 0 &&
	    strcmp(act, "frozen") != 0;

	*done = *total = 0;
	snprintf(action, alen, "%s", act ? act : "");
	/* "1234 / 5678", or "none" / "delayed" before it starts */
	if (sc != NULL && sscanf(sc, "%llu / %llu", done, total) != 2)
		*done = *total = 0;
	free(act);
	free(sc);
	return busy;
}

int
mdsys_wait_sync(const char *sysroot, const char *name, unsigned poll_ms,
    void (*progress)(void *arg, unsigned long long done,
	unsigned long long total),
    bool (*stop)(void *arg), void *arg, double *seconds)
{
	double t0 = tick_now_s();
	unsigned long long done, total;
	char action[32], *lvl;
	struct timespec ts = { .tv_sec = poll_ms / 1000,
		.tv_nsec = (long)(poll_ms % 1000) * 1000000L };

	*seconds = 0;
	if ((lvl = mdsys_attr(sysroot, name, "level")) == NULL)
		return -ENOENT;
	free(lvl);
	while (mdsys_sync_progress(sysroot, name, &done, &total, action,
	    sizeof action)) {
		if (progress != NULL)
			progress(arg, done, total);
		if (stop != NULL && stop(arg)) {
			*seconds = tick_now_s() - t0;
			return -EINTR;
		}
		nanosleep(&ts, NULL);
	}
	*seconds = tick_now_s() - t0;
	return 0;
}
