/*
 * Running external commands: exit status, signals, commands that are not
 * installed, timeouts that take the whole process group down, output in
 * arrival order and capped, argv quoting for display, and what the child
 * inherits (fds, environment, signal mask).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "unit.h"

/* Run argv with a timeout (0: none); the result is the caller's. */
static int
run(struct exec_result *r, double timeout, const char *a0, ...)
{
	const char *argv[16];
	struct exec_opts o = { .timeout = timeout };
	va_list ap;
	size_t n = 0;

	argv[n++] = a0;
	va_start(ap, a0);
	while ((argv[n] = va_arg(ap, const char *)) != NULL && n < 15)
		n++;
	va_end(ap);
	argv[n] = NULL;
	return exec_run(argv, &o, r);
}

/* No child of ours is left, not even a zombie. */
static void
assert_no_children(void)
{
	cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "a child is left");
	cr_assert_eq(errno, ECHILD);
}

/* pid is gone (or a zombie waiting for init), within 3 s. */
static bool
dead(pid_t pid)
{
	char path[64], buf[512], *p;
	int i, fd;
	ssize_t n;

	for (i = 0; i < 300; i++) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
		if ((fd = open(path, O_RDONLY)) >= 0) {
			n = read(fd, buf, sizeof buf - 1);
			close(fd);
			buf[n > 0 ? n : 0] = '\0';
			if ((p = strrchr(buf, ')')) != NULL &&
			    (p[2] == 'Z' || p[2] == 'X'))
				return true;
		}
		usleep(10000);
	}
	return false;
}

Test(exec, exits_with_its_status)
{
	struct exec_result r;
	char b[128];

	cr_assert_eq(run(&r, 0, "sh", "-c", "exit 3", NULL), -EPROTO);
	cr_assert_eq(r.status, 3);
	cr_assert_eq(r.signal, 0);
	cr_assert_eq(r.err, 0);
	cr_assert_not(r.timed_out);
	cr_assert_str_eq(exec_result_describe(&r, b, sizeof b),
	    "exit status 3");
	exec_result_done(&r);

	cr_assert_eq(run(&r, 0, "true", NULL), 0);
	cr_assert_eq(r.status, 0);
	cr_assert_str_eq(r.output, "");
	cr_assert_gt(r.duration, 0, "the run was timed");
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, reports_the_signal_that_killed_it)
{
	struct exec_result r;
	char b[128];

	cr_assert_eq(run(&r, 0, "sh", "-c", "kill -9 $$", NULL), -EINTR);
	cr_assert_eq(r.status, -1);
	cr_assert_eq(r.signal, SIGKILL);
	cr_assert_not(r.timed_out);
	cr_assert_str_eq(exec_result_describe(&r, b, sizeof b),
	    "killed by signal 9");
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, says_when_a_tool_is_not_installed)
{
	struct exec_result r;
	char b[128];

	cr_assert_eq(run(&r, 0, "raidlab-no-such-tool", "-x", NULL), -ENOENT);
	cr_assert_eq(r.err, ENOENT);
	cr_assert_eq(r.status, -1);
	cr_assert_not_null(r.output);
	cr_assert_str_eq(exec_result_describe(&r, b, sizeof b),
	    "not installed (raidlab-no-such-tool)");
	exec_result_done(&r);

	/* A path, found missing by execve in the child. */
	cr_assert_eq(run(&r, 0, "/nonexistent/mkfs.none", NULL), -ENOENT);
	cr_assert_eq(r.err, ENOENT);
	cr_assert_str_eq(r.output, "");
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, says_when_a_file_cannot_be_executed)
{
	char path[] = "/tmp/raidlab-exec-XXXXXX";
	struct exec_result r;
	char b[256];
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	chmod(path, 0644);
	cr_assert_eq(run(&r, 0, path, NULL), -EACCES);
	cr_assert_eq(r.err, EACCES);
	cr_assert(strstr(exec_result_describe(&r, b, sizeof b),
		      "could not start") != NULL,
	    "%s", b);
	exec_result_done(&r);
	unlink(path);
}

Test(exec, finds_sbin_tools_and_sets_the_environment)
{
	struct exec_result r;

	/* A user's PATH without sbin (and here without anything). */
	setenv("PATH", "/nonexistent", 1);
	setenv("LC_ALL", "fr_FR.UTF-8", 1);
	cr_assert_eq(run(&r, 0, "sh", "-c", "echo \"$LC_ALL|$PATH\"", NULL), 0,
	    "%s", r.output);
	cr_assert_str_eq(r.output,
	    "C|/nonexistent:/usr/sbin:/sbin:/usr/bin:/bin\n");
	exec_result_done(&r);

	/* Directories already in PATH are not added twice. */
	setenv("PATH", "/bin:/usr/sbin", 1);
	cr_assert_eq(run(&r, 0, "sh", "-c", "echo $PATH", NULL), 0);
	cr_assert_str_eq(r.output, "/bin:/usr/sbin:/sbin:/usr/bin\n");
	exec_result_done(&r);

	/* stdin is /dev/null: cat ends at once. */
	cr_assert_eq(run(&r, 5, "cat", NULL), 0);
	cr_assert_str_eq(r.output, "");
	exec_result_done(&r);
}

Test(exec, timeout_kills_the_process_group)
{
	struct exec_result r;
	char b[128];
	pid_t bg;

	/* The grandchild (background sleep) is in the same group. */
	cr_assert_eq(run(&r, 0.5, "sh", "-c", "sleep 100 & echo $!; sleep 100",
			 NULL),
	    -ETIMEDOUT);
	cr_assert(r.timed_out);
	/* Killed by the SIGTERM of the timeout, not by the SIGKILL after
	   the grace, nor at the end of its sleep 100; not before its time
	   (one clock: exact but for the rounding of its doubles). */
	cr_assert_eq(r.signal, SIGTERM);
	cr_assert_geq(r.duration, 0.5 - 1e-6, "%g s", r.duration);
	cr_assert_str_eq(exec_result_describe(&r, b, sizeof b),
	    "timed out after 0.5 s");
	bg = (pid_t)atoi(r.output);
	cr_assert_gt(bg, 1, "output: %s", r.output);
	cr_assert(dead(bg), "the background sleep %d survived", (int)bg);
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, a_command_dies_with_a_killed_raidlab)
{
	char *pidfile = xasprintf("/tmp/raidlab-exec-%d.pid", (int)getpid());
	char *script = xasprintf("echo $$ > %s.new && mv %s.new %s && "
				 "exec sleep 100",
	    pidfile, pidfile, pidfile);
	char buf[32] = "";
	pid_t raidlab, cmd;
	int fd, i;

	unlink(pidfile);
	raidlab = fork();
	cr_assert_geq(raidlab, 0);
	if (raidlab == 0) {
		struct exec_result r;

		run(&r, 0, "sh", "-c", script, NULL);
		_exit(0);
	}
	/* Wait (10 s at most) for the command to start, then kill -9 the
	   process that ran it, as a user would kill raidlab. */
	for (i = 0; i < 1000 && (fd = open(pidfile, O_RDONLY)) < 0; i++)
		usleep(10000);
	cr_assert_geq(fd, 0, "the command never started");
	cr_assert_gt(read(fd, buf, sizeof buf - 1), 0);
	close(fd);
	cmd = (pid_t)atoi(buf);
	cr_assert_gt(cmd, 1);
	kill(raidlab, SIGKILL);
	waitpid(raidlab, NULL, 0);
	cr_assert(dead(cmd), "the command %d outlived its raidlab", (int)cmd);
	if (!dead(cmd))
		kill(cmd, SIGKILL);
	unlink(pidfile);
	free(script);
	free(pidfile);
	assert_no_children();
}

/* Long enough for a loaded machine's shell to set its trap first. */
#define TRAP_T 1.0

Test(exec, timeout_ends_with_sigkill)
{
	struct exec_result r;

	/* The shell outlives SIGTERM (its sleep does not) and says so;
	   then it sleeps on until the SIGKILL. */
	cr_assert_eq(run(&r, TRAP_T, "sh", "-c",
			 "trap 'echo got TERM' TERM; sleep 100; sleep 100; :",
			 NULL),
	    -ETIMEDOUT);
	cr_assert(r.timed_out);
	cr_assert_not_null(strstr(r.output, "got TERM"), "SIGTERM first: %s",
	    r.output);
	cr_assert_eq(r.signal, SIGKILL);
	/* The grace was given (one clock: exact but for rounding). */
	cr_assert_geq(r.duration, TRAP_T + EXEC_KILL_GRACE - 1e-6, "%g s",
	    r.duration);
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, timeout_kills_members_that_outlive_the_leader)
{
	struct exec_result r;
	pid_t bg;

	/* The leader dies of SIGTERM; a member that ignores it and holds
	   the output gets SIGKILL after the grace, before it could end its
	   sleep (30 s: a hang catcher, ten times the grace and timeout). */
	cr_assert_eq(run(&r, TRAP_T, "sh", "-c",
			 "(trap '' TERM; sleep 30; echo outlived) & echo $!; "
			 "sleep 100",
			 NULL),
	    -ETIMEDOUT);
	cr_assert_eq(r.signal, SIGTERM);
	bg = (pid_t)atoi(r.output);
	cr_assert_gt(bg, 1, "output: %s", r.output);
	cr_assert(dead(bg), "the member that ignored SIGTERM survived");
	cr_assert_null(strstr(r.output, "outlived"), "no SIGKILL: %s",
	    r.output);
	/* The grace was given (one clock: exact but for rounding). */
	cr_assert_geq(r.duration, TRAP_T + EXEC_KILL_GRACE - 1e-6, "%g s",
	    r.duration);
	exec_result_done(&r);

	/* One that let go of the output is killed at once. */
	cr_assert_eq(run(&r, TRAP_T, "sh", "-c",
			 "(exec >/dev/null 2>&1; trap '' TERM; sleep 100; :) & "
			 "echo $!; sleep 100",
			 NULL),
	    -ETIMEDOUT);
	bg = (pid_t)atoi(r.output);
	cr_assert_gt(bg, 1, "output: %s", r.output);
	cr_assert(dead(bg), "the member that ignored SIGTERM survived");
	/* At once: what it took past the timeout is a few ms, where waiting
	   for the grace takes all of its 2 s. */
	cr_assert_lt(r.duration - TRAP_T, EXEC_KILL_GRACE,
	    "%g s past the timeout", r.duration - TRAP_T);
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, output_keeps_the_order_of_arrival)
{
	struct exec_result r;

	cr_assert_eq(run(&r, 0, "sh", "-c",
			 "echo one; echo two >&2; echo three; echo four >&2; "
			 "printf five",
			 NULL),
	    0);
	cr_assert_str_eq(r.output, "one\ntwo\nthree\nfour\nfive");
	exec_result_done(&r);
}

static void
collect(void *arg, const char *line)
{
	strbuf_printf(arg, "[%s]", line);
}

Test(exec, hands_each_line_to_the_callback)
{
	struct exec_opts o = { .on_line = collect };
	const char *argv[] = { "printf", "a\\nbb\\n\\nc", NULL };
	struct exec_result r;
	struct strbuf b;

	strbuf_init(&b);
	o.arg = &b;
	cr_assert_eq(exec_run(argv, &o, &r), 0);
	cr_assert_str_eq(b.s, "[a][bb][][c]");
	cr_assert_str_eq(r.output, "a\nbb\n\nc");
	exec_result_done(&r);
	strbuf_done(&b);
}

static void
collect_err(void *arg, const char *line)
{
	strbuf_printf(arg, "{%s}", line);
}

Test(exec, splits_stderr_when_asked)
{
	struct exec_opts o = { .on_line = collect,
		.on_err_line = collect_err,
		.split_stderr = true };
	const char *argv[] = { "sh", "-c",
		"echo one; echo two >&2; echo three; printf four >&2", NULL };
	struct exec_result r;
	struct strbuf b;

	strbuf_init(&b);
	o.arg = &b;
	cr_assert_eq(exec_run(argv, &o, &r), 0);
	cr_assert_str_eq(r.output, "one\nthree\n");
	cr_assert_str_eq(r.errput, "two\nfour");
	/* Each stream's lines in order; between them, as they came. */
	cr_assert(strstr(b.s, "[one]") < strstr(b.s, "[three]"), "%s", b.s);
	cr_assert(strstr(b.s, "{two}") < strstr(b.s, "{four}"), "%s", b.s);
	cr_assert_eq(strlen(b.s), strlen("[one][three]{two}{four}"));
	exec_result_done(&r);
	strbuf_done(&b);
}

Test(exec, errput_is_null_unless_split)
{
	struct exec_result r;

	cr_assert_eq(run(&r, 0, "sh", "-c", "echo x >&2", NULL), 0);
	cr_assert_str_eq(r.output, "x\n");
	cr_assert_null(r.errput);
	exec_result_done(&r);
}

Test(exec, reads_stdin_from_the_given_file)
{
	char path[] = "/tmp/raidlab-exec-stdin.XXXXXX";
	struct exec_opts o = { .stdin_path = path };
	const char *argv[] = { "cat", NULL };
	struct exec_result r;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "line 1\nline 2\n", 14), 14);
	close(fd);
	cr_assert_eq(exec_run(argv, &o, &r), 0);
	cr_assert_str_eq(r.output, "line 1\nline 2\n");
	exec_result_done(&r);
	unlink(path);
	o.stdin_path = path; /* gone now: the command cannot start */
	cr_assert_eq(exec_run(argv, &o, &r), -ENOENT);
	cr_assert_eq(r.err, ENOENT);
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, reads_stdin_from_the_given_descriptor)
{
	const char *argv[] = { "sh", "-c", "read a; echo \"got $a\"; cat",
		NULL };
	struct exec_result r;
	struct exec_opts o;
	int p[2];

	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	o = (struct exec_opts){ .stdin_fd = p[0] };
	cr_assert_eq(write(p[1], "go 1\nrest\n", 10), 10);
	close(p[1]); /* end of file: cat ends */
	cr_assert_eq(exec_run(argv, &o, &r), 0);
	cr_assert_str_eq(r.output, "got go 1\nrest\n");
	exec_result_done(&r);
	close(p[0]);
	assert_no_children();
}

Test(exec, keeps_stdout_whole_when_asked)
{
	const char *argv[] = { "sh", "-c", "seq 1 200000; echo e >&2", NULL };
	struct exec_opts o = { .output_whole = true, .split_stderr = true };
	struct exec_result r;
	struct strbuf all;
	int i;

	strbuf_init(&all);
	for (i = 1; i <= 200000; i++)
		strbuf_printf(&all, "%d\n", i);
	cr_assert_gt(all.len, EXEC_OUTPUT_MAX);
	cr_assert_eq(exec_run(argv, &o, &r), 0);
	cr_assert_str_eq(r.output, all.s);
	cr_assert_str_eq(r.errput, "e\n");
	exec_result_done(&r);
	strbuf_done(&all);
}

Test(exec, caps_output_keeping_both_ends)
{
	const size_t half = EXEC_OUTPUT_MAX / 2;
	struct exec_result r;
	struct strbuf all, want;
	char *marker;
	int i;

	strbuf_init(&all);
	for (i = 1; i <= 200000; i++)
		strbuf_printf(&all, "%d\n", i);
	cr_assert_eq(run(&r, 0, "seq", "1", "200000", NULL), 0);
	strbuf_init(&want);
	strbuf_printf(&want, "%.*s", (int)half, all.s);
	if (all.s[half - 1] != '\n')
		strbuf_add(&want, "\n");
	marker = xasprintf("[... %zu bytes left out ...]\n",
	    all.len - EXEC_OUTPUT_MAX);
	strbuf_add(&want, marker);
	strbuf_add(&want, all.s + all.len - half);
	cr_assert_eq(strlen(r.output), want.len);
	cr_assert_str_eq(r.output, want.s);
	cr_assert(strncmp(r.output, "1\n2\n3\n", 6) == 0);
	cr_assert_not_null(strstr(r.output, "199999\n200000\n"));
	free(marker);
	strbuf_done(&all);
	strbuf_done(&want);
	exec_result_done(&r);
}

Test(exec, child_gets_no_fd_of_ours)
{
	struct exec_result r;
	char *line, *save = NULL, *arrow, *num;
	int leak = open("/dev/null", O_RDONLY); /* not O_CLOEXEC */
	int fd, n = 0;

	cr_assert_geq(leak, 3);
	cr_assert_eq(run(&r, 5, "ls", "-l", "/proc/self/fd", NULL), 0);
	for (line = strtok_r(r.output, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if ((arrow = strstr(line, " -> ")) == NULL)
			continue; /* "total 0" */
		for (num = arrow; num > line && num[-1] != ' '; num--)
			;
		fd = atoi(num);
		n++;
		if (fd == 0)
			cr_assert_str_eq(arrow, " -> /dev/null");
		else if (fd <= 2)
			cr_assert(strncmp(arrow, " -> pipe:", 9) == 0, "%s",
			    line);
		else /* only ls's own handle on the directory it lists */
			cr_assert(strncmp(arrow, " -> /proc/", 10) == 0 &&
				strcmp(arrow + strlen(arrow) - 3, "/fd") == 0,
			    "leaked into the child: %s", line);
	}
	cr_assert_geq(n, 3);
	close(leak);
	exec_result_done(&r);
}

/* Open fds of this process. */
static int
fd_count(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	cr_assert_not_null(dir);
	while ((d = readdir(dir)) != NULL)
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

Test(exec, keeps_no_fd_and_no_child)
{
	struct exec_result r;
	int before = fd_count(), i;

	for (i = 0; i < 5; i++) {
		run(&r, 0, "echo", "hi", NULL);
		exec_result_done(&r);
		run(&r, 0, "raidlab-no-such-tool", NULL);
		exec_result_done(&r);
		run(&r, 0, "/nonexistent/tool", NULL);
		exec_result_done(&r);
		run(&r, 0.05, "sleep", "10", NULL);
		exec_result_done(&r);
	}
	cr_assert_eq(fd_count(), before);
	assert_no_children();
}

static void *
thread_run(void *arg)
{
	struct exec_result *r = arg;
	sigset_t all;

	/* Workers block every signal: the child must not inherit that. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	run(r, 0.3, "sleep", "100", NULL);
	return NULL;
}

Test(exec, runs_from_a_thread_with_signals_blocked)
{
	struct exec_result r;
	pthread_t t;

	cr_assert_eq(pthread_create(&t, NULL, thread_run, &r), 0);
	pthread_join(t, NULL);
	/* SIGTERM worked: the child's mask was reset (a blocked one would
	   have left it to the SIGKILL after the grace). */
	cr_assert(r.timed_out);
	cr_assert_eq(r.signal, SIGTERM);
	exec_result_done(&r);
	assert_no_children();
}

Test(exec, leaves_the_callers_signal_state_alone)
{
	struct sigaction before, after;
	sigset_t m0, m1;
	struct exec_result r;

	sigemptyset(&m0);
	sigaddset(&m0, SIGUSR1);
	pthread_sigmask(SIG_SETMASK, &m0, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGCHLD, NULL, &before);
	/* The child gets SIGPIPE back: yes | head ends. */
	cr_assert_eq(run(&r, 10, "sh", "-c", "yes | head -n 2", NULL), 0);
	cr_assert_str_eq(r.output, "y\ny\n");
	exec_result_done(&r);
	pthread_sigmask(SIG_SETMASK, NULL, &m1);
	cr_assert(sigismember(&m1, SIGUSR1));
	cr_assert_not(sigismember(&m1, SIGTERM));
	sigaction(SIGCHLD, NULL, &after);
	cr_assert_eq(before.sa_handler, after.sa_handler);
}

Test(exec, quotes_argv_only_where_needed)
{
	const char *argv[] = { "mdadm", "--create", "/dev/md/a b", "--level=5",
		"it's", "", "a,b:c@d%e+f", "$x", NULL };
	char *s = exec_argv_string(argv);

	cr_assert_str_eq(s,
	    "mdadm --create '/dev/md/a b' --level=5 'it'\\''s' '' "
	    "a,b:c@d%e+f '$x'");
	free(s);
	s = exec_argv_string((const char *const[]){ NULL });
	cr_assert_str_eq(s, "");
	free(s);
}

Test(exec, describes_an_empty_result)
{
	struct exec_result r;
	char b[64];

	memset(&r, 0, sizeof r);
	exec_result_done(&r);
	exec_result_done(NULL);
	cr_assert_str_eq(exec_result_describe(&r, b, sizeof b),
	    "exit status 0");
}

/* Why a step failed, from its output: the error-like line even with the
   usage after it (mkfs.xfs's "too large"), else the first line. */
Test(exec, why_line_finds_the_reason_before_the_usage)
{
	char b[256];

	exec_why_line("size 1073741824 specified for log subvolume is too "
		      "large, maximum is 102400 blocks\n"
		      "Usage: mkfs.xfs\n"
		      "/* blocksize */\t\t[-b size=num]\n"
		      "<value> is xxx (512 byte blocks).\n",
	    b, sizeof b);
	cr_assert_str_eq(b,
	    "size 1073741824 specified for log subvolume is too large, "
	    "maximum is 102400 blocks");
	exec_why_line("mdadm: cannot open /dev/x: No such file or directory\n",
	    b, sizeof b);
	cr_assert_str_eq(b,
	    "mdadm: cannot open /dev/x: No such file or directory");
	exec_why_line("\n  \nsomething happened\nthen this\n", b, sizeof b);
	cr_assert_str_eq(b, "something happened");
	exec_why_line("", b, sizeof b);
	cr_assert_str_eq(b, "");
}
