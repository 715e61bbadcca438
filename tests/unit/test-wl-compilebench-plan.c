/*
 * compilebench's choices (wl-compilebench-plan): the plan follows the
 * real compilebench's sequence for the seed (tests/data/
 * compilebench-seq-*.txt: the operations and trees compilebench 0.6
 * printed under python3 for a data set with that many objects), files
 * the operations under compilebench's phases, and a run performs it;
 * the same seed gives the same operations and trees. Part of the
 * test-wl-compilebench program (unit-compilebench.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "measure/wl-compilebench.h"
#include "unit-compilebench.h"
#include "wltest.h"

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
