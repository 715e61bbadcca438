/*
 * Tail latency compared (compare.h, the latency part): the p50, p99 and
 * p99.9 columns of each test's dominant operation, only when asked for,
 * right after their rate column; one figure per round, that round's own
 * percentile (the tests of a round merged by counts, never percentiles
 * averaged); a percentile on too few operations marked and never judged;
 * a slower tail called worse; the unit's words and figures.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "figures/hist.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "results/compare.h"
#include "results/record.h"

static const char lab_text[] =
    "name = \"latlab\";\n"
    "repeats = 3;\n"
    "cache = \"keep\";\n"
    "variants = (\n"
    "  { name = \"quick\"; directory = \"/var/tmp/raidlab-lat-a\"; },\n"
    "  { name = \"slow\"; directory = \"/var/tmp/raidlab-lat-b\"; }\n"
    ");\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; counts = [1000]; },\n"
    "  { name = \"tar\"; type = \"untar\"; }\n"
    ");\n";

enum { V_QUICK, V_SLOW };
enum { W_SMALL, W_TAR };

static struct lab *
sample_lab(void)
{
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(lab_text, "latlab.cfg", &lab, &errs), 0,
	    "%s", errs.n ? errs.v[0].msg : "?");
	errlist_done(&errs);
	return lab;
}

/* A value the histogram holds exactly: its bucket's upper bound. */
static uint64_t
exact(uint64_t ns)
{
	return hist_bucket_max(hist_bucket(ns));
}

/* n values of ns into op's histogram of t. */
static void
put(struct wl_test *t, enum wl_op op, uint64_t ns, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		hist_add(&t->lat[op], exact(ns));
}

/* A smallfiles run: files/s, and fast + slow writes (a share of slow
   ones at slow_ns) with creates alongside. */
static void
add_run(struct record *rec, const struct lab *lab, int v, int repeat,
    uint64_t fast, uint64_t slow, uint64_t slow_ns, enum wl_status st)
{
	struct wl_result *r = wl_result_new("smallfiles", "small");
	struct wl_test *t = wl_result_add_test(r, "files_1000",
	    "1000 files of 4K in 10 dirs", WL_UNIT_FILES_S);

	r->status = st;
	if (st == WL_FAILED)
		r->error = xstrdup("disk full");
	t->value = 1000 + repeat;
	t->wall = 1;
	put(t, WL_OP_WRITE, 10000, fast);
	put(t, WL_OP_WRITE, slow_ns, slow);
	put(t, WL_OP_CREATE, 5000, (fast + slow) / 2);
	record_add_run(rec, &lab->variants[v], NULL, &lab->workloads[W_SMALL],
	    repeat, r, NULL);
	wl_result_free(r);
}

/* An untar run: seconds, no latency. */
static void
add_tar(struct record *rec, const struct lab *lab, int v, int repeat)
{
	struct wl_result *r = wl_result_new("untar", "tar");
	struct wl_test *t =
	    wl_result_add_test(r, "untar", "tar xf + sync", WL_UNIT_SECONDS);

	t->value = 2 + 0.1 * repeat;
	t->wall = t->value;
	record_add_run(rec, &lab->variants[v], NULL, &lab->workloads[W_TAR],
	    repeat, r, NULL);
	wl_result_free(r);
}

static size_t
lat_col(const struct compare *c, double q)
{
	for (size_t k = 0; k < c->ncols; k++)
		if (c->cols[k].lat_q == q)
			return k;
	cr_assert_fail("no latency column at %g", q);
	return 0;
}

Test(compare_lat, columns_only_when_asked_and_after_their_rate_column)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;

	add_run(rec, lab, V_QUICK, 1, 2000, 0, 0, WL_OK);
	add_tar(rec, lab, V_QUICK, 1);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.ncols, 2);
	cr_assert_eq(c.cols[0].lat_q, 0);
	compare_set_latency(&c, true);
	/* small's rate, its p50, p99, p99.9; untar has no histogram */
	cr_assert_eq(c.ncols, 5);
	cr_assert_str_eq(c.cols[0].key, "files_1000");
	cr_assert_eq(c.cols[1].lat_q, 0.5);
	cr_assert_eq(c.cols[2].lat_q, 0.99);
	cr_assert_eq(c.cols[3].lat_q, 0.999);
	cr_assert_str_eq(c.cols[4].key, "untar");
	cr_assert_eq(c.cols[4].lat_q, 0);
	for (size_t k = 1; k <= 3; k++) {
		cr_assert_eq(c.cols[k].unit, WL_UNIT_USEC);
		cr_assert(c.cols[k].lower_better);
		cr_assert_eq(c.cols[k].lat_op, WL_OP_WRITE);
		cr_assert_eq(c.cols[k].lat_of, 0);
		cr_assert_str_eq(c.cols[k].workload, "small");
		cr_assert_str_eq(c.cols[k].key, "files_1000");
	}
	cr_assert_str_eq(c.cols[2].label,
	    "1000 files of 4K in 10 dirs, p99 write latency");
	cr_assert_str_eq(c.cols[2].title, "p99 1000 files of 4K in 10 dirs");
	cr_assert_eq(compare_lat_col(&c, 0, 0.99), 2);
	cr_assert_eq(compare_lat_col(&c, 4, 0.99), COMPARE_NONE);
	compare_set_latency(&c, false);
	cr_assert_eq(c.ncols, 2);
	cr_assert_str_eq(c.cols[1].key, "untar");
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* Round r: 2000 writes, 30 of them slow at r ms. p99 (the 1980th) and
   p99.9 are the slow value, p50 the fast one, in every round; pooled,
   p99 would be the slowest round's alone. */
Test(compare_lat, a_figure_per_round_its_own_percentile)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	const struct compare_cell *x;

	for (int r = 1; r <= 3; r++)
		add_run(rec, lab, V_QUICK, r, 1970, 30, (uint64_t)r * 1000000,
		    WL_OK);
	compare_init(&c);
	compare_set_latency(&c, true);
	compare_add(&c, rec, NULL);
	x = compare_cell(&c, 0, lat_col(&c, 0.99));
	cr_assert_eq(x->n, 3);
	for (int r = 1; r <= 3; r++)
		cr_assert_eq(x->v[r - 1],
		    (double)exact((uint64_t)r * 1000000) / 1e3);
	cr_assert_float_eq(x->mean,
	    (exact(1000000) + exact(2000000) + exact(3000000)) / 3e3, 1e-9);
	x = compare_cell(&c, 0, lat_col(&c, 0.5));
	cr_assert_eq(x->v[0], (double)exact(10000) / 1e3);
	cr_assert_eq(x->sd, 0);
	cr_assert_eq(x->lat_ops, 2000);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* Two tests under one key in a round (compilebench has several): their
   histograms are added, not their percentiles averaged. */
Test(compare_lat, tests_of_a_round_merge_by_counts)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct wl_result *r = wl_result_new("smallfiles", "small");
	struct wl_test *a, *b;
	struct compare c;

	/* (adding a test may move the others) */
	a = wl_result_add_test(r, "files_1000", "1000 files", WL_UNIT_FILES_S);
	a->value = 100;
	put(a, WL_OP_WRITE, 10000, 1000);
	b = wl_result_add_test(r, "files_1000", "1000 files", WL_UNIT_FILES_S);
	b->value = 100;
	put(b, WL_OP_WRITE, 1000000, 1000);
	record_add_run(rec, &lab->variants[V_QUICK], NULL,
	    &lab->workloads[W_SMALL], 1, r, NULL);
	wl_result_free(r);
	compare_init(&c);
	compare_set_latency(&c, true);
	compare_add(&c, rec, NULL);
	/* p50 is the 1000th of 2000: the fast test's; averaged percentiles
	   would give half a millisecond */
	cr_assert_eq(compare_cell(&c, 0, lat_col(&c, 0.5))->v[0],
	    (double)exact(10000) / 1e3);
	cr_assert_eq(compare_cell(&c, 0, lat_col(&c, 0.99))->v[0],
	    (double)exact(1000000) / 1e3);
	cr_assert_eq(compare_cell(&c, 0, lat_col(&c, 0.5))->lat_ops, 2000);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

Test(compare_lat, operations_needed_are_ten_beyond_the_percentile)
{
	cr_assert_eq(compare_lat_need(0.5), 20);
	cr_assert_eq(compare_lat_need(0.99), 1000);
	cr_assert_eq(compare_lat_need(0.999), 10000);
	cr_assert_str_eq(compare_lat_name(0.999), "p99.9");
	cr_assert_eq(compare_lat_quantile(1), 0.99);
}

/* quick: 3 rounds of 1000 writes with 20 at 1 ms; slow: at 20 ms. p99
   is the slow writes' in both: a 20-fold tail, called worse (and
   better the other way round). p99.9 needs 10000 writes a round: marked,
   never judged. */
static struct record *
tails(const struct lab *lab, uint64_t quick_ops)
{
	struct record *rec = record_new(lab);

	for (int r = 1; r <= 3; r++) {
		add_run(rec, lab, V_QUICK, r, quick_ops - 20, 20,
		    1000000 + 200000 * (uint64_t)r, WL_OK);
		add_run(rec, lab, V_SLOW, r, 980, 20,
		    20000000 + 3000000 * (uint64_t)r, WL_OK);
	}
	return rec;
}

Test(compare_lat, slower_tail_is_worse_and_too_few_are_not_judged)
{
	struct lab *lab = sample_lab();
	struct record *rec = tails(lab, 1000);
	struct compare c;
	size_t p99, p999;
	char *m;

	compare_init(&c);
	compare_set_latency(&c, true);
	compare_add(&c, rec, NULL);
	p99 = lat_col(&c, 0.99);
	p999 = lat_col(&c, 0.999);
	cr_assert_eq(compare_cell(&c, 0, p99)->verdict, COMPARE_V_BASELINE);
	cr_assert_eq(compare_cell(&c, 1, p99)->verdict, COMPARE_V_WORSE);
	cr_assert_gt(compare_cell(&c, 1, p99)->pct, 1000);
	cr_assert_eq(c.cols[p99].best, 0);
	cr_assert_not(compare_cell(&c, 1, p99)->marks & COMPARE_MARK_FEWLAT);
	/* 1000 writes a round: p99.9 would rest on one */
	cr_assert(compare_cell(&c, 0, p999)->marks & COMPARE_MARK_FEWLAT);
	cr_assert(compare_cell(&c, 1, p999)->marks & COMPARE_MARK_FEWLAT);
	cr_assert_eq(compare_cell(&c, 1, p999)->verdict, COMPARE_V_NONE);
	cr_assert_eq(c.cols[p999].best, COMPARE_NONE);
	cr_assert(isfinite(compare_cell(&c, 1, p999)->mean));
	m = compare_marks_text(&c, 1, p999);
	cr_assert(strstr(m,
		      "p99.9 rests on 1000 operations in a round: it "
		      "needs 10000 (10 beyond it), so it is not "
		      "judged") != NULL,
	    "%s", m);
	free(m);
	m = compare_marks_keys(COMPARE_MARK_FEWLAT);
	cr_assert_str_eq(m, "few-samples");
	free(m);
	compare_set_baseline(&c, 1);
	cr_assert_eq(compare_cell(&c, 0, p99)->verdict, COMPARE_V_BETTER);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* One round of quick's under 1000 writes: its p99 is not judged. */
Test(compare_lat, one_short_round_is_enough_to_mark)
{
	struct lab *lab = sample_lab();
	struct record *rec = tails(lab, 1000);
	struct compare c;
	size_t p99;

	add_run(rec, lab, V_QUICK, 4, 979, 20, 1000000, WL_OK);
	compare_init(&c);
	compare_set_latency(&c, true);
	compare_add(&c, rec, NULL);
	p99 = lat_col(&c, 0.99);
	cr_assert_eq(compare_cell(&c, 0, p99)->n, 4);
	cr_assert_eq(compare_cell(&c, 0, p99)->lat_ops, 999);
	cr_assert(compare_cell(&c, 0, p99)->marks & COMPARE_MARK_FEWLAT);
	cr_assert_eq(compare_cell(&c, 1, p99)->verdict, COMPARE_V_NONE);
	/* p50 needs 20 a round: judged */
	cr_assert_eq(compare_cell(&c, 1, lat_col(&c, 0.5))->marks &
		COMPARE_MARK_FEWLAT,
	    0);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* The operation with most samples over every row, not each row's own. */
Test(compare_lat, dominant_operation_over_every_row)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	int v;

	for (v = V_QUICK; v <= V_SLOW; v++) {
		struct wl_result *r = wl_result_new("smallfiles", "small");
		struct wl_test *t = wl_result_add_test(r, "files_1000",
		    "1000 files", WL_UNIT_FILES_S);

		t->value = 10;
		put(t, WL_OP_WRITE, 1000, v == V_QUICK ? 100 : 10);
		put(t, WL_OP_READ, 1000, v == V_QUICK ? 50 : 200);
		record_add_run(rec, &lab->variants[v], NULL,
		    &lab->workloads[W_SMALL], 1, r, NULL);
		wl_result_free(r);
	}
	compare_init(&c);
	compare_set_latency(&c, true);
	compare_add(&c, rec, NULL);
	cr_assert_eq(c.cols[lat_col(&c, 0.5)].lat_op, WL_OP_READ);
	cr_assert_eq(compare_cell(&c, 0, lat_col(&c, 0.5))->lat_ops, 50);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

/* Failed runs are counted, not averaged; a record removed takes its
   latency with it; records added later join the columns. */
Test(compare_lat, failed_runs_and_records_come_and_go)
{
	struct lab *lab = sample_lab();
	struct record *a = tails(lab, 1000), *b = record_new(lab);
	struct compare c;
	size_t p50;

	add_run(a, lab, V_QUICK, 4, 2000, 0, 0, WL_FAILED);
	add_run(b, lab, V_SLOW, 1, 2000, 0, 0, WL_OK);
	add_tar(b, lab, V_SLOW, 1);
	compare_init(&c);
	compare_set_latency(&c, true);
	compare_add(&c, a, NULL);
	p50 = lat_col(&c, 0.5);
	cr_assert_eq(compare_cell(&c, 0, p50)->n, 3);
	cr_assert_eq(compare_cell(&c, 0, p50)->failed, 1);
	compare_add(&c, b, NULL);
	/* small's four columns, then untar's */
	cr_assert_eq(c.ncols, 5);
	cr_assert_str_eq(c.cols[4].key, "untar");
	cr_assert_eq(compare_cell(&c, 2, lat_col(&c, 0.5))->n, 1);
	compare_remove_record(&c, 0);
	cr_assert_eq(c.nrows, 1);
	cr_assert_eq(c.ncols, 5);
	cr_assert_eq(compare_cell(&c, 0, lat_col(&c, 0.99))->n, 1);
	compare_done(&c);
	record_free(a);
	record_free(b);
	lab_free(lab);
}

Test(compare_lat, microseconds_written_in_the_unit_that_suits)
{
	char buf[COMPARE_NUM_BUF];

	setlocale(LC_ALL, "C");
	cr_assert_str_eq(compare_format_value(8.5213, WL_UNIT_USEC, buf,
			     sizeof buf),
	    "8.52 us");
	cr_assert_str_eq(compare_format_value(850, WL_UNIT_USEC, buf,
			     sizeof buf),
	    "850 us");
	cr_assert_str_eq(compare_format_value(12345, WL_UNIT_USEC, buf,
			     sizeof buf),
	    "12.3 ms");
	cr_assert_str_eq(compare_format_value(1.2e6, WL_UNIT_USEC, buf,
			     sizeof buf),
	    "1.2 s");
	cr_assert_str_eq(compare_format_value(NAN, WL_UNIT_USEC, buf,
			     sizeof buf),
	    "-");
	cr_assert(compare_lower_better(WL_UNIT_USEC));
	cr_assert_str_eq(wl_unit_key(WL_UNIT_USEC), "usec");
	cr_assert_eq(wl_unit_parse("usec"), WL_UNIT_USEC);
	cr_assert_str_eq(wl_unit_name(WL_UNIT_USEC), "us");
}
