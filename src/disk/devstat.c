/*
 * Block device counters from sysfs: see devstat.h. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "devstat.h"

static const char *
root(const char *sysroot)
{
	return sysroot != NULL ? sysroot : "/sys";
}

bool
devstat_parse(const char *text, struct devstat_reading *out)
{
	uint64_t f[10];
	const char *p = text;
	char *end;

	for (int i = 0; i < 10; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		errno = 0;
		f[i] = strtoull(p, &end, 10);
		if (errno != 0)
			return false;
		p = end;
	}
	out->read_sectors = f[2];
	out->write_sectors = f[6];
	out->io_ticks = f[9];
	return true;
}

int
devstat_read(const char *sysroot, const char *name, struct devstat_reading *out)
{
	char path[PATH_MAX], buf[512];
	size_t len;
	FILE *fp;

	if (strchr(name, '/') != NULL || name[0] == '.')
		return -EINVAL;
	snprintf(path, sizeof path, "%s/class/block/%s/stat", root(sysroot),
	    name);
	if ((fp = fopen(path, "re")) == NULL)
		return -errno;
	len = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[len] = '\0';
	return devstat_parse(buf, out) ? 0 : -EINVAL;
}

static bool
exists(const char *sysroot, const char *name, const char *rest)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof path, "%s/class/block/%s/%s", root(sysroot), name,
	    rest);
	return stat(path, &st) == 0;
}

const char *
devstat_role(const char *sysroot, const char *name, char *const *names,
    size_t n)
{
	char rest[300];

	if (exists(sysroot, name, "md"))
		return "array";
	snprintf(rest, sizeof rest, "slaves/%s", name);
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) != 0 &&
		    exists(sysroot, names[i], rest))
			return "member";
	return "device";
}

bool
devstat_part_of_listed(const char *sysroot, const char *name,
    char *const *names, size_t n)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *parent;
	char *slash;

	if (!exists(sysroot, name, "partition"))
		return false;
	/* A partition's sysfs directory sits in its disk's. */
	snprintf(path, sizeof path, "%s/class/block/%s/..", root(sysroot),
	    name);
	if (realpath(path, real) == NULL)
		return false;
	slash = strrchr(real, '/');
	parent = slash != NULL ? slash + 1 : real;
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], parent) == 0)
			return true;
	return false;
}

void
devstat_init(struct devstat *d, const char *sysroot, char *const *names,
    size_t n)
{
	d->sysroot = sysroot != NULL ? xstrdup(sysroot) : NULL;
	d->n = n;
	d->names = xcalloc(n + 1, sizeof *d->names);
	d->last = xcalloc(n + 1, sizeof *d->last);
	d->ok = xcalloc(n + 1, sizeof *d->ok);
	for (size_t i = 0; i < n; i++) {
		d->names[i] = xstrdup(names[i]);
		d->ok[i] = devstat_read(sysroot, names[i], &d->last[i]) == 0;
	}
}

void
devstat_done(struct devstat *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	free(d->last);
	free(d->ok);
	free(d->sysroot);
	memset(d, 0, sizeof *d);
}

void
devstat_delta(struct devstat *d, struct dev_sample *out)
{
	for (size_t i = 0; i < d->n; i++) {
		struct devstat_reading now, *was = &d->last[i];
		bool ok = devstat_read(d->sysroot, d->names[i], &now) == 0;

		out[i].read_bytes = out[i].write_bytes = 0;
		out[i].busy_s = NAN;
		if (ok && d->ok[i] && now.read_sectors >= was->read_sectors &&
		    now.write_sectors >= was->write_sectors &&
		    now.io_ticks >= was->io_ticks) {
			out[i].read_bytes =
			    (now.read_sectors - was->read_sectors) * 512;
			out[i].write_bytes =
			    (now.write_sectors - was->write_sectors) * 512;
			out[i].busy_s =
			    (double)(now.io_ticks - was->io_ticks) / 1000.0;
		}
		d->ok[i] = ok;
		if (ok)
			*was = now;
	}
}
