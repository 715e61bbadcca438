/*
 * Target facts for result records (record.h): the mount a directory lives
 * on (from /proc/self/mountinfo, matched by st_dev and the longest mount
 * point prefix), its filesystem type, source and options, and the block
 * devices under it with their models (the disk inventory of disk.h,
 * without probing): the source, the whole disk of a partition, the
 * members of md and dm devices down to the disks, every device of a
 * btrfs filesystem. tmpfs, overlay and other device-less mounts have no
 * devices. Never fails: an unknown fact is null. The record's thread.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "disk/disk-usage.h"
#include "disk/disk.h"
#include "record-int.h"
#include "record.h"

/* The mount a directory is on. */
struct tmount {
	unsigned major, minor;
	char *target, *fstype, *source, *options;
};

static void
tmount_done(struct tmount *m)
{
	free(m->target);
	free(m->fstype);
	free(m->source);
	free(m->options);
	memset(m, 0, sizeof *m);
}

/* Append the options of list that b does not hold yet. */
static void
add_options(struct strbuf *b, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *o;
	size_t n;

	for (o = strtok_r(copy, ",", &save); o != NULL;
	     o = strtok_r(NULL, ",", &save)) {
		const char *p = b->s;

		n = strlen(o);
		while ((p = strstr(p, o)) != NULL) {
			if ((p == b->s || p[-1] == ',') &&
			    (p[n] == ',' || p[n] == '\0'))
				break;
			p += n;
		}
		if (p != NULL)
			continue;
		if (b->len > 0)
			strbuf_add(b, ",");
		strbuf_add(b, o);
	}
	free(copy);
}

/* Whether mount point mp contains path (both absolute, normalized). */
static size_t
prefix_len(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

/*
 * Parse one mountinfo line: "ID PARENT MAJ:MIN ROOT MP OPTS [TAGS] -
 * FSTYPE SOURCE SUPER". Returns false when it is malformed.
 */
static bool
parse_line(char *line, struct tmount *m)
{
	char *f[64], *save = NULL, *t;
	size_t n = 0, dash;
	struct strbuf opts;

	for (t = strtok_r(line, " \t\n", &save); t != NULL && n < 64;
	     t = strtok_r(NULL, " \t\n", &save))
		f[n++] = t;
	for (dash = 6; dash < n && strcmp(f[dash], "-") != 0; dash++)
		;
	if (dash + 2 >= n)
		return false;
	if (sscanf(f[2], "%u:%u", &m->major, &m->minor) != 2)
		return false;
	disk_usage_unescape(f[4]);
	disk_usage_unescape(f[dash + 2]);
	m->target = xstrdup(f[4]);
	m->fstype = xstrdup(f[dash + 1]);
	m->source = xstrdup(f[dash + 2]);
	strbuf_init(&opts);
	add_options(&opts, f[5]);
	if (dash + 3 < n)
		add_options(&opts, f[dash + 3]);
	m->options = strbuf_take(&opts);
	strbuf_done(&opts);
	return true;
}

/*
 * The mount holding path: among mounts with the directory's device
 * number the one with the longest mount point prefix (the later one on a
 * tie: it is on top); by prefix alone when no device number matches.
 */
static bool
find_mount(const char *path, const struct stat *st, struct tmount *out)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0, best_dev = 0, best_any = 0, len;
	struct tmount m, any;

	memset(out, 0, sizeof *out);
	memset(&any, 0, sizeof any);
	if (fp == NULL)
		return false;
	while (getline(&line, &cap, fp) > 0) {
		memset(&m, 0, sizeof m);
		if (!parse_line(line, &m))
			continue;
		len = prefix_len(m.target, path);
		if (len > 0 && st != NULL && m.major == major(st->st_dev) &&
		    m.minor == minor(st->st_dev) && len >= best_dev) {
			best_dev = len;
			tmount_done(out);
			*out = m;
		} else if (len > 0 && len >= best_any) {
			best_any = len;
			tmount_done(&any);
			any = m;
		} else {
			tmount_done(&m);
		}
	}
	free(line);
	fclose(fp);
	if (best_dev > 0) {
		tmount_done(&any);
		return true;
	}
	*out = any;
	return best_any > 0;
}

static json_t *
device_json(const struct disk *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", jsonx_str(d->name));
	json_object_set_new(o, "path", jsonx_str(d->path));
	json_object_set_new(o, "type", json_string(disk_type_name(d->type)));
	json_object_set_new(o, "model", jsonx_str(d->model));
	json_object_set_new(o, "vendor", jsonx_str(d->vendor));
	json_object_set_new(o, "serial", jsonx_str(d->serial));
	json_object_set_new(o, "size", rec_ju64(d->size));
	json_object_set_new(o, "rotational", json_boolean(d->rotational));
	json_object_set_new(o, "transport", jsonx_str(d->transport));
	if (d->type == DISK_TYPE_LOOP)
		json_object_set_new(o, "backing_file",
		    jsonx_str(d->backing_file));
	return o;
}

/* Add d, then the disk of a partition and what md/dm sit on. */
static void
add_device(json_t *devs, struct disk_list *l, const struct disk *d, int depth)
{
	const struct disk *p;
	size_t i;

	if (d == NULL || depth > 16)
		return;
	for (i = 0; i < json_array_size(devs); i++)
		if (strcmp(record_get_str(json_array_get(devs, i), "name"),
			d->name) == 0)
			return;
	json_array_append_new(devs, device_json(d));
	if (d->parent != NULL && (p = disk_list_by_name(l, d->parent)) != NULL)
		add_device(devs, l, p, depth + 1);
	for (i = 0; i < d->n_slaves; i++)
		add_device(devs, l, disk_list_by_name(l, d->slaves[i]),
		    depth + 1);
}

/* Every device of the btrfs filesystem path is on, from sysfs. */
static void
add_btrfs(json_t *devs, struct disk_list *l, const char *path)
{
	struct btrfs_ioctl_fs_info_args info;
	char uuid[40], dir[PATH_MAX];
	struct dirent **names;
	int i, n;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	memset(&info, 0, sizeof info);
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &info) < 0) {
		close(fd);
		return;
	}
	close(fd);
	snprintf(uuid, sizeof uuid,
	    "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x",
	    info.fsid[0], info.fsid[1], info.fsid[2], info.fsid[3],
	    info.fsid[4], info.fsid[5], info.fsid[6], info.fsid[7],
	    info.fsid[8], info.fsid[9], info.fsid[10], info.fsid[11],
	    info.fsid[12], info.fsid[13], info.fsid[14], info.fsid[15]);
	snprintf(dir, sizeof dir, "/sys/fs/btrfs/%s/devices", uuid);
	/* In name order ("loop2" before "loop10"), not directory order. */
	if ((n = scandir(dir, &names, NULL, versionsort)) < 0)
		return;
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			add_device(devs, l,
			    disk_list_by_name(l, names[i]->d_name), 0);
		free(names[i]);
	}
	free(names);
}

/* The devices under mount m (of directory path). */
static json_t *
devices_json(const struct tmount *m, const char *path)
{
	json_t *devs = json_array();
	struct disk_list l;
	struct stat st;
	struct err e;
	unsigned maj = m->major, min = m->minor;

	disk_list_init(&l);
	if (disk_list_scan(&l, DISK_SCAN_NO_PROBE, &e) < 0)
		goto out;
	if (strcmp(m->fstype, "btrfs") == 0) {
		add_btrfs(devs, &l, path);
		if (json_array_size(devs) > 0)
			goto out;
	}
	/* Anonymous device numbers (btrfs, overlay): try the source. */
	if (maj == 0 || disk_list_by_devnum(&l, maj, min) == NULL) {
		if (m->source[0] != '/' || stat(m->source, &st) < 0 ||
		    !S_ISBLK(st.st_mode))
			goto out;
		maj = major(st.st_rdev);
		min = minor(st.st_rdev);
	}
	add_device(devs, &l, disk_list_by_devnum(&l, maj, min), 0);
out:
	disk_list_done(&l);
	return devs;
}

/* path made absolute and resolved; a copy of dir when that fails. */
static char *
abs_path(const char *dir)
{
	char *r = realpath(dir, NULL), cwd[PATH_MAX];

	if (r != NULL)
		return r;
	if (dir[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
		return xstrdup(dir);
	return xasprintf("%s/%s", cwd, dir);
}

json_t *
record_target_json(const char *dir)
{
	json_t *o = json_object();
	char *path = abs_path(dir);
	struct stat st;
	struct tmount m;
	bool have_st = stat(path, &st) == 0, found;

	found = find_mount(path, have_st ? &st : NULL, &m);
	json_object_set_new(o, "path", jsonx_str(path));
	json_object_set_new(o, "fstype", jsonx_str(found ? m.fstype : NULL));
	json_object_set_new(o, "source", jsonx_str(found ? m.source : NULL));
	json_object_set_new(o, "mount_point",
	    jsonx_str(found ? m.target : NULL));
	json_object_set_new(o, "mount_options",
	    jsonx_str(found ? m.options : NULL));
	json_object_set_new(o, "devices",
	    found ? devices_json(&m, path) : json_array());
	tmount_done(&m);
	free(path);
	return o;
}
