/*
 * compilebench through the real engine on real filesystems, with tiny
 * trees: the trees it claims exist with the tree's files and sizes, the
 * operations follow the seed, each operation counts exactly the data set
 * bytes it touches, failures and stops are clean, and the report prints
 * compilebench's lines.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "tree.h"
#include "wltest.h"
#include "xalloc.h"

#define TINY "files = 200; size = \"2M\"; "
#define TINY_FILES 200
#define TINY_BYTES (2u << 20)
#define MAX_TREES 256

/* What the trees should be, replayed from the result's tests. */
struct model {
	struct tree clean, patch, patched, objs, objs_patched;
	struct {
		bool live, compiled, patched;
	} t[MAX_TREES];
	size_t n;
};

/* The data sets of the tiny trees, built as the workload builds them. */
static void
model_init(struct model *m)
{
	struct tree_spec spec;
	size_t i;

	memset(m, 0, sizeof *m);
	tree_spec_default(&spec);
	spec.files = TINY_FILES;
	spec.bytes = TINY_BYTES;
	cr_assert_eq(tree_generate(&spec, &m->clean), 0);
	cr_assert_eq(tree_patch(&m->clean, spec.seed, 0, &m->patch), 0);
	m->patched = m->clean;
	m->patched.strings = NULL;
	m->patched.files = xcalloc(m->clean.nfiles, sizeof *m->clean.files);
	memcpy(m->patched.files, m->clean.files,
	    m->clean.nfiles * sizeof *m->clean.files);
	for (i = 0; i < m->patch.nfiles; i++) {
		struct tree_file *f = &m->patched.files[m->patch.files[i].src];

		m->patched.bytes += m->patch.files[i].size - f->size;
		f->size = m->patch.files[i].size;
	}
	cr_assert_eq(tree_objects(&m->clean, &m->objs), 0);
	cr_assert_eq(tree_objects(&m->patched, &m->objs_patched), 0);
}

static void
model_done(struct model *m)
{
	tree_free(&m->clean);
	tree_free(&m->patch);
	free(m->patched.files);
	tree_free(&m->objs);
	tree_free(&m->objs_patched);
}

static const struct tree *
model_src(const struct model *m, unsigned id)
{
	return m->t[id].patched ? &m->patched : &m->clean;
}

static const struct tree *
model_objs(const struct model *m, unsigned id)
{
	return m->t[id].patched ? &m->objs_patched : &m->objs;
}

/* The tree an operation worked on, from its label "... (tree N)". */
static unsigned
test_tree(const struct wl_test *t)
{
	const char *p = strrchr(t->label, '(');
	unsigned id;

	cr_assert(p != NULL && sscanf(p, "(tree %u)", &id) == 1,
	    "label '%s' names no tree", t->label);
	cr_assert_lt(id, MAX_TREES);
	return id;
}

static void
check_rate(const struct wl_test *t, uint64_t bytes)
{
	cr_assert_gt(t->wall, 0.0);
	if (t->unit == WL_UNIT_SECONDS) {
		cr_assert_float_eq(t->value, t->wall, 1e-9);
		return;
	}
	cr_assert_eq(t->unit, WL_UNIT_MBPS);
	cr_assert_float_eq(t->value, (double)bytes / t->wall / 1e6,
	    1e-9 * (t->value + 1), "%s: %f MB/s is not %llu bytes / %f s",
	    t->key, t->value, (unsigned long long)bytes, t->wall);
}

/* Bytes and files one operation must have counted; then its effect. */
static void
model_apply(struct model *m, const struct wl_test *t, bool sync)
{
	unsigned id = test_tree(t);
	const struct tree *src = model_src(m, id), *objs = model_objs(m, id);
	bool created = strcmp(t->key, "create") == 0 ||
	    strcmp(t->key, "initial_create") == 0;
	bool compiled = m->t[id].compiled;
	uint64_t old = 0;
	size_t i;

	if (created) {
		cr_assert_eq(id, m->n, "a new tree is the next number");
		m->n++;
	} else {
		cr_assert(m->t[id].live, "%s on tree %u, not live", t->key, id);
	}
	cr_assert_eq(t->lat[WL_OP_FSYNC].n, sync ? 1 : 0);
	if (created) {
		cr_assert_eq(t->bytes_written, m->clean.bytes);
		cr_assert_eq(t->files, m->clean.nfiles);
		check_rate(t, m->clean.bytes);
		m->t[id].live = true;
	} else if (strcmp(t->key, "patch") == 0) {
		cr_assert(!compiled, "patch of a compiled tree");
		for (i = 0; i < m->patch.nfiles; i++)
			old += src->files[m->patch.files[i].src].size;
		cr_assert_eq(t->bytes_read, old, "patch reads each file");
		cr_assert_eq(t->bytes_written, m->patch.bytes);
		cr_assert_eq(t->files, m->patch.nfiles);
		check_rate(t, m->patch.bytes);
		m->t[id].patched = true;
	} else if (strcmp(t->key, "compile") == 0) {
		cr_assert(!compiled, "compile of a compiled tree");
		cr_assert_eq(t->bytes_written, objs->bytes);
		cr_assert_eq(t->files, objs->nfiles);
		check_rate(t, objs->bytes);
		m->t[id].compiled = true;
	} else if (strcmp(t->key, "clean") == 0) {
		cr_assert(compiled, "clean of a tree not compiled");
		cr_assert_eq(t->files, objs->nfiles);
		cr_assert_eq(t->bytes_read + t->bytes_written, 0);
		check_rate(t, objs->bytes);
		m->t[id].compiled = false;
	} else if (strncmp(t->key, "read_", 5) == 0) {
		uint64_t want = src->bytes + (compiled ? objs->bytes : 0);

		cr_assert_eq(compiled, strcmp(t->key, "read_compiled") == 0);
		cr_assert_eq(t->bytes_read, want, "%s read %llu, tree %llu",
		    t->key, (unsigned long long)t->bytes_read,
		    (unsigned long long)want);
		cr_assert_eq(t->bytes_written, 0);
		check_rate(t, want);
	} else if (strncmp(t->key, "delete_", 7) == 0) {
		cr_assert_eq(compiled, strcmp(t->key, "delete_compiled") == 0);
		cr_assert_eq(t->files,
		    src->nfiles + (compiled ? objs->nfiles : 0));
		check_rate(t, 0);
		m->t[id].live = false;
	} else if (strncmp(t->key, "stat_", 5) == 0) {
		cr_assert_eq(compiled, strcmp(t->key, "stat_compiled") == 0);
		cr_assert_eq(t->files,
		    src->nfiles + src->ndirs + (compiled ? objs->nfiles : 0),
		    "stat: every file and directory");
		check_rate(t, 0);
	} else {
		cr_assert_fail("unknown test key %s", t->key);
	}
}

static bool
exists(const char *dir, unsigned id, const char *path)
{
	char p[8192];
	struct stat st;

	snprintf(p, sizeof p, "%s/tree%u/%s", dir, id, path);
	return lstat(p, &st) == 0;
}

/* The kept directory holds exactly the live trees of the model. */
static void
model_check_dir(const struct model *m, const char *dir)
{
	char p[8192];
	uint64_t bytes;
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		const struct tree *src = model_src(m, (unsigned)i);
		const struct tree *objs = model_objs(m, (unsigned)i);
		bool c = m->t[i].compiled;

		snprintf(p, sizeof p, "%s/tree%zu", dir, i);
		if (!m->t[i].live) {
			cr_assert(access(p, F_OK) < 0, "%s deleted, exists", p);
			continue;
		}
		cr_assert_eq(wltest_count_files(p, &bytes),
		    src->nfiles + (c ? objs->nfiles : 0), "files of %s", p);
		cr_assert_eq(bytes, src->bytes + (c ? objs->bytes : 0),
		    "bytes of %s", p);
		for (k = 0; k < objs->nfiles; k++)
			cr_assert_eq(exists(dir, (unsigned)i,
					 objs->files[k].path),
			    c, "%s/%s %s", p, objs->files[k].path,
			    c ? "missing" : "left by clean");
	}
}

static void
replay(struct model *m, const struct wl_result *r, bool sync)
{
	size_t i;

	for (i = 0; i < r->ntests; i++)
		model_apply(m, &r->tests[i], sync);
}

/* initial trees and runs operations, kept; everything checked. */
static void
run_and_check(const char *target, enum lab_cache cache, int initial, int runs,
    bool sync)
{
	struct wl_result *r;
	struct model m;
	char cfg[256], dir[4096];
	size_t i;

	snprintf(cfg, sizeof cfg,
	    TINY "initial = %d; runs = %d; sync = %s; "
		 "keep = true;",
	    initial, runs, sync ? "true" : "false");
	r = wltest_run(&wl_compilebench, cfg, target, cache, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, (size_t)(initial + runs));
	for (i = 0; i < (size_t)initial; i++)
		cr_assert_str_eq(r->tests[i].key, "initial_create");
	model_init(&m);
	replay(&m, r, sync);
	wltest_run_dir(target, dir, sizeof dir);
	cr_assert_neq(dir[0], '\0', "no run directory kept");
	model_check_dir(&m, dir);
	model_done(&m);
	wl_result_free(r);
}

Test(compilebench, initial_create_writes_every_tree_on_tmpfs)
{
	struct wltest_target tg;

	wltest_target_tmpfs(&tg, 64 << 20);
	run_and_check(tg.dir, LAB_CACHE_KEEP, 4, 0, true);
	wltest_target_free(&tg);
}

Test(compilebench, initial_create_writes_every_tree_on_ext4)
{
	struct wltest_target tg;

	wltest_target_ext4(&tg, 128 << 20);
	run_and_check(tg.dir, LAB_CACHE_KEEP, 4, 0, true);
	wltest_target_free(&tg);
}

Test(compilebench, operations_count_what_they_touch_on_tmpfs)
{
	struct wltest_target tg;

	wltest_target_tmpfs(&tg, 128 << 20);
	run_and_check(tg.dir, LAB_CACHE_KEEP, 3, 40, true);
	wltest_target_free(&tg);
}

Test(compilebench, operations_count_what_they_touch_on_ext4_dropping_caches)
{
	struct wltest_target tg;

	wltest_target_ext4(&tg, 128 << 20);
	run_and_check(tg.dir, LAB_CACHE_DROP, 3, 30, true);
	wltest_target_free(&tg);
}

Test(compilebench, operations_without_sync_on_a_plain_directory)
{
	struct wltest_target tg;

	wltest_target_dir(&tg);
	run_and_check(tg.dir, LAB_CACHE_KEEP, 2, 30, false);
	wltest_target_free(&tg);
}

Test(compilebench, trees_are_removed_after_the_run)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench, TINY "initial = 2; runs = 10;", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert(wltest_dir_empty(tg.dir), "trees left behind");
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* Keys and labels (which name the tree) of every operation. */
static char *
sequence(const char *target, const char *seed)
{
	struct wl_result *r;
	struct strbuf b;
	char cfg[256], *s;
	size_t i;

	snprintf(cfg, sizeof cfg,
	    TINY "initial = 2; runs = 60; seed = %s; "
		 "sync = false;",
	    seed);
	r = wltest_run(&wl_compilebench, cfg, target, LAB_CACHE_KEEP, NULL,
	    NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	strbuf_init(&b);
	for (i = 0; i < r->ntests; i++)
		strbuf_printf(&b, "%s %s\n", r->tests[i].key,
		    r->tests[i].label);
	wl_result_free(r);
	s = strbuf_take(&b);
	strbuf_done(&b);
	return s;
}

Test(compilebench, same_seed_same_operations_and_trees)
{
	struct wltest_target tg;
	char *a, *b, *c;
	size_t p;
	bool seen[11] = { false };
	static const char *const keys[] = { "create", "patch", "compile",
		"clean", "read_tree", "read_compiled", "delete_tree",
		"delete_compiled", "stat_tree", "stat_compiled" };

	wltest_target_dir(&tg);
	a = sequence(tg.dir, "555");
	b = sequence(tg.dir, "555");
	c = sequence(tg.dir, "556");
	cr_assert_str_eq(a, b, "seed 555 twice gave two sequences");
	cr_assert_str_neq(a, c, "seeds 555 and 556 gave one sequence");
	/* 60 operations of seed 555 include every kind. */
	for (p = 0; p < 10; p++) {
		char k[32];

		snprintf(k, sizeof k, "\n%s ", keys[p]);
		seen[p] = strstr(a, k) != NULL;
		cr_assert(seen[p], "no %s in:\n%s", keys[p], a);
	}
	free(a);
	free(b);
	free(c);
	wltest_target_free(&tg);
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
	cr_assert(strstr(r->error, "/tree") != NULL, "names no file: %s",
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

	add(a, "initial_create", WL_UNIT_MBPS, 100, 0.4, 0.5);
	add(b, "initial_create", WL_UNIT_MBPS, 200, 0.6, 0.7);
	add(a, "read_tree", WL_UNIT_MBPS, 20, 0.5, 0.7);
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

static uint64_t
tree_blocks(const struct tree *t)
{
	uint64_t n = 0;

	for (size_t i = 0; i < t->nfiles; i++)
		n += (t->files[i].size + 4095) / 4096 * 4096;
	return n;
}

/*
 * The free-space checks' estimate: the trees alive at the worst moment
 * of the operations this seed performs, each tree in whole 4K blocks
 * (its objects too once compiled). Recomputed here from the operations
 * a real run performed.
 */
Test(compilebench, data_set_is_the_worst_moment_of_the_run)
{
	const char *cfg = TINY "initial = 2; runs = 60; seed = 555; "
			       "sync = false;";
	struct param_value *v = wltest_params(&wl_compilebench, cfg);
	uint64_t t, o, clean = 0, compiled = 0, peak = 0, now;
	struct wltest_target tg;
	struct wl_result *r;
	struct model m;

	model_init(&m);
	t = tree_blocks(&m.clean);
	o = tree_blocks(&m.objs);
	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench, cfg, tg.dir, LAB_CACHE_KEEP, NULL,
	    NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	for (size_t i = 0; i < r->ntests; i++) {
		const char *k = r->tests[i].key;

		if (!strcmp(k, "initial_create") || !strcmp(k, "create"))
			clean++;
		else if (!strcmp(k, "compile"))
			clean--, compiled++;
		else if (!strcmp(k, "clean"))
			compiled--, clean++;
		else if (!strcmp(k, "delete_tree"))
			clean--;
		else if (!strcmp(k, "delete_compiled"))
			compiled--;
		now = clean * t + compiled * (t + o);
		peak = now > peak ? now : peak;
	}
	cr_assert_gt(compiled + clean, 0);
	cr_assert_eq(wl_compilebench.dataset(v, false), peak,
	    "estimate %llu, the run's worst moment %llu",
	    (unsigned long long)wl_compilebench.dataset(v, false),
	    (unsigned long long)peak);
	wl_result_free(r);
	wltest_target_free(&tg);
	model_done(&m);
	wltest_params_free(&wl_compilebench, v);
}
