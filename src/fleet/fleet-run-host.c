/*
 * One host's worker in the fleet controller (fleet-run.h): probe the
 * host, copy the lab there, run its raidlab in one ssh session whose
 * stdin is a pipe the controller writes and whose stderr carries the
 * protocol lines (fleet-proto.h), take the record from its stdout, and
 * remove the copied lab. Its own thread, which blocks every signal; it
 * touches the run only under fr->mu, its host's atomics, and the event
 * queue.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "fleet-proto.h"
#include "fleet-run-int.h"
#include "lab/lab.h"

/* Bounds for the steps around the session (seconds). */
#define PROBE_TIMEOUT 30.0
#define COPY_TIMEOUT 60.0

static bool
stopping(struct fleet_run *fr)
{
	bool s;

	pthread_mutex_lock(&fr->mu);
	s = fr->stop;
	pthread_mutex_unlock(&fr->mu);
	return s;
}

static void
store_dbl(_Atomic uint64_t *a, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof u);
	atomic_store_explicit(a, u, memory_order_relaxed);
}

/* The lab's index of variant or workload name; -1. */
static int
variant_index(const struct lab *lab, const char *name)
{
	for (size_t i = 0; i < lab->nvariants; i++)
		if (lab->variants[i].name != NULL &&
		    strcmp(lab->variants[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int
workload_index(const struct lab *lab, const char *name)
{
	for (size_t i = 0; i < lab->nworkloads; i++)
		if (strcmp(lab_workload_name(&lab->workloads[i]), name) == 0)
			return (int)i;
	return -1;
}

static void
on_live(struct fleet_host *h, const struct fleet_msg *m)
{
	const struct lab *lab = h->fr->lab;

	atomic_store_explicit(&h->variant, variant_index(lab, m->variant),
	    memory_order_relaxed);
	atomic_store_explicit(&h->workload, workload_index(lab, m->workload),
	    memory_order_relaxed);
	atomic_store_explicit(&h->round, m->round, memory_order_relaxed);
	store_dbl(&h->rd, m->read_mbps);
	store_dbl(&h->wr, m->write_mbps);
	store_dbl(&h->fs, m->files_s);
	atomic_store_explicit(&h->live, true, memory_order_relaxed);
}

/* A line of the host's stderr (exec's on_err_line); ssh's own end in
   "\r", which is no part of them. */
static void
on_line(void *arg, const char *raw)
{
	struct fleet_host *h = arg;
	struct fleet_run *fr = h->fr;
	char line[EXEC_LINE_MAX + 1], *safe;
	size_t n = strlen(raw);
	struct fleet_msg m;

	if (n > 0 && raw[n - 1] == '\r')
		n--;
	snprintf(line, sizeof line, "%.*s", (int)n, raw);
	switch (fleet_proto_parse(line, &m)) {
	case FLEET_MSG_READY:
		pthread_mutex_lock(&fr->mu);
		h->ready = true;
		pthread_mutex_unlock(&fr->mu);
		/* It ran another host's share: its record would be filed
		   under the wrong name. */
		if (strcmp(m.host, h->lh->name) != 0)
			fleet_emit(fr, FLEET_EV_ERROR, (int)h->index,
			    _("%s: its raidlab runs the share of host %s"),
			    h->ssh.name, m.host);
		break;
	case FLEET_MSG_WAIT:
		atomic_store_explicit(&h->round, m.round, memory_order_relaxed);
		fleet_barrier_wait(h, m.round);
		break;
	case FLEET_MSG_LIVE:
		on_live(h, &m);
		break;
	case FLEET_MSG_DONE:
		pthread_mutex_lock(&fr->mu);
		h->done_line = true;
		h->ran = m.ran;
		h->failed = m.failed;
		pthread_mutex_unlock(&fr->mu);
		atomic_store_explicit(&h->live, false, memory_order_relaxed);
		break;
	case FLEET_MSG_BAD:
		safe = textsafe_dup(line, 0);
		fleet_emit(fr, FLEET_EV_ERROR, (int)h->index,
		    _("%s: a line of another fleet protocol, or a broken one "
		      "(is raidlab there the same version?): %s"),
		    h->ssh.name, safe);
		free(safe);
		break;
	default:
		safe = textsafe_dup(line, 0);
		fleet_emit(fr, FLEET_EV_MESSAGE, (int)h->index, "%s: %s",
		    h->lh->name, safe);
		free(safe);
		break;
	}
}

static void
on_start(void *arg, pid_t pid)
{
	struct fleet_host *h = arg;

	pthread_mutex_lock(&h->fr->mu);
	h->pid = pid;
	pthread_mutex_unlock(&h->fr->mu);
}

/* The probe; false (the host's final state set) when it cannot run. */
static bool
probe(struct fleet_host *h)
{
	static const enum fleet_host_state st[] = {
		[SSH_PROBE_OK] = FLEET_HOST_DONE,
		[SSH_PROBE_UNREACHABLE] = FLEET_HOST_UNREACHABLE,
		[SSH_PROBE_MISSING] = FLEET_HOST_MISSING,
		[SSH_PROBE_VERSION] = FLEET_HOST_VERSION,
		[SSH_PROBE_FAILED] = FLEET_HOST_FAILED,
	};
	struct ssh_probe p;
	struct err e;

	fleet_host_set(h, FLEET_HOST_PROBING, _("%s: checking raidlab there"),
	    h->ssh.name);
	err_clear(&e);
	memset(&p, 0, sizeof p);
	if (ssh_probe(&h->ssh, h->fr->version, PROBE_TIMEOUT, &p, &e) == 0)
		return true;
	fleet_host_set(h,
	    p.state < sizeof st / sizeof *st ? st[p.state] : FLEET_HOST_FAILED,
	    "%s", e.msg);
	return false;
}

/* The last line of errput that is not a protocol line: ssh's own
   reason, when the session broke. */
static void
ssh_reason(const char *errput, char *buf, size_t len)
{
	const char *p = errput != NULL ? errput : "", *best = NULL;
	size_t n = 0;

	while (*p != '\0') {
		size_t k = strcspn(p, "\n");

		if (k > 0 && strncmp(p, "@fleet", 6) != 0) {
			best = p;
			/* ssh ends its own lines with "\r\n" */
			n = k > 0 && p[k - 1] == '\r' ? k - 1 : k;
		}
		p += k + (p[k] == '\n');
	}
	/* it goes before a ';' */
	if (best != NULL && n > 0 && best[n - 1] == '.')
		n--;
	if (best == NULL || n == 0)
		snprintf(buf, len, "%s", _("the connection ended"));
	else
		snprintf(buf, len, "%.*s", (int)n, best);
}

/* How the session ended, as the host's final state. */
static void
judge(struct fleet_host *h, int rc, const struct exec_result *r,
    const struct err *e, int taken)
{
	struct fleet_run *fr = h->fr;
	long round = atomic_load(&h->round), ran, failed;
	bool stop, done;
	char why[512], d[128];

	pthread_mutex_lock(&fr->mu);
	stop = fr->stop;
	done = h->done_line;
	ran = h->ran;
	failed = h->failed;
	fr->sum.ran += ran;
	fr->sum.failed += failed;
	pthread_mutex_unlock(&fr->mu);
	if (rc == -EHOSTUNREACH && !done && !stop) {
		char *safe;

		ssh_reason(r->errput, why, sizeof why);
		safe = textsafe_dup(why, 0);
		/* Its raidlab may have stopped and printed its record
		   before the connection closed: then what it ran is kept,
		   as an interrupted record. */
		if (round > 0 && taken == 0)
			fleet_host_set(h, FLEET_HOST_UNREACHABLE,
			    _("%s went away during round %ld: %s; the runs it "
			      "finished are kept in its record, marked "
			      "interrupted"),
			    h->ssh.name, round, safe);
		else if (round > 0)
			fleet_host_set(h, FLEET_HOST_UNREACHABLE,
			    _("%s went away during round %ld: %s; its runs "
			      "are lost"),
			    h->ssh.name, round, safe);
		else
			fleet_host_set(h, FLEET_HOST_UNREACHABLE,
			    _("%s went away before its first round: %s; its "
			      "runs are lost"),
			    h->ssh.name, safe);
		free(safe);
	} else if (rc == 0 && taken == 0 && failed == 0) {
		/* also when a stop came after its runs ended */
		fleet_host_set(h, FLEET_HOST_DONE,
		    ngettext("%s: done, %ld run", "%s: done, %ld runs",
			(unsigned long)ran),
		    h->ssh.name, ran);
	} else if (stop) {
		fleet_host_set(h, FLEET_HOST_STOPPED, _("%s: stopped"),
		    h->ssh.name);
	} else if (done && failed > 0) {
		fleet_host_set(h, FLEET_HOST_FAILED,
		    ngettext("%s: %ld run failed there (of %ld)",
			"%s: %ld runs failed there (of %ld)",
			(unsigned long)failed),
		    h->ssh.name, failed, ran + failed);
	} else if (rc != 0) {
		fleet_host_set(h, FLEET_HOST_FAILED,
		    _("%s: its raidlab failed (%s)"), h->ssh.name,
		    rc == -EHOSTUNREACH ? e->msg
					: exec_result_describe(r, d, sizeof d));
	} else {
		fleet_host_set(h, FLEET_HOST_FAILED,
		    _("%s: its record could not be kept"), h->ssh.name);
	}
}

/* The ssh session that runs the host's raidlab on the copied lab. */
static void
session(struct fleet_host *h)
{
	struct fleet_run *fr = h->fr;
	struct exec_opts o = { .on_err_line = on_line,
		.on_start = on_start,
		.arg = h,
		.output_whole = true };
	struct exec_result r;
	int p[2], rc, taken = -ENODATA;
	struct err e;

	if (pipe2(p, O_CLOEXEC) < 0) {
		fleet_host_set(h, FLEET_HOST_FAILED,
		    _("%s: cannot make a pipe: %s"), h->ssh.name,
		    strerror(errno));
		return;
	}
	pthread_mutex_lock(&fr->mu);
	if (fr->stop) {
		pthread_mutex_unlock(&fr->mu);
		close(p[0]);
		close(p[1]);
		fleet_host_set(h, FLEET_HOST_STOPPED, _("%s: stopped"),
		    h->ssh.name);
		return;
	}
	/* Written under fr->mu: a session that stops reading must fail
	   the write (EAGAIN), not block every host's barrier. */
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	h->stdin_w = p[1];
	pthread_mutex_unlock(&fr->mu);
	o.stdin_fd = p[0];
	fleet_host_set(h, FLEET_HOST_RUNNING, _("%s: running"), h->ssh.name);
	err_clear(&e);
	rc = ssh_run(&h->ssh, (const char *const *)h->remote, &o, &r, &e);
	pthread_mutex_lock(&fr->mu);
	h->pid = 0;
	if (h->stdin_w >= 0)
		close(h->stdin_w);
	h->stdin_w = -1;
	pthread_mutex_unlock(&fr->mu);
	close(p[0]);
	atomic_store_explicit(&h->live, false, memory_order_relaxed);
	/* It no longer counts at the barrier, before its state says so. */
	fleet_barrier_wait(h, 0);
	if (r.output != NULL && r.output[strspn(r.output, " \n")] != '\0')
		taken = fleet_record_take(h, r.output);
	else if (rc == 0)
		taken = fleet_record_take(h, "");
	judge(h, rc, &r, &e, taken);
	exec_result_done(&r);
}

/*
 * Removes the copied lab once raidlab there has exited, whatever ended
 * it: the host's own shell does it, so a controller that was killed or
 * lost its connection (the host then stops on end of file) still leaves
 * no copy behind. $1 is the copy; the rest is raidlab's command.
 */
static const char session_script[] =
    "l=$1; shift; \"$@\"; s=$?; rm -f -- \"$l\"; "
    "rmdir -- \"${l%/*}\" 2>/dev/null; exit $s";

/* The remote command: raidlab's, its lab the copy, under the shell
   that removes the copy after it. */
static void
set_lab_arg(struct fleet_host *h, const char *copy)
{
	size_t n = 0;
	char **v;

	while (h->remote[n] != NULL)
		n++;
	free(h->remote[n - 1]);
	h->remote[n - 1] = xstrdup(copy);
	/* The shell's 5 words, raidlab's n, and the NULL. */
	v = xcalloc(n + 6, sizeof *v);
	v[0] = xstrdup("sh");
	v[1] = xstrdup("-c");
	v[2] = xstrdup(session_script);
	v[3] = xstrdup("sh");
	v[4] = xstrdup(copy);
	memcpy(v + 5, h->remote, n * sizeof *v);
	free(h->remote);
	h->remote = v;
}

void *
fleet_host_main(void *arg)
{
	struct fleet_host *h = arg;
	struct fleet_run *fr = h->fr;
	const char *base = strrchr(fr->lab_path, '/');
	char *copy = NULL;
	struct err e;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (stopping(fr)) {
		fleet_host_set(h, FLEET_HOST_STOPPED, _("%s: stopped"),
		    h->ssh.name);
		goto out;
	}
	if (!probe(h))
		goto out;
	if (stopping(fr)) {
		fleet_host_set(h, FLEET_HOST_STOPPED, _("%s: stopped"),
		    h->ssh.name);
		goto out;
	}
	fleet_host_set(h, FLEET_HOST_COPYING, _("%s: copying the lab"),
	    h->ssh.name);
	err_clear(&e);
	if (ssh_copy(&h->ssh, fr->lab_path,
		base != NULL ? base + 1 : fr->lab_path, COPY_TIMEOUT, &copy,
		&e) < 0) {
		fleet_host_set(h,
		    e.code == -EHOSTUNREACH ? FLEET_HOST_UNREACHABLE
					    : FLEET_HOST_FAILED,
		    "%s", e.msg);
		goto out;
	}
	set_lab_arg(h, copy);
	session(h);
	err_clear(&e);
	/* The session's shell removed the copy; this is for a session
	   that did not start its shell. */
	if (atomic_load(&h->state) != FLEET_HOST_UNREACHABLE &&
	    ssh_uncopy(&h->ssh, copy, COPY_TIMEOUT, &e) < 0)
		fleet_emit(fr, FLEET_EV_ERROR, (int)h->index,
		    _("%s: the copied lab %s is left there: %s"), h->ssh.name,
		    copy, e.msg);
out:
	free(copy);
	fleet_barrier_wait(h, 0);
	pthread_mutex_lock(&fr->mu);
	if (atomic_load(&h->state) == FLEET_HOST_DONE)
		fr->sum.hosts_ok++;
	else
		fr->sum.hosts_failed++;
	fr->running--;
	pthread_cond_broadcast(&fr->cond);
	pthread_mutex_unlock(&fr->mu);
	return NULL;
}
