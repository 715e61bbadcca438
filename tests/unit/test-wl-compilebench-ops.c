/*
 * compilebench's operations (wl-compilebench-ops) on real filesystems,
 * with tiny trees: the trees it claims exist with the files and sizes
 * compilebench's rules give them, each operation counts exactly the bytes
 * its list names (in MiB/s), the trees go after the run, the data set
 * is the worst moment of the run. Part of the test-wl-compilebench
 * program (unit-compilebench.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xalloc.h"
#include "measure/tree.h"
#include "unit-compilebench.h"
#include "wltest.h"

/* What tree t holds: regular files and their bytes. */
static size_t
model_files(const struct model *m, const struct mtree *t, uint64_t *bytes)
{
	size_t n = m->clean.nfiles + (t->src_patched ? m->p_new : 0);

	*bytes = t->src_patched ? m->src_patched_bytes : m->clean.bytes;
	if (t->rest) {
		n += m->objs.nfiles - m->c_n;
		*bytes += m->objs.bytes - m->c_old_bytes;
	}
	if (t->changed) {
		n += m->c_n;
		*bytes += t->changed == 1 ? m->c_old_bytes : m->c_bytes;
	}
	return n;
}

/* The tree an operation worked on, from its label "... (kernel-N)". */
static struct mtree *
test_tree(struct model *m, const struct wl_test *t, bool created)
{
	const char *p = strrchr(t->label, '(');
	unsigned name;
	size_t i;

	cr_assert(p != NULL && sscanf(p, "(kernel-%u)", &name) == 1,
	    "label '%s' names no tree", t->label);
	for (i = 0; i < m->n; i++)
		if (m->t[i].name == name)
			break;
	if (created) {
		cr_assert_eq(i, m->n, "kernel-%u created twice", name);
		cr_assert_lt(m->n, MAX_TREES);
		memset(&m->t[i], 0, sizeof m->t[i]);
		m->t[i].name = name;
		m->n++;
	} else {
		cr_assert_lt(i, m->n, "%s on kernel-%u, never created", t->key,
		    name);
		cr_assert(m->t[i].live, "%s on kernel-%u, deleted", t->key,
		    name);
	}
	return &m->t[i];
}

static void
check_rate(const struct wl_test *t, uint64_t bytes)
{
	cr_assert_gt(t->wall, 0.0);
	if (t->unit == WL_UNIT_SECONDS) {
		cr_assert_float_eq(t->value, t->wall, 1e-9);
		return;
	}
	cr_assert_eq(t->unit, WL_UNIT_MIBPS);
	cr_assert_float_eq(t->value, (double)bytes / MIB / t->wall,
	    1e-9 * (t->value + 1), "%s: %f MiB/s is not %llu bytes / %f s",
	    t->key, t->value, (unsigned long long)bytes, t->wall);
}

/*
 * A patch unlinks every file of its list first, or none; true when it
 * did (then what it reads first is empty).
 */
static bool
check_unlinks(const struct wl_test *t, size_t n)
{
	cr_assert(t->lat[WL_OP_DELETE].n == 0 || t->lat[WL_OP_DELETE].n == n,
	    "patch unlinked %llu of %zu files",
	    (unsigned long long)t->lat[WL_OP_DELETE].n, n);
	return t->lat[WL_OP_DELETE].n == n;
}

static void
model_patch(struct model *m, const struct wl_test *t, struct mtree *x)
{
	uint64_t old = 0;
	size_t i;

	if (x->compiled) {
		/* compilebench patches a compiled tree's objects. */
		cr_assert_eq(t->bytes_read,
		    check_unlinks(t, m->c_n) ? 0 : m->c_old_bytes);
		cr_assert_eq(t->bytes_written, m->c_bytes);
		cr_assert_eq(t->files, m->c_n);
		check_rate(t, m->c_bytes);
		x->changed = 2;
	} else {
		for (i = 0; i < m->patch.nfiles; i++) {
			const struct tree_file *f = &m->patch.files[i];

			if (f->src != TREE_NO_SRC &&
			    f->size != m->clean.files[f->src].size)
				old += m->clean.files[f->src].size;
		}
		cr_assert_eq(t->bytes_read, check_unlinks(t, m->p_n) ? 0 : old,
		    "patch reads each file");
		cr_assert_eq(t->bytes_written, m->p_bytes);
		cr_assert_eq(t->files, m->p_n);
		check_rate(t, m->p_bytes);
		x->src_patched = true;
	}
	x->patched = true;
}

static void
model_compile(struct model *m, const struct wl_test *t, struct mtree *x)
{
	cr_assert(!x->compiled, "compile of a compiled tree");
	if (x->patched) {
		cr_assert_eq(t->bytes_written, m->c_bytes);
		cr_assert_eq(t->files, m->c_n);
		check_rate(t, m->c_bytes);
		x->changed = 2;
	} else {
		cr_assert_eq(t->bytes_written, m->objs.bytes);
		cr_assert_eq(t->files, m->objs.nfiles);
		check_rate(t, m->objs.bytes);
		x->rest = true;
		x->changed = 1;
	}
	x->compiled = true;
}

static void
model_clean(struct model *m, const struct wl_test *t, struct mtree *x)
{
	cr_assert(x->compiled, "clean of a tree not compiled");
	cr_assert_eq(t->bytes_read + t->bytes_written, 0);
	if (x->patched) {
		cr_assert_eq(t->files, m->c_n);
		check_rate(t, m->c_bytes);
	} else {
		cr_assert_eq(t->files, m->objs.nfiles);
		check_rate(t, m->objs.bytes);
		x->rest = false;
	}
	x->changed = 0;
	x->compiled = false;
}

static int
kind(const struct mtree *x)
{
	return (x->patched ? 1 : 0) + (x->compiled ? 2 : 0);
}

/*
 * Where compilebench files the delete of x: under "compiled" when x is,
 * and also when x is the last of its kind while either compiled kind has
 * no tree (it compares its dicts by value once x is out of its own).
 */
static bool
delete_filed_compiled(const struct model *m, const struct mtree *x)
{
	size_t n[4] = { 0 }, i;

	if (x->compiled)
		return true;
	for (i = 0; i < m->n; i++)
		if (m->t[i].live && &m->t[i] != x)
			n[kind(&m->t[i])]++;
	return n[kind(x)] == 0 && (n[2] == 0 || n[3] == 0);
}

/* Bytes and files one operation must have counted; then its effect. */
static void
model_apply(struct model *m, const struct wl_test *t, bool sync)
{
	bool initial = strcmp(t->key, "initial_create") == 0;
	bool created = initial || strcmp(t->key, "create") == 0;
	struct mtree *x = test_tree(m, t, created);
	uint64_t bytes;
	size_t files = model_files(m, x, &bytes);

	cr_assert_eq(t->lat[WL_OP_FSYNC].n, sync && !initial ? 1 : 0,
	    "%s: %llu syncs", t->key,
	    (unsigned long long)t->lat[WL_OP_FSYNC].n);
	if (strncmp(t->key, "read_", 5) == 0 ||
	    strncmp(t->key, "stat_", 5) == 0)
		cr_assert_eq(x->compiled, strstr(t->key, "_compiled") != NULL,
		    "%s on a tree %s compiled", t->key,
		    x->compiled ? "" : "not");
	if (strncmp(t->key, "delete_", 7) == 0)
		cr_assert_eq(delete_filed_compiled(m, x),
		    strstr(t->key, "_compiled") != NULL,
		    "%s of kernel-%u: not where compilebench files it", t->key,
		    x->name);
	if (created) {
		cr_assert_eq(t->bytes_written, m->clean.bytes);
		cr_assert_eq(t->files, m->clean.nfiles);
		check_rate(t, m->clean.bytes);
		x->live = true;
	} else if (strcmp(t->key, "patch") == 0) {
		cr_assert(!x->patched, "patch of a patched tree");
		model_patch(m, t, x);
	} else if (strcmp(t->key, "compile") == 0) {
		model_compile(m, t, x);
	} else if (strcmp(t->key, "clean") == 0) {
		model_clean(m, t, x);
	} else if (strncmp(t->key, "read_", 5) == 0) {
		cr_assert_eq(t->bytes_read, bytes, "%s read %llu, tree %llu",
		    t->key, (unsigned long long)t->bytes_read,
		    (unsigned long long)bytes);
		cr_assert_eq(t->bytes_written, 0);
		check_rate(t, bytes);
	} else if (strncmp(t->key, "delete_", 7) == 0) {
		cr_assert_eq(t->files, files);
		check_rate(t, 0);
		x->live = false;
	} else if (strncmp(t->key, "stat_", 5) == 0) {
		cr_assert_eq(t->files, files + m->clean.ndirs,
		    "stat: every file and directory");
		check_rate(t, 0);
	} else {
		cr_assert_fail("unknown test key %s", t->key);
	}
}

/* The kept directory holds exactly the trees of the model. */
static void
model_check_dir(const struct model *m, const char *dir)
{
	char p[4096], q[4096 + TREE_PATH_MAX + 2];
	uint64_t bytes, want_bytes;
	size_t i, k, want;
	struct stat st;

	for (i = 0; i < m->n; i++) {
		const struct mtree *x = &m->t[i];

		snprintf(p, sizeof p, "%.4000s/kernel-%u", dir, x->name);
		if (!x->live) {
			/* compilebench's rmrf leaves the empty root. */
			cr_assert(wltest_dir_empty(p), "%s deleted, not empty",
			    p);
			continue;
		}
		want = model_files(m, x, &want_bytes);
		cr_assert_eq(wltest_count_files(p, &bytes), want, "files of %s",
		    p);
		cr_assert_eq(bytes, want_bytes, "bytes of %s", p);
		for (k = 0; k < m->objs.nfiles; k++) {
			bool there =
			    m->in_changed[k] ? x->changed != 0 : x->rest;

			snprintf(q, sizeof q, "%s/%s", p,
			    m->objs.files[k].path);
			cr_assert_eq(lstat(q, &st) == 0, there, "%s %s", q,
			    there ? "missing" : "left behind");
		}
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

/*
 * patch_read = false patches as compilebench 0.6 under Python 3 does:
 * the same files written, none read.
 */
Test(compilebench, patch_read_off_reads_nothing)
{
	struct wltest_target tg;
	struct wl_result *r;
	struct model m;
	size_t i, patches = 0;

	model_init(&m);
	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench,
	    TINY "initial = 2; runs = 60; sync = false; patch_read = false;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	for (i = 0; i < r->ntests; i++) {
		const struct wl_test *t = &r->tests[i];

		if (strcmp(t->key, "patch") != 0)
			continue;
		patches++;
		cr_assert_eq(t->bytes_read, 0, "a patch read %llu bytes",
		    (unsigned long long)t->bytes_read);
		cr_assert(t->bytes_written == m.p_bytes ||
			t->bytes_written == m.c_bytes,
		    "a patch wrote %llu bytes",
		    (unsigned long long)t->bytes_written);
	}
	cr_assert_gt(patches, 0, "seed 555 draws no patch in 60 runs");
	wl_result_free(r);
	wltest_target_free(&tg);
	model_done(&m);
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

static uint64_t
blocks_of(uint64_t size)
{
	return (size + 4095) / 4096 * 4096;
}

/* What tree x holds, in whole 4K blocks, recomputed file by file. */
static uint64_t
model_blocks(const struct model *m, const struct mtree *x)
{
	uint64_t n = 0;
	size_t i;

	if (!x->live)
		return 0;
	for (i = 0; i < m->clean.nfiles; i++)
		n += blocks_of(
		    x->src_patched ? m->psize[i] : m->clean.files[i].size);
	for (i = 0; x->src_patched && i < m->patch.nfiles; i++)
		if (m->patch.files[i].src == TREE_NO_SRC) /* a new file */
			n += blocks_of(m->patch.files[i].size);
	for (i = 0; i < m->objs.nfiles; i++) {
		if (!m->in_changed[i] && x->rest)
			n += blocks_of(m->objs.files[i].size);
		if (m->in_changed[i] && x->changed == 1)
			n += blocks_of(m->objs.files[i].size);
		if (m->in_changed[i] && x->changed == 2)
			n += blocks_of(m->objs_patched.files[i].size);
	}
	return n;
}

/*
 * The free-space checks' estimate: the trees alive at the worst moment
 * of the operations this seed performs, each tree in whole 4K blocks of
 * what it holds then. Recomputed here from the operations a real run
 * performed.
 */
Test(compilebench, data_set_is_the_worst_moment_of_the_run)
{
	const char *cfg = TINY "initial = 2; runs = 60; seed = 555; "
			       "sync = false;";
	struct param_value *v = wltest_params(&wl_compilebench, cfg);
	uint64_t peak = 0, now;
	struct wltest_target tg;
	struct wl_result *r;
	struct model m;

	model_init(&m);
	wltest_target_dir(&tg);
	r = wltest_run(&wl_compilebench, cfg, tg.dir, LAB_CACHE_KEEP, NULL,
	    NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	for (size_t i = 0; i < r->ntests; i++) {
		model_apply(&m, &r->tests[i], false);
		now = 0;
		for (size_t k = 0; k < m.n; k++)
			now += model_blocks(&m, &m.t[k]);
		peak = now > peak ? now : peak;
	}
	cr_assert_gt(peak, 0);
	cr_assert_eq(wl_compilebench.dataset(v, false), peak,
	    "estimate %llu, the run's worst moment %llu",
	    (unsigned long long)wl_compilebench.dataset(v, false),
	    (unsigned long long)peak);
	wl_result_free(r);
	wltest_target_free(&tg);
	model_done(&m);
	wltest_params_free(&wl_compilebench, v);
}
