/*
 * The runner's own record (labrun-record): on disk from the start (running,
 * no runs yet) to the end, every run in it as `raidlab run` writes it,
 * with its target and its rounds; what is handed over is what was saved.
 * Part of the test-labrun program (unit-labrun.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "results/record.h"
#include "run/labrun.h"
#include "unit-labrun.h"

Test(labrun, the_record_of_a_run_holds_its_runs_and_rounds)
{
	struct record *rec;
	struct ran f;
	char *b;

	ran_two_by_two(&f, "");
	/* The runner's record: variant, workload, target, and its rounds. */
	rec = taken_record(f.lr, f.res);
	cr_assert_eq(rec->nruns, 8);
	cr_assert_str_eq(rec->runs[4].variant, "b");
	cr_assert_str_eq(rec->runs[4].workload, "w1");
	cr_assert_eq(rec->runs[4].repeat, 2);
	b = xasprintf("%s/b", f.tmp);
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(rec->runs[4].json,
						 "target"),
				 "path")),
	    b);
	free(b);
	cr_assert_eq(rec->runs[4].res->tests[0].files, 30);
	cr_assert_str_eq(rounds_str(rec, "order"), "interleaved");
	cr_assert_str_eq(rounds_str(rec, "stopped"), "fixed");
	cr_assert_eq(rounds_int(rec, "done"), 2);
	cr_assert_eq(rounds_int(rec, "min"), 2);
	cr_assert_eq(rounds_int(rec, "max"), 2);
	cr_assert(
	    json_is_null(json_object_get(record_rounds(rec->root), "ci_goal")));
	cr_assert_float_eq(record_cv_limit(rec->root), 0.05, 1e-12);
	cr_assert_str_eq(rounds_str(rec, "test"), "log");
	cr_assert_float_eq(record_equivalence(rec->root), 0.02, 1e-12);
	cr_assert_eq(json_array_size(
			 json_object_get(record_rounds(rec->root), "pairs")),
	    4);
	record_free(rec);
	ran_done(&f);
}

struct on_disk {
	const char *dir;
	bool checked;
};

/* At the first run: the record is on disk already, running, empty. */
static void
record_at_first_run(struct labrun *lr, const struct labrun_event *ev, void *arg)
{
	struct on_disk *d = arg;
	struct record *rec;
	struct err e;
	char *path;

	(void)lr;
	if (ev == NULL || ev->type != LABRUN_RUN || d->checked)
		return;
	d->checked = true;
	path = only_file(d->dir);
	cr_assert_not_null(path, "no record in %s when the first run starts",
	    d->dir);
	err_clear(&e);
	cr_assert_eq(record_load(path, &rec, &e), 0, "%s", e.msg);
	cr_assert_str_eq(record_status(rec->root), "running");
	cr_assert_eq(rec->nruns, 0);
	record_free(rec);
	free(path);
}

Test(labrun, runner_writes_its_record_from_the_start_to_the_end)
{
	char *tmp = temp_dir(), *text = two_by_two(tmp);
	char *res = xasprintf("%s/res", tmp), *path;
	struct lab *lab = load(text);
	struct labrun_opts o = { .repeats = 1,
		.tick_ms = 20,
		.record = true,
		.results = res };
	struct on_disk d = { .dir = res };
	struct labrun *lr = start(lab, &o);
	struct record *rec, *back;
	struct seen s;
	struct err e;

	drain(lr, &s, 100, record_at_first_run, &d);
	cr_assert(d.checked);
	rec = labrun_take_record(lr);
	cr_assert_not_null(rec);
	cr_assert_null(labrun_take_record(lr), "handed over once");
	path = only_file(res);
	cr_assert_str_eq(rec->path, path);
	err_clear(&e);
	cr_assert_eq(record_load(path, &back, &e), 0, "%s", e.msg);
	cr_assert_str_eq(record_status(back->root), "ok");
	cr_assert_eq(back->nruns, 4);
	cr_assert_str_eq(back->runs[3].variant, "b");
	cr_assert_str_eq(back->runs[3].workload, "w2");
	cr_assert_null(json_object_get(back->root, "in_progress"));
	cr_assert(json_equal(back->root, rec->root), "what was handed over");
	record_free(back);
	record_free(rec);
	free(path);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(res);
	free(text);
}
