/*
 * `raidlab run --fleet-host`'s lines and channel: see cli-run-fleet.h.
 * Main thread; the runner's thread only waits in fleet_host_gate().
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/tick.h"
#include "cli-run-fleet.h"
#include "cli-run-live.h"
#include "cli.h"
#include "fleet/fleet-host.h"
#include "fleet/fleet-proto.h"
#include "lab/lab.h"
#include "run/labrun.h"

/* About once a second (fleet-proto.h), whatever the tick. */
#define LIVE_EVERY_S 1.0

/* One protocol line, in one write(2) so that it is never split by a
   message of ours. */
static void
say(const struct fleet_msg *m)
{
	char line[FLEET_PROTO_LINE];
	int n = fleet_proto_format(m, line, sizeof line);

	if (n < 0)
		return;
	for (ssize_t k, done = 0; done < n; done += k)
		if ((k = write(STDERR_FILENO, line + done,
			 (size_t)(n - done))) < 0) {
			if (errno != EINTR)
				return;
			k = 0;
		}
}

/* No such host: said with the ones there are. */
static void
no_host(const struct run_fleet *rf, const struct lab *lab)
{
	struct strbuf b;

	strbuf_init(&b);
	for (size_t i = 0; i < lab->nhosts; i++)
		if (lab->hosts[i].name != NULL)
			strbuf_printf(&b, "%s%s", b.len ? ", " : "",
			    lab->hosts[i].name);
	if (b.len > 0)
		cli_error(&cli_run,
		    _("--fleet-host %s: %s has no host named so (its hosts: "
		      "%s)"),
		    rf->host, lab->path, b.s);
	else
		cli_error(&cli_run, _("--fleet-host %s: %s has no hosts list"),
		    rf->host, lab->path);
	strbuf_done(&b);
}

/* A -v name of a variant that is not the host's: said, true. */
static bool
not_here(const struct run_fleet *rf, const struct lab *lab, const bool *on,
    char **names, size_t n)
{
	bool bad = false;

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < lab->nvariants; i++)
			if (lab->variants[i].name != NULL &&
			    strcmp(lab->variants[i].name, names[k]) == 0 &&
			    !on[i]) {
				cli_error(&cli_run,
				    _("%s: variant %s is not placed on host "
				      "%s"),
				    lab->path, names[k], rf->host);
				bad = true;
			}
	return bad;
}

int
run_fleet_select(const struct run_fleet *rf, struct lab *lab, char **names,
    size_t n, bool **sel)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	bool *on = xcalloc(lab->nvariants + 1, sizeof *on), any = false;
	struct errlist errs;
	int rc;

	*sel = NULL;
	errlist_init(&errs);
	rc = lab_host_localize(lab, rf->host, on, &errs);
	for (size_t i = 0; i < errs.n; i++)
		cli_fprintf(stderr, "%s\n",
		    err_format(&errs.v[i], b, sizeof b));
	errlist_done(&errs);
	if (rc == -ENOENT)
		no_host(rf, lab);
	if (rc < 0 || not_here(rf, lab, on, names, n)) {
		free(on);
		return CLI_USAGE;
	}
	for (size_t i = 0; i < lab->nvariants; i++) {
		bool named = n == 0;

		for (size_t k = 0; k < n && !named; k++)
			named = lab->variants[i].name != NULL &&
			    strcmp(lab->variants[i].name, names[k]) == 0;
		on[i] = on[i] && named;
		any = any || on[i];
	}
	if (!any) {
		cli_error(&cli_run, _("%s: no variant is placed on host %s"),
		    lab->path, rf->host);
		free(on);
		return CLI_USAGE;
	}
	*sel = on;
	return CLI_OK;
}

void
run_fleet_ready(const struct run_fleet *rf)
{
	struct fleet_msg m = { .kind = FLEET_MSG_READY };

	snprintf(m.host, sizeof m.host, "%s", rf->host);
	snprintf(m.version, sizeof m.version, "%s", PACKAGE_VERSION);
	say(&m);
}

void
run_fleet_done(const struct run_fleet *rf, long ran, long failed)
{
	struct fleet_msg m = { .kind = FLEET_MSG_DONE };

	(void)rf;
	m.ran = ran;
	m.failed = failed;
	say(&m);
}

bool
run_fleet_open(struct run_fleet *rf, struct labrun_opts *lo)
{
	if ((rf->fh = fleet_host_new(STDIN_FILENO)) == NULL) {
		cli_error(&cli_run, _("--fleet-host: %s"), strerror(errno));
		return false;
	}
	if (rf->barrier) {
		lo->before_round = fleet_host_gate;
		lo->before_round_arg = rf->fh;
	}
	return true;
}

void
run_fleet_close(struct run_fleet *rf)
{
	fleet_host_free(rf->fh);
	rf->fh = NULL;
}

int
run_fleet_pollfds(const struct run_fleet *rf, struct pollfd *p)
{
	int n = 0;

	if (rf->fh == NULL)
		return 0;
	if (!rf->closed)
		p[n++] = (struct pollfd){ fleet_host_fd(rf->fh), POLLIN, 0 };
	p[n++] = (struct pollfd){ fleet_host_wait_fd(rf->fh), POLLIN, 0 };
	return n;
}

/* The rounds the runner waits at, each said once. */
static void
say_waiting(struct run_fleet *rf)
{
	struct fleet_msg m = { .kind = FLEET_MSG_WAIT };

	if ((m.round = fleet_host_waiting(rf->fh)) > 0)
		say(&m);
}

bool
run_fleet_poll(struct run_fleet *rf, const struct pollfd *p, int n)
{
	char bad[FLEET_PROTO_LINE];

	for (int i = 0; i < n; i++) {
		if (p[i].revents == 0)
			continue;
		if (p[i].fd == fleet_host_wait_fd(rf->fh)) {
			say_waiting(rf);
			continue;
		}
		if (fleet_host_read(rf->fh, bad, sizeof bad) ==
		    FLEET_HOST_CLOSED) {
			rf->closed = true;
			cli_fprintf(stderr, "%s\n",
			    _("raidlab run: the fleet controller's channel "
			      "closed (end of input): stopping the run"));
			return false;
		}
		if (bad[0] != '\0')
			cli_fprintf(stderr,
			    _("raidlab run: not a line of the fleet "
			      "controller's, ignored: %s\n"),
			    bad);
	}
	return !rf->closed;
}

void
run_fleet_stop(struct run_fleet *rf)
{
	if (rf->fh != NULL)
		fleet_host_close(rf->fh);
}

void
run_fleet_tick(struct run_fleet *rf, const struct live *lv)
{
	struct fleet_msg m = { .kind = FLEET_MSG_LIVE };
	double now = tick_now_s();

	if (rf->fh == NULL || !lv->active || lv->last_gen == 0)
		return;
	/* a run's first rates at once, then about once a second */
	if (lv->last_gen == rf->live_gen && now - rf->live_t < LIVE_EVERY_S)
		return;
	rf->live_gen = lv->last_gen;
	rf->live_t = now;
	/* names longer than the protocol's are no lab's names */
	if (strlen(lv->variant) >= sizeof m.variant ||
	    strlen(lv->workload) >= sizeof m.workload)
		return;
	memcpy(m.variant, lv->variant, strlen(lv->variant) + 1);
	memcpy(m.workload, lv->workload, strlen(lv->workload) + 1);
	m.round = lv->repeat;
	m.read_mbps = lv->read_mbps;
	m.write_mbps = lv->write_mbps;
	m.files_s = lv->files_s;
	say(&m);
}
