/*
 * Run one external command: fork/exec of an argv vector with its output
 * read through one poll()ed pipe, a timeout that kills the process group,
 * and a result to record. Everything the child needs (resolved path,
 * environment, argv copy) is built before fork(), so that the child only
 * makes async-signal-safe calls until execve(). Any thread.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "exec.h"

extern char **environ;

#define HALF (EXEC_OUTPUT_MAX / 2)
/* How long output is still read after the command exited. */
#define DRAIN_AFTER_EXIT 1.0
/* Poll period when the kernel has no pidfd_open (exit found by WNOHANG). */
#define POLL_FALLBACK_MS 50

static const char *const sbin_dirs[] = { "/usr/sbin", "/sbin", "/usr/bin",
	"/bin", NULL };

/* Output kept so far, and the line being assembled for on_line. */
struct capture {
	char *head; /* the first HALF bytes */
	size_t nhead;
	char *tail; /* ring of the last HALF bytes after head */
	size_t ntail, tpos;
	unsigned long long total; /* every byte read */
	char line[EXEC_LINE_MAX + 1];
	size_t nline;
	void (*on_line)(void *arg, const char *line); /* may be NULL */
	void *arg;
	struct strbuf *whole; /* every byte, uncapped; NULL: head and tail */
};

/* Everything the child uses, prepared before fork(). */
struct spawn {
	char *path;
	char **argv;
	char **envp;
	int out; /* write end of the output pipe */
	int err; /* write end of the stderr pipe, or out when not split */
	int status; /* write end of the exec-error pipe */
	int null; /* stdin: /dev/null or opts->stdin_path */
	int maxfd; /* for the close loop when close_range() is missing */
	pid_t parent; /* getpid() before the fork */
};

static void
capture_line(struct capture *c, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != '\n')
			c->line[c->nline++] = p[i];
		if (p[i] == '\n' || c->nline == EXEC_LINE_MAX) {
			c->line[c->nline] = '\0';
			c->on_line(c->arg, c->line);
			c->nline = 0;
		}
	}
}

static void
capture_add(struct capture *c, const char *p, size_t n)
{
	size_t k;

	c->total += n;
	if (c->on_line != NULL)
		capture_line(c, p, n);
	if (c->whole != NULL) {
		strbuf_printf(c->whole, "%.*s", (int)n, p);
		return;
	}
	k = HALF - c->nhead < n ? HALF - c->nhead : n;
	memcpy(c->head + c->nhead, p, k);
	c->nhead += k;
	p += k;
	n -= k;
	if (n > HALF) {
		p += n - HALF;
		n = HALF;
	}
	while (n > 0) {
		k = HALF - c->tpos < n ? HALF - c->tpos : n;
		memcpy(c->tail + c->tpos, p, k);
		c->tpos = (c->tpos + k) % HALF;
		c->ntail = c->ntail + k > HALF ? HALF : c->ntail + k;
		p += k;
		n -= k;
	}
}

/* The kept output as one string; the last partial line goes to on_line. */
static char *
capture_finish(struct capture *c)
{
	unsigned long long dropped = c->total - c->nhead - c->ntail;
	size_t start = c->ntail < HALF ? 0 : c->tpos;
	struct strbuf b;

	if (c->on_line != NULL && c->nline > 0) {
		c->line[c->nline] = '\0';
		c->on_line(c->arg, c->line);
		c->nline = 0;
	}
	if (c->whole != NULL)
		return strbuf_take(c->whole);
	strbuf_init(&b);
	strbuf_printf(&b, "%.*s", (int)c->nhead, c->head);
	if (dropped > 0) {
		if (c->nhead > 0 && c->head[c->nhead - 1] != '\n')
			strbuf_add(&b, "\n");
		strbuf_printf(&b, "[... %llu bytes left out ...]\n", dropped);
	}
	strbuf_printf(&b, "%.*s", (int)(c->ntail - start), c->tail + start);
	if (start > 0)
		strbuf_printf(&b, "%.*s", (int)start, c->tail);
	return strbuf_take(&b);
}

/* PATH with the sbin/bin directories it lacks appended. */
static char *
path_augment(void)
{
	const char *cur = getenv("PATH");
	struct strbuf b;
	size_t i, n;
	const char *p;

	strbuf_init(&b);
	strbuf_add(&b, cur != NULL ? cur : "");
	for (i = 0; sbin_dirs[i] != NULL; i++) {
		bool found = false;

		n = strlen(sbin_dirs[i]);
		for (p = b.s; !found && *p != '\0';) {
			found = strncmp(p, sbin_dirs[i], n) == 0 &&
			    (p[n] == ':' || p[n] == '\0');
			p += strcspn(p, ":");
			if (*p == ':')
				p++;
		}
		if (!found)
			strbuf_printf(&b, "%s%s", b.len > 0 ? ":" : "",
			    sbin_dirs[i]);
	}
	return strbuf_take(&b);
}

/*
 * The executable argv0 names, searched in path. NULL with *err set
 * (ENOENT, or EACCES when only non-executable candidates exist).
 */
static char *
path_search(const char *argv0, const char *path, int *err)
{
	const char *p = path, *end;
	struct stat st;
	char *cand;

	*err = ENOENT;
	if (*argv0 == '\0')
		return NULL;
	if (strchr(argv0, '/') != NULL) {
		*err = 0;
		return xstrdup(argv0);
	}
	for (;;) {
		end = p + strcspn(p, ":");
		if (end == p)
			cand = xasprintf("./%s", argv0);
		else
			cand = xasprintf("%.*s/%s", (int)(end - p), p, argv0);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(cand, X_OK) == 0) {
				*err = 0;
				return cand;
			}
			*err = EACCES;
		}
		free(cand);
		if (*end == '\0')
			return NULL;
		p = end + 1;
	}
}

char *
exec_find(const char *argv0, int *err)
{
	char *path = path_augment(), *found = path_search(argv0, path, err);

	free(path);
	return found;
}

/* The caller's environment with LC_ALL=C and the augmented PATH. */
static char **
env_build(const char *path)
{
	size_t n = 0, i, k = 0;
	char **v;

	while (environ != NULL && environ[n] != NULL)
		n++;
	v = xcalloc(n + 3, sizeof *v);
	for (i = 0; i < n; i++) {
		if (strncmp(environ[i], "LC_ALL=", 7) == 0 ||
		    strncmp(environ[i], "PATH=", 5) == 0)
			continue;
		v[k++] = xstrdup(environ[i]);
	}
	v[k++] = xstrdup("LC_ALL=C");
	v[k++] = xasprintf("PATH=%s", path);
	v[k] = NULL;
	return v;
}

static void
strv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* A copy of fd at 3 or above (the child dup2()s onto 0..2). */
static int
fd_high(int fd)
{
	int h;

	if (fd < 0 || fd > 2)
		return fd;
	h = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return h;
}

static void
child_closefrom(int lo, int hi, int maxfd)
{
	int fd;

	if (lo > hi)
		return;
	if (syscall(SYS_close_range, (unsigned)lo, (unsigned)hi, 0u) == 0)
		return;
	for (fd = lo; fd <= hi && fd < maxfd; fd++)
		close(fd);
}

/* In the child: async-signal-safe calls only. */
static _Noreturn void
child_exec(const struct spawn *s)
{
	struct sigaction sa;
	sigset_t none;
	int sig, e;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	/* A command must not outlive a raidlab that was killed: a mkfs or
	   losetup still running would race the cleanup of its objects.
	   The signal comes when the forking thread ends, which is safe
	   only because exec_run() waits for its child on that thread. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != s->parent) {
		e = ESRCH;
		goto tell;
	}
	if (dup2(s->null, 0) < 0 || dup2(s->out, 1) < 0 || dup2(s->err, 2) < 0)
		goto fail;
	child_closefrom(3, s->status - 1, s->maxfd);
	child_closefrom(s->status + 1, INT32_MAX, s->maxfd);
	execve(s->path, s->argv, s->envp);
fail:
	e = errno;
tell:
	if (write(s->status, &e, sizeof e) < 0) {
		/* nothing more to tell */
	}
	_exit(127);
}

static void
result_start(struct exec_result *r, const char *const *argv,
    const struct exec_opts *o)
{
	memset(r, 0, sizeof *r);
	r->status = -1;
	r->name = xstrdup(argv != NULL && argv[0] != NULL ? argv[0] : "");
	r->timeout = o != NULL && o->timeout > 0 ? o->timeout : 0;
}

/* The code exec_run() returns for a filled result. */
static int
result_code(const struct exec_result *r)
{
	if (r->err != 0)
		return -r->err;
	if (r->timed_out)
		return -ETIMEDOUT;
	if (r->signal != 0)
		return -EINTR;
	return r->status == 0 ? 0 : -EPROTO;
}

static void
result_wait(struct exec_result *r, pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return;
	if (WIFEXITED(st)) {
		r->status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		r->status = -1;
		r->signal = WTERMSIG(st);
	}
}

/*
 * Set up the pipes (rd[1] only when o splits stderr) and the child's
 * copies of everything; -errno.
 */
static int
spawn_prepare(struct spawn *s, const char *const *argv,
    const struct exec_opts *o, int rd[2], int *st_rd)
{
	int out[2], errp[2], stp[2];
	struct rlimit rl;
	size_t n = 0;

	while (argv[n] != NULL)
		n++;
	s->argv = xcalloc(n + 1, sizeof *s->argv);
	memcpy(s->argv, argv, n * sizeof *argv);
	s->maxfd = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 1048576
	    ? (int)rl.rlim_cur
	    : 65536;
	if (pipe2(out, O_CLOEXEC) < 0)
		return -errno;
	rd[0] = out[0];
	s->err = s->out = fd_high(out[1]);
	if (o != NULL && o->split_stderr) {
		if (pipe2(errp, O_CLOEXEC) < 0)
			return -errno;
		rd[1] = errp[0];
		s->err = fd_high(errp[1]);
	}
	if (pipe2(stp, O_CLOEXEC) < 0)
		return -errno;
	*st_rd = stp[0];
	s->status = fd_high(stp[1]);
	if (o != NULL && o->stdin_fd > 0)
		s->null = fd_high(fcntl(o->stdin_fd, F_DUPFD_CLOEXEC, 3));
	else
		s->null = fd_high(
		    open(o != NULL && o->stdin_path != NULL ? o->stdin_path
							    : "/dev/null",
			O_RDONLY | O_CLOEXEC));
	if (s->null < 0 || s->out < 0 || s->err < 0 || s->status < 0)
		return -errno;
	return 0;
}

static void
spawn_done(struct spawn *s)
{
	free(s->path);
	free(s->argv);
	strv_free(s->envp);
	if (s->err >= 0 && s->err != s->out)
		close(s->err);
	if (s->out >= 0)
		close(s->out);
	if (s->status >= 0)
		close(s->status);
	if (s->null >= 0)
		close(s->null);
}

/* The exec error the child reported, or 0 once execve() succeeded. */
static int
read_exec_error(int fd)
{
	ssize_t k;
	int e = 0;

	do
		k = read(fd, &e, sizeof e);
	while (k < 0 && errno == EINTR);
	return k == (ssize_t)sizeof e ? e : 0;
}

/* Whether pid has exited, leaving it to be reaped. */
static bool
child_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) ==
	    0 &&
	    si.si_pid == pid;
}

/* Read from the pipes in rd[] (-1: none) into c[] until they end. */
static void
pump_read(struct capture *c, int *rd, const struct pollfd *pf, nfds_t n)
{
	char buf[8192];
	nfds_t i;

	for (i = 0; i < n; i++) {
		int k = rd[0] == pf[i].fd ? 0 : rd[1] == pf[i].fd ? 1 : -1;
		ssize_t got;

		if (k < 0 || pf[i].revents == 0)
			continue;
		got = read(rd[k], buf, sizeof buf);
		if (got > 0) {
			capture_add(&c[k], buf, (size_t)got);
		} else if (got == 0 || errno != EINTR) {
			close(rd[k]);
			rd[k] = -1;
		}
	}
}

/* Read the outputs until they end and the child exited; handle timeout. */
static void
pump(struct capture *c, struct exec_result *r, pid_t pid, int *rd, double t0)
{
	double deadline = r->timeout > 0 ? t0 + r->timeout : 0;
	double kill_at = 0, stop_at = 0, now;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	bool exited = false;
	int k;

	while (rd[0] >= 0 || rd[1] >= 0 || !exited) {
		struct pollfd pf[3];
		nfds_t n = 0;
		double wake = 0;
		int ms;

		now = tick_now_s();
		if (deadline > 0 && !r->timed_out && !exited &&
		    now >= deadline) {
			r->timed_out = true;
			kill(-pid, SIGTERM);
			kill_at = now + EXEC_KILL_GRACE;
		}
		if (kill_at > 0 && now >= kill_at) {
			/* The group, even when its leader is gone but
			   another member still holds the output. */
			kill(-pid, SIGKILL);
			kill_at = 0;
			stop_at = now + DRAIN_AFTER_EXIT;
		}
		if (exited && now >= stop_at && kill_at == 0)
			break;
		for (k = 0; k < 2; k++)
			if (rd[k] >= 0)
				pf[n++] = (struct pollfd){ .fd = rd[k],
					.events = POLLIN };
		if (pidfd >= 0 && !exited)
			pf[n++] =
			    (struct pollfd){ .fd = pidfd, .events = POLLIN };
		if (kill_at > 0)
			wake = kill_at;
		else if (exited)
			wake = stop_at;
		else if (deadline > 0 && !r->timed_out)
			wake = deadline;
		ms = wake > 0 ? (int)((wake - now) * 1000) + 1 : -1;
		if (pidfd < 0 && !exited && (ms < 0 || ms > POLL_FALLBACK_MS))
			ms = POLL_FALLBACK_MS;
		k = poll(pf, n, ms);
		if (k < 0 && errno != EINTR)
			break;
		if (k > 0)
			pump_read(c, rd, pf, n);
		if (!exited &&
		    (pidfd >= 0 ? k > 0 && pf[n - 1].revents != 0
				: child_exited(pid))) {
			exited = true;
			stop_at = tick_now_s() + DRAIN_AFTER_EXIT;
		}
	}
	/* Timed out, the leader died of SIGTERM and the output ended:
	   whoever is left of the group ignored SIGTERM. */
	if (kill_at > 0)
		kill(-pid, SIGKILL);
	for (k = 0; k < 2; k++)
		if (rd[k] >= 0)
			close(rd[k]);
	if (pidfd >= 0)
		close(pidfd);
}

int
exec_run(const char *const *argv, const struct exec_opts *o,
    struct exec_result *r)
{
	struct spawn s = { .out = -1,
		.err = -1,
		.status = -1,
		.null = -1,
		.parent = getpid() };
	struct capture c[2] = { { .on_line = o != NULL ? o->on_line : NULL,
				    .arg = o != NULL ? o->arg : NULL },
		{ .on_line = o != NULL ? o->on_err_line : NULL,
		    .arg = o != NULL ? o->arg : NULL } };
	bool split = o != NULL && o->split_stderr;
	struct strbuf whole;
	sigset_t all, old;
	int rd[2] = { -1, -1 }, st_rd = -1, rc, e, k;
	double t0 = tick_now_s();
	char *path;
	pid_t pid;

	result_start(r, argv, o);
	if (o != NULL && o->output_whole) {
		strbuf_init(&whole);
		c[0].whole = &whole;
	}
	for (k = 0; k < 2; k++) {
		c[k].head = xmalloc(HALF);
		c[k].tail = xmalloc(HALF);
	}
	path = path_augment();
	if (argv == NULL || argv[0] == NULL) {
		r->err = ENOENT;
		goto out;
	}
	if ((s.path = path_search(argv[0], path, &e)) == NULL) {
		r->err = e;
		goto out;
	}
	s.envp = env_build(path);
	if ((rc = spawn_prepare(&s, argv, o, rd, &st_rd)) < 0) {
		r->err = -rc;
		goto out;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = fork();
	if (pid == 0)
		child_exec(&s);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		r->err = e;
		goto out;
	}
	/* Both sides set the group, so a kill(-pid) never misses it. */
	setpgid(pid, pid);
	if (o != NULL && o->on_start != NULL)
		o->on_start(o->arg, pid);
	if (s.err != s.out)
		close(s.err);
	close(s.out);
	close(s.status);
	s.out = s.err = s.status = -1;
	if ((r->err = read_exec_error(st_rd)) != 0) {
		result_wait(r, pid);
		r->status = -1;
		goto out;
	}
	pump(c, r, pid, rd, t0);
	rd[0] = rd[1] = -1;
	result_wait(r, pid);
out:
	for (k = 0; k < 2; k++)
		if (rd[k] >= 0)
			close(rd[k]);
	if (st_rd >= 0)
		close(st_rd);
	spawn_done(&s);
	free(path);
	r->output = capture_finish(&c[0]);
	r->errput = split ? capture_finish(&c[1]) : NULL;
	for (k = 0; k < 2; k++) {
		free(c[k].head);
		free(c[k].tail);
	}
	r->duration = tick_now_s() - t0;
	return result_code(r);
}

void
exec_result_done(struct exec_result *r)
{
	if (r == NULL)
		return;
	free(r->output);
	free(r->errput);
	free(r->name);
	memset(r, 0, sizeof *r);
}

/* s is a shell word as it stands: not empty, and only letters, digits
   and the punctuation in plain. */
static bool
word_plain(const char *s, const char *plain)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			(*s >= '0' && *s <= '9') || strchr(plain, *s)))
			return false;
	}
	return true;
}

char *
exec_quote_argv(const char *const *argv, const char *plain)
{
	struct strbuf b;
	const char *p;
	size_t i;

	strbuf_init(&b);
	for (i = 0; argv != NULL && argv[i] != NULL; i++) {
		if (i > 0)
			strbuf_add(&b, " ");
		if (word_plain(argv[i], plain)) {
			strbuf_add(&b, argv[i]);
			continue;
		}
		/* Inside single quotes only the quote itself is special. */
		strbuf_add(&b, "'");
		for (p = argv[i]; *p != '\0'; p++) {
			if (*p == '\'')
				strbuf_add(&b, "'\\''");
			else
				strbuf_printf(&b, "%c", *p);
		}
		strbuf_add(&b, "'");
	}
	return strbuf_take(&b);
}

char *
exec_argv_string(const char *const *argv)
{
	return exec_quote_argv(argv, "_@%+=:,./-");
}

const char *
exec_result_describe(const struct exec_result *r, char *buf, size_t len)
{
	const char *name = r->name != NULL ? r->name : "";
	char eb[128];

	if (r->err == ENOENT)
		snprintf(buf, len, _("not installed (%s)"), name);
	else if (r->err != 0)
		snprintf(buf, len, _("could not start (%s): %s"), name,
		    strerror_r(r->err, eb, sizeof eb));
	else if (r->timed_out)
		snprintf(buf, len, _("timed out after %g s"), r->timeout);
	else if (r->signal != 0)
		snprintf(buf, len, _("killed by signal %d"), r->signal);
	else
		snprintf(buf, len, _("exit status %d"), r->status);
	return buf;
}

void
exec_why_line(const char *out, char *buf, size_t len)
{
	static const char *const words[] = { "error", "unrecognized", "invalid",
		"cannot", "can't", "failed", "no such", "not ", "refus", "busy",
		"too large", "too small", "too big", "too many", "too few",
		"exceed", "out of range", "denied", "unknown", "illegal",
		"bad ", "must", NULL };
	const char *p = out, *first = NULL;
	size_t n, firstn = 0;

	buf[0] = '\0';
	for (; *p != '\0'; p += n + (p[n] == '\n')) {
		char l[512];

		n = strcspn(p, "\n");
		if (n == 0 || strspn(p, " \t") >= n)
			continue;
		snprintf(l, sizeof l, "%.*s", (int)n, p);
		for (char *c = l; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		for (const char *const *w = words; *w != NULL; w++)
			if (strstr(l, *w) != NULL) {
				snprintf(buf, len, "%.*s", (int)n, p);
				return;
			}
		if (first == NULL) {
			first = p;
			firstn = n;
		}
	}
	/* no line says so: the first, before any usage text */
	if (first != NULL)
		snprintf(buf, len, "%.*s", (int)firstn, first);
}
