/*
 * src/fleet/ssh for the shell tests (tests/system/fleet-ssh.sh): each
 * call of the module as a command, with what it returned printed so that
 * a script can check it. Not a test itself; built by make check.
 *
 *   ssh-tool CONFIG ADDRESS probe VERSION
 *   ssh-tool CONFIG ADDRESS run [-t SECONDS] [-i FILE] -- ARG...
 *   ssh-tool CONFIG ADDRESS copy FILE NAME
 *   ssh-tool CONFIG ADDRESS uncopy REMOTE
 *
 * Prints "out: LINE" and "err: LINE" as run's lines arrive (flushed),
 * then "rc: N" (the function's return), "status: N" and "msg: SENTENCE"
 * when it failed; probe adds "state: NAME", copy "remote: PATH". Exits 0
 * when the call returned 0, else 1; 2 for a bad command line.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "build/exec.h"
#include "fleet/ssh.h"

/* Not an errno: the command line was wrong. */
#define USAGE INT_MIN

static void
on_out(void *arg, const char *line)
{
	(void)arg;
	printf("out: %s\n", line);
	fflush(stdout);
}

static void
on_err(void *arg, const char *line)
{
	(void)arg;
	printf("err: %s\n", line);
	fflush(stdout);
}

static int
run(const struct ssh_host *h, int argc, char **argv, struct err *e)
{
	struct exec_opts o = { .on_line = on_out, .on_err_line = on_err };
	struct exec_result r;
	int i = 0, rc;

	while (i < argc && strcmp(argv[i], "--") != 0) {
		if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			o.timeout = atof(argv[++i]);
		else if (strcmp(argv[i], "-i") == 0 && i + 1 < argc)
			o.stdin_path = argv[++i];
		else
			return USAGE;
		i++;
	}
	if (i >= argc)
		return USAGE;
	rc = ssh_run(h, (const char *const *)argv + i + 1, &o, &r, e);
	printf("status: %d\n", r.status);
	exec_result_done(&r);
	return rc;
}

static const char *const states[] = { "ok", "unreachable", "missing", "version",
	"failed" };

int
main(int argc, char **argv)
{
	struct ssh_host h = { 0 };
	struct ssh_probe p;
	struct err e;
	char *remote = NULL;
	int rc = USAGE;

	err_clear(&e);
	if (argc < 4)
		return 2;
	h.config = argv[1];
	h.address = argv[2];
	if (strcmp(argv[3], "probe") == 0 && argc == 5) {
		rc = ssh_probe(&h, argv[4], 30, &p, &e);
		printf("state: %s\npath: %s\nversion: %s\n", states[p.state],
		    p.path, p.version);
	} else if (strcmp(argv[3], "run") == 0) {
		rc = run(&h, argc - 4, argv + 4, &e);
	} else if (strcmp(argv[3], "copy") == 0 && argc == 6) {
		rc = ssh_copy(&h, argv[4], argv[5], 30, &remote, &e);
		printf("remote: %s\n", remote != NULL ? remote : "");
		free(remote);
	} else if (strcmp(argv[3], "uncopy") == 0 && argc == 5) {
		rc = ssh_uncopy(&h, argv[4], 30, &e);
	}
	if (rc == USAGE)
		return 2;
	printf("rc: %d\n", rc);
	if (rc != 0)
		printf("msg: %s\n", e.msg);
	return rc == 0 ? 0 : 1;
}
