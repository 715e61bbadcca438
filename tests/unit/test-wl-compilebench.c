/*
 * compilebench through the real engine (wl-compilebench): the record
 * names the data set it ran; a full filesystem fails cleanly, a stop
 * mid-run is interrupted and clean, a tree smaller than its file count
 * is refused; the report prints compilebench's lines over repeats; each
 * start event says which step of how many. The model of the trees
 * (unit-compilebench.h) lives here; the operations and the plan are in
 * test-wl-compilebench-ops.c and test-wl-compilebench-plan.c.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "measure/tree.h"
#include "unit-compilebench.h"
#include "wltest.h"

/* The lists of the tiny tree, recomputed from the generator. */
void
model_init(struct model *m)
{
	struct tree_spec spec;
	struct tree patched;
	size_t i;

	memset(m, 0, sizeof *m);
	tree_spec_default(&spec);
	spec.files = TINY_FILES;
	spec.bytes = TINY_BYTES;
	cr_assert_eq(tree_generate(&spec, &m->clean), 0);
	/* The default share: compilebench's 6136 of 21280 files. */
	cr_assert_eq(tree_patch(&m->clean, spec.seed, 288, &m->patch), 0);
	m->psize = xcalloc(m->clean.nfiles, sizeof *m->psize);
	for (i = 0; i < m->clean.nfiles; i++)
		m->psize[i] = m->clean.files[i].size;
	for (i = 0; i < m->patch.nfiles; i++) {
		const struct tree_file *f = &m->patch.files[i];

		if (f->src == TREE_NO_SRC) { /* a new file */
			m->src_patched_bytes += f->size;
			m->p_new++;
		} else if (f->size == m->clean.files[f->src].size) {
			continue;
		} else {
			m->psize[f->src] = f->size;
		}
		m->p_bytes += f->size;
		m->p_n++;
	}
	for (i = 0; i < m->clean.nfiles; i++)
		m->src_patched_bytes += m->psize[i];
	patched = m->clean;
	patched.files = xcalloc(m->clean.nfiles, sizeof *patched.files);
	memcpy(patched.files, m->clean.files,
	    m->clean.nfiles * sizeof *patched.files);
	for (i = 0; i < m->clean.nfiles; i++)
		patched.files[i].size = m->psize[i];
	cr_assert_eq(tree_objects(&m->clean, &m->objs), 0);
	cr_assert_eq(tree_objects(&patched, &m->objs_patched), 0);
	free(patched.files);
	cr_assert_eq(m->objs.nfiles, m->objs_patched.nfiles);
	m->in_changed = xcalloc(m->objs.nfiles, sizeof *m->in_changed);
	for (i = 0; i < m->objs.nfiles; i++) {
		cr_assert_str_eq(m->objs.files[i].path,
		    m->objs_patched.files[i].path);
		if (m->objs.files[i].size == m->objs_patched.files[i].size)
			continue;
		m->in_changed[i] = true;
		m->c_bytes += m->objs_patched.files[i].size;
		m->c_old_bytes += m->objs.files[i].size;
		m->c_n++;
	}
	cr_assert_gt(m->p_n, 0);
	cr_assert_gt(m->c_n, 0);
}

void
model_done(struct model *m)
{
	tree_free(&m->clean);
	tree_free(&m->patch);
	tree_free(&m->objs);
	tree_free(&m->objs_patched);
	free(m->psize);
	free(m->in_changed);
}

/* The record says which data set ran: synthetic, its counts and bytes. */
Test(compilebench, record_names_the_data_set)
{
	struct wltest_target tg;
	struct wl_result *r;
	struct model m;
	char want[256];
	bool found = false;

	model_init(&m);
	snprintf(want, sizeof want,
	    "synthetic kernel tree (generator %d, seed %d): %zu files of "
	    "%llu bytes, a build of %zu files of %llu bytes",
	    TREE_VERSION, TREE_DEFAULT_SEED, m.clean.nfiles,
	    (unsigned long long)m.clean.bytes, m.objs.nfiles,
	    (unsigned long long)m.objs.bytes);
	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench, TINY "initial = 1; runs = 0;", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	for (size_t i = 0; i < r->nnotes; i++)
		found = found || strstr(r->notes[i], want) != NULL;
	cr_assert(found, "no note says \"%s\"", want);
	wl_result_free(r);
	wltest_target_free(&tg);
	model_done(&m);
}

Test(compilebench, full_filesystem_fails_cleanly)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 16 << 20);
	r = wltest_run(&wl_compilebench, TINY "initial = 30; runs = 10;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert_not_null(r->error);
	cr_assert(strstr(r->error, "No space left on device") != NULL, "%s",
	    r->error);
	cr_assert(strstr(r->error, "/kernel-") != NULL, "names no file: %s",
	    r->error);
	cr_assert_lt(r->ntests, 30);
	cr_assert(wltest_dir_empty(tg.dir), "files left behind");
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(compilebench, stop_mid_run_is_interrupted_and_clean)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench,
	    TINY "initial = 10000; runs = 0; sync = false;", tg.dir,
	    LAB_CACHE_KEEP, wltest_stop_when,
	    &(struct wltest_stop){ .files = 5 * TINY_FILES + 50 }, 60);
	cr_assert_eq(r->status, WL_INTERRUPTED, "%s", r->error ? r->error : "");
	cr_assert_geq(r->ntests, 1);
	cr_assert_lt(r->ntests, 10000);
	cr_assert(r->tests[r->ntests - 1].interrupted);
	/* A loose bound: a loaded machine slows the part before the stop. */
	cr_assert_lt(r->wall, 60.0);
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(compilebench, a_tree_smaller_than_its_file_count_is_refused)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench, "files = 100; size = 10;", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 30);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert(strstr(r->error, "each file needs") != NULL, "%s", r->error);
	cr_assert_eq(r->ntests, 0);
	wl_result_free(r);
	wltest_target_free(&tg);
}

static void
add(struct wl_result *r, const char *key, enum wl_unit unit, double value,
    double user, double sys)
{
	struct wl_test *t = wl_result_add_test(r, key, key, unit);

	t->value = value;
	t->user = user;
	t->sys = sys;
}

Test(compilebench, report_prints_compilebench_lines_over_repeats)
{
	struct wl_result *a = wl_result_new("compilebench", "cb");
	struct wl_result *b = wl_result_new("compilebench", "cb");
	const struct wl_result *res[2] = { a, b };
	struct strbuf out;

	add(a, "initial_create", WL_UNIT_MIBPS, 100, 0.4, 0.5);
	add(b, "initial_create", WL_UNIT_MIBPS, 200, 0.6, 0.7);
	add(a, "read_tree", WL_UNIT_MIBPS, 20, 0.5, 0.7);
	add(b, "delete_tree", WL_UNIT_SECONDS, 2.5, 0.2, 0.4);
	add(b, "delete_tree", WL_UNIT_SECONDS, 3.5, 0.4, 0.6);
	add(b, "stat_compiled", WL_UNIT_SECONDS, 1, 0.1, 0.1);
	b->tests[b->ntests - 1].interrupted = true;
	strbuf_init(&out);
	wl_compilebench.report(res, 2, &out);
	cr_assert_str_eq(out.s,
	    "2 runs of compilebench together:\n"
	    "intial create total runs 2 avg 150.00 MB/s (user 0.50s sys "
	    "0.60s)\n"
	    "read tree total runs 1 avg 20.00 MB/s (user 0.50s sys 0.70s)\n"
	    "delete tree total runs 2 avg 3.00 seconds (user 0.30s sys "
	    "0.50s)\n"
	    "stat compiled tree total runs 0 [1 interrupted]\n");
	strbuf_done(&out);
	wl_result_free(a);
	wl_result_free(b);
}

struct steps_seen {
	char text[8][EVQ_TEXT];
	unsigned long long done[8], total[8];
	size_t n;
};

static void
steps_collect(struct engine *eng, const struct evq_event *ev, void *arg)
{
	struct steps_seen *s = arg;

	(void)eng;
	if (ev == NULL || ev->type != EVQ_TEST_START || s->n == 8)
		return;
	snprintf(s->text[s->n], sizeof s->text[s->n], "%s", ev->text);
	s->done[s->n] = ev->done;
	s->total[s->n] = ev->total;
	s->n++;
}

/* The live view says where the run is: each test's start event names its
   tree or run of how many, with the numbers for an ETA. */
Test(compilebench, each_start_event_says_which_step_of_how_many)
{
	struct wltest_target tg;
	struct steps_seen s = { .n = 0 };
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench,
	    TINY "initial = 2; runs = 3; sync = false;", tg.dir, LAB_CACHE_KEEP,
	    steps_collect, &s, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(s.n, 5);
	for (size_t i = 0; i < 5; i++) {
		unsigned long long d = i < 2 ? i + 1 : i - 1, n = i < 2 ? 2 : 3;
		char want[64];

		snprintf(want, sizeof want, ", %s %llu/%llu",
		    i < 2 ? "tree" : "run", d, n);
		cr_assert(strstr(s.text[i], want) != NULL, "event %zu: %s", i,
		    s.text[i]);
		cr_assert_eq(s.done[i], d);
		cr_assert_eq(s.total[i], n);
		/* the recorded label stays the test's own */
		cr_assert(strstr(r->tests[i].label, want) == NULL);
	}
	wl_result_free(r);
	wltest_target_free(&tg);
}
