/*
 * The charts of the HTML report as inline SVG, without a script, a font
 * or a url() reference (a hatch is drawn as lines, not a pattern): an
 * axis with nice ticks, horizontal bars with 95% whiskers and the
 * baseline marked, lines over time or over categories (linear or log
 * scale) with a legend, and the text escaping every label needs. Colours
 * come from one palette that colour-blind readers can tell apart (Okabe
 * and Ito's), each with a dash pattern so a grey print still tells the
 * lines apart. Pure functions appending to a strbuf; any thread.
 */
#ifndef RAIDLAB_REPORT_SVG_H
#define RAIDLAB_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/* Width of every chart in SVG units (CSS pixels at 100%). */
#define SVG_WIDTH 560
/* At most this many ticks on an axis. */
#define SVG_MAX_TICKS 12

/* Escape s for HTML text or a quoted attribute: & < > " ' become
   entities, control characters and bytes that are not UTF-8 become
   U+FFFD. NULL appends nothing. */
void svg_escape(struct strbuf *out, const char *s);

/* The i-th colour ("#0072b2") and its dash pattern ("" for solid);
   both cycle. */
const char *svg_colour(size_t i);
const char *svg_dash(size_t i);

/* A linear axis: ticks lo, lo + step, ... hi, every one a round number
   (1, 2 or 5 times a power of ten), covering the data. */
struct svg_axis {
	double lo, hi, step;
	size_t nticks;
	bool log; /* log10: ticks at powers of ten, lo and hi too */
};

/*
 * Nice ticks for data from lo to hi, at most max ticks (2..SVG_MAX_TICKS).
 * A range of one value is widened around it (0 gives 0 to 1); NaN or
 * infinite bounds give 0 to 1. With log, lo and hi (> 0; others are
 * ignored) widen to powers of ten.
 */
void
svg_axis_make(struct svg_axis *a, double lo, double hi, size_t max, bool log);
/* The i-th tick's value. */
double svg_axis_tick(const struct svg_axis *a, size_t i);
/* v mapped onto px0 (lo) .. px1 (hi); clamped to that range. */
double svg_axis_map(const struct svg_axis *a, double v, double px0, double px1);
/* The tick as its label: as many decimals as the step needs ("0.25",
   "1500", "1e+06" for huge values). Returns buf. */
const char *
svg_axis_label(const struct svg_axis *a, double v, char *buf, size_t len);

/* How a bar's figure is to be read. */
enum svg_bar_kind {
	SVG_BAR_PLAIN,
	SVG_BAR_UNSTABLE, /* hatched, "?" */
	SVG_BAR_STOPPED, /* hatched, its note */
	SVG_BAR_FAST, /* hatched, its note */
	SVG_BAR_NONE, /* no figure: the note alone */
};

struct svg_bar {
	const char *label; /* the row */
	double value; /* NaN: no bar */
	double lo, hi; /* the 95% interval; NaN: no whisker */
	size_t colour; /* svg_colour() index */
	enum svg_bar_kind kind;
	const char *note; /* beside the bar ("too fast"), or NULL */
	bool best; /* marked with a star */
};

struct svg_bars_opts {
	const char *title; /* the SVG's accessible name */
	const char *unit; /* under the axis: "files/s" */
	double baseline; /* a dashed line there, NaN: none */
	const char *baseline_label; /* its label: "baseline" */
};

/* Horizontal bars, one a row, over a shared axis from 0; the SVG's
   class is "chart bars". */
void svg_bars(struct strbuf *out, const struct svg_bar *bars, size_t n,
    const struct svg_bars_opts *o);

struct svg_line {
	const char *label; /* in the legend */
	const double *x, *y; /* n points; a NaN y leaves a gap */
	const double *x0; /* with step: each interval's start, else NULL */
	size_t n;
	size_t colour; /* svg_colour() and svg_dash() index */
};

struct svg_lines_opts {
	const char *title; /* the SVG's accessible name */
	const char *kind; /* its class after "chart" (CSS, tests): "lines" */
	const char *xunit, *yunit; /* under the x axis, above the y axis */
	/* Categories instead of a numeric x: x values are indexes 0..n-1
	   into these labels (a percentile chart). */
	const char *const *categories;
	size_t ncategories;
	bool ylog; /* log10 y axis (values <= 0 leave gaps) */
	bool step; /* each value drawn flat from its line's x0 to x */
	bool markers; /* a dot at every point */
	double ymax; /* at least this high (0: from the data) */
};

/* Lines over a shared x axis, with a legend under the chart. No lines
   or no points: the axes and "no data". */
void svg_lines(struct strbuf *out, const struct svg_line *lines, size_t n,
    const struct svg_lines_opts *o);

#endif
