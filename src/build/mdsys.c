/*
 * md arrays in sysfs: see mdsys.h. Any thread.
 */
#include "config.h"

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
	/* the I/O hints md gives the block layer, which mkfs reads when it
	   is told no geometry */
	"../queue/minimum_io_size",
	"../queue/optimal_io_size",
	NULL,
};

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
	return o;
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
