/*
 * Kernel names of block devices read straight from sysfs, without a scan
 * or udev: the name of a device number, of a device node, and of the
 * devices under a directory's filesystem with what they are made of.
 * See disk.h. Any thread.
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

#include "disk.h"

bool
disk_devnum_name(unsigned maj, unsigned min, char *name, size_t len)
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

	disk_strv_push(v, n, name);
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
disk_dir_devices(const char *dir, char ***v, size_t *n)
{
	struct stat st;
	char name[256];

	if (stat(dir, &st) < 0 || major(st.st_dev) == 0)
		return; /* tmpfs, overlay, btrfs: no one device */
	if (disk_devnum_name(major(st.st_dev), minor(st.st_dev), name,
		sizeof name))
		push_with_slaves(name, v, n, 0);
}

bool
disk_dev_push(const char *path, char ***v, size_t *n)
{
	struct stat st;
	char name[256];

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return false;
	if (!disk_devnum_name(major(st.st_rdev), minor(st.st_rdev), name,
		sizeof name))
		return false;
	disk_strv_push(v, n, name);
	return true;
}
