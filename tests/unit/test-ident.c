/*
 * Unit tests of ident.c: identities of files and directories, and the
 * judgement of which paths an undo may touch. Block devices (loop
 * devices reattached under their name, md arrays rebuilt on the same
 * disks) are tested for real in tests/system/cleanup-reuse.sh and the md
 * VM.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "build/ident.h"

static char dir[] = "/tmp/raidlab-ident.XXXXXX";

static void
setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void
teardown(void)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	cr_expect_eq(system(cmd), 0);
	free(cmd);
}

TestSuite(ident, .init = setup, .fini = teardown);

static char *
tpath(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void
touch(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT, 0644);

	cr_assert_geq(fd, 0, "%s", p);
	close(fd);
}

Test(ident, a_file_is_known_by_its_inode_not_its_name)
{
	char *f = tpath("bitmap"), *other = tpath("other"), why[512];
	json_t *id;

	touch(f);
	id = ident_take(f, true);
	cr_assert_str_eq(json_string_value(json_object_get(id, "kind")),
	    "file");
	cr_assert_eq(ident_check(f, id, why, sizeof why), IDENT_SAME, "%s",
	    why);
	/* Another file under the name (kept open so the inode is not
	   reused at once). */
	touch(other);
	cr_assert_eq(rename(other, f), 0);
	cr_assert_eq(ident_check(f, id, why, sizeof why), IDENT_OTHER);
	cr_expect(strstr(why, "is not the file raidlab recorded") != NULL, "%s",
	    why);
	cr_assert_eq(unlink(f), 0);
	cr_assert_eq(ident_check(f, id, why, sizeof why), IDENT_GONE);
	cr_expect(strstr(why, "no longer exists") != NULL, "%s", why);
	json_decref(id);
	free(f);
	free(other);
}

Test(ident, a_directory_and_what_is_absent)
{
	char *d = tpath("mnt"), why[512];
	json_t *id, *absent;

	absent = ident_take(d, false);
	cr_assert_str_eq(json_string_value(json_object_get(absent, "kind")),
	    "absent");
	cr_assert_eq(mkdir(d, 0755), 0);
	id = ident_take(d, false);
	cr_assert_str_eq(json_string_value(json_object_get(id, "kind")), "dir");
	cr_assert_eq(ident_check(d, id, why, sizeof why), IDENT_SAME);
	/* Something that was not there when recorded is not the run's. */
	cr_assert_eq(ident_check(d, absent, why, sizeof why), IDENT_UNPROVEN);
	json_decref(id);
	json_decref(absent);
	free(d);
}

Test(ident, take_undo_names_every_path_once)
{
	char *a = tpath("a"), *b = tpath("b");
	const char *const c1[] = { "wipefs", "--all", a, b, NULL };
	const char *const c2[] = { "rm", "-f", a, NULL };
	const char *const *undo[] = { c1, c2, NULL };
	json_t *ids;

	touch(a);
	ids = ident_take_undo(undo, true);
	cr_assert_eq(json_object_size(ids), 2);
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(ids, a), "kind")),
	    "file");
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(ids, b), "kind")),
	    "absent");
	json_decref(ids);
	free(a);
	free(b);
}

/* Judge undo for o; the verdict on path. */
static enum ident_verdict
judged(const struct ident_obj *o, const char *const *const *undo,
    const char *path)
{
	struct ident_judgement j;
	enum ident_verdict v;

	ident_judge(o, undo, &j);
	v = ident_verdict_of(&j, path, NULL);
	ident_judgement_done(&j);
	return v;
}

Test(ident, a_product_never_made_is_left_alone)
{
	char *md = tpath("md"), *mnt = tpath("7-v");
	const char *const stop[] = { "mdadm", "--stop", md, NULL };
	const char *const *u1[] = { stop, NULL };
	const char *const um[] = { "umount", mnt, NULL };
	const char *const *u2[] = { um, NULL };
	struct ident_obj o = { .product = md };
	char *prefix = tpath("7-");

	/* Gone: nothing to undo. Present: nothing proves it is the run's
	   (the name may have been taken, or the run died making it). */
	cr_assert_eq(judged(&o, u1, md), IDENT_GONE);
	touch(md);
	cr_assert_eq(judged(&o, u1, md), IDENT_UNPROVEN);
	/* A per-run path is the run's whatever is there. */
	o.product = mnt;
	cr_assert_eq(mkdir(mnt, 0755), 0);
	cr_assert_eq(judged(&o, u2, mnt), IDENT_UNPROVEN);
	o.own_prefix = prefix;
	cr_assert_eq(judged(&o, u2, mnt), IDENT_SAME);
	free(md);
	free(mnt);
	free(prefix);
}

Test(ident, created_objects_are_checked_against_post)
{
	char *f = tpath("f"), *other = tpath("o");
	const char *const rm[] = { "rm", "-f", f, NULL };
	const char *const *undo[] = { rm, NULL };
	struct ident_obj o = { .created = true };
	json_t *pre, *post;

	pre = ident_take_undo(undo, false);
	touch(f);
	post = ident_take_undo(undo, true);
	o.pre = pre;
	o.post = post;
	cr_assert_eq(judged(&o, undo, f), IDENT_SAME);
	touch(other);
	cr_assert_eq(rename(other, f), 0);
	cr_assert_eq(judged(&o, undo, f), IDENT_OTHER);
	/* Not created: the pre identity (absent) rules, and what is there
	   now was not. */
	o.created = false;
	cr_assert_eq(judged(&o, undo, f), IDENT_UNPROVEN);
	json_decref(pre);
	json_decref(post);
	free(f);
	free(other);
}

Test(ident, no_identity_means_hands_off)
{
	char *f = tpath("f");
	const char *const rm[] = { "rm", "-f", f, NULL };
	const char *const *undo[] = { rm, NULL };
	struct ident_obj o = { .created = true };

	cr_assert_eq(judged(&o, undo, f), IDENT_GONE);
	touch(f);
	cr_assert_eq(judged(&o, undo, f), IDENT_UNPROVEN);
	free(f);
}

Test(ident, apply_drops_paths_and_empty_commands)
{
	char *a = tpath("a"), *b = tpath("b");
	const char *const w[] = { "wipefs", "--all", a, b, NULL };
	const char *const s[] = { "mdadm", "--stop", b, NULL };
	const char *const *undo[] = { w, s, NULL };
	struct ident_obj o = { .created = true };
	struct ident_judgement j;
	const char **av;
	json_t *post;

	touch(a);
	touch(b);
	post = ident_take_undo(undo, true);
	o.post = post;
	cr_assert_eq(unlink(b), 0); /* b went: moot */
	ident_judge(&o, undo, &j);
	av = ident_apply(&j, w);
	cr_assert_not_null(av);
	cr_assert_str_eq(av[0], "wipefs");
	cr_assert_str_eq(av[1], "--all");
	cr_assert_str_eq(av[2], a);
	cr_assert_null(av[3]);
	free(av);
	cr_assert_null(ident_apply(&j, s), "a command with no path left ran");
	ident_judgement_done(&j);
	json_decref(post);
	free(a);
	free(b);
}

/* Run a shell command; its first output line into buf. */
static bool
sh(const char *cmd, char *buf, size_t len)
{
	FILE *f = popen(cmd, "r");
	bool ok;

	cr_assert_not_null(f, "%s", cmd);
	buf[0] = '\0';
	if (fgets(buf, (int)len, f) != NULL)
		buf[strcspn(buf, "\n")] = '\0';
	ok = pclose(f) == 0;
	return ok;
}

Test(ident, a_block_device_by_instance_and_signature)
{
	char *img = tpath("disk.img"), cmd[PATH_MAX + 128], dev[64], b[64];
	char why[512];
	json_t *post, *pre, *booted;

	if (geteuid() != 0)
		cr_skip_test("needs root (loop devices)");
	snprintf(cmd, sizeof cmd, "truncate -s 64M %s && losetup -f --show %s",
	    img, img);
	if (!sh(cmd, dev, sizeof dev))
		cr_skip_test("no loop device here");
	snprintf(cmd, sizeof cmd, "mkfs.ext4 -q -F %s", dev);
	cr_assert(sh(cmd, b, sizeof b), "%s", cmd);
	pre = ident_take(dev, false);
	post = ident_take(dev, true);
	cr_assert_str_eq(json_string_value(json_object_get(post, "type")),
	    "ext4");
	cr_assert_eq(ident_check(dev, post, why, sizeof why), IDENT_SAME, "%s",
	    why);
	/* After a reboot the disk sequence proves nothing: the signature
	   raidlab made must, and without one nothing does. */
	booted = json_deep_copy(post);
	json_object_set_new(booted, "boot", json_string("another-boot"));
	cr_assert_eq(ident_check(dev, booted, why, sizeof why), IDENT_SAME,
	    "%s", why);
	json_object_set_new(pre, "boot", json_string("another-boot"));
	cr_assert_eq(ident_check(dev, pre, why, sizeof why), IDENT_UNPROVEN);
	/* Somebody formats it again: another signature. */
	snprintf(cmd, sizeof cmd, "mkfs.ext4 -q -F %s", dev);
	cr_assert(sh(cmd, b, sizeof b));
	cr_assert_eq(ident_check(dev, post, why, sizeof why), IDENT_OTHER);
	cr_expect(strstr(why, "now carries ext4") != NULL, "%s", why);
	/* Wiped: nothing left to undo. */
	snprintf(cmd, sizeof cmd, "wipefs -a -q %s", dev);
	cr_assert(sh(cmd, b, sizeof b));
	cr_assert_eq(ident_check(dev, post, why, sizeof why), IDENT_GONE);
	/* Detached and attached again under the same name: a new disk
	   sequence number, another device. */
	snprintf(cmd, sizeof cmd, "losetup -d %s && losetup %s %s", dev, dev,
	    img);
	if (sh(cmd, b, sizeof b)) {
		json_t *again = ident_take(dev, false);

		cr_assert_eq(ident_check(dev, again, why, sizeof why),
		    IDENT_SAME);
		cr_assert_eq(ident_check(dev, post, why, sizeof why),
		    IDENT_OTHER);
		cr_expect(strstr(why, "detached and a new one attached") !=
			NULL,
		    "%s", why);
		json_decref(again);
	}
	/* By backing file: the name may be somebody else's by now. */
	snprintf(cmd, sizeof cmd,
	    "for d in $(losetup -n -O NAME -j %s); do losetup -d $d; done",
	    img);
	sh(cmd, b, sizeof b);
	json_decref(pre);
	json_decref(post);
	json_decref(booted);
	free(img);
}

Test(ident, a_mount_point_that_existed_is_not_the_runs)
{
	char *mnt = tpath("7-v"), *prefix = tpath("7-");
	const char *const rd[] = { "rmdir", mnt, NULL };
	const char *const *undo[] = { rd, NULL };
	struct ident_obj o = { .product = mnt, .own_prefix = prefix };
	struct ident_judgement j;
	json_t *pre;

	/* mkdir met a directory that was there (a dead run's): the failed
	   step's undo must not remove it. */
	cr_assert_eq(mkdir(mnt, 0755), 0);
	pre = ident_take_undo(undo, true);
	o.pre = pre;
	ident_judge(&o, undo, &j);
	cr_assert_eq(ident_verdict_of(&j, mnt, NULL), IDENT_GONE);
	cr_assert_null(ident_apply(&j, rd), "rmdir of a directory it met");
	ident_judgement_done(&j);
	json_decref(pre);
	free(mnt);
	free(prefix);
}

Test(ident, a_signature_that_appeared_holds_the_whole_object)
{
	char *img = tpath("d.img"), *other = tpath("x");
	char cmd[PATH_MAX + 128], dev[64], b[64];
	const char *const w[] = { "wipefs", "--all", dev, NULL };
	const char *const r[] = { "rm", "-f", other, NULL };
	const char *const *undo[] = { w, r, NULL };
	struct ident_obj o = { 0 };
	struct ident_judgement j;
	json_t *pre;

	if (geteuid() != 0)
		cr_skip_test("needs root (loop devices)");
	snprintf(cmd, sizeof cmd, "truncate -s 64M %s && losetup -f --show %s",
	    img, img);
	if (!sh(cmd, dev, sizeof dev))
		cr_skip_test("no loop device here");
	touch(other);
	/* Before a step that never finished: a blank device. Then
	   somebody makes a filesystem on it. */
	pre = ident_take_undo(undo, true);
	o.pre = pre;
	snprintf(cmd, sizeof cmd, "mkfs.ext4 -q -F %s", dev);
	cr_assert(sh(cmd, b, sizeof b));
	ident_judge(&o, undo, &j);
	cr_assert_eq(ident_verdict_of(&j, dev, NULL), IDENT_UNPROVEN);
	cr_assert(j.hold);
	cr_assert_null(ident_apply(&j, w), "wipefs of a new signature");
	cr_assert_null(ident_apply(&j, r), "the rest of a held object ran");
	ident_judgement_done(&j);
	json_decref(pre);
	snprintf(cmd, sizeof cmd,
	    "for d in $(losetup -n -O NAME -j %s); do losetup -d $d; done",
	    img);
	sh(cmd, b, sizeof b);
	free(img);
	free(other);
}

/* An md array as ident_take records it after mdadm --create, and as
   block_now sees it later: only what ident_block_verdict reads. */
static json_t *
md_ident(unsigned long long diskseq, const char *uuid, const char *sub0)
{
	return json_pack("{s:s, s:I, s:I, s:s, s:b, s:s, s:[{s:I, s:s}, "
			 "{s:I, s:s}]}",
	    "kind", "block", "rdev", (json_int_t)0x969, "diskseq",
	    (json_int_t)diskseq, "boot", "b00t", "content", 1, "md_uuid", uuid,
	    "md_members", "rdev", (json_int_t)0xfc10, "uuid_sub", sub0, "rdev",
	    (json_int_t)0xfc20, "uuid_sub", "sub-1");
}

static json_t *
md_now(unsigned long long diskseq, const char *uuid, const char *sub0)
{
	json_t *o = md_ident(diskseq, uuid, sub0);

	json_object_set_new(o, "present", json_true());
	json_object_set_new(o, "empty", json_false());
	json_object_set_new(o, "md_state", json_integer(1));
	return o;
}

Test(ident, an_md_array_is_proved_by_its_members_not_its_disk_sequence)
{
	json_t *want = md_ident(52, "uuid-a", "sub-0");
	json_t *now = md_now(53, "uuid-a", "sub-0");
	char why[512];

	/* The killed case of issue 20: mdadm opened the node again while
	   creating, and md gave the run's own array another sequence. */
	cr_assert_eq(ident_block_verdict("/dev/md/leg0", want, now, why,
			 sizeof why),
	    IDENT_SAME, "%s", why);
	json_decref(now);
	/* Somebody's own array on the same disks: another array UUID. */
	now = md_now(53, "uuid-b", "sub-9");
	cr_assert_eq(ident_block_verdict("/dev/md/leg0", want, now, why,
			 sizeof why),
	    IDENT_OTHER);
	cr_expect(strstr(why, "do not carry array UUID uuid-a") != NULL, "%s",
	    why);
	json_decref(now);
	/* Same sequence, another array all the same. */
	now = md_now(52, "uuid-b", "sub-9");
	cr_assert_eq(ident_block_verdict("/dev/md/leg0", want, now, why,
			 sizeof why),
	    IDENT_OTHER);
	json_decref(now);
	/* The array UUID, but a member that is not the one it was built
	   on: not provably the run's. */
	now = md_now(53, "uuid-a", "sub-7");
	cr_assert_eq(ident_block_verdict("/dev/md/leg0", want, now, why,
			 sizeof why),
	    IDENT_UNPROVEN);
	cr_expect(strstr(why, "its members are not the devices") != NULL, "%s",
	    why);
	json_decref(now);
	/* Stopped, and the node opened since: an empty new gendisk. */
	now = md_now(60, "", "");
	json_object_del(now, "md_uuid");
	json_object_del(now, "md_members");
	json_object_set_new(now, "md_state", json_integer(0));
	json_object_set_new(now, "empty", json_true());
	cr_assert_eq(ident_block_verdict("/dev/md/leg0", want, now, why,
			 sizeof why),
	    IDENT_GONE);
	cr_expect(strstr(why, "not assembled any more") != NULL, "%s", why);
	json_decref(now);
	json_decref(want);
}

Test(ident, a_new_disk_sequence_still_means_another_disk_without_md)
{
	json_t *want = json_pack("{s:s, s:I, s:I, s:s, s:b}", "kind", "block",
	    "rdev", (json_int_t)0x700, "diskseq", (json_int_t)52, "boot",
	    "b00t", "content", 1);
	json_t *now = json_deep_copy(want);
	char why[512];

	json_object_set_new(now, "diskseq", json_integer(53));
	json_object_set_new(now, "present", json_true());
	json_object_set_new(now, "empty", json_false());
	json_object_set_new(now, "md_state", json_integer(0));
	cr_assert_eq(ident_block_verdict("/dev/loop0", want, now, why,
			 sizeof why),
	    IDENT_OTHER);
	cr_expect(strstr(why, "disk sequence 53, was 52") != NULL, "%s", why);
	json_object_set_new(now, "empty", json_true());
	cr_assert_eq(ident_block_verdict("/dev/loop0", want, now, why,
			 sizeof why),
	    IDENT_GONE);
	json_decref(now);
	json_decref(want);
}

/* The rebuild phase fails member 0xfc20, removes it, clears it and adds
   it back; a kill may land between any two of those and the journal's
   next refresh. */
Test(ident, a_phase_member_may_leave_and_rejoin_the_runs_array)
{
	json_t *want = md_ident(52, "uuid-a", "sub-0");
	json_t *now = md_now(52, "uuid-a", "sub-0");
	char why[512];

	/* Removed, with no allowance: not the members it was built on. */
	json_array_remove(json_object_get(now, "md_members"), 1);
	cr_assert_eq(ident_block_verdict("/dev/md/rl-x", want, now, why,
			 sizeof why),
	    IDENT_UNPROVEN);
	json_object_set_new(want, "md_leaving",
	    json_pack("[I]", (json_int_t)0xfc20));
	cr_assert_eq(ident_block_verdict("/dev/md/rl-x", want, now, why,
			 sizeof why),
	    IDENT_SAME, "%s", why);
	json_decref(now);
	/* Added back with a new device UUID. */
	now = md_now(52, "uuid-a", "sub-0");
	json_object_set_new(json_array_get(json_object_get(now, "md_members"),
				1),
	    "uuid_sub", json_string("sub-new"));
	cr_assert_eq(ident_block_verdict("/dev/md/rl-x", want, now, why,
			 sizeof why),
	    IDENT_SAME, "%s", why);
	json_decref(now);
	/* The member that stays is still held to its device UUID. */
	now = md_now(52, "uuid-a", "sub-7");
	cr_assert_eq(ident_block_verdict("/dev/md/rl-x", want, now, why,
			 sizeof why),
	    IDENT_UNPROVEN);
	json_decref(now);
	json_decref(want);
}

static json_t *
member(const char *type, const char *uuid, const char *sub)
{
	json_t *o = json_pack("{s:s, s:I, s:I, s:s, s:b}", "kind", "block",
	    "rdev", (json_int_t)0xfc20, "diskseq", (json_int_t)7, "boot",
	    "b00t", "content", 1);

	if (type != NULL)
		json_object_update_new(o,
		    json_pack("{s:s, s:s, s:s}", "type", type, "uuid", uuid,
			"uuid_sub", sub));
	return o;
}

static enum ident_verdict
member_verdict(const json_t *want, json_t *now, char *why, size_t len)
{
	enum ident_verdict v;

	json_object_set_new(now, "present", json_true());
	json_object_set_new(now, "empty", json_false());
	json_object_set_new(now, "md_state", json_integer(0));
	v = ident_block_verdict("/dev/vde", want, now, why, len);
	json_decref(now);
	return v;
}

Test(ident, a_cleared_member_is_the_runs_once_it_carries_the_runs_array)
{
	json_t *blank = member(NULL, NULL, NULL);
	json_t *old = member("linux_raid_member", "uuid-a", "sub-1");
	char why[512];

	/* Killed right after mdadm --add: the journal knew it blank. */
	cr_assert_eq(member_verdict(blank,
			 member("linux_raid_member", "uuid-a", "sub-new"), why,
			 sizeof why),
	    IDENT_UNPROVEN);
	cr_expect(strstr(why, "which raidlab did not record") != NULL, "%s",
	    why);
	/* Killed after mdadm --zero-superblock and --add, the journal
	   still holding the device UUID of the create. */
	cr_assert_eq(member_verdict(old,
			 member("linux_raid_member", "uuid-a", "sub-new"), why,
			 sizeof why),
	    IDENT_OTHER);
	json_object_set_new(blank, "md_joining", json_string("uuid-a"));
	json_object_set_new(old, "md_joining", json_string("uuid-a"));
	cr_assert_eq(member_verdict(blank,
			 member("linux_raid_member", "uuid-a", "sub-new"), why,
			 sizeof why),
	    IDENT_SAME, "%s", why);
	cr_assert_eq(member_verdict(old,
			 member("linux_raid_member", "uuid-a", "sub-new"), why,
			 sizeof why),
	    IDENT_SAME, "%s", why);
	/* Somebody else's array, or a filesystem: still not the run's. */
	cr_assert_eq(member_verdict(blank,
			 member("linux_raid_member", "uuid-b", "sub-2"), why,
			 sizeof why),
	    IDENT_UNPROVEN);
	cr_assert_eq(member_verdict(old, member("ext4", "fs-1", ""), why,
			 sizeof why),
	    IDENT_OTHER);
	json_decref(blank);
	json_decref(old);
}
