/*
 * The lab runner as its front ends use it: a whole lab runs in the
 * background and every run comes back in order with its series; the
 * events tell the story in order; the counters of the run in progress
 * can be read while it runs; a stop ends the run within a second and
 * leaves the directory clean; a scratch btrfs raid1 variant is built,
 * measured, torn down and its build handed over (root); the precheck
 * refuses what the guards refuse, changing nothing; selections, repeats
 * and --target are honoured; the rounds go in the lab's order (interleaved
 * or grouped) and a range stops where its record says; the runner's own
 * record holds every run as `raidlab run` writes it.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "err.h"
#include "lab.h"
#include "labrun.h"
#include "record.h"
#include "result.h"
#include "xalloc.h"

/* ---------------------------------------------------------------- helpers */

static char *
temp_dir(void)
{
	char *d = xstrdup("/var/tmp/raidlab-labrun.XXXXXX");

	cr_assert_not_null(mkdtemp(d), "mkdtemp: %s", strerror(errno));
	return d;
}

static void
rm_rf(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	cr_assert_eq(system(cmd), 0);
	free(cmd);
}

static struct lab *
load(const char *text)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];

	errlist_init(&errs);
	if (lab_load_string(text, "test.cfg", &lab, &errs) < 0 ||
	    lab_check(lab, &errs) < 0)
		cr_assert_fail("lab: %s",
		    errs.n ? err_format(&errs.v[0], b, sizeof b) : "?");
	errlist_done(&errs);
	return lab;
}

/* Everything one run said and handed over, in order. */
struct seen {
	struct labrun_event *ev;
	size_t nev;
	struct labrun_result **r;
	size_t nr;
	char **devs; /* labrun_devices() when the first run started */
	size_t ndevs;
	bool devs_read;
};

typedef void (
    *seen_fn)(struct labrun *lr, const struct labrun_event *ev, void *arg);

/* Poll the runner like a front end until LABRUN_DONE (or fail after
   timeout_s); fn sees every event as it comes, and NULL every 20 ms. */
static void
drain(struct labrun *lr, struct seen *s, double timeout_s, seen_fn fn,
    void *arg)
{
	uint64_t end = wl_now_ns() + (uint64_t)(timeout_s * 1e9);
	struct labrun_event ev;
	bool done = false;

	memset(s, 0, sizeof *s);
	while (!done) {
		struct pollfd p = { labrun_fd(lr), POLLIN, 0 };

		cr_assert_lt(wl_now_ns(), end, "the run took more than %.0f s",
		    timeout_s);
		poll(&p, 1, 20);
		if (fn != NULL)
			fn(lr, NULL, arg);
		while (labrun_pop(lr, &ev)) {
			s->ev = xreallocarray(s->ev, s->nev + 1, sizeof *s->ev);
			s->ev[s->nev++] = ev;
			if (ev.type == LABRUN_RUN && !s->devs_read) {
				s->devs = labrun_devices(lr, &s->ndevs);
				s->devs_read = true;
			}
			if (ev.type == LABRUN_RESULT) {
				struct labrun_result *r = labrun_take(lr);

				cr_assert_not_null(r, "an announced item");
				s->r = xreallocarray(s->r, s->nr + 1,
				    sizeof *s->r);
				s->r[s->nr++] = r;
			}
			if (fn != NULL)
				fn(lr, &ev, arg);
			done |= ev.type == LABRUN_DONE;
		}
	}
	cr_assert_null(labrun_take(lr), "nothing left unannounced");
}

static void
seen_done(struct seen *s)
{
	for (size_t i = 0; i < s->nr; i++)
		labrun_result_free(s->r[i]);
	for (size_t i = 0; i < s->ndevs; i++)
		free(s->devs[i]);
	free(s->devs);
	free(s->r);
	free(s->ev);
}

static bool
dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	cr_assert_not_null(d, "opendir %s", dir);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* Two directory variants (created by the run) x two small workloads;
   more: more top-level keys ("" for none). */
static char *
two_by_two_with(const char *tmp, const char *more)
{
	return xasprintf(
	    "name = \"lr\"; cache = \"keep\"; repeats = 2; %s\n"
	    "variants = ( { name = \"a\"; directory = \"%s/a/sub\"; },\n"
	    "  { name = \"b\"; directory = \"%s/b\"; } );\n"
	    "workloads = ( { name = \"w1\"; type = \"smallfiles\"; "
	    "count = 30; dirs = 3; size = \"1K\"; sync = false; },\n"
	    "  { name = \"w2\"; type = \"smallfiles\"; counts = [10, 20]; "
	    "size = \"0\"; sync = false; } );\n",
	    more, tmp, tmp);
}

static char *
two_by_two(const char *tmp)
{
	return two_by_two_with(tmp, "");
}

/* A run that goes on until stopped. */
static char *
endless(const char *tmp)
{
	return xasprintf(
	    "name = \"long\"; cache = \"keep\"; repeats = 2;\n"
	    "variants = ( { name = \"d\"; directory = \"%s\"; } );\n"
	    "workloads = ( { type = \"smallfiles\"; count = 100000000; "
	    "size = \"0\"; sync = false; } );\n",
	    tmp);
}

static struct labrun *
start(const struct lab *lab, const struct labrun_opts *o)
{
	struct err e;
	struct labrun *lr;

	err_clear(&e);
	lr = labrun_start(lab, o, &e);
	cr_assert_not_null(lr, "labrun_start: %s", e.msg);
	return lr;
}

/* ---------------------------------------------------------------- runs */

static char *only_file(const char *dir);

/* The runner's record of a finished run: the one file in dir, as it
   was handed over. */
static struct record *
taken_record(struct labrun *lr, const char *dir)
{
	struct record *rec = labrun_take_record(lr), *back;
	char *path = only_file(dir);
	struct err e;

	cr_assert_not_null(rec);
	cr_assert_not_null(path, "no record in %s", dir);
	cr_assert_str_eq(rec->path, path);
	err_clear(&e);
	cr_assert_eq(record_load(path, &back, &e), 0, "%s", e.msg);
	cr_assert(json_equal(back->root, rec->root), "what was handed over");
	record_free(back);
	free(path);
	return rec;
}

static const char *
rounds_str(const struct record *rec, const char *key)
{
	return json_string_value(
	    json_object_get(record_rounds(rec->root), key));
}

static json_int_t
rounds_int(const struct record *rec, const char *key)
{
	return json_integer_value(
	    json_object_get(record_rounds(rec->root), key));
}

Test(labrun, two_variants_two_workloads_two_repeats_give_eight_results)
{
	char *tmp = temp_dir(), *text = two_by_two(tmp), *a, *b;
	char *res = xasprintf("%s/res", tmp);
	struct lab *lab = load(text);
	struct labrun_opts o = { .tick_ms = 20,
		.record = true,
		.results = res };
	struct labrun_summary sum;
	struct labrun *lr = start(lab, &o);
	struct record *rec;
	struct seen s;
	size_t i;

	/* The runner has its own copy: the front end may drop its lab. */
	lab_free(lab);
	drain(lr, &s, 100, NULL, NULL);
	cr_assert_eq(s.nr, 8, "%zu items", s.nr);
	/* Interleaved (the default): round 1 of a and b, then round 2 of
	   b and a (each round starts one variant later). */
	for (i = 0; i < 8; i++) {
		const struct labrun_result *r = s.r[i];

		cr_assert_eq(r->kind, LABRUN_ITEM_RUN);
		cr_assert_eq(r->variant, (int)((i / 2 + i / 4) % 2), "item %zu",
		    i);
		cr_assert_eq(r->workload, (int)(i % 2), "item %zu", i);
		cr_assert_eq(r->repeat, (int)(i / 4) + 1, "item %zu", i);
		cr_assert_not_null(r->res);
		cr_assert_eq(r->res->status, WL_OK, "item %zu: %s", i,
		    r->res->error ? r->res->error : "");
		cr_assert_gt(r->res->series.n, 0, "item %zu: no series", i);
		cr_assert_float_eq(r->res->tick, 0.02, 1e-9);
		cr_assert_eq(r->res->ntests, r->workload == 0 ? 1 : 2);
		cr_assert_null(r->skipped);
		cr_assert_not_null(r->target);
	}
	labrun_summary(lr, &sum);
	cr_assert(sum.done);
	cr_assert_eq(sum.ran, 8);
	cr_assert_eq(sum.failed, 0);
	cr_assert(!sum.refused && !sum.stopped);

	/* The runner's record: variant, workload, target, and its rounds. */
	rec = taken_record(lr, res);
	cr_assert_eq(rec->nruns, 8);
	cr_assert_str_eq(rec->runs[4].variant, "b");
	cr_assert_str_eq(rec->runs[4].workload, "w1");
	cr_assert_eq(rec->runs[4].repeat, 2);
	b = xasprintf("%s/b", tmp);
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(rec->runs[4].json,
						 "target"),
				 "path")),
	    b);
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

	/* mkdir -p made the directories; the runs left nothing. */
	a = xasprintf("%s/a/sub", tmp);
	cr_assert(dir_empty(a));
	cr_assert(dir_empty(b));
	free(a);
	free(b);
	seen_done(&s);
	labrun_free(lr);
	rm_rf(tmp);
	free(tmp);
	free(res);
	free(text);
}

Test(labrun, grouped_order_runs_variant_after_variant)
{
	char *tmp = temp_dir(),
	     *text = two_by_two_with(tmp, "order = \"grouped\";");
	char *res = xasprintf("%s/res", tmp);
	struct lab *lab = load(text);
	struct labrun_opts o = { .tick_ms = 20,
		.record = true,
		.results = res };
	struct labrun *lr = start(lab, &o);
	struct record *rec;
	struct seen s;

	drain(lr, &s, 100, NULL, NULL);
	cr_assert_eq(s.nr, 8, "%zu items", s.nr);
	for (size_t i = 0; i < 8; i++) {
		cr_assert_eq(s.r[i]->variant, (int)(i / 4), "item %zu", i);
		cr_assert_eq(s.r[i]->workload, (int)(i / 2 % 2), "item %zu", i);
		cr_assert_eq(s.r[i]->repeat, (int)(i % 2) + 1, "item %zu", i);
	}
	rec = taken_record(lr, res);
	cr_assert_str_eq(rounds_str(rec, "order"), "grouped");
	cr_assert_str_eq(record_order(rec->root), "grouped");
	cr_assert_not_null(record_rounds_why(rec->root));
	record_free(rec);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(res);
	free(text);
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

Test(labrun, events_arrive_in_order)
{
	char *tmp = temp_dir(),
	     *text = two_by_two_with(tmp, "order = \"grouped\";");
	struct lab *lab = load(text);
	struct labrun_opts o = { .tick_ms = 20 };
	struct labrun *lr = start(lab, &o);
	int variants = 0, runs = 0, results = 0, cur_v = -1;
	bool in_run = false, in_test = false;
	char test_key[48] = "";
	struct seen s;

	drain(lr, &s, 100, NULL, NULL);
	cr_assert_gt(s.nev, 0);
	cr_assert_eq(s.ev[0].type, LABRUN_VARIANT, "first: a variant");
	cr_assert_eq(s.ev[s.nev - 1].type, LABRUN_DONE, "last: done");
	for (size_t i = 0; i < s.nev; i++) {
		const struct labrun_event *ev = &s.ev[i];

		switch (ev->type) {
		case LABRUN_VARIANT:
			cr_assert(!in_run, "event %zu: variant inside a run",
			    i);
			cr_assert_eq(ev->variant, variants, "event %zu", i);
			cr_assert_str_eq(ev->text, variants ? "b" : "a");
			cr_assert_str_eq(ev->key, "directory");
			cur_v = ev->variant;
			variants++;
			break;
		case LABRUN_RUN:
			cr_assert(!in_run, "event %zu: run inside a run", i);
			cr_assert_eq(ev->variant, cur_v);
			cr_assert_eq(ev->workload, runs / 2 % 2);
			cr_assert_eq(ev->repeat, runs % 2 + 1);
			cr_assert_eq(ev->total, 2);
			cr_assert_str_eq(ev->text, runs / 2 % 2 ? "w2" : "w1");
			/* The second repeat knows how long the first took. */
			cr_assert(
			    ev->repeat == 1 ? ev->value == 0 : ev->value > 0);
			in_run = true;
			runs++;
			break;
		case LABRUN_TEST:
			cr_assert(in_run, "event %zu: test outside a run", i);
			cr_assert_eq(ev->variant, cur_v);
			cr_assert_eq(ev->repeat, (runs - 1) % 2 + 1);
			if (!ev->end) {
				cr_assert(!in_test);
				snprintf(test_key, sizeof test_key, "%s",
				    ev->key);
			} else {
				cr_assert(in_test, "event %zu: end first", i);
				cr_assert_str_eq(ev->key, test_key);
				cr_assert_gt(ev->value, 0);
				cr_assert_eq(ev->unit, WL_UNIT_FILES_S);
			}
			in_test = !ev->end;
			break;
		case LABRUN_RESULT:
			cr_assert(in_run && !in_test, "event %zu", i);
			in_run = false;
			results++;
			break;
		case LABRUN_STEP:
		case LABRUN_NOTE:
			cr_assert(ev->workload < 0 || in_run);
			break;
		case LABRUN_ERROR:
			cr_assert_fail("error: %s", ev->text);
			break;
		case LABRUN_RESYNC:
			cr_assert_fail("a resync on a directory");
			break;
		case LABRUN_DONE:
			cr_assert_eq(i, s.nev - 1);
			break;
		}
	}
	cr_assert_eq(variants, 2);
	cr_assert_eq(runs, 8);
	cr_assert_eq(results, 8);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

/* The files counter, read as the TUI would while the run goes on. */
struct watch {
	uint64_t first, last; /* files at the first and last reading */
	int readings;
	bool stop_sent;
	uint64_t stop_at; /* ns */
	char dir_during[4096]; /* the run's private directory existed */
};

static void
watch_totals(struct labrun *lr, const struct labrun_event *ev, void *arg)
{
	struct watch *w = arg;
	struct engine_totals t;

	if (ev != NULL || !labrun_totals(lr, &t) || t.files == 0)
		return;
	if (w->readings++ == 0)
		w->first = t.files;
	cr_assert_geq(t.files, w->last, "counters never go back");
	w->last = t.files;
	if (w->readings >= 10 && !w->stop_sent) {
		labrun_stop(lr);
		w->stop_sent = true;
	}
}

Test(labrun, totals_grow_while_a_run_goes_on)
{
	char *tmp = temp_dir(), *text = endless(tmp);
	struct lab *lab = load(text);
	struct labrun_opts o = { .tick_ms = 50 };
	struct labrun *lr = start(lab, &o);
	struct engine_totals t;
	struct watch w = { 0 };
	struct seen s;

	drain(lr, &s, 50, watch_totals, &w);
	cr_assert_geq(w.readings, 10);
	cr_assert_gt(w.last, w.first, "files grew: %llu -> %llu",
	    (unsigned long long)w.first, (unsigned long long)w.last);
	/* Between runs and after the end there is nothing to read. */
	cr_assert(!labrun_totals(lr, &t));
	cr_assert_eq(t.files, 0);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

/* Which run each reading came from, as the live views tell runs apart:
   a new number starts the counters from zero. */
struct gens {
	unsigned long gen[8]; /* distinct, in the order seen */
	size_t n;
	uint64_t last_written; /* within the current one */
	bool back; /* a counter went back within one run */
};

static void
watch_gens(struct labrun *lr, const struct labrun_event *ev, void *arg)
{
	struct gens *g = arg;
	struct engine_totals t;
	unsigned long gen;

	if (ev != NULL || (gen = labrun_totals(lr, &t)) == 0)
		return;
	if (g->n == 0 || g->gen[g->n - 1] != gen) {
		if (g->n < 8)
			g->gen[g->n++] = gen;
		g->last_written = 0;
	}
	if (t.bytes_written < g->last_written)
		g->back = true;
	g->last_written = t.bytes_written;
}

Test(labrun, each_workload_run_is_told_apart)
{
	char *tmp = temp_dir();
	/* two repeats of a timed write: each run is read many times */
	char *text = xasprintf("name = \"g\"; cache = \"keep\"; repeats = 2;\n"
			       "variants = ( { name = \"d\"; directory = "
			       "\"%s\"; } );\n"
			       "workloads = ( { type = \"fio\"; rw = "
			       "\"write\"; size = \"1M\"; runtime = 1; } );\n",
	    tmp);
	struct lab *lab = load(text);
	struct labrun_opts o = { .tick_ms = 50 };
	struct labrun *lr = start(lab, &o);
	struct gens g = { 0 };
	struct seen s;

	drain(lr, &s, 50, watch_gens, &g);
	cr_assert_eq(s.nr, 2);
	cr_assert_eq(g.n, 2, "%zu runs seen", g.n);
	cr_assert_lt(g.gen[0], g.gen[1]);
	cr_assert_not(g.back, "a counter went back within one run");
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

static void
stop_when_busy(struct labrun *lr, const struct labrun_event *ev, void *arg)
{
	struct watch *w = arg;
	struct engine_totals t;

	(void)ev;
	if (w->stop_sent || !labrun_totals(lr, &t) || t.files < 100)
		return;
	w->stop_at = wl_now_ns();
	labrun_stop(lr);
	w->stop_sent = true;
}

Test(labrun, stop_mid_run_ends_within_a_second_and_leaves_it_clean)
{
	char *tmp = temp_dir(), *text = endless(tmp);
	struct lab *lab = load(text);
	struct labrun_opts o = { .tick_ms = 50 };
	struct labrun *lr = start(lab, &o);
	struct labrun_summary sum;
	struct watch w = { 0 };
	struct seen s;
	double took;

	drain(lr, &s, 50, stop_when_busy, &w);
	took = (double)(wl_now_ns() - w.stop_at) / 1e9;
	cr_assert(w.stop_sent);
	cr_assert_lt(took, 1.0, "stopping took %.2f s", took);
	/* One interrupted run; its second repeat never started. */
	cr_assert_eq(s.nr, 1);
	cr_assert_not_null(s.r[0]->res);
	cr_assert_eq(s.r[0]->res->status, WL_INTERRUPTED);
	cr_assert(
	    s.r[0]->res->ntests >= 1 && s.r[0]->res->tests[0].interrupted);
	cr_assert(dir_empty(tmp), "files left in %s", tmp);
	labrun_summary(lr, &sum);
	cr_assert(sum.stopped && sum.done);
	cr_assert_eq(sum.ran, 1);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

Test(labrun, free_while_running_stops_and_joins)
{
	char *tmp = temp_dir(), *text = endless(tmp);
	struct lab *lab = load(text);
	struct labrun_opts o = { 0 };
	struct labrun *lr = start(lab, &o);
	struct engine_totals t;

	for (int i = 0; !labrun_totals(lr, &t) || t.files == 0; i++) {
		cr_assert_lt(i, 3000, "the run never started");
		usleep(10000);
	}
	labrun_free(lr);
	cr_assert(dir_empty(tmp));
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

Test(labrun, selection_repeats_and_target_are_honoured)
{
	char *tmp = temp_dir(), *text = two_by_two(tmp), *t;
	struct lab *lab = load(text);
	const bool vsel[] = { false, true }, wsel[] = { false, true };
	struct labrun_opts o = { .variants = vsel,
		.workloads = wsel,
		.repeats = 1,
		.tick_ms = 20 };
	struct labrun *lr = start(lab, &o);
	struct seen s;

	drain(lr, &s, 100, NULL, NULL);
	cr_assert_eq(s.nr, 1);
	cr_assert_eq(s.r[0]->variant, 1);
	cr_assert_eq(s.r[0]->workload, 1);
	cr_assert_eq(s.r[0]->repeat, 1);
	seen_done(&s);
	labrun_free(lr);

	/* --target: one variant named "target", the lab's are left. */
	t = xasprintf("%s/t", tmp);
	cr_assert_eq(mkdir(t, 0755), 0);
	o.variants = NULL;
	o.target = t;
	lr = start(lab, &o);
	drain(lr, &s, 100, NULL, NULL);
	cr_assert_str_eq(labrun_variant(lr, 0)->name, "target");
	cr_assert_null(labrun_variant(lr, 1));
	cr_assert_eq(s.nr, 1);
	cr_assert_eq(s.r[0]->variant, 0);
	cr_assert_str_eq(s.r[0]->dir, t);
	seen_done(&s);
	labrun_free(lr);
	free(t);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

/* The one record (*.json) in dir, or NULL. The runner may be saving it
   meanwhile: its temp file (NAME.json.XXXXXX) does not count. */
static char *
only_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *path = NULL;
	size_t n;

	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		n = strlen(e->d_name);
		if (e->d_name[0] == '.' || n < 5 ||
		    strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		cr_assert_null(path, "more than one file in %s", dir);
		path = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	return path;
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

/* ---------------------------------------------------------------- arrays */

static bool
has_msg(const struct labrun_check *c, const char *part)
{
	for (size_t i = 0; i < c->nmsgs; i++)
		if (strstr(c->msgs[i].text, part) != NULL)
			return true;
	return false;
}

Test(labrun, precheck_refuses_and_nothing_runs)
{
	static const char text[] =
	    "name = \"g\";\n"
	    "variants = ( { name = \"g1\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; devices = "
	    "[\"/dev/null\", \"/dev/zero\"]; }; } );\n"
	    "workloads = ( { type = \"smallfiles\"; counts = [10]; } );\n";
	struct lab *lab = load(text);
	struct labrun_opts o = { 0 };
	struct labrun_check c;
	struct labrun_summary sum;
	struct labrun *lr;
	struct seen s;
	bool refusal = false;

	/* as another user, "building arrays needs root" comes first */
	if (geteuid() != 0) {
		lab_free(lab);
		cr_skip_test("the device guards run as root only");
	}
	cr_assert_eq(labrun_check(lab, &o, &c), -EPERM);
	cr_assert_eq(c.rc, -EPERM);
	cr_assert(has_msg(&c,
	    "test.cfg:3: variants.g1.array.devices: /dev/null: not a "
	    "block device"));
	cr_assert(has_msg(&c, "refused: nothing was changed"));
	cr_assert_not_null(strstr(c.plans, "mkfs.btrfs"), "%s", c.plans);
	cr_assert_eq(c.ndestroy, 0);
	labrun_check_done(&c);

	lr = start(lab, &o);
	drain(lr, &s, 50, NULL, NULL);
	for (size_t i = 0; i < s.nev; i++) {
		cr_assert_neq(s.ev[i].type, LABRUN_VARIANT);
		cr_assert_neq(s.ev[i].type, LABRUN_RUN);
		if (s.ev[i].type == LABRUN_ERROR &&
		    strstr(s.ev[i].text, "/dev/zero: not a block device"))
			refusal = true;
	}
	cr_assert(refusal, "the refusal is told");
	cr_assert_eq(s.nr, 0);
	labrun_summary(lr, &sum);
	cr_assert(sum.refused && sum.done);
	cr_assert_eq(sum.failed, 1);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
}

/* losetup -f --show over a new sparse file of size MiB in dir. */
static char *
new_loop(const char *dir, int i, int mib)
{
	char *cmd = xasprintf("truncate -s %dM '%s/d%d.img' && "
			      "losetup -f --show '%s/d%d.img'",
	    mib, dir, i, dir, i);
	char line[256] = "";
	FILE *p = popen(cmd, "r");

	cr_assert_not_null(p);
	if (fgets(line, sizeof line, p) == NULL)
		line[0] = '\0';
	pclose(p);
	free(cmd);
	line[strcspn(line, "\n")] = '\0';
	return strncmp(line, "/dev/loop", 9) == 0 ? xstrdup(line) : NULL;
}

static void
drop_loop(char *dev)
{
	char *cmd;

	if (dev == NULL)
		return;
	cmd = xasprintf("losetup -d %s", dev);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	free(dev);
}

Test(labrun, check_lists_what_a_confirmation_must_name)
{
	char *tmp, *a = NULL, *b = NULL, *text, *cmd;
	struct labrun_opts o = { 0 };
	struct labrun_check c, c2;
	struct lab *lab;

	if (geteuid() != 0)
		cr_skip_test("needs root for loop devices");
	if (system("command -v mkfs.ext4 >/dev/null 2>&1") != 0)
		cr_skip_test("mkfs.ext4 not installed");
	tmp = temp_dir();
	a = new_loop(tmp, 0, 64);
	b = new_loop(tmp, 1, 64);
	if (a == NULL || b == NULL) {
		drop_loop(a);
		drop_loop(b);
		rm_rf(tmp);
		free(tmp);
		cr_skip_test("no loop device available");
	}
	cmd = xasprintf("mkfs.ext4 -q -F -L lrdata %s >/dev/null 2>&1", a);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	text = xasprintf("name = \"c\";\n"
			 "variants = ( { name = \"c1\";\n"
			 "  array = { engine = \"btrfs\"; level = \"raid1\"; "
			 "devices = [\"%s\", \"%s\"]; }; } );\n"
			 "workloads = ( { type = \"smallfiles\"; } );\n",
	    a, b);
	lab = load(text);
	cr_assert_eq(labrun_check(lab, &o, &c), -EPERM);
	cr_assert_eq(c.ndestroy, 1);
	cr_assert_str_eq(c.destroy[0], a);
	cr_assert_not_null(strstr(c.destroy_text, "ext4"), "%s",
	    c.destroy_text);
	/* Confirmed as listed, the check passes and nothing was touched. */
	o.confirmed = (const char *const *)c.destroy;
	o.nconfirmed = c.ndestroy;
	cr_assert_eq(labrun_check(lab, &o, &c2), 0, "%s",
	    c2.nmsgs ? c2.msgs[0].text : "");
	cr_assert_eq(c2.ndestroy, 1);
	cmd = xasprintf("blkid -p -s LABEL -o value %s | grep -qx lrdata", a);
	cr_assert_eq(system(cmd), 0, "the data is still there");
	free(cmd);
	labrun_check_done(&c2);
	labrun_check_done(&c);
	lab_free(lab);
	drop_loop(a);
	drop_loop(b);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

/* Loop devices still attached over a file of dir. */
static bool
loops_over(const char *dir)
{
	char *cmd =
	    xasprintf("losetup -n -O BACK-FILE -l | grep -qF '%s/'", dir);
	int rc = system(cmd);

	free(cmd);
	return rc == 0;
}

static const char *
build_status(const json_t *b)
{
	return json_string_value(json_object_get(b, "status"));
}

Test(labrun, scratch_btrfs_raid1_is_built_measured_and_torn_down)
{
	char *tmp, *text, *state, *res;
	struct labrun_opts o = { .tick_ms = 50, .record = true };
	struct labrun_result *run = NULL, *first = NULL, *last = NULL;
	struct labrun_summary sum;
	struct record *rec;
	struct labrun *lr;
	struct lab *lab;
	struct seen s;
	bool step = false, scratch_note = false, loops = false;
	json_t *builds;

	if (geteuid() != 0)
		cr_skip_test("needs root for loop devices and mounts");
	if (system("command -v mkfs.btrfs >/dev/null 2>&1") != 0)
		cr_skip_test("mkfs.btrfs not installed");
	tmp = temp_dir();
	state = xasprintf("%s/state", tmp);
	res = xasprintf("%s/res", tmp);
	o.results = res;
	setenv("RAIDLAB_STATE_DIR", state, 1);
	text = xasprintf(
	    "name = \"lrb\"; cache = \"keep\";\n"
	    "variants = ( { name = \"lrb1\"; scratch = { count = 2; "
	    "size = \"256M\"; dir = \"%s\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; }; } );\n"
	    "workloads = ( { type = \"smallfiles\"; counts = [50]; } );\n",
	    tmp);
	lab = load(text);
	lr = start(lab, &o);
	drain(lr, &s, 250, NULL, NULL);
	for (size_t i = 0; i < s.nev; i++) {
		step |= s.ev[i].type == LABRUN_STEP && s.ev[i].workload < 0 &&
		    strncmp(s.ev[i].text, "mkfs.btrfs", 10) == 0;
		scratch_note |= s.ev[i].type == LABRUN_NOTE &&
		    strstr(s.ev[i].text, "lrb1: scratch:") != NULL;
		cr_assert_neq(s.ev[i].type, LABRUN_ERROR, "%s", s.ev[i].text);
	}
	cr_assert(step, "mkfs.btrfs is told as a step");
	cr_assert(scratch_note, "the scratch label is told");
	for (size_t i = 0; i < s.ndevs; i++)
		loops |= strncmp(s.devs[i], "loop", 4) == 0;
	cr_assert(loops, "the members are loop devices (%zu devices)", s.ndevs);

	/* A snapshot once built, the run, the final build after teardown. */
	cr_assert_eq(s.nr, 3);
	first = s.r[0];
	run = s.r[1];
	last = s.r[2];
	cr_assert_eq(first->kind, LABRUN_ITEM_BUILD);
	cr_assert(!first->final);
	cr_assert_str_eq(build_status(first->build), "built");
	cr_assert_eq(run->kind, LABRUN_ITEM_RUN);
	cr_assert_eq(run->res->status, WL_OK);
	cr_assert_str_eq(json_string_value(
			     json_object_get(run->target, "fstype")),
	    "btrfs");
	cr_assert_eq(last->kind, LABRUN_ITEM_BUILD);
	cr_assert(last->final);
	cr_assert_eq(last->build_index, 0);
	cr_assert_str_eq(build_status(last->build), "ok");
	cr_assert_gt(json_array_size(json_object_get(last->build, "teardown")),
	    0);

	/* The runner's record: one build (the final one), one run. */
	rec = taken_record(lr, res);
	builds = json_object_get(rec->root, "builds");
	cr_assert_eq(json_array_size(builds), 1);
	cr_assert_str_eq(build_status(json_array_get(builds, 0)), "ok");
	cr_assert_eq(rec->nruns, 1);

	labrun_summary(lr, &sum);
	cr_assert_eq(sum.failed, 0);
	cr_assert_eq(sum.ran, 1);
	cr_assert(!loops_over(tmp), "a loop device is left");
	record_free(rec);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(state);
	free(res);
	free(tmp);
	free(text);
}
