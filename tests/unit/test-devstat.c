/*
 * Block device counters from a fake sysfs root: the stat file's fields,
 * deltas between readings in bytes and busy seconds, devices that vanish
 * or come back counting from zero, roles of md arrays and their members,
 * and partitions of a listed disk left out by the sampler.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "disk/devstat.h"
#include "measure/engine.h"

static char root[] = "/tmp/raidlab-devstat-XXXXXX";

static void
make_root(void)
{
	cr_assert_not_null(mkdtemp(root));
}

static void
remove_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

static void
mkdirs(const char *rel)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", root, rel);
	cr_assert_eq(system(cmd), 0);
}

static void
link_rel(const char *target, const char *rel)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s", root, rel);
	cr_assert_eq(symlink(target, path), 0, "%s: %s", path, strerror(errno));
}

/* A block device as sysfs has it: devices/virtual/block/NAME with
   class/block/NAME linking to it; a partition inside its disk's. */
static void
fake_dev(const char *name, const char *disk)
{
	char rel[256], target[300];

	if (disk == NULL)
		snprintf(rel, sizeof rel, "devices/virtual/block/%s", name);
	else
		snprintf(rel, sizeof rel, "devices/virtual/block/%s/%s", disk,
		    name);
	mkdirs(rel);
	mkdirs("class/block");
	snprintf(target, sizeof target, "../../%s", rel);
	snprintf(rel, sizeof rel, "class/block/%s", name);
	link_rel(target, rel);
	if (disk != NULL) {
		snprintf(rel, sizeof rel, "class/block/%s/partition", name);
		mkdirs(rel);
	}
}

/* The stat line the kernel writes: 17 fields, right-aligned. */
static void
set_stat(const char *name, unsigned long long rsect, unsigned long long wsect,
    unsigned long long io_ticks)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof path, "%s/class/block/%s/stat", root, name);
	cr_assert_not_null(fp = fopen(path, "w"));
	fprintf(fp,
	    "%8u %8u %8llu %8u %8u %8u %8llu %8u %8u %8llu %8u "
	    "%8u %8u %8u %8u %8u %8u\n",
	    11, 0, rsect, 40, 22, 3, wsect, 90, 0, io_ticks, 130, 0, 0, 0, 0, 0,
	    0);
	fclose(fp);
}

TestSuite(devstat, .init = make_root, .fini = remove_root);

Test(devstat, parses_sectors_and_io_ticks_of_a_kernel_stat_line)
{
	struct devstat_reading r;

	cr_assert(devstat_parse("     120        0     9600       35     "
				"  40       10    81920      700        0      "
				"612      735        0        0        0       "
				"0        0        0\n",
	    &r));
	cr_assert_eq(r.read_sectors, 9600);
	cr_assert_eq(r.write_sectors, 81920);
	cr_assert_eq(r.io_ticks, 612);
	/* kernels before 4.18 wrote 11 fields */
	cr_assert(devstat_parse("1 2 3 4 5 6 7 8 9 10 11\n", &r));
	cr_assert_eq(r.io_ticks, 10);
	cr_assert_not(devstat_parse("1 2 3 4 5 6 7 8 9\n", &r));
	cr_assert_not(devstat_parse("", &r));
	cr_assert_not(devstat_parse("1 2 x 4 5 6 7 8 9 10\n", &r));
}

Test(devstat, deltas_are_bytes_and_busy_seconds_since_the_last_reading)
{
	char n0[] = "loop3", n1[] = "loop4", n2[] = "gone";
	char *names[] = { n0, n1, n2 };
	struct devstat d;
	struct dev_sample out[3];

	fake_dev("loop3", NULL);
	fake_dev("loop4", NULL);
	set_stat("loop3", 100, 1000, 50);
	set_stat("loop4", 0, 0, 0);
	devstat_init(&d, root, names, 3);
	set_stat("loop3", 108, 3048, 300);
	devstat_delta(&d, out);
	cr_assert_eq(out[0].read_bytes, 8 * 512);
	cr_assert_eq(out[0].write_bytes, 2048 * 512);
	cr_assert_float_eq(out[0].busy_s, 0.25, 1e-12);
	cr_assert_eq(out[1].read_bytes, 0);
	cr_assert_eq(out[1].write_bytes, 0);
	cr_assert_float_eq(out[1].busy_s, 0, 1e-12, "idle, and known so");
	cr_assert_eq(out[2].write_bytes, 0);
	cr_assert(isnan(out[2].busy_s), "a device not there is unknown");
	/* the next delta starts from the reading just taken */
	set_stat("loop3", 108, 3050, 301);
	devstat_delta(&d, out);
	cr_assert_eq(out[0].write_bytes, 2 * 512);
	cr_assert_float_eq(out[0].busy_s, 0.001, 1e-12);
	/* made anew, counting from zero: unknown once, then deltas again */
	set_stat("loop3", 0, 4, 1);
	devstat_delta(&d, out);
	cr_assert_eq(out[0].write_bytes, 0);
	cr_assert(isnan(out[0].busy_s));
	set_stat("loop3", 0, 10, 3);
	devstat_delta(&d, out);
	cr_assert_eq(out[0].write_bytes, 6 * 512);
	cr_assert_float_eq(out[0].busy_s, 0.002, 1e-12);
	devstat_done(&d);
}

Test(devstat, md_array_and_its_slaves_have_their_roles)
{
	char n0[] = "md0", n1[] = "loop3", n2[] = "loop4", n3[] = "sda2";
	char *names[] = { n0, n1, n2, n3 };

	fake_dev("md0", NULL);
	fake_dev("loop3", NULL);
	fake_dev("loop4", NULL);
	fake_dev("sda", NULL);
	fake_dev("sda2", "sda");
	mkdirs("class/block/md0/md");
	mkdirs("class/block/md0/slaves/loop3");
	mkdirs("class/block/md0/slaves/loop4");
	cr_assert_str_eq(devstat_role(root, "md0", names, 4), "array");
	cr_assert_str_eq(devstat_role(root, "loop3", names, 4), "member");
	cr_assert_str_eq(devstat_role(root, "loop4", names, 4), "member");
	cr_assert_str_eq(devstat_role(root, "sda2", names, 4), "device");
}

Test(devstat, sampler_leaves_out_partitions_of_a_listed_disk)
{
	char n0[] = "sdb", n1[] = "sdb1", n2[] = "sdc1";
	char *names[] = { n0, n1, n2 };
	struct sampler s;

	fake_dev("sdb", NULL);
	fake_dev("sdb1", "sdb");
	fake_dev("sdc", NULL);
	fake_dev("sdc1", "sdc");
	set_stat("sdb", 0, 0, 0);
	set_stat("sdb1", 0, 0, 0);
	set_stat("sdc1", 0, 0, 0);
	cr_assert(devstat_part_of_listed(root, "sdb1", names, 3));
	cr_assert_not(devstat_part_of_listed(root, "sdc1", names, 3),
	    "its disk is not listed");
	cr_assert_not(devstat_part_of_listed(root, "sdb", names, 3));
	sampler_init(&s, 8);
	sampler_watch(&s, root, names, NULL, 3);
	cr_assert_eq(s.series.ndev, 2);
	cr_assert_str_eq(s.series.dev[0].name, "sdb");
	cr_assert_str_eq(s.series.dev[1].name, "sdc1");
	cr_assert_eq(s.dev.n, 2);
	sampler_done(&s);
}
