/*
 * fio through the real engine on real filesystems: files laid out at
 * their size, byte and I/O counts that match bs x ios, offsets aligned
 * and inside the file (every block once per pass for random jobs),
 * directions split in mixed jobs, runtime honoured, queued engines, and
 * clean failures (ENOSPC, no O_DIRECT) and stops.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "base/err.h"
#include "base/strbuf.h"
#include "lab/lab.h"
#include "measure/wl-fio.h"
#include "wltest.h"

/* ---------------------------------------------------------------- random map
 */

Test(fio, random_map_covers_every_block_once_per_pass)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 8, 100, 1000, 4097,
		65536 };
	size_t i;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		uint64_t n = sizes[i], seed = 42 + i, k, pass;
		unsigned char *seen = calloc(n, 1);
		struct fio_rmap m;

		fio_rmap_init(&m, n, &seed);
		for (pass = 1; pass <= 3; pass++)
			for (k = 0; k < n; k++) {
				uint64_t b = fio_rmap_next(&m, &seed);

				cr_assert_lt(b, n);
				cr_assert_eq(seen[b], pass - 1,
				    "n=%llu: block %llu twice in pass %llu",
				    (unsigned long long)n,
				    (unsigned long long)b,
				    (unsigned long long)pass);
				seen[b] = (unsigned char)pass;
			}
		free(seen);
	}
}

Test(fio, random_map_is_not_sequential)
{
	uint64_t seed = 7, k, inorder = 0, prev;
	struct fio_rmap m;

	fio_rmap_init(&m, 10000, &seed);
	prev = fio_rmap_next(&m, &seed);
	for (k = 1; k < 10000; k++) {
		uint64_t b = fio_rmap_next(&m, &seed);

		inorder += b == prev + 1;
		prev = b;
	}
	cr_assert_lt(inorder, 100, "%llu consecutive blocks in a row",
	    (unsigned long long)inorder);
}

/* ---------------------------------------------------------------- helpers */

struct look {
	const char *target;
	size_t files;
	uint64_t bytes;
	bool looked;
};

/* Checks an I/O against the job from the worker threads. */
#define TRACE_JOBS 4
static struct {
	uint64_t bs, size;
	_Atomic uint32_t *count[TRACE_JOBS];
	_Atomic uint64_t bad, ios[2];
	struct look *look; /* counted at the first I/O, by whichever worker */
	atomic_bool looking;
	_Atomic uint64_t first, last; /* earliest and latest issue, ns */
	_Atomic uint64_t since; /* ns; 0 until set */
	_Atomic uint64_t late; /* I/Os issued at or after since */
} tr;

/* When the I/Os were issued: the earliest, the latest, and how many
   came at or after tr.since. */
static void
trace_times(uint64_t start)
{
	uint64_t v = atomic_load(&tr.first), since = atomic_load(&tr.since);

	while ((v == 0 || start < v) &&
	    !atomic_compare_exchange_weak(&tr.first, &v, start))
		;
	v = atomic_load(&tr.last);
	while (start > v && !atomic_compare_exchange_weak(&tr.last, &v, start))
		;
	if (since != 0 && start >= since)
		atomic_fetch_add(&tr.late, 1);
}

static void
trace_io(unsigned job, bool write, uint64_t off, uint64_t len, uint64_t start)
{
	/* The files are laid out before the timed phase: at its first I/O
	   they are all there (the run removes them right after a short
	   phase, so an event seen late by the test's thread could not). */
	if (tr.look != NULL && !atomic_exchange(&tr.looking, true)) {
		char dir[4096];

		wltest_run_dir(tr.look->target, dir, sizeof dir);
		tr.look->files = wltest_count_files(dir, &tr.look->bytes);
		tr.look->looked = true;
	}
	atomic_fetch_add(&tr.ios[write], 1);
	trace_times(start);
	if (job >= TRACE_JOBS || len != tr.bs || off % tr.bs != 0 ||
	    off + len > tr.size) {
		atomic_fetch_add(&tr.bad, 1);
		return;
	}
	atomic_fetch_add(&tr.count[job][off / tr.bs], 1);
}

static void
trace_start(uint64_t bs, uint64_t size)
{
	unsigned i;

	memset(&tr, 0, sizeof tr);
	tr.bs = bs;
	tr.size = size;
	for (i = 0; i < TRACE_JOBS; i++)
		tr.count[i] = calloc(size / bs, sizeof *tr.count[i]);
	fio_trace = trace_io;
}

static void
trace_stop(void)
{
	unsigned i;

	fio_trace = NULL;
	for (i = 0; i < TRACE_JOBS; i++)
		free(tr.count[i]);
}

/* Every block of each of jobs files touched exactly `times`. */
static void
trace_expect_each_block(unsigned jobs, uint32_t times)
{
	unsigned i;
	uint64_t b;

	cr_assert_eq(tr.bad, 0, "%llu I/Os misaligned or outside the file",
	    (unsigned long long)tr.bad);
	for (i = 0; i < jobs; i++)
		for (b = 0; b < tr.size / tr.bs; b++)
			cr_assert_eq(tr.count[i][b], times,
			    "job %u block %llu: %u I/Os", i,
			    (unsigned long long)b, tr.count[i][b]);
}

/* The figures of a one-pass job add up: bytes = bs x ios, rate = bytes/s. */
static void
check_counts(const struct wl_test *t, uint64_t bs, uint64_t ios)
{
	uint64_t rd = t->lat[WL_OP_READ].n, wr = t->lat[WL_OP_WRITE].n;

	cr_assert_eq(rd + wr, ios, "%llu I/Os, want %llu",
	    (unsigned long long)(rd + wr), (unsigned long long)ios);
	cr_assert_eq(t->ops, ios);
	cr_assert_eq(t->bytes_read, rd * bs);
	cr_assert_eq(t->bytes_written, wr * bs);
	cr_assert_gt(t->wall, 0.0);
	cr_assert_float_eq(t->value,
	    (double)(t->bytes_read + t->bytes_written) / t->wall / 1e6,
	    1e-6 * t->value + 1e-9, "MB/s is not bytes / wall");
}

static struct wl_result *
run_ok(const char *cfg, const char *target, struct look *l)
{
	struct wl_result *r;

	/* L: look at the files when the timed phase starts (trace_io) */
	if (l != NULL)
		l->target = target;
	tr.look = l;
	r = wltest_run(&wl_fio, cfg, target, LAB_CACHE_KEEP, NULL, NULL, 120);
	tr.look = NULL;
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, 1);
	cr_assert(wltest_dir_empty(target), "files left behind");
	return r;
}

/* ---------------------------------------------------------------- tmpfs */

static void
seq_read_lays_out_and_counts(struct wltest_target *tg)
{
	struct look l = { 0 };
	struct wl_result *r;

	trace_start(16384, 4 << 20);
	r = run_ok("rw = \"read\"; bs = \"16K\"; size = \"4M\"; threads = 2;",
	    tg->dir, &l);
	cr_assert(l.looked);
	cr_assert_eq(l.files, 2, "%zu files at the start of the test", l.files);
	cr_assert_eq(l.bytes, 2 * (4 << 20));
	cr_assert_str_eq(r->tests[0].key, "read");
	check_counts(&r->tests[0], 16384, 2 * 256);
	cr_assert_eq(r->tests[0].bytes_written, 0);
	trace_expect_each_block(2, 1);
	trace_stop();
	wl_result_free(r);
}

Test(fio, sequential_read_on_tmpfs)
{
	struct wltest_target tg;

	wltest_target_tmpfs(&tg, 64 << 20);
	seq_read_lays_out_and_counts(&tg);
	wltest_target_free(&tg);
}

Test(fio, sequential_read_on_a_plain_directory)
{
	struct wltest_target tg;

	wltest_target_dir(&tg);
	seq_read_lays_out_and_counts(&tg);
	wltest_target_free(&tg);
}

Test(fio, randwrite_touches_every_block_once_aligned)
{
	struct wltest_target tg;
	struct look l = { 0 };
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 64 << 20);
	trace_start(4096, 2 << 20);
	r = run_ok("rw = \"randwrite\"; bs = \"4K\"; size = \"2M\"; "
		   "threads = 3; end_fsync = true;",
	    tg.dir, &l);
	cr_assert_eq(l.files, 3);
	cr_assert_eq(l.bytes, 3 * (2 << 20), "write jobs lay out the size");
	check_counts(&r->tests[0], 4096, 3 * 512);
	cr_assert_eq(r->tests[0].lat[WL_OP_FSYNC].n, 3, "one end_fsync a job");
	trace_expect_each_block(3, 1);
	trace_stop();
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(fio, randrw_splits_directions_by_rwmixread)
{
	struct wltest_target tg;
	struct wl_result *r;
	struct fio_dir_figs rd, wr;
	const struct wl_test *t;
	struct strbuf sb;
	double share;

	wltest_target_tmpfs(&tg, 64 << 20);
	trace_start(4096, 8 << 20);
	r = run_ok("rw = \"randrw\"; rwmixread = 70; bs = \"4K\"; "
		   "size = \"8M\"; fsync = 64;",
	    tg.dir, NULL);
	t = &r->tests[0];
	cr_assert_str_eq(t->key, "randrw");
	check_counts(t, 4096, 2048);
	trace_expect_each_block(1, 1);
	fio_dir_figures(t, WL_OP_READ, &rd);
	fio_dir_figures(t, WL_OP_WRITE, &wr);
	cr_assert_eq(rd.ios, tr.ios[0]);
	cr_assert_eq(wr.ios, tr.ios[1]);
	share = (double)rd.ios / 2048.0;
	cr_assert(share > 0.62 && share < 0.78, "read share %.2f", share);
	cr_assert_eq(t->lat[WL_OP_FSYNC].n, wr.ios / 64);
	cr_assert_float_eq(rd.iops, (double)rd.ios / t->wall, 1e-9 * rd.iops);
	cr_assert_float_eq(wr.mbps + rd.mbps, t->value, 1e-6 * t->value);
	cr_assert_leq(rd.p50, rd.p99);
	cr_assert_leq(rd.p99, rd.max);
	strbuf_init(&sb);
	wl_fio.report((const struct wl_result *const *)&r, 1, &sb);
	cr_assert(strstr(sb.s, "read: IOPS=") != NULL, "%s", sb.s);
	cr_assert(strstr(sb.s, "write: IOPS=") != NULL, "%s", sb.s);
	cr_assert(strstr(sb.s, "99th=") != NULL, "%s", sb.s);
	strbuf_done(&sb);
	trace_stop();
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(fio, sequential_mix_keeps_each_direction_in_order)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 64 << 20);
	trace_start(8192, 4 << 20);
	r = run_ok("rw = \"rw\"; rwmixread = 50; bs = \"8K\"; size = \"4M\";",
	    tg.dir, NULL);
	check_counts(&r->tests[0], 8192, 512);
	cr_assert_eq(tr.bad, 0);
	cr_assert_gt(r->tests[0].bytes_read, 0);
	cr_assert_gt(r->tests[0].bytes_written, 0);
	trace_stop();
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(fio, runtime_loops_over_the_file_and_stops_on_time)
{
	struct wltest_target tg;
	struct wl_result *r;
	const struct wl_test *t;

	wltest_target_tmpfs(&tg, 64 << 20);
	trace_start(4096, 4 << 20);
	r = run_ok("rw = \"randread\"; bs = \"4K\"; size = \"4M\"; "
		   "runtime = 2; threads = 2;",
	    tg.dir, NULL);
	t = &r->tests[0];
	/* Not before its time: the deadline is set after the test began,
	   and the workers stop only when they read a clock past it. */
	cr_assert_geq(t->wall, 2.0, "wall %.3f s for 2 s", t->wall);
	/* On time: no I/O issued past the deadline, which is at most 2 s
	   after the first I/O was issued (a worker that looked at the
	   clock only between passes would issue some after it). */
	cr_assert_lt(tr.last - tr.first, 2000000000ull,
	    "an I/O issued %.3f s after the first, runtime 2 s",
	    (double)(tr.last - tr.first) / 1e9);
	cr_assert_gt(t->ops, 2 * 1024, "looped over the file");
	cr_assert_eq(tr.bad, 0);
	cr_assert_eq(t->bytes_read, t->ops * 4096);
	trace_stop();
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* Let the job run half a second, or until its first I/Os on a slow
   machine, then stop it; the I/Os issued from then on are counted. */
static void
stop_after_start(struct engine *eng, const struct evq_event *ev, void *arg)
{
	struct engine_totals tot;

	(void)arg;
	if (ev == NULL || ev->type != EVQ_TEST_START)
		return;
	usleep(500000);
	for (int i = 0; i < 50; i++) {
		engine_totals(eng, &tot);
		if (tot.ops > 0)
			break;
		usleep(100000);
	}
	cr_assert_gt(tot.ops, 0, "no I/O after 5 s");
	engine_stop(eng);
	atomic_store(&tr.since, wl_now_ns());
}

/* A stop mid-run: interrupted, and each worker issues at most what it
   had decided on before it saw the stop (one I/O, or one fill of its
   queue), where a run of 60 s would go on issuing. */
static void
stop_is_interrupted(const char *cfg, uint64_t at_most)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 64 << 20);
	trace_start(4096, 4 << 20);
	r = wltest_run(&wl_fio, cfg, tg.dir, LAB_CACHE_KEEP, stop_after_start,
	    NULL, 60);
	cr_assert_eq(r->status, WL_INTERRUPTED, "%s",
	    wl_status_name(r->status));
	cr_assert_eq(r->ntests, 1);
	cr_assert(r->tests[0].interrupted);
	cr_assert_neq(tr.since, 0, "never stopped");
	cr_assert_leq(tr.late, at_most, "%llu I/Os issued after the stop",
	    (unsigned long long)tr.late);
	cr_assert_eq(tr.bad, 0);
	cr_assert(wltest_dir_empty(tg.dir));
	trace_stop();
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(fio, stop_mid_run_issues_no_further_io)
{
	stop_is_interrupted("rw = \"randrw\"; size = \"4M\"; runtime = 60;", 1);
}

Test(fio, stop_mid_run_with_a_queue_issues_at_most_one_fill)
{
	if (!fio_engine_available(FIO_IO_URING))
		cr_skip_test("built without liburing");
	stop_is_interrupted("rw = \"randwrite\"; size = \"4M\"; runtime = 60; "
			    "ioengine = \"io_uring\"; iodepth = 16;",
	    16);
}

Test(fio, layout_on_a_full_tmpfs_fails_cleanly)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 16 << 20);
	r = wltest_run(&wl_fio, "rw = \"read\"; size = \"12M\"; threads = 2;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert_not_null(r->error);
	cr_assert(strstr(r->error, "lay out") != NULL &&
		strstr(r->error, "No space left on device") != NULL,
	    "%s", r->error);
	cr_assert(wltest_dir_empty(tg.dir), "files left behind");
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(fio, size_smaller_than_bs_is_refused)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_fio, "bs = \"64K\"; size = \"8K\";", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert(strstr(r->error, "smaller than bs") != NULL, "%s", r->error);
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* More jobs than the engine runs: refused by the lab file's check, with
   the range, before anything runs (it used to fail only at the run). */
Test(fio, more_threads_than_the_engine_runs_are_refused)
{
	struct lab *lab = NULL;
	struct errlist errs;

	errlist_init(&errs);
	cr_assert_neq(lab_load_string("name = \"t\";\n"
				      "variants = ( { name = \"d\"; directory "
				      "= \"/mnt\"; } );\n"
				      "workloads = ( { type = \"fio\"; threads "
				      "= 65; } );\n",
			  "lab.cfg", &lab, &errs),
	    0);
	cr_assert_eq(errs.n, 1);
	cr_assert_eq(errs.v[0].line, 3);
	cr_assert(strstr(errs.v[0].msg, "65 is out of range (1..64)") != NULL,
	    "%s", errs.v[0].msg);
	errlist_done(&errs);
	lab_free(lab);
}

/*
 * Before Linux 6.6 tmpfs refused O_DIRECT; since, it takes it and keeps
 * the data in memory. Either way the user is told.
 */
Test(fio, direct_on_tmpfs_fails_or_says_it_stays_in_memory)
{
	struct wltest_target tg;
	struct wl_result *r;
	size_t i;
	bool noted = false;

	wltest_target_tmpfs(&tg, 64 << 20);
	r = wltest_run(&wl_fio,
	    "rw = \"randread\"; size = \"1M\"; "
	    "direct = true;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	if (r->status == WL_FAILED) {
		cr_assert(strstr(r->error, "O_DIRECT") != NULL, "%s", r->error);
	} else {
		cr_assert_eq(r->status, WL_OK);
		for (i = 0; i < r->nnotes; i++)
			noted |= strstr(r->notes[i], "tmpfs") != NULL;
		cr_assert(noted, "no note about O_DIRECT on tmpfs");
	}
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(fio, direct_where_unsupported_fails_with_a_clear_message)
{
	struct wltest_target tg;
	struct wl_result *r;

	if (geteuid() != 0)
		cr_skip_test("needs root to mount a ramfs");
	wltest_target_dir(&tg);
	cr_assert_eq(mount("raidlab-test", tg.dir, "ramfs", 0, NULL), 0);
	tg.mounted = true;
	r = wltest_run(&wl_fio, "rw = \"read\"; size = \"1M\"; direct = true;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert(strstr(r->error, "does not support O_DIRECT") != NULL, "%s",
	    r->error);
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* ---------------------------------------------------------------- ext4 */

static void
ext4_job(const char *cfg, uint64_t bs, uint64_t size, unsigned jobs)
{
	struct wltest_target tg;
	struct look l = { 0 };
	struct wl_result *r;

	wltest_target_ext4(&tg, 128 << 20);
	trace_start(bs, size);
	r = run_ok(cfg, tg.dir, &l);
	cr_assert_eq(l.files, jobs);
	cr_assert_eq(l.bytes, jobs * size);
	check_counts(&r->tests[0], bs, jobs * (size / bs));
	trace_expect_each_block(jobs, 1);
	trace_stop();
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(fio, ext4_direct_randread_psync)
{
	ext4_job("rw = \"randread\"; bs = \"4K\"; size = \"4M\"; threads = 2; "
		 "direct = true;",
	    4096, 4 << 20, 2);
}

Test(fio, ext4_buffered_randwrite_with_fsync)
{
	ext4_job("rw = \"randwrite\"; bs = \"8K\"; size = \"4M\"; fsync = 32; "
		 "end_fsync = true;",
	    8192, 4 << 20, 1);
}

Test(fio, ext4_direct_randrw_libaio_depth_8)
{
	if (!fio_engine_available(FIO_LIBAIO))
		cr_skip_test("built without libaio");
	ext4_job("rw = \"randrw\"; bs = \"4K\"; size = \"4M\"; direct = true; "
		 "ioengine = \"libaio\"; iodepth = 8; threads = 2;",
	    4096, 4 << 20, 2);
}

Test(fio, ext4_direct_randwrite_io_uring_depth_8_fsync)
{
	if (!fio_engine_available(FIO_IO_URING))
		cr_skip_test("built without liburing");
	ext4_job("rw = \"randwrite\"; bs = \"4K\"; size = \"4M\"; "
		 "direct = true; ioengine = \"io_uring\"; iodepth = 8; "
		 "fsync = 100; end_fsync = true;",
	    4096, 4 << 20, 1);
}

Test(fio, ext4_sequential_write_io_uring)
{
	if (!fio_engine_available(FIO_IO_URING))
		cr_skip_test("built without liburing");
	ext4_job("rw = \"write\"; bs = \"64K\"; size = \"8M\"; "
		 "ioengine = \"io_uring\"; iodepth = 4; end_fsync = true;",
	    65536, 8 << 20, 1);
}

/* The free-space checks' estimate: one file of size per job. */
Test(fio, data_set_is_a_file_per_job)
{
	struct param_value *v =
	    wltest_params(&wl_fio, "size = \"3M\"; threads = 4;");

	cr_assert_eq(wl_fio.dataset(v, false), 4 * 3 * 1048576);
	wltest_params_free(&wl_fio, v);
}
