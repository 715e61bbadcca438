/*
 * compilebench: Chris Mason's aging simulation, as compilebench 0.6 (the
 * Python 3 script) runs it. initial trees are created from a kernel-like
 * file list (tree.h), unsynced, then one untimed sync; then runs random
 * operations (create, patch, compile, clean, read, delete, stat) chosen
 * by its own random.Random(seed) sequence (wl-compilebench-plan.c), so a
 * seed performs compilebench's operations on compilebench's trees
 * (kernel-N) when the data set has as many objects as its own. Before
 * each draw the page cache is dropped, outside the timing; an operation
 * times its work and the sync after it, and is reported in MiB/s (2^20
 * bytes, compilebench's "MB/s") of the bytes its list names, seconds for
 * delete and stat. The report aggregates per phase as compilebench
 * prints it. Driver thread; one worker per operation
 * (wl-compilebench-ops.c).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "engine.h"
#include "wl-compilebench.h"
#include "workload.h"

static const struct param compilebench_params[] = {
	{ "initial", PARAM_INT, "30", 1, 10000, NULL, 0, NULL,
	    N_("trees created first (-i)") },
	{ "runs", PARAM_INT, "100", 0, 1000000, NULL, 0, NULL,
	    N_("random operations after that (-r)") },
	{ "seed", PARAM_INT, "555", 0, 4294967295LL, NULL, 0, NULL,
	    N_("random seed, so that runs are comparable") },
	{ "sync", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("sync after each operation, drop caches before (false: "
	       "--no-sync)") },
	{ "files", PARAM_INT, "21280", 1, 10000000, NULL, 0, NULL,
	    N_("files in one kernel tree (compilebench's 2.6.20: 21280)") },
	{ "size", PARAM_SIZE, "233176153", 1, 0, NULL, 0, NULL,
	    N_("bytes of one kernel tree (compilebench's 2.6.20: "
	       "233176153)") },
	{ "patched", PARAM_INT, "288", 1, 1000, NULL, 0, NULL,
	    N_("files a patch rewrites, per 1000 (compilebench's 2.6.21: "
	       "288)") },
	{ "patch_read", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("a patch reads each file before rewriting it, as compilebench "
	       "means to (false: as compilebench 0.6 does under Python 3, "
	       "which reads nothing)") },
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
	[CB_INITIAL] = { "initial_create", N_("intial create"), WL_UNIT_MIBPS },
	[CB_CREATE] = { "create", N_("create"), WL_UNIT_MIBPS },
	[CB_PATCH] = { "patch", N_("patch"), WL_UNIT_MIBPS },
	[CB_COMPILE] = { "compile", N_("compile"), WL_UNIT_MIBPS },
	[CB_CLEAN] = { "clean", N_("clean"), WL_UNIT_MIBPS },
	[CB_READ_TREE] = { "read_tree", N_("read tree"), WL_UNIT_MIBPS },
	[CB_READ_COMPILED] = { "read_compiled", N_("read compiled tree"),
	    WL_UNIT_MIBPS },
	[CB_DELETE_TREE] = { "delete_tree", N_("delete tree"),
	    WL_UNIT_SECONDS },
	[CB_DELETE_COMPILED] = { "delete_compiled", N_("delete compiled tree"),
	    WL_UNIT_SECONDS },
	[CB_STAT_TREE] = { "stat_tree", N_("stat tree"), WL_UNIT_SECONDS },
	[CB_STAT_COMPILED] = { "stat_compiled", N_("stat compiled tree"),
	    WL_UNIT_SECONDS },
};

/* ---------------------------------------------------------------- prepare */

/*
 * The objects in compilebench's shuffled order: its first draws, made
 * before any tree exists.
 */
static void
order_build(struct cb *cb)
{
	const struct tree *o = &cb->d.objs;
	uint32_t *v = xcalloc(o->nfiles + 1, sizeof *v);
	size_t i;

	for (i = 0; i < o->nfiles; i++)
		v[i] = (uint32_t)i;
	cb_plan_shuffle(&cb->plan, v, o->nfiles);
	cb->objs_order = *o;
	cb->objs_order.strings = NULL;
	cb->objs_order.strings_len = cb->objs_order.strings_cap = 0;
	cb->objs_order.files = xcalloc(o->nfiles + 1, sizeof *o->files);
	for (i = 0; i < o->nfiles; i++)
		cb->objs_order.files[i] = o->files[v[i]];
	free(v);
}

static uint64_t
max3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a > b ? a : b;

	return m > c ? m : c;
}

/*
 * Say which data set ran: raidlab's synthetic tree, never compilebench's
 * own lists, though with its numbers it has their counts and bytes.
 */
static void
note_dataset(struct wl_run *r, const struct cb_data *d)
{
	wl_note(r,
	    _("data set: raidlab's synthetic kernel tree (generator %d, "
	      "seed %d): %zu files of %" PRIu64 " bytes, a build of %zu "
	      "files of %" PRIu64 " bytes, a patch of %zu files%s"),
	    TREE_VERSION, TREE_DEFAULT_SEED, d->clean.nfiles, d->clean.bytes,
	    d->objs.nfiles, d->objs.bytes, d->patch.nfiles,
	    d->objs.nfiles == 3263 && d->clean.bytes == 233176153
		? _("; compilebench's 2.6.20 counts and bytes, not its "
		    "file names")
		: "");
}

/* The data sets and the first draws (not timed), and the buffers. */
static int
compilebench_prepare(struct wl_run *r)
{
	struct cb *cb = xcalloc(1, sizeof *cb);
	uint32_t files = (uint32_t)wl_param_int(r, "files");
	uint64_t big, bytes = wl_param_size(r, "size");
	char sz[UNITS_BUF];

	r->priv = cb;
	cb_plan_init(&cb->plan, (uint64_t)wl_param_int(r, "seed"));
	if (cb_data_init(&cb->d, files, bytes,
		(unsigned)wl_param_int(r, "patched")) < 0)
		return wl_run_fail(r, -EINVAL,
		    _("size %s is less than files %" PRIu32 ": each file "
		      "needs at least one byte"),
		    units_format_exact(bytes, sz, sizeof sz), files);
	order_build(cb);
	cb->sync = wl_param_bool(r, "sync");
	cb->patch_read = wl_param_bool(r, "patch_read");
	big = max3(tree_max_size(&cb->d.clean), tree_max_size(&cb->d.patch),
	    max3(tree_max_size(&cb->d.objs), tree_max_size(&cb->d.changed), 1));
	cb->wlen = big < CB_WRITE_BUF ? (size_t)big : CB_WRITE_BUF;
	cb->wbuf = xmalloc(cb->wlen);
	tree_fill(cb->wbuf, cb->wlen);
	cb->rbuf = xmalloc(CB_READ_BUF);
	cb->dents = xmalloc((size_t)CB_WALK_DEPTH * CB_DENTS_BUF);
	wl_check_dataset(r,
	    (uint64_t)wl_param_int(r, "initial") * cb->d.clean.bytes);
	note_dataset(r, &cb->d);
	return 0;
}

static void
compilebench_cleanup(struct wl_run *r)
{
	struct cb *cb = r->priv;

	if (cb == NULL)
		return;
	cb_data_done(&cb->d);
	free(cb->objs_order.files);
	cb_plan_done(&cb->plan);
	free(cb->wbuf);
	free(cb->rbuf);
	free(cb->dents);
	free(cb);
	r->priv = NULL;
}

/* ---------------------------------------------------------------- run */

static const struct tree *
set_list(const struct cb *cb, enum cb_set set)
{
	switch (set) {
	case CB_SET_SOURCES:
		return &cb->d.clean;
	case CB_SET_PATCH:
		return &cb->d.patch;
	case CB_SET_OBJS:
		return &cb->objs_order;
	case CB_SET_OBJS_CHANGED:
		return &cb->d.changed;
	default:
		return NULL;
	}
}

/*
 * One operation, one test: the work and the sync after it (none for
 * initial create), as compilebench times them. MiB/s is the bytes the
 * operation's list names (written, unlinked) or it read, over the test's
 * wall time.
 */
static int
operate(struct wl_run *r, struct cb *cb, const struct cb_step *s)
{
	const struct cb_phase_info *pi = &cb_phases[s->phase];
	const struct cb_tree *t = &cb->plan.trees[s->tree];
	struct cb_op *op = &cb->op;
	struct wl_test *test;
	char label[96];
	uint64_t t0;
	int rc;

	op->cb = cb;
	op->phase = s->phase;
	op->set = set_list(cb, s->set);
	op->unlink = s->unlink;
	op->sync = cb->sync && s->phase != CB_INITIAL;
	op->bytes = 0;
	snprintf(op->name, sizeof op->name, "kernel-%u", t->name);
	snprintf(op->root, sizeof op->root, "%s/%s", r->dir, op->name);
	/* Labels are untranslated (result.h). */
	snprintf(label, sizeof label, "%s (kernel-%u)",
	    s->phase == CB_INITIAL ? "initial create" : pi->name, t->name);
	t0 = wl_now_ns();
	wl_test_begin(r, pi->key, label, pi->unit);
	rc = wl_parallel(r, 1, cb_worker, op);
	if (pi->unit == WL_UNIT_MIBPS)
		wl_test_set_value(r,
		    (double)op->bytes / ((double)(wl_now_ns() - t0) / 1e9) /
			1048576.0);
	test = wl_test_end(r, 0);
	/* Exactly bytes / wall, on the wall the test recorded. */
	if (test != NULL && pi->unit == WL_UNIT_MIBPS)
		test->value = test->wall > 0
		    ? (double)op->bytes / test->wall / 1048576.0
		    : 0.0;
	return rc;
}

/*
 * compilebench's main loop: drop the caches, draw; an operation that
 * finds no tree is drawn again and not counted. The drop is skipped when
 * nothing ran since the last one (the same cache, less waiting).
 */
static int
next_step(struct wl_run *r, struct cb *cb, bool *dirty, struct cb_step *s)
{
	int rc;

	do {
		if (cb->sync && *dirty)
			wl_drop_caches(r);
		*dirty = false;
		rc = cb_plan_next(&cb->plan, s);
	} while (rc == -EAGAIN && !wl_stopping(r));
	if (rc == -ENOSPC)
		return wl_run_fail(r, rc,
		    _("create: every tree name from kernel-%d to kernel-%d "
		      "is taken (compilebench would loop forever)"),
		    CB_NAME_MIN, CB_NAME_MAX);
	return rc == -EAGAIN ? -EINTR : rc;
}

static int
compilebench_run(struct wl_run *r)
{
	struct cb *cb = r->priv;
	int64_t initial = wl_param_int(r, "initial");
	int64_t runs = wl_param_int(r, "runs"), i;
	struct cb_step s;
	bool dirty = true;
	int rc = 0;

	for (i = 0; i < initial && rc == 0; i++) {
		memset(&s, 0, sizeof s);
		s.phase = CB_INITIAL;
		s.set = CB_SET_SOURCES;
		s.tree = cb_plan_initial(&cb->plan, (unsigned)i);
		wl_test_progress(r, _("tree"), (unsigned long long)i + 1,
		    (unsigned long long)initial);
		rc = operate(r, cb, &s);
	}
	/* compilebench syncs once after the initial trees, untimed. */
	if (rc == 0 && cb->sync)
		sync();
	for (i = 0; i < runs && rc == 0; i++) {
		if ((rc = next_step(r, cb, &dirty, &s)) == 0) {
			wl_test_progress(r, _("run"), (unsigned long long)i + 1,
			    (unsigned long long)runs);
			rc = operate(r, cb, &s);
		}
		dirty = true;
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
 * The block sums of a tree of files and bytes. The last answer is kept:
 * generating the lists takes milliseconds, and a lab may hold many
 * entries alike. false when the spec makes no tree.
 */
static bool
data_sums(uint32_t files, uint64_t bytes, unsigned permille,
    struct cb_blocks *out)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct cb_blocks c_sum;
	static uint64_t c_bytes;
	static uint32_t c_files;
	static unsigned c_permille;
	static bool c_ok;
	struct cb_data d;

	pthread_mutex_lock(&lock);
	if (c_files != files || c_bytes != bytes || c_permille != permille) {
		c_ok = cb_data_init(&d, files, bytes, permille) == 0;
		if (c_ok)
			c_sum = d.sum;
		cb_data_done(&d);
		c_files = files;
		c_bytes = bytes;
		c_permille = permille;
	}
	*out = c_sum;
	pthread_mutex_unlock(&lock);
	return c_ok;
}

/*
 * The trees alive at the worst moment: compilebench_run()'s plan
 * replayed without the filesystem, each operation assumed to succeed,
 * each tree in whole blocks of what it holds then.
 */
static uint64_t
compilebench_dataset(const struct param_value *v, bool keep)
{
	const struct param *ps = compilebench_params;
	int64_t initial = workload_value(ps, v, "initial")->i;
	int64_t runs = workload_value(ps, v, "runs")->i, i;
	struct cb_blocks b;
	struct cb_plan p;
	struct cb_step s;
	uint64_t now = 0, peak, *held;
	int rc = 0;

	(void)keep; /* the end is never worse than the worst moment */
	if (!data_sums((uint32_t)workload_value(ps, v, "files")->i,
		workload_value(ps, v, "size")->size,
		(unsigned)workload_value(ps, v, "patched")->i, &b))
		return 0;
	cb_plan_init(&p, (uint64_t)workload_value(ps, v, "seed")->i);
	cb_plan_shuffle(&p, NULL, b.nobjs);
	held = xcalloc((size_t)(initial + runs) + 1, sizeof *held);
	for (i = 0; i < initial; i++) {
		size_t k = cb_plan_initial(&p, (unsigned)i);

		held[k] = cb_tree_blocks(&b, &p.trees[k]);
		now = workload_add(now, held[k]);
	}
	peak = now;
	for (i = 0; i < runs && rc != -ENOSPC; i++) {
		while ((rc = cb_plan_next(&p, &s)) == -EAGAIN)
			;
		if (rc < 0)
			break;
		now -= held[s.tree];
		held[s.tree] = cb_tree_blocks(&b, &p.trees[s.tree]);
		now = workload_add(now, held[s.tree]);
		if (now > peak)
			peak = now;
	}
	free(held);
	cb_plan_done(&p);
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
