/*
 * What the lab runner keeps of the world: its own deep copy of the lab
 * (file, lines and set/own masks included, so that messages still read
 * "LAB:LINE: field"), made in the front end's thread by labrun_start();
 * and the kernel names of a variant's devices, looked up in sysfs by the
 * runner thread. It copies with the lab module's internal helpers
 * (lab-load.h) because the model has no public copy yet.
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lab-load.h"
#include "lab.h"
#include "labrun-int.h"
#include "param.h"
#include "workload.h"
#include "xalloc.h"

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static void
variant_copy(struct lab_variant *dst, const struct lab_variant *src)
{
	*dst = *src;
	dst->name = dup_or_null(src->name);
	dst->description = dup_or_null(src->description);
	dst->directory = dup_or_null(src->directory);
	dst->scratch_dir = dup_or_null(src->scratch_dir);
	lab_array_copy(&dst->array, &src->array);
	lab_fs_copy(&dst->fs, &src->fs);
}

static void
workload_copy(struct lab_workload *dst, const struct lab_workload *src)
{
	*dst = *src;
	dst->name = dup_or_null(src->name);
	dst->type = dup_or_null(src->type);
	dst->values = NULL;
	if (src->values != NULL && src->wl != NULL) {
		size_t n = param_count(src->wl->params);

		dst->values = xcalloc(n + 1, sizeof *dst->values);
		param_values_copy(src->wl->params, dst->values, src->values);
	}
}

struct lab *
labrun_lab_copy(const struct lab *lab)
{
	struct lab *c = xcalloc(1, sizeof *c);

	*c = *lab;
	c->path = dup_or_null(lab->path);
	c->name = dup_or_null(lab->name);
	c->description = dup_or_null(lab->description);
	c->results = dup_or_null(lab->results);
	if (lab->defaults != NULL) {
		c->defaults = xmalloc(sizeof *c->defaults);
		variant_copy(c->defaults, lab->defaults);
	}
	c->variants = xcalloc(lab->nvariants + 1, sizeof *c->variants);
	for (size_t i = 0; i < lab->nvariants; i++)
		variant_copy(&c->variants[i], &lab->variants[i]);
	c->workloads = xcalloc(lab->nworkloads + 1, sizeof *c->workloads);
	for (size_t i = 0; i < lab->nworkloads; i++)
		workload_copy(&c->workloads[i], &lab->workloads[i]);
	return c;
}

/* ---------------------------------------------------------------- devices */

static bool
strv_has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

static void
strv_push_new(char ***v, size_t *n, const char *s)
{
	if (strv_has(*v, *n, s))
		return;
	*v = xreallocarray(*v, *n + 2, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

/* The kernel name of the block device maj:min ("sda2"), into name. */
static bool
devnum_name(unsigned maj, unsigned min, char *name, size_t len)
{
	char link[64], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", maj, min);
	if ((n = readlink(link, target, sizeof target - 1)) <= 0)
		return false;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (*base == '\0' || strlen(base) >= len)
		return false;
	memcpy(name, base, strlen(base) + 1);
	return true;
}

/* name, then what it is made of (md members, dm tables), depth first. */
static void
push_with_slaves(const char *name, char ***v, size_t *n, int depth)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;

	strv_push_new(v, n, name);
	if (depth > 4)
		return;
	snprintf(path, sizeof path, "/sys/class/block/%s/slaves", name);
	if ((dir = opendir(path)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL)
		if (d->d_name[0] != '.')
			push_with_slaves(d->d_name, v, n, depth + 1);
	closedir(dir);
}

void
labrun_dir_devices(const char *dir, char ***v, size_t *n)
{
	struct stat st;
	char name[256];

	if (stat(dir, &st) < 0 || major(st.st_dev) == 0)
		return; /* tmpfs, overlay, btrfs: no one device */
	if (devnum_name(major(st.st_dev), minor(st.st_dev), name, sizeof name))
		push_with_slaves(name, v, n, 0);
}

bool
labrun_dev_push(const char *path, char ***v, size_t *n)
{
	struct stat st;
	char name[256];

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return false;
	if (!devnum_name(major(st.st_rdev), minor(st.st_rdev), name,
		sizeof name))
		return false;
	strv_push_new(v, n, name);
	return true;
}
