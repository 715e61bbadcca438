/*
 * One host's `fio --server`, for fleet-fio.c: started over ssh as a
 * daemon with a pidfile in a directory made there, reached at its bound
 * address or through an `ssh -L` tunnel to the host's 127.0.0.1, and
 * stopped by the PID it wrote: by raidlab at the end, and by a guard
 * ssh session that stops it when raidlab goes away, killed or not.
 * fio's server has no authentication and forks a child per connection,
 * so it never listens on more than the one address the lab gives. The
 * controller's thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "fleet-fio-int.h"
#include "lab/lab.h"

/* ssh calls that only start or stop something, at most (s). */
#define SERVER_SSH_TIMEOUT 60.0

/*
 * $1 the --server spec (ip:ADDR,PORT), $2 the directory the job writes into.
 * Prints the directory it made, then the server's PID. fio forks into the
 * background and writes the pidfile; its stdio is /dev/null so that the
 * ssh session ends.
 */
static const char start_script[] =
    "test -d \"$2\" || { echo \"$2: no such directory\" >&2; exit 3; }\n"
    "d=$(mktemp -d \"${TMPDIR:-/tmp}/raidlab-fio.XXXXXX\") || exit 4\n"
    "echo \"$d\"\n"
    "fio --server=\"$1\" --daemonize=\"$d/fio.pid\" </dev/null "
    ">\"$d/fio.log\" 2>&1\n"
    "i=0\n"
    "while [ ! -s \"$d/fio.pid\" ] && [ $i -lt 100 ]; do\n"
    "  sleep 0.1; i=$((i + 1))\n"
    "done\n"
    "if [ ! -s \"$d/fio.pid\" ]; then\n"
    "  cat \"$d/fio.log\" >&2; exit 5\n"
    "fi\n"
    "cat \"$d/fio.pid\"\n";

/*
 * $1 the PID (may be empty), $2 the directory. Only a process whose
 * command line is a fio server is signalled (a PID reused since is left
 * alone); --daemonize made it a session leader, so its group holds the
 * children it forked per connection, and they go with it. Only a
 * directory raidlab made is removed.
 */
#define STOP_SCRIPT                                                            \
	"if [ -n \"$1\" ]; then\n"                                             \
	"  case $(tr '\\0' ' ' <\"/proc/$1/cmdline\" 2>/dev/null) in\n"        \
	"  *fio*--server*)\n"                                                  \
	"    kill -TERM \"-$1\" 2>/dev/null || kill \"$1\" 2>/dev/null\n"      \
	"    i=0\n"                                                            \
	"    while kill -0 \"-$1\" 2>/dev/null && [ $i -lt 50 ]; do\n"         \
	"      sleep 0.1; i=$((i + 1))\n"                                      \
	"    done\n"                                                           \
	"    kill -KILL \"-$1\" 2>/dev/null ;;\n"                              \
	"  esac\n"                                                             \
	"fi\n"                                                                 \
	"case $2 in */raidlab-fio.*) rm -rf \"$2\" ;; esac\n"

static const char stop_script[] = STOP_SCRIPT;

/*
 * The guard: an ssh session held open for as long as the server runs.
 * End of file on its stdin (raidlab closed it, or raidlab is gone,
 * killed outright included) stops the server as stop_script does. With
 * fio_tunnel it is also the tunnel, so the tunnel ends with it.
 */
static const char guard_script[] = "read _ || :\n" STOP_SCRIPT;

const char *
fio_server_spec(const char *addr, int port, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s,%d", strchr(addr, ':') ? "ip6" : "ip", addr,
	    port);
	return buf;
}

void
fio_server_init(struct fio_server *s, const struct lab_host *h,
    const char *config)
{
	memset(s, 0, sizeof *s);
	s->guard_fd = -1;
	s->h = h;
	s->ssh.name = h->name;
	s->ssh.address = h->address;
	s->ssh.user = h->user;
	/* Unset: the ssh configuration's port, not 22 over it. */
	s->ssh.port = (h->set & (1u << LAB_H_PORT)) ? (int)h->port : 0;
	s->ssh.config = config;
	s->port = (int)h->fio_port;
	snprintf(s->addr, sizeof s->addr, "%s",
	    h->fio_tunnel ? "127.0.0.1" : lab_host_fio_bind(h));
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A free TCP port on this machine's 127.0.0.1, for the tunnel. */
static int
free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/*
 * Whether addr:port takes a connection that stays open: a refused or
 * failed connect is no, and so is one closed at once (what an ssh tunnel
 * does when nothing listens at its far end).
 */
static bool
accepts(const char *addr, int port)
{
	struct addrinfo hints, *ai = NULL, *p;
	struct pollfd pfd;
	char ps[16], c;
	bool ok = false;
	int fd;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	snprintf(ps, sizeof ps, "%d", port);
	if (getaddrinfo(addr, ps, &hints, &ai) != 0)
		return false;
	for (p = ai; p != NULL && !ok; p = p->ai_next) {
		fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC,
		    p->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, p->ai_addr, p->ai_addrlen) == 0) {
			pfd.fd = fd;
			pfd.events = POLLIN;
			ok = poll(&pfd, 1, 300) == 0 ||
			    ((pfd.revents & POLLIN) && recv(fd, &c, 1, 0) > 0);
		}
		close(fd);
	}
	freeaddrinfo(ai);
	return ok;
}

/*
 * The guard session (guard_script) in the background, its stdin a pipe
 * this process holds; with fio_tunnel also `-L 127.0.0.1:LOCAL:127.0.0.1:
 * PORT`, and the client then connects to LOCAL.
 */
static int
guard_start(struct fio_server *s, struct err *e)
{
	static char opt_o[] = "-o", opt_l[] = "-L",
		    exit_fail[] = "ExitOnForwardFailure=yes";
	char pid_s[24], spec[64];
	const char *remote[] = { "sh", "-c", guard_script, "sh", pid_s,
		s->remote_dir, NULL };
	char **sv, **argv;
	size_t n = 0, i;
	int local = -1, p[2];
	pid_t pid;

	snprintf(pid_s, sizeof pid_s, "%ld", s->pid);
	if (s->h->fio_tunnel && (local = free_port()) < 0)
		return err_setf(e, -EADDRNOTAVAIL,
		    _("%s: cannot set up an ssh tunnel to it"), s->h->name);
	if ((sv = ssh_argv(&s->ssh, remote)) == NULL)
		return err_setf(e, -EINVAL,
		    _("%s: cannot set up an ssh tunnel to it"), s->h->name);
	snprintf(spec, sizeof spec, "127.0.0.1:%d:127.0.0.1:%d", local,
	    s->port);
	for (i = 0; sv[i] != NULL; i++)
		;
	argv = xcalloc(i + 8, sizeof *argv);
	argv[n++] = sv[0];
	if (local > 0) {
		argv[n++] = opt_o;
		argv[n++] = exit_fail;
		argv[n++] = opt_l;
		argv[n++] = spec;
	}
	for (size_t k = 1; k < i; k++)
		argv[n++] = sv[k];
	argv[n] = NULL;
	if (pipe2(p, O_CLOEXEC) < 0) {
		free(argv);
		ssh_argv_free(sv);
		return err_setf(e, -errno, _("%s: cannot start ssh: %s"),
		    s->h->name, strerror(errno));
	}
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		/* Its own process group: a ^C at the terminal is the
		   controller's to handle, and it ends the guard. */
		setpgid(0, 0);
		dup2(p[0], 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	free(argv);
	ssh_argv_free(sv);
	if (pid < 0) {
		close(p[1]);
		return err_setf(e, -errno, _("%s: cannot start ssh: %s"),
		    s->h->name, strerror(errno));
	}
	s->guard = pid;
	s->guard_fd = p[1];
	if (local > 0) {
		snprintf(s->addr, sizeof s->addr, "127.0.0.1");
		s->port = local;
	}
	return 0;
}

/* Close the guard's stdin and wait (bounded) until its ssh is gone. */
static void
guard_stop(struct fio_server *s)
{
	double end = now() + SERVER_SSH_TIMEOUT;

	if (s->guard_fd >= 0) {
		close(s->guard_fd);
		s->guard_fd = -1;
	}
	if (s->guard <= 0)
		return;
	while (waitpid(s->guard, NULL, WNOHANG) == 0) {
		if (now() > end) {
			kill(s->guard, SIGTERM);
			waitpid(s->guard, NULL, 0);
			break;
		}
		usleep(50 * 1000);
	}
	s->guard = 0;
}

/* The start script's stdout: the directory, then the PID. */
static void
read_started(struct fio_server *s, const char *out)
{
	const char *nl = strchr(out, '\n');

	if (nl == NULL || nl == out || out[0] != '/')
		return;
	s->remote_dir = xstrndup(out, (size_t)(nl - out));
	s->pid = strtol(nl + 1, NULL, 10);
}

int
fio_server_start(struct fio_server *s, double timeout, struct err *e)
{
	char spec[320];
	const char *remote[] = { "sh", "-c", start_script, "sh",
		fio_server_spec(s->addr, s->port, spec, sizeof spec), s->dir,
		NULL };
	struct exec_opts o = { .timeout = SERVER_SSH_TIMEOUT };
	struct exec_result r;
	double end;
	int rc;

	memset(&r, 0, sizeof r);
	rc = ssh_run(&s->ssh, remote, &o, &r, e);
	read_started(s, r.output ? r.output : "");
	exec_result_done(&r);
	if (rc < 0)
		return rc;
	if (s->pid <= 0)
		return err_setf(e, -EPROTO,
		    _("%s: fio --server started but wrote no PID"), s->h->name);
	if ((rc = guard_start(s, e)) < 0)
		return rc;
	for (end = now() + timeout; !accepts(s->addr, s->port);) {
		if (now() > end)
			return err_setf(e, -ETIMEDOUT,
			    _("%s: fio --server=%s does not accept "
			      "connections after %.0f s%s"),
			    s->h->name, spec, timeout,
			    s->h->fio_tunnel ? _(" (through the ssh tunnel)")
					     : "");
		usleep(100 * 1000);
	}
	return 0;
}

int
fio_server_stop(struct fio_server *s, struct err *e)
{
	char pid[24];
	const char *remote[] = { "sh", "-c", stop_script, "sh", pid,
		s->remote_dir, NULL };
	struct exec_opts o = { .timeout = SERVER_SSH_TIMEOUT };
	struct exec_result r;
	int rc = 0;

	/* The guard stops the server; the explicit stop below is for a
	   guard that failed, and is harmless after it. */
	guard_stop(s);
	if (s->remote_dir != NULL) {
		snprintf(pid, sizeof pid, "%ld", s->pid > 0 ? s->pid : 0L);
		if (s->pid <= 0)
			pid[0] = '\0';
		memset(&r, 0, sizeof r);
		rc = ssh_run(&s->ssh, remote, &o, &r, e);
		exec_result_done(&r);
		free(s->remote_dir);
		s->remote_dir = NULL;
		s->pid = 0;
	}
	return rc;
}
