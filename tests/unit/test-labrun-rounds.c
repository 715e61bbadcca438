/*
 * The rounds of a run (labrun-rounds): grouped order runs variant after
 * variant; a range of repeats stops at its max or its goal and the record
 * says which. Part of the test-labrun program (unit-labrun.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
