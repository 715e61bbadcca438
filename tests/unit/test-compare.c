/*
 * The comparison table: one row per record and variant, one column per
 * workload test, mean and stddev over repeats, percentages against the
 * chosen baseline, the best cell per column by the unit's direction
 * (only where proven: a star and a colour are an answer), failed,
 * too-fast and stopped runs kept out, and numbers as the table prints
 * them. Records and the results directory: test-compare-records.c; the
 * verdicts: test-compare-verdict.c.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>

#include "cmptest.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "results/compare.h"
#include "results/record.h"

/* ---------------------------------------------------------------- table */

Test(compare, rows_are_variants_and_columns_are_workload_tests)
{
	struct cmptest f;

	cmptest_setup(&f);
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
	cmptest_teardown(&f);
}

Test(compare, cell_is_mean_and_sample_stddev_of_the_repeats)
{
	struct cmptest f;
	const struct compare_cell *cell;

	cmptest_setup(&f);
	cell = compare_cell(&f.c, 0, cmptest_col(&f.c, "small", "files_100"));
	cr_assert_eq(cell->n, 3);
	cr_assert_eq(cell->mean, 20.0);
	cr_assert_eq(cell->sd, 10.0);
	cr_assert_eq(cell->v[0], 10.0);
	cr_assert_eq(cell->v[2], 30.0);
	cell = compare_cell(&f.c, 1, cmptest_col(&f.c, "small", "files_100"));
	cr_assert_eq(cell->mean, 30.0);
	cr_assert_eq(cell->sd, 0.0);
	/* One repeat: no spread to speak of. */
	cell = compare_cell(&f.c, 0, cmptest_col(&f.c, "tar", "untar"));
	cr_assert_eq(cell->n, 1);
	cr_assert_eq(cell->mean, 4.0);
	cr_assert_eq(cell->sd, 0.0);
	cmptest_teardown(&f);
}

Test(compare, failed_runs_are_counted_not_averaged)
{
	struct cmptest f;
	const struct compare_cell *cell;

	cmptest_setup(&f);
	cell = compare_cell(&f.c, 1, cmptest_col(&f.c, "small", "files_1000"));
	cr_assert_eq(cell->n, 2);
	cr_assert_eq(cell->failed, 1);
	cr_assert_eq(cell->mean, 200.0);
	cr_assert_float_eq(cell->sd, 70.710678118654755, 1e-9);
	cmptest_teardown(&f);
}

Test(compare, percent_is_against_the_chosen_baseline)
{
	struct cmptest f;
	size_t k;

	cmptest_setup(&f);
	k = cmptest_col(&f.c, "small", "files_100");
	/* The first row is the baseline until another is chosen. */
	cr_assert_eq(f.c.baseline, 0);
	cr_assert_eq(compare_cell(&f.c, 0, k)->pct, 0.0);
	cr_assert_eq(compare_cell(&f.c, 1, k)->pct, 50.0);
	cr_assert(isnan(compare_cell(&f.c, 2, k)->pct));
	compare_set_baseline(&f.c, 1);
	cr_assert_float_eq(compare_cell(&f.c, 0, k)->pct, -100.0 / 3, 1e-12);
	cr_assert_eq(compare_cell(&f.c, 1, k)->pct, 0.0);
	k = cmptest_col(&f.c, "tar", "untar");
	cr_assert_eq(compare_cell(&f.c, 0, k)->pct, 60.0);
	/* A baseline without figures: no percentages. */
	compare_set_baseline(&f.c, 2);
	cr_assert(isnan(compare_cell(&f.c, 0, k)->pct));
	compare_set_baseline(&f.c, COMPARE_NONE);
	cr_assert_eq(f.c.baseline, COMPARE_NONE);
	cr_assert(isnan(compare_cell(&f.c, 1, k)->pct));
	cmptest_teardown(&f);
}

/* The fixture's fast variant has the higher rates and the shorter untar,
   but 2 repeats (and 1 untar for slow) prove nothing: no best, no
   colour. */
Test(compare, best_unproven_with_under_three_repeats)
{
	struct cmptest f;

	cmptest_setup(&f);
	for (size_t k = 0; k < f.c.ncols; k++) {
		cr_assert_eq(f.c.cols[k].best, COMPARE_NONE);
		for (size_t i = 0; i < f.c.nrows; i++)
			cr_assert_eq(compare_score(&f.c, i, k), -1.0);
	}
	cmptest_teardown(&f);
}

/* Three repeats each, far apart: the highest rate and the lowest time are
   proven best and coloured; close ones are neither. */
Test(compare, best_is_proven_highest_rate_and_lowest_time)
{
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	for (int i = 0; i < 3; i++) {
		/* files_100 far apart; files_1000 no difference */
		cmptest_add_small(rec, lab, V_SLOW, i + 1, 10 + i, 100 + 10 * i,
		    WL_OK);
		cmptest_add_small(rec, lab, V_FAST, i + 1, 30 + i, 105 + 10 * i,
		    WL_OK);
		cmptest_add_tar(rec, lab, V_SLOW, i + 1, 4 + 0.1 * i, false);
		cmptest_add_tar(rec, lab, V_FAST, i + 1, 2 + 0.1 * i, false);
	}
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.cols[cmptest_col(&c, "small", "files_100")].best, 1);
	cr_assert_eq(c.cols[cmptest_col(&c, "small", "files_1000")].best,
	    COMPARE_NONE);
	cr_assert_eq(c.cols[cmptest_col(&c, "tar", "untar")].best, 1);
	cr_assert(compare_proven_better(&c, 1, 0, 0));
	cr_assert_not(compare_proven_better(&c, 0, 1, 0));
	cr_assert_eq(compare_score(&c, 1, cmptest_col(&c, "tar", "untar")),
	    1.0);
	cr_assert_eq(compare_score(&c, 0, cmptest_col(&c, "tar", "untar")),
	    0.0);
	cr_assert_eq(compare_score(&c, 1,
			 cmptest_col(&c, "small", "files_1000")),
	    -1.0);
	/* the baseline is no part of the proof */
	compare_set_baseline(&c, 1);
	cr_assert_eq(c.cols[cmptest_col(&c, "small", "files_100")].best, 1);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* Three rows: a and b alike, both proven above c. No best (a and b are
   not told apart), but every cell is proven against some other and
   keeps its colour. */
Test(compare, no_best_when_the_top_two_are_alike)
{
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	static const double a[] = { 50, 52, 54 }, b[] = { 51, 53, 55 },
			    z[] = { 10, 11, 12 };

	for (int i = 0; i < 3; i++) {
		cmptest_add_small(rec, lab, V_SLOW, i + 1, a[i], a[i], WL_OK);
		cmptest_add_small(rec, lab, V_FAST, i + 1, b[i], b[i], WL_OK);
		cmptest_add_small(rec, lab, V_MIRROR, i + 1, z[i], z[i], WL_OK);
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
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	cmptest_add_tar(rec, lab, V_SLOW, 1, 4, false);
	cmptest_add_tar(rec, lab, V_FAST, 1, 0.01, true);
	cmptest_add_tar(rec, lab, V_FAST, 2, 0.02, true);
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
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct wl_result *r;
	struct compare c;

	cmptest_add_tar(rec, lab, V_SLOW, 1, 4, false);
	cmptest_add_tar(rec, lab, V_SLOW, 2, 6, false);
	cmptest_add_tar(rec, lab, V_SLOW, 3, 0.01, true);
	cmptest_add_tar(rec, lab, V_FAST, 1, 3, false);
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
	struct lab *lab = cmptest_lab();
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
	struct lab *lab = cmptest_lab();
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
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	for (int i = 0; i < 3; i++) {
		cmptest_add_small(rec, lab, V_SLOW, i + 1, 50 + i, 7, WL_OK);
		cmptest_add_small(rec, lab, V_FAST, i + 1, 50 + i, 8, WL_OK);
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

/* ---------------------------------------------------------------- phases */

/* A build of variant v in its fault phase: md rebuilt for s seconds
   (finished or not). */
static void
add_rebuild(struct record *rec, const char *v, double s, bool complete)
{
	json_t *b = json_pack("{s:s, s:s, s:{s:s, s:s, s:{s:s, s:b, s:f}}}",
	    "variant", v, "status", "ok", "phase", "name", "rebuild", "md",
	    "/dev/md/rl-x", "sync", "action", "recover", "complete", complete,
	    "seconds", s);

	record_add_build(rec, b);
	json_decref(b);
}

Test(compare, rebuild_time_is_a_column_with_its_interval_over_builds)
{
	struct lab *lab = cmptest_lab();
	struct record *rec = cmptest_record(lab);
	struct compare c;
	const struct compare_cell *slow, *fast;
	struct compare_summary s;
	json_t *b;
	size_t k;

	add_rebuild(rec, "slow", 40.0, true);
	add_rebuild(rec, "slow", 44.0, true);
	add_rebuild(rec, "slow", 42.0, true);
	add_rebuild(rec, "fast", 20.0, true);
	add_rebuild(rec, "fast", 21.0, true);
	add_rebuild(rec, "fast", 22.0, true);
	/* a rebuild the stop cut short is not a figure next to them */
	add_rebuild(rec, "fast", 5.0, false);
	/* one never seen running (it ended before the first look): its
	   seconds are the watch's wait, no figure */
	b = json_pack("{s:s, s:s, s:{s:s, s:{s:s, s:b, s:b, s:f}}}", "variant",
	    "slow", "status", "ok", "phase", "name", "rebuild", "sync",
	    "action", "", "complete", true, "seen", false, "seconds", 5.0);
	record_add_build(rec, b);
	json_decref(b);
	/* a build that failed before its phase: counted, not averaged */
	b = json_pack("{s:s, s:s, s:{s:s}}", "variant", "fast", "status",
	    "failed", "phase", "name", "rebuild");
	record_add_build(rec, b);
	json_decref(b);
	compare_init(&c);
	cr_assert_eq(compare_add(&c, rec, "first"), 3);
	k = cmptest_col(&c, "array phase", "rebuild_s");
	cr_assert_str_eq(c.cols[k].label, "Rebuild time (start to idle)");
	cr_assert(c.cols[k].lower_better);
	cr_assert(compare_col_is_phase(&c, k));
	cr_assert_not(compare_col_is_phase(&c, 0));
	slow = compare_cell(&c, 0, k);
	fast = compare_cell(&c, 1, k);
	cr_assert_eq(slow->n, 3);
	cr_assert_float_eq(slow->mean, 42.0, 1e-12);
	cr_assert(slow->d.ci_lo < 42.0 && slow->d.ci_hi > 42.0);
	cr_assert_eq(fast->n, 3);
	cr_assert_eq(fast->stopped, 1);
	cr_assert_eq(fast->failed, 1);
	cr_assert_eq(slow->nall, 3, "the rebuild never seen is no figure");
	cr_assert_float_eq(fast->mean, 21.0, 1e-12);
	/* half the time, 3 builds each: told apart, and the mirror row
	   (skipped) has no figure */
	cr_assert_eq(fast->verdict, COMPARE_V_BETTER);
	cr_assert_eq(compare_cell(&c, 2, k)->n, 0);
	/* the overall answer stays the workloads' speed */
	compare_summarise(&c, 1, &s);
	cr_assert_eq(s.tests, c.ncols - 1);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}
