/*
 * The state journal and scratch disks: a normal run leaves no journal;
 * what a dead process left is undone (files, directories, commands, loop
 * devices), newest first; a running process's objects are left alone
 * unless forced; pid reuse and torn lines do not fool the cleanup; a loop
 * device backed by another file is never detached; a file or directory
 * that is not the one the run created (another, or none recorded) is left
 * alone; a state directory or journal another user could have written is
 * refused. Scratch disks (root):
 * sparse files of the right size on loop devices, undone completely,
 * under names nobody can take in advance.
 * Each test runs in its own process with its own RAIDLAB_STATE_DIR.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "exec.h"
#include "ident.h"
#include "loopdev.h"
#include "scratch.h"
#include "statej-int.h"
#include "statej.h"
#include "strbuf.h"
#include "unit.h"
#include "xalloc.h"

static char tmp[64];
static char state[128];

static void
setup(void)
{
	snprintf(tmp, sizeof tmp, "/tmp/raidlab-statej.XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
	snprintf(state, sizeof state, "%s/state", tmp);
	setenv("RAIDLAB_STATE_DIR", state, 1);
}

static void
teardown(void)
{
	const char *argv[] = { "rm", "-rf", tmp, NULL };
	struct exec_result r;

	exec_run(argv, NULL, &r);
	exec_result_done(&r);
}

TestSuite(statej, .init = setup, .fini = teardown);
TestSuite(scratch, .init = setup, .fini = teardown);

static char *
tpath(const char *name)
{
	return xasprintf("%s/%s", tmp, name);
}

static char *
journal_of(pid_t pid)
{
	return xasprintf("%s/%d.journal", state, (int)pid);
}

static bool
exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

static void
touch(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT, 0644);

	cr_assert_geq(fd, 0, "%s: %s", p, strerror(errno));
	close(fd);
}

static void
write_file(const char *p, const char *text)
{
	FILE *fp = fopen(p, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

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

/* The journal line statej_identify() writes for path as object id
   (caller frees). */
static char *
ident_line(int id, const char *path)
{
	struct stat st;
	long long bt;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	cr_assert_geq(fd, 0, "%s", path);
	cr_assert_eq(fstat(fd, &st), 0);
	bt = (long long)statej_btime(fd, "", AT_EMPTY_PATH);
	close(fd);
	return xasprintf("{\"op\":\"created\",\"id\":%d,\"fdev\":%llu,"
			 "\"ino\":%llu,\"btime\":%lld}\n",
	    id, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
	    bt);
}

/* Report lines, one per line. */
static void
collect(void *arg, const char *line)
{
	strbuf_printf(arg, "%s\n", line);
}

/* Run statej_cleanup, the report into *out (caller frees). */
static int
cleanup(bool force, char **out)
{
	struct strbuf b;
	struct err e;
	int rc;

	strbuf_init(&b);
	err_clear(&e);
	rc = statej_cleanup(force, collect, &b, &e);
	*out = strbuf_take(&b);
	return rc;
}

/* Output of a command (caller frees). */
static char *
output_of(const char *const *argv)
{
	struct exec_result r;
	char *s;

	exec_run(argv, NULL, &r);
	s = xstrdup(r.output);
	exec_result_done(&r);
	return s;
}

/* A pid that surely belongs to nobody now: a child that exited. */
static pid_t
dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
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

Test(statej, normal_run_leaves_no_journal)
{
	const char *const umount[] = { "umount", "/nonexistent", NULL };
	const char *const *undo[] = { umount, NULL };
	struct statej *j;
	struct stat st;
	char *jp = journal_of(getpid());
	int a, b;

	cr_assert_not(exists(state));
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(stat(state, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700);
	cr_assert_str_eq(statej_path(j), jp);
	cr_assert(exists(jp));
	cr_assert_eq(statej_add(j, STATEJ_FILE, "/nonexistent/x.img", NULL, &a,
			 NULL),
	    0);
	cr_assert_eq(statej_add(j, STATEJ_CMDS, "mount /nonexistent", undo, &b,
			 NULL),
	    0);
	cr_assert_neq(a, b);
	cr_assert_eq(statej_live(j), 2);
	cr_assert_eq(statej_created(j, b, NULL, NULL), 0);
	cr_assert_eq(statej_release(j, b, NULL), 0);
	cr_assert_eq(statej_release(j, a, NULL), 0);
	cr_assert_eq(statej_live(j), 0);
	statej_close(j);
	cr_assert_not(exists(jp), "a normal run left %s", jp);
	free(jp);
}

/* A TUI that runs a second lab after a teardown that left objects: the
   journal is adopted, and recording goes on past what it held. */
Test(statej, a_kept_journal_is_adopted_and_grows)
{
	struct statej *j;
	int kept[2], id[40];

	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(statej_add(j, STATEJ_FILE, "/nonexistent/a", NULL,
			 &kept[0], NULL),
	    0);
	cr_assert_eq(statej_add(j, STATEJ_FILE, "/nonexistent/b", NULL,
			 &kept[1], NULL),
	    0);
	statej_close(j); /* kept: two objects live */
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(statej_live(j), 2);
	for (int i = 0; i < 40; i++) {
		cr_assert_eq(statej_add(j, STATEJ_DIR, "/nonexistent/d", NULL,
				 &id[i], NULL),
		    0);
		cr_assert_gt(id[i], kept[1]);
	}
	cr_assert_eq(statej_live(j), 42);
	for (int i = 0; i < 40; i++)
		cr_assert_eq(statej_release(j, id[i], NULL), 0);
	cr_assert_eq(statej_release(j, kept[0], NULL), 0);
	cr_assert_eq(statej_release(j, kept[1], NULL), 0);
	cr_assert_eq(statej_live(j), 0);
	statej_close(j);
}

Test(statej, a_relative_state_directory_is_refused)
{
	struct statej *j = NULL;
	struct err e;

	err_clear(&e);
	setenv("RAIDLAB_STATE_DIR", "state", 1);
	cr_assert_eq(statej_open(&j, &e), -EINVAL);
	cr_assert_null(j);
	cr_expect(strstr(e.msg, "not an absolute path") != NULL, "%s", e.msg);
	cr_assert_eq(statej_cleanup(false, NULL, NULL, &e), -EINVAL);
}

Test(statej, records_objects_as_json_lines)
{
	const char *const a1[] = { "umount", "/mnt/a b", NULL };
	const char *const a2[] = { "rmdir", "/mnt/a b", NULL };
	const char *const *undo[] = { a1, a2, NULL };
	char *img = tpath("x.img"), *text, *line, *save = NULL;
	struct statej *j;
	json_t *v[8], *u;
	struct stat st;
	int id[3], n = 0;

	touch(img);
	stat(img, &st);
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(statej_add(j, STATEJ_FILE, img, NULL, &id[0], NULL), 0);
	cr_assert_eq(statej_add(j, STATEJ_LOOP, img, NULL, &id[1], NULL), 0);
	cr_assert_eq(statej_named(j, id[1], "/dev/loop99", NULL), 0);
	cr_assert_eq(statej_add(j, STATEJ_CMDS, "mount /mnt/a b", undo, &id[2],
			 NULL),
	    0);
	cr_assert_eq(id[0], 1);
	text = output_of((const char *const[]){ "cat", statej_path(j), NULL });
	for (line = strtok_r(text, "\n", &save); line != NULL && n < 8;
	     line = strtok_r(NULL, "\n", &save)) {
		v[n] = json_loads(line, 0, NULL);
		cr_assert_not_null(v[n], "not JSON: %s", line);
		cr_assert(json_is_number(json_object_get(v[n], "time")));
		n++;
	}
	cr_assert_eq(n, 5);
	cr_assert_str_eq(json_string_value(json_object_get(v[0], "op")),
	    "open");
	cr_assert_eq(json_integer_value(json_object_get(v[0], "pid")),
	    getpid());
	cr_assert_eq(json_integer_value(json_object_get(v[0], "start")),
	    (json_int_t)statej_proc_start(getpid()));
	cr_assert_str_eq(json_string_value(json_object_get(v[1], "op")), "add");
	cr_assert_str_eq(json_string_value(json_object_get(v[1], "kind")),
	    "file");
	cr_assert_str_eq(json_string_value(json_object_get(v[1], "name")), img);
	cr_assert_eq(json_integer_value(json_object_get(v[1], "id")), 1);
	cr_assert_str_eq(json_string_value(json_object_get(v[2], "kind")),
	    "loop");
	cr_assert_eq(json_integer_value(json_object_get(v[2], "ino")),
	    (json_int_t)st.st_ino);
	cr_assert_str_eq(json_string_value(json_object_get(v[3], "op")),
	    "named");
	cr_assert_str_eq(json_string_value(json_object_get(v[3], "device")),
	    "/dev/loop99");
	cr_assert_str_eq(json_string_value(json_object_get(v[4], "kind")),
	    "cmds");
	u = json_pack("[[s,s],[s,s]]", "umount", "/mnt/a b", "rmdir",
	    "/mnt/a b");
	cr_assert(json_equal(json_object_get(v[4], "undo"), u));
	json_decref(u);
	while (n > 0)
		json_decref(v[--n]);
	free(text);
	/* Live objects: the journal stays for a cleanup. */
	statej_close(j);
	cr_assert(exists(img));
	text = journal_of(getpid());
	cr_assert(exists(text));
	free(text);
	free(img);
}

Test(statej, opening_twice_shares_one_journal)
{
	struct statej *a, *b;
	char *jp;
	int x, y;

	cr_assert_eq(statej_open(&a, NULL), 0);
	cr_assert_eq(statej_open(&b, NULL), 0);
	cr_assert_eq(a, b);
	cr_assert_eq(statej_add(a, STATEJ_DIR, "/nonexistent/d", NULL, &x,
			 NULL),
	    0);
	cr_assert_eq(statej_add(b, STATEJ_DIR, "/nonexistent/e", NULL, &y,
			 NULL),
	    0);
	cr_assert_neq(x, y);
	statej_close(a);
	cr_assert(exists(statej_path(b)));
	cr_assert_eq(statej_release(b, x, NULL), 0);
	cr_assert_eq(statej_release(b, y, NULL), 0);
	statej_close(b);
	jp = journal_of(getpid());
	cr_assert_not(exists(jp));
	free(jp);
}

Test(statej, refuses_bad_objects)
{
	const char *const empty[] = { NULL };
	const char *const ok[] = { "true", NULL };
	const char *const *none[] = { NULL };
	const char *const *bad[] = { empty, NULL };
	const char *const *good[] = { ok, NULL };
	struct statej *j;
	struct err e;
	char *jp;
	int id;

	cr_assert_eq(statej_open(&j, NULL), 0);
	err_clear(&e);
	cr_assert_eq(statej_add(j, STATEJ_CMDS, "x", NULL, &id, &e), -EINVAL);
	cr_assert(err_isset(&e));
	cr_assert_eq(id, -1);
	cr_assert_eq(statej_add(j, STATEJ_CMDS, "x", none, &id, NULL), -EINVAL);
	cr_assert_eq(statej_add(j, STATEJ_CMDS, "x", bad, &id, NULL), -EINVAL);
	cr_assert_eq(statej_add(j, STATEJ_FILE, "x", good, &id, NULL), -EINVAL);
	cr_assert_eq(statej_add(j, STATEJ_FILE, "", NULL, &id, NULL), -EINVAL);
	cr_assert_eq(statej_release(j, 42, NULL), -ENOENT);
	cr_assert_eq(statej_named(j, 42, "/dev/loop1", NULL), -ENOENT);
	cr_assert_eq(statej_created(j, 42, NULL, NULL), -ENOENT);
	cr_assert_eq(statej_live(j), 0);
	statej_close(j);
	jp = journal_of(getpid());
	cr_assert_not(exists(jp));
	free(jp);
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

/* A journal written by hand: an open line for pid/start, then text. */
static char *
fake_journal(pid_t pid, unsigned long long start, const char *rest)
{
	char *jp = journal_of(pid), *text;

	mkdir(state, 0700);
	text = xasprintf("{\"op\":\"open\",\"pid\":%d,\"start\":%llu,"
			 "\"exe\":\"/usr/bin/raidlab\",\"version\":1}\n%s",
	    (int)pid, start, rest);
	write_file(jp, text);
	chmod(jp, 0600);
	free(text);
	return jp;
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
	mkdir(state, 0700);
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

/* A journal of a dead raidlab naming file with its true identity. */
static char *
forged_journal(const char *file)
{
	char *id = ident_line(1, file), *rest, *jp;

	rest = xasprintf("{\"op\":\"add\",\"id\":1,\"kind\":\"file\","
			 "\"name\":\"%s\"}\n%s",
	    file, id);
	jp = fake_journal(dead_pid(), 1, rest);
	free(rest);
	free(id);
	return jp;
}

Test(statej, a_state_directory_open_to_others_is_refused)
{
	char *file = tpath("precious"), *jp, *out;
	struct statej *j = NULL;
	struct err e;

	write_file(file, "precious");
	jp = forged_journal(file);
	cr_assert_eq(chmod(state, 0755), 0);
	err_clear(&e);
	cr_assert_eq(statej_open(&j, &e), -EPERM);
	cr_assert_null(j);
	cr_expect_not_null(strstr(e.msg, "with mode 0755: refused"), "%s",
	    e.msg);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted a directory open to others");
	free(out);
	/* Its own again: the journal is believed. */
	cr_assert_eq(chmod(state, 0700), 0);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert_not(exists(file));
	free(out);
	free(jp);
	free(file);
}

Test(statej, a_journal_open_to_others_is_refused)
{
	char *file = tpath("precious"), *jp, *out;

	write_file(file, "precious");
	jp = forged_journal(file);
	cr_assert_eq(chmod(jp, 0644), 0);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted a journal open to others");
	cr_expect_not_null(strstr(out, "with mode 0644: refused"), "%s", out);
	cr_assert(exists(jp));
	free(out);
	free(jp);
	free(file);
}

Test(statej, a_state_directory_of_another_user_is_refused)
{
	char *file = tpath("precious"), *jp, *out;
	struct statej *j = NULL;
	struct err e;

	if (geteuid() != 0)
		cr_skip_test("needs root (chown)");
	write_file(file, "precious");
	jp = forged_journal(file);
	cr_assert_eq(chown(state, 65534, 65534), 0);
	cr_assert_eq(chown(jp, 65534, 65534), 0);
	err_clear(&e);
	/* Made first by somebody else: not taken for the journal. */
	cr_assert_eq(statej_open(&j, &e), -EPERM);
	cr_expect_not_null(strstr(e.msg, "(uid 65534) with mode 0700"), "%s",
	    e.msg);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted another user's journal");
	free(out);
	/* Root's directory, the other user's journal in it. */
	cr_assert_eq(chown(state, 0, 0), 0);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted another user's journal");
	cr_expect_not_null(strstr(out, "state journal"), "%s", out);
	free(out);
	free(jp);
	free(file);
}

/* ------------------------------------------------ loop devices (root) */

static void
need_loops(void)
{
	struct exec_result r;
	int rc;

	if (geteuid() != 0)
		cr_skip_test("needs root (loop devices)");
	rc = exec_run((const char *const[]){ "losetup", "--version", NULL },
	    NULL, &r);
	exec_result_done(&r);
	if (rc < 0 || access("/dev/loop-control", F_OK) < 0)
		cr_skip_test("needs losetup and /dev/loop-control");
}

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

/* `losetup -j FILE`: the loop devices over file ("" for none). */
static char *
losetup_j(const char *file)
{
	return output_of((const char *const[]){ "losetup", "-j", file, NULL });
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

	snprintf(mine, sizeof mine, "%s/other.img", tmp);
	snprintf(journaled, sizeof journaled, "%s/journaled.img", tmp);

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
	cr_assert_eq(scratch_create(&s, tmp, "mirror", 3, 64 << 20, j, &e), 0,
	    "%s", e.msg);
	cr_assert_eq(s.n, 3);
	cr_assert_eq(statej_live(j), 6);
	for (i = 0; i < 3; i++) {
		/* DIR/raidlab-mirror-PID.RANDOM-N.img */
		want = xasprintf("%s/raidlab-mirror-%d.", tmp, (int)getpid());
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
		taken[i] =
		    xasprintf("%s/raidlab-v-%d-%zu.img", tmp, (int)getpid(), i);
		write_file(taken[i], "somebody's data");
	}
	err_clear(&e);
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(scratch_create(&s, tmp, "v", 2, 1 << 20, j, &e), 0, "%s",
	    e.msg);
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
	cr_assert_lt(scratch_create(&s, tmp, "v", 2, 1 << 20, j, &e), 0);
	cr_assert_not_null(strstr(e.msg, "no free device"), "%s", e.msg);
	setenv("PATH", old, 1);
	cr_assert_eq(s.n, 0);
	cr_assert_null(s.files);
	/* Nothing left: no file, no loop device, no live object. */
	lj = output_of((const char *const[]){ "sh", "-c",
	    "ls \"$0\" | grep raidlab-v- || true", tmp, NULL });
	cr_assert_str_eq(lj, "");
	free(lj);
	lj = output_of((const char *const[]){ "sh", "-c",
	    "losetup -n -O BACK-FILE | grep -F \"$0/raidlab-v-\" || true", tmp,
	    NULL });
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
	cr_assert_eq(scratch_create(&s, tmp, "v", 1, 1000, NULL, NULL),
	    -EINVAL);
	cr_assert_eq(scratch_create(&s, tmp, "a/b", 1, 1 << 20, NULL, NULL),
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
	cr_assert_eq(scratch_create(&s, tmp, "busy", 1, 1 << 20, j, &e), 0,
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
