/*
 * guard_files(): an md bitmap file that already exists, or whose
 * directory does not, or that is on a filesystem md cannot keep one on
 * (tmpfs: no block map; a read-only mount), is refused with the lab
 * file's line and field, for the array, a leg and a journal array alike;
 * a new file in an existing directory passes. Real files in a temporary
 * directory.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "build/guard.h"
#include "lab/lab.h"

#define TMPFS_MAGIC 0x01021994

static char dir[64];
static char *existing;

static bool
on_tmpfs(const char *path)
{
	struct statfs fs;

	return statfs(path, &fs) == 0 &&
	    (unsigned long)fs.f_type == TMPFS_MAGIC;
}

static void
setup(void)
{
	FILE *fp;

	/* a filesystem with a block map: /tmp unless it is a tmpfs */
	snprintf(dir, sizeof dir, "%s/raidlab-guard-files.XXXXXX",
	    on_tmpfs("/tmp") ? "/var/tmp" : "/tmp");
	cr_assert_not_null(mkdtemp(dir));
	existing = xasprintf("%s/kept", dir);
	cr_assert_not_null(fp = fopen(existing, "w"));
	fputs("not raidlab's\n", fp);
	fclose(fp);
}

static void
teardown(void)
{
	unlink(existing);
	free(existing);
	rmdir(dir);
}

TestSuite(guard_files, .init = setup, .fini = teardown);

/* The lab with one variant whose arrays say `array`; errs filled. */
static int
check(const char *array, const char *fs, struct errlist *errs)
{
	char *text = xasprintf("name = \"t\";\n"
			       "workloads = ( { type = \"fio\"; } );\n"
			       "variants = (\n"
			       "  { name = \"v\";\n"
			       "    array = { %s };\n"
			       "    %s }\n"
			       ");\n",
	    array, fs);
	struct lab *lab = NULL;
	int rc;

	cr_assert_eq(lab_load_string(text, "lab.cfg", &lab, errs), 0, "%s: %s",
	    text, errs->n ? errs->v[0].msg : "");
	rc = guard_files(&lab->variants[0], "lab.cfg", errs);
	lab_free(lab);
	free(text);
	return rc;
}

Test(guard_files, an_existing_bitmap_file_is_refused_and_kept)
{
	char *a = xasprintf("level = 1; bitmap = { file = \"%s\"; }; devices "
			    "= [ \"/dev/a\", \"/dev/b\" ];",
	    existing);
	struct errlist errs;

	errlist_init(&errs);
	cr_expect_eq(check(a, "", &errs), -EPERM);
	cr_assert_eq(errs.n, 1);
	cr_expect_str_eq(errs.v[0].file, "lab.cfg");
	cr_expect_eq(errs.v[0].line, 5); /* the array's line */
	cr_expect_str_eq(errs.v[0].field, "variants.v.array.bitmap.file");
	cr_expect(strstr(errs.v[0].msg, "already exists") != NULL, "%s",
	    errs.v[0].msg);
	cr_expect_eq(access(existing, F_OK), 0);
	errlist_done(&errs);
	free(a);
}

Test(guard_files, a_new_file_passes_a_missing_directory_does_not)
{
	char *ok = xasprintf("level = 1; bitmap = { file = \"%s/new\"; }; "
			     "devices = [ \"/dev/a\", \"/dev/b\" ];",
	    dir);
	char *bad = xasprintf("level = 1; bitmap = { file = \"%s/no/new\"; }; "
			      "devices = [ \"/dev/a\", \"/dev/b\" ];",
	    dir);
	struct errlist errs;

	errlist_init(&errs);
	cr_expect_eq(check(ok, "", &errs), 0);
	cr_expect_eq(errs.n, 0);
	cr_expect_eq(check(bad, "", &errs), -EPERM);
	cr_assert_eq(errs.n, 1);
	cr_expect(strstr(errs.v[0].msg, "no such directory") != NULL, "%s",
	    errs.v[0].msg);
	errlist_done(&errs);
	free(ok);
	free(bad);
}

Test(guard_files, legs_and_journal_arrays_are_checked_too)
{
	char *legs =
	    xasprintf("level = 1; legs = ("
		      "{ level = 1; bitmap = { file = \"%s\"; }; "
		      "devices = [ \"/dev/a\", \"/dev/b\" ]; },"
		      "{ level = 1; devices = [ \"/dev/c\", \"/dev/d\" "
		      "]; } );",
		existing);
	char *fs = xasprintf("fs = { journal = { array = { level = 1; bitmap = "
			     "{ file = \"%s\"; }; devices = [ \"/dev/e\", "
			     "\"/dev/f\" ]; }; }; };",
	    existing);
	struct errlist errs;

	errlist_init(&errs);
	cr_expect_eq(check(legs, "", &errs), -EPERM);
	cr_assert_eq(errs.n, 1);
	cr_expect_str_eq(errs.v[0].field,
	    "variants.v.array.legs[0].bitmap.file");
	cr_expect_eq(check("level = 0; devices = [ \"/dev/a\", \"/dev/b\" ];",
			 fs, &errs),
	    -EPERM);
	cr_assert_eq(errs.n, 2);
	cr_expect(strstr(errs.v[1].field, "fs.journal.array.bitmap.file") !=
		NULL,
	    "%s", errs.v[1].field);
	errlist_done(&errs);
	free(legs);
	free(fs);
}

/* md maps the bitmap file's blocks with bmap, which tmpfs has not: the
   create would fail after the members were wiped. */
Test(guard_files, a_file_on_tmpfs_is_refused)
{
	char *a = xasprintf("level = 1; bitmap = { file = "
			    "\"/dev/shm/raidlab-%d.bitmap\"; }; "
			    "devices = [ \"/dev/a\", \"/dev/b\" ];",
	    (int)getpid());
	struct errlist errs;

	if (!on_tmpfs("/dev/shm"))
		cr_skip_test("/dev/shm is not a tmpfs here");
	errlist_init(&errs);
	cr_expect_eq(check(a, "", &errs), -EPERM);
	cr_assert_eq(errs.n, 1);
	cr_expect_str_eq(errs.v[0].field, "variants.v.array.bitmap.file");
	cr_expect(strstr(errs.v[0].msg, "/dev/shm is on tmpfs") != NULL, "%s",
	    errs.v[0].msg);
	errlist_done(&errs);
	free(a);
}

/* md writes the bitmap: a read-only mount is refused (root: a read-only
   bind mount of the temporary directory, so the filesystem is the same
   one that passes above). */
Test(guard_files, a_file_on_a_read_only_mount_is_refused)
{
	char *ro = xasprintf("%s/ro", dir), *cmd, *a;
	struct errlist errs;

	if (geteuid() != 0)
		cr_skip_test("needs root (a bind mount)");
	cr_assert_eq(mkdir(ro, 0700), 0);
	cmd = xasprintf("mount --bind %s %s && mount -o remount,bind,ro %s", ro,
	    ro, ro);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	a = xasprintf("level = 1; bitmap = { file = \"%s/new\"; }; devices "
		      "= [ \"/dev/a\", \"/dev/b\" ];",
	    ro);
	errlist_init(&errs);
	cr_expect_eq(check(a, "", &errs), -EPERM);
	cr_expect_eq(errs.n, 1);
	cr_expect(errs.n == 0 ||
		strstr(errs.v[0].msg, "a read-only filesystem") != NULL,
	    "%s", errs.n ? errs.v[0].msg : "");
	errlist_done(&errs);
	cr_expect_eq(umount(ro), 0);
	rmdir(ro);
	free(a);
	free(cmd);
	free(ro);
}
