/*
 * compilebench through the real engine on real filesystems, with tiny
 * trees: the trees it claims exist with the files and sizes compilebench's
 * rules give them, each operation counts exactly the bytes its list names
 * (in MiB/s), the choices follow the real compilebench's sequence for the
 * seed (tests/data/compilebench-seq-*.txt: the operations and trees
 * compilebench 0.6 printed under python3 for a data set with that many
 * objects), failures and stops are clean, and the report prints
 * compilebench's lines.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "tree.h"
#include "wl-compilebench.h"
#include "wltest.h"
#include "xalloc.h"

#define TINY "files = 200; size = \"2M\"; "
#define TINY_FILES 200
#define TINY_BYTES (2u << 20)
/* compilebench-seq-o68-*: made for a data set of the tiny tree's size. */
#define TINY_OBJS 68
#define MAX_TREES 256
#define MIB 1048576.0

/* A tree as compilebench's rules leave it, replayed from the tests. */
struct mtree {
	unsigned name;
	bool live, patched, compiled; /* its state */
	bool src_patched, rest; /* sources patched; objs not in changed */
	int changed; /* 0 absent, 1 at objs' sizes, 2 at changed's */
};

/*
 * The lists, recomputed here from the generator: compilebench keeps only
 * the patched files whose size changes, and of a patched build only the
 * objects whose size differs from the clean build's.
 */
struct model {
	struct tree clean, patch, objs, objs_patched;
	uint64_t *psize; /* clean's files at the patch's sizes */
	bool *in_changed; /* objs[i] differs in the patched build */
	uint64_t p_bytes, c_bytes, c_old_bytes, src_patched_bytes;
	size_t p_n, c_n;
	struct mtree t[MAX_TREES];
	size_t n;
};

static void
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

		if (f->size == m->clean.files[f->src].size)
			continue;
		m->psize[f->src] = f->size;
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

static void
model_done(struct model *m)
{
	tree_free(&m->clean);
	tree_free(&m->patch);
	tree_free(&m->objs);
	tree_free(&m->objs_patched);
	free(m->psize);
	free(m->in_changed);
}

/* What tree t holds: regular files and their bytes. */
static size_t
model_files(const struct model *m, const struct mtree *t, uint64_t *bytes)
{
	size_t n = m->clean.nfiles;

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

			if (f->size != m->clean.files[f->src].size)
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

/* compilebench's words for an operation, as its stderr names them. */
static const char *
cb_word(const char *key)
{
	static const char *const words[][2] = { { "initial_create", "create" },
		{ "create", "create" }, { "patch", "patch" },
		{ "compile", "compile" }, { "clean", "clean" },
		{ "read_tree", "read" }, { "read_compiled", "read" },
		{ "delete_tree", "delete" }, { "delete_compiled", "delete" },
		{ "stat_tree", "stat" }, { "stat_compiled", "stat" } };

	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strcmp(words[i][0], key) == 0)
			return words[i][1];
	cr_assert_fail("unknown key %s", key);
	return NULL;
}

/* A fixture: "OP kernel-N" per line, as the real compilebench ran. */
static char *
fixture(const char *name)
{
	const char *d = getenv("TESTDATA");
	char *path = xasprintf("%s/%s", d ? d : "tests/data", name);
	struct strbuf b;
	char line[256];
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	strbuf_init(&b);
	while (fgets(line, sizeof line, f) != NULL)
		strbuf_add(&b, line);
	fclose(f);
	free(path);
	return strbuf_take(&b);
}

/* The plan's sequence for objs objects, in the fixtures' words. */
static char *
plan_sequence(uint64_t seed, size_t objs, unsigned initial, unsigned runs)
{
	struct cb_plan p;
	struct cb_step s;
	struct strbuf b;
	unsigned i;
	int rc;

	cb_plan_init(&p, seed);
	cb_plan_shuffle(&p, NULL, objs);
	strbuf_init(&b);
	for (i = 0; i < initial; i++) {
		size_t k = cb_plan_initial(&p, i); /* may move trees[] */

		strbuf_printf(&b, "create kernel-%u\n", p.trees[k].name);
	}
	for (i = 0; i < runs; i++) {
		while ((rc = cb_plan_next(&p, &s)) == -EAGAIN)
			;
		cr_assert_eq(rc, 0);
		strbuf_printf(&b, "%s kernel-%u\n",
		    cb_word(cb_phases[s.phase].key), p.trees[s.tree].name);
	}
	cb_plan_done(&p);
	return strbuf_take(&b);
}

struct seq_case {
	const char *file;
	size_t objs;
	unsigned initial, runs;
};

/* The run (-i 4 -r 30), compilebench's default, small and tiny. */
static const struct seq_case seq_cases[] = {
	{ "compilebench-seq-o3263-i4-r30.txt", 3263, 4, 30 },
	{ "compilebench-seq-o3263-i30-r100.txt", 3263, 30, 100 },
	{ "compilebench-seq-o7-i2-r60.txt", 7, 2, 60 },
	{ "compilebench-seq-o68-i2-r60.txt", TINY_OBJS, 2, 60 },
};

Test(compilebench, plan_follows_the_real_compilebench_for_seed_555)
{
	for (size_t i = 0; i < sizeof seq_cases / sizeof *seq_cases; i++) {
		const struct seq_case *c = &seq_cases[i];
		char *want = fixture(c->file);
		char *got = plan_sequence(555, c->objs, c->initial, c->runs);

		cr_assert_str_eq(got, want, "%s: raidlab's plan:\n%s", c->file,
		    got);
		free(want);
		free(got);
	}
}

/*
 * With compilebench's own numbers (files = 21280; size = 233176153) the
 * data set raidlab builds is compilebench's build in count and bytes
 * (3263 objects, 713696760 bytes: its dataset-unpatched-compiled less
 * dataset-unpatched), so the run is compilebench's run. The fixtures
 * are the real compilebench's, -i 2 -r 20 and -i 6 -r 40 (bench/
 * compilebench.sh --sequence; the first also made with compilebench's
 * own data set, byte-identical).
 */
Test(compilebench, compilebench_numbers_give_compilebench_sequence)
{
	static const struct seq_case cases[] = {
		{ "compilebench-seq-o3263-i2-r20.txt", 0, 2, 20 },
		{ "compilebench-seq-o3263-i6-r40.txt", 0, 6, 40 },
	};
	struct cb_data d;

	cr_assert_eq(cb_data_init(&d, 21280, 233176153, CB_PATCH_PERMILLE), 0);
	cr_assert_eq(d.sum.nobjs, 3263, "a build of %zu objects", d.sum.nobjs);
	cr_assert_eq(d.objs.bytes, 713696760, "a build of %llu bytes",
	    (unsigned long long)d.objs.bytes);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *want = fixture(cases[i].file);
		char *got = plan_sequence(555, d.sum.nobjs, cases[i].initial,
		    cases[i].runs);

		cr_assert_str_eq(got, want, "%s: raidlab's plan:\n%s",
		    cases[i].file, got);
		free(want);
		free(got);
	}
	cb_data_done(&d);
}

/*
 * compilebench's own summary ("create total runs 4 ...") for a data set
 * of objs objects: the plan files each operation under the same phase,
 * its quirks included (a delete of the last tree of a kind counts as
 * "delete compiled tree" while a compiled kind is empty).
 */
static char *
plan_runs(size_t objs, unsigned initial, unsigned runs)
{
	size_t n[CB__COUNT] = { 0 };
	struct cb_plan p;
	struct cb_step s;
	struct strbuf b;
	unsigned i;

	cb_plan_init(&p, 555);
	cb_plan_shuffle(&p, NULL, objs);
	for (i = 0; i < initial; i++) {
		cb_plan_initial(&p, i);
		n[CB_INITIAL]++;
	}
	for (i = 0; i < runs; i++) {
		while (cb_plan_next(&p, &s) == -EAGAIN)
			;
		n[s.phase]++;
	}
	cb_plan_done(&p);
	strbuf_init(&b);
	for (i = 0; i < CB__COUNT; i++)
		if (n[i] > 0)
			strbuf_printf(&b, "%s:%zu\n", cb_phases[i].name, n[i]);
	return strbuf_take(&b);
}

Test(compilebench, plan_files_operations_under_compilebench_phases)
{
	static const struct seq_case cases[] = {
		{ "compilebench-runs-o3263-i4-r30.txt", 3263, 4, 30 },
		{ "compilebench-runs-o3263-i10-r100.txt", 3263, 10, 100 },
		{ "compilebench-runs-o3263-i1-r3.txt", 3263, 1, 3 },
		{ "compilebench-runs-o3263-i2-r20.txt", 3263, 2, 20 },
		{ "compilebench-runs-o3263-i6-r40.txt", 3263, 6, 40 },
		{ "compilebench-runs-o68-i2-r60.txt", TINY_OBJS, 2, 60 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *want = fixture(cases[i].file);
		char *got =
		    plan_runs(cases[i].objs, cases[i].initial, cases[i].runs);

		cr_assert_str_eq(got, want, "%s: raidlab's plan:\n%s",
		    cases[i].file, got);
		free(want);
		free(got);
	}
}

/* Keys and labels (which name the tree) of every operation. */
static char *
sequence(const char *target, const char *seed, bool words)
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
	for (i = 0; i < r->ntests; i++) {
		const struct wl_test *t = &r->tests[i];

		if (words)
			strbuf_printf(&b, "%s %.*s\n", cb_word(t->key),
			    (int)(strlen(strrchr(t->label, '(')) - 2),
			    strrchr(t->label, '(') + 1);
		else
			strbuf_printf(&b, "%s %s\n", t->key, t->label);
	}
	wl_result_free(r);
	s = strbuf_take(&b);
	strbuf_done(&b);
	return s;
}

/*
 * The whole run, not only the plan: on the tiny tree (as many objects as
 * the fixture's data set) raidlab runs compilebench's operations on
 * compilebench's trees, in its order.
 */
Test(compilebench, run_performs_the_real_compilebench_sequence)
{
	struct wltest_target tg;
	struct model m;
	char *want, *got;

	model_init(&m);
	cr_assert_eq(m.objs.nfiles, TINY_OBJS,
	    "the tiny tree has %zu objects, the fixture was made for %d: "
	    "remake it (CB=<compilebench clone> OBJS=%zu INITIAL=2 RUNS=60 "
	    "bench/compilebench.sh --sequence) and set TINY_OBJS",
	    m.objs.nfiles, TINY_OBJS, m.objs.nfiles);
	model_done(&m);
	wltest_target_dir(&tg);
	want = fixture("compilebench-seq-o68-i2-r60.txt");
	got = sequence(tg.dir, "555", true);
	cr_assert_str_eq(got, want, "raidlab ran:\n%s", got);
	free(want);
	free(got);
	wltest_target_free(&tg);
}

Test(compilebench, same_seed_same_operations_and_trees)
{
	struct wltest_target tg;
	char *a, *b, *c;
	static const char *const keys[] = { "create", "patch", "compile",
		"clean", "read_tree", "delete_tree", "stat_tree" };

	wltest_target_dir(&tg);
	a = sequence(tg.dir, "555", false);
	b = sequence(tg.dir, "555", false);
	c = sequence(tg.dir, "556", false);
	cr_assert_str_eq(a, b, "seed 555 twice gave two sequences");
	cr_assert_str_neq(a, c, "seeds 555 and 556 gave one sequence");
	/* 60 operations of seed 555 include each of the seven. */
	for (size_t p = 0; p < sizeof keys / sizeof *keys; p++) {
		char k[32];

		snprintf(k, sizeof k, "\n%s ", keys[p]);
		cr_assert(strstr(a, k) != NULL, "no %s in:\n%s", keys[p], a);
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
