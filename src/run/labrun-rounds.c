/*
 * The lab runner's rounds of repeats (labrun.h, rounds.h): the order the
 * variants go in, the figures of every (variant, workload) pair, when
 * another round is needed, the estimate of rounds and seconds left that
 * the live displays show, and the record's "rounds". Runner thread.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "labrun-int.h"
#include "labrun.h"
#include "rounds.h"

void
labrun_rounds_init(struct labrun *lr)
{
	size_t n = lr->nv * lr->lab->nworkloads;

	lr->pairs = xcalloc(n + 1, sizeof *lr->pairs);
	for (size_t i = 0; i < n; i++)
		rounds_pair_init(&lr->pairs[i]);
	lr->dead = xcalloc(lr->nv + 1, sizeof *lr->dead);
	lr->build_s = xcalloc(lr->nv + 1, sizeof *lr->build_s);
	lr->nbuilt = xcalloc(lr->nv + 1, sizeof *lr->nbuilt);
}

void
labrun_rounds_free(struct labrun *lr)
{
	size_t n = lr->nv * lr->lab->nworkloads;

	for (size_t i = 0; i < n; i++)
		rounds_pair_done(&lr->pairs[i]);
	free(lr->pairs);
	for (size_t i = 0; i < lr->nv; i++)
		free(lr->dead[i]);
	free(lr->dead);
	free(lr->build_s);
	free(lr->nbuilt);
}

static bool
vselected(const struct labrun *lr, size_t vi)
{
	return lr->has_target ? vi == 0 : lr->vsel[vi];
}

struct rounds_pair *
labrun_pair(struct labrun *lr, int vi, int wi)
{
	return &lr->pairs[(size_t)vi * lr->lab->nworkloads + (size_t)wi];
}

bool
labrun_pair_more(struct labrun *lr, int vi, int wi)
{
	return rounds_pair_stop(labrun_pair(lr, vi, wi), &lr->goal, false) ==
	    ROUNDS_MORE;
}

void
labrun_variant_dead(struct labrun *lr, int vi, const char *why)
{
	if (lr->dead[vi] == NULL)
		lr->dead[vi] = xstrdup(why);
	for (size_t wi = 0; wi < lr->lab->nworkloads; wi++)
		rounds_pair_fail(labrun_pair(lr, vi, (int)wi), why);
}

void
labrun_build_took(struct labrun *lr, int vi, double s)
{
	lr->build_s[vi] += s;
	lr->nbuilt[vi]++;
}

/* Any selected pair still needs a round. Only the intervals' width
   decides (rounds.h): never whether a difference looks significant. */
static bool
any_more(struct labrun *lr)
{
	for (size_t vi = 0; vi < lr->nv; vi++)
		for (size_t wi = 0;
		     vselected(lr, vi) && wi < lr->lab->nworkloads; wi++)
			if (lr->wsel[wi] &&
			    labrun_pair_more(lr, (int)vi, (int)wi))
				return true;
	return false;
}

bool
labrun_round_gate(struct labrun *lr)
{
	if (lr->before_round == NULL || labrun_stopping(lr))
		return !labrun_stopping(lr);
	if (lr->before_round(lr->before_round_arg, ++lr->rounds_started))
		return true;
	labrun_stop(lr);
	return false;
}

void
labrun_rounds(struct labrun *lr)
{
	if (lr->order == LAB_ORDER_GROUPED) {
		for (size_t vi = 0; vi < lr->nv && !labrun_stopping(lr); vi++)
			if (vselected(lr, vi))
				labrun_run_variant(lr, (int)vi, 0);
		return;
	}
	/* Every round runs every variant, sure or not, so that drift keeps
	   falling on all of them alike; and each round starts one variant
	   later than the one before, so that what a run leaves behind
	   (dirty pages still being written back, a warm cache) does not
	   always fall on the same next variant, nor the quiet start of the
	   round on the same first one. */
	size_t *sel = xcalloc(lr->nv + 1, sizeof *sel), nsel = 0;

	for (size_t vi = 0; vi < lr->nv; vi++)
		if (vselected(lr, vi))
			sel[nsel++] = vi;
	for (int64_t k = 1; k <= lr->goal.max && labrun_round_gate(lr); k++) {
		for (size_t i = 0; i < nsel && !labrun_stopping(lr); i++)
			labrun_run_variant(lr,
			    (int)sel[(i + (size_t)(k - 1)) % nsel], k);
		if (!any_more(lr))
			break;
	}
	free(sel);
}

/* The seconds a run of pair (vi, wi) likely takes: its own mean, else
   the workload's on other variants, else any run's; NAN: none ran. */
static double
run_seconds(struct labrun *lr, size_t vi, size_t wi)
{
	const struct rounds_pair *p = labrun_pair(lr, (int)vi, (int)wi);
	double s[2] = { 0, 0 };
	int64_t n[2] = { 0, 0 };

	if (p->nwall > 0)
		return p->wall / (double)p->nwall;
	for (size_t v = 0; v < lr->nv; v++)
		for (size_t w = 0; w < lr->lab->nworkloads; w++) {
			const struct rounds_pair *q =
			    labrun_pair(lr, (int)v, (int)w);

			s[w == wi] += q->wall;
			n[w == wi] += q->nwall;
		}
	if (n[1] > 0)
		return s[1] / (double)n[1];
	return n[0] > 0 ? s[0] / (double)n[0] : NAN;
}

struct outlook {
	double worst; /* widest relative half-width; NAN */
	int64_t rounds; /* interleaved: the rounds every pair will run */
};

/* The widest interval and the most rounds over the live pairs. */
static void
outlook(struct labrun *lr, struct outlook *o)
{
	o->worst = NAN;
	o->rounds = 0;
	for (size_t vi = 0; vi < lr->nv; vi++)
		for (size_t wi = 0;
		     vselected(lr, vi) && wi < lr->lab->nworkloads; wi++) {
			const struct rounds_pair *p =
			    labrun_pair(lr, (int)vi, (int)wi);
			struct rounds_state st;

			if (!lr->wsel[wi] || p->failed != NULL)
				continue;
			rounds_pair_state(p, &lr->goal, &st);
			if (isfinite(st.worst) && !(st.worst <= o->worst))
				o->worst = st.worst;
			if (st.estimate > o->rounds)
				o->rounds = st.estimate;
		}
}

/* The seconds from now to the end of the runs: each live pair's rounds
   still to come times its likely seconds, and with order interleaved the
   array variants' rebuilds in the rounds after this one. */
static double
seconds_left(struct labrun *lr, const struct outlook *o, int64_t k)
{
	double left = 0;

	for (size_t vi = 0; vi < lr->nv; vi++) {
		if (!vselected(lr, vi) || lr->dead[vi] != NULL)
			continue;
		for (size_t wi = 0; wi < lr->lab->nworkloads; wi++) {
			const struct rounds_pair *p =
			    labrun_pair(lr, (int)vi, (int)wi);
			struct rounds_state st;
			int64_t more;

			if (!lr->wsel[wi])
				continue;
			rounds_pair_state(p, &lr->goal, &st);
			more =
			    (lr->order == LAB_ORDER_INTERLEAVED ? o->rounds
								: st.estimate) -
			    p->done;
			if (more > 0)
				left += (double)more * run_seconds(lr, vi, wi);
		}
		if (lr->order == LAB_ORDER_INTERLEAVED && lr->nbuilt[vi] > 0 &&
		    o->rounds > k)
			left += (double)(o->rounds - k) * lr->build_s[vi] /
			    (double)lr->nbuilt[vi];
	}
	return left;
}

void
labrun_rounds_event(struct labrun *lr, int vi, int wi, int64_t k,
    struct labrun_event *ev)
{
	struct outlook o;

	outlook(lr, &o);
	if (lr->order == LAB_ORDER_GROUPED) {
		struct rounds_state st;

		rounds_pair_state(labrun_pair(lr, vi, wi), &lr->goal, &st);
		o.worst = st.worst;
		o.rounds = st.estimate;
	}
	if (o.rounds < k)
		o.rounds = k;
	ev->total = (unsigned long long)o.rounds;
	ev->ci = o.worst;
	ev->goal = lr->goal.ci;
	ev->left = seconds_left(lr, &o, k);
}

/* ---------------------------------------------------------------- record */

/* The lab's stop from its pairs' (see record.h). */
static enum rounds_stop
lab_stop(const enum rounds_stop *s, size_t n, bool fixed)
{
	bool all_failed = n > 0, max = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ROUNDS_INTERRUPTED || s[i] == ROUNDS_MORE)
			return ROUNDS_INTERRUPTED;
		all_failed &= s[i] == ROUNDS_FAILED;
		max |= s[i] == ROUNDS_MAX;
	}
	if (all_failed)
		return ROUNDS_FAILED;
	if (fixed)
		return ROUNDS_FIXED;
	return max ? ROUNDS_MAX : ROUNDS_GOAL;
}

/* The lab's why: the first pair that stopped as s says it, with its
   names; the goal in words of every pair. */
static json_t *
lab_why(struct labrun *lr, enum rounds_stop s, int64_t done, const char *first)
{
	char pc[LAB_PERCENT_LEN];

	switch (s) {
	case ROUNDS_GOAL:
		return json_sprintf(
		    ngettext("after %lld round the 95%% confidence interval "
			     "of every test's mean is within ±%s of it, for "
			     "every variant and workload that ran",
			"after %lld rounds the 95%% confidence interval of "
			"every test's mean is within ±%s of it, for every "
			"variant and workload that ran",
			(unsigned long)done),
		    (long long)done,
		    lab_percent_format(lr->lab->repeats_ci, pc, sizeof pc));
	case ROUNDS_FIXED:
		return json_sprintf(_("repeats = %lld: a fixed number of "
				      "rounds, no goal"),
		    (long long)lr->goal.max);
	case ROUNDS_INTERRUPTED:
		return json_sprintf(ngettext("stopped by the user after %lld "
					     "round",
					"stopped by the user after %lld rounds",
					(unsigned long)done),
		    (long long)done);
	case ROUNDS_MAX:
	case ROUNDS_FAILED:
	case ROUNDS_MORE:
		break;
	}
	return json_string(first != NULL ? first : "?");
}

json_t *
labrun_rounds_json(struct labrun *lr, bool final)
{
	size_t nw = lr->lab->nworkloads, n = 0;
	enum rounds_stop *stops = xcalloc(lr->nv * nw + 1, sizeof *stops);
	json_t *o = json_object(), *pairs = json_array();
	char why[1024], *first[6] = { NULL };
	int64_t done = 0;
	enum rounds_stop s;

	for (size_t vi = 0; vi < lr->nv; vi++)
		for (size_t wi = 0; vselected(lr, vi) && wi < nw; wi++) {
			const struct rounds_pair *p =
			    labrun_pair(lr, (int)vi, (int)wi);
			json_t *j;

			if (!lr->wsel[wi])
				continue;
			j = json_pack("{s:s, s:s, s:I}", "variant",
			    labrun_vname(labrun_variant(lr, (int)vi)),
			    "workload",
			    lab_workload_name(&lr->lab->workloads[wi]), "done",
			    (json_int_t)p->done);
			done = p->done > done ? p->done : done;
			s = stops[n++] =
			    rounds_pair_stop(p, &lr->goal, labrun_stopping(lr));
			if (final) {
				rounds_pair_why(p, &lr->goal, s, why,
				    sizeof why);
				json_object_set_new(j, "stopped",
				    json_string(rounds_stop_name(s)));
				json_object_set_new(j, "why", json_string(why));
				if (first[s] == NULL)
					first[s] = xasprintf("%s/%s: %s",
					    labrun_vname(
						labrun_variant(lr, (int)vi)),
					    lab_workload_name(
						&lr->lab->workloads[wi]),
					    why);
			}
			json_array_append_new(pairs, j);
		}
	json_object_set_new(o, "order", json_string(lab_order_name(lr->order)));
	json_object_set_new(o, "min", json_integer(lr->goal.min));
	json_object_set_new(o, "max", json_integer(lr->goal.max));
	json_object_set_new(o, "ci_goal",
	    lr->goal.ci > 0 ? json_real(lr->goal.ci) : json_null());
	json_object_set_new(o, "cv_limit",
	    json_real(lr->lab->cv_limit / (double)LAB_PERCENT_MAX));
	json_object_set_new(o, "test",
	    json_string(lab_test_name(lr->lab->test)));
	json_object_set_new(o, "equivalence",
	    json_real(lr->lab->equivalence / (double)LAB_PERCENT_MAX));
	json_object_set_new(o, "done", json_integer(done));
	if (final) {
		s = lab_stop(stops, n, lr->goal.ci <= 0);
		json_object_set_new(o, "stopped",
		    json_string(rounds_stop_name(s)));
		json_object_set_new(o, "why", lab_why(lr, s, done, first[s]));
	} else {
		json_object_set_new(o, "stopped", json_null());
		json_object_set_new(o, "why", json_null());
	}
	json_object_set_new(o, "pairs", pairs);
	for (size_t i = 0; i < 6; i++)
		free(first[i]);
	free(stops);
	return o;
}
