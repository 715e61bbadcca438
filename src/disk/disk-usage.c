/*
 * Who uses a block device: mountinfo and /proc/swaps parsers, and the
 * passes that record mounts, swap, loop backing and the root device on a
 * scanned struct disk_list. See disk-usage.h. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "disk-usage.h"
#include "disk.h"

#define MAX_FIELDS 64

void
disk_usage_unescape(char *s)
{
	char *w = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Split line at blanks in place; returns the number of fields. */
static size_t
split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t\n", &save); t != NULL && n < max;
	     t = strtok_r(NULL, " \t\n", &save))
		f[n++] = t;
	return n;
}

void
disk_mounts_init(struct disk_mounts *m)
{
	memset(m, 0, sizeof *m);
}

void
disk_mounts_done(struct disk_mounts *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].root);
		free(m->v[i].target);
		free(m->v[i].fstype);
		free(m->v[i].source);
	}
	free(m->v);
	disk_mounts_init(m);
}

/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw" */
static int
mount_line(struct disk_mounts *m, char *line)
{
	char *f[MAX_FIELDS];
	size_t n = split(line, f, MAX_FIELDS), i;
	struct disk_mount *mt;
	unsigned maj, min;
	char c;

	if (n < 9 || sscanf(f[2], "%u:%u%c", &maj, &min, &c) != 2)
		return -EINVAL;
	for (i = 6; i < n && strcmp(f[i], "-") != 0; i++)
		;
	if (i + 2 >= n)
		return -EINVAL;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->v = xreallocarray(m->v, m->cap, sizeof *m->v);
	}
	mt = &m->v[m->n++];
	mt->major = maj;
	mt->minor = min;
	disk_usage_unescape(f[3]);
	disk_usage_unescape(f[4]);
	disk_usage_unescape(f[i + 2]);
	mt->root = xstrdup(f[3]);
	mt->target = xstrdup(f[4]);
	mt->fstype = xstrdup(f[i + 1]);
	mt->source = xstrdup(f[i + 2]);
	return 0;
}

int
disk_mounts_parse(struct disk_mounts *m, FILE *fp, struct err *e)
{
	char *line = NULL;
	size_t cap = 0;
	int no = 0, rc = 0;

	while (getline(&line, &cap, fp) > 0) {
		no++;
		if (line[strspn(line, " \t\n")] == '\0')
			continue;
		if (mount_line(m, line) < 0) {
			rc = err_set(e, -EINVAL, "mountinfo", no, NULL, "%s",
			    _("malformed mountinfo line"));
			break;
		}
	}
	free(line);
	return rc;
}

void
disk_swaps_init(struct disk_swaps *s)
{
	memset(s, 0, sizeof *s);
}

void
disk_swaps_done(struct disk_swaps *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	disk_swaps_init(s);
}

int
disk_swaps_parse(struct disk_swaps *s, FILE *fp, struct err *e)
{
	char *line = NULL, *f[8];
	size_t cap = 0;
	int no = 0, rc = 0;

	while (getline(&line, &cap, fp) > 0) {
		size_t n;

		if (no++ == 0 && strncmp(line, "Filename", 8) == 0)
			continue;
		n = split(line, f, 8);
		if (n == 0)
			continue;
		if (n < 2) {
			rc = err_set(e, -EINVAL, "swaps", no, NULL, "%s",
			    _("malformed swaps line"));
			break;
		}
		s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
		disk_usage_unescape(f[0]);
		s->v[s->n].path = xstrdup(f[0]);
		s->v[s->n].partition = strcmp(f[1], "partition") == 0;
		s->n++;
	}
	free(line);
	return rc;
}

/* The disk whose node is path: by string, then by st_rdev. */
static struct disk *
by_path(struct disk_list *l, const char *path)
{
	struct stat st;
	size_t i;

	if (path[0] != '/')
		return NULL;
	for (i = 0; i < l->n; i++)
		if (l->v[i].path != NULL && strcmp(l->v[i].path, path) == 0)
			return &l->v[i];
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return NULL;
	return disk_list_by_devnum(l, major(st.st_rdev), minor(st.st_rdev));
}

/* A mounted btrfs is mounted on every device of the filesystem. */
static void
mount_siblings(struct disk_list *l, const struct disk *d, const char *target)
{
	size_t i;

	if (d->fstype == NULL || strcmp(d->fstype, "btrfs") != 0 ||
	    d->uuid == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		struct disk *o = &l->v[i];

		if (o != d && o->fstype != NULL && o->uuid != NULL &&
		    strcmp(o->fstype, "btrfs") == 0 &&
		    strcmp(o->uuid, d->uuid) == 0)
			disk_strv_push(&o->mountpoints, &o->n_mountpoints,
			    target);
	}
}

void
disk_usage_apply_mounts(struct disk_list *l, const struct disk_mounts *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct disk_mount *mt = &m->v[i];
		struct disk *d = NULL;

		if (mt->major != 0)
			d = disk_list_by_devnum(l, mt->major, mt->minor);
		else if (strncmp(mt->source, "/dev/", 5) == 0)
			d = by_path(l, mt->source);
		if (d == NULL)
			continue;
		disk_strv_push(&d->mountpoints, &d->n_mountpoints, mt->target);
		if (d->mount_fstype == NULL && mt->fstype != NULL)
			d->mount_fstype = xstrdup(mt->fstype);
		mount_siblings(l, d, mt->target);
	}
}

void
disk_usage_apply_swaps(struct disk_list *l, const struct disk_swaps *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct disk *d;

		if (s->v[i].partition && (d = by_path(l, s->v[i].path)) != NULL)
			d->swap = true;
	}
}

void
disk_usage_apply_loops(struct disk_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const char *bf = l->v[i].backing_file;
		struct disk *d;

		if (l->v[i].type != DISK_TYPE_LOOP || bf == NULL ||
		    strncmp(bf, "/dev/", 5) != 0)
			continue;
		if ((d = by_path(l, bf)) != NULL && d != &l->v[i])
			disk_strv_push(&d->holders, &d->n_holders,
			    l->v[i].name);
	}
}

bool
disk_usage_root_dev(const struct disk_mounts *m, dev_t *out)
{
	struct stat st;
	size_t i;

	if (stat("/", &st) == 0 && major(st.st_dev) != 0) {
		*out = st.st_dev;
		return true;
	}
	for (i = m->n; i-- > 0;) {
		if (strcmp(m->v[i].target, "/") != 0)
			continue;
		if (m->v[i].source[0] == '/' &&
		    stat(m->v[i].source, &st) == 0 && S_ISBLK(st.st_mode)) {
			*out = st.st_rdev;
			return true;
		}
		break;
	}
	return false;
}

static void
mark_root(struct disk_list *l, struct disk *d, int depth)
{
	struct disk *p;
	size_t i;

	if (d->root || depth > 16)
		return;
	d->root = true;
	if (d->parent != NULL && (p = disk_list_by_name(l, d->parent)) != NULL)
		mark_root(l, p, depth + 1);
	for (i = 0; i < d->n_slaves; i++)
		if ((p = disk_list_by_name(l, d->slaves[i])) != NULL)
			mark_root(l, p, depth + 1);
}

void
disk_usage_mark_root(struct disk_list *l, dev_t dev)
{
	struct disk *d = disk_list_by_devnum(l, major(dev), minor(dev));

	if (d != NULL)
		mark_root(l, d, 0);
}
