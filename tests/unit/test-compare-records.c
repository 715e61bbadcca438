/*
 * The comparison table over records: the rows of two records kept apart,
 * a record removed again (its rows, its columns, the baseline), the
 * default label, a record file read back into the table, and the listing
 * of a results directory, newest first.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "cmptest.h"
#include "lab/lab.h"
#include "results/compare.h"
#include "results/record.h"

/* ---------------------------------------------------------------- records */

Test(compare, two_records_keep_their_rows_apart)
{
	struct cmptest f;
	struct record *more;
	size_t k;

	cmptest_setup(&f);
	more = record_new(f.lab);
	cmptest_add_small(more, f.lab, V_FAST, 1, 60, 400, WL_OK);
	cr_assert_eq(compare_add(&f.c, more, "second"), 1);
	cr_assert_eq(f.c.nrecords, 2);
	cr_assert_eq(f.c.nrows, 4);
	cr_assert_str_eq(f.c.rows[3].variant, "fast");
	cr_assert_str_eq(f.c.rows[3].source, "second");
	cr_assert_eq(f.c.rows[3].record, 1);
	k = cmptest_col(&f.c, "small", "files_100");
	cr_assert_eq(compare_cell(&f.c, 3, k)->mean, 60.0);
	cr_assert_eq(compare_cell(&f.c, 3, k)->pct, 200.0);
	/* highest, but a single repeat proves no best */
	cr_assert_eq(f.c.cols[k].best, COMPARE_NONE);
	/* The second record has no untar run: an empty cell. */
	cr_assert_eq(compare_cell(&f.c, 3, cmptest_col(&f.c, "tar", "untar"))
			 ->n,
	    0);

	/* Removing the first record takes its rows and the untar column;
	   the baseline moves to what is left. */
	compare_remove_record(&f.c, 0);
	cr_assert_eq(f.c.nrows, 1);
	cr_assert_eq(f.c.ncols, 2);
	cr_assert_eq(f.c.baseline, 0);
	cr_assert_eq(compare_cell(&f.c, 0, 0)->pct, 0.0);
	cr_assert_eq(f.c.cols[0].best, COMPARE_NONE);
	record_free(more);
	cmptest_teardown(&f);
}

Test(compare, removing_a_record_keeps_the_baseline_row)
{
	struct cmptest f;
	struct record *more;

	cmptest_setup(&f);
	more = record_new(f.lab);
	cmptest_add_small(more, f.lab, V_SLOW, 1, 40, 40, WL_OK);
	compare_add(&f.c, more, "second");
	compare_set_baseline(&f.c, 3);
	cr_assert_eq(compare_cell(&f.c, 0, 0)->pct, -50.0);
	compare_remove_record(&f.c, 0);
	cr_assert_eq(f.c.nrows, 1);
	cr_assert_eq(f.c.baseline, 0);
	cr_assert_str_eq(f.c.rows[0].source, "second");
	/* Renumbered: the answer names "slow", not "slow #2". */
	cr_assert_eq(f.c.rows[0].record, 0);
	cr_assert_eq(f.c.nrecords, 1);
	record_free(more);
	cmptest_teardown(&f);
}

Test(compare, default_label_is_lab_and_local_time)
{
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	char want[64];
	struct tm tm;

	cmptest_add_tar(rec, lab, V_SLOW, 1, 4, false);
	rec->created = 1700000000;
	localtime_r(&rec->created, &tm);
	strftime(want, sizeof want, "cmplab %Y-%m-%d %H:%M", &tm);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_str_eq(c.rows[0].source, want);
	cr_assert_null(c.rows[0].path);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

Test(compare, a_record_file_reads_back_into_the_table)
{
	const char *d = getenv("TESTDATA");
	char *path =
	    xasprintf("%s/records/fixture-v1.json", d ? d : "tests/data");
	struct record *rec = NULL;
	struct compare c;
	struct err e;
	char buf[COMPARE_NUM_BUF];

	err_clear(&e);
	cr_assert_eq(record_load(path, &rec, &e), 0, "%s", e.msg);
	compare_init(&c);
	cr_assert_eq(compare_add(&c, rec, NULL), 2);
	cr_assert(compare_has_path(&c, path));
	cr_assert_not(compare_has_path(&c, "/nowhere.json"));
	cr_assert_str_eq(c.rows[0].variant, "tmpdir");
	cr_assert_str_eq(c.rows[1].variant, "mirror");
	cr_assert(c.rows[1].scratch);
	cr_assert_eq(c.ncols, 1);
	cr_assert_str_eq(c.cols[0].key, "files_50");
	cr_assert_str_eq(compare_format_value(compare_cell(&c, 0, 0)->mean,
			     c.cols[0].unit, buf, sizeof buf),
	    "28.07");
	compare_done(&c);
	record_free(rec);
	free(path);
}

/* ---------------------------------------------------------------- files */

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

Test(compare, results_directory_lists_records_newest_first)
{
	char tmpl[] = "/tmp/raidlab-cmp.XXXXXX";
	struct lab *lab = cmptest_lab();
	struct record *old = record_new(lab), *new = record_new(lab);
	struct compare_files l;
	struct err e;
	char *p;

	cr_assert_not_null(mkdtemp(tmpl));
	cmptest_add_tar(old, lab, V_SLOW, 1, 4, false);
	cmptest_add_tar(new, lab, V_SLOW, 1, 4, false);
	cmptest_add_tar(new, lab, V_FAST, 1, 3, false);
	old->created -= 3600;
	json_object_set_new(old->root, "created",
	    json_string("2020-01-01T00:00:00Z"));
	record_set_status(new, "ok");
	err_clear(&e);
	cr_assert_eq(record_save(old, tmpl, &e), 0, "%s", e.msg);
	cr_assert_eq(record_save(new, tmpl, &e), 0, "%s", e.msg);
	p = xasprintf("%s/notes.json", tmpl);
	write_file(p, "{\"format\": \"something else\"}\n");
	free(p);
	p = xasprintf("%s/README", tmpl);
	write_file(p, "not json\n");
	free(p);

	cr_assert_eq(compare_files_scan(&l, tmpl, &e), 0);
	cr_assert_eq(l.n, 3);
	/* By the records' creation time; the other JSON (no time) last. */
	cr_assert_str_eq(l.v[0].path, new->path);
	cr_assert(l.v[0].ok);
	cr_assert_str_eq(l.v[0].lab, "cmplab");
	cr_assert_str_eq(l.v[0].status, "ok");
	cr_assert_eq(l.v[0].nruns, 2);
	cr_assert_eq(l.v[0].nvariants, 2);
	cr_assert_str_eq(l.v[1].path, old->path);
	cr_assert_str_eq(l.v[1].status, "running");
	cr_assert_eq(l.v[1].nvariants, 1);
	cr_assert_not(l.v[2].ok);
	cr_assert_str_eq(l.v[2].error, "not a raidlab result record");
	compare_files_done(&l);

	unlink(new->path);
	unlink(old->path);
	p = xasprintf("%s/notes.json", tmpl);
	unlink(p);
	free(p);
	p = xasprintf("%s/README", tmpl);
	unlink(p);
	free(p);
	cr_assert_eq(rmdir(tmpl), 0);
	/* A results directory that does not exist yet is empty. */
	cr_assert_eq(compare_files_scan(&l, tmpl, &e), 0);
	cr_assert_eq(l.n, 0);
	compare_files_done(&l);
	record_free(old);
	record_free(new);
	lab_free(lab);
}
