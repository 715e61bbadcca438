/*
 * What a fleet asks of a host before a run, each through one ssh_run():
 * a file copied there into a directory of its own, that copy removed,
 * and the probe (reachable, raidlab installed, the same version). The
 * remote side needs only a POSIX sh, mktemp and cat. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "ssh.h"

/*
 * The file arrives as "$1" in a fresh directory; a failed cat leaves
 * nothing behind. umask 077: a lab may name the user's devices.
 */
static const char copy_script[] =
    "umask 077; d=$(mktemp -d \"${TMPDIR:-/tmp}/raidlab.XXXXXX\") "
    "|| exit 1; cat >\"$d/$1\" || { rm -rf -- \"$d\"; exit 1; }; "
    "printf '%s\\n' \"$d/$1\"";
/* Also when the copy is gone already (removed by a session's shell). */
static const char uncopy_script[] =
    "rm -f -- \"$1\" && { [ ! -d \"${1%/*}\" ] || rmdir -- \"${1%/*}\"; }";
/* The path on the first line, the version on the second; nothing on
   stdout when raidlab is missing. */
static const char probe_script[] =
    "command -v raidlab || exit 3; exec raidlab --version";

/* The first line of s, as a new string. */
static char *
first_line(const char *s)
{
	return xasprintf("%.*s", (int)strcspn(s, "\n"), s);
}

/* A file name of its own: not empty, no '/', no newline, not . or .. */
static bool
name_ok(const char *name)
{
	return name != NULL && *name != '\0' && strpbrk(name, "/\n") == NULL &&
	    strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

int
ssh_copy(const struct ssh_host *h, const char *path, const char *name,
    double timeout, char **remote, struct err *e)
{
	const char *argv[] = { "sh", "-c", copy_script, "sh", name, NULL };
	struct exec_opts o = { .timeout = timeout, .stdin_path = path };
	struct exec_result r;
	char eb[128];
	int fd, rc;

	*remote = NULL;
	if (!name_ok(name))
		return err_setf(e, -EINVAL, _("%s: not a file name: %s"),
		    ssh_host_name(h), name != NULL ? name : "");
	/* exec_run() would report an unreadable stdin as ssh failing. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		rc = -errno;
		return err_setf(e, rc, _("cannot read %s: %s"), path,
		    strerror_r(-rc, eb, sizeof eb));
	}
	close(fd);
	rc = ssh_run(h, argv, &o, &r, e);
	if (rc == 0) {
		*remote = first_line(r.output);
		if (**remote != '/') {
			free(*remote);
			*remote = NULL;
			rc = err_setf(e, -EPROTO,
			    _("%s: the copy gave no remote path"),
			    ssh_host_name(h));
		}
	}
	exec_result_done(&r);
	return rc;
}

int
ssh_uncopy(const struct ssh_host *h, const char *remote, double timeout,
    struct err *e)
{
	const char *argv[] = { "sh", "-c", uncopy_script, "sh", remote, NULL };
	struct exec_opts o = { .timeout = timeout };
	struct exec_result r;
	int rc;

	rc = ssh_run(h, argv, &o, &r, e);
	exec_result_done(&r);
	return rc;
}

/* The state and sentence for what the probe script printed. */
static int
probe_judge(const struct ssh_host *h, const char *version, int rc,
    const struct exec_result *r, struct ssh_probe *p, struct err *e)
{
	const char *host = ssh_host_name(h), *nl = strchr(r->output, '\n');
	char *line = first_line(nl != NULL ? nl + 1 : ""), *safe, d[128];

	snprintf(p->path, sizeof p->path, "%.*s", (int)strcspn(r->output, "\n"),
	    r->output);
	if (strncmp(line, "raidlab ", 8) == 0)
		snprintf(p->version, sizeof p->version, "%s", line + 8);
	free(line);
	if (p->path[0] == '\0') {
		p->state = SSH_PROBE_MISSING;
		rc = err_setf(e, -ENOENT,
		    _("%s: raidlab is not installed there (not in the PATH "
		      "of an ssh session)"),
		    host);
	} else if (rc < 0 || p->version[0] == '\0') {
		p->state = SSH_PROBE_FAILED;
		safe = textsafe_dup(p->path, 0);
		if (rc == 0)
			err_setf(e, -EPROTO,
			    _("%s: %s --version printed no raidlab version"),
			    host, safe);
		else
			/* TRANSLATORS: host, path, "exit status 2". */
			err_setf(e, -EPROTO, _("%s: %s --version failed (%s)"),
			    host, safe, exec_result_describe(r, d, sizeof d));
		rc = -EPROTO;
		free(safe);
	} else if (strcmp(p->version, version) != 0) {
		p->state = SSH_PROBE_VERSION;
		safe = textsafe_dup(p->version, 0);
		rc = err_setf(e, -ESTALE,
		    _("%s: raidlab %s there, %s here: every host needs the "
		      "same version"),
		    host, safe, version);
		free(safe);
	} else {
		p->state = SSH_PROBE_OK;
	}
	return rc;
}

int
ssh_probe(const struct ssh_host *h, const char *version, double timeout,
    struct ssh_probe *p, struct err *e)
{
	const char *argv[] = { "sh", "-c", probe_script, NULL };
	struct exec_opts o = { .timeout = timeout };
	struct exec_result r;
	int rc;

	memset(p, 0, sizeof *p);
	rc = ssh_run(h, argv, &o, &r, e);
	if (rc == -EHOSTUNREACH || rc == -ETIMEDOUT || rc == -ENOENT ||
	    rc == -EINVAL || r.signal != 0)
		p->state = SSH_PROBE_UNREACHABLE;
	else
		rc = probe_judge(h, version, rc, &r, p, e);
	exec_result_done(&r);
	return rc;
}
