/*
 * blkqueue against a sysfs tree of the test's own: a whole disk's queue
 * read as the record keeps it, a partition's writes going to its disk's
 * queue with what it found, the scheduler list read as the kernel writes
 * it, and a device sysfs does not know. The real queues of loop devices
 * are exercised by tests/system/member-queue.sh.
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

#include "build/blkqueue.h"

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
dir(const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof p, "%s/%s", root, rel);
	cr_assert_eq(mkdir(p, 0755), 0, "%s", p);
}

static char *
in_root(const char *rel)
{
	char *p;

	cr_assert(asprintf(&p, "%s/%s", root, rel) > 0);
	return p;
}

/* /sys/class/block/NAME links into the device tree, as the kernel's do:
   sdz (a disk with its queue) and sdz1 (its partition, no queue), and
   the device nodes dev/sdz and dev/sdz1. */
static void
setup(void)
{
	char *t, *l;

	snprintf(root, sizeof root, "/tmp/raidlab-blkqueue.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	dir("class");
	dir("class/block");
	dir("devices");
	dir("devices/sdz");
	dir("devices/sdz/queue");
	dir("devices/sdz/sdz1");
	dir("dev");
	put("dev/sdz", "");
	put("dev/sdz1", "");
	put("devices/sdz/sdz1/partition", "1\n");
	put("devices/sdz/queue/scheduler", "none [mq-deadline] kyber bfq\n");
	put("devices/sdz/queue/nr_requests", "256\n");
	put("devices/sdz/queue/rotational", "1\n");
	put("devices/sdz/queue/write_cache", "write back\n");
	put("devices/sdz/queue/read_ahead_kb", "128\n");
	t = in_root("devices/sdz");
	l = in_root("class/block/sdz");
	cr_assert_eq(symlink(t, l), 0);
	free(t);
	free(l);
	t = in_root("devices/sdz/sdz1");
	l = in_root("class/block/sdz1");
	cr_assert_eq(symlink(t, l), 0);
	free(t);
	free(l);
}

static void
teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(blkqueue, .init = setup, .fini = teardown);

Test(blkqueue, a_disks_queue_as_the_record_keeps_it)
{
	char *dev = in_root("dev/sdz");
	json_t *f = blkqueue_facts(root, dev);
	char *s = json_dumps(f, JSON_SORT_KEYS | JSON_COMPACT);

	cr_expect_str_eq(s,
	    "{\"nr_requests\":256,\"read_ahead_kb\":128,\"rotational\":1,"
	    "\"scheduler\":\"mq-deadline\",\"schedulers\":[\"none\","
	    "\"mq-deadline\",\"kyber\",\"bfq\"],\"write_cache\":\"write "
	    "back\"}");
	free(s);
	json_decref(f);
	free(dev);
}

Test(blkqueue, a_partition_writes_its_disks_queue)
{
	char *dev = in_root("dev/sdz1"), *found, *now, *v;

	cr_expect_eq(blkqueue_write(root, dev, "nr_requests", "64", &found,
			 &now),
	    0);
	cr_expect_str_eq(found, "256");
	cr_expect_str_eq(now, "64");
	free(found);
	free(now);
	v = blkqueue_value(root, dev, "scheduler");
	cr_expect_str_eq(v, "mq-deadline");
	free(v);
	v = blkqueue_attr(root, dev, "write_cache");
	cr_expect_str_eq(v, "write back");
	free(v);
	free(dev);
}

Test(blkqueue, the_scheduler_list_as_the_kernel_writes_it)
{
	char act[16];

	cr_expect(blkqueue_sched_active("none [bfq]", act, sizeof act));
	cr_expect_str_eq(act, "bfq");
	cr_expect(!blkqueue_sched_active("none", act, sizeof act));
	cr_expect(blkqueue_sched_offers("[none] mq-deadline kyber", "kyber"));
	cr_expect(blkqueue_sched_offers("[none] mq-deadline kyber", "none"));
	cr_expect(!blkqueue_sched_offers("[none] mq-deadline", "deadline"));
	cr_expect(!blkqueue_sched_offers("[none] mq-deadline", "mq"));
	cr_expect(!blkqueue_sched_offers("[none] mq-deadline", ""));
}

Test(blkqueue, a_device_sysfs_does_not_know)
{
	char buf[PATH_MAX], *found, *now;

	cr_expect_eq(blkqueue_dir(root, "/nonexistent/sdq", buf, sizeof buf),
	    -ENOENT);
	cr_expect_null(blkqueue_facts(root, "/nonexistent/sdq"));
	cr_expect_eq(blkqueue_write(root, "/nonexistent/sdq", "nr_requests",
			 "64", &found, &now),
	    -ENOENT);
	cr_expect_null(found);
}

/* A partition's queue is its disk's: raidlab refuses to set it
   (prov_queue_check()), so it must know one. */
Test(blkqueue, a_partition_is_told_from_its_disk)
{
	char *disk = in_root("dev/sdz"), *part = in_root("dev/sdz1");

	cr_expect(blkqueue_is_partition(root, part));
	cr_expect_not(blkqueue_is_partition(root, disk));
	cr_expect_not(blkqueue_is_partition(root, "/nonexistent/sdq"));
	free(disk);
	free(part);
}

/* A journal read back names the attribute to put back: only the two
   raidlab sets are ever written. */
Test(blkqueue, writes_only_the_scheduler_and_the_depth)
{
	char *dev = in_root("dev/sdz"), *found, *now, *v;

	cr_expect_eq(blkqueue_write(root, dev, "../../dev/sdz", "x", &found,
			 &now),
	    -EINVAL);
	cr_expect_eq(blkqueue_write(root, dev, "rotational", "0", &found, &now),
	    -EINVAL);
	cr_expect_null(found);
	v = blkqueue_attr(root, dev, "rotational");
	cr_expect_str_eq(v, "1");
	free(v);
	free(dev);
}
