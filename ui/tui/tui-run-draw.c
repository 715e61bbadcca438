/*
 * The Run screen's drawing: the status line (variant, step, workload,
 * repeat, elapsed, ETA), the variant's fault phase, throughput (MB/s
 * read and write) and files/s as charts side by side with current,
 * average and peak values and two completed variants' curves drawn over
 * them for comparison, the member devices' activity bars, the log, and
 * the typed confirmation dialog.
 * Charts come from plot.h; this file only places cells and colours them.
 * UI thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/i18n.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "figures/plot.h"
#include "fleet/fleet-run.h"
#include "results/record.h"
#include "run/labrun.h"
#include "run/rounds.h"
#include "tui-run.h"
#include "tui.h"

/* Series slots: the current variant's areas (throughput: write, then
   read + write, so the read area is stacked on the write one and the top
   edge is the total the title gives and a completed variant's line
   shows; files/s: one area), then the completed variants run_overlaid()
   names (lines). */
#define SLOT_PREV 2
#define NPREV RUN_OVERLAID
#define NSLOTS PLOT_MAX_SERIES
_Static_assert(SLOT_PREV + NPREV <= PLOT_MAX_SERIES, "too many lines");

/* Without colour (--ascii, NO_COLOR) the series are told apart by their
   glyphs: one series a cell, so ASCII cells, each drawn with its owner's
   glyph (owner_glyph()), or a dot where the areas fill a third of it
   (cell_glyph()). */
static bool
glyphs(const struct tui *t)
{
	return t->ascii || !t->color;
}

static enum plot_style
style(const struct tui *t)
{
	return glyphs(t) ? PLOT_ASCII : PLOT_BRAILLE;
}

/* The glyph of a cell's topmost series: the completed variants' lines
   over the areas, the write area under the read one. */
static wchar_t
owner_glyph(unsigned char owner)
{
	return owner & 4 ? L'1' : owner & 8 ? L'2' : owner & 1 ? L'#' : L':';
}

/* A drawn cell's glyph. A cell the areas light in its lowest third alone
   keeps plot's '.': a glyph fills the cell, so a value near zero on the
   scale (bonnie's per-char write beside its block write) read as a full
   row of '#'. A line keeps its glyph at any height. */
static wchar_t
cell_glyph(const struct plot_cell *c)
{
	bool line = (c->owner >> SLOT_PREV) != 0;

	return c->cp == '.' && !line ? L'.' : owner_glyph(c->owner);
}

static void
status_line(struct run *r, struct tui *t, WINDOW *w)
{
	char line[512], eta[96] = "", all[96] = "", steps[96] = "", round[128];
	double el = tick_now_s() - r->run_start;

	if (r->state == RUN_IDLE || r->state == RUN_CONFIRM ||
	    r->state == RUN_ASK_SKIP) {
		tui_put(w, 0, 0, t->cols,
		    _("Press r to run the lab; F1 for the keys."));
		return;
	}
	if (r->state == RUN_DONE) {
		snprintf(line, sizeof line,
		    r->stopped ? _("Stopped (the record says %s). Press r to "
				   "run again, 5 to compare.")
			       : _("Finished. The record says %s. Press r to "
				   "run again, 5 to compare."),
		    r->rec == NULL ? _("nothing: not recorded")
			: record_status(r->rec->root) != NULL
			? record_status(r->rec->root)
			: "?");
		tui_put(w, 0, 0, t->cols, line);
		return;
	}
	/* This run's time left from the previous run of it; the whole
	   run's from the runner's estimate (the likely rounds included,
	   counted from this run's start). */
	if (r->expect > 0)
		snprintf(eta, sizeof eta, _(", about %.0f s left"),
		    r->expect > el ? r->expect - el : 0.0);
	if (r->expect > 0 && isfinite(r->left))
		snprintf(all, sizeof all, _(", ~%.0f min in all"),
		    (r->left > el ? r->left - el : 0.0) / 60);
	/* A workload's own steps (compilebench's runs): their pace so far
	   to the last one, the current one included. */
	if (r->prog_total > 0 && r->prog_done > r->prog_first) {
		double per = (tick_now_s() - r->prog_t0) /
		    (double)(r->prog_done - r->prog_first);

		snprintf(steps, sizeof steps, _(", about %.0f s to the last"),
		    per * (double)(r->prog_total - r->prog_done + 1));
	}
	rounds_progress(r->repeat, (unsigned long long)r->repeats, r->ci,
	    r->goal, round, sizeof round);
	if (r->workload[0] == '\0') { /* building, tearing down */
		snprintf(line, sizeof line, "%s: %s", r->variant,
		    r->step[0] ? r->step : _("starting"));
	} else {
		/* the estimates go first, the least telling first, so that
		   what stays is never cut inside a number */
		const char *tails[][3] = { { steps, eta, all },
			{ steps, eta, "" }, { steps, "", "" }, { "", "", "" } };

		for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
			snprintf(line, sizeof line,
			    _("%s: %s %s: %s, %.0f s%s"), r->variant,
			    r->workload, round, r->test[0] ? r->test : r->step,
			    el, "");
			snprintf(line + strlen(line),
			    sizeof line - strlen(line), "%s%s%s", tails[k][0],
			    tails[k][1], tails[k][2]);
			if (tui_width(line) <= t->cols)
				break;
		}
	}
	wattron(w, A_BOLD);
	tui_put(w, 0, 0, t->cols, line);
	wattroff(w, A_BOLD);
}

static enum tui_pair
owner_pair(unsigned char owner)
{
	if (owner & 1)
		return TUI_PAIR_SERIES0;
	if (owner & 2)
		return TUI_PAIR_SERIES1;
	if (owner & 4)
		return TUI_PAIR_SERIES2;
	if (owner & 8)
		return TUI_PAIR_SERIES3;
	return TUI_PAIR_NONE;
}

/* Cells written at once by blit(). */
#define BLIT_RUN 128

/* The grid's cells as wide characters from their code points, a run of
   cells per call: a chart is most of a big screen, and waddstr() would
   decode every cell's UTF-8 again each frame (most of the UI thread's
   time at 400 columns, measured with perf). */
static void
blit(struct tui *t, WINDOW *w, const struct plot_grid *g, int y, int x)
{
	cchar_t run[BLIT_RUN];

	for (int row = 0; row < g->h; row++)
		for (int c0 = 0; c0 < g->w; c0 += BLIT_RUN) {
			int n = g->w - c0 < BLIT_RUN ? g->w - c0 : BLIT_RUN;

			for (int i = 0; i < n; i++) {
				const struct plot_cell *c =
				    plot_cell_at(g, row, c0 + i);
				int a = c->owner
				    ? tui_attr(t, owner_pair(c->owner))
				    : (int)A_NORMAL;
				wchar_t wc[2] = { (wchar_t)c->cp, L'\0' };

				if (glyphs(t) && c->owner != 0 && c->cp != ' ')
					wc[0] = cell_glyph(c);

				setcchar(&run[i], wc, (attr_t)a & ~A_COLOR,
				    (short)PAIR_NUMBER(a), NULL);
			}
			wmove(w, y + row, x + c0);
			wadd_wchnstr(w, run, n);
		}
}

/* One legend entry at x: the series' mark (its glyph, or a block in its
   colour) and its name; returns the columns it took. */
static int
legend_entry(struct tui *t, WINDOW *w, int y, int x, enum tui_pair p,
    char glyph, const char *name)
{
	char mark[8] = { glyph, '\0' };

	if (!glyphs(t))
		snprintf(mark, sizeof mark, "%s", "\u2588");
	tui_put(w, y, x - 1, 1, " ");
	wattron(w, tui_attr(t, p));
	tui_put(w, y, x, 1, mark);
	wattroff(w, tui_attr(t, p));
	mvwhline(w, y, x + 1, ' ', 1 + tui_width(name) + 1);
	tui_put(w, y, x + 2, tui_width(name), name);
	return 2 + tui_width(name) + 2;
}

/* The chart's legend, right-aligned on its bottom border before end
   (width: the frame's):
   write and read (throughput), or the current variant (files/s). */
static void
legend(struct tui *t, WINDOW *w, int y, int end, int width, bool areas,
    const char *variant)
{
	const char *wr = _("write"), *rd = _("read");
	char name[128];
	int need, x;

	/* a long variant name cut in the middle to the frame's width */
	tui_cut_mid(t, variant, 0, width - 8, name, sizeof name);
	need = areas ? 2 + tui_width(wr) + 2 + 2 + tui_width(rd)
		     : 2 + tui_width(name);
	x = end - need - 2; /* a blank on each side, off the border */

	if (x - 1 <= end - width + 1) /* its blank on the left border */
		return;
	if (areas) {
		x += legend_entry(t, w, y, x, TUI_PAIR_SERIES0, '#', wr);
		legend_entry(t, w, y, x, TUI_PAIR_SERIES1, ':', rd);
	} else {
		legend_entry(t, w, y, x, TUI_PAIR_SERIES0, '#', name);
	}
}

/* The title and as many words as fit in cw columns: the figures are
   never cut, the words around them go first. */
static void
title_fit(char *line, size_t len, int cw, const char *title, const char *a,
    const char *b, const char *c)
{
	snprintf(line, len, _("%s now %s avg %s peak %s"), title, a, b, c);
	if (tui_width(line) <= cw)
		return;
	/* TRANSLATORS: the short title: now, average and peak */
	snprintf(line, len, _("%s %s / %s / %s"), title, a, b, c);
	if (tui_width(line) <= cw)
		return;
	/* the unit alone ("MB/s" of "MB/s read+write") */
	snprintf(line, len, "%.*s %s/%s/%s", (int)strcspn(title, " "), title, a,
	    b, c);
	if (tui_width(line) <= cw)
		return;
	snprintf(line, len, "%s/%s/%s", a, b, c);
}

/* Seconds for the time axis: "45s", "12m" past 10 minutes. */
static void
time_label(double s, char *buf, size_t len)
{
	if (!(s >= 0))
		s = 0;
	if (s < 600)
		/* TRANSLATORS: seconds on the time axis, short */
		snprintf(buf, len, _("%.0fs"), s);
	else
		/* TRANSLATORS: minutes on the time axis, short */
		snprintf(buf, len, _("%.0fm"), s / 60);
}

/* Where a chart's samples lie in time: the first shown bin's start and
   the last one's end, seconds since the variant started. */
struct span {
	double t0, t1;
};

/*
 * The time axis under the grid (gx, gw: its columns): the start of the
 * first sample shown where the samples begin, the end of the newest at
 * the right edge, and the middle between, each where it fits.
 */
static void
time_axis(struct tui *t, WINDOW *w, int y, int gx, int gw, size_t n,
    const struct span *sp)
{
	size_t per = plot_capacity(1, style(t));
	int used = (int)((n + per - 1) / per), x0;
	char a[16], b[16], m[16];

	if (used > gw)
		used = gw;
	x0 = gx + gw - used;
	time_label(sp->t1, b, sizeof b);
	wattron(w, tui_attr(t, TUI_PAIR_DIM));
	tui_put(w, y, gx + gw - tui_width(b), tui_width(b), b);
	time_label(sp->t0, a, sizeof a);
	if (used >= tui_width(a) + tui_width(b) + 2)
		tui_put(w, y, x0, tui_width(a), a);
	time_label((sp->t0 + sp->t1) / 2, m, sizeof m);
	if (used >= tui_width(a) + tui_width(m) + tui_width(b) + 6)
		tui_put(w, y, x0 + (used - tui_width(m)) / 2, tui_width(m), m);
	wattroff(w, tui_attr(t, TUI_PAIR_DIM));
}

/* The y scale left of the grid (rows y.. y + gh - 1), lw columns:
   the top of the scale, its half, and 0 at the bottom. */
static void
y_scale(struct tui *t, WINDOW *w, int y, int x, int lw, int gh, double ymax)
{
	char m[PLOT_SHORT_BUF];

	wattron(w, tui_attr(t, TUI_PAIR_DIM));
	plot_short(ymax, m, sizeof m);
	tui_put(w, y, x + lw - tui_width(m), tui_width(m), m);
	if (gh >= 5) {
		plot_short(ymax / 2, m, sizeof m);
		tui_put(w, y + gh / 2, x + lw - tui_width(m), tui_width(m), m);
	}
	if (gh >= 2)
		tui_put(w, y + gh - 1, x + lw - 1, 1, "0");
	wattroff(w, tui_attr(t, TUI_PAIR_DIM));
}

/* What one chart shows: its title, the figures of fig (nfig values: the
   current variant's whole curve, not only what is in view), its series
   (y_all: the current variant's areas in slots 0 and 1, the completed
   variants' lines after them; n samples each) and their time span. */
struct chart_data {
	const char *title, *variant;
	const double *fig;
	size_t nfig;
	const double *const *y_all;
	size_t n;
	struct span span;
};

/* The grid's width in a chart of cw x ch cells (chart()'s layout), as
   the samples it holds. */
static size_t
chart_capacity(const struct tui *t, int cw, int ch)
{
	bool frame = ch >= 5 && cw >= 24;

	return plot_capacity(frame ? cw - 2 - 5 - 1 : cw, style(t));
}

/*
 * One chart in a frame of cw x ch cells at y, x: the title with the
 * figures on the top border, the y scale left of the grid, the time axis
 * under it, the legend on the bottom border. Too small for a frame (under
 * 5 rows or 24 columns): the title and the grid alone.
 */
static void
chart(struct run *r, struct tui *t, WINDOW *w, int y, int x, int cw, int ch,
    const struct chart_data *d)
{
	struct plot_stats st;
	char line[256], a[PLOT_SHORT_BUF], b[PLOT_SHORT_BUF], c[PLOT_SHORT_BUF];
	bool frame = ch >= 5 && cw >= 24; /* as chart_capacity() */
	int lw = frame ? 5 : 0, gx = x + (frame ? 1 + lw + 1 : 0);
	int gw = frame ? cw - 2 - lw - 1 : cw, gh = frame ? ch - 3 : ch - 1;
	WINDOW *f;

	plot_stats(d->fig, d->nfig, &st);
	title_fit(line, sizeof line, frame ? cw - 6 : cw, d->title,
	    plot_short(st.cur, a, sizeof a), plot_short(st.avg, b, sizeof b),
	    plot_short(st.peak, c, sizeof c));
	if (frame && (f = derwin(w, ch, cw, y, x)) != NULL) {
		tui_box(t, f);
		delwin(f);
	}
	wattron(w, A_BOLD);
	if (frame) { /* on the border, a blank each side */
		mvwhline(w, y, x + 2, ' ', tui_width(line) + 2);
		tui_put(w, y, x + 3, cw - 6, line);
	} else {
		tui_put(w, y, x, cw, line);
	}
	wattroff(w, A_BOLD);
	plot_render_ex(&r->grid, gw, gh, style(t), d->y_all, NSLOTS, d->n, 0,
	    ((1u << NSLOTS) - 1) & ~((1u << SLOT_PREV) - 1));
	blit(t, w, &r->grid, y + 1, gx);
	if (!frame)
		return;
	y_scale(t, w, y + 1, x + 1, lw, gh, r->grid.ymax);
	time_axis(t, w, y + 1 + gh, gx, gw, d->n, &d->span);
	legend(t, w, y + ch - 1, x + cw - 1, cw, d->y_all[1] != NULL,
	    d->variant);
}

/* Sample i of a curve as the chart shows it (which: 0 throughput,
   1 files/s; area: 0 write, else read + write). */
static double
value(const struct series_rates *x, int which, int area)
{
	if (which == 1)
		return x->files_per_s;
	return area == 0 ? x->write_mbps : x->read_mbps + x->write_mbps;
}

/* Bin i of the chart in seconds since the variant's start: the current
   curve's sample i, then bins as wide as its samples past its end (w). */
static void
bin(const struct series *cur, size_t i, double w, double *t0, double *t1)
{
	if (i < cur->n) {
		*t1 = series_at(cur, i)->t;
		*t0 = *t1 - series_at(cur, i)->dt;
		return;
	}
	*t0 = (cur->n > 0 ? series_at(cur, cur->n - 1)->t : 0) +
	    (double)(i - cur->n) * w;
	*t1 = *t0 + w;
}

/* The current curve and up to NPREV completed ones before it, aligned by
   time since their start (a completed curve may be at another
   resolution: its rates over each of the current's samples), into tmp
   (which: 0 throughput, 1 files/s) for a chart that holds cap samples:
   all the samples of the first cap, then the window ending at the
   current curve's newest one, so it stays in view however long the
   older runs were. Throughput: the write area, the read + write one
   stacked on it, and a completed variant's read + write as a line, all
   comparable at the top edge. Returns the samples each series has (NAN
   where a curve has none); sp: the time they span. */
static size_t
series(struct run *r, double **tmp, int which, const double **out, size_t cap,
    struct span *sp)
{
	const struct series *cur = &r->curves[r->ncurves - 1].s;
	const struct run_curve *c;
	double w = series_sample_seconds(cur);
	size_t end = cur->n, start;

	if (cap > RUN_HISTORY) /* tmp's size */
		cap = RUN_HISTORY;
	for (size_t k = 0; k < NPREV && (c = run_overlaid(r, k)) != NULL; k++) {
		double len = c->s.n > 0 ? series_at(&c->s, c->s.n - 1)->t : 0;
		size_t need;

		if (!(w > 0))
			w = series_sample_seconds(&c->s);
		if (!(w > 0) || end >= cap)
			continue;
		/* the bins past the current's end that reach its end */
		len -= cur->n > 0 ? series_at(cur, cur->n - 1)->t : 0;
		need = cur->n + (len > 0 ? (size_t)ceil(len / w) : 0);
		if (need > end)
			end = need < cap ? need : cap;
	}
	start = end > cap ? end - cap : 0;
	sp->t0 = sp->t1 = 0;
	if (end > start) {
		double u;

		bin(cur, start, w, &sp->t0, &u);
		bin(cur, end - 1, w, &u, &sp->t1);
	}
	for (int sl = 0; sl < NSLOTS; sl++) {
		out[sl] = NULL;
		c = sl < SLOT_PREV ? &r->curves[r->ncurves - 1]
				   : run_overlaid(r, (size_t)(sl - SLOT_PREV));
		if (c == NULL || (sl == 1 && which == 1))
			continue; /* files/s has no second area */
		for (size_t i = start; i < end; i++) {
			struct series_rates x;
			double t0, t1, v = NAN;

			bin(cur, i, w, &t0, &t1);
			if (series_rates_between(&c->s, t0, t1, &x))
				v = value(&x, which, sl);
			tmp[sl][i - start] = v;
		}
		out[sl] = tmp[sl];
	}
	return end - start;
}

static void
members(struct run *r, struct tui *t, WINDOW *w, int y, int rows)
{
	for (size_t i = 0; i < r->nmembers && (int)i < rows; i++) {
		const struct run_member *m = &r->members[i];
		int bw = t->cols - 34 > 10 ? t->cols - 34 : 10;
		int fill = (int)(m->util / 100 * bw + 0.5);
		char line[96];

		snprintf(line, sizeof line, "%-10.10s", m->name);
		tui_put(w, y + (int)i, 0, 10, line);
		wattron(w, tui_attr(t, TUI_PAIR_SERIES2));
		wmove(w, y + (int)i, 11);
		for (int k = 0; k < bw; k++)
			waddstr(w,
			    k < fill ? (t->ascii ? "#" : "\u2588")
				     : (t->ascii ? "." : "\u2591"));
		wattroff(w, tui_attr(t, TUI_PAIR_SERIES2));
		snprintf(line, sizeof line, _(" %3.0f%% %7.1f MB/s"), m->util,
		    m->mbps);
		tui_put(w, y + (int)i, 11 + bw, t->cols - 11 - bw, line);
	}
}

/* The newest log lines that fit in rows, wrapped to the width (a line
   cut at the edge hid the end of a refusal), r->log_back rows back from
   the end; a '!' line in the error colour. */
static void
log_lines(struct run *r, struct tui *t, WINDOW *w, int y, int rows)
{
	size_t total = 0, skip, n = 0;
	struct tui_line *v;
	bool *bad;

	for (size_t i = 0; i < r->log_n; i++)
		total += tui_wrap_lines(r->log[(r->log_head + i) % RUN_LOG] + 1,
		    t->cols, NULL, 0);
	v = xcalloc(total + 1, sizeof *v);
	bad = xcalloc(total + 1, sizeof *bad);
	for (size_t i = 0; i < r->log_n; i++) {
		const char *l = r->log[(r->log_head + i) % RUN_LOG];
		size_t k = tui_wrap_lines(l + 1, t->cols, v + n, total - n);

		for (size_t j = 0; j < k; j++)
			bad[n + j] = l[0] == '!';
		n += k;
	}
	if ((size_t)r->log_back + (size_t)rows > total)
		r->log_back =
		    total > (size_t)rows ? (int)(total - (size_t)rows) : 0;
	skip = total > (size_t)rows + (size_t)r->log_back
	    ? total - (size_t)rows - (size_t)r->log_back
	    : 0;
	for (size_t i = skip; i < total && i < skip + (size_t)rows; i++) {
		int a = bad[i] ? tui_attr(t, TUI_PAIR_BAD) : (int)A_NORMAL;

		wattron(w, a);
		tui_put_line(w, y + (int)(i - skip), 0, t->cols, &v[i]);
		wattroff(w, a);
	}
	free(v);
	free(bad);
}

/* The variant's fault phase under the status line (the array not
   healthy on purpose: its figures are of that state), in the warning
   colour; labrun_phase_line() fits it to the width. */
static void
phase_line(struct run *r, struct tui *t, WINDOW *w, int y)
{
	char line[512];

	labrun_phase_line(&r->phase, t->cols, t->ascii, line, sizeof line);
	wattron(w, tui_attr(t, TUI_PAIR_WARN));
	tui_put(w, y, 0, t->cols, line);
	wattroff(w, tui_attr(t, TUI_PAIR_WARN));
}

void
run_draw_body(struct run *r, struct tui *t, WINDOW *w)
{
	int rows = getmaxy(w), nmem = (int)r->nmembers;
	int logn = rows / 4 > 3 ? rows / 4 : 3;
	int top = r->has_phase && rows >= 2 ? 2 : 1; /* the charts' row */
	int ch, cw = (t->cols - 1) / 2;

	if (r->fr != NULL) { /* a fleet: a line per host, not charts */
		int hr = (int)fleet_run_nhosts(r->fr) + 2;

		/* the log has the rest: the hosts' messages */
		if (hr > rows / 2)
			hr = rows / 2;
		run_fleet_status(r, t, w);
		run_fleet_draw(r, t, w, 2, hr);
		log_lines(r, t, w, 3 + hr, rows - 3 - hr);
		return;
	}
	if (nmem > rows / 5)
		nmem = rows / 5;
	/* a phase line takes its row from the charts: it says what their
	   figures are of */
	ch = rows - top - 1 - nmem - logn - 1;
	status_line(r, t, w);
	if (top == 2)
		phase_line(r, t, w, 1);
	if (ch >= 2 && r->ncurves > 0) {
		const struct series *cur = &r->curves[r->ncurves - 1].s;
		const double *y[NSLOTS];
		struct chart_data d = { .y_all = y,
			.fig = r->fig,
			.nfig = cur->n,
			.variant = r->curves[r->ncurves - 1].name };
		int cw2 = t->cols - cw - 1;

		/* the title's figures are of both areas: a write workload's
		   MB/s is all in the second */
		for (size_t i = 0; i < cur->n; i++)
			r->fig[i] = sample_read_mbps(series_at(cur, i)) +
			    sample_write_mbps(series_at(cur, i));
		d.title = _("MB/s read+write");
		d.n = series(r, r->tmp, 0, y, chart_capacity(t, cw, ch + 1),
		    &d.span);
		chart(r, t, w, top, 0, cw, ch + 1, &d);
		for (size_t i = 0; i < cur->n; i++)
			r->fig[i] = sample_files_per_s(series_at(cur, i));
		d.title = _("files/s");
		d.n = series(r, r->tmp, 1, y, chart_capacity(t, cw2, ch + 1),
		    &d.span);
		chart(r, t, w, top, cw + 1, cw2, ch + 1, &d);
	}
	for (int k = 0; k < NPREV && run_overlaid(r, (size_t)k) != NULL; k++) {
		enum tui_pair p = k == 0 ? TUI_PAIR_SERIES2 : TUI_PAIR_SERIES3;
		char legend[160], name[128];
		int x = k * (t->cols / NPREV);

		/* the name cut in the middle to what the words leave; without
		   colour, the line's glyph first */
		snprintf(legend, sizeof legend, _("line: %s (done)"), "");
		tui_cut_mid(t, run_overlaid(r, (size_t)k)->name, 0,
		    t->cols / NPREV - tui_width(legend) - 2, name, sizeof name);
		snprintf(legend, sizeof legend, "%s",
		    glyphs(t) ? (k == 0 ? "1 " : "2 ") : "");
		snprintf(legend + strlen(legend),
		    sizeof legend - strlen(legend), _("line: %s (done)"), name);
		wattron(w, tui_attr(t, p));
		tui_put(w, top + 1 + ch, x, t->cols / NPREV, legend);
		wattroff(w, tui_attr(t, p));
	}
	members(r, t, w, top + 2 + ch, nmem);
	log_lines(r, t, w, rows - logn, logn);
}

void
run_draw_confirm(struct run *r, struct tui *t, WINDOW *w)
{
	int h = 9, bw = t->cols - 4 < 76 ? t->cols - 4 : 76;
	int y0 = (getmaxy(w) - h) / 2, x0 = (t->cols - bw) / 2;
	WINDOW *d = derwin(w, h, bw, y0 > 0 ? y0 : 0, x0);
	char line[600];

	if (d == NULL)
		return;
	werase(d);
	tui_box(t, d);
	wattron(d, A_BOLD | tui_attr(t, TUI_PAIR_BAD));
	tui_put(d, 1, 2, bw - 4,
	    _("These devices hold data that the run "
	      "will destroy:"));
	wattroff(d, A_BOLD | tui_attr(t, TUI_PAIR_BAD));
	tui_put(d, 2, 2, bw - 4, r->destroy_text ? r->destroy_text : "");
	tui_put(d, 4, 2, bw - 4,
	    _("Type their names (as the lab names them) and press Enter;"));
	tui_put(d, 5, 2, bw - 4, _("Esc cancels."));
	snprintf(line, sizeof line, "> %s_", r->typed);
	tui_put(d, 7, 2, bw - 4, line);
	delwin(d);
}
