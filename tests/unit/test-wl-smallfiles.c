/*
 * smallfiles through the real engine on real filesystems: the files it
 * claims exist, the figures add up, failures and stops are clean.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wltest.h"

static void
check_consistent(const struct wl_test *t, uint64_t files, uint64_t bytes)
{
	cr_assert_eq(t->files, files, "files %llu, want %llu",
	    (unsigned long long)t->files, (unsigned long long)files);
	cr_assert_eq(t->bytes_written, bytes);
	cr_assert_gt(t->wall, 0.0);
	cr_assert_float_eq(t->value, (double)files / t->wall, 1e-6 * t->value,
	    "files/s %f is not files / wall", t->value);
	cr_assert_eq(t->lat[WL_OP_CREATE].n, files);
	cr_assert_eq(t->lat[WL_OP_FSYNC].n, 1, "one sync inside the timing");
	cr_assert_geq(t->user + t->sys, 0.0);
}

static void
run_on(struct wltest_target *tg)
{
	struct wl_result *r;
	const struct wl_test *t;

	r = wltest_run(&wl_smallfiles,
	    "count = 200; size = \"4K\"; write_size = \"1K\"; dirs = 4;",
	    tg->dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, 1);
	t = &r->tests[0];
	cr_assert_str_eq(t->key, "files_200");
	check_consistent(t, 200, 200 * 4096);
	cr_assert_eq(t->lat[WL_OP_WRITE].n, 800, "4 writes of 1K per file");
	cr_assert(wltest_dir_empty(tg->dir), "files left behind");
	wl_result_free(r);
}

Test(smallfiles, writes_and_removes_on_a_plain_directory)
{
	struct wltest_target tg;

	wltest_target_dir(&tg);
	run_on(&tg);
	wltest_target_free(&tg);
}

Test(smallfiles, writes_and_removes_on_tmpfs)
{
	struct wltest_target tg;

	wltest_target_tmpfs(&tg, 64 << 20);
	run_on(&tg);
	wltest_target_free(&tg);
}

Test(smallfiles, writes_and_removes_on_ext4)
{
	struct wltest_target tg;

	wltest_target_ext4(&tg, 64 << 20);
	run_on(&tg);
	wltest_target_free(&tg);
}

Test(smallfiles, keep_leaves_every_file_with_its_size)
{
	struct wltest_target tg;
	struct wl_result *r;
	char dir[4096];
	uint64_t bytes;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_smallfiles,
	    "count = 30; size = \"3K\"; write_size = \"1K\"; dirs = 3; "
	    "keep = true;",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK);
	wltest_run_dir(tg.dir, dir, sizeof dir);
	cr_assert_neq(dir[0], '\0', "no run directory kept");
	cr_assert_eq(wltest_count_files(dir, &bytes), 30);
	cr_assert_eq(bytes, 30 * 3072);
	wl_result_free(r);
	wltest_target_free(&tg);
}

struct midrun {
	size_t seen_files;
	uint64_t seen_counter;
	const char *target;
};

#define MIDRUN_FILES 20000 /* the count of the lab below */

/* Once the counter passes 500, the files must be there to count. */
static void
look_midrun(struct engine *eng, const struct evq_event *ev, void *arg)
{
	struct midrun *m = arg;
	struct engine_totals tot, after;
	char dir[4096];
	size_t n;

	(void)ev;
	if (m->seen_files > 0)
		return;
	engine_totals(eng, &tot);
	if (tot.files < 500)
		return;
	wltest_run_dir(m->target, dir, sizeof dir);
	n = wltest_count_files(dir, NULL);
	/* Only a walk that ended before the last file was made counts: the
	   batch's files are removed once it is complete. */
	engine_totals(eng, &after);
	if (after.files >= MIDRUN_FILES)
		return;
	m->seen_counter = tot.files;
	m->seen_files = n;
}

Test(smallfiles, files_exist_mid_run_as_counted)
{
	struct wltest_target tg;
	struct midrun m = { 0, 0, NULL };
	struct wl_result *r;

	wltest_target_dir(&tg);
	m.target = tg.dir;
	r = wltest_run(&wl_smallfiles,
	    "count = 20000; size = \"1K\"; dirs = 10; sync = false;", tg.dir,
	    LAB_CACHE_KEEP, look_midrun, &m, 120);
	cr_assert_eq(r->status, WL_OK);
	cr_assert_gt(m.seen_counter, 0, "never looked mid-run");
	/* A file is counted once created: at least that many exist. */
	cr_assert_geq(m.seen_files, m.seen_counter, "%zu files, counter %llu",
	    m.seen_files, (unsigned long long)m.seen_counter);
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(smallfiles, counts_run_one_test_per_batch)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_smallfiles, "counts = [50, 120]; dirs = 1;", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK);
	cr_assert_eq(r->ntests, 2);
	cr_assert_str_eq(r->tests[0].key, "files_50");
	cr_assert_str_eq(r->tests[1].key, "files_120");
	check_consistent(&r->tests[0], 50, 50 * 4096);
	check_consistent(&r->tests[1], 120, 120 * 4096);
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(smallfiles, full_filesystem_fails_cleanly)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 1 << 20);
	r = wltest_run(&wl_smallfiles, "count = 1000; size = \"4K\";", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert_not_null(r->error);
	cr_assert(strstr(r->error, "No space left on device") != NULL, "%s",
	    r->error);
	cr_assert(wltest_dir_empty(tg.dir), "files left behind");
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(smallfiles, stop_mid_run_is_interrupted_and_clean)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_smallfiles, "count = 10000000; size = \"0\";",
	    tg.dir, LAB_CACHE_KEEP, wltest_stop_when,
	    &(struct wltest_stop){ .files = 100 }, 30);
	cr_assert_eq(r->status, WL_INTERRUPTED);
	cr_assert_eq(r->ntests, 1);
	cr_assert(r->tests[0].interrupted);
	/* Stopped, not finished: 10 million files would take hours. (A loose
	   bound: a loaded machine slows the part before the stop.) */
	cr_assert_geq(r->tests[0].files, 100);
	cr_assert_lt(r->tests[0].files, 100000);
	cr_assert_lt(r->wall, 60.0);
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* The free-space checks' estimate: the largest batch in whole 4K blocks
   (batches are removed in between), all of them when kept. */
Test(smallfiles, data_set_is_the_largest_batch_or_all_when_kept)
{
	struct param_value *v = wltest_params(&wl_smallfiles,
	    "counts = [10, 30, 20]; size = \"3K\";");

	cr_assert_eq(wl_smallfiles.dataset(v, false), 30 * 4096);
	cr_assert_eq(wl_smallfiles.dataset(v, true), 60 * 4096);
	wltest_params_free(&wl_smallfiles, v);
	v = wltest_params(&wl_smallfiles, "count = 7; size = \"8193\";");
	cr_assert_eq(wl_smallfiles.dataset(v, false), 7 * 3 * 4096);
	wltest_params_free(&wl_smallfiles, v);
	v = wltest_params(&wl_smallfiles, "count = 7; size = 0;");
	cr_assert_eq(wl_smallfiles.dataset(v, false), 0, "empty files");
	wltest_params_free(&wl_smallfiles, v);
}

/* ---------------------------------------------------------------- swaps */

/*
 * The attack of issue 19 (item 4) with the up-front check on the target
 * out of the way (the engine does not make it; labrun does): while the
 * worker fills batch0/d0000, batch0 is exchanged for a directory whose
 * d0000 is a link to one full of links to a victim file, or a link to
 * the victim is planted where the worker's last file goes. Working
 * below the directories it made and holds open (never a path, never
 * following a link), the workload writes where it meant to, or fails
 * on the planted name; the victim never changes.
 */
#define SWAP_FILES 20000
#define VICTIM_TEXT "precious\n"

struct swap {
	char lair[64]; /* the attacker's: victim, a, c */
	char victim[96];
	const char *target;
	bool plant; /* plant one link instead of exchanging batch0 */
	bool done;
	bool late; /* the last file was there before the attack */
};

static void
swap_setup(struct swap *s, const char *target, bool plant)
{
	char p[160], c[96];
	FILE *f;

	memset(s, 0, sizeof *s);
	snprintf(s->lair, sizeof s->lair, "/var/tmp/raidlab-lair.XXXXXX");
	cr_assert_not_null(mkdtemp(s->lair));
	snprintf(s->victim, sizeof s->victim, "%s/victim", s->lair);
	cr_assert_not_null(f = fopen(s->victim, "w"));
	fputs(VICTIM_TEXT, f);
	cr_assert_eq(fclose(f), 0);
	s->target = target;
	s->plant = plant;
	snprintf(p, sizeof p, "%s/a", s->lair);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/c", s->lair);
	cr_assert_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/a/d0000", s->lair);
	snprintf(c, sizeof c, "%s/c", s->lair);
	cr_assert_eq(symlink(c, p), 0);
	for (int i = 0; i < SWAP_FILES; i++) {
		snprintf(p, sizeof p, "%s/c/f%07d", s->lair, i);
		cr_assert_eq(symlink(s->victim, p), 0, "%s", strerror(errno));
	}
}

static void
victim_unchanged(const struct swap *s)
{
	char buf[64] = "";
	FILE *f = fopen(s->victim, "r");
	size_t n;

	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_assert_str_eq(buf, VICTIM_TEXT, "the victim now holds %zu bytes", n);
}

/* Once the worker has made batch0/d0000/f0000000: exchange or plant. */
static void
swap_attack(struct engine *eng, const struct evq_event *ev, void *arg)
{
	struct swap *s = arg;
	char dir[4096], batch[4200], f[4300];
	uint64_t deadline = wl_now_ns() + 60000000000ull;
	struct timespec nap = { 0, 100000 };
	struct stat st;

	(void)eng;
	if (s->done || ev == NULL || ev->type != EVQ_TEST_START)
		return;
	for (;;) {
		wltest_run_dir(s->target, dir, sizeof dir);
		snprintf(batch, sizeof batch, "%s/batch0", dir);
		snprintf(f, sizeof f, "%s/d0000/f0000000", batch);
		if (dir[0] != '\0' && lstat(f, &st) == 0)
			break;
		cr_assert_lt(wl_now_ns(), deadline, "no first file in 60 s");
		nanosleep(&nap, NULL);
	}
	/* an attack after the last file tests nothing: said, not passed */
	snprintf(f, sizeof f, "%s/d0000/f%07d", batch, SWAP_FILES - 1);
	s->late = lstat(f, &st) == 0;
	if (s->plant) {
		cr_assert_eq(symlink(s->victim, f), 0, "%s", strerror(errno));
	} else {
		snprintf(f, sizeof f, "%s/a", s->lair);
		cr_assert_eq(renameat2(AT_FDCWD, batch, AT_FDCWD, f,
				 RENAME_EXCHANGE),
		    0, "exchange: %s", strerror(errno));
	}
	s->done = true;
}

Test(smallfiles, a_swapped_directory_does_not_lead_it_elsewhere)
{
	struct wltest_target tg;
	struct wl_result *r;
	struct swap s;

	wltest_target_dir(&tg);
	swap_setup(&s, tg.dir, false);
	r = wltest_run(&wl_smallfiles,
	    "count = 20000; size = 0; dirs = 1; sync = false;", tg.dir,
	    LAB_CACHE_KEEP, swap_attack, &s, 300);
	cr_assert(s.done, "the exchange never happened");
	cr_assert(!s.late,
	    "the worker had made every file before the "
	    "exchange: nothing was tested");
	victim_unchanged(&s);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->tests[0].files, SWAP_FILES);
	wl_result_free(r);
	wltest_rm_rf(s.lair);
	wltest_target_free(&tg);
}

Test(smallfiles, a_planted_link_is_refused_not_followed)
{
	struct wltest_target tg;
	struct wl_result *r;
	struct swap s;

	wltest_target_dir(&tg);
	swap_setup(&s, tg.dir, true);
	r = wltest_run(&wl_smallfiles,
	    "count = 20000; size = 0; dirs = 1; sync = false;", tg.dir,
	    LAB_CACHE_KEEP, swap_attack, &s, 300);
	cr_assert(s.done, "the link was never planted");
	victim_unchanged(&s);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert(r->error != NULL && strstr(r->error, "f0019999") != NULL &&
		strstr(r->error, strerror(EEXIST)) != NULL,
	    "%s", r->error ? r->error : "");
	wl_result_free(r);
	wltest_rm_rf(s.lair);
	wltest_target_free(&tg);
}
