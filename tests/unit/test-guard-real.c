/*
 * Guards on the real machine (root): the rules of guard_check() and
 * guard_exclusive() on real loop devices (losetup -f over sparse files in
 * a temp dir, released in each test's fini) and the real root disk. Part
 * of the test-guard program (unit-guard.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "build/guard.h"
#include "disk/disk.h"
#include "unit-disk.h"
#include "unit-guard.h"

/* ---------------------------------------------------------------- real */

static char tmp[64];
static char loops[2][64];
static size_t nloops;
static char mnt[128];

/* Run argv (PATH search), stdout into out (may be NULL); exit status. */
static int
run(const char *const argv[], char *out, size_t len)
{
	union {
		const char *const *c;
		char *const *m; /* execvp's type; it does not write */
	} u = { argv };
	int fds[2], st, null;
	ssize_t n;
	size_t off = 0;
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(null, 2);
		close(fds[0]);
		execvp(argv[0], u.m);
		_exit(127);
	}
	close(fds[1]);
	while (out != NULL && off + 1 < len &&
	    (n = read(fds[0], out + off, len - off - 1)) > 0)
		off += (size_t)n;
	if (out != NULL) {
		out[off] = '\0';
		out[strcspn(out, "\n")] = '\0';
	}
	close(fds[0]);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Two loop devices over 64 MiB sparse files in a private temp dir (as
 * root only: nothing is created otherwise). */
static void
real_init(void)
{
	char file[128];
	size_t k;
	int fd;

	nloops = 0;
	tmp[0] = mnt[0] = '\0';
	if (geteuid() != 0)
		return;
	snprintf(tmp, sizeof tmp, "/tmp/raidlab-guard.XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
	for (k = 0; k < 2; k++) {
		const char *argv[] = { "losetup", "-f", "--show", file, NULL };

		snprintf(file, sizeof file, "%s/disk%zu.img", tmp, k);
		fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		cr_assert_geq(fd, 0);
		cr_assert_eq(ftruncate(fd, 64 << 20), 0);
		close(fd);
		if (run(argv, loops[k], sizeof loops[k]) != 0 ||
		    strncmp(loops[k], "/dev/loop", 9) != 0)
			return;
		nloops++;
	}
}

/* Release everything; safe to call twice (a skipped test's fini may not
 * run, so skips call it first). */
static void
real_fini(void)
{
	size_t k;

	if (mnt[0] != '\0' && umount(mnt) != 0)
		umount2(mnt, MNT_DETACH);
	for (k = 0; k < nloops; k++) {
		const char *argv[] = { "losetup", "-d", loops[k], NULL };

		run(argv, NULL, 0);
	}
	rm_tree(tmp);
	nloops = 0;
	tmp[0] = mnt[0] = '\0';
}

#define skip_real(...)                                                         \
	do {                                                                   \
		real_fini();                                                   \
		cr_skip_test(__VA_ARGS__);                                     \
	} while (0)

static void
need_loops(void)
{
	if (geteuid() != 0)
		skip_real("needs root (loop devices)");
	if (nloops < 2)
		skip_real("losetup -f --show did not give two loop devices");
}

static void
mkfs_ext4(const char *dev, const char *label)
{
	const char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", label, dev,
		NULL };
	int st = run(argv, NULL, 0);

	if (st == 127)
		skip_real("needs mkfs.ext4");
	cr_assert_eq(st, 0, "mkfs.ext4 %s", dev);
}

static void
scan(struct disk_list *l)
{
	struct err e;

	disk_list_init(l);
	err_clear(&e);
	cr_assert_eq(disk_list_scan(l, 0, &e), 0, "%s", e.msg);
}

/* A symlink in the temp dir to target, like /dev/disk/by-id/... */
static const char *
link_to(const char *target, const char *name)
{
	static char path[2][128];
	static int k;
	char *p = path[k++ % 2];

	snprintf(p, sizeof path[0], "%s/%s", tmp, name);
	cr_assert_eq(symlink(target, p), 0);
	return p;
}

static int
check_real(struct disk_list *l, const char *const *paths, size_t n,
    const char *const *conf, size_t nconf)
{
	struct guard_dev devs[4];
	size_t i;

	for (i = 0; i < n; i++)
		devs[i] = (struct guard_dev){ paths[i], GUARD_MEMBER,
			"variants.v.array.devices", 3 };
	return guard_check(l, devs, n, conf, nconf, LAB, &entries);
}

TestSuite(guard_real, .init = real_init, .fini = real_fini);

Test(guard_real, free_loops_pass_and_open_exclusively)
{
	const char *p[] = { loops[0], loops[1] };
	struct disk_list l;
	struct err e;
	int fd;

	need_loops();
	errlist_init(&entries);
	scan(&l);
	cr_expect_eq(check_real(&l, p, 2, NULL, 0), 0);
	expect_entries(0);
	err_clear(&e);
	cr_expect_eq(guard_exclusive(p, 2, &e), 0, "%s", e.msg);
	/* The same device twice cannot be claimed twice. */
	cr_expect_eq(guard_exclusive((const char *[]){ loops[0], loops[0] }, 2,
			 &e),
	    -EBUSY);
	/* Nothing stays open: the caller can claim them itself. */
	fd = open(loops[0], O_RDONLY | O_EXCL | O_CLOEXEC);
	cr_expect_geq(fd, 0, "%s", strerror(errno));
	close(fd);
	disk_list_done(&l);
	errlist_done(&entries);
}

Test(guard_real, exclusive_fails_on_a_held_device_and_closes_the_rest)
{
	const char *p[] = { loops[0], loops[1] };
	char want[256];
	struct err e;
	int held, fd;

	need_loops();
	held = open(loops[1], O_RDONLY | O_EXCL | O_CLOEXEC);
	cr_assert_geq(held, 0);
	err_clear(&e);
	cr_expect_eq(guard_exclusive(p, 2, &e), -EBUSY);
	snprintf(want, sizeof want,
	    "%s is held by another process or the kernel (open with O_EXCL "
	    "failed: Device or resource busy)",
	    loops[1]);
	cr_expect_str_eq(e.msg, want);
	fd = open(loops[0], O_RDONLY | O_EXCL | O_CLOEXEC);
	cr_expect_geq(fd, 0, "%s was left open: %s", loops[0], strerror(errno));
	close(fd);
	close(held);
}

Test(guard_real, ext4_needs_confirmation_also_through_a_symlink)
{
	const char *p[] = { loops[0] }, *c[1];
	struct disk_list l;
	char *desc, want[256];

	need_loops();
	errlist_init(&entries);
	mkfs_ext4(loops[0], "guardlbl");
	scan(&l);
	cr_expect_eq(check_real(&l, p, 1, NULL, 0), -EPERM);
	expect_entries(1);
	snprintf(want, sizeof want,
	    "%s: has data: ext4 signature (label \"guardlbl\", UUID ",
	    loops[0]);
	cr_expect(strstr(entry(0), want) != NULL, "%s", entry(0));
	errlist_done(&entries);
	c[0] = link_to(loops[0], "by-label-guardlbl");
	cr_expect_eq(check_real(&l, p, 1, c, 1), 0);
	expect_entries(0);
	desc = guard_confirmed_describe(&l, c, 1);
	snprintf(want, sizeof want, "%s (ext4 \"guardlbl\")", c[0]);
	cr_expect_str_eq(desc, want);
	free(desc);
	/* The free one confirmed too: the list no longer matches. */
	c[0] = loops[1];
	cr_expect_eq(check_real(&l, p, 1, c, 1), -EPERM);
	expect_entries(2);
	disk_list_done(&l);
	errlist_done(&entries);
}

Test(guard_real, a_mounted_loop_is_busy_and_cannot_be_claimed)
{
	const char *p[] = { loops[0] };
	struct disk_list l;
	char want[256];
	struct err e;

	need_loops();
	errlist_init(&entries);
	mkfs_ext4(loops[0], "mnt");
	snprintf(mnt, sizeof mnt, "%s/mnt", tmp);
	cr_assert_eq(mkdir(mnt, 0755), 0);
	if (mount(loops[0], mnt, "ext4", 0, NULL) != 0) {
		mnt[0] = '\0';
		skip_real("cannot mount ext4 here: %s", strerror(errno));
	}
	scan(&l);
	cr_expect_eq(check_real(&l, p, 1, p, 1), -EPERM);
	expect_entries(1);
	snprintf(want, sizeof want, "%s: mounted on %s", loops[0], mnt);
	cr_expect(strstr(entry(0), want) != NULL, "%s", entry(0));
	err_clear(&e);
	cr_expect_eq(guard_exclusive(p, 1, &e), -EBUSY);
	disk_list_done(&l);
	errlist_done(&entries);
}

Test(guard_real, the_same_loop_twice_through_a_symlink)
{
	const char *p[2];
	struct disk_list l;

	need_loops();
	errlist_init(&entries);
	p[0] = loops[1];
	p[1] = link_to(loops[1], "by-id-twice");
	scan(&l);
	cr_expect_eq(check_real(&l, p, 2, NULL, 0), -EPERM);
	expect_entries(1);
	cr_expect(strstr(entry(0), "appears twice") != NULL, "%s", entry(0));
	disk_list_done(&l);
	errlist_done(&entries);
}

Test(guard_real, confirmations_split_between_variants)
{
	struct guard_dev d0 = { loops[0], GUARD_MEMBER, "f", 1 };
	struct guard_dev both[] = { d0, { loops[1], GUARD_SPARE, "g", 2 } };
	const char *c[4], *out[4];

	need_loops();
	errlist_init(&entries);
	c[0] = loops[1];
	c[1] = "/dev/nope";
	c[2] = link_to(loops[0], "by-path-0");
	c[3] = "/dev/null";
	cr_expect_eq(guard_confirmed_for(&d0, 1, c, 4, out), 1);
	cr_expect_str_eq(out[0], c[2]);
	cr_expect_eq(guard_confirmed_for(both, 2, c, 4, out), 2);
	cr_expect_eq(guard_confirmed_unclaimed(both, 2, c, 4, LAB, &entries),
	    -EPERM);
	expect_entries(2);
	expect_entry(0,
	    "lab.cfg: --yes-destroy names /dev/nope, which does "
	    "not exist");
	expect_entry(1,
	    "lab.cfg: --yes-destroy names /dev/null, which is not "
	    "a block device");
	errlist_done(&entries);
	cr_expect_eq(guard_confirmed_unclaimed(&d0, 1, c, 1, LAB, &entries),
	    -EPERM);
	expect_entries(1);
	cr_expect(strstr(entry(0), "which no selected variant uses") != NULL,
	    "%s", entry(0));
	errlist_done(&entries);
}

/* The real machine: whatever holds / is refused, confirmed or not
 * (here /dev/vda, which cannot even be opened: the refusal still comes). */
Test(guard_real, the_real_root_disk_is_refused_even_confirmed)
{
	const struct disk *root = NULL;
	struct disk_list l;
	size_t i;

	errlist_init(&entries);
	scan(&l);
	for (i = 0; i < l.n && root == NULL; i++)
		if (l.v[i].root && l.v[i].parent == NULL)
			root = &l.v[i];
	if (root == NULL) {
		disk_list_done(&l);
		skip_real("/ is not on a block device here");
	}
	cr_expect_eq(check_real(&l, (const char *[]){ root->path }, 1,
			 (const char *[]){ root->path }, 1),
	    -EPERM);
	expect_entries(1);
	cr_expect(strstr(entry(0), "never used, not even with --yes-destroy") !=
		NULL,
	    "%s", entry(0));
	disk_list_done(&l);
	errlist_done(&entries);
}
