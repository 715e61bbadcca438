/*
 * A host reached through the ssh client: run a command there, copy a file
 * there, and probe that it can run raidlab's labs. It drives ssh(1), never
 * a protocol of its own, so the user's ssh configuration, agent and
 * known_hosts apply, and host keys are checked as ssh checks them. ssh runs
 * with BatchMode=yes: a missing key, an unknown or changed host key or a
 * password prompt is a failure, never a question. Any thread: every call
 * works on its arguments only (no globals) and runs ssh through
 * src/build/exec.h on the calling thread.
 *
 * The remote command is an argv vector. ssh hands the remote side one
 * command line, which the remote user's login shell parses, so each word
 * is single-quoted here for a POSIX shell (sh, bash, dash, zsh, ksh); a
 * csh or fish login shell is not supported. A remote command that exits
 * 255 reads as "could not reach": ssh uses that status for its own errors.
 */
#ifndef RAIDLAB_SSH_H
#define RAIDLAB_SSH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "build/exec.h"

/* ssh's ConnectTimeout when a host gives none, in seconds. */
#define SSH_CONNECT_TIMEOUT 10
/* ServerAliveInterval (s) and ServerAliveCountMax: a host that went away
   mid-run is given up after about 15 s of silence. */
#define SSH_ALIVE_INTERVAL 5
#define SSH_ALIVE_COUNT 3
/* ssh's exit status for its own errors (connect, auth, host key). */
#define SSH_STATUS_UNREACHABLE 255

/* How to reach one host. Every string is borrowed and may be NULL. */
struct ssh_host {
	const char *name; /* in messages; NULL: address */
	const char *address; /* host name or IP that ssh connects to;
				required, never starting with '-' */
	const char *user; /* ssh -l; NULL: ssh's default */
	int port; /* ssh -p; 0: ssh's default */
	const char *config; /* ssh -F; NULL: the user's and the system's */
	int connect_timeout; /* seconds; 0: SSH_CONNECT_TIMEOUT */
};

/* What ssh_probe() found. */
enum ssh_probe_state {
	SSH_PROBE_OK, /* reachable, raidlab found, same version */
	SSH_PROBE_UNREACHABLE, /* ssh itself failed (255) or timed out */
	SSH_PROBE_MISSING, /* no raidlab in the remote PATH */
	SSH_PROBE_VERSION, /* raidlab there reports another version */
	SSH_PROBE_FAILED, /* raidlab --version failed or said nothing */
};

struct ssh_probe {
	enum ssh_probe_state state;
	char path[256]; /* where the remote `command -v raidlab` found it */
	char version[64]; /* "0.1.0" from its `raidlab --version`; may be
			     "" */
};

/*
 * The remote command line for argv: each word single-quoted unless it
 * holds only [A-Za-z0-9_./,:@%+-] (and is not empty), a quote in a word
 * written '\'', words joined by one space. A POSIX shell parses it back
 * into exactly argv. Caller frees.
 */
char *ssh_quote(const char *const *argv);

/*
 * The ssh client's argv for running remote on h: ssh [-F config] -o
 * BatchMode=yes -o ConnectTimeout=N -o ServerAlive... -T -e none [-l user]
 * [-p port] -- address 'remote line'. NULL-terminated; free each string
 * and the vector with ssh_argv_free(). NULL when h has no address or one
 * starting with '-', or remote is empty.
 */
char **ssh_argv(const struct ssh_host *h, const char *const *remote);
void ssh_argv_free(char **argv);

/* h's name for messages: name, else address. */
const char *ssh_host_name(const struct ssh_host *h);

/*
 * Run remote (an argv vector, see ssh_quote()) on h. o works as for
 * exec_run() (timeout, stdin_path, on_line for stdout's lines and
 * on_err_line for stderr's, both on this thread while it runs), except
 * that stdout and stderr are always apart: r->output holds the remote
 * stdout, r->errput the remote stderr together with ssh's own messages.
 * r->status is the remote exit status. o may be NULL.
 *
 * Returns 0 when the remote command exited 0. Otherwise a negative errno
 * with a translated sentence naming the host in e (may be NULL):
 * -EHOSTUNREACH when ssh exited 255 (e quotes ssh's reason, such as
 * "Connection refused" or "Host key verification failed."), -ETIMEDOUT,
 * -EPROTO for another non-zero status, -EINTR when ssh was killed, -ENOENT
 * when ssh is not installed here, -EINVAL for an unusable h. r is always
 * filled; exec_result_done() frees it.
 */
int ssh_run(const struct ssh_host *h, const char *const *remote,
    const struct exec_opts *o, struct exec_result *r, struct err *e);

/*
 * Copy the local file path to h, as NAME (a file name, no '/') in a new
 * directory made there by `mktemp -d` (mode 0700, under the remote
 * TMPDIR or /tmp); *remote gets that file's full path (caller frees).
 * timeout in seconds, 0: none. 0 or a negative errno as ssh_run(), and
 * -EINVAL for a bad name; a local file that cannot be read is reported as
 * such, before ssh runs.
 */
int ssh_copy(const struct ssh_host *h, const char *path, const char *name,
    double timeout, char **remote, struct err *e);

/*
 * Remove what ssh_copy() made: the file remote and its directory, which
 * must then be empty; both already gone is no error. 0 or a negative
 * errno as ssh_run().
 */
int ssh_uncopy(const struct ssh_host *h, const char *remote, double timeout,
    struct err *e);

/*
 * Can h run a lab: is it reachable, is raidlab in the PATH of a
 * non-interactive ssh session there (`command -v raidlab`), and does its
 * `raidlab --version` report version (ours, as "0.1.0")? One ssh
 * connection. p gets the state, and e a sentence naming the host for
 * each failure. Returns 0 (SSH_PROBE_OK), -ENOENT (missing), -ESTALE
 * (another version), -EPROTO (failed), or for an unreachable host
 * ssh_run()'s code (-EHOSTUNREACH, -ETIMEDOUT, and -ENOENT when ssh
 * itself is missing here): p->state tells them apart.
 */
int ssh_probe(const struct ssh_host *h, const char *version, double timeout,
    struct ssh_probe *p, struct err *e);

#endif
