/*
 * Run one external command the way the provisioner needs it: an argv
 * vector (never a shell), found in PATH plus the sbin directories, its
 * stdout and stderr captured together in arrival order (or apart, for a
 * caller that reads stdout as data, as ssh's does), a timeout that
 * kills its whole process group, and an exit status, signal or start
 * error a caller can record. Any thread: exec_run() neither installs
 * signal handlers nor changes the caller's signal mask beyond blocking
 * signals around fork() and restoring the mask at once.
 */
#ifndef RAIDLAB_EXEC_H
#define RAIDLAB_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Output kept per command: the first and last halves of this. */
#define EXEC_OUTPUT_MAX (64 * 1024)
/* A line longer than this reaches on_line in pieces of this size. */
#define EXEC_LINE_MAX 4096
/* Grace between SIGTERM and SIGKILL when a command times out. */
#define EXEC_KILL_GRACE 2.0

struct exec_result {
	int status; /* exit status 0..255, or -1 when it did not exit
		       normally or did not start */
	int signal; /* the signal that killed it, or 0 */
	int err; /* positive errno when it could not start (ENOENT: not
		    installed), else 0 */
	bool timed_out; /* killed (SIGTERM, then SIGKILL after
			   EXEC_KILL_GRACE s, to its process group) after
			   opts->timeout */
	double duration; /* seconds, CLOCK_MONOTONIC, fork to reap */
	char *errput; /* stderr alone when opts->split_stderr (kept as
			 output is), else NULL */
	char *output; /* stdout and stderr interleaved in arrival order,
			 NUL-terminated, never NULL after exec_run; capped at
			 EXEC_OUTPUT_MAX keeping the first and last halves with
			 a "[... N bytes left out ...]" line (untranslated: it
			 goes into records) in between */
	/* Added for messages (exec_result_describe): */
	char *name; /* argv[0] as given; NULL before exec_run */
	double timeout; /* opts->timeout it ran with; 0 = none */
};

struct exec_opts {
	double timeout; /* seconds; 0 = none */
	/*
	 * Optional: each output line (without its '\n') as it arrives, in
	 * the calling thread, during exec_run(). A last line without '\n'
	 * comes when the output ends.
	 */
	void (*on_line)(void *arg, const char *line);
	void *arg;
	/*
	 * When true, stderr goes to its own pipe: output holds stdout only,
	 * errput stderr, and stderr's lines reach on_err_line (optional, same
	 * thread and arg) instead of on_line.
	 */
	bool split_stderr;
	void (*on_err_line)(void *arg, const char *line);
	/* stdin from this file, opened before the fork; NULL: /dev/null. */
	const char *stdin_path;
	/*
	 * > 0: the child's stdin is (a copy of) this descriptor, in place of
	 * stdin_path: the read end of a pipe, say, whose write end the
	 * caller keeps (both opened O_CLOEXEC, so that no other child
	 * inherits them); the caller closes both. 0: not used.
	 */
	int stdin_fd;
	/* stdout kept whole in output, however long (a record), instead of
	   its first and last halves; output is never cut then. */
	bool output_whole;
	/* Optional: the child's pid (the leader of its own process group)
	   once it is forked, on the calling thread, with arg; a caller
	   that may need to kill it from another thread keeps it until
	   exec_run() returns (the child is reaped then). */
	void (*on_start)(void *arg, pid_t pid);
};

/*
 * Fork and exec argv (argv[0] searched in PATH with /usr/sbin, /sbin,
 * /usr/bin and /bin appended when missing: mkfs.xfs lives in /usr/sbin and
 * non-root PATHs lack it; an argv[0] with a '/' is used as is). The child
 * gets stdin from /dev/null (or o->stdin_path, o->stdin_fd), stdout and stderr
 * on one pipe (two with o->split_stderr), that PATH and LC_ALL=C in its
 * environment (so outputs parse), default signal dispositions and an empty
 * signal mask, its own process group (a ^C on the terminal does not reach it),
 * and no fd above 2. o may be NULL (no timeout, no callback).
 *
 * On timeout the process group gets SIGTERM, then SIGKILL after
 * EXEC_KILL_GRACE seconds. The command is always reaped (no zombie). Output
 * that processes left in the background write more than 1 s after the
 * command exited is not collected (exec_run does not wait for daemons).
 *
 * Returns 0 when it exited with status 0; otherwise a negative errno:
 * -ENOENT (or the exec error: -EACCES, -ENOEXEC...) when it could not
 * start (r->err also holds open()'s error for o->stdin_path), -ETIMEDOUT when
 * it timed out, -EINTR when a signal killed it, -EPROTO for a non-zero exit
 * status. r is always filled, even on failure; exec_result_done() frees it.
 */
int exec_run(const char *const *argv, const struct exec_opts *o,
    struct exec_result *r);

/*
 * The file exec_run() would run for argv0 (searched in PATH and the sbin
 * directories when it has no '/'); the caller frees it. NULL with *err
 * ENOENT, or EACCES when only non-executable candidates exist.
 */
char *exec_find(const char *argv0, int *err);

/* Free what r holds and zero it; r may be zeroed or NULL. */
void exec_result_done(struct exec_result *r);

/*
 * The argv as one shell-quoted line for display and records: mdadm
 * --create '/dev/md/a b' ... An argument is single-quoted only when it
 * holds a character outside [A-Za-z0-9_@%+=:,./-] or is empty; a quote in
 * it becomes '\''. Caller frees.
 */
char *exec_argv_string(const char *const *argv);

/*
 * The argv as one line a POSIX shell parses back into exactly argv: each
 * word single-quoted unless it is non-empty and holds only letters,
 * digits and the characters in plain; a quote in a word becomes '\''.
 * exec_argv_string() is this with "_@%+=:,./-". Caller frees.
 */
char *exec_quote_argv(const char *const *argv, const char *plain);

/*
 * What happened, translated, into buf (returned): "exit status 3",
 * "killed by signal 9", "not installed (mkfs.xfs)", "could not start
 * (mkfs.xfs): Permission denied", "timed out after 30 s".
 */
const char *
exec_result_describe(const struct exec_result *r, char *buf, size_t len);

/*
 * The line of a failed command's output that says why: the first that
 * reads like an error (tools often print their usage after it), else the
 * first non-empty one. Empty when there is none.
 */
void exec_why_line(const char *out, char *buf, size_t len);

#endif
