/*
 * Write amplification: the ratio of the bytes the bottom devices wrote
 * to the bytes the workload wrote, split by role (members, md write
 * journal, fs log), never counting an md array beside its members nor a
 * holder beside its disks; records without roles still give a ratio;
 * the levels' ideal ratios; and the comparison's column, through a
 * record's JSON and back, with its interval and a stopped run kept out.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "figures/series.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "results/compare.h"
#include "results/record.h"
#include "results/wamp.h"

#define MB (UINT64_C(1) << 20)

/* A series of n samples in which each device (name, role) wrote
   per[k] bytes a sample. */
static void
series_of(struct series *s, size_t ndev, const char *const *names,
    const char *const *roles, const uint64_t *per, size_t n)
{
	struct dev_sample d[8];
	struct sample x;

	series_init(s, 64);
	for (size_t k = 0; k < ndev; k++)
		series_add_dev(s, names[k], roles[k]);
	memset(&x, 0, sizeof x);
	for (size_t i = 0; i < n; i++) {
		x.t = (double)i + 1;
		x.dt = 1;
		for (size_t k = 0; k < ndev; k++) {
			d[k].read_bytes = 0;
			d[k].write_bytes = per[k];
			d[k].busy_s = NAN;
		}
		series_push_devs(s, &x, d);
	}
}

Test(wamp, ratio_is_device_bytes_over_workload_bytes)
{
	const char *names[] = { "loop0", "loop1" };
	const char *roles[] = { "device", "device" };
	const uint64_t per[] = { 10 * MB, 10 * MB };
	struct series s;
	struct wamp w;

	series_of(&s, 2, names, roles, per, 5);
	cr_assert(wamp_measure(&s, 50 * MB, &w));
	cr_assert_float_eq(wamp_ratio(&w, -1), 2.0, 1e-12);
	cr_assert_eq(w.ndev[WAMP_MEMBERS], 2);
	cr_assert_float_eq(wamp_ratio(&w, WAMP_MEMBERS), 2.0, 1e-12);
	cr_assert_float_eq(wamp_ratio(&w, WAMP_LOG), 0.0, 1e-12);
	series_done(&s);
}

Test(wamp, splits_members_journal_and_log_and_skips_the_array)
{
	const char *names[] = { "md127", "loop0", "loop1", "loop2", "loop3" };
	const char *roles[] = { "array", "member", "member", "journal", "log" };
	const uint64_t per[] = { 999 * MB, 3 * MB, 3 * MB, 4 * MB, 1 * MB };
	struct series s;
	struct wamp w;

	series_of(&s, 5, names, roles, per, 2);
	cr_assert(wamp_measure(&s, 4 * MB, &w));
	cr_assert_eq(w.dev[WAMP_MEMBERS], 12 * MB);
	cr_assert_eq(w.dev[WAMP_JOURNAL], 8 * MB);
	cr_assert_eq(w.dev[WAMP_LOG], 2 * MB);
	cr_assert_float_eq(wamp_ratio(&w, WAMP_MEMBERS), 3.0, 1e-12);
	cr_assert_float_eq(wamp_ratio(&w, WAMP_JOURNAL), 2.0, 1e-12);
	cr_assert_float_eq(wamp_ratio(&w, WAMP_LOG), 0.5, 1e-12);
	cr_assert_float_eq(wamp_ratio(&w, -1), 5.5, 1e-12);
	series_done(&s);
}

Test(wamp, nested_array_counts_its_bottom_disks_only)
{
	/* RAID0 over two RAID1 legs: the top and the legs are md arrays */
	const char *names[] = { "md125", "md126", "md127", "loop0", "loop1",
		"loop2", "loop3" };
	const char *roles[] = { "array", "array", "array", "member", "member",
		"member", "member" };
	const uint64_t per[] = { 8 * MB, 8 * MB, 8 * MB, 4 * MB, 4 * MB, 4 * MB,
		4 * MB };
	struct series s;
	struct wamp w;

	series_of(&s, 7, names, roles, per, 1);
	cr_assert(wamp_measure(&s, 8 * MB, &w));
	cr_assert_eq(w.ndev[WAMP_MEMBERS], 4);
	cr_assert_float_eq(wamp_ratio(&w, -1), 2.0, 1e-12);
	series_done(&s);
}

Test(wamp, holder_beside_its_disks_is_not_counted_again)
{
	/* a directory on dm over two disks: the dm device is a "device" */
	const char *names[] = { "dm-0", "sda", "sdb" };
	const char *roles[] = { "device", "member", "member" };
	const uint64_t per[] = { 2 * MB, 1 * MB, 1 * MB };
	struct series s;
	struct wamp w;

	series_of(&s, 3, names, roles, per, 4);
	cr_assert(wamp_measure(&s, 8 * MB, &w));
	cr_assert_eq(w.ndev[WAMP_MEMBERS], 2);
	cr_assert_float_eq(wamp_ratio(&w, -1), 1.0, 1e-12);
	cr_assert_eq(wamp_part_of("device", true), -1);
	cr_assert_eq(wamp_part_of("device", false), WAMP_MEMBERS);
	cr_assert_eq(wamp_part_of("array", false), -1);
	series_done(&s);
}

Test(wamp, series_without_roles_still_gives_a_ratio)
{
	const char *names[] = { "vdb", "vdc" };
	const char *roles[] = { NULL, NULL };
	const uint64_t per[] = { 1 * MB, 1 * MB };
	struct series s;
	struct wamp w;

	series_of(&s, 2, names, roles, per, 3);
	cr_assert(wamp_measure(&s, 3 * MB, &w));
	cr_assert_float_eq(wamp_ratio(&w, -1), 2.0, 1e-12);
	series_done(&s);
}

Test(wamp, nothing_to_say_without_bytes_devices_or_whole_samples)
{
	const char *names[] = { "md127" };
	const char *roles[] = { "array" };
	const uint64_t per[] = { MB };
	struct series s;
	struct wamp w;

	series_of(&s, 1, names, roles, per, 2);
	cr_assert_not(wamp_measure(&s, MB, &w), "an array alone counts none");
	series_done(&s);
	roles[0] = "device";
	series_of(&s, 1, names, roles, per, 2);
	cr_assert_not(wamp_measure(&s, 0, &w));
	cr_assert(isnan(wamp_ratio(&w, -1)));
	s.dropped = 3;
	cr_assert_not(wamp_measure(&s, MB, &w), "samples were lost");
	series_done(&s);
}

static struct lab_array
array_of(enum lab_engine e, int level, size_t n, const char *layout)
{
	struct lab_array a;

	memset(&a, 0, sizeof a);
	a.engine = e;
	if (e == LAB_ENGINE_BTRFS)
		a.profile = (enum lab_profile)level;
	else
		a.md_level = (enum lab_md_level)level;
	a.devices.n = n;
	a.layout = (char *)(uintptr_t)layout;
	return a;
}

Test(wamp, ideal_ratio_of_each_level)
{
	struct {
		enum lab_engine e;
		int level;
		size_t n;
		const char *layout;
		double want;
	} cases[] = {
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_1, 2, NULL, 2 },
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_1, 3, NULL, 3 },
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_0, 4, NULL, 1 },
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_5, 4, NULL, 4.0 / 3 },
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_6, 6, NULL, 1.5 },
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_10, 4, NULL, 2 },
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_10, 6, "f3", 3 },
		{ LAB_ENGINE_MD, LAB_MD_LEVEL_5, 1, NULL, NAN },
		{ LAB_ENGINE_BTRFS, LAB_PROFILE_RAID1, 2, NULL, 2 },
		{ LAB_ENGINE_BTRFS, LAB_PROFILE_RAID10, 4, NULL, 2 },
		{ LAB_ENGINE_BTRFS, LAB_PROFILE_RAID1C3, 3, NULL, 3 },
		{ LAB_ENGINE_BTRFS, LAB_PROFILE_RAID5, 4, NULL, 4.0 / 3 },
		{ LAB_ENGINE_BTRFS, LAB_PROFILE_RAID6, 4, NULL, 2 },
		{ LAB_ENGINE_SINGLE, 0, 1, NULL, 1 },
	};
	char how[256];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lab_array a = array_of(cases[i].e, cases[i].level,
		    cases[i].n, cases[i].layout);
		double got = wamp_ideal(&a, 0, how, sizeof how);

		if (isnan(cases[i].want)) {
			cr_expect(isnan(got), "case %zu: %g", i, got);
			continue;
		}
		cr_expect_float_eq(got, cases[i].want, 1e-12, "case %zu: %g", i,
		    got);
		cr_expect(how[0] != '\0', "case %zu says its rule", i);
	}
}

Test(wamp, ideal_ratio_of_a_nested_array_multiplies_top_and_legs)
{
	struct lab_array legs[2], top;
	char how[256];

	legs[0] = array_of(LAB_ENGINE_MD, LAB_MD_LEVEL_1, 2, NULL);
	legs[1] = legs[0];
	top = array_of(LAB_ENGINE_MD, LAB_MD_LEVEL_0, 0, NULL);
	top.legs = legs;
	top.nlegs = 2;
	cr_assert_float_eq(wamp_ideal(&top, 0, how, sizeof how), 2.0, 1e-12);
	legs[1].devices.n = 3;
	cr_assert(isnan(wamp_ideal(&top, 0, how, sizeof how)),
	    "legs that differ have no one ideal");
}

static const char lab_text[] =
    "name = \"wamplab\";\n"
    "variants = (\n"
    "  { name = \"m\"; scratch = { count = 2; size = \"1G\"; };\n"
    "    array = { engine = \"btrfs\"; level = \"raid1\"; }; },\n"
    "  { name = \"d\"; directory = \"/var/tmp/raidlab-wamp\"; }\n"
    ");\n"
    "workloads = ( { name = \"w\"; type = \"fio\"; rw = \"write\"; } );\n";

/* A run of w on variant v: the workload wrote 100 MiB, loop0 and loop1
   each dev MiB. */
static void
add_run_on(struct record *rec, const struct lab *lab, int v, int repeat,
    uint64_t dev, enum wl_status st)
{
	const char *names[] = { "loop0", "loop1" };
	const char *roles[] = { "device", "device" };
	const uint64_t per[] = { dev * MB, dev * MB };
	struct wl_result *r = wl_result_new("fio", "w");
	struct wl_test *t;

	r->status = st;
	t = wl_result_add_test(r, "write", "write", WL_UNIT_MBPS);
	t->value = 100;
	t->wall = 2;
	t->bytes_written = 100 * MB;
	t->interrupted = st == WL_INTERRUPTED;
	series_done(&r->series);
	series_of(&r->series, 2, names, roles, per, 1);
	record_add_run(rec, &lab->variants[v], NULL, &lab->workloads[0], repeat,
	    r, NULL);
	wl_result_free(r);
}

static void
add_run(struct record *rec, const struct lab *lab, int repeat, uint64_t dev,
    enum wl_status st)
{
	add_run_on(rec, lab, 0, repeat, dev, st);
}

Test(wamp, compare_column_through_the_record_with_its_interval)
{
	struct errlist errs;
	struct lab *lab = NULL;
	struct record *rec;
	struct compare c;
	size_t k = COMPARE_NONE;
	const struct compare_cell *x;
	char *ideal;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(lab_text, "wamp.cfg", &lab, &errs), 0);
	errlist_done(&errs);
	rec = record_new(lab);
	add_run(rec, lab, 1, 100, WL_OK);
	add_run(rec, lab, 2, 104, WL_OK);
	add_run(rec, lab, 3, 96, WL_OK);
	/* a stopped run's bytes are not the lab's run: left out */
	add_run(rec, lab, 4, 500, WL_INTERRUPTED);
	compare_init(&c);
	cr_assert_eq(compare_add(&c, rec, NULL), 1);
	for (size_t i = 0; i < c.ncols; i++)
		if (strcmp(c.cols[i].key, "wamp") == 0)
			k = i;
	cr_assert_neq(k, COMPARE_NONE, "no write amplification column");
	cr_assert(compare_col_is_wamp(&c, k));
	cr_assert(c.cols[k].lower_better);
	x = compare_cell(&c, 0, k);
	cr_assert_eq(x->n, 3);
	cr_assert_eq(x->stopped, 1);
	cr_assert_not(x->interrupted);
	cr_assert_float_eq(x->mean, 2.0, 1e-9);
	cr_assert(x->d.ci_lo < 2.0 && x->d.ci_hi > 2.0);
	cr_assert_float_eq(c.rows[0].wamp_ideal, 2.0, 1e-12);
	ideal = compare_wamp_ideal_text(&c, 0);
	cr_assert_not_null(ideal);
	cr_assert(strstr(ideal, "2.00") != NULL, "%s", ideal);
	free(ideal);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

Test(wamp, directory_variant_shares_its_devices_and_gets_no_column)
{
	struct errlist errs;
	struct lab *lab = NULL;
	struct record *rec;
	struct compare c;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(lab_text, "wamp.cfg", &lab, &errs), 0);
	errlist_done(&errs);
	rec = record_new(lab);
	add_run_on(rec, lab, 1, 1, 100, WL_OK);
	add_run_on(rec, lab, 1, 2, 100, WL_OK);
	compare_init(&c);
	cr_assert_eq(compare_add(&c, rec, NULL), 1);
	for (size_t k = 0; k < c.ncols; k++)
		cr_assert_not(compare_col_is_wamp(&c, k), "%s", c.cols[k].key);
	compare_done(&c);
	record_free(rec);
	lab_free(lab);
}

Test(wamp, record_of_an_older_raidlab_has_no_column_and_loads)
{
	const char *d = getenv("TESTDATA");
	char *path =
	    xasprintf("%s/records/fixture-v1.json", d ? d : "tests/data");
	struct record *rec = NULL;
	struct compare c;
	struct err e;

	err_clear(&e);
	cr_assert_eq(record_load(path, &rec, &e), 0, "%s", e.msg);
	free(path);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	for (size_t k = 0; k < c.ncols; k++)
		cr_assert_not(compare_col_is_wamp(&c, k));
	compare_done(&c);
	record_free(rec);
}
