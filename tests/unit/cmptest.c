/*
 * Fixtures of the comparison table's unit tests: see cmptest.h. The test's
 * thread.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "cmptest.h"

static const char lab_text[] =
    "name = \"cmplab\";\n"
    "repeats = 3;\n"
    "cache = \"keep\";\n"
    "variants = (\n"
    "  { name = \"slow\"; directory = \"/var/tmp/raidlab-cmp-a\"; },\n"
    "  { name = \"fast\"; directory = \"/var/tmp/raidlab-cmp-b\"; },\n"
    "  { name = \"mirror\"; scratch = { count = 2; size = \"1G\"; };\n"
    "    array = { level = \"1\"; devices = [\"scratch:0\", \"scratch:1\"]; "
    "};\n"
    "    fs = { type = \"ext4\"; }; }\n"
    ");\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; counts = [100, 1000]; },\n"
    "  { name = \"tar\"; type = \"untar\"; }\n"
    ");\n";

struct lab *
cmptest_lab(void)
{
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(lab_text, "cmplab.cfg", &lab, &errs), 0,
	    "%s", errs.n ? errs.v[0].msg : "?");
	errlist_done(&errs);
	return lab;
}

void
cmptest_add_small(struct record *rec, const struct lab *lab, int v, int repeat,
    double f100, double f1000, enum wl_status st)
{
	struct wl_result *r = wl_result_new("smallfiles", "small");
	struct wl_test *t;

	r->status = st;
	if (st == WL_FAILED)
		r->error = xstrdup("disk full");
	t = wl_result_add_test(r, "files_100", "100 files of 4K in 10 dirs",
	    WL_UNIT_FILES_S);
	t->value = f100;
	t = wl_result_add_test(r, "files_1000", "1000 files of 4K in 10 dirs",
	    WL_UNIT_FILES_S);
	t->value = f1000;
	record_add_run(rec, &lab->variants[v], NULL, &lab->workloads[W_SMALL],
	    repeat, r, NULL);
	wl_result_free(r);
}

void
cmptest_add_tar(struct record *rec, const struct lab *lab, int v, int repeat,
    double secs, bool too_fast)
{
	struct wl_result *r = wl_result_new("untar", "tar");
	struct wl_test *t;

	t = wl_result_add_test(r, "untar", "tar xf + sync", WL_UNIT_SECONDS);
	t->value = secs;
	t->too_fast = too_fast;
	record_add_run(rec, &lab->variants[v], NULL, &lab->workloads[W_TAR],
	    repeat, r, NULL);
	wl_result_free(r);
}

struct record *
cmptest_record(const struct lab *lab)
{
	struct record *rec = record_new(lab);

	cmptest_add_small(rec, lab, V_SLOW, 1, 10, 100, WL_OK);
	cmptest_add_small(rec, lab, V_SLOW, 2, 20, 100, WL_OK);
	cmptest_add_small(rec, lab, V_SLOW, 3, 30, 100, WL_OK);
	cmptest_add_tar(rec, lab, V_SLOW, 1, 4, false);
	cmptest_add_small(rec, lab, V_FAST, 1, 30, 150, WL_OK);
	cmptest_add_small(rec, lab, V_FAST, 2, 30, 250, WL_OK);
	cmptest_add_small(rec, lab, V_FAST, 3, 999, 999, WL_FAILED);
	cmptest_add_tar(rec, lab, V_FAST, 1, 2, false);
	cmptest_add_tar(rec, lab, V_FAST, 2, 3, false);
	record_add_run(rec, &lab->variants[V_MIRROR], NULL,
	    &lab->workloads[W_SMALL], 1, NULL, "no scratch disks here");
	return rec;
}

size_t
cmptest_col(const struct compare *c, const char *workload, const char *key)
{
	for (size_t k = 0; k < c->ncols; k++)
		if (strcmp(c->cols[k].workload, workload) == 0 &&
		    strcmp(c->cols[k].key, key) == 0)
			return k;
	cr_assert_fail("no column %s %s", workload, key);
	return 0;
}

void
cmptest_setup(struct cmptest *f)
{
	f->lab = cmptest_lab();
	f->rec = cmptest_record(f->lab);
	compare_init(&f->c);
	cr_assert_eq(compare_add(&f->c, f->rec, "first"), 3);
}

void
cmptest_teardown(struct cmptest *f)
{
	compare_done(&f->c);
	record_free(f->rec);
	lab_free(f->lab);
}

void
cmptest_add_vals(struct record *rec, const struct lab *lab, int v,
    const double *vals, size_t n, double wall)
{
	for (size_t i = 0; i < n; i++) {
		struct wl_result *r = wl_result_new("smallfiles", "small");
		struct wl_test *t;

		t = wl_result_add_test(r, "files_100",
		    "100 files of 4K in 10 dirs", WL_UNIT_FILES_S);
		t->value = vals[i];
		t->wall = wall;
		record_add_run(rec, &lab->variants[v], NULL,
		    &lab->workloads[W_SMALL], (int)i + 1, r, NULL);
		wl_result_free(r);
	}
}

void
cmptest_table(struct compare *c, struct lab **lab, struct record **rec,
    const double *a, size_t na, const double *b, size_t nb)
{
	*lab = cmptest_lab();
	*rec = record_new(*lab);
	cmptest_add_vals(*rec, *lab, V_SLOW, a, na, 2.0);
	cmptest_add_vals(*rec, *lab, V_FAST, b, nb, 2.0);
	compare_init(c);
	compare_add(c, *rec, NULL);
	cr_assert_eq(c->baseline, 0);
}

void
cmptest_table_done(struct compare *c, struct lab *lab, struct record *rec)
{
	compare_done(c);
	record_free(rec);
	lab_free(lab);
}
