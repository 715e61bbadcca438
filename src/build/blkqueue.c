/*
 * A member device's request queue in sysfs: see blkqueue.h. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "blkqueue.h"
#include "mdsys.h"

int
blkqueue_dir(const char *sysroot, const char *dev, char *buf, size_t len)
{
	char real[PATH_MAX], part[PATH_MAX + 64];
	const char *name, *root = sysroot ? sysroot : "/sys";
	struct stat st;

	if (realpath(dev, real) == NULL)
		return -ENOENT;
	name = strrchr(real, '/');
	name = name ? name + 1 : real;
	snprintf(part, sizeof part, "%s/class/block/%s/partition", root, name);
	/* a partition's requests go through its disk's queue: the class
	   link points into the disk's directory */
	if (snprintf(buf, len, "%s/class/block/%s/%squeue", root, name,
		access(part, F_OK) == 0 ? "../" : "") >= (int)len)
		return -ENAMETOOLONG;
	if (stat(buf, &st) < 0 || !S_ISDIR(st.st_mode))
		return -ENOENT;
	return 0;
}

bool
blkqueue_is_partition(const char *sysroot, const char *dev)
{
	char real[PATH_MAX], part[PATH_MAX + 64];
	const char *name;

	if (realpath(dev, real) == NULL)
		return false;
	name = strrchr(real, '/');
	name = name ? name + 1 : real;
	snprintf(part, sizeof part, "%s/class/block/%s/partition",
	    sysroot ? sysroot : "/sys", name);
	return access(part, F_OK) == 0;
}

char *
blkqueue_attr(const char *sysroot, const char *dev, const char *attr)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], buf[4096];
	size_t n;
	FILE *f;

	if (blkqueue_dir(sysroot, dev, dir, sizeof dir) < 0)
		return NULL;
	snprintf(path, sizeof path, "%s/%s", dir, attr);
	if ((f = fopen(path, "re")) == NULL)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return xstrdup(buf);
}

bool
blkqueue_sched_active(const char *list, char *buf, size_t len)
{
	const char *a = strchr(list, '['), *z;

	if (a == NULL || (z = strchr(a, ']')) == NULL)
		return false;
	snprintf(buf, len, "%.*s", (int)(z - a - 1), a + 1);
	return true;
}

bool
blkqueue_sched_offers(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *w = list; *w != '\0';) {
		size_t l;

		w += strspn(w, " []\n");
		l = strcspn(w, " []\n");
		if (l == n && strncmp(w, name, n) == 0)
			return n > 0;
		w += l;
	}
	return false;
}

char *
blkqueue_value(const char *sysroot, const char *dev, const char *attr)
{
	char *v = blkqueue_attr(sysroot, dev, attr), act[64];

	if (v == NULL || strcmp(attr, "scheduler") != 0)
		return v;
	/* a queue with no elevator to choose from shows "none" bare */
	if (blkqueue_sched_active(v, act, sizeof act)) {
		free(v);
		v = xstrdup(act);
	}
	return v;
}

int
blkqueue_write(const char *sysroot, const char *dev, const char *attr,
    const char *value, char **found, char **now)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	int rc;

	*found = *now = NULL;
	/* the two raidlab sets: a journal read back names no other file */
	if (strcmp(attr, "scheduler") != 0 && strcmp(attr, "nr_requests") != 0)
		return -EINVAL;
	if (blkqueue_dir(sysroot, dev, dir, sizeof dir) < 0 ||
	    (*found = blkqueue_value(sysroot, dev, attr)) == NULL)
		return -ENOENT;
	snprintf(path, sizeof path, "%s/%s", dir, attr);
	rc = mdsys_put(path, value);
	*now = blkqueue_value(sysroot, dev, attr);
	return rc;
}

/* attr as an integer when it is one, else as text. */
static void
put_attr(json_t *o, const char *sysroot, const char *dev, const char *attr)
{
	char *v = blkqueue_attr(sysroot, dev, attr), *end;
	long long n;

	if (v == NULL)
		return;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (*v != '\0' && *end == '\0' && errno == 0)
		json_object_set_new(o, attr, json_integer(n));
	else
		json_object_set_new(o, attr, json_string(v));
	free(v);
}

json_t *
blkqueue_facts(const char *sysroot, const char *dev)
{
	char dir[PATH_MAX], act[64], *list;
	json_t *o, *a;

	if (blkqueue_dir(sysroot, dev, dir, sizeof dir) < 0)
		return NULL;
	o = json_object();
	if ((list = blkqueue_attr(sysroot, dev, "scheduler")) != NULL) {
		char *copy = xstrdup(list), *w, *save = NULL;

		a = json_array();
		for (w = strtok_r(copy, " []", &save); w != NULL;
		     w = strtok_r(NULL, " []", &save))
			json_array_append_new(a, json_string(w));
		free(copy);
		json_object_set_new(o, "scheduler",
		    json_string(blkqueue_sched_active(list, act, sizeof act)
			    ? act
			    : list));
		json_object_set_new(o, "schedulers", a);
		free(list);
	}
	put_attr(o, sysroot, dev, "nr_requests");
	put_attr(o, sysroot, dev, "rotational");
	put_attr(o, sysroot, dev, "write_cache");
	put_attr(o, sysroot, dev, "read_ahead_kb");
	return o;
}
