/*
 * The rounds of a run (labrun-rounds): grouped order runs variant after
 * variant; a range of repeats stops at its max or its goal and the record
 * says which; the round gate (before_round) is asked before each round
 * and can stop the run; a fleet host's run keeps its record in memory
 * and removes the directories it made. Part of the test-labrun program
 * (unit-labrun.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xalloc.h"
#include "lab/lab.h"
#include "measure/engine.h"
#include "results/record.h"
#include "run/labrun.h"
#include "unit-labrun.h"

Test(labrun, grouped_order_runs_variant_after_variant)
{
	struct record *rec;
	struct ran f;

	ran_two_by_two(&f, "order = \"grouped\";");
	cr_assert_eq(f.s.nr, 8, "%zu items", f.s.nr);
	for (size_t i = 0; i < 8; i++) {
		cr_assert_eq(f.s.r[i]->variant, (int)(i / 4), "item %zu", i);
		cr_assert_eq(f.s.r[i]->workload, (int)(i / 2 % 2), "item %zu",
		    i);
		cr_assert_eq(f.s.r[i]->repeat, (int)(i % 2) + 1, "item %zu", i);
	}
	rec = taken_record(f.lr, f.res);
	cr_assert_str_eq(rounds_str(rec, "order"), "grouped");
	cr_assert_str_eq(record_order(rec->root), "grouped");
	cr_assert_not_null(record_rounds_why(rec->root));
	record_free(rec);
	ran_done(&f);
}

Test(labrun, a_range_of_repeats_stops_at_max_or_goal_and_says_why)
{
	char *tmp = temp_dir(), *text;
	char *res = xasprintf("%s/res", tmp);
	struct lab *lab;
	struct labrun_opts o = { .tick_ms = 20,
		.record = true,
		.results = res };
	struct labrun *lr;
	struct record *rec;
	const json_t *pairs;
	struct seen s;

	/* min = max: three rounds whatever the figures, so the outcome does
	   not ride on the machine's speed; which stop it was must agree
	   between the lab and its one pair. */
	text =
	    xasprintf("name = \"lr\"; cache = \"keep\";\n"
		      "repeats = { min = 3; max = 3; ci = \"50%%\"; };\n"
		      "variants = ( { name = \"a\"; directory = \"%s/a\"; } "
		      ");\n"
		      "workloads = ( { name = \"w1\"; type = \"smallfiles\"; "
		      "count = 30; size = \"0\"; sync = false; } );\n",
		tmp);
	lab = load(text);
	lr = start(lab, &o);
	drain(lr, &s, 100, NULL, NULL);
	cr_assert_eq(s.nr, 3, "%zu items", s.nr);
	for (size_t i = 0; i < s.nev; i++)
		if (s.ev[i].type == LABRUN_RUN) {
			cr_assert_eq(s.ev[i].total, 3);
			cr_assert_float_eq(s.ev[i].goal, 0.5, 1e-12);
		}
	rec = taken_record(lr, res);
	cr_assert_eq(rounds_int(rec, "done"), 3);
	cr_assert_float_eq(json_real_value(
			       json_object_get(record_rounds(rec->root),
				   "ci_goal")),
	    0.5, 1e-12);
	pairs = json_object_get(record_rounds(rec->root), "pairs");
	cr_assert_eq(json_array_size(pairs), 1);
	cr_assert(strcmp(rounds_str(rec, "stopped"), "goal") == 0 ||
		strcmp(rounds_str(rec, "stopped"), "max") == 0,
	    "%s", rounds_str(rec, "stopped"));
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_array_get(pairs, 0),
				 "stopped")),
	    rounds_str(rec, "stopped"));
	record_free(rec);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(res);
	free(text);
}

/* A round gate that lets rounds go up to stop_at (0: all). */
struct gate {
	atomic_int calls;
	long seen[16];
	long stop_at;
};

static bool
gate(void *arg, long n)
{
	struct gate *g = arg;
	int i = atomic_fetch_add(&g->calls, 1);

	if (i < 16)
		g->seen[i] = n;
	return g->stop_at == 0 || n < g->stop_at;
}

/* The two-by-two lab with the gate g (more: top-level keys); the
   summary. */
static void
gated(struct gate *g, const char *more, struct seen *s,
    struct labrun_summary *sum)
{
	char *tmp = temp_dir(), *text = two_by_two_with(tmp, more);
	struct labrun_opts o = { .tick_ms = 20,
		.before_round = gate,
		.before_round_arg = g };
	struct lab *lab = load(text);
	struct labrun *lr = start(lab, &o);

	drain(lr, s, 100, NULL, NULL);
	labrun_summary(lr, sum);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

/* labrun_opts.before_round (a fleet's barrier): before each round of
   the lab (interleaved) or each run (grouped), counting from 1; false
   stops the run there, as labrun_stop() would. */
Test(labrun, the_round_gate_is_asked_before_each_round)
{
	struct labrun_summary sum;
	struct gate g = { 0 };
	struct seen s;

	gated(&g, "", &s, &sum);
	cr_assert_eq(atomic_load(&g.calls), 2);
	cr_assert(g.seen[0] == 1 && g.seen[1] == 2);
	cr_assert_eq(s.nr, 8);
	seen_done(&s);

	memset(&g, 0, sizeof g);
	gated(&g, "order = \"grouped\";", &s, &sum);
	cr_assert_eq(atomic_load(&g.calls), 8);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(g.seen[i], i + 1);
	seen_done(&s);

	memset(&g, 0, sizeof g);
	g.stop_at = 2;
	gated(&g, "", &s, &sum);
	cr_assert_eq(atomic_load(&g.calls), 2);
	cr_assert_eq(s.nr, 4, "round 1 only: %zu items", s.nr);
	for (size_t i = 0; i < s.nr; i++)
		cr_assert_eq(s.r[i]->repeat, 1);
	cr_assert(sum.stopped);
	seen_done(&s);
}

/* labrun_opts.fleet_host: the record is handed over with fleet.host
   and never written; the directories the run made are gone again. */
Test(labrun, a_fleet_hosts_run_leaves_nothing_behind)
{
	char *tmp = temp_dir(), *text = two_by_two(tmp);
	char *res = xasprintf("%s/res", tmp), *a = xasprintf("%s/a", tmp);
	struct labrun_opts o = { .tick_ms = 20,
		.record = true,
		.results = res,
		.fleet_host = "h2" };
	struct lab *lab = load(text);
	struct labrun *lr = start(lab, &o);
	struct record *rec;
	struct seen s;
	struct stat st;

	drain(lr, &s, 100, NULL, NULL);
	cr_assert_eq(s.nr, 8);
	rec = labrun_take_record(lr);
	cr_assert_not_null(rec);
	cr_assert_null(rec->path, "never saved");
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(rec->root,
						 "fleet"),
				 "host")),
	    "h2");
	cr_assert_eq(rec->nruns, 8);
	cr_assert_str_eq(json_string_value(
			     json_object_get(rec->root, "status")),
	    "ok");
	cr_assert_null(only_file(res));
	cr_assert(stat(a, &st) < 0, "%s (made for a/sub) is still there", a);
	record_free(rec);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
	free(res);
	free(a);
}
