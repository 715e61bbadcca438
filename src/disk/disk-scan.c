/*
 * Block device enumeration: libudev lists the devices (from sysfs, no
 * daemon needed); their attributes come straight from sysfs, with udev
 * database properties preferred when a udev daemon recorded them. No
 * process is spawned and no device is opened here. See disk.h. Any thread.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "disk.h"

#define ATTR_MAX 4096

/* True when path has a component that starts with prefix followed by a
 * digit ("/ata3", "/usb2", "/nvme0") or, with any_tail, anything. */
static bool
has_component(const char *path, const char *prefix, bool any_tail)
{
	size_t n = strlen(prefix);
	const char *p;

	for (p = path; (p = strchr(p, '/')) != NULL; p++) {
		if (strncmp(p + 1, prefix, n) != 0)
			continue;
		if (any_tail || isdigit((unsigned char)p[1 + n]))
			return true;
	}
	return false;
}

const char *
disk_transport_from_syspath(const char *syspath)
{
	static const char virt[] = "/devices/virtual/block/";
	const char *v = strstr(syspath, virt);

	if (v != NULL) {
		v += sizeof virt - 1;
		if (strncmp(v, "loop", 4) == 0)
			return "loop";
		if (strncmp(v, "md", 2) == 0)
			return "md";
		if (strncmp(v, "dm-", 3) == 0)
			return "dm";
		return NULL;
	}
	if (has_component(syspath, "usb", false))
		return "usb";
	if (has_component(syspath, "nvme", false) ||
	    has_component(syspath, "nvme-subsystem", true))
		return "nvme";
	if (has_component(syspath, "mmc_host", true) ||
	    has_component(syspath, "mmc", false))
		return "mmc";
	if (has_component(syspath, "ata", false))
		return "sata";
	if (has_component(syspath, "target", false))
		return "scsi";
	if (has_component(syspath, "virtio", false))
		return "virtio";
	return NULL;
}

/* Read dir/attr into buf, whitespace trimmed; NULL if absent or empty. */
static char *
read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	char *s;
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	for (s = buf; isspace((unsigned char)*s); s++)
		;
	return *s != '\0' ? s : NULL;
}

static char *
dup_attr(const char *dir, const char *attr)
{
	char buf[ATTR_MAX];
	char *s = read_attr(dir, attr, buf, sizeof buf);

	return s != NULL ? xstrdup(s) : NULL;
}

static uint64_t
num_attr(const char *dir, const char *attr)
{
	char buf[64];
	char *s = read_attr(dir, attr, buf, sizeof buf);

	return s != NULL ? strtoull(s, NULL, 10) : 0;
}

/* Names in dir/sub (holders, slaves). */
static void
read_links(const char *dir, const char *sub, char ***v, size_t *n)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof path, "%s/%s", dir, sub);
	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			disk_strv_push(v, n, de->d_name);
	closedir(d);
}

/* A udev property, or NULL; underscores (udev's spaces) made spaces. */
static char *
dup_prop(struct udev_device *u, const char *key)
{
	const char *v = udev_device_get_property_value(u, key);
	char *s, *p;

	if (v == NULL || *v == '\0')
		return NULL;
	s = xstrdup(v);
	for (p = s; *p != '\0'; p++)
		if (*p == '_')
			*p = ' ';
	return s;
}

static enum disk_type
type_of(struct udev_device *u, const char *name, unsigned maj)
{
	const char *t = udev_device_get_devtype(u);

	if (t != NULL && strcmp(t, "partition") == 0)
		return DISK_TYPE_PART;
	if (maj == 7 || strncmp(name, "loop", 4) == 0)
		return DISK_TYPE_LOOP;
	if (strncmp(name, "dm-", 3) == 0)
		return DISK_TYPE_DM;
	if (strncmp(name, "md", 2) == 0 && maj != 8)
		return DISK_TYPE_MD;
	if (maj == 11 || strncmp(name, "sr", 2) == 0)
		return DISK_TYPE_ROM;
	return DISK_TYPE_DISK;
}

/* Model, vendor, serial and transport: udev first, then sysfs of the
 * whole disk (whole is the disk's own directory, or a partition's
 * parent's). */
static void
fill_identity(struct disk *d, struct udev_device *u, const char *whole)
{
	static const char *const serials[] = {
		"serial",
		"device/serial",
		"wwid",
		"device/wwid",
	};
	const char *bus = udev_device_get_property_value(u, "ID_BUS");
	const char *tr;
	size_t i;

	if ((d->model = dup_prop(u, "ID_MODEL")) == NULL)
		d->model = dup_attr(whole, "device/model");
	if ((d->vendor = dup_prop(u, "ID_VENDOR")) == NULL)
		d->vendor = dup_attr(whole, "device/vendor");
	if ((d->serial = dup_prop(u, "ID_SERIAL_SHORT")) == NULL)
		for (i = 0; i < 4 && d->serial == NULL; i++)
			d->serial = dup_attr(whole, serials[i]);
	if (bus != NULL && *bus != '\0')
		tr = strcmp(bus, "ata") == 0 ? "sata" : bus;
	else
		tr = disk_transport_from_syspath(whole);
	d->transport = tr != NULL ? xstrdup(tr) : NULL;
}

static void
fill_disk(struct disk *d, struct udev_device *u, const char *syspath)
{
	dev_t num = udev_device_get_devnum(u);
	const char *node = udev_device_get_devnode(u);
	char *whole = xstrdup(syspath);

	d->syspath = xstrdup(syspath);
	d->path = node != NULL ? xstrdup(node) : xasprintf("/dev/%s", d->name);
	d->major = major(num);
	d->minor = minor(num);
	d->type = type_of(u, d->name, d->major);
	if (d->type == DISK_TYPE_PART) {
		char *slash = strrchr(whole, '/');

		if (slash != NULL)
			*slash = '\0';
		d->parent = xstrdup(strrchr(whole, '/') + 1);
	}
	d->size = num_attr(syspath, "size") * 512;
	d->log_sec = (unsigned)num_attr(whole, "queue/logical_block_size");
	d->phy_sec = (unsigned)num_attr(whole, "queue/physical_block_size");
	d->rotational = num_attr(whole, "queue/rotational") != 0;
	d->removable = num_attr(whole, "removable") != 0;
	d->read_only = num_attr(syspath, "ro") != 0;
	fill_identity(d, u, whole);
	if (d->type == DISK_TYPE_LOOP)
		d->backing_file = dup_attr(syspath, "loop/backing_file");
	read_links(syspath, "holders", &d->holders, &d->n_holders);
	read_links(syspath, "slaves", &d->slaves, &d->n_slaves);
	free(whole);
}

static pthread_mutex_t udev_lock = PTHREAD_MUTEX_INITIALIZER;

void
disk_udev_lock(void)
{
	pthread_mutex_lock(&udev_lock);
}

void
disk_udev_unlock(void)
{
	pthread_mutex_unlock(&udev_lock);
}

static int
enumerate_locked(struct disk_list *l, struct err *e)
{
	struct udev_enumerate *en = NULL;
	struct udev_list_entry *ent;
	struct udev *udev;
	int rc = 0;

	if ((udev = udev_new()) == NULL)
		return err_setf(e, -ENOMEM, "%s", _("cannot start libudev"));
	en = udev_enumerate_new(udev);
	if (en == NULL || udev_enumerate_add_match_subsystem(en, "block") < 0 ||
	    (rc = udev_enumerate_scan_devices(en)) < 0) {
		rc = err_setf(e, rc < 0 ? rc : -ENOMEM,
		    _("cannot enumerate block devices: %s"),
		    strerror(rc < 0 ? -rc : ENOMEM));
		goto out;
	}
	udev_list_entry_foreach(ent, udev_enumerate_get_list_entry(en))
	{
		const char *sp = udev_list_entry_get_name(ent);
		struct udev_device *u;

		u = udev_device_new_from_syspath(udev, sp);
		if (u == NULL)
			continue; /* removed meanwhile */
		if (udev_device_get_devnum(u) != 0 &&
		    udev_device_get_sysname(u) != NULL)
			fill_disk(disk_list_add(l, udev_device_get_sysname(u)),
			    u, sp);
		udev_device_unref(u);
	}
out:
	udev_enumerate_unref(en);
	udev_unref(udev);
	return rc;
}

int
disk_list_enumerate(struct disk_list *l, struct err *e)
{
	int rc;

	disk_udev_lock();
	rc = enumerate_locked(l, e);
	disk_udev_unlock();
	return rc;
}
