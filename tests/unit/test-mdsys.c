/*
 * mdsys against a sysfs tree of the test's own (the host has no md; the
 * real /sys/block/mdN is exercised in the VM test, tests/system/md-vm.sh):
 * the facts raidlab records, the resync wait with its progress and stop,
 * and the kernel name behind /dev/md/NAME.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/mdsys.h"

static char root[PATH_MAX];

static void
put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", root, rel);
	f = fopen(p, "w");
	cr_assert_not_null(f, "%s", p);
	fputs(text, f);
	fclose(f);
}

static void
setup(void)
{
	char d[PATH_MAX * 2];

	snprintf(root, sizeof root, "/tmp/raidlab-mdsys.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(d, sizeof d, "%s/block", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127/md", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127/md/bitmap", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127/queue", root);
	mkdir(d, 0755);
	put("block/md127/md/level", "raid10\n");
	put("block/md127/md/layout", "513\n");
	put("block/md127/md/chunk_size", "65536\n");
	put("block/md127/md/raid_disks", "4\n");
	put("block/md127/md/bitmap/location", "+8\n");
	put("block/md127/queue/optimal_io_size", "262144\n");
	put("block/md127/md/sync_action", "resync\n");
	put("block/md127/md/sync_completed", "1024 / 4096\n");
}

static void
teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(mdsys, .init = setup, .fini = teardown);

Test(mdsys, facts_are_the_sysfs_text)
{
	json_t *f = mdsys_facts(root, "md127");

	cr_expect_str_eq(json_string_value(json_object_get(f, "level")),
	    "raid10");
	cr_expect_str_eq(json_string_value(json_object_get(f, "layout")),
	    "513");
	cr_expect_str_eq(json_string_value(
			     json_object_get(f, "bitmap_location")),
	    "+8");
	cr_expect_str_eq(json_string_value(
			     json_object_get(f, "optimal_io_size")),
	    "262144");
	cr_expect_null(json_object_get(f, "degraded"), "absent: left out");
	json_decref(f);
}

struct wait_ctx {
	int calls;
	unsigned long long done, total;
	bool stop;
};

static void
progress(void *arg, unsigned long long done, unsigned long long total)
{
	struct wait_ctx *c = arg;

	c->done = done;
	c->total = total;
	if (++c->calls == 3) /* the resync ends while we wait */
		put("block/md127/md/sync_action", "idle\n");
}

static bool
stop(void *arg)
{
	return ((struct wait_ctx *)arg)->stop;
}

Test(mdsys, waits_until_idle_reporting_progress)
{
	struct wait_ctx c = { 0 };
	double secs = -1;

	cr_assert_eq(mdsys_wait_sync(root, "md127", 10, progress, stop, &c,
			 &secs),
	    0);
	cr_expect_eq(c.calls, 3);
	cr_expect_eq(c.done, 1024);
	cr_expect_eq(c.total, 4096);
	cr_expect_geq(secs, 0.015, "waited %.3f s", secs);
}

Test(mdsys, a_stop_abandons_the_wait)
{
	struct wait_ctx c = { .stop = true };
	double secs;

	cr_expect_eq(mdsys_wait_sync(root, "md127", 10, NULL, stop, &c, &secs),
	    -EINTR);
}

Test(mdsys, an_idle_array_needs_no_wait_and_a_missing_one_is_an_error)
{
	double secs;

	put("block/md127/md/sync_action", "idle\n");
	cr_expect_eq(mdsys_wait_sync(root, "md127", 10, NULL, NULL, NULL,
			 &secs),
	    0);
	cr_expect_eq(mdsys_wait_sync(root, "md9", 10, NULL, NULL, NULL, &secs),
	    -ENOENT);
}

Test(mdsys, kernel_name_behind_a_link)
{
	char link[PATH_MAX * 2], target[PATH_MAX * 2], name[32];

	snprintf(target, sizeof target, "%s/md127", root);
	put("md127", "");
	snprintf(link, sizeof link, "%s/rl-a", root);
	cr_assert_eq(symlink(target, link), 0);
	cr_assert(mdsys_kernel_name(link, name, sizeof name));
	cr_expect_str_eq(name, "md127");
	cr_expect_not(mdsys_kernel_name("/dev/null", name, sizeof name));
}
