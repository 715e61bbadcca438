/*
 * guard_files(): an md bitmap file that already exists, or whose
 * directory does not, is refused with the lab file's line and field, for
 * the array, a leg and a journal array alike; a new file in an existing
 * directory passes. Real files in a temporary directory.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "guard.h"
#include "lab.h"
#include "xalloc.h"

static char dir[] = "/tmp/raidlab-guard-files.XXXXXX";
static char *existing;

static void
setup(void)
{
	FILE *fp;

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
