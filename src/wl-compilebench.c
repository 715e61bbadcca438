/*
 * compilebench: Chris Mason's aging simulation. initial trees are created
 * from a kernel-like file list (tree.h), then runs random operations
 * (create, patch, compile, clean, read, delete, stat) chosen with seed.
 * Each operation is one test: it drops caches first and syncs last, both
 * inside the timing, and is reported in MB/s of the data set it touched
 * (seconds for delete and stat). The report aggregates per phase as
 * compilebench prints it. Driver thread; one worker per operation
 * (wl-compilebench-ops.c).
 *
 * How an operation is chosen (deterministic in seed): draw one of the
 * ten operations uniformly; create makes a new tree; patch, compile, read
 * tree, delete tree and stat tree apply to a tree not compiled, clean and
 * the three "compiled tree" operations to a compiled tree, drawn
 * uniformly among those. When no tree qualifies, draw the operation
 * again (create always qualifies), so a run performs exactly `runs`
 * operations and those needing a compiled tree are the rarer ones, as in
 * compilebench's own counts (seed 003: read compiled tree 4 runs, patch
 * 15 of 100).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "i18n.h"
#include "strbuf.h"
#include "units.h"
#include "wl-compilebench.h"
#include "workload.h"
#include "xalloc.h"

static const struct param compilebench_params[] = {
	{ "initial", PARAM_INT, "30", 1, 10000, NULL, 0, NULL,
	    N_("trees created first (-i)") },
	{ "runs", PARAM_INT, "100", 0, 1000000, NULL, 0, NULL,
	    N_("random operations after that (-r)") },
	{ "seed", PARAM_INT, "555", 0, 4294967295LL, NULL, 0, NULL,
	    N_("random seed, so that runs are comparable") },
	{ "sync", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("sync after each operation (false: --no-sync)") },
	{ "files", PARAM_INT, "20000", 1, 10000000, NULL, 0, NULL,
	    N_("files in one kernel tree (2.6.20: about 20000)") },
	{ "size", PARAM_SIZE, "240M", 1, 0, NULL, 0, NULL,
	    N_("bytes of one kernel tree (2.6.20: about 240M)") },
	{ "keep", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("leave the trees on the target after the run") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

/*
 * compilebench's phase names, as its report prints them. It spells the
 * first one "intial create"; the report keeps that spelling so that
 * scripts grepping compilebench output work on raidlab's (the key and
 * label are spelled right).
 */
const struct cb_phase_info cb_phases[CB__COUNT] = {
	[CB_INITIAL] = { "initial_create", N_("intial create"), WL_UNIT_MBPS,
	    CB_NEED_NONE },
	[CB_CREATE] = { "create", N_("create"), WL_UNIT_MBPS, CB_NEED_NONE },
	[CB_PATCH] = { "patch", N_("patch"), WL_UNIT_MBPS, CB_NEED_CLEAN },
	[CB_COMPILE] = { "compile", N_("compile"), WL_UNIT_MBPS,
	    CB_NEED_CLEAN },
	[CB_CLEAN] = { "clean", N_("clean"), WL_UNIT_MBPS, CB_NEED_COMPILED },
	[CB_READ_TREE] = { "read_tree", N_("read tree"), WL_UNIT_MBPS,
	    CB_NEED_CLEAN },
	[CB_READ_COMPILED] = { "read_compiled", N_("read compiled tree"),
	    WL_UNIT_MBPS, CB_NEED_COMPILED },
	[CB_DELETE_TREE] = { "delete_tree", N_("delete tree"), WL_UNIT_SECONDS,
	    CB_NEED_CLEAN },
	[CB_DELETE_COMPILED] = { "delete_compiled", N_("delete compiled tree"),
	    WL_UNIT_SECONDS, CB_NEED_COMPILED },
	[CB_STAT_TREE] = { "stat_tree", N_("stat tree"), WL_UNIT_SECONDS,
	    CB_NEED_CLEAN },
	[CB_STAT_COMPILED] = { "stat_compiled", N_("stat compiled tree"),
	    WL_UNIT_SECONDS, CB_NEED_COMPILED },
};

const struct tree *
cb_sources(const struct cb *cb, const struct cb_tree *t)
{
	return t->patched ? &cb->patched : &cb->clean;
}

const struct tree *
cb_objects(const struct cb *cb, const struct cb_tree *t)
{
	return t->patched ? &cb->objs_patched : &cb->objs;
}

/* ---------------------------------------------------------------- prepare */

/*
 * The patched sources: clean's list with the patch's sizes. It borrows
 * clean's paths and directories, so only its files[] is its own.
 */
static void
patched_build(struct cb *cb)
{
	size_t i;

	cb->patched = cb->clean;
	cb->patched.strings = NULL;
	cb->patched.strings_len = cb->patched.strings_cap = 0;
	cb->patched.files =
	    xcalloc(cb->clean.nfiles + 1, sizeof *cb->patched.files);
	memcpy(cb->patched.files, cb->clean.files,
	    cb->clean.nfiles * sizeof *cb->clean.files);
	for (i = 0; i < cb->patch.nfiles; i++) {
		struct tree_file *f =
		    &cb->patched.files[cb->patch.files[i].src];

		cb->patched.bytes -= f->size;
		f->size = cb->patch.files[i].size;
		cb->patched.bytes += f->size;
	}
}

static uint64_t
max3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a > b ? a : b;

	return m > c ? m : c;
}

/* The data sets (not timed), the buffers and the table of trees. */
static int
compilebench_prepare(struct wl_run *r)
{
	struct cb *cb = xcalloc(1, sizeof *cb);
	struct tree_spec spec;
	uint64_t big, seed;
	char sz[UNITS_BUF];

	r->priv = cb;
	tree_spec_default(&spec);
	spec.files = (uint32_t)wl_param_int(r, "files");
	spec.bytes = wl_param_size(r, "size");
	if (tree_generate(&spec, &cb->clean) < 0)
		return wl_run_fail(r, -EINVAL,
		    _("size %s is less than files %" PRIu32 ": each file "
		      "needs at least one byte"),
		    units_format_exact(spec.bytes, sz, sizeof sz), spec.files);
	/* The data set does not depend on the operations' seed. */
	tree_patch(&cb->clean, spec.seed, 0, &cb->patch);
	patched_build(cb);
	tree_objects(&cb->clean, &cb->objs);
	tree_objects(&cb->patched, &cb->objs_patched);

	cb->sync = wl_param_bool(r, "sync");
	cb->cap = (size_t)wl_param_int(r, "initial") +
	    (size_t)wl_param_int(r, "runs");
	cb->trees = xcalloc(cb->cap, sizeof *cb->trees);
	seed = (uint64_t)wl_param_int(r, "seed");
	cb->rng = (seed + 1) * UINT64_C(0x9e3779b97f4a7c15);
	big = max3(tree_max_size(&cb->clean), tree_max_size(&cb->patched),
	    max3(tree_max_size(&cb->objs), tree_max_size(&cb->objs_patched),
		1));
	cb->wlen = big < CB_WRITE_BUF ? (size_t)big : CB_WRITE_BUF;
	cb->wbuf = xmalloc(cb->wlen);
	tree_fill(cb->wbuf, cb->wlen);
	cb->rbuf = xmalloc(CB_READ_BUF);
	cb->dents = xmalloc((size_t)CB_WALK_DEPTH * CB_DENTS_BUF);
	wl_check_dataset(r,
	    (uint64_t)wl_param_int(r, "initial") * cb->clean.bytes);
	return 0;
}

static void
compilebench_cleanup(struct wl_run *r)
{
	struct cb *cb = r->priv;

	if (cb == NULL)
		return;
	tree_free(&cb->clean);
	tree_free(&cb->patch);
	free(cb->patched.files);
	tree_free(&cb->objs);
	tree_free(&cb->objs_patched);
	free(cb->trees);
	free(cb->wbuf);
	free(cb->rbuf);
	free(cb->dents);
	free(cb);
	r->priv = NULL;
}

/* ---------------------------------------------------------------- choice */

static bool
eligible(const struct cb_tree *t, enum cb_need need)
{
	if (!t->live)
		return false;
	return need == CB_NEED_COMPILED ? t->compiled : !t->compiled;
}

static size_t
count_eligible(const struct cb *cb, enum cb_need need)
{
	size_t i, n = 0;

	for (i = 0; i < cb->ntrees; i++)
		n += eligible(&cb->trees[i], need);
	return n;
}

/* A new tree in the table (not live until created). */
static struct cb_tree *
tree_add(struct cb *cb)
{
	struct cb_tree *t;

	if (cb->ntrees == cb->cap) {
		cb->trees = xreallocarray(cb->trees, cb->cap * 2 + 1,
		    sizeof *cb->trees);
		cb->cap = cb->cap * 2 + 1;
	}
	t = &cb->trees[cb->ntrees];
	memset(t, 0, sizeof *t);
	t->id = (unsigned)cb->ntrees++;
	return t;
}

/* The next operation and its tree, as the header comment says. */
static enum cb_phase
choose(struct cb *cb, struct cb_tree **tp)
{
	enum cb_phase ph;
	size_t n = 0, k, i;

	/* create always applies: this ends. */
	for (;;) {
		ph = CB_CREATE + (int)(wl_rand(&cb->rng) % 10);
		if (cb_phases[ph].need == CB_NEED_NONE) {
			*tp = tree_add(cb);
			return ph;
		}
		if ((n = count_eligible(cb, cb_phases[ph].need)) > 0)
			break;
	}
	k = (size_t)(wl_rand(&cb->rng) % n);
	for (i = 0; i < cb->ntrees; i++)
		if (eligible(&cb->trees[i], cb_phases[ph].need) && k-- == 0)
			break;
	*tp = &cb->trees[i];
	return ph;
}

/* ---------------------------------------------------------------- run */

/* What the operation did to the tree, once it succeeded. */
static void
tree_update(struct cb_tree *t, enum cb_phase ph)
{
	switch (ph) {
	case CB_INITIAL:
	case CB_CREATE:
		t->live = true;
		break;
	case CB_PATCH:
		t->patched = true;
		break;
	case CB_COMPILE:
		t->compiled = true;
		break;
	case CB_CLEAN:
		t->compiled = false;
		break;
	case CB_DELETE_TREE:
	case CB_DELETE_COMPILED:
		t->live = false;
		break;
	default:
		break;
	}
}

/*
 * One operation, one test: drop caches, work, sync, all timed. MB/s is
 * the data set bytes the worker touched over the test's wall time.
 */
static int
operate(struct wl_run *r, struct cb *cb, enum cb_phase ph, struct cb_tree *t)
{
	const struct cb_phase_info *pi = &cb_phases[ph];
	struct cb_op *op = &cb->op;
	struct wl_test *test;
	char label[96];
	uint64_t t0;
	int rc;

	op->cb = cb;
	op->phase = ph;
	op->tree = t;
	op->seed = wl_rand(&cb->rng);
	op->bytes = 0;
	snprintf(op->root, sizeof op->root, "%s/tree%u", r->dir, t->id);
	/* Labels are untranslated (result.h). */
	snprintf(label, sizeof label, "%s (tree %u)",
	    ph == CB_INITIAL ? "initial create" : pi->name, t->id);
	t0 = wl_now_ns();
	wl_test_begin(r, pi->key, label, pi->unit);
	wl_drop_caches(r);
	rc = wl_parallel(r, 1, cb_worker, op);
	if (pi->unit == WL_UNIT_MBPS)
		wl_test_set_value(r,
		    (double)op->bytes / ((double)(wl_now_ns() - t0) / 1e9) /
			1e6);
	test = wl_test_end(r, 0);
	/* Exactly bytes / wall, on the wall the test recorded. */
	if (test != NULL && pi->unit == WL_UNIT_MBPS)
		test->value =
		    test->wall > 0 ? (double)op->bytes / test->wall / 1e6 : 0.0;
	if (rc == 0)
		tree_update(t, ph);
	return rc;
}

static int
compilebench_run(struct wl_run *r)
{
	struct cb *cb = r->priv;
	int64_t initial = wl_param_int(r, "initial");
	int64_t runs = wl_param_int(r, "runs"), i;
	struct cb_tree *t;
	int rc = 0;

	for (i = 0; i < initial && rc == 0; i++)
		rc = operate(r, cb, CB_INITIAL, tree_add(cb));
	for (i = 0; i < runs && rc == 0; i++) {
		enum cb_phase ph = choose(cb, &t);

		rc = operate(r, cb, ph, t);
	}
	return rc;
}

/* ---------------------------------------------------------------- report */

struct phase_sum {
	size_t runs, interrupted;
	double value, user, sys;
};

static void
phase_add(struct phase_sum *s, const struct wl_result *res)
{
	size_t i, p;

	for (i = 0; i < res->ntests; i++) {
		const struct wl_test *t = &res->tests[i];

		for (p = 0; p < CB__COUNT; p++)
			if (strcmp(t->key, cb_phases[p].key) == 0)
				break;
		if (p == CB__COUNT)
			continue;
		if (t->interrupted) {
			s[p].interrupted++;
			continue;
		}
		s[p].runs++;
		s[p].value += t->value;
		s[p].user += t->user;
		s[p].sys += t->sys;
	}
}

/*
 * compilebench's lines, every operation of every repeat together:
 * "intial create total runs 10 avg 172.76 MB/s (user 0.43s sys 0.60s)",
 * "avg X seconds" for delete and stat.
 */
static void
compilebench_report(const struct wl_result *const *res, size_t n,
    struct strbuf *out)
{
	struct phase_sum s[CB__COUNT];
	size_t i, p;

	memset(s, 0, sizeof s);
	for (i = 0; i < n; i++)
		phase_add(s, res[i]);
	if (n > 1)
		strbuf_printf(out, _("%zu runs of compilebench together:\n"),
		    n);
	for (p = 0; p < CB__COUNT; p++) {
		double k = (double)s[p].runs;

		if (s[p].runs == 0 && s[p].interrupted == 0)
			continue;
		if (s[p].runs == 0) {
			strbuf_printf(out,
			    _("%s total runs 0 [%zu interrupted]"
			      "\n"),
			    _(cb_phases[p].name), s[p].interrupted);
			continue;
		}
		if (cb_phases[p].unit == WL_UNIT_SECONDS)
			strbuf_printf(out,
			    _("%s total runs %zu avg %.2f "
			      "seconds (user %.2fs sys %.2fs)"),
			    _(cb_phases[p].name), s[p].runs, s[p].value / k,
			    s[p].user / k, s[p].sys / k);
		else
			strbuf_printf(out,
			    _("%s total runs %zu avg %.2f MB/s "
			      "(user %.2fs sys %.2fs)"),
			    _(cb_phases[p].name), s[p].runs, s[p].value / k,
			    s[p].user / k, s[p].sys / k);
		if (s[p].interrupted > 0)
			strbuf_printf(out, _(" [%zu interrupted]"),
			    s[p].interrupted);
		strbuf_add(out, "\n");
	}
}

/* Each of the tree's files holds at least one byte. */
static const struct param_bound wl_compilebench_bounds[] = {
	{ "files", "size" },
	{ NULL, NULL },
};

/* ---------------------------------------------------------------- data set */

/*
 * The bytes on disk (whole blocks) of a tree of files and bytes, and of
 * the objects a build of it adds. The last answer is kept: generating
 * the list takes milliseconds, and a lab may hold many entries alike.
 */
static void
tree_bytes(uint32_t files, uint64_t bytes, uint64_t *tree, uint64_t *objs)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static uint64_t c_bytes, c_tree, c_objs;
	static uint32_t c_files;
	struct tree_spec spec;
	struct tree t, o;

	pthread_mutex_lock(&lock);
	if (c_files != files || c_bytes != bytes) {
		tree_spec_default(&spec);
		spec.files = files;
		spec.bytes = bytes;
		c_tree = workload_add(bytes,
		    workload_mul(files, WORKLOAD_BLOCK - 1));
		c_objs = 0;
		if (tree_generate(&spec, &t) == 0) {
			c_tree = 0;
			for (size_t i = 0; i < t.nfiles; i++)
				c_tree = workload_add(c_tree,
				    workload_blocks(t.files[i].size));
			tree_objects(&t, &o);
			for (size_t i = 0; i < o.nfiles; i++)
				c_objs = workload_add(c_objs,
				    workload_blocks(o.files[i].size));
			tree_free(&o);
			tree_free(&t);
		}
		c_files = files;
		c_bytes = bytes;
	}
	*tree = c_tree;
	*objs = c_objs;
	pthread_mutex_unlock(&lock);
}

/*
 * The trees alive at the worst moment: the operations choose() would
 * draw with this seed, replayed on counts of clean and compiled trees
 * alone (which tree an operation takes does not change the counts), each
 * assumed to succeed. The draws follow compilebench_run() exactly: one
 * for the operation, one for the tree when it needs one, one for the
 * operation's own seed.
 */
static uint64_t
compilebench_dataset(const struct param_value *v, bool keep)
{
	const struct param *ps = compilebench_params;
	int64_t initial = workload_value(ps, v, "initial")->i;
	int64_t runs = workload_value(ps, v, "runs")->i;
	uint64_t seed = (uint64_t)workload_value(ps, v, "seed")->i;
	uint64_t rng = (seed + 1) * UINT64_C(0x9e3779b97f4a7c15);
	uint64_t clean = 0, compiled = 0, peak, t, o, now;

	(void)keep; /* the end is never worse than the worst moment */
	tree_bytes((uint32_t)workload_value(ps, v, "files")->i,
	    workload_value(ps, v, "size")->size, &t, &o);
	for (int64_t i = 0; i < initial; i++) {
		wl_rand(&rng);
		clean++;
	}
	peak = workload_mul(clean, t);
	for (int64_t i = 0; i < runs; i++) {
		enum cb_phase ph;
		uint64_t n = 0;

		for (;;) {
			ph = CB_CREATE + (int)(wl_rand(&rng) % 10);
			if (cb_phases[ph].need == CB_NEED_NONE)
				break;
			n = cb_phases[ph].need == CB_NEED_COMPILED ? compiled
								   : clean;
			if (n > 0)
				break;
		}
		if (n > 0)
			wl_rand(&rng);
		wl_rand(&rng);
		switch (ph) {
		case CB_CREATE:
			clean++;
			break;
		case CB_COMPILE:
			clean--;
			compiled++;
			break;
		case CB_CLEAN:
			compiled--;
			clean++;
			break;
		case CB_DELETE_TREE:
			clean--;
			break;
		case CB_DELETE_COMPILED:
			compiled--;
			break;
		default:
			break;
		}
		now = workload_add(workload_mul(clean, t),
		    workload_mul(compiled, workload_add(t, o)));
		if (now > peak)
			peak = now;
	}
	return peak;
}

const struct workload wl_compilebench = {
	.name = "compilebench",
	.summary = N_("compilebench: create, patch, compile, read and delete "
		      "kernel trees"),
	.params = compilebench_params,
	.bounds = wl_compilebench_bounds,
	.prepare = compilebench_prepare,
	.run = compilebench_run,
	.cleanup = compilebench_cleanup,
	.report = compilebench_report,
	.dataset = compilebench_dataset,
};
