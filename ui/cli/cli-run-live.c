/*
 * `raidlab run`'s view of a lab runner: see cli-run-live.h. Main thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/textsafe.h"
#include "base/tick.h"
#include "base/units.h"
#include "cli-run-build.h"
#include "cli-run-live.h"
#include "cli.h"
#include "figures/plot.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "run/labrun.h"
#include "run/rounds.h"

void
live_init(struct live *lv)
{
	struct winsize ws;

	memset(lv, 0, sizeof *lv);
	lv->tty = isatty(STDERR_FILENO);
	lv->width = 80;
	if (lv->tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 20)
		lv->width = ws.ws_col;
	build_progress_init(&lv->bp, lv->tty);
}

/* The status line, cut to the terminal's width, redrawn in place. */
static void
draw(struct live *lv)
{
	char line[768], el[16], eta[64] = "", round[128], *safe;
	double t = lv->last.t;

	units_format_clock(t, el, sizeof el);
	/* The whole run's when the runner could estimate it (the likely
	   rounds included), else this run's from the previous one. */
	if (isfinite(lv->left) && lv->left > t) {
		char left[16];

		units_format_clock(lv->left - t, left, sizeof left);
		snprintf(eta, sizeof eta, _("  ETA %s in all"), left);
	} else if (lv->expect > t) {
		char left[16];

		units_format_clock(lv->expect - t, left, sizeof left);
		snprintf(eta, sizeof eta, _("  ETA %s"), left);
	}
	rounds_progress(lv->repeat, (unsigned long long)lv->repeats, lv->ci,
	    lv->goal, round, sizeof round);
	snprintf(line, sizeof line,
	    _("[%s] %s %s  %s  r %.1f MB/s  w %.1f MB/s  %.0f files/s  "
	      "%s%s"),
	    lv->variant, lv->workload, round,
	    lv->test[0] ? lv->test : _("starting"), lv->read_mbps,
	    lv->write_mbps, lv->files_s, el, eta);
	/* Names from the lab and the workloads' words, shown, not obeyed,
	   and cut as shown. */
	safe = textsafe_dup(line, 0);
	if ((int)strlen(safe) >= lv->width)
		safe[lv->width - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", safe);
	free(safe);
	fflush(stderr);
	lv->drawn = true;
}

void
live_tick(struct live *lv, struct labrun *lr)
{
	struct engine_totals now;
	unsigned long gen;
	double dt;

	if ((gen = labrun_totals(lr, &now)) == 0 || !lv->active)
		return;
	/* Another workload run than the one last read starts from zero. */
	if (gen != lv->last_gen)
		memset(&lv->last, 0, sizeof lv->last);
	lv->last_gen = gen;
	dt = now.t - lv->last.t;
	if (dt > 0) {
		lv->read_mbps =
		    (double)(now.bytes_read - lv->last.bytes_read) / dt / 1e6;
		lv->write_mbps =
		    (double)(now.bytes_written - lv->last.bytes_written) / dt /
		    1e6;
		lv->files_s = (double)(now.files - lv->last.files) / dt;
	}
	lv->last = now;
	if (lv->tty)
		draw(lv);
}

void
live_end(struct live *lv)
{
	if (lv->drawn)
		fputs("\r\033[K", stderr);
	lv->drawn = false;
	lv->active = false;
}

static void
run_starts(struct live *lv, const struct labrun *lr,
    const struct labrun_event *ev)
{
	const struct lab_variant *v = labrun_variant(lr, ev->variant);

	live_end(lv);
	build_close(&lv->bp);
	snprintf(lv->variant, sizeof lv->variant, "%s",
	    v && v->name            ? v->name
		: v && v->directory ? v->directory
				    : "?");
	snprintf(lv->workload, sizeof lv->workload, "%s", ev->text);
	lv->repeat = ev->repeat;
	lv->repeats = (int)ev->total;
	lv->expect = ev->value;
	lv->ci = ev->ci;
	lv->goal = ev->goal;
	lv->left = ev->left;
	lv->test[0] = '\0';
	memset(&lv->last, 0, sizeof lv->last);
	lv->read_mbps = lv->write_mbps = lv->files_s = 0;
	lv->active = true;
}

static void
test_event(struct live *lv, const struct labrun_event *ev)
{
	if (!ev->end) {
		snprintf(lv->test, sizeof lv->test, "%s", ev->text);
		return;
	}
	/* A figure that will be dropped says so now, not at the end. */
	if (!lv->tty)
		cli_fprintf(stderr, "[%s] %s %d/%d: %s: %.2f %s%s\n",
		    lv->variant, lv->workload, lv->repeat, lv->repeats,
		    ev->text, ev->value, wl_unit_name((enum wl_unit)ev->unit),
		    ev->too_fast ? _(" (+++++ too fast to measure: left out "
				     "of the mean)")
				 : "");
	else if (ev->too_fast) {
		if (lv->drawn)
			fputs("\r\033[K", stderr);
		cli_fprintf(stderr,
		    _("[%s] %s %d/%d: %s: +++++ too fast to measure: left "
		      "out of the mean\n"),
		    lv->variant, lv->workload, lv->repeat, lv->repeats,
		    ev->text);
	}
	snprintf(lv->test, sizeof lv->test, "%s", _("between tests"));
}

/* A note or an error: the engine's (about the run in progress), or the
   runner's own sentence. */
static void
message(struct live *lv, const struct labrun_event *ev)
{
	bool error = ev->type == LABRUN_ERROR;

	if (ev->workload >= 0 && lv->active) {
		if (lv->drawn)
			fputs("\r\033[K", stderr);
		cli_fprintf(stderr, "[%s] %s: %s%s\n", lv->variant,
		    lv->workload, error ? _("error: ") : _("note: "), ev->text);
		return;
	}
	live_end(lv);
	build_close(&lv->bp);
	cli_fprintf(stderr, "raidlab run: %s\n", ev->text);
}

static const char *
build_name(const struct labrun *lr, int vi)
{
	const struct lab_variant *v = labrun_variant(lr, vi);

	return v != NULL && v->name != NULL ? v->name : "?";
}

/* How often a running rebuild or scrub is printed at most: on each
   tenth of the way, or after this many seconds without one. */
#define PHASE_PRINT_S 10.0

/* A fault phase: when its workloads start, then at a log's pace, and
   its end; above the status line. */
static void
phase_event(struct live *lv, const struct labrun *lr,
    const struct labrun_event *ev)
{
	const struct prov_progress *pr = &ev->phase;
	int tenth = pr->total > 0 && pr->done <= pr->total
	    ? (int)(pr->done * 10 / pr->total)
	    : 0;
	double now = tick_now_s();
	char line[512];

	if (!pr->finished && tenth <= lv->phase_tenth &&
	    now - lv->phase_t < PHASE_PRINT_S)
		return;
	lv->phase_tenth = tenth;
	lv->phase_t = now;
	labrun_phase_line(pr, 0, !plot_utf8_locale(), line, sizeof line);
	if (lv->drawn)
		fputs("\r\033[K", stderr);
	build_close(&lv->bp);
	cli_fprintf(stderr, "raidlab run: %s: %s\n",
	    build_name(lr, ev->variant), line);
	if (lv->drawn && lv->tty)
		draw(lv);
}

void
live_event(struct live *lv, const struct labrun *lr,
    const struct labrun_event *ev)
{
	switch (ev->type) {
	case LABRUN_VARIANT:
		live_end(lv);
		/* its phase, if any, is printed from the start */
		lv->phase_tenth = -1;
		lv->phase_t = -PHASE_PRINT_S;
		break;
	case LABRUN_PHASE:
		phase_event(lv, lr, ev);
		break;
	case LABRUN_STEP:
		if (ev->workload >= 0) {
			snprintf(lv->test, sizeof lv->test, "%s", ev->text);
			break;
		}
		live_end(lv);
		build_step(&lv->bp, build_name(lr, ev->variant), ev->text);
		break;
	case LABRUN_RESYNC:
		build_sync(&lv->bp, build_name(lr, ev->variant), ev->text,
		    ev->done, ev->total);
		break;
	case LABRUN_RUN:
		run_starts(lv, lr, ev);
		break;
	case LABRUN_TEST:
		test_event(lv, ev);
		break;
	case LABRUN_NOTE:
	case LABRUN_ERROR:
		message(lv, ev);
		break;
	case LABRUN_RESULT:
		break;
	case LABRUN_DONE:
		live_end(lv);
		build_close(&lv->bp);
		break;
	}
}
