/*
 * The ssh transport: the remote command line quoted for a POSIX shell, the
 * client's argv, and one remote command run through exec_run() with its
 * failures told apart (ssh's own 255 against the command's status). Any
 * thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "ssh.h"

/* The most words ssh_argv() adds around the remote line. */
#define SSH_ARGV_MAX 24

char *
ssh_quote(const char *const *argv)
{
	/* '=' is left out (a first word holding one is an assignment),
	   '~' too (tilde expansion). */
	return exec_quote_argv(argv, "_./,:@%+-");
}

const char *
ssh_host_name(const struct ssh_host *h)
{
	if (h->name != NULL && *h->name != '\0')
		return h->name;
	return h->address != NULL ? h->address : "";
}

char **
ssh_argv(const struct ssh_host *h, const char *const *remote)
{
	char **v;
	size_t n = 0;

	/* ssh would read a leading '-' as an option even after "--" on
	   some versions; refuse it rather than rely on that. */
	if (h->address == NULL || *h->address == '\0' || *h->address == '-' ||
	    remote == NULL || remote[0] == NULL)
		return NULL;
	v = xcalloc(SSH_ARGV_MAX + 1, sizeof *v);
	v[n++] = xstrdup("ssh");
	if (h->config != NULL) {
		v[n++] = xstrdup("-F");
		v[n++] = xstrdup(h->config);
	}
	v[n++] = xstrdup("-o");
	v[n++] = xstrdup("BatchMode=yes");
	v[n++] = xstrdup("-o");
	v[n++] = xasprintf("ConnectTimeout=%d",
	    h->connect_timeout > 0 ? h->connect_timeout : SSH_CONNECT_TIMEOUT);
	v[n++] = xstrdup("-o");
	v[n++] = xasprintf("ServerAliveInterval=%d", SSH_ALIVE_INTERVAL);
	v[n++] = xstrdup("-o");
	v[n++] = xasprintf("ServerAliveCountMax=%d", SSH_ALIVE_COUNT);
	/* No terminal, and no escape character: stdin may be a file. */
	v[n++] = xstrdup("-T");
	v[n++] = xstrdup("-e");
	v[n++] = xstrdup("none");
	if (h->user != NULL) {
		v[n++] = xstrdup("-l");
		v[n++] = xstrdup(h->user);
	}
	if (h->port > 0) {
		v[n++] = xstrdup("-p");
		v[n++] = xasprintf("%d", h->port);
	}
	v[n++] = xstrdup("--");
	v[n++] = xstrdup(h->address);
	/* One word: ssh would join several with spaces, losing the
	   boundaries the quoting keeps. */
	v[n++] = ssh_quote(remote);
	v[n] = NULL;
	return v;
}

void
ssh_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

/* The line of r's stderr (else stdout) that says why, made safe. */
static char *
why(const struct exec_result *r)
{
	char line[512];

	exec_why_line(r->errput != NULL ? r->errput : "", line, sizeof line);
	if (line[0] == '\0')
		exec_why_line(r->output != NULL ? r->output : "", line,
		    sizeof line);
	return textsafe_dup(line, 0);
}

/* The sentence for a failed ssh_run() into e; returns code. */
static int
fail(const struct ssh_host *h, const char *const *remote,
    const struct exec_result *r, int code, struct err *e)
{
	const char *host = ssh_host_name(h);
	char *w = why(r), *cmd = textsafe_dup(remote[0], 0), d[256];

	if (code == -EHOSTUNREACH)
		/* TRANSLATORS: %s is a host, then ssh's own message. */
		err_setf(e, code, _("could not reach %s: %s"), host,
		    *w != '\0' ? w : _("ssh failed without a message"));
	else if (code == -ENOENT)
		err_setf(e, code, _("ssh is not installed here (%s)"),
		    "openssh-client");
	else if (r->timed_out)
		err_setf(e, code, _("%s: no answer within %g s"), host,
		    r->timeout);
	else
		/* TRANSLATORS: host, command, "exit status 2", its reason. */
		err_setf(e, code, _("%s: %s failed (%s)%s%s"), host, cmd,
		    exec_result_describe(r, d, sizeof d), *w ? ": " : "", w);
	free(w);
	free(cmd);
	return code;
}

int
ssh_run(const struct ssh_host *h, const char *const *remote,
    const struct exec_opts *o, struct exec_result *r, struct err *e)
{
	struct exec_opts so = { 0 };
	char **argv = ssh_argv(h, remote);
	int rc;

	if (o != NULL)
		so = *o;
	so.split_stderr = true;
	if (argv == NULL) {
		exec_run(NULL, &so, r); /* fills r: it is always filled */
		return err_setf(e, -EINVAL, _("%s: no usable address for ssh"),
		    ssh_host_name(h));
	}
	rc = exec_run((const char *const *)argv, &so, r);
	ssh_argv_free(argv);
	if (rc == 0)
		return 0;
	if (r->err == ENOENT)
		rc = -ENOENT;
	else if (!r->timed_out && r->status == SSH_STATUS_UNREACHABLE)
		rc = -EHOSTUNREACH;
	return fail(h, remote, r, rc, e);
}
