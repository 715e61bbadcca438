/*
 * The lab runner as its front ends use it: a whole lab runs in the
 * background and every run comes back in order with its series; the
 * events tell the story in order; the counters of the run in progress
 * can be read while it runs; a stop ends the run at once (no file after
 * the one in hand) and leaves the directory clean; selections, repeats
 * and --target are honoured. The helpers of the test-labrun program
 * (unit-labrun.h) live here; arrays, fault phases, the runner's record
 * and the rounds are in test-labrun-build.c, test-labrun-phase.c,
 * test-labrun-record.c and test-labrun-rounds.c.
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

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "measure/engine.h"
#include "measure/result.h"
#include "results/record.h"
#include "run/labrun.h"
#include "unit-labrun.h"

/* ---------------------------------------------------------------- helpers */

char *
temp_dir(void)
{
	char *d = xstrdup("/var/tmp/raidlab-labrun.XXXXXX");

	cr_assert_not_null(mkdtemp(d), "mkdtemp: %s", strerror(errno));
	return d;
}

void
rm_rf(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	cr_assert_eq(system(cmd), 0);
	free(cmd);
}

struct lab *
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

/* Poll the runner like a front end until LABRUN_DONE (or fail after
   timeout_s); fn sees every event as it comes, and NULL every 20 ms. */
void
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

void
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

bool
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
char *
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

char *
two_by_two(const char *tmp)
{
	return two_by_two_with(tmp, "");
}

/* A run that goes on until stopped. */
char *
endless(const char *tmp)
{
	return xasprintf(
	    "name = \"long\"; cache = \"keep\"; repeats = 2;\n"
	    "variants = ( { name = \"d\"; directory = \"%s\"; } );\n"
	    "workloads = ( { type = \"smallfiles\"; count = 100000000; "
	    "size = \"0\"; sync = false; } );\n",
	    tmp);
}

struct labrun *
start(const struct lab *lab, const struct labrun_opts *o)
{
	struct err e;
	struct labrun *lr;

	err_clear(&e);
	lr = labrun_start(lab, o, &e);
	cr_assert_not_null(lr, "labrun_start: %s", e.msg);
	return lr;
}

/* The one record (*.json) in dir, or NULL. The runner may be saving it
   meanwhile: its temp file (NAME.json.XXXXXX) does not count. */
char *
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

/* The runner's record of a finished run: the one file in dir, as it
   was handed over. */
struct record *
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

const char *
rounds_str(const struct record *rec, const char *key)
{
	return json_string_value(
	    json_object_get(record_rounds(rec->root), key));
}

json_int_t
rounds_int(const struct record *rec, const char *key)
{
	return json_integer_value(
	    json_object_get(record_rounds(rec->root), key));
}

void
ran_two_by_two(struct ran *f, const char *more)
{
	struct lab *lab;
	struct labrun_opts o = { .tick_ms = 20, .record = true };

	f->tmp = temp_dir();
	f->text = two_by_two_with(f->tmp, more);
	f->res = xasprintf("%s/res", f->tmp);
	o.results = f->res;
	lab = load(f->text);
	f->lr = start(lab, &o);
	/* The runner has its own copy: the front end may drop its lab. */
	lab_free(lab);
	drain(f->lr, &f->s, 100, NULL, NULL);
}

void
ran_done(struct ran *f)
{
	seen_done(&f->s);
	labrun_free(f->lr);
	rm_rf(f->tmp);
	free(f->tmp);
	free(f->res);
	free(f->text);
}

Test(labrun, two_variants_two_workloads_two_repeats_give_eight_results)
{
	struct labrun_summary sum;
	struct ran f;
	char *a, *b;

	ran_two_by_two(&f, "");
	cr_assert_eq(f.s.nr, 8, "%zu items", f.s.nr);
	/* Interleaved (the default): round 1 of a and b, then round 2 of
	   b and a (each round starts one variant later). */
	for (size_t i = 0; i < 8; i++) {
		const struct labrun_result *r = f.s.r[i];

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
	labrun_summary(f.lr, &sum);
	cr_assert(sum.done);
	cr_assert_eq(sum.ran, 8);
	cr_assert_eq(sum.failed, 0);
	cr_assert(!sum.refused && !sum.stopped);
	/* mkdir -p made the directories; the runs left nothing. */
	a = xasprintf("%s/a/sub", f.tmp);
	b = xasprintf("%s/b", f.tmp);
	cr_assert(dir_empty(a));
	cr_assert(dir_empty(b));
	free(a);
	free(b);
	ran_done(&f);
}

/* Variants, the runs inside them and their results, in order: the
   grouped two-by-two lab's story as a front end reads it. */
Test(labrun, events_arrive_in_order)
{
	int variants = 0, runs = 0, results = 0, cur_v = -1;
	bool in_run = false;
	struct ran f;

	ran_two_by_two(&f, "order = \"grouped\";");
	cr_assert_gt(f.s.nev, 0);
	cr_assert_eq(f.s.ev[0].type, LABRUN_VARIANT, "first: a variant");
	cr_assert_eq(f.s.ev[f.s.nev - 1].type, LABRUN_DONE, "last: done");
	for (size_t i = 0; i < f.s.nev; i++) {
		const struct labrun_event *ev = &f.s.ev[i];

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
		case LABRUN_RESULT:
			cr_assert(in_run, "event %zu: a result outside a run",
			    i);
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
		case LABRUN_PHASE:
			cr_assert_fail("a fault phase on a directory");
			break;
		case LABRUN_TEST: /* labrun.tests_start_and_end_inside_their_run
				   */
			break;
		case LABRUN_DONE:
			cr_assert_eq(i, f.s.nev - 1);
			break;
		}
	}
	cr_assert_eq(variants, 2);
	cr_assert_eq(runs, 8);
	cr_assert_eq(results, 8);
	ran_done(&f);
}

/* Each test of a run starts and ends inside it, before its result, the
   end with the figure. */
Test(labrun, tests_start_and_end_inside_their_run)
{
	bool in_run = false, in_test = false;
	char test_key[48] = "";
	int runs = 0, cur_v = -1;
	struct ran f;

	ran_two_by_two(&f, "order = \"grouped\";");
	for (size_t i = 0; i < f.s.nev; i++) {
		const struct labrun_event *ev = &f.s.ev[i];

		if (ev->type == LABRUN_VARIANT)
			cur_v = ev->variant;
		if (ev->type == LABRUN_RUN) {
			in_run = true;
			runs++;
		}
		if (ev->type == LABRUN_RESULT) {
			cr_assert(!in_test, "event %zu: a result mid-test", i);
			in_run = false;
		}
		if (ev->type != LABRUN_TEST)
			continue;
		cr_assert(in_run, "event %zu: test outside a run", i);
		cr_assert_eq(ev->variant, cur_v);
		cr_assert_eq(ev->repeat, (runs - 1) % 2 + 1);
		if (!ev->end) {
			cr_assert(!in_test);
			snprintf(test_key, sizeof test_key, "%s", ev->key);
		} else {
			cr_assert(in_test, "event %zu: end first", i);
			cr_assert_str_eq(ev->key, test_key);
			cr_assert_gt(ev->value, 0);
			cr_assert_eq(ev->unit, WL_UNIT_FILES_S);
		}
		in_test = !ev->end;
	}
	cr_assert_eq(runs, 8);
	ran_done(&f);
}

/* The files counter, read as the TUI would while the run goes on. */
struct watch {
	uint64_t first, last; /* files at the first and last reading */
	int readings;
	bool stop_sent;
	bool read_at_stop; /* the run was still there to read after it */
	uint64_t at_stop; /* files counted once labrun_stop() returned */
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

	unsigned long gen;

	(void)ev;
	if (w->stop_sent || (gen = labrun_totals(lr, &t)) == 0 || t.files < 100)
		return;
	labrun_stop(lr);
	w->stop_sent = true;
	/* A run that ended already can add nothing: then there is nothing
	   to read, and nothing to check. */
	if (labrun_totals(lr, &t) == gen) {
		w->at_stop = t.files;
		w->read_at_stop = true;
	}
}

Test(labrun, stop_mid_run_ends_the_run_at_once_and_leaves_it_clean)
{
	char *tmp = temp_dir(), *text = endless(tmp);
	struct lab *lab = load(text);
	struct labrun_opts o = { .tick_ms = 50 };
	struct labrun *lr = start(lab, &o);
	struct labrun_summary sum;
	struct watch w = { 0 };
	const struct wl_test *t;
	struct seen s;

	/* 50 s: a hang catcher (an endless run that missed the stop), far
	   from the few ticks a stop takes. */
	drain(lr, &s, 50, stop_when_busy, &w);
	cr_assert(w.stop_sent);
	/* One interrupted run; its second repeat never started. */
	cr_assert_eq(s.nr, 1);
	cr_assert_not_null(s.r[0]->res);
	cr_assert_eq(s.r[0]->res->status, WL_INTERRUPTED);
	cr_assert(
	    s.r[0]->res->ntests >= 1 && s.r[0]->res->tests[0].interrupted);
	/* At once: the one worker makes at most the file it had begun when
	   the stop came, where a stop left to the next tick lets it make
	   a tick's worth. */
	t = &s.r[0]->res->tests[0];
	if (w.read_at_stop)
		cr_assert_leq(t->files, w.at_stop + 1,
		    "%llu files at the stop, %llu at the end",
		    (unsigned long long)w.at_stop,
		    (unsigned long long)t->files);
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
