/*
 * The Run screen: starts the lab (labrun.h: a runner thread of its own,
 * so this UI thread never blocks on a build or a workload), asks for a
 * typed confirmation before anything with data is destroyed, follows the
 * runner's events and counters, keeps each variant's curves for the
 * charts, reads the member devices' activity from sysfs, and names the
 * record the runner wrote (record.h: saved at the start and after every
 * run). Sampling at the tick is in tui-run-tick.c, drawing in
 * tui-run-draw.c. UI thread.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "build/provision.h"
#include "fleet/fleet-run.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "results/record.h"
#include "run/labrun.h"
#include "tui-run.h"
#include "tui.h"

static const struct tui_key run_keys[] = {
	{ "r", N_("run the lab (every variant and workload)") },
	{ "x", N_("stop the run cleanly (what was built is torn down)") },
	{ "c", N_("clear the charts of finished runs") },
	{ "o", N_("draw the next completed variants over the current one") },
	{ "l",
	    N_("the run log, whole (wrapped; arrows and PgUp/PgDn scroll "
	       "it)") },
	{ "PgUp PgDn", N_("scroll the log panel back and forth") },
	{ NULL, NULL },
};

void
run_log(struct run *r, bool bad, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(line + 1, sizeof line - 1, fmt, ap);
	va_end(ap);
	line[0] = bad ? '!' : ' '; /* the drawing colours '!' lines */
	i = (r->log_head + r->log_n) % RUN_LOG;
	if (r->log_n == RUN_LOG) {
		free(r->log[r->log_head]);
		r->log_head = (r->log_head + 1) % RUN_LOG;
		i = (r->log_head + r->log_n - 1) % RUN_LOG;
	} else {
		r->log_n++;
	}
	r->log[i] = xstrdup(line);
	r->log_total++;
	r->log_back = 0; /* a new line brings the panel back to the end */
}

char *
run_log_since(const struct run *r, size_t from, bool bad_only)
{
	size_t kept = r->log_total - r->log_n; /* lines gone from the ring */
	struct strbuf b;

	strbuf_init(&b);
	for (size_t i = from > kept ? from - kept : 0; i < r->log_n; i++) {
		const char *l = r->log[(r->log_head + i) % RUN_LOG];

		if (bad_only && l[0] != '!')
			continue;
		strbuf_printf(&b, "%s%s", b.len > 0 ? "\n" : "", l + 1);
	}
	return strbuf_take(&b);
}

/* A refusal, whole: the reasons logged since from, then where the rest
   of the log is. */
static void
refusal_dialog(struct run *r, struct tui *t, size_t from)
{
	const char *last = _("l on the Run screen: the whole log");
	char *why = run_log_since(r, from, true);
	struct strbuf b;

	strbuf_init(&b);
	strbuf_printf(&b, "%s%s%s", why, *why != '\0' ? "\n\n" : "", last);
	tui_dialog(t, true, _("Refused"), b.s);
	strbuf_done(&b);
	free(why);
}

static void
curves_free(struct run *r)
{
	for (size_t i = 0; i < r->ncurves; i++)
		series_done(&r->curves[i].s);
	free(r->curves);
	r->curves = NULL;
	r->ncurves = 0;
	r->overlay = 0;
}

const struct run_curve *
run_overlaid(const struct run *r, size_t k)
{
	size_t p = r->overlay + k; /* 0: the newest completed */

	return p + 1 < r->ncurves ? &r->curves[r->ncurves - 2 - p] : NULL;
}

/* o: the next completed variants, newest first, over the current one;
   after the oldest, the newest again. */
static void
overlay_next(struct run *r, struct tui *t, size_t shown)
{
	size_t done = r->ncurves > 0 ? r->ncurves - 1 : 0;

	if (done <= shown) {
		tui_message(t, false, "%s",
		    _("every completed variant is drawn already"));
		return;
	}
	r->overlay = r->overlay + shown < done ? r->overlay + 1 : 0;
}

static void
curve_new(struct run *r, const char *name)
{
	struct run_curve *c;

	r->curves = xreallocarray(r->curves, r->ncurves + 1, sizeof *r->curves);
	c = &r->curves[r->ncurves++];
	r->overlay = 0; /* the variant just completed comes first */
	memset(c, 0, sizeof *c);
	snprintf(c->variant, sizeof c->variant, "%.63s", name);
	snprintf(c->name, sizeof c->name, "%.63s", name);
	/* A variant's next round (interleaved order) is its own line: each
	   is named by its round, the first one too once a second comes. */
	for (size_t i = 0; i + 1 < r->ncurves; i++)
		if (strcmp(r->curves[i].variant, name) == 0)
			c->round = r->curves[i].round + 1;
	if (c->round > 0)
		for (size_t i = 0; i < r->ncurves; i++)
			if (strcmp(r->curves[i].variant, name) == 0)
				snprintf(r->curves[i].name,
				    sizeof r->curves[i].name,
				    _("%.50s round %u"), name,
				    r->curves[i].round + 1);
	series_init(&c->s, RUN_HISTORY);
}

/* A workload run's end: what its ticks missed, from its own totals
   (the tests' counters and seconds), as the curve's last sample; a run
   shorter than a tick showed nothing and said peak 0. */
static void
curve_rest(struct run *r, const struct wl_result *res)
{
	struct run_curve *c = &r->curves[r->ncurves - 1];
	struct sample total = { 0 }, seen = { 0 }, x;

	for (size_t i = 0; i < res->ntests; i++) {
		const struct wl_test *t = &res->tests[i];

		total.dt += t->wall;
		total.bytes_read += t->bytes_read;
		total.bytes_written += t->bytes_written;
		total.files += t->files;
		total.ops += t->ops;
	}
	seen.dt = r->last.t;
	seen.bytes_read = r->last.bytes_read;
	seen.bytes_written = r->last.bytes_written;
	seen.files = r->last.files;
	seen.ops = r->last.ops;
	if (!sample_rest(&total, &seen, &x))
		return;
	x.t = (c->s.n > 0 ? series_at(&c->s, c->s.n - 1)->t : 0) + x.dt;
	series_push(&c->s, &x);
}

static void *
run_init(struct tui *t)
{
	struct run *r = xcalloc(1, sizeof *r);

	(void)t;
	for (int i = 0; i < PLOT_MAX_SERIES; i++)
		r->tmp[i] = xcalloc(RUN_HISTORY, sizeof *r->tmp[i]);
	r->fig = xcalloc(RUN_HISTORY, sizeof *r->fig);
	return r;
}

static void
destroy_free(struct run *r)
{
	for (size_t i = 0; i < r->ndestroy; i++)
		free(r->destroy[i]);
	free(r->destroy);
	free(r->destroy_text);
	r->destroy = NULL;
	r->destroy_text = NULL;
	r->ndestroy = 0;
	if (r->bound != NULL)
		confirm_set_done(r->bound);
	free(r->bound);
	r->bound = NULL;
}

static void
run_free(void *p)
{
	struct run *r = p;

	labrun_free(r->lr);
	run_fleet_free(r);
	record_free(r->rec);
	destroy_free(r);
	free(r->only);
	curves_free(r);
	for (size_t i = 0; i < r->log_n; i++)
		free(r->log[(r->log_head + i) % RUN_LOG]);
	plot_grid_done(&r->grid);
	for (int i = 0; i < PLOT_MAX_SERIES; i++)
		free(r->tmp[i]);
	free(r->fig);
	free(r);
}

/* Another lab's finished variants are not this one's to compare: drop
   them once a different lab is opened (not while a run draws them). */
static void
curves_for_lab(struct run *r, const struct tui *t)
{
	if (r->curves_gen != t->lab_gen && r->state != RUN_RUNNING) {
		curves_free(r);
		r->curves_gen = t->lab_gen;
	}
}

/* ---------------------------------------------------------------- start */

static void
start(struct run *r, struct tui *t, const char *const *confirmed, size_t nc,
    const struct confirm_set *bound)
{
	struct labrun_opts o = { .confirmed = confirmed,
		.nconfirmed = nc,
		.bound = bound,
		.variants = r->only,
		.confirm_typed = true,
		.tick_ms = t->tick_ms,
		.record = true };
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];

	err_clear(&e);
	labrun_free(r->lr);
	run_fleet_free(r);
	record_free(r->rec);
	r->rec = NULL;
	curves_for_lab(r, t);
	r->lr = labrun_start(t->lab, &o, &e);
	if (r->lr == NULL) {
		r->state = RUN_IDLE;
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
		return;
	}
	r->state = RUN_RUNNING;
	r->log_run = r->log_total;
	r->stopped = false;
	r->has_phase = false;
	r->run_start = tick_now_s();
	r->last_gen = 0;
	r->variant[0] = r->step[0] = r->workload[0] = r->test[0] = '\0';
	run_log(r, false, _("run of %s started"),
	    t->lab->name ? t->lab->name : "?");
}

/* The checks, then the run; data to destroy asks for the names to be
   typed. */
static void
check_start(struct run *r, struct tui *t)
{
	/* No --yes-destroy here: the refusals tell of the typed
	   confirmation. */
	struct labrun_opts o = { .confirm_typed = true,
		.tick_ms = t->tick_ms,
		.variants = r->only };
	struct labrun_check c;

	if (labrun_check(t->lab, &o, &c) == 0) {
		labrun_check_done(&c);
		start(r, t, NULL, 0, NULL);
		return;
	}
	size_t from = r->log_total;

	for (size_t i = 0; i < c.nmsgs; i++)
		run_log(r, !c.msgs[i].note, "%s", c.msgs[i].text);
	if (c.rc == -EPERM && c.ndestroy > 0) {
		/* Would the run go ahead with them confirmed? */
		struct labrun_check c2;

		o.confirmed = (const char *const *)c.destroy;
		o.nconfirmed = c.ndestroy;
		if (labrun_check(t->lab, &o, &c2) == 0) {
			destroy_free(r);
			r->destroy = c.destroy;
			r->ndestroy = c.ndestroy;
			r->destroy_text = c.destroy_text;
			c.destroy = NULL;
			c.ndestroy = 0;
			c.destroy_text = NULL;
			/* What the dialog shows: what typing binds to. */
			r->bound = c.bound;
			c.bound = NULL;
			r->typed[0] = '\0';
			r->state = RUN_CONFIRM;
		}
		labrun_check_done(&c2);
	}
	if (r->state != RUN_CONFIRM)
		refusal_dialog(r, t, from);
	labrun_check_done(&c);
}

/* r: the lab checked; variants that cannot build on this machine (md
   without the md driver) are asked about once, before anything runs. */
static void
request_start(struct run *r, struct tui *t)
{
	const struct lab *lab = t->lab;
	struct errlist errs;
	size_t nfail, nsel;

	errlist_init(&errs);
	if (lab_check(lab, &errs) < 0) {
		char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];

		errlist_sort(&errs);
		err_format(&errs.v[0], b, sizeof b);
		/* whole: a dialog when the status bar would cut it */
		if (tui_width(b) < t->cols)
			tui_message(t, true, "%s", b);
		else
			tui_dialog(t, true, _("Refused"), b);
		errlist_done(&errs);
		return;
	}
	errlist_done(&errs);
	if (run_fleet_wanted(t)) {
		run_fleet_start(r, t);
		return;
	}
	free(r->only);
	r->only = xcalloc(lab->nvariants + 1, sizeof *r->only);
	nfail = prov_md_missing(lab, NULL, &nsel, r->only);
	if (nfail == 0) {
		free(r->only);
		r->only = NULL;
		check_start(r, t);
	} else if (nfail == nsel) {
		free(r->only);
		r->only = NULL;
		tui_message(t, true,
		    ngettext("the variant cannot build on this machine (no md "
			     "driver): nothing was run",
			"none of the %zu variants can build on this machine "
			"(no md driver): nothing was run",
			nfail),
		    nfail);
	} else {
		r->state = RUN_ASK_SKIP;
		tui_message(t, false,
		    ngettext("%zu variant cannot build on this machine (no md "
			     "driver): run the other %zu? y/n",
			"%zu variants cannot build on this machine (no md "
			"driver): run the other %zu? y/n",
			nfail),
		    nfail, nsel - nfail);
	}
}

/* The answer to request_start()'s question. */
static enum tui_handled
ask_key(struct run *r, struct tui *t, int ch)
{
	r->state = RUN_IDLE;
	if (ch == 'y' || ch == 'Y') {
		check_start(r, t);
	} else {
		free(r->only);
		r->only = NULL;
		tui_message(t, false, "%s",
		    _("cancelled: nothing was changed"));
	}
	return TUI_HANDLED;
}

/* The typed names must be exactly the devices to destroy, in any order
   (commas or blanks between them). */
static bool
typed_matches(const struct run *r)
{
	char copy[sizeof r->typed], *w, *save = NULL;
	size_t n = 0;

	snprintf(copy, sizeof copy, "%s", r->typed);
	for (w = strtok_r(copy, ", ", &save); w != NULL;
	     w = strtok_r(NULL, ", ", &save)) {
		size_t i;

		for (i = 0; i < r->ndestroy; i++)
			if (strcmp(w, r->destroy[i]) == 0)
				break;
		if (i == r->ndestroy)
			return false;
		n++;
	}
	return n == r->ndestroy;
}

static enum tui_handled
confirm_key(struct run *r, struct tui *t, int ch)
{
	size_t len = strlen(r->typed);

	if (ch == 27) { /* Esc */
		r->state = RUN_IDLE;
		tui_message(t, false, "%s",
		    _("cancelled: nothing was changed"));
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		if (typed_matches(r)) {
			start(r, t, (const char *const *)r->destroy,
			    r->ndestroy, r->bound);
		} else {
			r->state = RUN_IDLE;
			tui_message(t, true, "%s",
			    _("the names typed are not the devices to "
			      "destroy: refused, nothing was changed"));
		}
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len > 0)
			r->typed[len - 1] = '\0';
	} else if (ch >= 32 && ch < 127 && len + 1 < sizeof r->typed) {
		r->typed[len] = (char)ch;
		r->typed[len + 1] = '\0';
	}
	t->redraw = true;
	return TUI_HANDLED;
}

static const char *
run_busy(void *p, const struct tui *t)
{
	const struct run *r = p;

	(void)t;
	return r->state != RUN_RUNNING
	    ? NULL
	    : _("a run is in progress: q or F10 again stops it (what was "
		"built is torn down) and quits");
}

static bool
run_stop(void *p, struct tui *t)
{
	struct run *r = p;

	(void)t;
	if (r->state != RUN_RUNNING)
		return false;
	if (r->fr != NULL) {
		fleet_run_stop(r->fr);
		run_log(r, false, "%s",
		    _("stopping every host: each tears down what it built"));
		return true;
	}
	labrun_stop(r->lr);
	run_log(r, false, "%s",
	    _("stopping: the run ends, what was built is torn down"));
	return true;
}

static enum tui_handled
run_key(void *p, struct tui *t, int ch)
{
	struct run *r = p;

	if (r->state == RUN_CONFIRM)
		return confirm_key(r, t, ch);
	if (r->state == RUN_ASK_SKIP)
		return ask_key(r, t, ch);
	switch (ch) {
	case 'r':
		if (r->state == RUN_RUNNING)
			tui_message(t, false, "%s", _("a run is in progress"));
		else
			request_start(r, t);
		break;
	case 'x':
		run_stop(r, t);
		break;
	case 'c':
		if (r->state != RUN_RUNNING)
			curves_free(r);
		break;
	case 'o':
		overlay_next(r, t, RUN_OVERLAID);
		break;
	case 'l': {
		char *all = run_log_since(r, 0, false);

		tui_dialog(t, false, _("Run log"),
		    *all != '\0' ? all : _("(nothing logged yet)"));
		free(all);
		break;
	}
	case KEY_PPAGE:
	case KEY_NPAGE: {
		int page = t->rows / 8 > 1 ? t->rows / 8 : 1;

		/* run_draw_body() clamps it to the lines there are */
		r->log_back += ch == KEY_PPAGE ? page : -page;
		if (r->log_back < 0)
			r->log_back = 0;
		break;
	}
	default:
		return TUI_UNHANDLED;
	}
	t->redraw = true;
	return TUI_HANDLED;
}

/* ---------------------------------------------------------------- events */

static const char *
run_record_path(const struct run *r)
{
	return r->rec != NULL && r->rec->path != NULL ? r->rec->path : "-";
}

/* The status the runner gave its record: shown, never decided here. */
static const char *
run_record_status(const struct run *r)
{
	return r->rec != NULL ? record_status(r->rec->root) : _("not recorded");
}

static void
on_done(struct run *r, struct tui *t)
{
	struct labrun_summary s;

	labrun_summary(r->lr, &s);
	r->state = RUN_DONE;
	r->step[0] = r->test[0] = '\0';
	r->nmembers = 0;
	if (s.refused) {
		run_log(r, true, "%s", _("refused: nothing was changed"));
		refusal_dialog(r, t, r->log_run);
		return;
	}
	/* Saved by the runner; a failed save was said in the log. */
	r->rec = labrun_take_record(r->lr);
	if (r->rec != NULL && r->rec->path != NULL) {
		free(t->last_record);
		t->last_record = xstrdup(r->rec->path);
		t->last_record_gen = t->lab_gen;
	}
	r->stopped = s.stopped;
	if (s.stopped) {
		run_log(r, true,
		    ngettext("stopped: %d run done, %d failed; record %s (%s)",
			"stopped: %d runs done, %d failed; record %s (%s)",
			(unsigned long)s.ran),
		    s.ran, s.failed, run_record_path(r), run_record_status(r));
		tui_message(t, true,
		    ngettext("run stopped: %d run done, %d failed",
			"run stopped: %d runs done, %d failed",
			(unsigned long)s.ran),
		    s.ran, s.failed);
		return;
	}
	run_log(r, s.failed > 0,
	    ngettext("done: %d run, %d failed; record %s (%s)",
		"done: %d runs, %d failed; record %s (%s)",
		(unsigned long)s.ran),
	    s.ran, s.failed, run_record_path(r), run_record_status(r));
	tui_message(t, s.failed > 0,
	    ngettext("run done: %d run, %d failed",
		"run done: %d runs, %d failed", (unsigned long)s.ran),
	    s.ran, s.failed);
}

/* A test start's step (ev->done of ev->total), the ETA's base: a new
   sequence (another total, or a step back) starts the clock again. */
static void
progress(struct run *r, const struct labrun_event *ev)
{
	if (ev->total == 0) {
		r->prog_total = 0;
		return;
	}
	if (ev->total != r->prog_total || ev->done < r->prog_done) {
		r->prog_first = ev->done;
		r->prog_t0 = tick_now_s();
	}
	r->prog_done = ev->done;
	r->prog_total = ev->total;
}

static void
phase_log(struct run *r, const struct tui *t, const struct prov_progress *pr)
{
	char line[512];

	labrun_phase_line(pr, 0, t->ascii, line, sizeof line);
	run_log(r, false, "  %s", line);
}

/* A workload run begins: the status line's workload, repeat and goal. */
static void
on_run(struct run *r, const struct labrun_event *ev)
{
	const struct lab *lab = labrun_lab(r->lr);
	const struct lab_workload *w = &lab->workloads[ev->workload];

	snprintf(r->workload, sizeof r->workload, "%.63s",
	    lab_workload_name(w));
	r->repeat = ev->repeat;
	r->repeats = (int)ev->total;
	r->expect = ev->value;
	r->prog_total = 0;
	r->ci = ev->ci;
	r->goal = ev->goal;
	r->left = ev->left;
	r->run_start = tick_now_s();
	r->last_gen = 0;
	/* curve_rest() takes it as what this run's ticks pushed */
	memset(&r->last, 0, sizeof r->last);
	r->step[0] = r->test[0] = '\0';
}

static void
on_event(struct run *r, struct tui *t, const struct labrun_event *ev)
{
	struct labrun_result *res;

	switch (ev->type) {
	case LABRUN_VARIANT:
		snprintf(r->variant, sizeof r->variant, "%.63s", ev->text);
		/* the status line names what runs now, not the previous
		   variant's last test */
		r->workload[0] = r->test[0] = r->step[0] = '\0';
		r->expect = 0;
		r->left = NAN;
		r->has_phase = false;
		curve_new(r, ev->text);
		run_log(r, false, _("variant %s (%s)"), ev->text, ev->key);
		break;
	case LABRUN_STEP:
		/* a step is shown instead of the test that ended before it;
		   one outside a workload run (build, teardown) alone */
		snprintf(r->step, sizeof r->step, "%s", ev->text);
		r->test[0] = '\0';
		if (ev->workload < 0) {
			r->workload[0] = '\0';
			run_log(r, false, "  %s", ev->text);
		}
		break;
	case LABRUN_RESYNC:
		r->workload[0] = r->test[0] = '\0';
		snprintf(r->step, sizeof r->step, _("resync %s: %.1f%%"),
		    ev->text,
		    ev->total ? 100.0 * (double)ev->done / (double)ev->total
			      : 0.0);
		break;
	case LABRUN_RUN:
		on_run(r, ev);
		break;
	case LABRUN_TEST:
		snprintf(r->test, sizeof r->test, "%.127s", ev->text);
		if (!ev->end)
			progress(r, ev);
		if (ev->end)
			run_log(r, false, "  %s: %s: %.2f %s", r->workload,
			    ev->text, ev->value,
			    wl_unit_name((enum wl_unit)ev->unit));
		break;
	case LABRUN_PHASE:
		/* its end in the log too: the line goes with the variant */
		if (ev->phase.finished && !(r->has_phase && r->phase.finished))
			phase_log(r, t, &ev->phase);
		r->phase = ev->phase;
		r->has_phase = true;
		break;
	case LABRUN_NOTE:
	case LABRUN_ERROR:
		run_log(r, ev->type == LABRUN_ERROR, "%s", ev->text);
		break;
	case LABRUN_RESULT:
		/* The runner recorded it already. One a RESULT event: a
		   later one may be queued before its own VARIANT event was
		   read, and belongs to the next curve. */
		if ((res = labrun_take(r->lr)) != NULL) {
			if (res->res != NULL && r->ncurves > 0)
				curve_rest(r, res->res);
			labrun_result_free(res);
		}
		break;
	case LABRUN_DONE:
		on_done(r, t);
		break;
	}
}

static int
run_fd(void *p)
{
	struct run *r = p;

	if (r->fr != NULL && r->state == RUN_RUNNING)
		return fleet_run_fd(r->fr);
	return r->lr != NULL && r->state == RUN_RUNNING ? labrun_fd(r->lr) : -1;
}

static void
run_readable(void *p, struct tui *t)
{
	struct run *r = p;
	struct labrun_event ev;

	if (r->fr != NULL) {
		run_fleet_readable(r, t);
		return;
	}
	while (r->lr != NULL && labrun_pop(r->lr, &ev))
		on_event(r, t, &ev);
	t->redraw = true;
}

/* A stopped run's end: its teardown, and its record kept, interrupted. */
static void
run_finish(void *p, struct tui *t)
{
	struct run *r = p;

	while ((r->lr != NULL || r->fr != NULL) && r->state == RUN_RUNNING) {
		struct pollfd pf = { .fd = run_fd(r), .events = POLLIN };

		poll(&pf, 1, 1000);
		run_readable(r, t);
	}
}

static void
run_draw(void *p, struct tui *t, WINDOW *w)
{
	struct run *r = p;

	curves_for_lab(r, t);
	run_draw_body(r, t, w);
	if (r->state == RUN_CONFIRM)
		run_draw_confirm(r, t, w);
}

static const struct tui_hotkey run_hotkeys[] = {
	/* TRANSLATORS: the second text is a word or two in the status bar. */
	{ KEY_F(5), "F5", 'r', N_("run the lab (the Run screen's r)"),
	    N_("run") },
	{ 0, NULL, 0, NULL, NULL },
};

const struct tui_screen tui_run = {
	.name = N_("Run"),
	.keys = run_keys,
	.hotkeys = run_hotkeys,
	.init = run_init,
	.free = run_free,
	.draw = run_draw,
	.key = run_key,
	.tick = run_tick,
	.fd = run_fd,
	.readable = run_readable,
	.busy = run_busy,
	.stop = run_stop,
	.finish = run_finish,
	.status = N_("r run  x stop  l log  o other lines  c clear"),
};
