/*
 * raidlab run LAB for variants placed on hosts: the fleet controller
 * (fleet-run.h) runs them there, and this prints what it says. Each
 * host's own messages come prefixed with its name ("h2: ..."), its state
 * changes and failures as sentences naming it and its address, the
 * rounds the barrier releases, and each record saved; on a terminal a
 * one-line status "h2 12.3 MB/s · h3 11.9 MB/s · all 24.2 MB/s" redrawn
 * in place, without one that status every 10 s at most. At the end the
 * records (-j: one JSON object keyed by host), and the exit status: 0
 * when every host's runs succeeded, CLI_FAIL when any host failed (the
 * others' records are saved and said), 130 when interrupted. --dry-run
 * prints each host's ssh command and contacts none. Main thread; the
 * caller's signal flag stops the fleet (every host's stdin closed: they
 * stop and tear down).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/textsafe.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "cli-run-hosts.h"
#include "cli.h"
#include "fleet/fleet-fio.h"
#include "fleet/fleet-run.h"
#include "lab/lab.h"
#include "figures/plot.h"
#include "results/record.h"
#include "results/show.h"

/* How often the status is printed without a terminal (seconds). */
#define LOG_EVERY 10.0
#define TICK_MS 500

struct fleet_view {
	bool tty;
	bool drawn; /* the status line is on the terminal */
	double last_log;
	char **paths; /* per host: its record's path, or NULL */
};

static void
clear_line(struct fleet_view *fv)
{
	if (fv->drawn) {
		fputs("\r\033[K", stderr);
		fv->drawn = false;
	}
}

/* "h2 12.3 MB/s · h3 11.9 MB/s · all 24.2 MB/s" (MB/s read and
   written), a host without a live rate by its state ("h4 at the
   barrier", "h3 copying"). */
static void
status_line(struct fleet_run *fr, char *buf, size_t len)
{
	const char *dot = plot_utf8_locale() ? " · " : " - ";
	struct fleet_rates r;
	struct strbuf b;

	strbuf_init(&b);
	for (size_t i = 0; i < fleet_run_nhosts(fr); i++) {
		const char *name = fleet_run_host_name(fr, i);

		fleet_run_rates(fr, i, &r);
		if (b.len)
			strbuf_add(&b, dot);
		if (r.live && r.state != FLEET_HOST_WAITING)
			strbuf_printf(&b, _("%s %.1f MB/s"), name,
			    r.read_mbps + r.write_mbps);
		else
			strbuf_printf(&b, "%s %s", name,
			    fleet_host_state_name(r.state));
	}
	fleet_run_rates_sum(fr, &r);
	strbuf_printf(&b, "%s", dot);
	strbuf_printf(&b, _("all %.1f MB/s"), r.read_mbps + r.write_mbps);
	snprintf(buf, len, "%s", b.s);
	strbuf_done(&b);
}

/* stderr's columns; 80 when not known. */
static int
term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static void
show_status(struct fleet_view *fv, struct fleet_run *fr)
{
	char line[1024];
	int width = term_width();

	status_line(fr, line, sizeof line);
	if (fv->tty) {
		if (width > 1 && (int)strlen(line) >= width)
			line[width - 1] = '\0';
		fprintf(stderr, "\r\033[K%s", line);
		fv->drawn = true;
	} else if (tick_now_s() - fv->last_log >= LOG_EVERY) {
		fprintf(stderr, "raidlab run: %s\n", line);
		fv->last_log = tick_now_s();
	}
	fflush(stderr);
}

static void
print_event(struct fleet_view *fv, const struct fleet_event *ev)
{
	clear_line(fv);
	switch (ev->type) {
	case FLEET_EV_STATE:
	case FLEET_EV_MESSAGE:
		fprintf(stderr, "%s\n", ev->text);
		break;
	case FLEET_EV_ERROR:
		fprintf(stderr, "raidlab run: %s\n", ev->text);
		break;
	case FLEET_EV_ROUND:
		fprintf(stderr,
		    _("raidlab run: round %ld starts on every host\n"),
		    ev->round);
		break;
	case FLEET_EV_RECORD:
		if (ev->host >= 0) {
			free(fv->paths[ev->host]);
			fv->paths[ev->host] = xstrdup(ev->text);
		}
		break;
	case FLEET_EV_DONE:
		break;
	}
}

/* Poll the controller's events until it is done; a signal stops it. */
static void
follow(struct fleet_run *fr, struct fleet_view *fv,
    volatile sig_atomic_t *interrupted)
{
	struct fleet_event ev;
	bool done = false, stopped = false;

	while (!done) {
		struct pollfd p = { fleet_run_fd(fr), POLLIN, 0 };

		if (*interrupted && !stopped) {
			clear_line(fv);
			fprintf(stderr, "%s\n",
			    _("raidlab run: stopping every host (each tears "
			      "down what it built)"));
			fleet_run_stop(fr);
			stopped = true;
		}
		if (poll(&p, 1, TICK_MS) < 0 && errno != EINTR)
			break;
		while (fleet_run_pop(fr, &ev)) {
			print_event(fv, &ev);
			done |= ev.type == FLEET_EV_DONE;
		}
		if (!done)
			show_status(fv, fr);
	}
	clear_line(fv);
}

/* Each saved record: its path, and with table output its runs. */
static void
print_records(struct fleet_run *fr, const struct fleet_view *fv,
    const struct cli_hosts *o)
{
	for (size_t i = 0; i < fleet_run_nhosts(fr); i++) {
		const char *path = fv->paths[i];
		struct record *rec;
		struct strbuf b;
		struct err e;

		if (path == NULL)
			continue;
		if (o->json)
			continue;
		cli_fprintf(stderr, _("raidlab run: %s: record saved to %s\n"),
		    fleet_run_host_name(fr, i), path);
		err_clear(&e);
		if (record_load(path, &rec, &e) < 0)
			continue;
		strbuf_init(&b);
		show_runs(rec, &b);
		cli_printf("%s:\n", fleet_run_host_name(fr, i));
		cli_puts(b.s, stdout);
		strbuf_done(&b);
		record_free(rec);
	}
}

/* The end: what each host came to, in one line. */
static void
print_summary(struct fleet_run *fr, const struct fleet_summary *s,
    const char *lab)
{
	cli_fprintf(stderr,
	    ngettext("raidlab run: %zu host: %zu done, %zu failed; %zu "
		     "record saved (fleet run %s)\n",
		"raidlab run: %zu hosts: %zu done, %zu failed; %zu records "
		"saved (fleet run %s)\n",
		(unsigned long)s->hosts),
	    s->hosts, s->hosts_ok, s->hosts_failed, s->records,
	    fleet_run_id(fr));
	if (s->records > 1)
		cli_fprintf(stderr,
		    _("raidlab run: the hosts side by side: raidlab compare "
		      "%s\n"),
		    lab);
}

/* A selected variant runs here. */
static bool
any_local(const struct lab *lab, const bool *vsel)
{
	for (size_t i = 0; i < lab->nvariants; i++)
		if ((vsel == NULL || vsel[i]) &&
		    !lab_variant_remote(&lab->variants[i]))
			return true;
	return false;
}

/* What only runs here, or along with variants here: said, and true.
   One run, one set of records: variants here and on hosts run apart. */
/* The selection holds fio_server workloads and raidlab's own ones. */
static bool
mixed_kinds(const struct lab *lab, const struct fleet_opts *fo)
{
	bool fio = false, own = false;

	for (size_t j = 0; j < lab->nworkloads; j++) {
		if (fo->workloads != NULL && !fo->workloads[j])
			continue;
		if (fleet_fio_workload(&lab->workloads[j]))
			fio = true;
		else
			own = true;
	}
	return fio && own;
}

static bool
refused(const struct lab *lab, const struct fleet_opts *fo,
    const struct cli_hosts *o)
{
	/* Each kind makes its own record per host; two records of one
	   host in one run would be compared as two hosts' runs. */
	if (mixed_kinds(lab, fo)) {
		cli_error(&cli_run,
		    _("%s: fio_server workloads and raidlab's own workloads "
		      "are selected together: on hosts they run apart, each "
		      "with its own records; choose them with -w NAME"),
		    lab->path);
		return true;
	}
	if (any_local(lab, fo->variants)) {
		cli_error(&cli_run,
		    _("%s: variants here and variants on hosts are selected "
		      "together: run them apart (-v NAME), the hosts' through "
		      "the fleet, these here"),
		    lab->path);
		return true;
	}
	if (o->here_only) {
		cli_error(&cli_run, "%s",
		    _("--disk, --csv, --hook and --keep are for runs here; a "
		      "fleet's hosts map their disks in the lab's hosts "
		      "list"));
		return true;
	}
	return false;
}

int
cli_run_hosts(const struct lab *lab, const struct fleet_opts *fo,
    const struct cli_hosts *o, volatile sig_atomic_t *interrupted)
{
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct fleet_view fv = { .tty = isatty(STDERR_FILENO) };
	struct fleet_summary s;
	struct fleet_opts rest_fo;
	struct fleet_run *fr;
	struct err e;
	json_t *recs;
	bool *rest = NULL;
	char *dry;
	int rc, fio_rc = CLI_OK;

	if (refused(lab, fo, o))
		return CLI_USAGE;
	err_clear(&e);
	/* fio_server workloads: fio's client/server from here first, the
	   rest through the controller (the hook of cli-run-fio.c). */
	if (cli_run_fio_wanted(lab, fo)) {
		if (o->dry_run)
			rest = cli_run_fio_dry(lab, fo);
		else
			fio_rc = cli_run_fio(lab, fo, interrupted, &rest);
		if (rest == NULL || *interrupted)
			return *interrupted ? 130 : fio_rc;
		rest_fo = *fo;
		rest_fo.workloads = rest;
		fo = &rest_fo;
	}
	if (o->dry_run) {
		if ((dry = fleet_run_dry(lab, fo, &e)) == NULL) {
			cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
			free(rest);
			return CLI_USAGE;
		}
		cli_printf("%s",
		    _("Each host would run (LAB: the lab copied "
		      "there; no host is contacted now):\n"));
		cli_puts(dry, stdout);
		free(dry);
		free(rest);
		return CLI_OK;
	}
	if ((fr = fleet_run_start(lab, lab->path, fo, &e)) == NULL) {
		cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
		free(rest);
		return e.code == -EINVAL ? CLI_USAGE : CLI_FAIL;
	}
	fv.last_log = tick_now_s();
	fv.paths = xcalloc(fleet_run_nhosts(fr) + 1, sizeof *fv.paths);
	follow(fr, &fv, interrupted);
	fleet_run_summary(fr, &s);
	recs = fleet_run_take_records(fr);
	if (o->json && recs != NULL) {
		char *text = json_dumps(recs, JSON_INDENT(1));

		if (text != NULL)
			printf("%s\n", text);
		free(text);
	}
	print_records(fr, &fv, o);
	print_summary(fr, &s, lab->name);
	json_decref(recs);
	rc = *interrupted                            ? 130
	    : s.hosts_ok == s.hosts && s.failed == 0 ? CLI_OK
						     : CLI_FAIL;
	if (rc == CLI_OK)
		rc = fio_rc;
	for (size_t i = 0; i < fleet_run_nhosts(fr); i++)
		free(fv.paths[i]);
	free(fv.paths);
	fleet_run_free(fr);
	free(rest);
	return rc;
}
