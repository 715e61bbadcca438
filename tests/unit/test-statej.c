/*
 * The state journal, writing side (statej): a normal run leaves no
 * journal; a kept journal is adopted and grows; a relative state
 * directory is refused; objects are recorded as JSON lines; opening
 * twice shares one journal; bad objects are refused. The helpers and
 * suites of the test-statej program (unit-statej.h) live here; the
 * cleanup, the state directory's trust and the scratch disks are in
 * test-statej-clean.c, test-statej-dir.c and test-scratch.c. Each test
 * runs in its own process with its own RAIDLAB_STATE_DIR.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "build/statej-int.h"
#include "build/statej.h"
#include "unit-statej.h"

char test_dir[64];
char state_dir[128];

static void
setup(void)
{
	snprintf(test_dir, sizeof test_dir, "/tmp/raidlab-statej.XXXXXX");
	cr_assert_not_null(mkdtemp(test_dir));
	snprintf(state_dir, sizeof state_dir, "%s/state", test_dir);
	setenv("RAIDLAB_STATE_DIR", state_dir, 1);
}

static void
teardown(void)
{
	const char *argv[] = { "rm", "-rf", test_dir, NULL };
	struct exec_result r;

	exec_run(argv, NULL, &r);
	exec_result_done(&r);
}

TestSuite(statej, .init = setup, .fini = teardown);
TestSuite(scratch, .init = setup, .fini = teardown);

char *
tpath(const char *name)
{
	return xasprintf("%s/%s", test_dir, name);
}

char *
journal_of(pid_t pid)
{
	return xasprintf("%s/%d.journal", state_dir, (int)pid);
}

bool
exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

void
touch(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT, 0644);

	cr_assert_geq(fd, 0, "%s: %s", p, strerror(errno));
	close(fd);
}

void
write_file(const char *p, const char *text)
{
	FILE *fp = fopen(p, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* The journal line statej_identify() writes for path as object id
   (caller frees). */
char *
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
int
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
char *
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
pid_t
dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* A journal written by hand: an open line for pid/start, then text. */
char *
fake_journal(pid_t pid, unsigned long long start, const char *rest)
{
	char *jp = journal_of(pid), *text;

	mkdir(state_dir, 0700);
	text = xasprintf("{\"op\":\"open\",\"pid\":%d,\"start\":%llu,"
			 "\"exe\":\"/usr/bin/raidlab\",\"version\":1}\n%s",
	    (int)pid, start, rest);
	write_file(jp, text);
	chmod(jp, 0600);
	free(text);
	return jp;
}

void
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

/* `losetup -j FILE`: the loop devices over file ("" for none). */
char *
losetup_j(const char *file)
{
	return output_of((const char *const[]){ "losetup", "-j", file, NULL });
}

Test(statej, normal_run_leaves_no_journal)
{
	const char *const umount[] = { "umount", "/nonexistent", NULL };
	const char *const *undo[] = { umount, NULL };
	struct statej *j;
	struct stat st;
	char *jp = journal_of(getpid());
	int a, b;

	cr_assert_not(exists(state_dir));
	cr_assert_eq(statej_open(&j, NULL), 0);
	cr_assert_eq(stat(state_dir, &st), 0);
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
