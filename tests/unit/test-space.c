/*
 * Room for the workloads (space.h): the data set of a selection, kept
 * runs adding up over repeats; a directory without the room is refused
 * with the figures; scratch disks are refused when the array cannot hold
 * the data set (the copies its level keeps) or their directory cannot
 * hold what is written on them, and warned about when their full size
 * exceeds the directory's free space.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "build/dirtrust.h"
#include "build/space.h"
#include "lab/lab.h"

static struct lab *
load(const char *text)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];

	errlist_init(&errs);
	if (lab_load_string(text, "space.cfg", &lab, &errs) < 0 ||
	    lab_check(lab, &errs) < 0)
		cr_assert_fail("lab: %s",
		    errs.n ? err_format(&errs.v[0], b, sizeof b) : "?");
	errlist_done(&errs);
	return lab;
}

/* The free bytes of the filesystem of dir, as space.c counts them. */
static uint64_t
free_of(const char *dir)
{
	struct statvfs sv;

	cr_assert_eq(statvfs(dir, &sv), 0);
	return (uint64_t)(geteuid() == 0 ? sv.f_bfree : sv.f_bavail) *
	    sv.f_frsize;
}

Test(space, data_set_is_the_largest_run_plus_what_is_kept)
{
	struct lab *lab = load(
	    "name = \"s\"; repeats = 3;\n"
	    "variants = ( { name = \"d\"; directory = \"/tmp\"; } );\n"
	    "workloads = (\n"
	    "  { name = \"kept\"; type = \"smallfiles\"; count = 10; "
	    "size = \"4K\"; keep = true; },\n"
	    "  { name = \"big\"; type = \"fio\"; size = \"1M\"; },\n"
	    "  { name = \"small\"; type = \"fio\"; size = \"64K\"; } );\n");
	const bool only_small[] = { false, false, true };

	/* Three repeats of the kept one stay; the largest other on top. */
	cr_assert_eq(space_dataset(lab, NULL, 0, false),
	    3 * 10 * 4096 + (1 << 20));
	cr_assert_eq(space_dataset(lab, NULL, 1, false), 10 * 4096 + (1 << 20));
	cr_assert_eq(space_dataset(lab, only_small, 0, false), 64 << 10);
	/* --keep: every run stays. */
	cr_assert_eq(space_dataset(lab, NULL, 2, true),
	    2 * (10 * 4096 + (1 << 20) + (64 << 10)));
	lab_free(lab);
}

Test(space, directory_without_room_is_refused_with_the_figures)
{
	struct err e;

	err_clear(&e);
	cr_assert_eq(space_directory("/var/tmp/raidlab-no/such/dir", 1 << 20,
			 &e),
	    SPACE_OK);
	cr_assert_eq(space_directory("/var/tmp/raidlab-no/such/dir",
			 free_of("/var/tmp") + (1ULL << 40), &e),
	    SPACE_REFUSE);
	cr_assert_eq(e.code, -ENOSPC);
	cr_assert(strstr(e.msg,
		      "/var/tmp/raidlab-no/such/dir: its filesystem (/var/tmp) "
		      "has ") != NULL,
	    "%s", e.msg);
	cr_assert(strstr(e.msg, "the workloads write there") != NULL, "%s",
	    e.msg);
}

/* A lab of one scratch variant: scratch in /var/tmp, 4 disks of 1G. */
static struct lab *
scratch_lab(const char *array)
{
	char *text = xasprintf("name = \"s\";\n"
			       "variants = ( { name = \"v\";\n"
			       "  scratch = { count = 4; size = \"1G\"; dir = "
			       "\"/var/tmp\"; };\n"
			       "  array = { %s }; } );\n"
			       "workloads = ( { type = \"fio\"; } );\n",
	    array);
	struct lab *lab = load(text);

	free(text);
	return lab;
}

Test(space, array_must_hold_the_data_set)
{
	static const struct {
		const char *array;
		uint64_t cap; /* what the level leaves for data */
	} t[] = {
		{ "level = 0;", 4ULL << 30 },
		{ "level = 1;", 1ULL << 30 },
		{ "level = 5;", 3ULL << 30 },
		{ "level = 6;", 2ULL << 30 },
		{ "level = 10; layout = \"f2\";", 2ULL << 30 },
		{ "engine = \"btrfs\"; level = \"raid1c3\";",
		    (4ULL << 30) / 3 },
	};
	char msg[64];
	struct err e;

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct lab *lab = scratch_lab(t[i].array);

		err_clear(&e);
		cr_assert_neq(space_variant(&lab->variants[0], lab->path,
				  t[i].cap - 4096, &e),
		    SPACE_REFUSE, "%s: %s", t[i].array, e.msg);
		err_clear(&e);
		cr_assert_eq(space_variant(&lab->variants[0], lab->path,
				 t[i].cap + (1 << 20), &e),
		    SPACE_REFUSE, "%s", t[i].array);
		cr_assert_str_eq(e.field, "variants.v.scratch.size");
		cr_assert_eq(e.line, 3);
		cr_assert(strstr(e.msg, "does not fit on the array") != NULL,
		    "%s", e.msg);
		snprintf(msg, sizeof msg, "on 4 scratch disks of 1G");
		cr_assert(strstr(e.msg, msg) != NULL, "%s", e.msg);
		lab_free(lab);
	}
}

/* What raid1 writes twice must fit in the scratch directory; the full
   size of the disks beyond its free space is a warning. */
Test(space, scratch_directory_must_hold_what_is_written)
{
	char *text, *dir = xstrdup("/var/tmp/raidlab-space.XXXXXX");
	uint64_t avail;
	struct lab *lab;
	struct err e;

	cr_assert_not_null(mkdtemp(dir));
	avail = free_of(dir);
	/* Disks of half the free space and 2G each: their full size is
	   more than the free space (a warning), the array holds more than
	   avail / 2 + 1G, which raid1 writes twice (refused). The margins
	   are gigabytes: others may write on this filesystem meanwhile. */
	text = xasprintf("name = \"s\";\n"
			 "variants = ( { name = \"m\";\n"
			 "  scratch = { count = 2; size = %lluL; dir = \"%s\"; "
			 "};\n"
			 "  array = { level = 1; }; } );\n"
			 "workloads = ( { type = \"fio\"; } );\n",
	    (unsigned long long)(avail / 2 / 512 * 512 + (2ULL << 30)), dir);
	lab = load(text);
	err_clear(&e);
	cr_assert_eq(space_variant(&lab->variants[0], lab->path, 1 << 20, &e),
	    SPACE_WARN);
	cr_assert_str_eq(e.field, "variants.m.scratch.dir");
	cr_assert(strstr(e.msg, "the sparse files could outgrow it") != NULL,
	    "%s", e.msg);
	err_clear(&e);
	cr_assert_eq(space_variant(&lab->variants[0], lab->path,
			 avail / 2 + (1ULL << 30), &e),
	    SPACE_REFUSE);
	cr_assert(strstr(e.msg, "takes on the scratch disks") != NULL, "%s",
	    e.msg);
	lab_free(lab);
	free(text);
	rmdir(dir);
	free(dir);
}

/* ---------------------------------------------------------------- trust */

/* A new directory of this user's own under /var/tmp, mode mode. */
static char *
own_dir(mode_t mode)
{
	char *d = xstrdup("/var/tmp/raidlab-trust.XXXXXX");

	cr_assert_not_null(mkdtemp(d));
	cr_assert_eq(chmod(d, mode), 0);
	return d;
}

/* dirtrust (dirtrust.h), as space_directory() calls it: a directory
   others may write in needs the sticky bit, a link loop is refused, the
   part still to be made inherits the trust of where it is made. */
Test(space, a_target_others_may_change_is_refused)
{
	char *d = own_dir(0770), *p, *l1, *l2;
	struct err e;

	p = xasprintf("%s/x/y", d);
	err_clear(&e);
	cr_assert_not(dirtrust_check(p, &e));
	cr_assert(strstr(e.msg, d) != NULL && strstr(e.msg, "0770") != NULL,
	    "%s", e.msg);
	cr_assert_eq(chmod(d, 01777), 0);
	err_clear(&e);
	cr_assert(dirtrust_check(p, &e), "sticky: %s", e.msg);
	cr_assert_eq(chmod(d, 0755), 0);
	cr_assert(dirtrust_check(p, &e), "0755: %s", e.msg);
	l1 = xasprintf("%s/l1", d);
	l2 = xasprintf("%s/l2", d);
	cr_assert_eq(symlink(l2, l1), 0);
	cr_assert_eq(symlink(l1, l2), 0);
	free(p);
	p = xasprintf("%s/l1/x", d);
	err_clear(&e);
	cr_assert_not(dirtrust_check(p, &e));
	cr_assert_eq(e.code, -ELOOP, "%s", e.msg);
	err_clear(&e);
	cr_assert_not(dirtrust_check(l1, &e), "the target a link");
	cr_assert(strstr(e.msg, "symbolic link") != NULL, "%s", e.msg);
	unlink(l1);
	unlink(l2);
	rmdir(d);
	free(p);
	free(l1);
	free(l2);
	free(d);
}
