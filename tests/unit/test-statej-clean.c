/*
 * Cleaning up after a dead raidlab (statej-clean): what it left is undone
 * (files, directories, commands, loop devices), newest first; a running
 * process's objects are left alone unless forced; pid reuse and torn
 * lines do not fool the cleanup; a loop device backed by another file is
 * never detached; a file or directory that is not the one the run
 * created (another, or none recorded) is left alone. Part of the
 * test-statej program (unit-statej.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "build/exec.h"
#include "build/ident.h"
#include "build/loopdev.h"
#include "build/statej-int.h"
#include "build/statej.h"
#include "unit-statej.h"

/* Record the identity of path (a file or directory just made) for id. */
static bool
identify(struct statej *j, int id, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && statej_identify(j, id, fd, NULL) == 0;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* Run body in a child that then dies without releasing anything. */
static pid_t
in_dead_child(void (*body)(void *), void *arg)
{
	int st;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		body(arg);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child failed");
	return pid;
}

/* In a child: no Criterion asserts, an exit status instead. */
static void
check(bool ok)
{
	if (!ok)
		_exit(3);
}

struct leftovers {
	char *file, *dir, *marker;
	bool replace; /* put another file at marker's name after the run */
	bool marker_only; /* leave only the marker object behind */
};

/* A run that created a file, a directory and something only commands
 * undo, then died. */
static void
leave_objects(void *arg)
{
	const struct leftovers *l = arg;
	const char *const rm[] = { "rm", "-f", l->marker, NULL };
	const char *const *undo[] = { rm, NULL };
	struct statej_cmds c = { .label = "marker",
		.undo = undo,
		.product = l->marker };
	struct statej *j;
	json_t *pre, *post;
	int id;

	check(statej_open(&j, NULL) == 0);
	check(statej_add(j, STATEJ_FILE, l->file, NULL, &id, NULL) == 0);
	touch(l->file);
	check(identify(j, id, l->file));
	check(statej_add(j, STATEJ_DIR, l->dir, NULL, &id, NULL) == 0);
	check(mkdir(l->dir, 0755) == 0);
	check(identify(j, id, l->dir));
	c.pre = pre = ident_take_undo(undo, false);
	check(statej_add_cmds(j, &c, &id, NULL) == 0);
	touch(l->marker);
	post = ident_take_undo(undo, true);
	check(statej_created(j, id, post, NULL) == 0);
	json_decref(post);
	json_decref(pre);
	if (l->replace) {
		/* What the user does after the kill: the name is reused. */
		char *other = xasprintf("%s.new", l->marker);

		touch(other);
		check(rename(other, l->marker) == 0);
		free(other);
	}
	if (l->marker_only)
		check(rmdir(l->dir) == 0 && unlink(l->file) == 0);
}

Test(statej, cleanup_undoes_what_a_dead_process_left)
{
	struct leftovers l = { .file = tpath("f.img"),
		.dir = tpath("mnt"),
		.marker = tpath("marker") };
	char *out, *want, *jp;
	pid_t pid;

	pid = in_dead_child(leave_objects, &l);
	jp = journal_of(pid);
	cr_assert(
	    exists(jp) && exists(l.file) && exists(l.dir) && exists(l.marker));
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	/* Newest first. */
	want = xasprintf("marker: rm -f %s: ok\nremoved directory %s\n"
			 "removed %s\n",
	    l.marker, l.dir, l.file);
	cr_assert_str_eq(out, want);
	cr_assert_not(exists(l.file));
	cr_assert_not(exists(l.dir));
	cr_assert_not(exists(l.marker));
	cr_assert_not(exists(jp), "the journal stayed");
	free(out);
	/* Nothing left to do. */
	cr_assert_eq(cleanup(false, &out), 0);
	cr_assert_str_eq(out, "");
	free(out);
	free(want);
	free(jp);
	free(l.file);
	free(l.dir);
	free(l.marker);
}

Test(statej, cleanup_leaves_alone_what_took_an_objects_name)
{
	struct leftovers l = { .file = tpath("f.img"),
		.dir = tpath("mnt"),
		.marker = tpath("marker"),
		.replace = true,
		.marker_only = true };
	char *out, *jp;
	pid_t pid;

	pid = in_dead_child(leave_objects, &l);
	jp = journal_of(pid);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	/* Another file has the marker's name: not the run's to remove. */
	cr_assert(exists(l.marker), "cleanup removed a file it did not make");
	cr_expect(strstr(out, "left ") != NULL &&
		strstr(out, "is not the file raidlab recorded") != NULL,
	    "%s", out);
	/* It settled the object all the same: the next cleanup has
	   nothing to do, and says so with status 0. */
	cr_assert_not(exists(jp), "the journal stayed");
	free(out);
	cr_assert_eq(cleanup(false, &out), 0);
	cr_assert_str_eq(out, "");
	free(out);
	unlink(l.marker);
	free(l.file);
	free(l.dir);
	free(l.marker);
	free(jp);
}

/* A journal line of an older raidlab: an undo with no identities. */
static void
leave_unidentified(void *arg)
{
	const char *marker = arg;
	const char *const rm[] = { "rm", "-f", marker, NULL };
	const char *const *undo[] = { rm, NULL };
	struct statej *j;
	int id;

	check(statej_open(&j, NULL) == 0);
	check(statej_add(j, STATEJ_CMDS, "old", undo, &id, NULL) == 0);
	touch(marker);
	check(statej_created(j, id, NULL, NULL) == 0);
}

Test(statej, cleanup_touches_nothing_it_cannot_identify)
{
	char *marker = tpath("marker"), *out, *jp;
	pid_t pid;

	pid = in_dead_child(leave_unidentified, marker);
	jp = journal_of(pid);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert(exists(marker));
	cr_expect(strstr(out, "raidlab recorded no identity") != NULL, "%s",
	    out);
	cr_assert_not(exists(jp));
	free(out);
	unlink(marker);
	free(marker);
	free(jp);
}

Test(statej, cleanup_leaves_a_running_process_alone)
{
	char *file = tpath("live.img"), *out;
	int ready[2], go[2];
	struct statej *j;
	pid_t pid;
	char c;
	int id;

	cr_assert_eq(pipe(ready), 0);
	cr_assert_eq(pipe(go), 0);
	if ((pid = fork()) == 0) {
		close(ready[0]);
		close(go[1]);
		check(statej_open(&j, NULL) == 0);
		check(statej_add(j, STATEJ_FILE, file, NULL, &id, NULL) == 0);
		touch(file);
		check(identify(j, id, file));
		check(write(ready[1], "r", 1) == 1);
		check(read(go[0], &c, 1) >= 0);
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	cr_assert_eq(read(ready[0], &c, 1), 1);
	cr_assert_eq(cleanup(false, &out), 0);
	cr_assert(exists(file), "a running process's file was removed");
	cr_assert_not_null(strstr(out, "still running"), "%s", out);
	free(out);
	cr_assert_eq(cleanup(true, &out), 0);
	cr_assert_not(exists(file));
	cr_assert_not_null(strstr(out, "removed"), "%s", out);
	free(out);
	close(go[1]);
	waitpid(pid, NULL, 0);
	close(ready[0]);
	free(file);
}

Test(statej, cleanup_never_touches_its_own_journal)
{
	char *file = tpath("mine.img"), *out;
	struct statej *j;
	int id;

	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(statej_add(j, STATEJ_FILE, file, NULL, &id, NULL), 0);
	touch(file);
	cr_assert_eq(cleanup(true, &out), 0);
	cr_assert_str_eq(out, "");
	cr_assert(exists(file));
	free(out);
	unlink(file);
	statej_release(j, id, NULL);
	statej_close(j);
	free(file);
}

Test(statej, cleanup_tolerates_a_torn_last_line)
{
	char *file = tpath("torn.img"), *rest, *jp, *out, *id;
	struct statej_file f;

	touch(file);
	id = ident_line(1, file);
	rest = xasprintf("{\"op\":\"add\",\"id\":1,\"kind\":\"file\","
			 "\"name\":\"%s\"}\n%s{\"op\":\"release\",\"i",
	    file, id);
	free(id);
	jp = fake_journal(dead_pid(), 1, rest);
	cr_assert_eq(statej_read(jp, &f, NULL), 0);
	cr_assert_eq(f.n, 1);
	cr_assert_eq(f.bad, 1);
	cr_assert_eq(statej_file_live(&f), 1);
	statej_file_done(&f);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert_not(exists(file));
	cr_assert_not(exists(jp));
	free(out);
	free(rest);
	free(jp);
	free(file);
}

Test(statej, cleanup_is_not_fooled_by_pid_reuse)
{
	char *file = tpath("reused.img"), *rest, *jp, *out, *id;
	pid_t ppid = getppid();

	/* Our parent runs the same binary, but started at another time
	   than the journal says: the journal's process is gone. */
	touch(file);
	id = ident_line(1, file);
	rest = xasprintf("{\"op\":\"add\",\"id\":1,\"kind\":\"file\","
			 "\"name\":\"%s\"}\n%s",
	    file, id);
	free(id);
	jp = fake_journal(ppid, statej_proc_start(ppid) + 1, rest);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert_not(exists(file));
	cr_assert_not(exists(jp));
	free(out);
	free(jp);

	/* With the right start time, the same pid is the live owner. */
	touch(file);
	jp = fake_journal(ppid, statej_proc_start(ppid), rest);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert(exists(file));
	cr_assert(exists(jp));
	free(out);
	unlink(jp);
	free(jp);
	free(rest);
	free(file);
}

Test(statej, cleanup_reads_a_journal_without_its_first_line)
{
	char *file = tpath("nofirst.img"), *jp, *text, *out, *id;
	pid_t pid = dead_pid();

	touch(file);
	mkdir(state_dir, 0700);
	jp = journal_of(pid);
	id = ident_line(1, file);
	text = xasprintf("{\"op\":\"add\",\"id\":1,\"kind\":\"file\","
			 "\"name\":\"%s\"}\n%s",
	    file, id);
	free(id);
	write_file(jp, text);
	chmod(jp, 0600);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert_not(exists(file));
	cr_assert_not(exists(jp));
	free(out);
	free(text);
	free(jp);
	free(file);
}

Test(statej, failed_undo_keeps_what_was_created)
{
	char *jp, *out;

	/* 1: created, its undo fails; 2: never marked created, fails too;
	   3: a directory that is not empty. */
	jp = fake_journal(dead_pid(), 1,
	    "{\"op\":\"add\",\"id\":1,\"kind\":\"cmds\",\"name\":\"md x\","
	    "\"undo\":[[\"false\"],[\"true\"]]}\n"
	    "{\"op\":\"created\",\"id\":1}\n"
	    "{\"op\":\"add\",\"id\":2,\"kind\":\"cmds\",\"name\":\"mount y\","
	    "\"undo\":[[\"sh\",\"-c\",\"echo not mounted; exit 32\"]]}\n");
	cr_assert_eq(cleanup(false, &out), -EIO, "%s", out);
	cr_assert_str_eq(out,
	    "mount y: sh -c 'echo not mounted; exit 32': exit status 32: "
	    "not mounted (it may never have been created)\n"
	    "md x: false: exit status 1\n"
	    "md x: true: ok\n");
	cr_assert(exists(jp));
	free(out);
	/* Only the created one is tried again. */
	cr_assert_eq(cleanup(false, &out), -EIO);
	cr_assert_str_eq(out, "md x: false: exit status 1\nmd x: true: ok\n");
	cr_assert(exists(jp));
	free(out);
	free(jp);
}

Test(statej, a_directory_that_is_not_empty_stays)
{
	char *dir = tpath("full"), *inner = tpath("full/x"), *rest, *jp, *out;
	char *id;

	mkdir(dir, 0755);
	touch(inner);
	id = ident_line(1, dir);
	rest = xasprintf("{\"op\":\"add\",\"id\":1,\"kind\":\"dir\","
			 "\"name\":\"%s\"}\n%s",
	    dir, id);
	free(id);
	jp = fake_journal(dead_pid(), 1, rest);
	cr_assert_eq(cleanup(false, &out), -EIO);
	cr_assert_not_null(strstr(out, "could not remove directory"), "%s",
	    out);
	cr_assert(exists(inner));
	cr_assert(exists(jp));
	free(out);
	unlink(inner);
	cr_assert_eq(cleanup(false, &out), 0);
	cr_assert_not(exists(dir));
	cr_assert_not(exists(jp));
	free(out);
	free(rest);
	free(jp);
	free(inner);
	free(dir);
}

/* A run that made a file (and a directory) under names of its own, with
   their identity, then died. */
static void
leave_identified(void *arg)
{
	char *const *paths = arg;
	struct statej *j;
	int id, fd;

	check(statej_open(&j, NULL) == 0);
	check(statej_add(j, STATEJ_FILE, paths[0], NULL, &id, NULL) == 0);
	fd = open(paths[0], O_WRONLY | O_CREAT | O_EXCL, 0600);
	check(fd >= 0 && statej_identify(j, id, fd, NULL) == 0);
	close(fd);
	check(statej_add(j, STATEJ_DIR, paths[1], NULL, &id, NULL) == 0);
	check(mkdir(paths[1], 0700) == 0 && identify(j, id, paths[1]));
}

Test(statej, cleanup_leaves_alone_a_file_put_in_place_of_its_own)
{
	char *paths[2] = { tpath("raidlab-e-1-0.img"), tpath("mnt") };
	char *out, *text, *want;

	in_dead_child(leave_identified, paths);
	/* What the user did after the kill: their own file and directory
	   under the same names (the freed inode number may come back). */
	cr_assert_eq(unlink(paths[0]), 0);
	write_file(paths[0], "my own data");
	cr_assert_eq(rmdir(paths[1]), 0);
	cr_assert_eq(mkdir(paths[1], 0755), 0);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	text = output_of((const char *const[]){ "cat", paths[0], NULL });
	cr_assert_str_eq(text, "my own data", "the user's file was touched");
	cr_assert(exists(paths[1]), "the user's directory was removed");
	want = xasprintf("left %s alone: it is not the ", paths[0]);
	cr_expect_not_null(strstr(out, want), "%s", out);
	free(want);
	want = xasprintf("left %s alone: it is not the ", paths[1]);
	cr_expect_not_null(strstr(out, want), "%s", out);
	cr_expect_null(strstr(out, "removed"), "%s", out);
	free(want);
	free(text);
	free(out);
	/* Settled: nothing left to do. */
	cr_assert_eq(cleanup(false, &out), 0);
	cr_assert_str_eq(out, "");
	free(out);
	free(paths[0]);
	free(paths[1]);
}

/* A file journaled but never identified: an older raidlab, or a run
   killed between creating the file and recording what it is. */
static void
leave_unidentified_file(void *arg)
{
	struct statej *j;
	int id;

	check(statej_open(&j, NULL) == 0);
	check(statej_add(j, STATEJ_FILE, arg, NULL, &id, NULL) == 0);
	touch(arg);
}

Test(statej, cleanup_leaves_alone_a_file_it_cannot_identify)
{
	char *file = tpath("old.img"), *out, *want;

	in_dead_child(leave_unidentified_file, file);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert(exists(file), "a file with no identity was removed");
	want = xasprintf("left %s alone: raidlab recorded no identity", file);
	cr_expect_not_null(strstr(out, want), "%s", out);
	free(want);
	free(out);
	free(file);
}

/* ------------------------------------------------ loop devices (root) */

/* A sparse file attached to a free loop device; returns the device. */
static char *
attach_new(const char *file)
{
	const char *const argv[] = { "losetup", "-f", "--show", file, NULL };
	struct exec_result r;
	char *dev;
	int fd = open(file, O_WRONLY | O_CREAT, 0600);

	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, 16 << 20), 0);
	close(fd);
	cr_assert_eq(exec_run(argv, NULL, &r), 0, "%s", r.output);
	dev = xstrndup(r.output, strcspn(r.output, "\n"));
	exec_result_done(&r);
	return dev;
}

static void
detach_quietly(const char *dev)
{
	const char *const argv[] = { "losetup", "-d", dev, NULL };
	struct exec_result r;

	exec_run(argv, NULL, &r);
	exec_result_done(&r);
}

struct loop_leftover {
	char *file;
	const char *journal_name; /* what the journal says it backs */
	const char *device; /* named device, or NULL */
};

static void
leave_loop(void *arg)
{
	const struct loop_leftover *l = arg;
	const char *const argv[] = { "losetup", "-f", "--show", l->file, NULL };
	struct exec_result r;
	struct statej *j;
	int id;

	check(statej_open(&j, NULL) == 0);
	check(statej_add(j, STATEJ_FILE, l->file, NULL, &id, NULL) == 0);
	check(truncate(l->file, 16 << 20) == 0 || errno == ENOENT);
	if (access(l->file, F_OK) == 0)
		check(identify(j, id, l->file));
	if (l->device != NULL) { /* lie about an existing attachment */
		check(statej_add(j, STATEJ_LOOP, l->journal_name, NULL, &id,
			  NULL) == 0);
		check(statej_named(j, id, l->device, NULL) == 0);
		return;
	}
	check(statej_add(j, STATEJ_LOOP, l->file, NULL, &id, NULL) == 0);
	check(exec_run(argv, NULL, &r) == 0);
	r.output[strcspn(r.output, "\n")] = '\0';
	check(statej_named(j, id, r.output, NULL) == 0);
	exec_result_done(&r);
}

Test(statej, cleanup_detaches_a_dead_process_loop)
{
	struct loop_leftover l = { tpath("loop.img"), NULL, NULL };
	char *out, *lj, *want;
	int fd;

	need_loops();
	fd = open(l.file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	in_dead_child(leave_loop, &l);
	lj = losetup_j(l.file);
	cr_assert_neq(*lj, '\0', "the child attached nothing");
	free(lj);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	want = xasprintf("(%s): ok\nremoved %s\n", l.file, l.file);
	cr_assert(strncmp(out, "detached /dev/loop", 18) == 0 &&
		strstr(out, want) != NULL,
	    "%s", out);
	lj = losetup_j(l.file);
	cr_assert_str_eq(lj, "", "still attached: %s", lj);
	cr_assert_not(exists(l.file));
	free(lj);
	free(want);
	free(out);
	free(l.file);
}

Test(statej, cleanup_never_detaches_a_loop_over_another_file)
{
	char mine[PATH_MAX], journaled[PATH_MAX], *dev, *out;
	char backing[PATH_MAX];
	struct loop_leftover l = { journaled, NULL, NULL };

	snprintf(mine, sizeof mine, "%s/other.img", test_dir);
	snprintf(journaled, sizeof journaled, "%s/journaled.img", test_dir);

	need_loops();
	/* A loop device somebody else uses, journaled (wrongly) as ours. */
	dev = attach_new(mine);
	l.journal_name = l.file;
	l.device = dev;
	in_dead_child(leave_loop, &l);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert_null(strstr(out, "detached"), "%s", out);
	cr_assert_eq(loopdev_backing(dev, backing, sizeof backing), 0,
	    "%s was detached", dev);
	cr_assert_str_eq(backing, mine);
	free(out);

	/* The same path, but another file now: the inode tells. */
	cr_assert_eq(unlink(mine), 0);
	touch(mine);
	l.file = mine;
	l.journal_name = mine;
	in_dead_child(leave_loop, &l);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert_null(strstr(out, "detached"), "%s", out);
	cr_assert_eq(loopdev_backing(dev, backing, sizeof backing), 0,
	    "%s was detached", dev);
	free(out);
	detach_quietly(dev);
	free(dev);
}

Test(statej, forget_of_a_device_already_forgotten_is_moot)
{
	const char *forget[] = { "btrfs", "device", "scan", "--forget",
		"/dev/md127", NULL };
	const char *wipe[] = { "wipefs", "--all", "/dev/md127", NULL };
	const char *enoent = "ERROR: cannot unregister device '/dev/md127': "
			     "No such file or directory\n";

	cr_expect_not_null(statej_undo_moot(forget, 1, enoent));
	cr_expect_null(statej_undo_moot(forget, 1, "ERROR: device busy\n"));
	cr_expect_null(statej_undo_moot(forget, 2, enoent));
	cr_expect_null(statej_undo_moot(wipe, 1, enoent));
}

/* A queue write whose device is gone (the loop device was detached) is
   moot: nothing said, released; one whose name is another device now is
   left alone and said so, and forgotten: no later cleanup could prove
   it either. Neither keeps the journal. */
Test(statej, a_queue_write_goes_only_to_the_device_it_was_found_on)
{
	const char *rest =
	    "{\"op\":\"add\",\"id\":1,\"kind\":\"sysfs\","
	    "\"name\":\"/dev/raidlab-test-gone\",\"restore\":[[\"scheduler\","
	    "\"none\"]],\"pre\":{\"kind\":\"block\",\"rdev\":1793}}\n"
	    "{\"op\":\"created\",\"id\":1}\n"
	    "{\"op\":\"add\",\"id\":2,\"kind\":\"sysfs\","
	    "\"name\":\"/dev/null\",\"restore\":[[\"nr_requests\",\"64\"]],"
	    "\"pre\":{\"kind\":\"block\",\"rdev\":1793}}\n"
	    "{\"op\":\"created\",\"id\":2}\n";
	char *jp = fake_journal(dead_pid(), 1, rest), *out;

	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_expect(strncmp(out,
		      "left /dev/null alone: /dev/null is no longer a block "
		      "device\n",
		      60) == 0,
	    "%s", out);
	cr_expect_null(strstr(out, "raidlab-test-gone"), "%s", out);
	cr_expect_null(strstr(out, "put back"), "%s", out);
	cr_assert_not(exists(jp), "the journal stayed");
	free(out);
	free(jp);
}

/* btrfs-progs 6.2 on a mount whose scrub has ended. */
Test(statej, cancel_of_a_scrub_that_ended_is_moot)
{
	const char *cancel[] = { "btrfs", "scrub", "cancel", "/run/rl/mnt/1-a",
		NULL };
	const char *ended = "ERROR: scrub cancel failed on /run/rl/mnt/1-a: "
			    "not running\n";

	cr_expect_not_null(statej_undo_moot(cancel, 2, ended));
	cr_expect_null(statej_undo_moot(cancel, 1,
	    "ERROR: not a btrfs filesystem: /run/rl/mnt/1-a\n"));
	cr_expect_null(statej_undo_moot(cancel, 1, ended));
}

/* btrfs-progs 6.2 on a mount whose replace has ended. */
Test(statej, cancel_of_a_replace_that_ended_is_moot)
{
	const char *cancel[] = { "btrfs", "replace", "cancel",
		"/run/rl/mnt/1-a", NULL };
	const char *ended =
	    "INFO: ioctl(DEV_REPLACE_CANCEL)\"/run/rl/mnt/1-a\": not started\n";

	cr_expect_not_null(statej_undo_moot(cancel, 2, ended));
	cr_expect_null(statej_undo_moot(cancel, 1, ended));
	cr_expect_null(statej_undo_moot(cancel, 2, "ERROR: busy\n"));
}
