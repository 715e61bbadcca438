/*
 * The comparison table: one row per record and variant, one column per
 * workload test, mean and stddev over repeats, percentages against the
 * chosen baseline, the best cell per column by the unit's direction
 * (only where proven: a star and a colour are an answer),
 * failed and too-fast runs kept out, records removed again, numbers as
 * the table prints them, and the listing of a results directory.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "err.h"
#include "lab.h"
#include "record.h"
#include "result.h"
#include "xalloc.h"

/* ---------------------------------------------------------------- helpers */

static const char lab_text[] =
    "name = \"cmplab\";\n"
    "repeats = 3;\n"
    "cache = \"keep\";\n"
    "variants = (\n"
    "  { name = \"slow\"; directory = \"/var/tmp/raidlab-cmp-a\"; },\n"
    "  { name = \"fast\"; directory = \"/var/tmp/raidlab-cmp-b\"; },\n"
    "  { name = \"mirror\"; scratch = { count = 2; size = \"1G\"; };\n"
    "    array = { level = \"1\"; devices = [\"scratch:0\", \"scratch:1\"]; "
    "};\n"
    "    fs = { type = \"ext4\"; }; }\n"
    ");\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; counts = [100, 1000]; },\n"
    "  { name = \"tar\"; type = \"untar\"; }\n"
    ");\n";

enum { V_SLOW, V_FAST, V_MIRROR };
enum { W_SMALL, W_TAR };

static struct lab *
sample_lab(void)
{
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(lab_text, "cmplab.cfg", &lab, &errs), 0,
	    "%s", errs.n ? errs.v[0].msg : "?");
	errlist_done(&errs);
	return lab;
}

/* A run of the small-files workload: files_100 and files_1000 figures. */
static void
add_small(struct record *rec, const struct lab *lab, int v, int repeat,
    double f100, double f1000, enum wl_status st)
{
	struct wl_result *r = wl_result_new("smallfiles", "small");
	struct wl_test *t;

	r->status = st;
	if (st == WL_FAILED)
		r->error = xstrdup("disk full");
	t = wl_result_add_test(r, "files_100", "100 files of 4K in 10 dirs",
	    WL_UNIT_FILES_S);
	t->value = f100;
	t = wl_result_add_test(r, "files_1000", "1000 files of 4K in 10 dirs",
	    WL_UNIT_FILES_S);
	t->value = f1000;
	record_add_run(rec, &lab->variants[v], NULL, &lab->workloads[W_SMALL],
	    repeat, r, NULL);
	wl_result_free(r);
}

/* A run of the untar workload: seconds, lower is better. */
static void
add_tar(struct record *rec, const struct lab *lab, int v, int repeat,
    double secs, bool too_fast)
{
	struct wl_result *r = wl_result_new("untar", "tar");
	struct wl_test *t;

	t = wl_result_add_test(r, "untar", "tar xf + sync", WL_UNIT_SECONDS);
	t->value = secs;
	t->too_fast = too_fast;
	record_add_run(rec, &lab->variants[v], NULL, &lab->workloads[W_TAR],
	    repeat, r, NULL);
	wl_result_free(r);
}

/*
 * slow: files_100 10, 20, 30 (mean 20, sd 10); files_1000 100 x3.
 * fast: files_100 30, 30, 30; files_1000 150, 250 and a failed run.
 * mirror: skipped.  tar: slow 4 s, fast 2 s and 3 s.
 */
static struct record *
sample_record(const struct lab *lab)
{
	struct record *rec = record_new(lab);

	add_small(rec, lab, V_SLOW, 1, 10, 100, WL_OK);
	add_small(rec, lab, V_SLOW, 2, 20, 100, WL_OK);
	add_small(rec, lab, V_SLOW, 3, 30, 100, WL_OK);
	add_tar(rec, lab, V_SLOW, 1, 4, false);
	add_small(rec, lab, V_FAST, 1, 30, 150, WL_OK);
	add_small(rec, lab, V_FAST, 2, 30, 250, WL_OK);
	add_small(rec, lab, V_FAST, 3, 999, 999, WL_FAILED);
	add_tar(rec, lab, V_FAST, 1, 2, false);
	add_tar(rec, lab, V_FAST, 2, 3, false);
	record_add_run(rec, &lab->variants[V_MIRROR], NULL,
	    &lab->workloads[W_SMALL], 1, NULL, "no scratch disks here");
	return rec;
}

static size_t
col_of(const struct compare *c, const char *workload, const char *key)
{
	for (size_t k = 0; k < c->ncols; k++)
		if (strcmp(c->cols[k].workload, workload) == 0 &&
		    strcmp(c->cols[k].key, key) == 0)
			return k;
	cr_assert_fail("no column %s %s", workload, key);
	return 0;
}

struct fixture {
	struct lab *lab;
	struct record *rec;
	struct compare c;
};

static void
setup(struct fixture *f)
{
	f->lab = sample_lab();
	f->rec = sample_record(f->lab);
	compare_init(&f->c);
	cr_assert_eq(compare_add(&f->c, f->rec, "first"), 3);
}

static void
teardown(struct fixture *f)
{
	compare_done(&f->c);
	record_free(f->rec);
	lab_free(f->lab);
}

/* ---------------------------------------------------------------- table */

Test(compare, rows_are_variants_and_columns_are_workload_tests)
{
	struct fixture f;

	setup(&f);
	cr_assert_eq(f.c.nrows, 3);
	cr_assert_str_eq(f.c.rows[0].variant, "slow");
	cr_assert_str_eq(f.c.rows[1].variant, "fast");
	cr_assert_str_eq(f.c.rows[2].variant, "mirror");
	cr_assert(f.c.rows[2].scratch);
	cr_assert_not(f.c.rows[0].scratch);
	cr_assert_str_eq(f.c.rows[0].source, "first");
	cr_assert_str_eq(f.c.rows[0].text, "directory /var/tmp/raidlab-cmp-a");
	cr_assert_eq(f.c.ncols, 3);
	cr_assert_str_eq(f.c.cols[0].workload, "small");
	cr_assert_str_eq(f.c.cols[0].type, "smallfiles");
	cr_assert_str_eq(f.c.cols[0].key, "files_100");
	cr_assert_eq(f.c.cols[0].unit, WL_UNIT_FILES_S);
	cr_assert_str_eq(f.c.cols[1].key, "files_1000");
	cr_assert_str_eq(f.c.cols[2].workload, "tar");
	cr_assert_str_eq(f.c.cols[2].title, "tar xf + sync");
	cr_assert(f.c.cols[2].lower_better);
	cr_assert_not(f.c.cols[0].lower_better);
	/* The skipped variant has a row with no figures. */
	cr_assert_eq(compare_cell(&f.c, 2, 0)->n, 0);
	cr_assert(isnan(compare_cell(&f.c, 2, 0)->mean));
	teardown(&f);
}

Test(compare, cell_is_mean_and_sample_stddev_of_the_repeats)
{
	struct fixture f;
	const struct compare_cell *cell;

	setup(&f);
	cell = compare_cell(&f.c, 0, col_of(&f.c, "small", "files_100"));
	cr_assert_eq(cell->n, 3);
	cr_assert_eq(cell->mean, 20.0);
	cr_assert_eq(cell->sd, 10.0);
	cr_assert_eq(cell->v[0], 10.0);
	cr_assert_eq(cell->v[2], 30.0);
	cell = compare_cell(&f.c, 1, col_of(&f.c, "small", "files_100"));
	cr_assert_eq(cell->mean, 30.0);
	cr_assert_eq(cell->sd, 0.0);
	/* One repeat: no spread to speak of. */
	cell = compare_cell(&f.c, 0, col_of(&f.c, "tar", "untar"));
	cr_assert_eq(cell->n, 1);
	cr_assert_eq(cell->mean, 4.0);
	cr_assert_eq(cell->sd, 0.0);
	teardown(&f);
}

Test(compare, failed_runs_are_counted_not_averaged)
{
	struct fixture f;
	const struct compare_cell *cell;

	setup(&f);
	cell = compare_cell(&f.c, 1, col_of(&f.c, "small", "files_1000"));
	cr_assert_eq(cell->n, 2);
	cr_assert_eq(cell->failed, 1);
	cr_assert_eq(cell->mean, 200.0);
	cr_assert_float_eq(cell->sd, 70.710678118654755, 1e-9);
	teardown(&f);
}

Test(compare, percent_is_against_the_chosen_baseline)
{
	struct fixture f;
	size_t k;

	setup(&f);
	k = col_of(&f.c, "small", "files_100");
	/* The first row is the baseline until another is chosen. */
	cr_assert_eq(f.c.baseline, 0);
	cr_assert_eq(compare_cell(&f.c, 0, k)->pct, 0.0);
	cr_assert_eq(compare_cell(&f.c, 1, k)->pct, 50.0);
	cr_assert(isnan(compare_cell(&f.c, 2, k)->pct));
	compare_set_baseline(&f.c, 1);
	cr_assert_float_eq(compare_cell(&f.c, 0, k)->pct, -100.0 / 3, 1e-12);
	cr_assert_eq(compare_cell(&f.c, 1, k)->pct, 0.0);
	k = col_of(&f.c, "tar", "untar");
	cr_assert_eq(compare_cell(&f.c, 0, k)->pct, 60.0);
	/* A baseline without figures: no percentages. */
	compare_set_baseline(&f.c, 2);
	cr_assert(isnan(compare_cell(&f.c, 0, k)->pct));
	compare_set_baseline(&f.c, COMPARE_NONE);
	cr_assert_eq(f.c.baseline, COMPARE_NONE);
	cr_assert(isnan(compare_cell(&f.c, 1, k)->pct));
	teardown(&f);
}

/* The fixture's fast variant has the higher rates and the shorter untar,
   but 2 repeats (and 1 untar for slow) prove nothing: no best, no
   colour. */
Test(compare, best_unproven_with_under_three_repeats)
{
	struct fixture f;

	setup(&f);
	for (size_t k = 0; k < f.c.ncols; k++) {
		cr_assert_eq(f.c.cols[k].best, COMPARE_NONE);
		for (size_t i = 0; i < f.c.nrows; i++)
			cr_assert_eq(compare_score(&f.c, i, k), -1.0);
	}
	teardown(&f);
}

/* Three repeats each, far apart: the highest rate and the lowest time are
   proven best and coloured; close ones are neither. */
Test(compare, best_is_proven_highest_rate_and_lowest_time)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	for (int i = 0; i < 3; i++) {
		/* files_100 far apart; files_1000 no difference */
		add_small(rec, lab, V_SLOW, i + 1, 10 + i, 100 + 10 * i, WL_OK);
		add_small(rec, lab, V_FAST, i + 1, 30 + i, 105 + 10 * i, WL_OK);
		add_tar(rec, lab, V_SLOW, i + 1, 4 + 0.1 * i, false);
		add_tar(rec, lab, V_FAST, i + 1, 2 + 0.1 * i, false);
	}
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.cols[col_of(&c, "small", "files_100")].best, 1);
	cr_assert_eq(c.cols[col_of(&c, "small", "files_1000")].best,
	    COMPARE_NONE);
	cr_assert_eq(c.cols[col_of(&c, "tar", "untar")].best, 1);
	cr_assert(compare_proven_better(&c, 1, 0, 0));
	cr_assert_not(compare_proven_better(&c, 0, 1, 0));
	cr_assert_eq(compare_score(&c, 1, col_of(&c, "tar", "untar")), 1.0);
	cr_assert_eq(compare_score(&c, 0, col_of(&c, "tar", "untar")), 0.0);
	cr_assert_eq(compare_score(&c, 1, col_of(&c, "small", "files_1000")),
	    -1.0);
	/* the baseline is no part of the proof */
	compare_set_baseline(&c, 1);
	cr_assert_eq(c.cols[col_of(&c, "small", "files_100")].best, 1);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* Three rows: a and b alike, both proven above c. No best (a and b are
   not told apart), but every cell is proven against some other and
   keeps its colour. */
Test(compare, no_best_when_the_top_two_are_alike)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	static const double a[] = { 50, 52, 54 }, b[] = { 51, 53, 55 },
			    z[] = { 10, 11, 12 };

	for (int i = 0; i < 3; i++) {
		add_small(rec, lab, V_SLOW, i + 1, a[i], a[i], WL_OK);
		add_small(rec, lab, V_FAST, i + 1, b[i], b[i], WL_OK);
		add_small(rec, lab, V_MIRROR, i + 1, z[i], z[i], WL_OK);
	}
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.cols[0].best, COMPARE_NONE);
	cr_assert_eq(compare_score(&c, 1, 0), 1.0);
	cr_assert_eq(compare_score(&c, 2, 0), 0.0);
	cr_assert_gt(compare_score(&c, 0, 0), 0.9);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

Test(compare, best_needs_two_rows_and_too_fast_does_not_compete)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	add_tar(rec, lab, V_SLOW, 1, 4, false);
	add_tar(rec, lab, V_FAST, 1, 0.01, true);
	add_tar(rec, lab, V_FAST, 2, 0.02, true);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert(compare_cell(&c, 1, 0)->too_fast);
	cr_assert_eq(compare_cell(&c, 1, 0)->fast, 2);
	cr_assert_float_eq(compare_cell(&c, 1, 0)->mean, 0.015, 1e-15);
	cr_assert_eq(c.cols[0].best, COMPARE_NONE);
	cr_assert_eq(compare_score(&c, 1, 0), -1.0);
	/* no percentage against or of "+++++" */
	cr_assert(isnan(compare_cell(&c, 1, 0)->pct));
	compare_set_baseline(&c, 1);
	cr_assert(isnan(compare_cell(&c, 0, 0)->pct));
	/* The only candidate is proven against nothing: no colour. */
	cr_assert_eq(compare_score(&c, 0, 0), -1.0);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* As raidlab show averages bonnie: a too-fast repeat is left out when
   another has a real figure, and so is an interrupted one. */
Test(compare, too_fast_and_stopped_repeats_stay_out_of_a_real_mean)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct wl_result *r;
	struct compare c;

	add_tar(rec, lab, V_SLOW, 1, 4, false);
	add_tar(rec, lab, V_SLOW, 2, 6, false);
	add_tar(rec, lab, V_SLOW, 3, 0.01, true);
	add_tar(rec, lab, V_FAST, 1, 3, false);
	r = wl_result_new("untar", "tar");
	wl_result_add_test(r, "untar", "tar xf + sync", WL_UNIT_SECONDS)
	    ->value = 0.5;
	r->tests[0].interrupted = true;
	record_add_run(rec, &lab->variants[V_FAST], NULL,
	    &lab->workloads[W_TAR], 2, r, NULL);
	wl_result_free(r);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(compare_cell(&c, 0, 0)->n, 2);
	cr_assert_float_eq(compare_cell(&c, 0, 0)->mean, 5, 1e-12);
	cr_assert_eq(compare_cell(&c, 0, 0)->fast, 1);
	cr_assert_not(compare_cell(&c, 0, 0)->too_fast);
	cr_assert_eq(compare_cell(&c, 1, 0)->n, 1);
	cr_assert_float_eq(compare_cell(&c, 1, 0)->mean, 3, 1e-12);
	cr_assert_not(compare_cell(&c, 1, 0)->interrupted);
	/* 1 repeat against 2 proves no best */
	cr_assert_eq(c.cols[0].best, COMPARE_NONE);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* Only stopped repeats: their figure is shown, marked. */
Test(compare, a_cell_of_stopped_repeats_only_says_so)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct wl_result *r = wl_result_new("untar", "tar");
	struct compare c;

	wl_result_add_test(r, "untar", "tar xf + sync", WL_UNIT_SECONDS)
	    ->value = 7;
	r->tests[0].interrupted = true;
	record_add_run(rec, &lab->variants[V_SLOW], NULL,
	    &lab->workloads[W_TAR], 1, r, NULL);
	wl_result_free(r);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(compare_cell(&c, 0, 0)->n, 1);
	cr_assert(compare_cell(&c, 0, 0)->interrupted);
	cr_assert_float_eq(compare_cell(&c, 0, 0)->mean, 7, 1e-12);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* A run with several figures under one key (compilebench: one per
   operation) is one repeat: their mean, and n counts runs. */
Test(compare, several_figures_of_one_run_are_one_repeat)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	static const double ops[2][3] = { { 10, 20, 30 }, { 40, 40, 40 } };

	for (int k = 0; k < 2; k++) {
		struct wl_result *r = wl_result_new("untar", "tar");

		for (int i = 0; i < 3; i++)
			wl_result_add_test(r, "untar", "op", WL_UNIT_SECONDS)
			    ->value = ops[k][i];
		record_add_run(rec, &lab->variants[V_SLOW], NULL,
		    &lab->workloads[W_TAR], k + 1, r, NULL);
		wl_result_free(r);
	}
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.ncols, 1);
	cr_assert_eq(compare_cell(&c, 0, 0)->n, 2, "%zu repeats",
	    compare_cell(&c, 0, 0)->n);
	cr_assert_float_eq(compare_cell(&c, 0, 0)->mean, 30, 1e-12);
	/* runs of 20 and 40: sample sd sqrt(200) */
	cr_assert_float_eq(compare_cell(&c, 0, 0)->sd, 14.142135623730951,
	    1e-9);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* Equal figures, or figures that repeat exactly (their resolution, not
   certainty): no best, no colour. */
Test(compare, ties_and_exact_repeats_prove_no_best)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	for (int i = 0; i < 3; i++) {
		add_small(rec, lab, V_SLOW, i + 1, 50 + i, 7, WL_OK);
		add_small(rec, lab, V_FAST, i + 1, 50 + i, 8, WL_OK);
	}
	compare_init(&c);
	compare_add(&c, rec, "x");
	cr_assert_eq(c.cols[0].best, COMPARE_NONE);
	cr_assert_eq(c.cols[1].best, COMPARE_NONE);
	cr_assert_eq(compare_score(&c, 0, 0), -1.0);
	cr_assert_eq(compare_score(&c, 1, 1), -1.0);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* ---------------------------------------------------------------- records */

Test(compare, two_records_keep_their_rows_apart)
{
	struct fixture f;
	struct record *more;
	size_t k;

	setup(&f);
	more = record_new(f.lab);
	add_small(more, f.lab, V_FAST, 1, 60, 400, WL_OK);
	cr_assert_eq(compare_add(&f.c, more, "second"), 1);
	cr_assert_eq(f.c.nrecords, 2);
	cr_assert_eq(f.c.nrows, 4);
	cr_assert_str_eq(f.c.rows[3].variant, "fast");
	cr_assert_str_eq(f.c.rows[3].source, "second");
	cr_assert_eq(f.c.rows[3].record, 1);
	k = col_of(&f.c, "small", "files_100");
	cr_assert_eq(compare_cell(&f.c, 3, k)->mean, 60.0);
	cr_assert_eq(compare_cell(&f.c, 3, k)->pct, 200.0);
	/* highest, but a single repeat proves no best */
	cr_assert_eq(f.c.cols[k].best, COMPARE_NONE);
	/* The second record has no untar run: an empty cell. */
	cr_assert_eq(compare_cell(&f.c, 3, col_of(&f.c, "tar", "untar"))->n, 0);

	/* Removing the first record takes its rows and the untar column;
	   the baseline moves to what is left. */
	compare_remove_record(&f.c, 0);
	cr_assert_eq(f.c.nrows, 1);
	cr_assert_eq(f.c.ncols, 2);
	cr_assert_eq(f.c.baseline, 0);
	cr_assert_eq(compare_cell(&f.c, 0, 0)->pct, 0.0);
	cr_assert_eq(f.c.cols[0].best, COMPARE_NONE);
	record_free(more);
	teardown(&f);
}

Test(compare, removing_a_record_keeps_the_baseline_row)
{
	struct fixture f;
	struct record *more;

	setup(&f);
	more = record_new(f.lab);
	add_small(more, f.lab, V_SLOW, 1, 40, 40, WL_OK);
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
	teardown(&f);
}

Test(compare, default_label_is_lab_and_local_time)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	char want[64];
	struct tm tm;

	add_tar(rec, lab, V_SLOW, 1, 4, false);
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

/* ---------------------------------------------------------------- numbers */

Test(compare, numbers_print_as_the_table_shows_them)
{
	char b[COMPARE_NUM_BUF];

	cr_assert_str_eq(compare_format_value(0.25, WL_UNIT_FILES_S, b, 32),
	    "0.25");
	cr_assert_str_eq(compare_format_value(28.0725, WL_UNIT_FILES_S, b, 32),
	    "28.07");
	cr_assert_str_eq(compare_format_value(1234.56, WL_UNIT_KBPS, b, 32),
	    "1234.6");
	cr_assert_str_eq(compare_format_value(98765.4, WL_UNIT_KBPS, b, 32),
	    "98765");
	cr_assert_str_eq(compare_format_value(123.456, WL_UNIT_SECONDS, b, 32),
	    "123.46");
	cr_assert_str_eq(compare_format_value(NAN, WL_UNIT_MBPS, b, 32), "-");
	cr_assert_str_eq(compare_format_pct(12.34, b, 32), "+12.3%");
	cr_assert_str_eq(compare_format_pct(-4, b, 32), "-4.0%");
	cr_assert_str_eq(compare_format_pct(0, b, 32), "+0.0%");
	cr_assert_str_eq(compare_format_pct(150, b, 32), "+150%");
	cr_assert_str_eq(compare_format_pct(99.96, b, 32), "+100%");
	cr_assert_str_eq(compare_format_pct(NAN, b, 32), "");
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
	struct lab *lab = sample_lab();
	struct record *old = record_new(lab), *new = record_new(lab);
	struct compare_files l;
	struct err e;
	char *p;

	cr_assert_not_null(mkdtemp(tmpl));
	add_tar(old, lab, V_SLOW, 1, 4, false);
	add_tar(new, lab, V_SLOW, 1, 4, false);
	add_tar(new, lab, V_FAST, 1, 3, false);
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

/* ---------------------------------------------------------------- verdicts */

/* Runs of "small" for variant v, one per figure: files_100 = vals[i],
   each test lasting wall seconds. */
static void
add_vals(struct record *rec, const struct lab *lab, int v, const double *vals,
    size_t n, double wall)
{
	for (size_t i = 0; i < n; i++) {
		struct wl_result *r = wl_result_new("smallfiles", "small");
		struct wl_test *t;

		t = wl_result_add_test(r, "files_100",
		    "100 files of 4K in 10 dirs", WL_UNIT_FILES_S);
		t->value = vals[i];
		t->wall = wall;
		record_add_run(rec, &lab->variants[v], NULL,
		    &lab->workloads[W_SMALL], (int)i + 1, r, NULL);
		wl_result_free(r);
	}
}

/* A table of slow (a) against fast (b), slow the baseline. */
static void
table_of(struct compare *c, struct lab **lab, struct record **rec,
    const double *a, size_t na, const double *b, size_t nb)
{
	*lab = sample_lab();
	*rec = record_new(*lab);
	add_vals(*rec, *lab, V_SLOW, a, na, 2.0);
	add_vals(*rec, *lab, V_FAST, b, nb, 2.0);
	compare_init(c);
	compare_add(c, *rec, NULL);
	cr_assert_eq(c->baseline, 0);
}

static void
table_done(struct compare *c, struct lab *lab, struct record *rec)
{
	compare_done(c);
	record_free(rec);
	lab_free(lab);
}

/* The same figures with a CV near 3%: no difference, but the 90%
   interval (about +-3.3%) is wider than the +-2% margin: can't tell,
   never "the same". */
Test(verdict, identical_noisy_samples_cannot_tell)
{
	static const double a[] = { 100, 104, 98, 101, 97 };
	const struct compare_cell *x;
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char buf[64], *ans;

	table_of(&c, &lab, &rec, a, 5, a, 5);
	x = compare_cell(&c, 1, 0);
	cr_assert_eq(x->verdict, COMPARE_V_UNSURE);
	cr_assert_float_eq(x->ch.p, 1.0, 1e-12);
	cr_assert(x->eq_lo < -2 && x->eq_hi > 2, "%g %g", x->eq_lo, x->eq_hi);
	cr_assert(x->settle > 5, "%zu", x->settle);
	cr_assert(x->mde > 2 && x->mde < 20, "%g", x->mde);
	cr_assert_eq(compare_cell(&c, 0, 0)->verdict, COMPARE_V_BASELINE);
	cr_assert_str_eq(compare_verdict_key(x->verdict), "unsure");
	compare_format_verdict(&c, 1, 0, buf, sizeof buf);
	cr_assert(strncmp(buf, "? -", 3) == 0 && strstr(buf, "..+") != NULL &&
		strlen(buf) <= 16,
	    "%s", buf);
	ans = compare_answer(&c, 1, 0);
	cr_assert_not_null(ans);
	cr_assert(strstr(ans,
		      "fast: can't tell against slow by the log t-test: the "
		      "95% CI spans -") == ans,
	    "%s", ans);
	cr_assert(strstr(ans, "p = 1.000; n = 5 and 5)") != NULL, "%s", ans);
	cr_assert(strstr(ans, " more repeats each would settle it") != NULL,
	    "%s", ans);
	cr_assert(strstr(ans,
		      "; the smallest change these repeats could show "
		      "is ") != NULL &&
		strstr(ans, "% (80% power)") != NULL,
	    "%s", ans);
	free(ans);
	cr_assert_null(compare_answer(&c, 0, 0));
	table_done(&c, lab, rec);
}

/* Tight figures 0.1% apart: the 90% interval lies inside +-2%, the same
   within the margin (TOST); a wider margin keeps it so, a margin
   narrower than the interval does not. */
Test(verdict, tight_samples_are_the_same_within_the_margin)
{
	static const double a[] = { 100, 100.4, 99.6, 100.2, 99.8 };
	static const double b[] = { 100.1, 100.5, 99.7, 100.3, 99.9 };
	const struct compare_cell *x;
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char buf[64], *ans;

	table_of(&c, &lab, &rec, a, 5, b, 5);
	x = compare_cell(&c, 1, 0);
	cr_assert_eq(x->verdict, COMPARE_V_SAME);
	cr_assert_str_eq(compare_verdict_key(x->verdict), "same");
	cr_assert(x->eq_lo > -2 && x->eq_hi < 2 && x->eq_lo < 0.1 &&
		x->eq_hi > 0.1,
	    "%g %g", x->eq_lo, x->eq_hi);
	cr_assert_eq(x->settle, 0);
	compare_format_verdict(&c, 1, 0, buf, sizeof buf);
	cr_assert(strncmp(buf, "same ", 5) == 0 && strstr(buf, "2%") != NULL,
	    "%s", buf);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "fast: the same as slow within ") == ans, "%s",
	    ans);
	cr_assert(strstr(ans, "2% by the log t-test (+0.1%, 90% CI ") != NULL,
	    "%s", ans);
	free(ans);
	/* +-0.1%: the interval no longer fits */
	compare_set_method(&c, STATS_TEST_LOG, 0.1);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_UNSURE);
	table_done(&c, lab, rec);
}

Test(verdict, a_clear_change_has_an_interval_that_excludes_zero)
{
	static const double a[] = { 100, 102, 98, 101, 99 };
	static const double b[] = { 150, 149, 152, 151, 148 };
	const struct compare_cell *x;
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char *ans;

	table_of(&c, &lab, &rec, a, 5, b, 5);
	x = compare_cell(&c, 1, 0);
	cr_assert_eq(x->verdict, COMPARE_V_BETTER);
	cr_assert_float_eq(x->pct, 50.0, 1e-9);
	cr_assert(x->ch.pct_lo > 0 && x->ch.pct_lo < 50 && x->ch.pct_hi > 50,
	    "%g %g", x->ch.pct_lo, x->ch.pct_hi);
	cr_assert(x->ch.p < 0.001);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans,
		      "fast: 50.0% faster than slow by the log t-test (95% "
		      "CI ") == ans,
	    "%s", ans);
	/* one comparison: nothing to correct, nothing within the margin */
	cr_assert(strstr(ans, "after correcting") == NULL, "%s", ans);
	cr_assert(strstr(ans, "margin") == NULL, "%s", ans);
	free(ans);
	/* The other way round it is slower, by a third. */
	compare_set_baseline(&c, 1);
	x = compare_cell(&c, 0, 0);
	cr_assert_eq(x->verdict, COMPARE_V_WORSE);
	ans = compare_answer(&c, 0, 0);
	cr_assert(strstr(ans, "slow: 33.3% slower than fast") == ans, "%s",
	    ans);
	free(ans);
	table_done(&c, lab, rec);
}

Test(verdict, under_three_repeats_noise_cannot_be_told)
{
	static const double a[] = { 100, 110 };
	static const double b[] = { 150, 140 };
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char buf[64], *ans;

	table_of(&c, &lab, &rec, a, 2, b, 2);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_FEW);
	cr_assert_str_eq(compare_format_verdict(&c, 1, 0, buf, sizeof buf),
	    "n<3");
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "noise cannot be told from a difference") != NULL,
	    "%s", ans);
	free(ans);
	table_done(&c, lab, rec);
	/* One repeat each: not even an estimate of the noise. */
	table_of(&c, &lab, &rec, a, 1, b, 1);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_FEW);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "at least 3 repeats each") != NULL, "%s", ans);
	free(ans);
	table_done(&c, lab, rec);
}

Test(verdict, a_steady_fall_is_marked_and_the_verdict_says_so)
{
	/* The issue's /var/tmp repeats: 8x slower over four repeats. */
	static const double a[] = { 44214, 14330, 7167, 5267 };
	static const double b[] = { 100, 101, 99, 100 };
	const struct compare_cell *x;
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char *m, *ans, buf[64];

	table_of(&c, &lab, &rec, a, 4, b, 4);
	x = compare_cell(&c, 0, 0);
	cr_assert(x->marks & COMPARE_MARK_TREND);
	cr_assert(x->marks & COMPARE_MARK_CV);
	cr_assert_float_eq(x->tau, -1.0, 1e-12);
	m = compare_marks_text(&c, 0, 0);
	cr_assert(strstr(m, "falls across the repeats") != NULL, "%s", m);
	cr_assert(strstr(m, "over the 5% limit") != NULL, "%s", m);
	free(m);
	m = compare_marks_keys(x->marks);
	cr_assert(strstr(m, "cv") == m && strstr(m, "trend") != NULL, "%s", m);
	free(m);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans,
		      "the verdict rests on an unstable sample: slow") != NULL,
	    "%s", ans);
	free(ans);
	cr_assert(strstr(compare_format_verdict(&c, 1, 0, buf, sizeof buf),
		      " !") != NULL,
	    "%s", buf);
	/* The steady one carries no mark. */
	cr_assert_eq(compare_cell(&c, 1, 0)->marks, 0);
	table_done(&c, lab, rec);
}

Test(verdict, outliers_warmups_and_short_tests_are_marked)
{
	static const double a[] = { 30, 10, 10.2, 9.9, 10.1 };
	static const double b[] = { 10, 10.1, 9.9, 30, 10 };
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char *m;

	table_of(&c, &lab, &rec, a, 5, b, 5);
	cr_assert(compare_cell(&c, 0, 0)->marks & COMPARE_MARK_WARMUP);
	cr_assert(compare_cell(&c, 1, 0)->marks & COMPARE_MARK_OUTLIER);
	cr_assert_not(compare_cell(&c, 1, 0)->marks & COMPARE_MARK_WARMUP);
	m = compare_marks_text(&c, 1, 0);
	cr_assert(strstr(m, "1 outlier (30.00 against a median of 10.00)") !=
		NULL,
	    "%s", m);
	free(m);
	table_done(&c, lab, rec);

	lab = sample_lab();
	rec = record_new(lab);
	add_vals(rec, lab, V_SLOW, a + 1, 4, 0.01);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert(compare_cell(&c, 0, 0)->marks & COMPARE_MARK_SHORT);
	m = compare_marks_text(&c, 0, 0);
	cr_assert(strstr(m, "the tests lasted 0.01 s: too short to trust") !=
		NULL,
	    "%s", m);
	free(m);
	table_done(&c, lab, rec);
}

Test(verdict, stopped_runs_are_marked_and_never_judged)
{
	static const double a[] = { 100, 101, 99 };
	struct compare c;
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct wl_result *r = wl_result_new("smallfiles", "small");
	struct wl_test *t;
	char *ans;

	add_vals(rec, lab, V_SLOW, a, 3, 2.0);
	/* fast's only run was stopped, after its test had finished */
	r->status = WL_INTERRUPTED;
	t = wl_result_add_test(r, "files_100", "100 files of 4K in 10 dirs",
	    WL_UNIT_FILES_S);
	t->value = 500;
	t->wall = 2;
	record_add_run(rec, &lab->variants[V_FAST], NULL,
	    &lab->workloads[W_SMALL], 1, r, NULL);
	wl_result_free(r);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert(compare_cell(&c, 1, 0)->interrupted);
	cr_assert(compare_cell(&c, 1, 0)->marks & COMPARE_MARK_STOPPED);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_STOPPED);
	cr_assert(isnan(compare_cell(&c, 1, 0)->pct));
	/* 500 files/s is no best: it is not a result */
	cr_assert_eq(c.cols[0].best, COMPARE_NONE);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "no verdict against slow") != NULL, "%s", ans);
	free(ans);
	table_done(&c, lab, rec);
}

Test(verdict, failed_variants_keep_their_row_and_the_baseline_has_figures)
{
	static const double a[] = { 100, 101, 99 };
	struct compare c;
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);

	/* the array variant comes first and could not be built */
	record_add_run(rec, &lab->variants[V_MIRROR], NULL,
	    &lab->workloads[W_SMALL], 1, NULL, "not built: no md driver");
	add_vals(rec, lab, V_SLOW, a, 3, 2.0);
	add_vals(rec, lab, V_FAST, a, 3, 2.0);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.nrows, 3);
	cr_assert_str_eq(c.rows[0].variant, "mirror");
	cr_assert_str_eq(c.rows[0].why, "not built: no md driver");
	cr_assert_eq(c.baseline, 1, "the first row with figures");
	cr_assert_eq(compare_cell(&c, 2, 0)->verdict, COMPARE_V_SAME);
	/* A baseline the user chose stays. */
	compare_set_baseline(&c, 0);
	cr_assert_eq(c.baseline, 0);
	cr_assert_eq(compare_cell(&c, 2, 0)->verdict, COMPARE_V_NONE);
	table_done(&c, lab, rec);
}

Test(verdict, other_parameters_are_kept_apart)
{
	static const char other[] =
	    "name = \"cmplab\";\n"
	    "variants = ( { name = \"slow\"; directory = \"/var/tmp/x\"; } );\n"
	    "workloads = ( { name = \"small\"; type = \"smallfiles\"; "
	    "counts = [100]; dirs = 4; } );\n";
	static const double a[] = { 100, 101, 99 };
	struct errlist errs;
	struct lab *lab2 = NULL;
	struct record *rec2;
	struct compare c;
	struct lab *lab;
	struct record *rec;

	table_of(&c, &lab, &rec, a, 3, a, 3);
	errlist_init(&errs);
	cr_assert_eq(lab_load_string(other, "other.cfg", &lab2, &errs), 0);
	errlist_done(&errs);
	rec2 = record_new(lab2);
	add_vals(rec2, lab2, 0, a, 3, 2.0);
	compare_add(&c, rec2, "other");
	/* the same test of the same workload, run otherwise: two columns */
	cr_assert_eq(c.ncols, 2);
	cr_assert_str_eq(c.cols[0].key, c.cols[1].key);
	cr_assert_not_null(c.cols[1].apart);
	cr_assert(strstr(c.cols[1].apart, "dirs 4 against 10") != NULL, "%s",
	    c.cols[1].apart);
	cr_assert_eq(compare_cell(&c, 2, 0)->n, 0);
	cr_assert_eq(compare_cell(&c, 2, 1)->n, 3);
	record_free(rec2);
	lab_free(lab2);
	table_done(&c, lab, rec);
}

Test(verdict, figures_that_repeat_exactly_give_no_interval)
{
	static const double a[] = { 100, 100, 100 };
	static const double b[] = { 101, 101, 101 };
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char buf[64], *ans;

	table_of(&c, &lab, &rec, a, 3, b, 3);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_EXACT);
	cr_assert_str_eq(compare_format_verdict(&c, 1, 0, buf, sizeof buf),
	    "+1.0% exact?");
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "resolution, not certainty") != NULL, "%s", ans);
	free(ans);
	table_done(&c, lab, rec);
}

Test(verdict, short_tests_and_null_figures_are_no_plain_result)
{
	static const double a[] = { 100, 102, 98, 101, 99 };
	static const double b[] = { 150, 149, 152, 151, 148 };
	struct compare c;
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	char *ans;

	add_vals(rec, lab, V_SLOW, a, 5, 0.01);
	add_vals(rec, lab, V_FAST, b, 5, 0.01);
	/* a figure the record holds as null: no figure, not a NaN mean */
	add_vals(rec, lab, V_FAST, (const double[]){ NAN }, 1, 2.0);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(compare_cell(&c, 1, 0)->n, 5);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_BETTER);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans,
		      "; the verdict rests on an unstable sample: "
		      "slow: the tests lasted 0.01 s: too short") != NULL,
	    "%s", ans);
	free(ans);
	table_done(&c, lab, rec);
}

/* The case: tmpfs (skewed, a cache warming) against ext4 with an
   fsync per file, 5 repeats each, every b below every a. Welch on the
   figures cannot call it; the log test and the rank test do, and the
   interval stays above -100%. */
Test(verdict, a_skewed_hundredfold_fall_is_called_by_log_and_rank)
{
	static const double a[] = { 70000, 25000, 15000, 12000, 9700 };
	static const double b[] = { 190, 210, 230, 250, 265 };
	const struct compare_cell *x;
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char *ans;

	table_of(&c, &lab, &rec, a, 5, b, 5);
	x = compare_cell(&c, 1, 0);
	cr_assert_eq(c.test, STATS_TEST_LOG);
	cr_assert_eq(x->verdict, COMPARE_V_WORSE);
	cr_assert(x->ch.pct_lo > -100 && x->ch.pct_hi < 0, "%g %g",
	    x->ch.pct_lo, x->ch.pct_hi);
	cr_assert(x->ch.p < 0.001, "%g", x->ch.p);
	compare_set_method(&c, STATS_TEST_RANK, 2);
	x = compare_cell(&c, 1, 0);
	cr_assert_eq(x->verdict, COMPARE_V_WORSE);
	/* exact: 2 of the 252 arrangements are as extreme */
	cr_assert_float_eq(x->ch.p, 2.0 / 252, 1e-12);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "by the Mann-Whitney rank test (") != NULL, "%s",
	    ans);
	free(ans);
	compare_set_method(&c, STATS_TEST_WELCH, 2);
	x = compare_cell(&c, 1, 0);
	cr_assert(x->ch.p > 0.05, "%g", x->ch.p);
	cr_assert_eq(x->verdict, COMPARE_V_UNSURE);
	table_done(&c, lab, rec);
}

/* Benjamini-Hochberg by hand: q_(i) = min over j >= i of p_(j) m / j. */
static void
bh_by_hand(const double *p, size_t m, double *q)
{
	for (size_t i = 0; i < m; i++) {
		q[i] = 1;
		for (size_t j = 0; j < m; j++) {
			size_t rank = 0;

			if (p[j] < p[i])
				continue;
			for (size_t k = 0; k < m; k++)
				rank += p[k] <= p[j];
			if (p[j] * (double)m / (double)rank < q[i])
				q[i] = p[j] * (double)m / (double)rank;
		}
	}
}

/* Three variants, two tests each (files_100, files_1000): a family of 4
   against slow. Every q is Benjamini-Hochberg's over the 4 p-values, the
   intervals are shown at 1 - r 5% / m, and a shown interval excludes 0%
   exactly where the verdict says better or worse. */
Test(verdict, the_family_is_corrected_together)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	static const double s100[] = { 100, 103, 97, 101, 99 },
			    f100[] = { 140, 145, 138, 142, 141 },
			    m100[] = { 101, 104, 97, 102, 100 },
			    s1k[] = { 50, 52, 48, 51, 49 },
			    f1k[] = { 52, 55, 49, 53, 51 },
			    m1k[] = { 45, 46, 44, 45.5, 44.5 };
	double p[4], q[4], want[4];
	size_t m = 0, r = 0;
	struct compare c;
	char *t;

	for (int i = 0; i < 5; i++) {
		add_small(rec, lab, V_SLOW, i + 1, s100[i], s1k[i], WL_OK);
		add_small(rec, lab, V_FAST, i + 1, f100[i], f1k[i], WL_OK);
		add_small(rec, lab, V_MIRROR, i + 1, m100[i], m1k[i], WL_OK);
	}
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.family, 4);
	for (size_t i = 1; i < 3; i++)
		for (size_t k = 0; k < 2; k++) {
			p[m] = compare_cell(&c, i, k)->ch.p;
			q[m++] = compare_cell(&c, i, k)->q;
		}
	bh_by_hand(p, 4, want);
	for (size_t j = 0; j < 4; j++) {
		cr_assert_float_eq(q[j], want[j], 1e-12, "%zu: %g %g", j, q[j],
		    want[j]);
		r += q[j] < 0.05;
	}
	cr_assert_eq(c.rejected, r);
	cr_assert(r >= 2, "fast's files_100 and mirror's files_1000");
	cr_assert_float_eq(c.conf_shown, 1 - (double)r * 0.05 / 4, 1e-12);
	for (size_t i = 1; i < 3; i++)
		for (size_t k = 0; k < 2; k++) {
			const struct compare_cell *x = compare_cell(&c, i, k);
			bool apart = x->ch.pct_lo > 0 || x->ch.pct_hi < 0;
			bool diff = x->verdict == COMPARE_V_BETTER ||
			    x->verdict == COMPARE_V_WORSE;

			cr_assert_eq(apart, diff, "row %zu col %zu", i, k);
			cr_assert_eq(diff, x->q < 0.05);
			cr_assert(isfinite(x->mde));
			/* a star or a colour claims what the verdict says */
			cr_assert_eq(compare_proven_better(&c, i, 0, k),
			    x->verdict == COMPARE_V_BETTER);
			cr_assert_eq(compare_proven_better(&c, 0, i, k),
			    x->verdict == COMPARE_V_WORSE);
		}
	t = compare_method_text(&c);
	cr_assert(strstr(t,
		      "the log test (Welch's t-test on logarithms); same = "
		      "within ") == t,
	    "%s", t);
	cr_assert(strstr(t,
		      "4 comparisons, Benjamini-Hochberg at 5%, "
		      "intervals at ") != NULL,
	    "%s", t);
	free(t);
	t = compare_answer(&c, 1, 0);
	cr_assert(strstr(t,
		      " after correcting for 4 comparisons; n = 5 and "
		      "5)") != NULL,
	    "%s", t);
	free(t);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* A change proven but under the margin stays "better", and says so. */
Test(verdict, a_proven_change_within_the_margin_says_so)
{
	static const double a[] = { 100, 100.1, 99.9, 100.05, 99.95 };
	static const double b[] = { 101, 101.1, 100.9, 101.05, 100.95 };
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char *ans;

	table_of(&c, &lab, &rec, a, 5, b, 5);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_BETTER);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "fast: 1.0% faster than slow") == ans, "%s", ans);
	cr_assert(strstr(ans, "2% margin)") != NULL, "%s", ans);
	free(ans);
	table_done(&c, lab, rec);
}

/* A variant over every test: the counts of each answer, and the
   geometric mean of its ratios turned so that above 1 is better (the
   untar time halves: a ratio of 2). */
Test(verdict, a_variant_is_summed_up_over_every_test)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare_summary s;
	struct compare c;
	char *t;

	for (int i = 0; i < 5; i++) {
		add_small(rec, lab, V_SLOW, i + 1, 100 + i, 100 + i, WL_OK);
		add_small(rec, lab, V_FAST, i + 1, 200 + 2 * i, 100 + i, WL_OK);
		add_tar(rec, lab, V_SLOW, i + 1, 4 + 0.04 * i, false);
		add_tar(rec, lab, V_FAST, i + 1, 2 + 0.02 * i, false);
	}
	add_small(rec, lab, V_MIRROR, 1, 50, 50, WL_OK);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	compare_summarise(&c, 1, &s);
	cr_assert_eq(s.tests, 3);
	cr_assert_eq(s.better, 2);
	cr_assert_eq(s.same, 1, "files_1000: the same figures, 1.6%% CV");
	cr_assert_eq(s.worse + s.unsure + s.other, 0);
	cr_assert_eq(s.gm_tests, 3);
	/* ratios 2, 1 and 2 (a time turned): their geometric mean */
	cr_assert_float_eq(s.gm, cbrt(4.0), 1e-9);
	cr_assert(s.gm_lo < s.gm && s.gm < s.gm_hi);
	t = compare_summary_text(&c, 1);
	cr_assert(strstr(t,
		      "fast: 58.7% faster than slow overall (geometric "
		      "mean of 3 tests, 95% CI +") == t,
	    "%s", t);
	cr_assert(strstr(t, "): 2 better, 1 the same") != NULL, "%s", t);
	free(t);
	/* one repeat: counted, not judged */
	compare_summarise(&c, 2, &s);
	cr_assert_eq(s.tests, 2);
	cr_assert_eq(s.other, 2);
	cr_assert(isnan(s.gm));
	t = compare_summary_text(&c, 2);
	cr_assert_str_eq(t, "mirror against slow: 2 not judged");
	free(t);
	cr_assert_null(compare_summary_text(&c, 0));
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* The baseline record's lab chooses the test and the margin; a choice
   made in compare (--test, --equivalence) overrides them. */
Test(verdict, the_lab_chooses_the_test_and_the_margin)
{
	static const double a[] = { 100, 101, 99, 100.5, 99.5 };
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	record_set_rounds(rec,
	    json_pack("{s:s, s:f}", "test", "rank", "equivalence", 0.05));
	add_vals(rec, lab, V_SLOW, a, 5, 2.0);
	add_vals(rec, lab, V_FAST, a, 5, 2.0);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.test, STATS_TEST_RANK);
	cr_assert_float_eq(c.margin, 5.0, 1e-12);
	cr_assert_eq(compare_cell(&c, 1, 0)->ch.test, STATS_TEST_RANK);
	compare_set_method(&c, STATS_TEST_WELCH, 1.5);
	cr_assert_eq(c.test, STATS_TEST_WELCH);
	cr_assert_float_eq(c.margin, 1.5, 1e-12);
	cr_assert_eq(compare_cell(&c, 1, 0)->ch.test, STATS_TEST_WELCH);
	/* a new baseline keeps the choice */
	compare_set_baseline(&c, 1);
	cr_assert_eq(c.test, STATS_TEST_WELCH);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}
