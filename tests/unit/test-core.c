/*
 * Core helpers: size units, error formatting, crash-safe file replacement,
 * the loops' tick (with the times given, never read from a clock).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/jsonx.h"
#include "base/tick.h"
#include "base/units.h"
#include "unit.h"

struct size_case {
	char *text;
	int rc;
	uint64_t bytes;
};

static void
free_cases(struct criterion_test_params *p)
{
	struct size_case *v = p->params;
	size_t i;

	for (i = 0; i < p->length; i++)
		cr_free(v[i].text);
	cr_free(v);
}

ParameterizedTestParameters(units, parses_sizes_as_mdadm_reads_them)
{
	static const struct {
		const char *text;
		int rc;
		uint64_t bytes;
	} cases[] = {
		{ "0", 0, 0 },
		{ "4096", 0, 4096 },
		{ "64K", 0, 65536 },
		{ "64k", 0, 65536 },
		{ "64KiB", 0, 65536 },
		{ "64KB", 0, 65536 },
		{ "1G", 0, 1073741824ULL },
		{ " 2 GiB ", 0, 2147483648ULL },
		{ "1.5G", 0, 1610612736ULL },
		{ "512B", 0, 512 },
		{ "16E", -ERANGE, 0 },
		{ "99999999999999999999", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "G", -EINVAL, 0 },
		{ "12Q", -EINVAL, 0 },
		{ "1.0000001K", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "1G2", -EINVAL, 0 },
	};
	size_t i, n = sizeof cases / sizeof cases[0];
	struct size_case *v = cr_malloc(n * sizeof *v);

	for (i = 0; i < n; i++) {
		v[i].rc = cases[i].rc;
		v[i].bytes = cases[i].bytes;
		v[i].text = unit_strdup(cases[i].text);
	}
	return cr_make_param_array(struct size_case, v, n, free_cases);
}

ParameterizedTest(struct size_case *c, units, parses_sizes_as_mdadm_reads_them)
{
	uint64_t v = 12345;
	int rc = units_parse_size(c->text, &v);

	cr_assert_eq(rc, c->rc, "'%s': rc %d, want %d", c->text, rc, c->rc);
	if (c->rc == 0)
		cr_assert_eq(v, c->bytes, "'%s': %llu, want %llu", c->text,
		    (unsigned long long)v, (unsigned long long)c->bytes);
}

Test(units, formats_human_sizes_like_lsblk)
{
	char b[UNITS_BUF];

	cr_assert_str_eq(units_format_size(0, b, sizeof b), "0B");
	cr_assert_str_eq(units_format_size(512, b, sizeof b), "512B");
	cr_assert_str_eq(units_format_size(4096, b, sizeof b), "4K");
	cr_assert_str_eq(units_format_size(1610612736ULL, b, sizeof b), "1.5G");
	cr_assert_str_eq(units_format_size(1000204886016ULL, b, sizeof b),
	    "931.5G");
}

Test(units, exact_form_parses_back_to_the_same_bytes)
{
	static const uint64_t v[] = { 0, 1, 4097, 65536, 1610612736ULL,
		3ULL << 40, 1ULL << 62 };
	char b[UNITS_BUF];
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		uint64_t back;

		units_format_exact(v[i], b, sizeof b);
		cr_assert_eq(units_parse_size(b, &back), 0, "%s", b);
		cr_assert_eq(back, v[i], "%s", b);
	}
	cr_assert_str_eq(units_format_exact(65536, b, sizeof b), "64K");
	cr_assert_str_eq(units_format_exact(1610612736ULL, b, sizeof b),
	    "1536M");
}

Test(err, formats_file_line_field_message)
{
	struct err e;
	char b[256];

	err_clear(&e);
	cr_assert(!err_isset(&e));
	cr_assert_eq(err_set(&e, -EINVAL, "lab.cfg", 12, "array.level",
			 "RAID5 needs %d devices", 3),
	    -EINVAL);
	cr_assert(err_isset(&e));
	cr_assert_str_eq(err_format(&e, b, sizeof b),
	    "lab.cfg:12: array.level: RAID5 needs 3 devices");
	err_setf(&e, -EIO, "plain");
	cr_assert_str_eq(err_format(&e, b, sizeof b), "plain");
	err_set(&e, -ENOENT, "x.cfg", 0, NULL, "missing");
	cr_assert_str_eq(err_format(&e, b, sizeof b), "x.cfg: missing");
	cr_assert_eq(err_set(NULL, -EPERM, NULL, 0, NULL, "x"), -EPERM);
}

Test(err, list_keeps_every_entry_in_order)
{
	struct errlist l;
	int i;

	errlist_init(&l);
	for (i = 0; i < 20; i++)
		errlist_add(&l, -EINVAL, "f", i + 1, "k", "m%d", i);
	cr_assert_eq(l.n, 20);
	cr_assert_eq(l.v[19].line, 20);
	cr_assert_str_eq(l.v[7].msg, "m7");
	errlist_done(&l);
	cr_assert_eq(l.n, 0);
}

Test(err, sort_orders_by_file_then_line_and_is_stable)
{
	static const struct {
		const char *file;
		int line;
		const char *msg;
	} in[] = {
		{ "b.cfg", 1, "b1" },
		{ "a.cfg", 9, "a9" },
		{ "a.cfg", 3, "a3x" },
		{ "a.cfg", 3, "a3y" },
		{ "a.cfg", 0, "a0" },
	};
	static const char *const want[] = { "a0", "a3x", "a3y", "a9", "b1" };
	struct errlist l;
	size_t i;

	errlist_init(&l);
	for (i = 0; i < 5; i++)
		errlist_add(&l, -EINVAL, in[i].file, in[i].line, NULL, "%s",
		    in[i].msg);
	errlist_sort(&l);
	for (i = 0; i < 5; i++)
		cr_assert_str_eq(l.v[i].msg, want[i]);
	errlist_done(&l);
}

/* Two sorted runs (a lab check's variants after its workloads) and
   equal lines in many places: ordered, and still stable. */
Test(err, sort_merges_long_runs_and_keeps_equal_lines_in_order)
{
	enum { N = 3000 };
	struct errlist l;
	int last = -1, seq = -1;

	errlist_init(&l);
	for (int i = 0; i < N; i++)
		errlist_add(&l, -EINVAL, "lab.cfg", N + i / 3, NULL, "%d", i);
	for (int i = 0; i < N; i++)
		errlist_add(&l, -EINVAL, "lab.cfg", i / 3, NULL, "%d", N + i);
	errlist_sort(&l);
	cr_assert_eq(l.n, 2 * N);
	for (size_t i = 0; i < l.n; i++) {
		int k = atoi(l.v[i].msg);

		cr_assert_geq(l.v[i].line, last, "entry %zu", i);
		if (l.v[i].line == last)
			cr_assert_gt(k, seq, "entry %zu: not stable", i);
		last = l.v[i].line;
		seq = k;
	}
	cr_assert_str_eq(l.v[0].msg, "3000");
	cr_assert_str_eq(l.v[2 * N - 1].msg, "2999");
	errlist_done(&l);
}

static char *
slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f, "%s", path);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

Test(afile, replaces_whole_file_and_keeps_its_mode)
{
	char dir[] = "/tmp/raidlab-afile.XXXXXX";
	char path[64];
	struct stat st;
	struct err e;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/lab.cfg", dir);
	cr_assert_eq(afile_write(path, "one\n", 4, &e), 0);
	cr_assert_str_eq(slurp(path), "one\n");
	cr_assert_eq(chmod(path, 0600), 0);
	cr_assert_eq(afile_write(path, "two two\n", 8, &e), 0);
	cr_assert_str_eq(slurp(path), "two two\n");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600);
	/* Nothing but the file itself is left in the directory. */
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(rmdir(dir), 0, "temporary file left behind");
}

/*
 * A bystander thread that creates a file when told to. umask() below is
 * interposed on libc's (the executable's definition wins), and when armed
 * it lets the bystander create its file while the new mask is in force:
 * the race of a worker creating a file while the TUI saves a lab, made
 * certain instead of likely.
 */
static sem_t by_go, by_done;
static const char *by_path;
static _Atomic bool by_armed;

static void *
bystander(void *arg)
{
	int fd;

	(void)arg;
	sem_wait(&by_go);
	fd = open(by_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0)
		close(fd);
	sem_post(&by_done);
	return NULL;
}

mode_t umask(mode_t mask);

mode_t
umask(mode_t mask)
{
	mode_t old = (mode_t)syscall(SYS_umask, mask);

	if (by_armed) {
		by_armed = false;
		sem_post(&by_go);
		sem_wait(&by_done);
	}
	return old;
}

Test(afile, leaves_the_umask_alone_while_another_thread_creates_files)
{
	char dir[] = "/tmp/raidlab-afile.XXXXXX";
	char path[64], other[64];
	pthread_t t;
	struct stat st;
	struct err e;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/lab.cfg", dir);
	snprintf(other, sizeof other, "%s/worker-file", dir);
	by_path = other;
	cr_assert_eq(sem_init(&by_go, 0, 0), 0);
	cr_assert_eq(sem_init(&by_done, 0, 0), 0);
	syscall(SYS_umask, 027);
	cr_assert_eq(pthread_create(&t, NULL, bystander, NULL), 0);
	by_armed = true;
	cr_assert_eq(afile_write(path, "x\n", 2, &e), 0);
	if (by_armed) { /* afile never touched the mask: create it now */
		by_armed = false;
		sem_post(&by_go);
		sem_wait(&by_done);
	}
	pthread_join(t, NULL);
	cr_assert_eq((mode_t)syscall(SYS_umask, 027), 027,
	    "the process umask changed");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0640, "lab file mode %o",
	    st.st_mode & 0777);
	cr_assert_eq(stat(other, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0640,
	    "a file another thread created during the save has mode %o",
	    st.st_mode & 0777);
	unlink(path);
	unlink(other);
	rmdir(dir);
}

Test(afile, reads_the_umask_it_did_not_set)
{
	syscall(SYS_umask, 0077);
	cr_assert_eq(afile_umask(), 0077);
	syscall(SYS_umask, 0022);
	cr_assert_eq(afile_umask(), 0022);
}

Test(afile, reports_unwritable_directory_and_leaves_old_file)
{
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	int rc;

	rc = afile_write("/nonexistent-dir/lab.cfg", "x", 1, &e);
	cr_assert_eq(rc, -ENOENT);
	err_format(&e, b, sizeof b);
	cr_assert(strstr(b, "/nonexistent-dir/lab.cfg") != NULL, "%s", b);
}

Test(jsonx, keeps_bytes_that_are_not_utf8_as_hex)
{
	/* Latin-1 e acute, a lone continuation byte, a cut 3-byte sequence,
	   an overlong slash; valid UTF-8 stays as it is */
	json_t *j = jsonx_str_bytes("caf\xe9 \x80 \xe2\x82 \xc0\xaf "
				    "\xc3\xa9 ok\n");

	cr_assert_not_null(j);
	cr_assert_str_eq(json_string_value(j),
	    "caf\\xe9 \\x80 \\xe2\\x82 \\xc0\\xaf \xc3\xa9 ok\n");
	json_decref(j);
	j = jsonx_str_bytes(NULL);
	cr_assert(json_is_null(j));
	json_decref(j);
}

/* ---------------------------------------------------------------- tick */

#define MS 1000000ull

Test(tick, is_due_at_its_deadline_and_not_before)
{
	struct tick t;
	uint64_t missed = 99;

	tick_start(&t, 250 * MS, 1000 * MS);
	cr_assert_not(tick_due(&t, 1250 * MS - 1, &missed));
	cr_assert_eq(missed, 99, "a tick not due says nothing");
	cr_assert(tick_due(&t, 1250 * MS, &missed));
	cr_assert_eq(missed, 0);
	cr_assert_eq(t.next, 1500 * MS);
	cr_assert_not(tick_due(&t, 1250 * MS, NULL), "one tick per deadline");
}

Test(tick, late_tick_skips_to_the_next_multiple_and_counts_the_missed)
{
	struct tick t;
	uint64_t missed = 0;

	tick_start(&t, 250 * MS, 1000 * MS);
	/* Deadlines at 1250, 1500, 1750 and 2000 have passed at 2010. */
	cr_assert(tick_due(&t, 2010 * MS, &missed));
	cr_assert_eq(missed, 3);
	cr_assert_eq(t.next, 2250 * MS, "not 2010 + 250: the grid holds");
	/* No burst of catch-up ticks: the next one waits for 2250. */
	cr_assert_not(tick_due(&t, 2010 * MS, NULL));
	cr_assert_not(tick_due(&t, 2249 * MS, NULL));
	/* Woken exactly on a later deadline: that one is taken. */
	cr_assert(tick_due(&t, 2750 * MS, &missed));
	cr_assert_eq(missed, 2);
	cr_assert_eq(t.next, 3000 * MS);
}

Test(tick, deadlines_stay_on_the_grid_however_late_the_wake_ups)
{
	static const uint64_t wake_late[] = { 0, 1, 7, 249, 250, 251, 999, 3 };
	struct tick t;
	uint64_t now = 5 * MS, taken = 0, missed, skipped = 0;

	tick_start(&t, 250 * MS, now);
	for (size_t i = 0; i < sizeof wake_late / sizeof wake_late[0]; i++) {
		now = t.next + wake_late[i] * MS;
		cr_assert(tick_due(&t, now, &missed));
		taken++;
		skipped += missed;
		cr_assert_eq((t.next - 5 * MS) % (250 * MS), 0);
		cr_assert_gt(t.next, now);
		cr_assert_leq(t.next - now, 250 * MS);
	}
	/* Every deadline up to the last wake-up was taken or counted. */
	cr_assert_eq(taken + skipped, (t.next - 5 * MS) / (250 * MS) - 1);
}

Test(tick, timeout_rounds_up_to_the_deadline_and_is_0_when_due)
{
	struct tick t;

	tick_start(&t, 250 * MS, 0);
	cr_assert_eq(tick_left(&t, 0), 250 * MS);
	cr_assert_eq(tick_timeout_ms(&t, 0), 250);
	cr_assert_eq(tick_timeout_ms(&t, 250 * MS - 1), 1,
	    "1 ns left is a 1 ms wait, not a busy 0");
	cr_assert_eq(tick_timeout_ms(&t, 250 * MS), 0);
	cr_assert_eq(tick_left(&t, 300 * MS), 0);
	cr_assert_eq(tick_timeout_ms(&t, 300 * MS), 0);
}

Test(tick, zero_period_counts_as_one_nanosecond)
{
	struct tick t;
	uint64_t missed;

	tick_start(&t, 0, 10);
	cr_assert_eq(t.period, 1);
	cr_assert(tick_due(&t, 15, &missed));
	cr_assert_eq(missed, 4);
	cr_assert_eq(t.next, 16);
}
