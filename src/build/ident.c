/*
 * Identities of what undo commands name, and the judgement of which of
 * them an undo may touch. See ident.h. Any thread.
 */
#include "config.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "ident.h"

static const char *const verdict_names[] = { "same", "gone", "other",
	"unproven" };

const char *
ident_verdict_name(enum ident_verdict v)
{
	return (unsigned)v < 4 ? verdict_names[v] : "?";
}

/* The first line of a small text file into buf; false when unreadable. */
static bool
read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static const char *
boot_id(char *buf, size_t len)
{
	if (!read_line("/proc/sys/kernel/random/boot_id", buf, len))
		buf[0] = '\0';
	return buf;
}

/* The kernel's disk sequence number of rdev (Linux 5.15+), 0 unknown.
   A partition has none of its own: its disk's counts (a new attach of
   the disk is a new sequence for every partition on it). */
static unsigned long long
diskseq(dev_t rdev)
{
	char path[96], b[32];

	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/diskseq", major(rdev),
	    minor(rdev));
	if (read_line(path, b, sizeof b))
		return strtoull(b, NULL, 10);
	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/../diskseq",
	    major(rdev), minor(rdev));
	return read_line(path, b, sizeof b) ? strtoull(b, NULL, 10) : 0;
}

struct sig {
	char type[32], uuid[64], uuid_sub[64];
};

static void
lookup(blkid_probe pr, const char *name, char *buf, size_t len)
{
	const char *v = NULL;

	buf[0] = '\0';
	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v != NULL)
		snprintf(buf, len, "%s", v);
}

/* The signature libblkid finds on path; false when there is none (or
   the device cannot be read). */
static bool
probe(const char *path, struct sig *s)
{
	blkid_probe pr = NULL;
	bool found = false;
	int fd;

	memset(s, 0, sizeof *s);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return false;
	if ((pr = blkid_new_probe()) != NULL &&
	    blkid_probe_set_device(pr, fd, 0, 0) == 0) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr,
		    BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID);
		blkid_probe_enable_partitions(pr, 1);
		if (blkid_do_safeprobe(pr) == 0) {
			lookup(pr, "TYPE", s->type, sizeof s->type);
			if (s->type[0] == '\0')
				lookup(pr, "PTTYPE", s->type, sizeof s->type);
			lookup(pr, "UUID", s->uuid, sizeof s->uuid);
			if (s->uuid[0] == '\0')
				lookup(pr, "PTUUID", s->uuid, sizeof s->uuid);
			lookup(pr, "UUID_SUB", s->uuid_sub, sizeof s->uuid_sub);
			found = s->type[0] != '\0';
		}
	}
	blkid_free_probe(pr);
	close(fd);
	return found;
}

/* Whether /sys/dev/block/MAJ:MIN/sub exists ("" for the device). */
static bool
sysfs_has(dev_t rdev, const char *sub)
{
	char path[128];

	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/%s", major(rdev),
	    minor(rdev), sub);
	return access(path, F_OK) == 0;
}

/* The device rdev has no medium: size 0 (an unattached loop device). */
static bool
sysfs_empty(dev_t rdev)
{
	char path[128], buf[32] = "";
	FILE *fp;
	bool empty;

	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/size", major(rdev),
	    minor(rdev));
	if ((fp = fopen(path, "re")) == NULL)
		return false;
	empty = fgets(buf, sizeof buf, fp) != NULL && buf[0] == '0' &&
	    (buf[1] == '\n' || buf[1] == '\0');
	fclose(fp);
	return empty;
}

/* Orders md members by device number, so that two lists compare equal
   whatever order sysfs listed them in. */
static int
member_cmp(const void *a, const void *b)
{
	json_int_t x =
	    json_integer_value(json_object_get(*(json_t *const *)a, "rdev"));
	json_int_t y =
	    json_integer_value(json_object_get(*(json_t *const *)b, "rdev"));

	return (x > y) - (x < y);
}

/*
 * The member array UUID shared by every member of the md array rdev,
 * into buf: 1, or 0 when it has no member (stopped, or not assembled),
 * -1 when a member carries none or they differ. members, when not NULL,
 * gets each member's own identity, [{rdev, uuid_sub}] (the device UUID
 * its superblock carries: a new one at every mdadm --create), sorted.
 */
static int
md_members(dev_t rdev, char *buf, size_t len, json_t **members)
{
	char dir[96], dev[PATH_MAX];
	struct dirent *de;
	struct stat st;
	struct sig s;
	json_t *v[64];
	size_t n = 0;
	bool ok = true;
	DIR *d;

	buf[0] = '\0';
	snprintf(dir, sizeof dir, "/sys/dev/block/%u:%u/slaves", major(rdev),
	    minor(rdev));
	if ((d = opendir(dir)) == NULL)
		return 0;
	while (ok && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof dev, "/dev/%s", de->d_name);
		if (!probe(dev, &s) ||
		    strcmp(s.type, "linux_raid_member") != 0 ||
		    stat(dev, &st) < 0 || n == sizeof v / sizeof *v)
			ok = false;
		else if (n > 0 && strcmp(buf, s.uuid) != 0)
			ok = false;
		else {
			snprintf(buf, len, "%s", s.uuid);
			v[n++] = json_pack("{s:I, s:s}", "rdev",
			    (json_int_t)st.st_rdev, "uuid_sub", s.uuid_sub);
		}
	}
	closedir(d);
	qsort(v, n, sizeof *v, member_cmp);
	if (members != NULL)
		*members = json_array();
	for (size_t i = 0; i < n; i++)
		if (members != NULL && ok)
			json_array_append_new(*members, v[i]);
		else
			json_decref(v[i]);
	return !ok ? -1 : n > 0 ? 1 : 0;
}

/* A directory is a mount point when it is on another device than its
   parent (or is /). */
static bool
is_mountpoint(const char *path, const struct stat *st)
{
	char parent[PATH_MAX + 4];
	struct stat pst;

	if (snprintf(parent, sizeof parent, "%s/..", path) >=
	    (int)sizeof parent)
		return false;
	if (stat(parent, &pst) < 0)
		return false;
	return pst.st_dev != st->st_dev || pst.st_ino == st->st_ino;
}

static json_t *
take_block(const struct stat *st, const char *path, bool content)
{
	char boot[64], md[64];
	json_t *o, *members = NULL;
	struct sig s;

	o = json_pack("{s:s, s:I, s:I, s:s}", "kind", "block", "rdev",
	    (json_int_t)st->st_rdev, "diskseq",
	    (json_int_t)diskseq(st->st_rdev), "boot",
	    boot_id(boot, sizeof boot));
	if (!content)
		return o;
	/* What is on it now; "content" says it was looked at, so that no
	   signature is a fact too. */
	json_object_set_new(o, "content", json_true());
	if (sysfs_has(st->st_rdev, "md") &&
	    md_members(st->st_rdev, md, sizeof md, &members) > 0) {
		json_object_set_new(o, "md_uuid", json_string(md));
		json_object_set_new(o, "md_members", members);
	} else
		json_decref(members);
	if (probe(path, &s)) {
		json_object_set_new(o, "type", json_string(s.type));
		json_object_set_new(o, "uuid", json_string(s.uuid));
		json_object_set_new(o, "uuid_sub", json_string(s.uuid_sub));
	}
	return o;
}

json_t *
ident_take(const char *path, bool content)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return json_pack("{s:s}", "kind",
		    errno == ENOENT || errno == ENOTDIR ? "absent"
							: "unreadable");
	if (S_ISBLK(st.st_mode))
		return take_block(&st, path, content);
	if (S_ISREG(st.st_mode))
		return json_pack("{s:s, s:I, s:I}", "kind", "file", "dev",
		    (json_int_t)st.st_dev, "ino", (json_int_t)st.st_ino);
	if (S_ISDIR(st.st_mode) && is_mountpoint(path, &st)) {
		char boot[64];

		return json_pack("{s:s, s:I, s:s}", "kind", "mount", "dev",
		    (json_int_t)st.st_dev, "boot", boot_id(boot, sizeof boot));
	}
	if (S_ISDIR(st.st_mode))
		return json_pack("{s:s, s:I, s:I}", "kind", "dir", "dev",
		    (json_int_t)st.st_dev, "ino", (json_int_t)st.st_ino);
	return json_pack("{s:s}", "kind", "other");
}

json_t *
ident_take_undo(const char *const *const *undo, bool content)
{
	json_t *o = json_object();

	for (size_t i = 0; undo != NULL && undo[i] != NULL; i++)
		for (size_t k = 1; undo[i][k] != NULL; k++) {
			const char *a = undo[i][k];

			if (a[0] == '/' && json_object_get(o, a) == NULL)
				json_object_set_new(o, a,
				    ident_take(a, content));
		}
	return o;
}

/* ---------------------------------------------------------------- check */

static const char *
str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

static unsigned long long
num(const json_t *o, const char *key)
{
	return (unsigned long long)json_integer_value(json_object_get(o, key));
}

static enum ident_verdict __attribute__((format(printf, 4, 5)))
verdict(enum ident_verdict v, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return v;
}

static enum ident_verdict
unproven_reboot(const char *path, char *why, size_t len)
{
	return verdict(IDENT_UNPROVEN, why, len,
	    _("%s: the machine has rebooted since, and nothing raidlab "
	      "recorded on it proves it is the same device"),
	    path);
}

/* What a block device shows now, for ident_block_verdict(): its
   identity, content included, and "present" (a device behind the node),
   "empty" (no medium) and "md_state" (md_members' answer). */
static json_t *
block_now(const char *path, const struct stat *st)
{
	char md[64];
	json_t *o = take_block(st, path, true);
	int rc = 0;

	json_object_set_new(o, "present",
	    json_boolean(sysfs_has(st->st_rdev, "")));
	json_object_set_new(o, "empty", json_boolean(sysfs_empty(st->st_rdev)));
	if (json_object_get(o, "md_uuid") != NULL)
		rc = 1;
	else if (sysfs_has(st->st_rdev, "md"))
		rc = md_members(st->st_rdev, md, sizeof md, NULL);
	json_object_set_new(o, "md_state", json_integer(rc));
	return o;
}

/* Whether rdev is listed in want's "md_leaving". */
static bool
leaving(const json_t *want, json_int_t rdev)
{
	const json_t *l = json_object_get(want, "md_leaving"), *r;
	size_t i;

	json_array_foreach(l, i, r)
	{
		if (json_integer_value(r) == rdev)
			return true;
	}
	return false;
}

/* members (md_members' list) without those want says the run itself
   fails, removes and adds back. A new reference. */
static json_t *
staying(const json_t *want, const json_t *members)
{
	json_t *o = json_array(), *m;
	size_t i;

	json_array_foreach(members, i, m)
	{
		if (!leaving(want,
			json_integer_value(json_object_get(m, "rdev"))))
			json_array_append(o, m);
	}
	return o;
}

/* The very members: the same devices with the same device UUIDs, but
   for those want's "md_leaving" names, which may be failed, removed or
   added back (with a new device UUID) at any moment of the phase. */
static bool
same_members(const json_t *want, const json_t *now)
{
	const json_t *wm = json_object_get(want, "md_members");
	json_t *a, *b;
	bool same;

	if (wm == NULL)
		return true;
	a = staying(want, wm);
	b = staying(want, json_object_get(now, "md_members"));
	same = json_equal(a, b);
	json_decref(a);
	json_decref(b);
	return same;
}

/*
 * The md half of a block device's check, for want taken of an md array
 * ("md_uuid"): its members must carry that array UUID and, when want
 * lists them, be the very members (same devices, same device UUIDs).
 * IDENT_SAME here proves the instance; anything else is the verdict.
 */
static enum ident_verdict
check_md(const char *path, const json_t *want, const json_t *now, char *why,
    size_t len)
{
	const char *md = str(want, "md_uuid");
	json_int_t rc = json_integer_value(json_object_get(now, "md_state"));

	if (rc == 0)
		return verdict(IDENT_GONE, why, len,
		    _("%s: the md array is not assembled any more"), path);
	if (rc < 0 || strcmp(str(now, "md_uuid"), md) != 0)
		return verdict(IDENT_OTHER, why, len,
		    _("%s is not the md array raidlab built (its "
		      "members do not carry array UUID %s)"),
		    path, md);
	if (!same_members(want, now))
		return verdict(IDENT_UNPROVEN, why, len,
		    _("%s: its members are not the devices raidlab built "
		      "array %s on"),
		    path, md);
	return IDENT_SAME;
}

/*
 * The content half of a block device's check: the md array's members,
 * then the signature, against what was there when want was taken (when
 * it was looked at: "content"). instance: the disk sequence proved it is
 * the same device.
 */
static enum ident_verdict
check_content(const char *path, const json_t *want, const json_t *now,
    bool instance, char *why, size_t len)
{
	const char *type = str(want, "type"), *md = str(want, "md_uuid");
	const char *joining = str(want, "md_joining");
	bool found = *str(now, "type") != '\0';
	enum ident_verdict v;

	/* A member the run's phase clears and adds back to the run's own
	   array: carrying that array's UUID (random, made by the run's
	   mdadm --create), whatever its device UUID, it is the run's. */
	if (*joining != '\0' && found &&
	    strcmp(str(now, "type"), "linux_raid_member") == 0 &&
	    strcmp(str(now, "uuid"), joining) == 0)
		return IDENT_SAME;

	if (*md != '\0') {
		if ((v = check_md(path, want, now, why, len)) != IDENT_SAME)
			return v;
		instance = true; /* its members prove it */
	}
	if (!json_is_true(json_object_get(want, "content"))) {
		if (instance)
			return IDENT_SAME;
		return unproven_reboot(path, why, len);
	}
	if (*type == '\0') {
		if (found)
			return verdict(IDENT_UNPROVEN, why, len,
			    _("%s now carries %s %s, which raidlab did not "
			      "record: it may be somebody else's"),
			    path, str(now, "type"), str(now, "uuid"));
		if (instance)
			return IDENT_SAME;
		return unproven_reboot(path, why, len);
	}
	if (!found && *md != '\0')
		/* The run's array (its members say so), its filesystem
		   wiped: what a new array showed of old data is gone. */
		return IDENT_SAME;
	if (!found)
		return verdict(IDENT_GONE, why, len,
		    _("%s carries no signature any more: nothing left to "
		      "undo"),
		    path);
	if (strcmp(str(now, "type"), type) != 0 ||
	    strcmp(str(now, "uuid"), str(want, "uuid")) != 0 ||
	    strcmp(str(now, "uuid_sub"), str(want, "uuid_sub")) != 0)
		return verdict(IDENT_OTHER, why, len,
		    _("%s now carries %s %s, not the %s %s raidlab made"), path,
		    str(now, "type"), str(now, "uuid"), type,
		    str(want, "uuid"));
	return IDENT_SAME;
}

/* rdev and, within the boot, the disk sequence still are want's; for
   an md array, its members still are (see ident_block_verdict). */
static bool
instance_holds(const char *path, const json_t *want)
{
	char boot[64], why[8];
	struct stat st;
	unsigned long long seq;
	bool same;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    (unsigned long long)st.st_rdev != num(want, "rdev"))
		return false;
	if (*str(want, "md_uuid") != '\0') {
		json_t *now = block_now(path, &st);

		same = check_md(path, want, now, why, sizeof why) == IDENT_SAME;
		json_decref(now);
		return same;
	}
	if (strcmp(boot_id(boot, sizeof boot), str(want, "boot")) != 0)
		return true; /* the signature proved it; nothing more here */
	seq = diskseq(st.st_rdev);
	return seq == 0 || num(want, "diskseq") == 0 ||
	    seq == num(want, "diskseq");
}

enum ident_verdict
ident_block_verdict(const char *path, const json_t *want, const json_t *now,
    char *why, size_t len)
{
	unsigned long long seq = num(now, "diskseq"), wseq, rdev;
	bool same_boot, moved;

	why[0] = '\0';
	if (strcmp(str(now, "kind"), "block") != 0)
		return verdict(IDENT_OTHER, why, len,
		    _("%s is no longer a block device"), path);
	if ((rdev = num(now, "rdev")) != num(want, "rdev"))
		return verdict(IDENT_OTHER, why, len,
		    _("%s now names another device (%u:%u, was %llu:%llu)"),
		    path, major((dev_t)rdev), minor((dev_t)rdev),
		    (unsigned long long)major((dev_t)num(want, "rdev")),
		    (unsigned long long)minor((dev_t)num(want, "rdev")));
	if (!json_is_true(json_object_get(now, "present")))
		/* A node left behind (no udev removes /dev/md127 after
		   mdadm --stop): no device behind it. */
		return verdict(IDENT_GONE, why, len,
		    _("%s: no such device any more"), path);
	same_boot = *str(want, "boot") != '\0' &&
	    strcmp(str(now, "boot"), str(want, "boot")) == 0;
	wseq = num(want, "diskseq");
	moved = same_boot && seq != 0 && wseq != 0 && seq != wseq;
	/* md gives an array a new disk sequence whenever its node is opened
	   while no array stands behind it (mdadm --create may open it more
	   than once): for an md array only its members tell. */
	if (moved && *str(want, "md_uuid") != '\0')
		return check_content(path, want, now, false, why, len);
	/* A new disk sequence on an empty device (a loop that detached,
	   autoclear or by hand, with nothing attached since): nothing is
	   there to undo, and nobody else's either. */
	if (moved && json_is_true(json_object_get(now, "empty")))
		return verdict(IDENT_GONE, why, len,
		    _("%s was detached: nothing is attached under its name "
		      "now"),
		    path);
	if (moved)
		return verdict(IDENT_OTHER, why, len,
		    _("%s is another device now: it was detached and a new "
		      "one attached under its name (disk sequence %llu, was "
		      "%llu)"),
		    path, seq, wseq);
	return check_content(path, want, now,
	    same_boot && seq != 0 && seq == wseq, why, len);
}

static enum ident_verdict
check_block(const char *path, const struct stat *st, const json_t *want,
    char *why, size_t len)
{
	enum ident_verdict v;
	json_t *now;

	if (!S_ISBLK(st->st_mode))
		return verdict(IDENT_OTHER, why, len,
		    _("%s is no longer a block device"), path);
	now = block_now(path, st);
	v = ident_block_verdict(path, want, now, why, len);
	json_decref(now);
	return v;
}

enum ident_verdict
ident_check(const char *path, const json_t *want, char *why, size_t len)
{
	const char *kind = str(want, "kind");
	struct stat st;

	why[0] = '\0';
	if (stat(path, &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return verdict(IDENT_GONE, why, len,
			    _("%s no longer exists"), path);
		return verdict(IDENT_UNPROVEN, why, len, "%s: %s", path,
		    strerror(errno));
	}
	if (strcmp(kind, "block") == 0)
		return check_block(path, &st, want, why, len);
	if (strcmp(kind, "mount") == 0) {
		if (!S_ISDIR(st.st_mode))
			return verdict(IDENT_OTHER, why, len,
			    _("%s is no longer a directory"), path);
		char boot[64];

		if (!is_mountpoint(path, &st) ||
		    strcmp(boot_id(boot, sizeof boot), str(want, "boot")) != 0)
			/* No mount outlives a reboot. */
			return verdict(IDENT_GONE, why, len,
			    _("%s is not mounted any more"), path);
		if ((unsigned long long)st.st_dev != num(want, "dev"))
			return verdict(IDENT_OTHER, why, len,
			    _("another filesystem is mounted on %s"), path);
		return IDENT_SAME;
	}
	if (strcmp(kind, "file") == 0 || strcmp(kind, "dir") == 0) {
		if ((unsigned long long)st.st_dev == num(want, "dev") &&
		    (unsigned long long)st.st_ino == num(want, "ino"))
			return IDENT_SAME;
		if (*kind == 'f')
			return verdict(IDENT_OTHER, why, len,
			    _("%s is not the file raidlab recorded (another "
			      "inode)"),
			    path);
		return verdict(IDENT_OTHER, why, len,
		    _("%s is not the directory raidlab recorded (another "
		      "inode, or something mounted on it)"),
		    path);
	}
	if (strcmp(kind, "absent") == 0)
		return verdict(IDENT_UNPROVEN, why, len,
		    _("%s did not exist when raidlab recorded it: what is "
		      "there now is not provably the run's"),
		    path);
	return verdict(IDENT_UNPROVEN, why, len,
	    _("%s: raidlab recorded no identity it can check"), path);
}

/* ---------------------------------------------------------------- judge */

static bool
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The verdict on path for o; *used gets the identity it was judged by. */
static enum ident_verdict
judge_one(const struct ident_obj *o, const char *path, const json_t **used,
    char *why, size_t len)
{
	const json_t *pre = json_object_get(o->pre, path), *want;
	bool product = o->product != NULL && strcmp(path, o->product) == 0;
	bool absent = pre == NULL || strcmp(str(pre, "kind"), "absent") == 0;
	size_t pl = o->own_prefix != NULL ? strlen(o->own_prefix) : 0;

	why[0] = '\0';
	*used = NULL;
	if (o->created && (want = json_object_get(o->post, path)) != NULL) {
		*used = want;
		return ident_check(path, want, why, len);
	}
	if (!exists(path))
		return verdict(IDENT_GONE, why, len, _("%s no longer exists"),
		    path);
	/* A per-run path (nobody else makes one) that the step turned from
	   nothing into a directory (mkdir), or from a directory into a
	   mount point (mount), is the run's, whatever it holds; one the
	   step did not change (mkdir met an existing one) is not. */
	if (product && pl > 0 && strncmp(path, o->own_prefix, pl) == 0) {
		json_t *now = ident_take(path, false);
		const char *k = str(now, "kind");
		bool made = (absent && strcmp(k, "dir") == 0) ||
		    (pre != NULL && strcmp(str(pre, "kind"), "dir") == 0 &&
			strcmp(k, "mount") == 0);

		json_decref(now);
		if (made)
			return IDENT_SAME;
		if (!absent && ident_check(path, pre, why, len) == IDENT_SAME)
			return verdict(IDENT_GONE, why, len,
			    _("%s is as it was before the step: nothing to "
			      "undo"),
			    path);
	}
	if (product)
		return verdict(IDENT_UNPROVEN, why, len,
		    _("%s: the step that makes it did not finish, so nothing "
		      "proves that what is there now is the run's"),
		    path);
	if (pre != NULL) {
		*used = pre;
		return ident_check(path, pre, why, len);
	}
	return verdict(IDENT_UNPROVEN, why, len,
	    _("%s: raidlab recorded no identity for it"), path);
}

void
ident_judge(const struct ident_obj *o, const char *const *const *undo,
    struct ident_judgement *out)
{
	char why[512 + PATH_MAX];

	memset(out, 0, sizeof *out);
	for (size_t i = 0; undo != NULL && undo[i] != NULL; i++)
		for (size_t k = 1; undo[i][k] != NULL; k++) {
			const char *a = undo[i][k];
			size_t m;

			if (a[0] != '/')
				continue;
			for (m = 0; m < out->n; m++)
				if (strcmp(out->paths[m], a) == 0)
					break;
			if (m < out->n)
				continue;
			out->paths = xreallocarray(out->paths, out->n + 1,
			    sizeof *out->paths);
			out->v =
			    xreallocarray(out->v, out->n + 1, sizeof *out->v);
			out->why = xreallocarray(out->why, out->n + 1,
			    sizeof *out->why);
			out->want = xreallocarray(out->want, out->n + 1,
			    sizeof *out->want);
			out->v[out->n] = judge_one(o, a, &out->want[out->n],
			    why, sizeof why);
			if (out->v[out->n] == IDENT_OTHER ||
			    out->v[out->n] == IDENT_UNPROVEN)
				out->hold = true;
			out->paths[out->n] = xstrdup(a);
			out->why[out->n] = xstrdup(why);
			out->n++;
		}
}

void
ident_judgement_done(struct ident_judgement *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->paths[i]);
		free(j->why[i]);
	}
	free(j->paths);
	free(j->v);
	free(j->why);
	free(j->want);
	memset(j, 0, sizeof *j);
}

enum ident_verdict
ident_verdict_of(const struct ident_judgement *j, const char *path,
    const char **why)
{
	for (size_t i = 0; i < j->n; i++)
		if (strcmp(j->paths[i], path) == 0) {
			if (why != NULL)
				*why = j->why[i];
			return j->v[i];
		}
	if (why != NULL)
		*why = "";
	return IDENT_UNPROVEN;
}

/* path was judged the same, and a block device still is the one judged:
   an earlier command of the object may have released it (an autoclear
   loop detached by mdadm --stop) and somebody else attached another
   under its name since. */
static bool
still_same(const struct ident_judgement *j, const char *path)
{
	for (size_t i = 0; i < j->n; i++)
		if (strcmp(j->paths[i], path) == 0)
			return j->v[i] == IDENT_SAME &&
			    (j->want[i] == NULL ||
				strcmp(str(j->want[i], "kind"), "block") != 0 ||
				instance_holds(path, j->want[i]));
	return false;
}

const char **
ident_apply(const struct ident_judgement *j, const char *const *argv)
{
	size_t n = 0, paths = 0, kept = 0;
	const char **out;

	if (j->hold)
		return NULL;
	while (argv[n] != NULL)
		n++;
	out = xcalloc(n + 1, sizeof *out);
	for (size_t i = 0, o = 0; i < n; i++) {
		if (i > 0 && argv[i][0] == '/') {
			paths++;
			if (!still_same(j, argv[i]))
				continue;
			kept++;
		}
		out[o++] = argv[i];
	}
	if (paths > 0 && kept == 0) {
		free(out);
		return NULL;
	}
	return out;
}
