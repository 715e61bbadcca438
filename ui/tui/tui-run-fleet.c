/*
 * The Run screen's fleet (tui-run.h): when the lab's variants are placed
 * on hosts, r runs them there through the fleet controller
 * (fleet/fleet-run.h) instead of here. The screen shows a line per host
 * (its state, the variant, workload and round of its last live line,
 * MB/s read and written, files/s; read from the controller's atomics
 * each frame) and the sum over the live hosts ("all hosts"); the hosts'
 * own messages, their state changes and failures, the rounds the
 * barrier releases and each record saved go to the log pane. At the end
 * the records' paths are the Compare screen's to add, every host's. UI
 * thread only.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "fleet/fleet-fio.h"
#include "fleet/fleet-run.h"
#include "lab/lab.h"
#include "results/record.h"
#include "run/labrun.h"
#include "tui-run.h"
#include "tui.h"

bool
run_fleet_wanted(const struct tui *t)
{
	return t->lab != NULL && fleet_run_wanted(t->lab, NULL);
}

/* A variant of the lab runs here, not on a host. */
static bool
any_local(const struct lab *lab)
{
	for (size_t i = 0; i < lab->nvariants; i++)
		if (!lab_variant_remote(&lab->variants[i]))
			return true;
	return false;
}

/* The lab has fio_server workloads: fio's client/server runs them from
   raidlab run, not from here. */
static bool
any_fio_server(const struct lab *lab)
{
	for (size_t j = 0; j < lab->nworkloads; j++)
		if (fleet_fio_workload(&lab->workloads[j]))
			return true;
	return false;
}

static void
records_free(struct run *r)
{
	for (size_t i = 0; i < r->nfleet_records; i++)
		free(r->fleet_records[i]);
	free(r->fleet_records);
	r->fleet_records = NULL;
	r->nfleet_records = 0;
}

void
run_fleet_free(struct run *r)
{
	fleet_run_free(r->fr);
	r->fr = NULL;
	records_free(r);
}

void
run_fleet_start(struct run *r, struct tui *t)
{
	struct fleet_opts o = { .ssh_config = t->ssh_config, .record = true };
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;

	if (any_local(t->lab)) {
		tui_dialog(t, true, _("Refused"),
		    _("This lab has variants here and variants on hosts: one "
		      "run is one set of records, so they run apart. Run the "
		      "hosts' with raidlab run -v NAME (through the fleet), "
		      "and these here the same way."));
		return;
	}
	if (any_fio_server(t->lab)) {
		tui_dialog(t, true, _("Refused"),
		    _("This lab has fio_server workloads: fio's own "
		      "client/server runs them on the hosts, from raidlab run "
		      "-w NAME, not from this screen."));
		return;
	}
	if (t->lab_path == NULL || t->dirty) {
		tui_message(t, true, "%s",
		    _("save the lab first (s on the Lab files screen): its "
		      "hosts get the lab file as it is on disk"));
		return;
	}
	err_clear(&e);
	run_fleet_free(r);
	labrun_free(r->lr);
	r->lr = NULL;
	record_free(r->rec);
	r->rec = NULL;
	r->fr = fleet_run_start(t->lab, t->lab_path, &o, &e);
	if (r->fr == NULL) {
		r->state = RUN_IDLE;
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
		return;
	}
	r->state = RUN_RUNNING;
	r->log_run = r->log_total;
	r->stopped = false;
	r->has_phase = false;
	r->nmembers = 0;
	r->run_start = tick_now_s();
	run_log(r, false,
	    ngettext("fleet run of %s started on %zu host",
		"fleet run of %s started on %zu hosts",
		(unsigned long)fleet_run_nhosts(r->fr)),
	    t->lab->name ? t->lab->name : "?", fleet_run_nhosts(r->fr));
}

/* The Compare screen adds every host's record: their paths, one a
   line. */
static void
hand_over(struct run *r, struct tui *t)
{
	struct strbuf b;

	if (r->nfleet_records == 0)
		return;
	strbuf_init(&b);
	for (size_t i = 0; i < r->nfleet_records; i++)
		strbuf_printf(&b, "%s%s", i ? "\n" : "", r->fleet_records[i]);
	free(t->last_record);
	t->last_record = strbuf_take(&b);
	t->last_record_gen = t->lab_gen;
}

static void
on_done(struct run *r, struct tui *t)
{
	struct fleet_summary s;

	fleet_run_summary(r->fr, &s);
	r->state = RUN_DONE;
	r->stopped = s.stopped;
	hand_over(r, t);
	run_log(r, s.hosts_failed > 0 || s.failed > 0,
	    ngettext("fleet run %s: %zu host: %zu done, %zu failed; %zu "
		     "record saved",
		"fleet run %s: %zu hosts: %zu done, %zu failed; %zu "
		"records saved",
		(unsigned long)s.hosts),
	    fleet_run_id(r->fr), s.hosts, s.hosts_ok, s.hosts_failed,
	    s.records);
	if (s.stopped)
		tui_message(t, true,
		    ngettext("fleet run stopped: %zu of %zu host done",
			"fleet run stopped: %zu of %zu hosts done",
			(unsigned long)s.hosts),
		    s.hosts_ok, s.hosts);
	else
		tui_message(t, s.hosts_failed > 0 || s.failed > 0,
		    ngettext("fleet run ended: %zu of %zu host done",
			"fleet run ended: %zu of %zu hosts done",
			(unsigned long)s.hosts),
		    s.hosts_ok, s.hosts);
}

static void
on_event(struct run *r, struct tui *t, const struct fleet_event *ev)
{
	const char *host =
	    ev->host >= 0 ? fleet_run_host_name(r->fr, (size_t)ev->host) : "";

	switch (ev->type) {
	case FLEET_EV_STATE:
		run_log(r,
		    fleet_host_state_final(ev->state) &&
			ev->state != FLEET_HOST_DONE,
		    "%s", ev->text);
		break;
	case FLEET_EV_MESSAGE:
		run_log(r, false, "%s", ev->text);
		break;
	case FLEET_EV_ERROR:
		run_log(r, true, "%s", ev->text);
		break;
	case FLEET_EV_ROUND:
		run_log(r, false, _("round %ld starts on every host"),
		    ev->round);
		break;
	case FLEET_EV_RECORD:
		r->fleet_records = xrealloc(r->fleet_records,
		    (r->nfleet_records + 1) * sizeof *r->fleet_records);
		r->fleet_records[r->nfleet_records++] = xstrdup(ev->text);
		run_log(r, false, _("%s: record saved to %s"), host, ev->text);
		break;
	case FLEET_EV_DONE:
		on_done(r, t);
		break;
	}
}

void
run_fleet_readable(struct run *r, struct tui *t)
{
	struct fleet_event ev;

	while (r->fr != NULL && r->state == RUN_RUNNING &&
	    fleet_run_pop(r->fr, &ev))
		on_event(r, t, &ev);
	t->redraw = true;
}

/* The table's columns: host, state, variant, workload (left), round,
   read and write MB/s, files/s (right); narrower under 98 columns, so
   that 80 hold them all. */
#define NCOLS 8

static void
row_text(const struct tui *t, const char *const *v, char *line, size_t len)
{
	static const int wide[NCOLS] = { 12, 16, 14, 14, 5, 10, 10, 10 },
			 narrow[NCOLS] = { 10, 12, 10, 10, 5, 8, 8, 8 };
	const int *wd = t->cols < 98 ? narrow : wide;
	size_t at = 0;

	line[0] = '\0';
	for (int i = 0; i < NCOLS && at < len; i++) {
		int n = i < 4 ? snprintf(line + at, len - at, "%s%-*.*s",
				    i ? " " : "", wd[i], wd[i], v[i])
			      : snprintf(line + at, len - at, " %*.*s", wd[i],
				    wd[i], v[i]);

		if (n < 0)
			break;
		at += (size_t)n;
	}
}

/* "h2  running  a  small  2  12.3  45.6  789": the name of a host, or
   "all hosts"; "-" for what it has not said. */
static void
host_line(const struct tui *t, WINDOW *w, int y, const char *name,
    const struct fleet_rates *x)
{
	char round[32] = "-", rd[32] = "-", wr[32] = "-", fs[32] = "-";
	char line[512];
	const char *v[NCOLS] = { name, fleet_host_state_name(x->state),
		x->variant ? x->variant : "-", x->workload ? x->workload : "-",
		round, rd, wr, fs };

	if (x->round > 0)
		snprintf(round, sizeof round, "%ld", x->round);
	if (x->live) {
		snprintf(rd, sizeof rd, "%.1f", x->read_mbps);
		snprintf(wr, sizeof wr, "%.1f", x->write_mbps);
		snprintf(fs, sizeof fs, "%.0f", x->files_s);
	}
	row_text(t, v, line, sizeof line);
	tui_put(w, y, 0, t->cols, line);
}

void
run_fleet_draw(struct run *r, struct tui *t, WINDOW *w, int y, int rows)
{
	size_t n = fleet_run_nhosts(r->fr);
	const char *heads[NCOLS] = { _("Host"), _("State"), _("Variant"),
		_("Workload"), _("Round"), _("read MB/s"), _("write MB/s"),
		_("files/s") };
	struct fleet_rates x;
	char head[512];
	int end = y + rows;

	row_text(t, heads, head, sizeof head);
	wattron(w, A_BOLD);
	tui_put(w, y++, 0, t->cols, head);
	wattroff(w, A_BOLD);
	for (size_t i = 0; i < n && y < end - 1; i++) {
		fleet_run_rates(r->fr, i, &x);
		host_line(t, w, y++, fleet_run_host_name(r->fr, i), &x);
	}
	if (y >= end)
		return;
	fleet_run_rates_sum(r->fr, &x);
	/* the sum is of the hosts live now, each its own round */
	x.variant = x.workload = NULL;
	x.round = 0;
	x.live = x.state == FLEET_HOST_RUNNING;
	wattron(w, A_BOLD);
	host_line(t, w, y, _("all hosts"), &x);
	wattroff(w, A_BOLD);
}

/* The status line of a fleet run. */
void
run_fleet_status(struct run *r, struct tui *t, WINDOW *w)
{
	struct fleet_summary s;
	char line[512];

	fleet_run_summary(r->fr, &s);
	if (r->state == RUN_DONE)
		snprintf(line, sizeof line,
		    r->stopped ? _("Fleet run %s stopped: %zu of %zu hosts "
				   "done, %zu records saved. Press r to run "
				   "again, 5 to compare.")
			       : _("Fleet run %s ended: %zu of %zu hosts "
				   "done, %zu records saved. Press r to run "
				   "again, 5 to compare."),
		    fleet_run_id(r->fr), s.hosts_ok, s.hosts, s.records);
	else
		snprintf(line, sizeof line,
		    _("Fleet run %s on %zu hosts, %.0f s (x stops every "
		      "host)"),
		    fleet_run_id(r->fr), fleet_run_nhosts(r->fr),
		    tick_now_s() - r->run_start);
	wattron(w, A_BOLD);
	tui_put(w, 0, 0, t->cols, line);
	wattroff(w, A_BOLD);
}
