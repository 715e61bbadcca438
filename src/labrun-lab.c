/*
 * The kernel names of a variant's devices, looked up in sysfs by the
 * runner thread.
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

#include "lab.h"
#include "labrun-int.h"
#include "xalloc.h"

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
