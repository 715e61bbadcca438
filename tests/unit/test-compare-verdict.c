/*
 * The verdicts of the comparison table: each cell against the baseline by
 * the chosen test (the log t-test, the rank test, Welch's), "the same"
 * only within the margin, "can't tell" and too few repeats said as such,
 * unstable samples marked (a trend, the CV, outliers, warm-ups, short
 * tests), stopped runs never judged, the family of comparisons corrected
 * together, a variant summed up over every test, and the lab's choice of
 * test and margin.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "cmptest.h"
#include "figures/stats.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "results/compare.h"
#include "results/record.h"

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

	cmptest_table(&c, &lab, &rec, a, 5, a, 5);
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
	cmptest_table_done(&c, lab, rec);
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

	cmptest_table(&c, &lab, &rec, a, 5, b, 5);
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
	cmptest_table_done(&c, lab, rec);
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

	cmptest_table(&c, &lab, &rec, a, 5, b, 5);
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
	cmptest_table_done(&c, lab, rec);
}

Test(verdict, under_three_repeats_noise_cannot_be_told)
{
	static const double a[] = { 100, 110 };
	static const double b[] = { 150, 140 };
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char buf[64], *ans;

	cmptest_table(&c, &lab, &rec, a, 2, b, 2);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_FEW);
	cr_assert_str_eq(compare_format_verdict(&c, 1, 0, buf, sizeof buf),
	    "n<3");
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "noise cannot be told from a difference") != NULL,
	    "%s", ans);
	free(ans);
	cmptest_table_done(&c, lab, rec);
	/* One repeat each: not even an estimate of the noise. */
	cmptest_table(&c, &lab, &rec, a, 1, b, 1);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_FEW);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "at least 3 repeats each") != NULL, "%s", ans);
	free(ans);
	cmptest_table_done(&c, lab, rec);
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

	cmptest_table(&c, &lab, &rec, a, 4, b, 4);
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
	cmptest_table_done(&c, lab, rec);
}

Test(verdict, outliers_warmups_and_short_tests_are_marked)
{
	static const double a[] = { 30, 10, 10.2, 9.9, 10.1 };
	static const double b[] = { 10, 10.1, 9.9, 30, 10 };
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char *m;

	cmptest_table(&c, &lab, &rec, a, 5, b, 5);
	cr_assert(compare_cell(&c, 0, 0)->marks & COMPARE_MARK_WARMUP);
	cr_assert(compare_cell(&c, 1, 0)->marks & COMPARE_MARK_OUTLIER);
	cr_assert_not(compare_cell(&c, 1, 0)->marks & COMPARE_MARK_WARMUP);
	m = compare_marks_text(&c, 1, 0);
	cr_assert(strstr(m, "1 outlier (30.00 against a median of 10.00)") !=
		NULL,
	    "%s", m);
	free(m);
	cmptest_table_done(&c, lab, rec);

	lab = cmptest_lab();
	rec = record_new(lab);
	cmptest_add_vals(rec, lab, V_SLOW, a + 1, 4, 0.01);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	cr_assert(compare_cell(&c, 0, 0)->marks & COMPARE_MARK_SHORT);
	m = compare_marks_text(&c, 0, 0);
	cr_assert(strstr(m, "the tests lasted 0.01 s: too short to trust") !=
		NULL,
	    "%s", m);
	free(m);
	cmptest_table_done(&c, lab, rec);
}

Test(verdict, stopped_runs_are_marked_and_never_judged)
{
	static const double a[] = { 100, 101, 99 };
	struct compare c;
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct wl_result *r = wl_result_new("smallfiles", "small");
	struct wl_test *t;
	char *ans;

	cmptest_add_vals(rec, lab, V_SLOW, a, 3, 2.0);
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
	cmptest_table_done(&c, lab, rec);
}

Test(verdict, failed_variants_keep_their_row_and_the_baseline_has_figures)
{
	static const double a[] = { 100, 101, 99 };
	struct compare c;
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);

	/* the array variant comes first and could not be built */
	record_add_run(rec, &lab->variants[V_MIRROR], NULL,
	    &lab->workloads[W_SMALL], 1, NULL, "not built: no md driver");
	cmptest_add_vals(rec, lab, V_SLOW, a, 3, 2.0);
	cmptest_add_vals(rec, lab, V_FAST, a, 3, 2.0);
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
	cmptest_table_done(&c, lab, rec);
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

	cmptest_table(&c, &lab, &rec, a, 3, a, 3);
	errlist_init(&errs);
	cr_assert_eq(lab_load_string(other, "other.cfg", &lab2, &errs), 0);
	errlist_done(&errs);
	rec2 = record_new(lab2);
	cmptest_add_vals(rec2, lab2, 0, a, 3, 2.0);
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
	cmptest_table_done(&c, lab, rec);
}

Test(verdict, figures_that_repeat_exactly_give_no_interval)
{
	static const double a[] = { 100, 100, 100 };
	static const double b[] = { 101, 101, 101 };
	struct compare c;
	struct lab *lab;
	struct record *rec;
	char buf[64], *ans;

	cmptest_table(&c, &lab, &rec, a, 3, b, 3);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_EXACT);
	cr_assert_str_eq(compare_format_verdict(&c, 1, 0, buf, sizeof buf),
	    "+1.0% exact?");
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "resolution, not certainty") != NULL, "%s", ans);
	free(ans);
	cmptest_table_done(&c, lab, rec);
}

Test(verdict, short_tests_and_null_figures_are_no_plain_result)
{
	static const double a[] = { 100, 102, 98, 101, 99 };
	static const double b[] = { 150, 149, 152, 151, 148 };
	struct compare c;
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	char *ans;

	cmptest_add_vals(rec, lab, V_SLOW, a, 5, 0.01);
	cmptest_add_vals(rec, lab, V_FAST, b, 5, 0.01);
	/* a figure the record holds as null: no figure, not a NaN mean */
	cmptest_add_vals(rec, lab, V_FAST, (const double[]){ NAN }, 1, 2.0);
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
	cmptest_table_done(&c, lab, rec);
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

	cmptest_table(&c, &lab, &rec, a, 5, b, 5);
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
	cmptest_table_done(&c, lab, rec);
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
	struct lab *lab = cmptest_lab();
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
		cmptest_add_small(rec, lab, V_SLOW, i + 1, s100[i], s1k[i],
		    WL_OK);
		cmptest_add_small(rec, lab, V_FAST, i + 1, f100[i], f1k[i],
		    WL_OK);
		cmptest_add_small(rec, lab, V_MIRROR, i + 1, m100[i], m1k[i],
		    WL_OK);
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

	cmptest_table(&c, &lab, &rec, a, 5, b, 5);
	cr_assert_eq(compare_cell(&c, 1, 0)->verdict, COMPARE_V_BETTER);
	ans = compare_answer(&c, 1, 0);
	cr_assert(strstr(ans, "fast: 1.0% faster than slow") == ans, "%s", ans);
	cr_assert(strstr(ans, "2% margin)") != NULL, "%s", ans);
	free(ans);
	cmptest_table_done(&c, lab, rec);
}

/* A variant over every test: the counts of each answer, and the
   geometric mean of its ratios turned so that above 1 is better (the
   untar time halves: a ratio of 2). */
Test(verdict, a_variant_is_summed_up_over_every_test)
{
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct compare_summary s;
	struct compare c;
	char *t;

	for (int i = 0; i < 5; i++) {
		cmptest_add_small(rec, lab, V_SLOW, i + 1, 100 + i, 100 + i,
		    WL_OK);
		cmptest_add_small(rec, lab, V_FAST, i + 1, 200 + 2 * i, 100 + i,
		    WL_OK);
		cmptest_add_tar(rec, lab, V_SLOW, i + 1, 4 + 0.04 * i, false);
		cmptest_add_tar(rec, lab, V_FAST, i + 1, 2 + 0.02 * i, false);
	}
	cmptest_add_small(rec, lab, V_MIRROR, 1, 50, 50, WL_OK);
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
	struct lab *lab = cmptest_lab();
	struct record *rec = record_new(lab);
	struct compare c;
	json_t *rounds =
	    json_pack("{s:s, s:f}", "test", "rank", "equivalence", 0.05);

	record_set_rounds(rec, rounds); /* keeps its own reference */
	json_decref(rounds);
	cmptest_add_vals(rec, lab, V_SLOW, a, 5, 2.0);
	cmptest_add_vals(rec, lab, V_FAST, a, 5, 2.0);
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
