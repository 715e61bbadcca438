/*
 * Repeat until sure (rounds.h) on synthetic figures: when a pair is
 * sure, what it estimates, why it stopped, and which figures count. The
 * t quantiles behind the expected values are from a t table
 * (t(0.975, df): df 2: 4.303, 5: 2.571, 6: 2.447).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/xalloc.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "run/rounds.h"

static const struct rounds_goal range = { 3, 10, 0.02 };

/* n rounds of test "t" with the figures v[]. */
static void
rounds_of(struct rounds_pair *p, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rounds_pair_figure(p, "t", v[i], true);
		p->done++;
	}
}

Test(rounds, identical_figures_are_sure_at_min_not_before)
{
	const double v[] = { 100, 100, 100 };
	struct rounds_pair p;
	struct rounds_state st;

	rounds_pair_init(&p);
	rounds_of(&p, v, 2);
	rounds_pair_state(&p, &range, &st);
	cr_assert(!st.sure, "two rounds are fewer than min = 3");
	cr_assert_eq(rounds_pair_stop(&p, &range, false), ROUNDS_MORE);
	rounds_of(&p, v + 2, 1);
	rounds_pair_state(&p, &range, &st);
	cr_assert(st.sure);
	cr_assert_float_eq(st.worst, 0, 1e-12);
	cr_assert_eq(st.estimate, 3);
	cr_assert_eq(rounds_pair_stop(&p, &range, false), ROUNDS_GOAL);
	rounds_pair_done(&p);
}

Test(rounds, a_wide_interval_asks_for_more_then_stops_at_max)
{
	/* mean 100, sd 10: half-width 4.303 x 10 / sqrt(3) = 24.84 */
	const double v[] = { 100, 110, 90 };
	struct rounds_pair p;
	struct rounds_state st;
	char why[512];

	rounds_pair_init(&p);
	rounds_of(&p, v, 3);
	rounds_pair_state(&p, &range, &st);
	cr_assert(!st.sure);
	cr_assert_float_eq(st.worst, 4.303 * 10 / sqrt(3) / 100, 1e-3);
	cr_assert_float_eq(st.worst_cv, 0.1, 1e-12);
	/* a CV of 10% would need more than 10 rounds for +-2% */
	cr_assert_eq(st.estimate, 10);
	cr_assert_eq(rounds_pair_stop(&p, &range, false), ROUNDS_MORE);
	cr_assert_eq(rounds_pair_stop(&p, &range, true), ROUNDS_INTERRUPTED);
	for (int i = 0; i < 7; i++)
		rounds_of(&p, v + i % 3, 1);
	cr_assert_eq(p.done, 10);
	cr_assert_eq(rounds_pair_stop(&p, &range, false), ROUNDS_MAX);
	rounds_pair_why(&p, &range, ROUNDS_MAX, why, sizeof why);
	cr_assert(strstr(why, "max = 10 rounds reached") != NULL, "%s", why);
	cr_assert(strstr(why, "goal ±2%") != NULL, "%s", why);
	rounds_pair_done(&p);
}

Test(rounds, the_estimate_follows_the_cv)
{
	/* mean 100, sd 2: CV 2%. For +-2%: t(df) / sqrt(n) <= 1 first at
	   n = 7 (2.447 / 2.646 = 0.925; n = 6: 2.571 / 2.449 = 1.05). */
	const double v[] = { 98, 102, 100 };
	struct rounds_pair p;
	struct rounds_state st;

	rounds_pair_init(&p);
	rounds_of(&p, v, 3);
	rounds_pair_state(&p, &range, &st);
	cr_assert_float_eq(st.worst_cv, 0.02, 1e-12);
	cr_assert_eq(st.estimate, 7);
	rounds_pair_done(&p);
}

Test(rounds, a_test_with_no_figure_that_counts_is_taken_as_sure)
{
	const double v[] = { 50, 50, 50 };
	struct rounds_pair p;
	struct rounds_state st;
	char why[512];

	rounds_pair_init(&p);
	for (int i = 0; i < 3; i++)
		rounds_pair_figure(&p, "fast", 1e6, false);
	rounds_of(&p, v, 3);
	rounds_pair_state(&p, &range, &st);
	cr_assert(st.sure);
	cr_assert_eq(st.never, 1);
	cr_assert_str_eq(st.never_key, "fast");
	rounds_pair_why(&p, &range, ROUNDS_GOAL, why, sizeof why);
	cr_assert(strstr(why, "fast had no figure that counts") != NULL, "%s",
	    why);
	rounds_pair_done(&p);
}

Test(rounds, one_figure_is_never_sure)
{
	const struct rounds_goal one = { 1, 5, 0.5 };
	const double v[] = { 7 };
	struct rounds_pair p;
	struct rounds_state st;

	rounds_pair_init(&p);
	rounds_of(&p, v, 1);
	rounds_pair_state(&p, &one, &st);
	cr_assert(!st.sure, "no interval from one figure");
	cr_assert(isnan(st.worst));
	cr_assert_eq(st.estimate, 2);
	rounds_pair_done(&p);
}

Test(rounds, failed_runs_interrupted_and_too_fast_tests_do_not_count)
{
	struct wl_result *ok = wl_result_new("smallfiles", "s");
	struct wl_result *bad = wl_result_new("smallfiles", "s");
	struct wl_test *t;
	struct rounds_pair p;

	t = wl_result_add_test(ok, "create", "Create", WL_UNIT_FILES_S);
	t->value = 10;
	t = wl_result_add_test(ok, "stat", "Stat", WL_UNIT_FILES_S);
	t->value = 1e6;
	t->too_fast = true;
	t = wl_result_add_test(ok, "read", "Read", WL_UNIT_FILES_S);
	t->value = 5;
	t->interrupted = true;
	t = wl_result_add_test(bad, "create", "Create", WL_UNIT_FILES_S);
	t->value = 99;
	bad->status = WL_FAILED;
	rounds_pair_init(&p);
	rounds_pair_add(&p, ok);
	rounds_pair_add(&p, bad);
	rounds_pair_add(&p, NULL);
	cr_assert_eq(p.done, 3);
	cr_assert_eq(p.ntests, 3);
	cr_assert_str_eq(p.tests[0].key, "create");
	cr_assert_eq(p.tests[0].n, 1);
	cr_assert_float_eq(p.tests[0].v[0], 10, 0);
	cr_assert_eq(p.tests[1].n, 0);
	cr_assert_eq(p.tests[2].n, 0);
	rounds_pair_done(&p);
	wl_result_free(ok);
	wl_result_free(bad);
}

Test(rounds, a_fixed_count_runs_exactly_n_and_a_failure_ends_it)
{
	const struct rounds_goal five = { 5, 5, 0 };
	const double v[] = { 1, 100, 1, 100, 1 };
	struct rounds_pair p;
	char why[512];

	rounds_pair_init(&p);
	rounds_of(&p, v, 4);
	cr_assert_eq(rounds_pair_stop(&p, &five, false), ROUNDS_MORE);
	rounds_of(&p, v + 4, 1);
	cr_assert_eq(rounds_pair_stop(&p, &five, false), ROUNDS_FIXED);
	rounds_pair_fail(&p, "not run: read-only");
	rounds_pair_fail(&p, "a later reason");
	cr_assert_eq(rounds_pair_stop(&p, &five, false), ROUNDS_FAILED);
	rounds_pair_why(&p, &five, ROUNDS_FAILED, why, sizeof why);
	cr_assert_str_eq(why, "ended after 5 rounds: not run: read-only");
	cr_assert_str_eq(rounds_stop_name(ROUNDS_FIXED), "fixed");
	cr_assert_null(rounds_stop_name(ROUNDS_MORE));
	rounds_pair_done(&p);
}

Test(rounds, the_goal_comes_from_the_lab_or_the_command_line)
{
	struct lab *lab = lab_new();
	struct rounds_goal g;
	char *text;

	lab->repeats = 8;
	lab->repeats_min = 3;
	lab->repeats_ci = 3000;
	rounds_goal_of(&g, lab, 0);
	cr_assert_eq(g.min, 3);
	cr_assert_eq(g.max, 8);
	cr_assert_float_eq(g.ci, 0.03, 1e-15);
	/* run --repeats N: exactly N, the range forgotten */
	rounds_goal_of(&g, lab, 2);
	cr_assert_eq(g.min, 2);
	cr_assert_eq(g.max, 2);
	cr_assert_float_eq(g.ci, 0, 0);
	text = rounds_describe(lab, 0, 1);
	cr_assert(strstr(text, "order = interleaved") != NULL, "%s", text);
	cr_assert(strstr(text, "built up to 8 times: once per round") != NULL,
	    "%s", text);
	free(text);
	lab->order = LAB_ORDER_GROUPED;
	text = rounds_describe(lab, 5, 1);
	cr_assert(strstr(text, "order = grouped") != NULL, "%s", text);
	cr_assert(strstr(text, "; 5 rounds") != NULL, "%s", text);
	cr_assert(strstr(text, "built") == NULL, "%s", text);
	free(text);
	lab_free(lab);
}

Test(rounds, percents_read_and_write_exactly)
{
	char b[LAB_PERCENT_LEN];
	int32_t m;

	cr_assert_eq(lab_percent_parse("2%", &m), 0);
	cr_assert_eq(m, 2000);
	cr_assert_eq(lab_percent_parse("0.125%", &m), 0);
	cr_assert_eq(m, 125);
	cr_assert_str_eq(lab_percent_format(125, b, sizeof b), "0.125%");
	cr_assert_str_eq(lab_percent_format(500, b, sizeof b), "0.5%");
	cr_assert_str_eq(lab_percent_format(12250, b, sizeof b), "12.25%");
	cr_assert_str_eq(lab_percent_format(99999, b, sizeof b), "99.999%");
	cr_assert_eq(lab_percent_parse("100%", &m), -ERANGE);
	cr_assert_eq(lab_percent_parse("0.000%", &m), -ERANGE);
	cr_assert_eq(lab_percent_parse("1e3%", &m), -EINVAL);
	cr_assert_eq(lab_percent_parse("2.%", &m), -EINVAL);
	cr_assert_eq(lab_percent_parse("2 %", &m), -EINVAL);
	cr_assert_eq(lab_percent_parse("99999999999999%", &m), -ERANGE);
}
