/*
 * Drawing the Compare screen: an information line, the table (a frozen
 * column of row labels, then the verdict of each row on the selected test
 * with its stability marks, then data columns scrolled to keep the
 * selected one in view, the best of each column starred and bold, a
 * colour scale from worst to best when colours are on), the bar chart of
 * the selected column (plot_bars), and the detail lines on the selected
 * row and cell: its answer, the row over all tests, its marks' reasons,
 * why its column is kept apart, how the verdicts were reached. The
 * picker of record files is tui-compare-picker.c's. See tui-compare.h.
 * UI thread only.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "figures/plot.h"
#include "results/compare-fleet.h"
#include "results/compare.h"
#include "results/record.h"
#include "results/report.h"
#include "tui-compare.h"
#include "tui-form.h"
#include "tui.h"

#define LABEL_MIN 8
#define LABEL_MAX 24
#define COL_MIN 7
#define COL_MAX 28
#define TITLE_MAX 22
#define VALUE_W 12 /* the value beside a bar */
#define VERDICT_MIN 12 /* "+27.1% ±4.2%" */
/* "+5193.5% ±4335.3% worse ! cv short" fits; a longer why is cut */
#define VERDICT_MAX 34
/* Lines under the bar chart for the selected row and cell: always that
   many, so that the table does not jump as the selection moves. */
#define DETAIL_ROWS 8

static void
row_label(const struct cmp *s, size_t i, char *buf, size_t len)
{
	const struct compare_row *r = &s->c.rows[i];
	size_t nrec = 0;

	for (size_t k = 0; k < s->c.nrows; k++)
		if (cmp_record_number(s, s->c.rows[k].record) > nrec)
			nrec = cmp_record_number(s, s->c.rows[k].record);
	/* "~": scratch disks, functional but not representative; a fleet's
	   rows by host, as raidlab compare names them. */
	if (compare_by_host(&s->c))
		snprintf(buf, len, "%s%s@%s", r->variant, r->scratch ? "~" : "",
		    r->host);
	else if (nrec > 1)
		snprintf(buf, len, "%s%s #%zu", r->variant,
		    r->scratch ? "~" : "", cmp_record_number(s, r->record));
	else
		snprintf(buf, len, "%s%s", r->variant, r->scratch ? "~" : "");
}

/* Row i's label in lw columns, cut in the middle: variants that share a
   prefix stay apart and the scratch mark and record number stay whole. */
static void
put_label(const struct cmp *s, const struct tui *t, WINDOW *w, int y, int x,
    int lw, size_t i)
{
	const char *v = s->c.rows[i].variant;
	char b[256];
	size_t n;

	row_label(s, i, b, sizeof b);
	n = strlen(b);
	tui_put_mid(t, w, y, x, lw, b, n - (v ? strlen(v) : 0));
}

/* "µs" as "us" in place under --ascii: the core writes it for the
   locale, which may be UTF-8 still. */
static void
ascii_mu(const struct tui *t, char *b)
{
	char *p;

	while (t->ascii && (p = strstr(b, "\u00b5")) != NULL) {
		*p = 'u';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
}

/* What the cell of row i, column k says in the current view. */
static void
cell_text(const struct cmp *s, const struct tui *t, size_t i, size_t k,
    char *buf, size_t len)
{
	const struct compare_cell *c = compare_cell(&s->c, i, k);
	const struct compare_col *col = &s->c.cols[k];
	char m[COMPARE_NUM_BUF], sd[COMPARE_NUM_BUF], pct[COMPARE_NUM_BUF];

	if (c->n == 0) {
		snprintf(buf, len, "%s", c->failed ? _("failed") : "-");
		return;
	}
	if (c->too_fast) {
		snprintf(buf, len, "+++++");
		return;
	}
	compare_format_value(c->mean, col->unit, m, sizeof m);
	compare_format_value(c->sd, col->unit, sd, sizeof sd);
	compare_format_pct(c->pct, pct, sizeof pct);
	/* "!": only stopped runs had a figure, never a plain result */
	snprintf(buf, len, "%s%s%s%s%s%s%s", col->best == i ? "*" : "", m,
	    s->view == CMP_VIEW_FULL && c->n > 1 ? (t->ascii ? " +-" : " ±")
						 : "",
	    s->view == CMP_VIEW_FULL && c->n > 1 ? sd : "",
	    s->view == CMP_VIEW_PCT && pct[0] ? " " : "",
	    s->view == CMP_VIEW_PCT ? pct : "", c->interrupted ? "!" : "");
	ascii_mu(t, buf);
}

/* "±" as "+-" in place: the core writes the verdict for the locale,
   which stays UTF-8 under --ascii. */
static void
ascii_pm(char *b)
{
	char *p;

	while ((p = strstr(b, "\u00b1")) != NULL) /* both 2 bytes */
		memcpy(p, "+-", 2);
}

/* The verdict column's text for row i on test k: the verdict in the
   reports' words and the marks' keys ("+27.1% ±4.2% better cv trend",
   "same ±2%", "can't tell -7.0%..+9.0%"), or why the row has no
   figure. */
static void
verdict_text(const struct cmp *s, const struct tui *t, size_t i, size_t k,
    char *buf, size_t len)
{
	const struct compare_row *r = &s->c.rows[i];
	const struct compare_cell *c = compare_cell(&s->c, i, k);
	unsigned marks = c->marks;
	char v[64], *keys;

	if (c->n == 0) {
		snprintf(buf, len, "%s",
		    c->failed    ? _("failed")
			: r->why ? r->why
				 : "-");
		return;
	}
	report_verdict_short(&s->c, i, k, v, sizeof v);
	if (t->ascii)
		ascii_pm(v);
	/* "stopped" once is enough */
	if (c->verdict == COMPARE_V_STOPPED)
		marks &= ~(unsigned)COMPARE_MARK_STOPPED;
	keys = compare_marks_keys(marks);
	snprintf(buf, len, "%s%s%s", v, v[0] && keys[0] ? " " : "", keys);
	free(keys);
}

/* What a verdict looks like: better and worse (proven, after the
   correction) in colour; the same within the margin plain, an answer
   too; can't tell, and a figure that cannot be judged, dim. */
static int
verdict_attr(const struct cmp *s, const struct tui *t, size_t i)
{
	const struct compare_cell *c = compare_cell(&s->c, i, s->col);
	int a = i == s->row ? A_BOLD : A_NORMAL;

	if (c->n == 0 || c->interrupted)
		return a | tui_attr(t, TUI_PAIR_DIM);
	switch (c->verdict) {
	case COMPARE_V_BETTER:
		return a | tui_attr(t, TUI_PAIR_GOOD);
	case COMPARE_V_WORSE:
		return a | tui_attr(t, TUI_PAIR_BAD);
	case COMPARE_V_UNSURE:
	case COMPARE_V_STOPPED:
	case COMPARE_V_NONE:
		return a | tui_attr(t, TUI_PAIR_DIM);
	default:
		return a;
	}
}

/* The widest verdict of any test, so that the column keeps its width as
   the selection moves. */
static int
verdict_width(const struct cmp *s, const struct tui *t)
{
	int w = VERDICT_MIN;
	char b[256];

	for (size_t k = 0; k < s->c.ncols; k++)
		for (size_t i = 0; i < s->c.nrows; i++) {
			verdict_text(s, t, i, k, b, sizeof b);
			if (tui_width(b) > w)
				w = tui_width(b);
		}
	return w > VERDICT_MAX ? VERDICT_MAX : w;
}

static const char *
arrow(const struct tui *t, const struct compare_col *col)
{
	if (t->ascii)
		return col->lower_better ? "v" : "^";
	return col->lower_better ? "↓" : "↑";
}

/* A column's second header line: "small, files/s ↑"; "≠" first when
   the same test ran with other parameters in another column. */
static void
col_sub(const struct tui *t, const struct compare_col *col, char *buf,
    size_t len)
{
	snprintf(buf, len, "%s%s, %s %s",
	    col->apart ? (t->ascii ? "!= " : "≠ ") : "", col->workload,
	    wl_unit_name(col->unit), arrow(t, col));
	ascii_mu(t, buf);
}

static int
col_width(const struct cmp *s, const struct tui *t, size_t k)
{
	const struct compare_col *col = &s->c.cols[k];
	int w = tui_width(col->title);
	char b[128];

	if (w > TITLE_MAX)
		w = TITLE_MAX;
	col_sub(t, col, b, sizeof b);
	if (tui_width(b) > w)
		w = tui_width(b);
	for (size_t i = 0; i < s->c.nrows; i++) {
		cell_text(s, t, i, k, b, sizeof b);
		if (tui_width(b) > w)
			w = tui_width(b);
	}
	return w < COL_MIN ? COL_MIN : w > COL_MAX ? COL_MAX : w;
}

static int
label_width(const struct cmp *s)
{
	int w = LABEL_MIN;
	char b[128];

	for (size_t i = 0; i < s->c.nrows; i++) {
		row_label(s, i, b, sizeof b);
		if (tui_width(b) > w)
			w = tui_width(b);
	}
	return w > LABEL_MAX ? LABEL_MAX : w;
}

/* The first data column shown, so that the selected one is in view;
   fills col_x with where each shown column starts. */
static void
columns(struct cmp *s, const struct tui *t, int x0, int *widths)
{
	int room = t->cols - x0, used;

	if (s->col < s->left)
		s->left = s->col;
	for (;;) {
		used = 0;
		for (size_t k = s->left; k <= s->col; k++)
			used += widths[k] + 2;
		if (used <= room || s->left == s->col)
			break;
		s->left++;
	}
	s->ncol_x = 0;
	used = x0;
	for (size_t k = s->left;
	     k < s->c.ncols && used < t->cols && s->ncol_x < CMP_MAX_VISIBLE;
	     k++) {
		s->col_x[s->ncol_x++] = used;
		used += widths[k] + 2;
	}
	s->col_x[s->ncol_x] = used < t->cols ? used : t->cols;
}

static int
score_attr(const struct cmp *s, const struct tui *t, size_t i, size_t k)
{
	double sc = compare_score(&s->c, i, k);
	int a = s->c.cols[k].best == i ? A_BOLD : A_NORMAL;

	if (!t->color || sc < 0)
		return a;
	return a |
	    tui_attr(t,
		sc >= 0.67       ? TUI_PAIR_GOOD
		    : sc >= 0.34 ? TUI_PAIR_WARN
				 : TUI_PAIR_BAD);
}

static void
draw_header(struct cmp *s, struct tui *t, WINDOW *w, int y, int lw, int vw)
{
	const struct compare_col *sel = &s->c.cols[s->col];
	int vx = 2 + lw + 1;
	char b[256], conf[16];

	wattron(w, A_BOLD);
	tui_put(w, y, 2, lw, _("Variant"));
	snprintf(b, sizeof b, _("Verdict: %s"), sel->title);
	tui_put(w, y, vx, vw, b);
	wattroff(w, A_BOLD);
	/* the change's interval is at the level of the correction */
	snprintf(b, sizeof b, _("change, %s%% CI"),
	    compare_conf_text(s->c.conf_shown, conf, sizeof conf));
	wattron(w, tui_attr(t, TUI_PAIR_DIM));
	tui_put(w, y + 1, vx, vw, b);
	wattroff(w, tui_attr(t, TUI_PAIR_DIM));
	for (size_t v = 0; v < s->ncol_x; v++) {
		const struct compare_col *col = &s->c.cols[s->left + v];
		int x = s->col_x[v], cw = s->col_x[v + 1] - x - 2;
		int a = s->left + v == s->col ? A_BOLD | A_UNDERLINE : A_BOLD;

		if (cw < 1)
			break;
		wattron(w, a);
		tui_put_mid(t, w, y, x, cw, col->title, 0);
		wattroff(w, a);
		col_sub(t, col, b, sizeof b);
		wattron(w, tui_attr(t, TUI_PAIR_DIM));
		tui_put(w, y + 1,
		    x + (cw > tui_width(b) ? cw - tui_width(b) : 0), cw, b);
		wattroff(w, tui_attr(t, TUI_PAIR_DIM));
	}
}

static void
draw_row(struct cmp *s, struct tui *t, WINDOW *w, int y, size_t i, int lw,
    int vw)
{
	char b[256];
	int a;

	mvwaddstr(w, y, 0, i == s->c.baseline ? "B " : "  ");
	a = i == s->row ? tui_attr(t, TUI_PAIR_SEL) : (int)A_NORMAL;
	wattron(w, a);
	put_label(s, t, w, y, 2, lw, i);
	wattroff(w, a);
	verdict_text(s, t, i, s->col, b, sizeof b);
	a = verdict_attr(s, t, i);
	wattron(w, a);
	tui_put(w, y, 2 + lw + 1, vw, b);
	wattroff(w, a);
	for (size_t v = 0; v < s->ncol_x; v++) {
		size_t k = s->left + v;
		const struct compare_cell *c = compare_cell(&s->c, i, k);
		int x = s->col_x[v], cw = s->col_x[v + 1] - x - 2, tw;

		if (cw < 1)
			break;
		cell_text(s, t, i, k, b, sizeof b);
		tw = tui_width(b);
		/* a stopped run's figure is dim: never a plain result */
		a = i == s->row && k == s->col ? tui_attr(t, TUI_PAIR_SEL)
		    : c->interrupted           ? tui_attr(t, TUI_PAIR_DIM)
					       : score_attr(s, t, i, k);
		wattron(w, a);
		tui_put(w, y, x + (cw > tw ? cw - tw : 0), cw, b);
		wattroff(w, a);
	}
}

/* The bar chart of the selected column for the rows shown, from
   position first. */
static void
draw_bars(struct cmp *s, struct tui *t, WINDOW *w, int y, size_t first,
    int rows, int lw)
{
	const struct compare_col *col = &s->c.cols[s->col];
	int x0 = 2 + lw + 1, bw = t->cols - x0 - VALUE_W - 1;
	double v[256];
	size_t n = 0;
	char b[256], m[COMPARE_NUM_BUF];

	snprintf(b, sizeof b, _("%s %s, %s (%s is better)"), col->workload,
	    col->title, wl_unit_name(col->unit),
	    col->lower_better ? _("lower") : _("higher"));
	wattron(w, A_BOLD);
	tui_put(w, y++, 0, t->cols, b);
	wattroff(w, A_BOLD);
	if (bw < 4)
		return;
	/* a too-fast mean is no figure: no bar, "+++++" as in the table */
	for (size_t p = first; p < s->c.nrows && n < (size_t)rows && n < 256;
	     p++) {
		const struct compare_cell *c =
		    compare_cell(&s->c, cmp_row_at(s, p), s->col);

		v[n++] = c->too_fast ? NAN : c->mean;
	}
	plot_bars(&s->bars, bw, v, n, isfinite(col->max) ? col->max : 0,
	    t->ascii ? PLOT_ASCII : PLOT_BLOCK);
	for (size_t r = 0; r < n; r++) {
		size_t i = cmp_row_at(s, first + r);
		int a = col->best == i
		    ? tui_attr(t, TUI_PAIR_GOOD) | (int)A_BOLD
		    : tui_attr(t, TUI_PAIR_SERIES0);

		put_label(s, t, w, y + (int)r, 2, lw, i);
		wattron(w, a);
		for (int c = 0; c < s->bars.w; c++)
			mvwaddstr(w, y + (int)r, x0 + c,
			    plot_cell_at(&s->bars, (int)r, c)->ch);
		wattroff(w, a);
		if (compare_cell(&s->c, i, s->col)->too_fast)
			snprintf(m, sizeof m, "+++++");
		else
			compare_format_value(v[r], col->unit, m, sizeof m);
		ascii_mu(t, m);
		tui_put(w, y + (int)r, x0 + bw + 1, VALUE_W, m);
	}
}

static void
draw_info(struct cmp *s, struct tui *t, WINDOW *w)
{
	static const char *const views[CMP_VIEW__COUNT] = {
		N_("mean ±stddev"),
		N_("mean %"),
		N_("mean"),
	};
	char b[512], base[128] = "";

	if (s->c.baseline != COMPARE_NONE)
		row_label(s, s->c.baseline, base, sizeof base);
	snprintf(b, sizeof b,
	    _("Baseline %s (b)   cells: %s (v)   a: add results"),
	    base[0] ? base : _("none"),
	    t->ascii && s->view == CMP_VIEW_FULL ? _("mean +-stddev")
						 : _(views[s->view]));
	if (cmp_fleet(s))
		snprintf(b + strlen(b), sizeof b - strlen(b), "   %s",
		    s->by_variant ? _("rows by variant (g)")
				  : _("rows by host (g)"));
	tui_put(w, 0, 0, t->cols, b);
}

/* A paragraph of the detail lines. */
struct para {
	char *text;
	int attr;
	int max; /* lines it may wrap over */
	int prio; /* 0 first: who keeps its lines when they are few */
	int lines; /* lines granted */
};

/* The selected row's variant and record. */
static char *
row_para(const struct cmp *s)
{
	const struct compare_row *r = &s->c.rows[s->row];
	char name[128];

	row_label(s, s->row, name, sizeof name);
	return xasprintf("%s: %s; %s%s%s", name, r->text ? r->text : "",
	    r->source, r->path ? " " : "", r->path ? r->path : "");
}

/* The selected cell's figures, in run order. */
static char *
figures_para(const struct cmp *s)
{
	const struct compare_cell *c = compare_cell(&s->c, s->row, s->col);
	const struct compare_col *col = &s->c.cols[s->col];
	char b[1024], v[COMPARE_NUM_BUF], *ideal = NULL;
	size_t len;

	snprintf(b, sizeof b, ngettext("%zu run", "%zu runs", c->n), c->n);
	for (size_t i = 0; i < c->n && strlen(b) + 40 < sizeof b; i++) {
		len = strlen(b);
		snprintf(b + len, sizeof b - len, "%s%s", i ? ", " : ": ",
		    compare_format_value(c->v[i], col->unit, v, sizeof v));
	}
	len = strlen(b);
	/* a latency carries its unit already ("12.3 ms") */
	if (c->n > 0 && col->unit != WL_UNIT_USEC)
		snprintf(b + len, sizeof b - len, " %s",
		    wl_unit_name(col->unit));
	len = strlen(b);
	if (c->failed > 0)
		snprintf(b + len, sizeof b - len,
		    _("; %zu failed, not counted"), c->failed);
	len = strlen(b);
	if (c->too_fast)
		snprintf(b + len, sizeof b - len, "%s",
		    _("; too fast to mean much"));
	else if (c->interrupted)
		snprintf(b + len, sizeof b - len, "%s",
		    _("; only stopped runs (!): never judged"));
	if (compare_col_is_wamp(&s->c, s->col) &&
	    (ideal = compare_wamp_ideal_text(&s->c, s->row)) != NULL)
		snprintf(b + strlen(b), sizeof b - strlen(b), "; %s", ideal);
	free(ideal);
	return xstrdup(b);
}

/* The answer on the selected cell, or what stands in for one. */
static char *
answer_para(const struct cmp *s)
{
	const struct compare_cell *c = compare_cell(&s->c, s->row, s->col);
	const struct compare_row *r = &s->c.rows[s->row];
	/* bare: the reasons of its sides are marks_para()'s, said once */
	char *a = compare_answer_bare(&s->c, s->row, s->col), name[128],
	     base[128];

	if (a != NULL)
		return a;
	row_label(s, s->row, name, sizeof name);
	if (c->n == 0)
		return xasprintf(_("%s: no figures: %s"), name,
		    c->failed    ? _("its runs failed")
			: r->why ? r->why
				 : _("it did not run this test"));
	if (s->c.baseline == COMPARE_NONE)
		return xasprintf(_("%s: no verdict without a baseline (b "
				   "makes the selected row one)"),
		    name);
	if (s->row == s->c.baseline)
		return xasprintf(_("%s is the baseline: the other rows are "
				   "judged against it (b chooses another)"),
		    name);
	row_label(s, s->c.baseline, base, sizeof base);
	return xasprintf(_("%s: no verdict: the baseline %s has no figure "
			   "for this test"),
	    name, base);
}

/* The reasons for the marks of the selected cell and, when the answer
   rests on it too, the baseline's: "! CV 12.1% over the 5% limit", or
   named, "! a: ...; ! b: ..."; NULL without any. */
static char *
marks_para(const struct cmp *s)
{
	size_t sides[2] = { s->c.baseline, s->row };
	const struct compare_cell *c = compare_cell(&s->c, s->row, s->col);
	bool base = s->c.baseline != COMPARE_NONE && s->c.baseline != s->row &&
	    (compare_cell(&s->c, s->c.baseline, s->col)->marks &
		COMPARE_UNSTABLE) != 0 &&
	    c->verdict != COMPARE_V_NONE;
	struct strbuf b;

	if (!base) {
		char *m, *out;

		if (c->marks == 0)
			return NULL;
		m = compare_marks_text(&s->c, s->row, s->col);
		out = xasprintf("! %s", m);
		free(m);
		return out;
	}
	strbuf_init(&b);
	for (int i = 0; i < 2; i++) {
		char *m = compare_marks_text(&s->c, sides[i], s->col),
		     name[128];

		if (m[0] != '\0') {
			row_label(s, sides[i], name, sizeof name);
			strbuf_printf(&b, "%s! %s: %s", b.len ? "; " : "", name,
			    m);
		}
		free(m);
	}
	return strbuf_take(&b);
}

/* Lines s takes at width (tui_wrap's breaks). */
static int
para_need(const char *s, int width)
{
	int n = 0;

	while (*s != '\0') {
		s += tui_wrap(s, width);
		n++;
	}
	return n;
}

/* Grant the DETAIL_ROWS lines by priority, then draw in order from y. */
static void
draw_paras(struct para *p, size_t n, struct tui *t, WINDOW *w, int y)
{
	int left = DETAIL_ROWS;

	for (int prio = 0; prio < 4; prio++)
		for (size_t i = 0; i < n; i++) {
			int need;

			if (p[i].prio != prio || p[i].text == NULL)
				continue;
			need = para_need(p[i].text, t->cols);
			need = need < p[i].max ? need : p[i].max;
			p[i].lines = need < left ? need : left;
			left -= p[i].lines;
		}
	for (size_t i = 0; i < n; i++) {
		const char *s = p[i].text;

		/* the core's sentences are in the locale's "±" */
		if (t->ascii && p[i].text != NULL)
			ascii_pm(p[i].text);
		wattron(w, p[i].attr);
		for (int l = 0; l < p[i].lines && *s != '\0'; l++) {
			/* the last line granted shows as much as fits */
			int k = l + 1 < p[i].lines ? (int)tui_wrap(s, t->cols)
						   : (int)strlen(s);
			char line[1024];

			snprintf(line, sizeof line, "%.*s", k, s);
			tui_put(w, y++, 0, t->cols, line);
			s += k;
		}
		wattroff(w, p[i].attr);
		free(p[i].text);
	}
}

/* The selected row and cell: which record, its figures, the answer
   (with q, the smallest change its repeats could show, what would
   settle it), the row over all tests, the marks' reasons, why the
   column is kept apart, and how the verdicts were reached, once for
   all. */
static void
draw_detail(struct cmp *s, struct tui *t, WINDOW *w, int y)
{
	const struct compare_col *col = &s->c.cols[s->col];
	int warn = tui_attr(t, TUI_PAIR_WARN), dim = tui_attr(t, TUI_PAIR_DIM);
	char *method = compare_method_text(&s->c), *host = NULL;
	char *fleet = cmp_fleet_para(s, &host);
	struct para p[] = {
		{ row_para(s), A_NORMAL, 1, 3, 0 },
		{ figures_para(s), dim, 1, 2, 0 },
		{ fleet, A_BOLD, 3, 0, 0 },
		{ host, A_NORMAL, 1, 1, 0 },
		{ answer_para(s), A_BOLD, 4, 0, 0 },
		{ compare_summary_text(&s->c, s->row), A_NORMAL, 2, 1, 0 },
		{ marks_para(s), warn, 2, 1, 0 },
		{ col->apart
			? xasprintf("%s %s", t->ascii ? "!=" : "≠", col->apart)
			: NULL,
		    warn, 2, 1, 0 },
		{ compare_scaled_differ(&s->c)
			? xstrdup(_("The records were not scaled alike: their "
				    "figures do not compare."))
			: NULL,
		    warn, 1, 1, 0 },
		{ xasprintf(_("How: %s (t: another test)"), method), dim, 2, 2,
		    0 },
	};

	free(method);
	draw_paras(p, sizeof p / sizeof p[0], t, w, y);
}

static void
draw_empty(struct tui *t, WINDOW *w)
{
	char *dir = record_results_dir(t->lab), b[1024];

	wattron(w, A_BOLD);
	tui_put(w, 1, 2, t->cols - 2, _("No results to compare yet."));
	wattroff(w, A_BOLD);
	snprintf(b, sizeof b, _("a  adds result records from %s"), dir);
	tui_put(w, 3, 2, t->cols - 2, b);
	tui_put(w, 4, 2, t->cols - 2,
	    _("A run of the lab (the Run screen, or raidlab run) saves one "
	      "there."));
	free(dir);
}

/* Rows of the table and of the bar chart that fit in h body rows. */
static void
split_rows(int h, size_t nrows, int *table, int *bars)
{
	/* the information line, two header lines, a blank line, the
	   chart's title, the detail lines */
	int avail = h - 5 - DETAIL_ROWS, n = nrows < 1000 ? (int)nrows : 1000;

	if (avail < 2) {
		*bars = 0;
		*table = h - 3 > 1 ? h - 3 : 1;
		return;
	}
	*bars = n < avail / 2 ? n : avail / 2;
	*table = n < avail - *bars ? n : avail - *bars;
}

void
cmp_draw_table(struct cmp *s, struct tui *t, WINDOW *w)
{
	int h = getmaxy(w), lw, vw, trows, brows, *widths;
	size_t bstart, pos;

	if (s->c.nrows == 0 || s->c.ncols == 0) {
		draw_empty(t, w);
		return;
	}
	if (s->row >= s->c.nrows)
		s->row = s->c.nrows - 1;
	if (s->col >= s->c.ncols)
		s->col = s->c.ncols - 1;
	cmp_order_update(s);
	pos = cmp_pos_of(s, s->row);
	lw = label_width(s);
	vw = verdict_width(s, t);
	widths = xcalloc(s->c.ncols, sizeof *widths);
	for (size_t k = 0; k < s->c.ncols; k++)
		widths[k] = col_width(s, t, k);
	columns(s, t, 2 + lw + 1 + vw + 2, widths);
	free(widths);
	split_rows(h, s->c.nrows, &trows, &brows);
	if (pos < s->top)
		s->top = pos;
	if (pos >= s->top + (size_t)trows)
		s->top = pos - (size_t)trows + 1;
	s->table_y = 3;
	s->table_rows = trows;
	draw_info(s, t, w);
	draw_header(s, t, w, 1, lw, vw);
	for (int r = 0; r < trows && s->top + (size_t)r < s->c.nrows; r++)
		draw_row(s, t, w, 3 + r, cmp_row_at(s, s->top + (size_t)r), lw,
		    vw);
	if (brows > 0) {
		bstart = pos >= s->top + (size_t)brows ? pos - (size_t)brows + 1
						       : s->top;
		draw_bars(s, t, w, 3 + trows + 1, bstart, brows, lw);
		draw_detail(s, t, w, h - DETAIL_ROWS);
	}
}
