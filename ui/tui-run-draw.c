/*
 * The Run screen's drawing: the status line (variant, step, workload,
 * repeat, elapsed, ETA), throughput (MB/s read and write) and files/s as
 * charts side by side with current, average and peak values and two
 * completed variants' curves drawn over them for comparison, the member
 * devices' activity bars, the log, and the typed confirmation dialog.
 * Charts come from plot.h; this file only places cells and colours them.
 * UI thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "plot.h"
#include "record.h"
#include "rounds.h"
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

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static enum plot_style
style(const struct tui *t)
{
	return t->ascii ? PLOT_ASCII : PLOT_BRAILLE;
}

static void
status_line(struct run *r, struct tui *t, WINDOW *w)
{
	char line[512], eta[96] = "", round[128];
	double el = now_s() - r->run_start;

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
	if (r->expect > 0 && isfinite(r->left))
		snprintf(eta, sizeof eta,
		    _(", about %.0f s left, ~%.0f min in all"),
		    r->expect > el ? r->expect - el : 0.0,
		    (r->left > el ? r->left - el : 0.0) / 60);
	else if (r->expect > 0)
		snprintf(eta, sizeof eta, _(", about %.0f s left"),
		    r->expect > el ? r->expect - el : 0.0);
	rounds_progress(r->repeat, (unsigned long long)r->repeats, r->ci,
	    r->goal, round, sizeof round);
	if (r->workload[0] == '\0') /* building, tearing down */
		snprintf(line, sizeof line, "%s: %s", r->variant,
		    r->step[0] ? r->step : _("starting"));
	else
		snprintf(line, sizeof line, _("%s: %s %s: %s, %.0f s%s"),
		    r->variant, r->workload, round,
		    r->test[0] ? r->test : r->step, el, eta);
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

				setcchar(&run[i], wc, (attr_t)a & ~A_COLOR,
				    (short)PAIR_NUMBER(a), NULL);
			}
			wmove(w, y + row, x + c0);
			wadd_wchnstr(w, run, n);
		}
}

/* Which colour is which area, right-aligned to column end (colour only:
   without it the areas cannot be told apart anyway). */
static void
legend(struct tui *t, WINDOW *w, int y, int end)
{
	const char *wr = _("write"), *rd = _("read");
	int x = end - (int)strlen(wr) - 1 - (int)strlen(rd);

	wattron(w, tui_attr(t, TUI_PAIR_SERIES0));
	tui_put(w, y, x, (int)strlen(wr), wr);
	wattroff(w, tui_attr(t, TUI_PAIR_SERIES0));
	wattron(w, tui_attr(t, TUI_PAIR_SERIES1));
	tui_put(w, y, x + (int)strlen(wr) + 1, (int)strlen(rd), rd);
	wattroff(w, tui_attr(t, TUI_PAIR_SERIES1));
}

/*
 * One chart: title with the figures of fig (nfig values: the current
 * variant's whole curve, not only what is in view), the grid, its scale.
 * y_all: the current variant's series (slots 0, 1) and the completed
 * variants' (slots 2.., drawn as lines), n samples each.
 */
static void
chart(struct run *r, struct tui *t, WINDOW *w, int y, int x, int cw, int ch,
    const char *title, const double *fig, size_t nfig,
    const double *const *y_all, size_t n)
{
	struct plot_stats st;
	char line[256], a[PLOT_SHORT_BUF], b[PLOT_SHORT_BUF], c[PLOT_SHORT_BUF];
	char m[PLOT_SHORT_BUF];

	plot_stats(fig, nfig, &st);
	snprintf(line, sizeof line, _("%s now %s avg %s peak %s"), title,
	    plot_short(st.cur, a, sizeof a), plot_short(st.avg, b, sizeof b),
	    plot_short(st.peak, c, sizeof c));
	tui_put(w, y, x, cw, line);
	plot_render_ex(&r->grid, cw, ch, style(t), y_all, NSLOTS, n, 0,
	    ((1u << NSLOTS) - 1) & ~((1u << SLOT_PREV) - 1));
	blit(t, w, &r->grid, y + 1, x);
	wattron(w, tui_attr(t, TUI_PAIR_DIM));
	tui_put(w, y + 1, x, 6, plot_short(r->grid.ymax, m, sizeof m));
	wattroff(w, tui_attr(t, TUI_PAIR_DIM));
	if (y_all[1] != NULL && t->color)
		legend(t, w, y + 1, x + cw);
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
   where a curve has none). */
static size_t
series(struct run *r, double **tmp, int which, const double **out, size_t cap)
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

static void
log_lines(struct run *r, struct tui *t, WINDOW *w, int y, int rows)
{
	size_t first = r->log_n > (size_t)rows ? r->log_n - (size_t)rows : 0;

	for (size_t i = first; i < r->log_n; i++) {
		const char *l = r->log[(r->log_head + i) % RUN_LOG];
		int a = l[0] == '!' ? tui_attr(t, TUI_PAIR_BAD) : (int)A_NORMAL;

		wattron(w, a);
		tui_put(w, y + (int)(i - first), 0, t->cols, l + 1);
		wattroff(w, a);
	}
}

void
run_draw_body(struct run *r, struct tui *t, WINDOW *w)
{
	int rows = getmaxy(w), nmem = (int)r->nmembers;
	int logn = rows / 4 > 3 ? rows / 4 : 3;
	int ch, cw = (t->cols - 1) / 2;

	if (nmem > rows / 5)
		nmem = rows / 5;
	ch = rows - 1 - 1 - nmem - logn - 1;
	status_line(r, t, w);
	if (ch >= 2 && r->ncurves > 0) {
		const struct series *cur = &r->curves[r->ncurves - 1].s;
		const double *y[NSLOTS];
		size_t n;

		/* the title's figures are of both areas: a write workload's
		   MB/s is all in the second */
		for (size_t i = 0; i < cur->n; i++)
			r->fig[i] = sample_read_mbps(series_at(cur, i)) +
			    sample_write_mbps(series_at(cur, i));
		n = series(r, r->tmp, 0, y, plot_capacity(cw, style(t)));
		chart(r, t, w, 1, 0, cw, ch, _("MB/s read+write"), r->fig,
		    cur->n, y, n);
		for (size_t i = 0; i < cur->n; i++)
			r->fig[i] = sample_files_per_s(series_at(cur, i));
		n = series(r, r->tmp, 1, y,
		    plot_capacity(t->cols - cw - 1, style(t)));
		chart(r, t, w, 1, cw + 1, t->cols - cw - 1, ch, _("files/s"),
		    r->fig, cur->n, y, n);
	}
	for (int k = 0; k < NPREV && run_overlaid(r, (size_t)k) != NULL; k++) {
		enum tui_pair p = k == 0 ? TUI_PAIR_SERIES2 : TUI_PAIR_SERIES3;
		char legend[160], name[128];
		int x = k * (t->cols / NPREV);

		/* the name cut in the middle to what the words leave */
		snprintf(legend, sizeof legend, _("line: %s (done)"), "");
		tui_cut_mid(t, run_overlaid(r, (size_t)k)->name, 0,
		    t->cols / NPREV - tui_width(legend), name, sizeof name);
		snprintf(legend, sizeof legend, _("line: %s (done)"), name);
		wattron(w, tui_attr(t, p));
		tui_put(w, 2 + ch, x, t->cols / NPREV, legend);
		wattroff(w, tui_attr(t, p));
	}
	members(r, t, w, 3 + ch, nmem);
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
