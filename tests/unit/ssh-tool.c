/*
 * src/fleet/ssh for the shell tests (tests/system/fleet-ssh.sh): each
 * call of the module as a command, with what it returned printed so that
 * a script can check it. Not a test itself; built by make check.
 *
 *   ssh-tool CONFIG ADDRESS probe VERSION
 *   ssh-tool CONFIG ADDRESS,ADDRESS... probe VERSION
 *   ssh-tool CONFIG ADDRESS run [-t SECONDS] [-i FILE] -- ARG...
 *   ssh-tool CONFIG ADDRESS copy FILE NAME
 *   ssh-tool CONFIG ADDRESS uncopy REMOTE
 *
 * Prints "out: LINE" and "err: LINE" as run's lines arrive (flushed),
 * then "rc: N" (the function's return), "status: N" and "msg: SENTENCE"
 * when it failed; probe adds "state: NAME", copy "remote: PATH". Several
 * addresses are probed at once, a thread each, as a fleet runner would,
 * and print "ADDRESS state: NAME" lines. Exits 0 when the call returned
 * 0 (every call, for several), else 1; 2 for a bad command line.
 */
#include "config.h"

#include <limits.h>
#include <pthread.h>
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

/* One host's probe on its own thread. */
struct probe_job {
	pthread_t t;
	struct ssh_host h;
	const char *version;
	struct ssh_probe p;
	struct err e;
	int rc;
};

static void *
probe_thread(void *arg)
{
	struct probe_job *j = arg;

	err_clear(&j->e);
	j->rc = ssh_probe(&j->h, j->version, 30, &j->p, &j->e);
	return NULL;
}

/* Probe each address of the comma-separated list at once. */
static int
probe_many(const char *config, char *list, const char *version)
{
	struct probe_job j[16];
	char *save = NULL, *a;
	size_t n = 0, i;
	int bad = 0;

	for (a = strtok_r(list, ",", &save); a != NULL && n < 16;
	     a = strtok_r(NULL, ",", &save)) {
		memset(&j[n], 0, sizeof j[n]);
		j[n].h.config = config;
		j[n].h.address = a;
		j[n].version = version;
		if (pthread_create(&j[n].t, NULL, probe_thread, &j[n]) != 0)
			return 1;
		n++;
	}
	for (i = 0; i < n; i++) {
		pthread_join(j[i].t, NULL);
		printf("%s state: %s\n", j[i].h.address, states[j[i].p.state]);
		bad |= j[i].rc != 0;
	}
	return bad;
}

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
	if (strcmp(argv[3], "probe") == 0 && argc == 5 &&
	    strchr(argv[2], ',') != NULL)
		return probe_many(argv[1], argv[2], argv[4]);
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
