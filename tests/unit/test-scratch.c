/*
 * Scratch disks (scratch; root): sparse files of the right size on loop
 * devices, journaled, undone completely, under names nobody can take in
 * advance. Part of the test-statej program (unit-statej.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "build/scratch.h"
#include "build/statej.h"
#include "unit-statej.h"

/* ------------------------------------------------ scratch disks (root) */

static uint64_t
sysfs_size(const char *dev)
{
	char *p = xasprintf("/sys/block/%s/size", strrchr(dev, '/') + 1);
	unsigned long long sectors = 0;
	FILE *fp = fopen(p, "r");

	if (fp != NULL) {
		if (fscanf(fp, "%llu", &sectors) != 1)
			sectors = 0;
		fclose(fp);
	}
	free(p);
	return sectors * 512;
}

Test(scratch, makes_sparse_loop_disks_and_undoes_them)
{
	struct scratch s;
	struct statej *j;
	struct stat st;
	char *lj, *want, *files[3];
	struct err e;
	size_t i;

	need_loops();
	err_clear(&e);
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(scratch_create(&s, test_dir, "mirror", 3, 64 << 20, j, &e),
	    0, "%s", e.msg);
	cr_assert_eq(s.n, 3);
	cr_assert_eq(statej_live(j), 6);
	for (i = 0; i < 3; i++) {
		/* DIR/raidlab-mirror-PID.RANDOM-N.img */
		want =
		    xasprintf("%s/raidlab-mirror-%d.", test_dir, (int)getpid());
		cr_assert(strncmp(s.files[i], want, strlen(want)) == 0 &&
			strlen(s.files[i]) == strlen(want) + 12 + 6,
		    "%s", s.files[i]);
		cr_assert_eq(strspn(s.files[i] + strlen(want),
				 "abcdefghijklmnopqrstuvwxyz0123456789"),
		    12, "%s", s.files[i]);
		free(want);
		want = xasprintf("-%zu.img", i);
		cr_assert_str_eq(s.files[i] + strlen(s.files[i]) - 6, want);
		free(want);
		cr_assert_eq(stat(s.files[i], &st), 0);
		cr_assert_eq(st.st_size, 64 << 20);
		cr_assert_lt(st.st_blocks * 512, 1 << 20, "not sparse");
		lj = losetup_j(s.files[i]);
		want = xasprintf("%s: ", s.devices[i]);
		cr_assert(strncmp(lj, want, strlen(want)) == 0,
		    "losetup -j %s: %s (want %s)", s.files[i], lj, want);
		free(want);
		free(lj);
		cr_assert_eq(sysfs_size(s.devices[i]), 64 << 20);
		files[i] = xstrdup(s.files[i]);
	}
	cr_assert_null(s.files[3]);
	cr_assert_eq(scratch_destroy(&s, j, &e), 0, "%s", e.msg);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(statej_live(j), 0);
	for (i = 0; i < 3; i++) {
		lj = losetup_j(files[i]);
		cr_assert_str_eq(lj, "", "left attached: %s", lj);
		cr_assert_not(exists(files[i]));
		free(lj);
		free(files[i]);
	}
	statej_close(j);
	want = journal_of(getpid());
	cr_assert_not(exists(want));
	free(want);
}

/* The names raidlab used to pick, taken in advance (by any user, in
   /var/tmp): they must not stop the run, and stay untouched. */
Test(scratch, names_taken_in_advance_do_not_stop_it)
{
	char *taken[4], *text;
	struct scratch s;
	struct statej *j;
	struct err e;
	size_t i;

	need_loops();
	for (i = 0; i < 4; i++) {
		taken[i] = xasprintf("%s/raidlab-v-%d-%zu.img", test_dir,
		    (int)getpid(), i);
		write_file(taken[i], "somebody's data");
	}
	err_clear(&e);
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(scratch_create(&s, test_dir, "v", 2, 1 << 20, j, &e), 0,
	    "%s", e.msg);
	cr_assert_eq(scratch_destroy(&s, j, &e), 0, "%s", e.msg);
	for (i = 0; i < 4; i++) {
		text =
		    output_of((const char *const[]){ "cat", taken[i], NULL });
		cr_assert_str_eq(text, "somebody's data");
		free(text);
		text = losetup_j(taken[i]);
		cr_assert_str_eq(text, "");
		free(text);
		free(taken[i]);
	}
	statej_close(j);
}

Test(scratch, undoes_everything_on_a_partial_failure)
{
	char *bin = tpath("bin"), *fake, *path, *lj, *script, *old;
	struct scratch s;
	struct statej *j;
	struct err e;

	need_loops();
	/* A losetup that attaches the first disk and fails the second. */
	mkdir(bin, 0755);
	fake = xasprintf("%s/losetup", bin);
	lj = output_of((const char *const[]){ "sh", "-c",
	    "command -v losetup | tr -d '\\n'", NULL });
	script = xasprintf("#!/bin/sh\n[ -e \"$0.n\" ] && "
			   "{ echo 'no free device' >&2; exit 1; }\n"
			   ": > \"$0.n\"\nexec %s \"$@\"\n",
	    lj);
	free(lj);
	write_file(fake, script);
	cr_assert_eq(chmod(fake, 0755), 0);
	old = xstrdup(getenv("PATH"));
	path = xasprintf("%s:%s", bin, old);
	setenv("PATH", path, 1);
	err_clear(&e);
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_lt(scratch_create(&s, test_dir, "v", 2, 1 << 20, j, &e), 0);
	cr_assert_not_null(strstr(e.msg, "no free device"), "%s", e.msg);
	setenv("PATH", old, 1);
	cr_assert_eq(s.n, 0);
	cr_assert_null(s.files);
	/* Nothing left: no file, no loop device, no live object. */
	lj = output_of((const char *const[]){ "sh", "-c",
	    "ls \"$0\" | grep raidlab-v- || true", test_dir, NULL });
	cr_assert_str_eq(lj, "");
	free(lj);
	lj = output_of((const char *const[]){ "sh", "-c",
	    "losetup -n -O BACK-FILE | grep -F \"$0/raidlab-v-\" || true",
	    test_dir, NULL });
	cr_assert_str_eq(lj, "");
	free(lj);
	cr_assert_eq(statej_live(j), 0);
	statej_close(j);
	free(script);
	free(path);
	free(old);
	free(fake);
	free(bin);
}

Test(scratch, refuses_bad_arguments)
{
	struct scratch s;
	struct err e;

	err_clear(&e);
	cr_assert_eq(scratch_create(&s, "/nonexistent/dir", "v", 1, 1 << 20,
			 NULL, &e),
	    -ENOENT);
	cr_assert_not_null(strstr(e.msg, "/nonexistent/dir"), "%s", e.msg);
	cr_assert_eq(scratch_create(&s, test_dir, "v", 1, 1000, NULL, NULL),
	    -EINVAL);
	cr_assert_eq(scratch_create(&s, test_dir, "a/b", 1, 1 << 20, NULL,
			 NULL),
	    -EINVAL);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(scratch_destroy(&s, NULL, NULL), 0);
}

Test(scratch, destroy_says_when_a_device_is_busy)
{
	struct scratch s;
	struct statej *j;
	struct err e;
	char *file, *lj;
	int fd, i;

	need_loops();
	err_clear(&e);
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(scratch_create(&s, test_dir, "busy", 1, 1 << 20, j, &e), 0,
	    "%s", e.msg);
	file = xstrdup(s.files[0]);
	fd = open(s.devices[0], O_RDONLY); /* as a mount would hold it */
	cr_assert_geq(fd, 0);
	cr_assert_eq(scratch_destroy(&s, j, &e), -EBUSY);
	cr_assert_not_null(strstr(e.msg, "autoclear"), "%s", e.msg);
	/* Kept: the file still backs the device, the journal knows both. */
	cr_assert(exists(file));
	cr_assert_eq(statej_live(j), 2);
	close(fd);
	/* Autoclear: the last close detaches it. */
	for (i = 0; i < 100; i++) {
		lj = losetup_j(file);
		if (*lj == '\0')
			break;
		free(lj);
		lj = NULL;
		usleep(10000);
	}
	cr_assert_not_null(lj, "still attached after the last close");
	free(lj);
	unlink(file);
	statej_close(j);
	free(file);
}
