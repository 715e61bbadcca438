/*
 * Repeat until sure: see rounds.h. Pure; any thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "figures/stats.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "rounds.h"

void
rounds_goal_of(struct rounds_goal *g, const struct lab *lab, int64_t repeats)
{
	if (repeats > 0 || !lab_repeats_range(lab)) {
		g->min = g->max = repeats > 0 ? repeats : lab->repeats;
		g->ci = 0;
		return;
	}
	g->min = lab->repeats_min;
	g->max = lab->repeats;
	g->ci = lab->repeats_ci / (double)LAB_PERCENT_MAX;
}

void
rounds_pair_init(struct rounds_pair *p)
{
	memset(p, 0, sizeof *p);
}

void
rounds_pair_done(struct rounds_pair *p)
{
	for (size_t i = 0; i < p->ntests; i++) {
		free(p->tests[i].key);
		free(p->tests[i].v);
	}
	free(p->tests);
	free(p->failed);
	memset(p, 0, sizeof *p);
}

static struct rounds_test *
test_of(struct rounds_pair *p, const char *key)
{
	struct rounds_test *t;

	for (size_t i = 0; i < p->ntests; i++)
		if (strcmp(p->tests[i].key, key) == 0)
			return &p->tests[i];
	p->tests = xreallocarray(p->tests, p->ntests + 1, sizeof *p->tests);
	t = &p->tests[p->ntests++];
	memset(t, 0, sizeof *t);
	t->key = xstrdup(key);
	return t;
}

void
rounds_pair_figure(struct rounds_pair *p, const char *key, double v,
    bool counts)
{
	struct rounds_test *t = test_of(p, key);

	if (!counts || !isfinite(v))
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 8;
		t->v = xreallocarray(t->v, t->cap, sizeof *t->v);
	}
	t->v[t->n++] = v;
}

void
rounds_pair_add(struct rounds_pair *p, const struct wl_result *res)
{
	p->done++;
	if (res == NULL)
		return;
	p->wall += res->wall;
	p->last = res->wall;
	p->nwall++;
	/* One figure per run and key, the mean of the run's tests under it
	   (compilebench has one per operation), as compare.c takes it: n
	   counts runs, so the interval is as wide as the verdict's. */
	for (size_t i = 0; i < res->ntests; i++) {
		const struct wl_test *t = &res->tests[i];
		double sum = 0;
		size_t n = 0, j;

		if (t->key == NULL)
			continue;
		for (j = 0; j < i; j++)
			if (res->tests[j].key != NULL &&
			    strcmp(res->tests[j].key, t->key) == 0)
				break;
		if (j < i)
			continue; /* counted with its first */
		for (j = i; j < res->ntests; j++) {
			const struct wl_test *u = &res->tests[j];

			if (u->key != NULL && strcmp(u->key, t->key) == 0 &&
			    !u->too_fast && !u->interrupted &&
			    !(u->stalled > 0) && isfinite(u->value)) {
				sum += u->value;
				n++;
			}
		}
		rounds_pair_figure(p, t->key, n ? sum / (double)n : NAN,
		    res->status == WL_OK && n > 0);
	}
}

void
rounds_pair_fail(struct rounds_pair *p, const char *why)
{
	if (p->failed == NULL)
		p->failed = xstrdup(why);
}

/* ci_half / |mean|: 0 for an interval of no width (mean 0 too). */
static double
relative(const struct stats_desc *d)
{
	if (d->ci_half == 0)
		return 0;
	return d->ci_half / fabs(d->mean);
}

static int64_t
clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void
rounds_pair_state(const struct rounds_pair *p, const struct rounds_goal *g,
    struct rounds_state *st)
{
	int64_t need = 0;

	memset(st, 0, sizeof *st);
	st->worst = st->worst_cv = NAN;
	st->sure = p->done >= g->min;
	for (size_t i = 0; i < p->ntests; i++) {
		const struct rounds_test *t = &p->tests[i];
		struct stats_desc d;
		double rel;

		if (t->n == 0) {
			if (st->never++ == 0)
				st->never_key = t->key;
			continue;
		}
		stats_describe(t->v, t->n, STATS_CONF, &d);
		rel = t->n >= 2 ? relative(&d) : NAN;
		/* A NAN (one figure) is not sure: its interval is unknown. */
		if ((int64_t)t->n < g->min || !(rel <= g->ci))
			st->sure = false;
		if (isfinite(rel) && !(rel <= st->worst)) {
			st->worst = rel;
			st->worst_key = t->key;
		}
		if (isfinite(d.cv) && !(d.cv <= st->worst_cv))
			st->worst_cv = d.cv;
	}
	if (g->ci <= 0) {
		st->sure = p->done >= g->max;
		st->estimate = g->max;
		return;
	}
	if (isfinite(st->worst_cv))
		need = (int64_t)stats_rounds_needed(st->worst_cv, g->ci,
		    STATS_CONF, (size_t)g->max);
	st->estimate = st->sure
	    ? p->done
	    : clamp(need, p->done + 1 > g->min ? p->done + 1 : g->min, g->max);
	if (st->estimate > g->max)
		st->estimate = g->max;
}

const char *
rounds_stop_name(enum rounds_stop s)
{
	static const char *const names[] = { NULL, "goal", "max", "fixed",
		"interrupted", "failed" };

	return names[s];
}

enum rounds_stop
rounds_pair_stop(const struct rounds_pair *p, const struct rounds_goal *g,
    bool stopped)
{
	struct rounds_state st;

	if (p->failed != NULL)
		return ROUNDS_FAILED;
	rounds_pair_state(p, g, &st);
	if (g->ci <= 0 && p->done >= g->max)
		return ROUNDS_FIXED;
	if (g->ci > 0 && st.sure)
		return ROUNDS_GOAL;
	if (p->done >= g->max)
		return ROUNDS_MAX;
	return stopped ? ROUNDS_INTERRUPTED : ROUNDS_MORE;
}

/* "; TEST had no figure that counts ..." when some test never will. */
static void
never_part(struct strbuf *b, const struct rounds_state *st)
{
	if (st->never == 1)
		strbuf_printf(b,
		    _("; %s had no figure that counts (all too fast or "
		      "interrupted), so no interval to judge it by"),
		    st->never_key);
	else if (st->never > 1)
		strbuf_printf(b,
		    _("; %s and %zu more tests had no figure that counts "
		      "(all too fast or interrupted), so no interval to "
		      "judge them by"),
		    st->never_key, st->never - 1);
}

const char *
rounds_pair_why(const struct rounds_pair *p, const struct rounds_goal *g,
    enum rounds_stop s, char *buf, size_t len)
{
	struct rounds_state st;
	struct strbuf never;
	double goal = g->ci * 100;

	rounds_pair_state(p, g, &st);
	strbuf_init(&never);
	never_part(&never, &st);
	switch (s) {
	case ROUNDS_MORE:
		snprintf(buf, len, _("still running"));
		break;
	case ROUNDS_GOAL:
		if (st.worst_key != NULL)
			snprintf(buf, len,
			    ngettext("after %lld round every test's 95%% "
				     "confidence interval is within ±%g%% of "
				     "its mean (the widest: %s, ±%.1f%%)%s",
				"after %lld rounds every test's 95%% "
				"confidence interval is within ±%g%% of its "
				"mean (the widest: %s, ±%.1f%%)%s",
				(unsigned long)p->done),
			    (long long)p->done, goal, st.worst_key,
			    st.worst * 100, never.s);
		else
			snprintf(buf, len,
			    ngettext("after %lld round: no test to judge by%s",
				"after %lld rounds: no test to judge by%s",
				(unsigned long)p->done),
			    (long long)p->done, never.s);
		break;
	case ROUNDS_MAX:
		if (st.worst_key != NULL)
			snprintf(buf, len,
			    _("max = %lld rounds reached before the goal: the "
			      "95%% confidence interval of %s is still "
			      "±%.1f%% of its mean (goal ±%g%%)%s"),
			    (long long)g->max, st.worst_key, st.worst * 100,
			    goal, never.s);
		else
			snprintf(buf, len,
			    _("max = %lld rounds reached without enough "
			      "figures that count for an interval%s"),
			    (long long)g->max, never.s);
		break;
	case ROUNDS_FIXED:
		snprintf(buf, len,
		    _("repeats = %lld: a fixed number of rounds, no goal"),
		    (long long)g->max);
		break;
	case ROUNDS_INTERRUPTED:
		snprintf(buf, len,
		    ngettext("stopped by the user after %lld of at most %lld "
			     "round",
			"stopped by the user after %lld of at most %lld "
			"rounds",
			(unsigned long)g->max),
		    (long long)p->done, (long long)g->max);
		break;
	case ROUNDS_FAILED:
		snprintf(buf, len,
		    ngettext("ended after %lld round: %s",
			"ended after %lld rounds: %s", (unsigned long)p->done),
		    (long long)p->done, p->failed ? p->failed : "?");
		break;
	}
	strbuf_done(&never);
	return buf;
}

const char *
rounds_progress(int round, unsigned long long total, double ci, double goal,
    char *buf, size_t len)
{
	if (!(goal > 0))
		snprintf(buf, len, _("round %d of %llu"), round, total);
	else if (isfinite(ci))
		snprintf(buf, len, _("round %d of ~%llu  ±%.1f%% (goal ±%g%%)"),
		    round, total, ci * 100, goal * 100);
	else
		snprintf(buf, len, _("round %d of ~%llu  (goal ±%g%%)"), round,
		    total, goal * 100);
	return buf;
}

char *
rounds_describe(const struct lab *lab, int64_t repeats, size_t narrays)
{
	struct rounds_goal g;
	struct strbuf b;
	char pc[LAB_PERCENT_LEN];

	rounds_goal_of(&g, lab, repeats);
	strbuf_init(&b);
	if (lab->order == LAB_ORDER_INTERLEAVED)
		strbuf_printf(&b, "%s",
		    _("order = interleaved: round 1 of every variant, then "
		      "round 2 starting one variant later, ..."));
	else
		strbuf_printf(&b, "%s",
		    _("order = grouped: variant after variant, each "
		      "workload's rounds in a row"));
	if (g.ci > 0)
		strbuf_printf(&b,
		    _("; %lld to %lld rounds, until each mean's 95%% "
		      "confidence interval is within ±%s of it"),
		    (long long)g.min, (long long)g.max,
		    lab_percent_format(lab->repeats_ci, pc, sizeof pc));
	else
		strbuf_printf(&b,
		    ngettext("; %lld round", "; %lld rounds",
			(unsigned long)g.max),
		    (long long)g.max);
	strbuf_printf(&b, "\n");
	if (narrays > 0 && lab->order == LAB_ORDER_INTERLEAVED) {
		if (g.ci > 0)
			strbuf_printf(&b,
			    _("each array variant is built up to %lld times: "
			      "once per round (order = interleaved)\n"),
			    (long long)g.max);
		else if (g.max > 1)
			strbuf_printf(&b,
			    _("each array variant is built %lld times: once "
			      "per round (order = interleaved)\n"),
			    (long long)g.max);
	}
	return strbuf_take(&b);
}
