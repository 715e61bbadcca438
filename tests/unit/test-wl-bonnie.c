/*
 * bonnie through the real engine on real filesystems: every test of
 * bonnie++'s sequence runs, its counters match what bonnie++ does, the
 * figures are the counters over the wall time, the file tests' files
 * exist mid-run with the sizes asked for, failures and stops are clean,
 * and the report is bonnie++'s table and CSV.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "measure/wl-bonnie.h"
#include "wltest.h"

#define MiB (1024 * 1024)

/* Small: 8M file, 256K per char, 200 seeks, 1024 files. */
#define SMALL                                                                  \
	"size = \"8M\"; ram = \"4M\"; char_size = \"256K\"; seeks = 200; "     \
	"files = 1;"

static const struct wl_test *
test_of(const struct wl_result *r, enum bonnie_test bt)
{
	const struct wl_test *t = wl_result_test(r, bonnie_keys[bt]);

	cr_assert_not_null(t, "no test %s", bonnie_keys[bt]);
	cr_assert_gt(t->wall, 0.0);
	cr_assert_geq(t->user + t->sys, 0.0);
	cr_assert_not(t->interrupted);
	return t;
}

static void
check_kbps(const struct wl_test *t, double bytes)
{
	cr_assert_float_eq(t->value, bytes / 1024.0 / t->wall,
	    1e-6 * t->value + 1e-9, "%s: %f K/sec is not %f bytes / %f s",
	    t->key, t->value, bytes, t->wall);
}

static void
check_io(const struct wl_result *r, uint64_t size, uint64_t chr, uint64_t chunk,
    uint64_t seeks)
{
	const struct wl_test *t;

	t = test_of(r, BT_PUTC);
	cr_assert_eq(t->bytes_written, chr);
	/* bonnie++ 2.00 times per-char I/O a chunk's worth at a time. */
	cr_assert_eq(t->lat[WL_OP_WRITE].n, (chr + chunk - 1) / chunk);
	check_kbps(t, (double)chr);
	t = test_of(r, BT_PUT_BLOCK);
	cr_assert_eq(t->bytes_written, size);
	cr_assert_eq(t->lat[WL_OP_WRITE].n, size / chunk);
	cr_assert_eq(t->lat[WL_OP_FSYNC].n, 1, "fsync inside the timing");
	check_kbps(t, (double)size);
	t = test_of(r, BT_REWRITE);
	cr_assert_eq(t->bytes_read, size);
	cr_assert_eq(t->bytes_written, size);
	check_kbps(t, (double)size); /* the file once, as bonnie++ */
	t = test_of(r, BT_GETC);
	cr_assert_eq(t->bytes_read, chr);
	cr_assert_eq(t->lat[WL_OP_READ].n, (chr + chunk - 1) / chunk);
	check_kbps(t, (double)chr);
	t = test_of(r, BT_GET_BLOCK);
	cr_assert_eq(t->bytes_read, size);
	check_kbps(t, (double)size);
	t = test_of(r, BT_SEEKS);
	cr_assert_eq(t->ops, seeks);
	cr_assert_eq(t->lat[WL_OP_SEEK].n, seeks);
	cr_assert_eq(t->bytes_read, seeks * chunk);
	cr_assert_eq(t->bytes_written % chunk, 0);
	cr_assert_lt(t->bytes_written, seeks * chunk / 3, "about 10%% written");
	cr_assert_float_eq(t->value, (double)seeks / t->wall, 1e-6 * t->value);
}

static void
check_files(const struct wl_result *r, uint64_t n)
{
	for (int k = BT_SEQ_CREATE; k < BT__COUNT; k++) {
		const struct wl_test *t = test_of(r, (enum bonnie_test)k);

		cr_assert_eq(t->files, n, "%s: %llu files", t->key,
		    (unsigned long long)t->files);
		cr_assert_float_eq(t->value, (double)n / t->wall,
		    1e-6 * t->value);
	}
	cr_assert_eq(test_of(r, BT_SEQ_CREATE)->lat[WL_OP_CREATE].n, n);
	cr_assert_eq(test_of(r, BT_SEQ_CREATE)->lat[WL_OP_FSYNC].n, 1,
	    "sync inside the create's timing");
	cr_assert_eq(test_of(r, BT_SEQ_STAT)->lat[WL_OP_STAT].n, n);
	cr_assert_eq(test_of(r, BT_SEQ_DEL)->lat[WL_OP_DELETE].n, n);
	cr_assert_eq(test_of(r, BT_RAN_STAT)->lat[WL_OP_STAT].n, n);
	cr_assert_eq(test_of(r, BT_RAN_DEL)->lat[WL_OP_DELETE].n, n);
	cr_assert_eq(test_of(r, BT_RAN_DEL)->lat[WL_OP_FSYNC].n, 1);
}

static void
run_small(struct wltest_target *tg)
{
	struct wl_result *r;
	size_t k;

	r = wltest_run(&wl_bonnie, SMALL, tg->dir, LAB_CACHE_KEEP, NULL, NULL,
	    120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, BT__COUNT);
	for (k = 0; k < BT__COUNT; k++)
		cr_assert_str_eq(r->tests[k].key, bonnie_keys[k],
		    "bonnie++'s order");
	check_io(r, 8 * MiB, 256 * 1024, 8192, 200);
	check_files(r, 1024);
	cr_assert(wltest_dir_empty(tg->dir), "files left behind");
	wl_result_free(r);
}

Test(bonnie, runs_every_test_on_a_plain_directory)
{
	struct wltest_target tg;

	wltest_target_dir(&tg);
	run_small(&tg);
	wltest_target_free(&tg);
}

Test(bonnie, runs_every_test_on_tmpfs)
{
	struct wltest_target tg;

	wltest_target_tmpfs(&tg, 64 * MiB);
	run_small(&tg);
	wltest_target_free(&tg);
}

Test(bonnie, runs_every_test_on_ext4)
{
	struct wltest_target tg;

	wltest_target_ext4(&tg, 64 * MiB);
	run_small(&tg);
	wltest_target_free(&tg);
}

Test(bonnie, direct_io_on_ext4)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_ext4(&tg, 64 * MiB);
	r = wltest_run(&wl_bonnie,
	    "size = \"8M\"; ram = \"4M\"; char_size = 0; seeks = 100; "
	    "files = 0; direct = true; chunk = \"16K\";",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, 4, "no per-char, no file tests");
	cr_assert_str_eq(r->tests[0].key, "seq_output_block");
	cr_assert_eq(r->tests[0].lat[WL_OP_WRITE].n, 512);
	cr_assert_eq(wl_result_test(r, "random_seeks")->ops, 100);
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(bonnie, fsync_after_every_write)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 64 * MiB);
	r = wltest_run(&wl_bonnie,
	    "size = \"1M\"; ram = \"1M\"; char_size = \"4K\"; seeks = 50; "
	    "files = 1; max_size = \"2K\"; fsync = true; dirs = 2;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	check_io(r, 1 * MiB, 4096, 8192, 50);
	check_files(r, 1024);
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* bonnie++ -s 0: the file tests alone. The I/O tests are absent from
   the result (not zero, not +++++), no I/O file is written, and no RAM
   rule applies (bonnie++ takes any -r with -s 0). */
Test(bonnie, size_0_runs_the_file_tests_alone)
{
	struct wltest_target tg;
	struct wl_result *r;
	struct strbuf out;
	const char *csv;
	size_t k;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_bonnie, "size = 0; ram = \"1T\"; files = 1;", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, BT__COUNT - BT_SEQ_CREATE, "%zu tests",
	    r->ntests);
	for (k = BT_PUTC; k < BT_SEQ_CREATE; k++)
		cr_assert_null(wl_result_test(r, bonnie_keys[k]), "%s recorded",
		    bonnie_keys[k]);
	check_files(r, 1024);
	for (k = 0; k < r->ntests; k++)
		cr_assert_eq(r->tests[k].bytes_written, 0, "%s wrote",
		    r->tests[k].key);
	for (k = 0; k < r->nnotes; k++)
		cr_assert(strstr(r->notes[k], "RAM") == NULL, "%s",
		    r->notes[k]);
	strbuf_init(&out);
	bonnie_report((const struct wl_result *const *)&r, 1, &out);
	cr_assert(strstr(out.s, "Sequential Output") == NULL, "%s", out.s);
	cr_assert(strstr(out.s, "Sequential Create") != NULL, "%s", out.s);
	/* As bonnie++ -s 0 writes it: fields 6 to 21 (size, chunk, seeks,
	   seekers, the I/O figures) empty, 22 the file count. */
	csv = strstr(out.s, "1.98,raidlab-");
	cr_assert_not_null(csv, "%s", out.s);
	cr_assert(strstr(csv, ",1,,,,,,,,,,,,,,,,,,1,,,,,") != NULL, "%s", csv);
	cr_assert(wltest_dir_empty(tg.dir), "files left behind");
	strbuf_done(&out);
	wl_result_free(r);
	wltest_target_free(&tg);
}

struct look {
	const char *target;
	char phase[48]; /* key of the test running */
	size_t seen; /* most files counted at once */
	size_t bad_size, bad_short, bad_dir;
	/* Files under min in this look: maybe still being written. */
	char *shorts[16];
	size_t nshort;
	uint64_t min, max;
};

static struct look *cur_look;

static int
look_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	const char *slash;

	if (flag != FTW_F)
		return 0;
	/* The file being created is empty until its write(2) ends, or
	   shorter: the kernel may copy a write in parts (a fault in the
	   source buffer), raising the size after each. A slow walk meets
	   several files in that state, one after the other: noted here,
	   looked at again once the walk is over. None ever beyond max. */
	if ((uint64_t)st->st_size < cur_look->min) {
		if (cur_look->nshort < 16)
			cur_look->shorts[cur_look->nshort++] = xstrdup(path);
	} else if ((uint64_t)st->st_size > cur_look->max)
		cur_look->bad_size++;
	/* .../Bonnie.files/0000N/name: N < 4, names 7 digits + up to 12. */
	slash = path + f->base - 7;
	if (f->level != 2 || strncmp(slash, "/0000", 5) != 0 ||
	    slash[5] < '0' || slash[5] > '3' ||
	    strlen(path + f->base) < BONNIE_DIGITS ||
	    strlen(path + f->base) > BONNIE_DIGITS + BONNIE_RANDCHARS)
		cur_look->bad_dir++;
	return 0;
}

/* While files exist, they are where and as big as they should be. */
static void
look_midrun(struct engine *eng, const struct evq_event *ev, void *arg)
{
	struct look *m = arg;
	char dir[4096], top[4200];
	size_t n;

	(void)eng;
	if (ev != NULL && ev->type == EVQ_TEST_START)
		snprintf(m->phase, sizeof m->phase, "%s", ev->key);
	if (strstr(m->phase, "create") == NULL &&
	    strstr(m->phase, "read") == NULL)
		return;
	wltest_run_dir(m->target, dir, sizeof dir);
	snprintf(top, sizeof top, "%s/Bonnie.files", dir);
	cur_look = m;
	nftw(top, look_one, 16, FTW_PHYS);
	/* One worker writes one file at a time: of the files short during
	   the walk, at most one is still short a moment later (the others
	   are complete or deleted by then). */
	n = 0;
	for (size_t i = 0; i < m->nshort; i++) {
		struct stat st;

		if (stat(m->shorts[i], &st) == 0 &&
		    (uint64_t)st.st_size < m->min)
			n++;
		free(m->shorts[i]);
	}
	m->nshort = 0;
	if (n > 1)
		m->bad_short++;
	n = wltest_count_files(top, NULL);
	if (n > m->seen)
		m->seen = n;
}

Test(bonnie, files_have_their_sizes_and_dirs_mid_run)
{
	struct wltest_target tg;
	struct look m;
	struct wl_result *r;
	const struct wl_test *c, *s;

	memset(&m, 0, sizeof m);
	m.min = 1024;
	m.max = 4096;
	wltest_target_dir(&tg);
	m.target = tg.dir;
	r = wltest_run(&wl_bonnie,
	    "size = \"1M\"; ram = \"1M\"; char_size = 0; seeks = 10; "
	    "files = 1; max_size = \"4K\"; min_size = \"1K\"; dirs = 4;",
	    tg.dir, LAB_CACHE_KEEP, look_midrun, &m, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	check_files(r, 1024);
	cr_assert_gt(m.seen, 0, "never saw the files");
	cr_assert_leq(m.seen, 1024);
	cr_assert_eq(m.bad_size, 0, "files over 4K");
	cr_assert_eq(m.bad_short, 0, "files under 1K that stayed so");
	cr_assert_eq(m.bad_dir, 0, "files outside the 4 dirs or misnamed");
	/* Stat reads every byte the create wrote: all files were there. */
	c = test_of(r, BT_SEQ_CREATE);
	s = test_of(r, BT_SEQ_STAT);
	cr_assert_geq(c->bytes_written, 1024 * 1024);
	cr_assert_leq(c->bytes_written, 1024 * 4096);
	cr_assert_eq(s->bytes_read, c->bytes_written);
	c = test_of(r, BT_RAN_CREATE);
	s = test_of(r, BT_RAN_STAT);
	cr_assert_eq(s->bytes_read, c->bytes_written);
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(bonnie, keep_leaves_the_io_file)
{
	struct wltest_target tg;
	struct wl_result *r;
	char dir[4096];
	uint64_t bytes;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_bonnie,
	    "size = \"2M\"; ram = \"1M\"; char_size = \"1K\"; seeks = 10; "
	    "files = 0; keep = true;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK);
	wltest_run_dir(tg.dir, dir, sizeof dir);
	cr_assert_neq(dir[0], '\0', "no run directory kept");
	cr_assert_eq(wltest_count_files(dir, &bytes), 1);
	cr_assert_eq(bytes, 2 * MiB);
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(bonnie, full_filesystem_fails_cleanly)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 16 * MiB);
	r = wltest_run(&wl_bonnie,
	    "size = \"32M\"; ram = \"1M\"; char_size = \"1K\"; files = 0;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert_not_null(r->error);
	cr_assert(strstr(r->error, "No space left on device") != NULL, "%s",
	    r->error);
	cr_assert(strstr(r->error, "write ") != NULL, "%s", r->error);
	cr_assert(wltest_dir_empty(tg.dir), "files left behind");
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(bonnie, min_above_max_is_refused)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_bonnie,
	    "size = \"1M\"; files = 1; max_size = \"1K\"; min_size = \"2K\";",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 30);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert(strstr(r->error, "min_size") != NULL, "%s", r->error);
	cr_assert_eq(r->ntests, 0);
	wl_result_free(r);
	wltest_target_free(&tg);
}

static void
check_stopped(struct wl_result *r, const struct wltest_target *tg)
{
	cr_assert_eq(r->status, WL_INTERRUPTED, "status %s %s",
	    wl_status_name(r->status), r->error ? r->error : "");
	cr_assert_gt(r->ntests, 0);
	cr_assert(r->tests[r->ntests - 1].interrupted);
	/* Stopped, not finished: the whole run would take many minutes.
	   (A loose bound: a loaded machine slows the part before the stop.) */
	cr_assert_lt(r->wall, 60.0);
	cr_assert(wltest_dir_empty(tg->dir));
}

Test(bonnie, stop_in_the_io_tests_is_interrupted_and_clean)
{
	struct wltest_target tg;
	struct wltest_stop s = { 4 * MiB, 0 };
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_bonnie, "size = \"4G\"; char_size = 0; files = 0;",
	    tg.dir, LAB_CACHE_KEEP, wltest_stop_when, &s, 30);
	check_stopped(r, &tg);
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(bonnie, stop_in_the_file_tests_is_interrupted_and_clean)
{
	struct wltest_target tg;
	struct wltest_stop s = { 0, 2000 };
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_bonnie,
	    "size = \"64K\"; ram = \"1M\"; char_size = 0; seeks = 10; "
	    "files = 1000; dirs = 10;",
	    tg.dir, LAB_CACHE_KEEP, wltest_stop_when, &s, 30);
	check_stopped(r, &tg);
	cr_assert(strstr(r->tests[r->ntests - 1].key, "create") != NULL);
	cr_assert_geq(r->tests[r->ntests - 1].files, 2000);
	cr_assert_lt(r->tests[r->ntests - 1].files, 1000 * 1024 / 10,
	    "%" PRIu64 " of 1024000 files made after the stop at 2000",
	    r->tests[r->ntests - 1].files);
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* A result as bonnie would leave it, for the report. */
static struct wl_result *
fake_result(const char *name, double put_block, bool fast)
{
	struct wl_result *r = wl_result_new("bonnie", name);
	int k;

	for (k = 0; k < BT__COUNT; k++) {
		struct wl_test *t = wl_result_add_test(r, bonnie_keys[k],
		    k < BT_SEQ_CREATE ? "x (-s 2G:8K:8192:5)"
				      : "x (-n 16:4K:1K:8)",
		    k == BT_SEEKS           ? WL_UNIT_SEEKS_S
			: k < BT_SEQ_CREATE ? WL_UNIT_KBPS
					    : WL_UNIT_FILES_S);

		t->wall = 10;
		t->user = 1;
		t->sys = 2;
		t->value = k == BT_PUT_BLOCK ? put_block : 100.25;
		t->too_fast = fast && k >= BT_SEQ_CREATE;
		hist_add(&t->lat[WL_OP_WRITE], 15112000);
		hist_add(&t->lat[WL_OP_FSYNC], 9000000000ULL);
	}
	return r;
}

Test(bonnie, report_is_bonnies_table_and_csv)
{
	struct wl_result *a = fake_result("disk", 112627, true);
	struct wl_result *b = fake_result("disk", 112629, true);
	const struct wl_result *res[] = { a, b };
	struct strbuf out;
	const char *csv;
	int commas = 0;

	strbuf_init(&out);
	bonnie_report(res, 2, &out);
	cr_assert(strstr(out.s,
		      "-Per Chr- --Block-- -Rewrite- -Per Chr- "
		      "--Block-- --Seeks--") != NULL,
	    "%s", out.s);
	cr_assert(strstr(out.s, "disk             2G   100  30 112627  30") !=
		NULL,
	    "%s", out.s);
	cr_assert(strstr(out.s, "100.2  30\n") != NULL, "seeks: %s", out.s);
	cr_assert(strstr(out.s, "disk 16:4096:1024/8 +++++ +++") != NULL, "%s",
	    out.s);
	cr_assert(strstr(out.s, "mean             2G   100  30 112628") != NULL,
	    "%s", out.s);
	cr_assert(strstr(out.s, "Latency             15112us   15112us") !=
		NULL,
	    "the fsync is not an operation: %s", out.s);
	csv = strstr(out.s, "1.98,raidlab-");
	cr_assert_not_null(csv, "%s", out.s);
	cr_assert(strstr(csv, ",disk,1,,2G,,8192,5,100,30,112627,30,") != NULL,
	    "%s", csv);
	cr_assert(strstr(csv, ",16,4096,1024,8,,+++++,+++,") != NULL, "%s",
	    csv);
	for (const char *p = csv; *p != '\n'; p++)
		commas += *p == ',';
	cr_assert_eq(commas, 49, "50 fields in format 1.98");
	strbuf_done(&out);
	wl_result_free(a);
	wl_result_free(b);
}

/* The free-space checks' estimate: the I/O file (removed before the file
   tests), or the file tests' files, whichever is larger; both when
   kept; size auto is twice the RAM. */
Test(bonnie, data_set_is_the_io_file_or_the_file_tests)
{
	struct param_value *v = wltest_params(&wl_bonnie,
	    "size = \"8M\"; chunk = \"16K\"; files = 2; max_size = \"5K\";");

	/* 2 x 1024 files of at most 5K: 8K each on disk. */
	cr_assert_eq(wl_bonnie.dataset(v, false), 2048 * 8192);
	cr_assert_eq(wl_bonnie.dataset(v, true), (8 << 20) + 2048 * 8192);
	wltest_params_free(&wl_bonnie, v);
	v = wltest_params(&wl_bonnie,
	    "size = \"8M\"; chunk = \"3M\"; files = 0;");
	cr_assert_eq(wl_bonnie.dataset(v, false), 6 << 20, "whole chunks");
	wltest_params_free(&wl_bonnie, v);
	v = wltest_params(&wl_bonnie, "ram = \"1G\"; files = 0;");
	cr_assert_eq(wl_bonnie.dataset(v, false), 2ULL << 30);
	wltest_params_free(&wl_bonnie, v);
	/* size 0: no I/O file, whatever the RAM; the files alone. */
	v = wltest_params(&wl_bonnie,
	    "size = 0; ram = \"1T\"; files = 2; max_size = \"5K\";");
	cr_assert_eq(wl_bonnie.dataset(v, false), 2048 * 8192);
	cr_assert_eq(wl_bonnie.dataset(v, true), 2048 * 8192);
	wltest_params_free(&wl_bonnie, v);
}

/* What bonnie++ refuses before it starts, refused before the run. */
Test(bonnie, no_test_left_or_a_file_under_a_chunk_is_refused)
{
	struct param_value *v =
	    wltest_params(&wl_bonnie, "size = 0; files = 0;");
	const char *param = NULL;
	char msg[256];

	cr_assert(wl_bonnie.check(v, &param, msg, sizeof msg));
	cr_assert_str_eq(param, "files");
	cr_assert(strstr(msg, "-s 0 -n 0") != NULL, "%s", msg);
	wltest_params_free(&wl_bonnie, v);
	v = wltest_params(&wl_bonnie, "size = \"4K\";");
	cr_assert(wl_bonnie.check(v, &param, msg, sizeof msg));
	cr_assert_str_eq(param, "size");
	cr_assert(strstr(msg, "one chunk (8K)") != NULL, "%s", msg);
	wltest_params_free(&wl_bonnie, v);
	v = wltest_params(&wl_bonnie, "size = 0; files = 1;");
	cr_assert_not(wl_bonnie.check(v, &param, msg, sizeof msg), "%s", msg);
	wltest_params_free(&wl_bonnie, v);
	v = wltest_params(&wl_bonnie, "files = 0;");
	cr_assert_not(wl_bonnie.check(v, &param, msg, sizeof msg), "auto");
	wltest_params_free(&wl_bonnie, v);
}
