/*
 * Target facts in a record (record-target): they agree with the
 * system's own tools (findmnt, losetup, btrfs) on the root fs, tmpfs, a
 * loop device and a multi-device btrfs. Part of the test-record program
 * (unit-record.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "results/record.h"
#include "unit-record.h"
#include "wltest.h"

/* First line of a command's output (no shell: argv through popen is a
 * fixed string built from a path we made). */
static char *
first_line(const char *cmd)
{
	char buf[4096] = "";
	FILE *p = popen(cmd, "r");

	cr_assert_not_null(p);
	if (fgets(buf, sizeof buf, p) == NULL)
		buf[0] = '\0';
	pclose(p);
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

/* ---------------------------------------------------------------- targets */

/* The last line: the mount on top when mounts are stacked. */
Test(record, target_on_the_root_fs_agrees_with_findmnt)
{
	const char *dir = "/var/tmp";
	char *cmd, *fstype, *mp;
	json_t *t;

	if (system("command -v findmnt >/dev/null 2>&1") != 0)
		cr_skip_test("findmnt not installed");
	cmd = xasprintf("findmnt -n -o FSTYPE --target %s | tail -n 1", dir);
	fstype = first_line(cmd);
	free(cmd);
	cmd = xasprintf("findmnt -n -o TARGET --target %s | tail -n 1", dir);
	mp = first_line(cmd);
	t = record_target_json(dir);
	cr_assert_str_eq(json_string_value(json_object_get(t, "path")),
	    "/var/tmp");
	cr_assert_str_eq(json_string_value(json_object_get(t, "fstype")),
	    fstype);
	cr_assert_str_eq(json_string_value(json_object_get(t, "mount_point")),
	    mp);
	cr_assert(json_is_array(json_object_get(t, "devices")));
	cr_assert_not_null(
	    json_string_value(json_object_get(t, "mount_options")));
	json_decref(t);
	free(cmd);
	free(fstype);
	free(mp);
}

Test(record, target_on_tmpfs_has_no_devices)
{
	struct wltest_target tg;
	json_t *t;
	char *sub;

	wltest_target_tmpfs(&tg, 1 << 20);
	sub = xasprintf("%s/deeper", tg.dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	t = record_target_json(sub);
	cr_assert_str_eq(json_string_value(json_object_get(t, "fstype")),
	    "tmpfs");
	cr_assert_str_eq(json_string_value(json_object_get(t, "mount_point")),
	    tg.dir);
	cr_assert_eq(json_array_size(json_object_get(t, "devices")), 0);
	cr_assert(strstr(json_string_value(json_object_get(t, "mount_options")),
		      "size=1024k") != NULL);
	json_decref(t);
	rmdir(sub);
	free(sub);
	wltest_target_free(&tg);
}

Test(record, target_on_a_loop_device_names_it_and_its_file)
{
	struct wltest_target tg;
	json_t *t, *d;
	char *name;

	wltest_target_ext4(&tg, 32 << 20);
	t = record_target_json(tg.dir);
	cr_assert_str_eq(json_string_value(json_object_get(t, "fstype")),
	    "ext4");
	cr_assert_str_eq(json_string_value(json_object_get(t, "source")),
	    tg.loop);
	d = json_array_get(json_object_get(t, "devices"), 0);
	cr_assert_not_null(d, "the loop device is listed");
	name = xstrdup(tg.loop);
	cr_assert_str_eq(json_string_value(json_object_get(d, "name")),
	    basename(name));
	cr_assert_str_eq(json_string_value(json_object_get(d, "type")), "loop");
	cr_assert_str_eq(json_string_value(json_object_get(d, "backing_file")),
	    tg.image);
	cr_assert_eq(json_integer_value(json_object_get(d, "size")), 32 << 20);
	free(name);
	json_decref(t);
	wltest_target_free(&tg);
}

/* Two loop devices over sparse files in tmp: btrfs raid1 across them. */
struct two_loops {
	char *img[2], *loop[2], *mnt;
	bool mounted;
};

static void
two_loops_free(struct two_loops *t)
{
	const char *umount_argv[] = { "umount", t->mnt, NULL };
	int i;

	if (t->mounted)
		wltest_cmd(umount_argv);
	for (i = 0; i < 2; i++) {
		const char *argv[] = { "losetup", "-d", t->loop[i], NULL };

		if (t->loop[i] != NULL)
			wltest_cmd(argv);
		if (t->img[i] != NULL)
			unlink(t->img[i]);
		free(t->loop[i]);
		free(t->img[i]);
	}
	if (t->mnt != NULL)
		rmdir(t->mnt);
	free(t->mnt);
}

Test(record, target_on_btrfs_lists_every_device)
{
	struct two_loops t = { { NULL, NULL }, { NULL, NULL }, NULL, false };
	char *tmp, *cmd, *name;
	json_t *j, *devs;
	int i;

	if (geteuid() != 0)
		cr_skip_test("needs root for loop devices");
	if (system("command -v mkfs.btrfs >/dev/null 2>&1") != 0)
		cr_skip_test("mkfs.btrfs not installed");
	tmp = temp_dir();
	t.mnt = xasprintf("%s/mnt", tmp);
	cr_assert_eq(mkdir(t.mnt, 0755), 0);
	for (i = 0; i < 2; i++) {
		t.img[i] = xasprintf("%s/d%d.img", tmp, i);
		write_file(t.img[i], "");
		cr_assert_eq(truncate(t.img[i], 300 << 20), 0);
		cmd = xasprintf("losetup -f --show %s", t.img[i]);
		t.loop[i] = first_line(cmd);
		free(cmd);
		if (strncmp(t.loop[i], "/dev/loop", 9) != 0) {
			free(t.loop[i]);
			t.loop[i] = NULL;
			two_loops_free(&t);
			cr_skip_test("no loop device available");
		}
	}
	cmd = xasprintf("mkfs.btrfs -q -f -d raid1 -m raid1 %s %s "
			">/dev/null 2>&1 && mount %s %s",
	    t.loop[0], t.loop[1], t.loop[0], t.mnt);
	i = system(cmd);
	free(cmd);
	t.mounted = i == 0;
	if (!t.mounted) {
		two_loops_free(&t);
		cr_skip_test("cannot make or mount btrfs here");
	}
	j = record_target_json(t.mnt);
	devs = json_object_get(j, "devices");
	cr_assert_str_eq(json_string_value(json_object_get(j, "fstype")),
	    "btrfs");
	cr_assert_eq(json_array_size(devs), 2, "both members are listed");
	for (i = 0; i < 2; i++) {
		const char *a = json_string_value(
		    json_object_get(json_array_get(devs, 0), "name"));
		const char *b = json_string_value(
		    json_object_get(json_array_get(devs, 1), "name"));

		name = xstrdup(t.loop[i]);
		cr_assert(strcmp(a, basename(name)) == 0 ||
			strcmp(b, basename(name)) == 0,
		    "%s is listed", t.loop[i]);
		free(name);
	}
	json_decref(j);
	two_loops_free(&t);
	rm_rf(tmp);
	free(tmp);
}
