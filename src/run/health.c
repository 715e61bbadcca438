/*
 * Target health: the baseline of a target directory and the checks
 * against it (see health.h). The runner thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "disk/disk-usage.h"
#include "disk/disk.h"
#include "health.h"

/* One mountinfo line, as far as health needs it. */
struct hmount {
	unsigned major, minor;
	char *target, *fstype, *source, *opts, *super;
};

static void
hmount_done(struct hmount *m)
{
	free(m->target);
	free(m->fstype);
	free(m->source);
	free(m->opts);
	free(m->super);
	memset(m, 0, sizeof *m);
}

/* "ID PARENT MAJ:MIN ROOT MP OPTS [TAGS] - FSTYPE SOURCE SUPER". */
static bool
parse_line(char *line, struct hmount *m)
{
	char *f[64], *save = NULL, *t;
	size_t n = 0, dash;

	for (t = strtok_r(line, " \t\n", &save); t != NULL && n < 64;
	     t = strtok_r(NULL, " \t\n", &save))
		f[n++] = t;
	for (dash = 6; dash < n && strcmp(f[dash], "-") != 0; dash++)
		;
	if (n < 6 || dash + 2 >= n ||
	    sscanf(f[2], "%u:%u", &m->major, &m->minor) != 2)
		return false;
	disk_usage_unescape(f[4]);
	disk_usage_unescape(f[dash + 2]);
	m->target = xstrdup(f[4]);
	m->opts = xstrdup(f[5]);
	m->fstype = xstrdup(f[dash + 1]);
	m->source = xstrdup(f[dash + 2]);
	m->super = xstrdup(dash + 3 < n ? f[dash + 3] : "");
	return true;
}

/* The length of mount point mp when it holds path, else 0. */
static size_t
holds(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	return strncmp(mp, path, n) == 0 && (path[n] == '/' || path[n] == '\0')
	    ? n
	    : 0;
}

/*
 * The mount holding path on device dev: the longest mount point with that
 * device number (the later on a tie: it is on top), else by prefix only
 * (btrfs subvolumes have device numbers of their own). With exact set,
 * the last mount at exactly that mount point with device numbers
 * maj:min. False when none.
 */
static bool
find_mount(const char *path, dev_t dev, const char *exact, unsigned maj,
    unsigned min, struct hmount *out)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	size_t cap = 0, best = 0, best_any = 0, len;
	struct hmount m, any;
	char *line = NULL;

	memset(out, 0, sizeof *out);
	memset(&any, 0, sizeof any);
	if (fp == NULL)
		return false;
	while (getline(&line, &cap, fp) > 0) {
		bool same;

		memset(&m, 0, sizeof m);
		if (!parse_line(line, &m))
			continue;
		if (exact != NULL) {
			same = m.major == maj && m.minor == min &&
			    strcmp(m.target, exact) == 0;
			len = same;
		} else {
			same = m.major == major(dev) && m.minor == minor(dev);
			len = holds(m.target, path);
		}
		if (len > 0 && same && len >= best) {
			best = len;
			hmount_done(out);
			*out = m;
		} else if (len > 0 && exact == NULL && len >= best_any) {
			best_any = len;
			hmount_done(&any);
			any = m;
		} else {
			hmount_done(&m);
		}
	}
	free(line);
	fclose(fp);
	if (best > 0) {
		hmount_done(&any);
		return true;
	}
	*out = any;
	return best_any > 0;
}

/* The option list (comma-separated) holds exactly word. */
static bool
has_option(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p != NULL && *p != '\0';) {
		size_t k = strcspn(p, ",");

		if (k == n && strncmp(p, word, n) == 0)
			return true;
		p += k;
		if (*p == ',')
			p++;
	}
	return false;
}

/* The option that says the mount cannot be written, or NULL. */
static const char *
ro_option(const struct hmount *m)
{
	static const char *const bad[] = { "ro", "emergency_ro", "shutdown",
		NULL };

	for (size_t i = 0; bad[i] != NULL; i++)
		if (has_option(m->opts, bad[i]) || has_option(m->super, bad[i]))
			return bad[i];
	return NULL;
}

/* ext4's error counter of the device, or -1. */
static long long
ext4_errors(const char *sysname)
{
	char path[128];
	long long n = -1;
	FILE *fp;

	if (sysname[0] == '\0')
		return -1;
	snprintf(path, sizeof path, "/sys/fs/ext4/%s/errors_count", sysname);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	if (fscanf(fp, "%lld", &n) != 1)
		n = -1;
	fclose(fp);
	return n;
}

/* The kernel log from now on, for an ext4 on sysname: a descriptor at
   its end, or -1 (not ext4, or no right to read it). */
static int
kmsg_open(const char *sysname, long long ext4_errors)
{
	int fd;

	if (sysname[0] == '\0' || ext4_errors < 0)
		return -1;
	if ((fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -1;
	if (lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* How many "EXT4-fs error (device SYSNAME)" records fd has had since
   the last call. One record per read(); EPIPE: records were overwritten
   before we read them, read on. */
static long long
kmsg_ext4_errors(int fd, const char *sysname)
{
	char rec[8192], want[96];
	long long n = 0;
	ssize_t len;

	snprintf(want, sizeof want, "EXT4-fs error (device %s)", sysname);
	for (;;) {
		len = read(fd, rec, sizeof rec - 1);
		if (len < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (len <= 0)
			return n;
		rec[len] = '\0';
		const char *msg = strchr(rec, ';');
		if (msg != NULL && strstr(msg, want) != NULL)
			n++;
	}
}

/* The kernel name of block device dev ("loop3"), or "". */
static void
dev_name(dev_t dev, char *name, size_t len)
{
	name[0] = '\0';
	if (major(dev) != 0)
		(void)disk_devnum_name(major(dev), minor(dev), name, len);
}

/* Create and remove a file in dir: 0, or the negative errno. */
static int
probe(const char *dir)
{
	char *path = xasprintf("%s/.raidlab-probe-%ld", dir, (long)getpid());
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0)
		rc = -errno;
	else if (close(fd) < 0 || unlink(path) < 0)
		rc = -errno;
	free(path);
	return rc;
}

/* A failure of the probe that says nothing about the filesystem's
   health: full, over quota, not ours to write. */
static bool
probe_harmless(int rc)
{
	return rc == -ENOSPC || rc == -EDQUOT || rc == -EACCES ||
	    rc == -EPERM || rc == -EEXIST;
}

/* "the target /x (ext4 on /dev/loop3)" into buf. */
static const char *
what(const struct health *h, char *buf, size_t len)
{
	if (h->fstype != NULL && h->source != NULL)
		snprintf(buf, len, _("the target %s (%s on %s)"), h->dir,
		    h->fstype, h->source);
	else
		snprintf(buf, len, _("the target %s"), h->dir);
	return buf;
}

int
health_take(struct health *h, const char *dir, struct err *e)
{
	char w[PATH_MAX + 256];
	struct hmount m;
	struct statvfs sv;
	struct stat st;
	int rc;

	memset(h, 0, sizeof *h);
	h->dir = xstrdup(dir);
	h->ext4_errors = -1;
	h->kmsg = -1;
	if (stat(dir, &st) < 0)
		return err_setf(e, -errno, _("the target %s: %s"), dir,
		    strerror(errno));
	h->dev = st.st_dev;
	h->rw = true;
	if (find_mount(dir, st.st_dev, NULL, 0, 0, &m)) {
		h->mnt_major = m.major;
		h->mnt_minor = m.minor;
		h->mount_point = m.target;
		h->fstype = m.fstype;
		h->source = m.source;
		m.target = m.fstype = m.source = NULL;
		h->rw = ro_option(&m) == NULL;
		hmount_done(&m);
	}
	if (statvfs(dir, &sv) < 0)
		return err_setf(e, -errno, _("the target %s: %s"), dir,
		    strerror(errno));
	h->rw = h->rw && (sv.f_flag & ST_RDONLY) == 0;
	dev_name(st.st_dev, h->sysname, sizeof h->sysname);
	h->ext4_errors = ext4_errors(h->sysname);
	h->kmsg = kmsg_open(h->sysname, h->ext4_errors);
	/* Every workload writes: read-only before the first one is as
	   broken as turning read-only during one. */
	if (!h->rw)
		return err_setf(e, -EROFS, _("%s is read-only"),
		    what(h, w, sizeof w));
	if ((rc = probe(dir)) < 0 && !probe_harmless(rc))
		return err_setf(e, rc, _("%s cannot be written: %s"),
		    what(h, w, sizeof w), strerror(-rc));
	return 0;
}

void
health_done(struct health *h)
{
	free(h->dir);
	free(h->mount_point);
	free(h->fstype);
	free(h->source);
	if (h->kmsg >= 0)
		close(h->kmsg);
	memset(h, 0, sizeof *h);
	h->kmsg = -1;
}

int
health_check(const struct health *h, struct err *e)
{
	char w[PATH_MAX + 256];
	struct hmount m;
	struct statvfs sv;
	struct stat st;
	const char *ro;
	long long n;
	int rc;

	what(h, w, sizeof w);
	if (stat(h->dir, &st) < 0)
		return err_setf(e, -errno, _("%s cannot be reached: %s"), w,
		    strerror(errno));
	if (st.st_dev != h->dev)
		return err_setf(e, -ENODEV,
		    _("%s is not mounted there any more (unmounted during "
		      "the run?): %s is now on another filesystem"),
		    w, h->dir);
	if (h->mount_point != NULL) {
		if (!find_mount(h->dir, h->dev, h->mount_point, h->mnt_major,
			h->mnt_minor, &m))
			return err_setf(e, -ENODEV,
			    _("%s is not mounted on %s any more (unmounted "
			      "during the run?)"),
			    w, h->mount_point);
		ro = ro_option(&m);
		if (h->rw && ro != NULL) {
			rc = err_setf(e, -EROFS,
			    _("%s turned read-only (%s): its options are now "
			      "%s%s%s"),
			    w, ro, m.opts, m.super[0] ? "," : "", m.super);
			hmount_done(&m);
			return rc;
		}
		hmount_done(&m);
	}
	if (statvfs(h->dir, &sv) < 0)
		return err_setf(e, -errno, _("%s cannot be reached: %s"), w,
		    strerror(errno));
	if (h->rw && (sv.f_flag & ST_RDONLY) != 0)
		return err_setf(e, -EROFS, _("%s turned read-only"), w);
	if (h->ext4_errors >= 0 &&
	    (n = ext4_errors(h->sysname)) > h->ext4_errors)
		return err_setf(e, -EIO,
		    _("%s had %lld filesystem errors during the run "
		      "(/sys/fs/ext4/%s/errors_count; see dmesg)"),
		    w, n - h->ext4_errors, h->sysname);
	if (h->kmsg >= 0 && (n = kmsg_ext4_errors(h->kmsg, h->sysname)) > 0)
		return err_setf(e, -EIO,
		    _("%s had %lld filesystem errors during the run (the "
		      "kernel log says \"EXT4-fs error (device %s)\"; see "
		      "dmesg)"),
		    w, n, h->sysname);
	if (h->rw && (rc = probe(h->dir)) < 0 && !probe_harmless(rc))
		return err_setf(e, rc, _("%s cannot be written any more: %s"),
		    w, strerror(-rc));
	return 0;
}
