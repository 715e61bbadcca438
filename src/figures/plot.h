/*
 * Chart rendering without curses: time series and horizontal bars become a
 * grid of one-column UTF-8 cells that a front end copies into its windows
 * and colours by each cell's owner bits. Pure functions on caller-owned
 * memory: no globals, any thread (one thread per grid at a time).
 *
 * Charts are area fills from the bottom (throughput reads best as a filled
 * curve), or lines for series flagged in plot_render_ex()'s lines mask (a
 * completed variant's curve drawn over the running one stays visible).
 * Series drawn into the same cell merge: braille ORs the dots; block and
 * ASCII show the highest fill of any series in that cell. Either way every
 * series that drew something in a cell sets its bit in the cell's owner.
 *
 * Scale: a value v becomes a level round(v / ymax * levels), where levels is
 * h * 4 (braille), h * 8 (block) or h * 3 (ASCII). A positive value always
 * gets at least one level, so activity is never invisible; values above
 * ymax clip at the top. Zero, negative and non-finite (NaN, inf) samples
 * draw nothing in an area; in a line, zero draws at the bottom (a visible
 * baseline) and negative or non-finite samples leave a gap.
 *
 * Styles, per cell (row 0 at the top, an empty cell is " "):
 *   PLOT_BRAILLE  2 samples a column, 4 dots a row: U+2800 + dot bits, the
 *                 bottom dots 7 (0x40, left) and 8 (0x80, right).
 *   PLOT_BLOCK    1 sample a column, lower eighth blocks U+2581..U+2588.
 *   PLOT_ASCII    1 sample a column, thirds of a row: '.', ':' and '#'.
 * A line in block or ASCII style is the top cell of the area alone (the
 * characters are bottom-anchored); in braille it is one dot a sample plus
 * the dots joining it to the previous sample, so steep steps stay joined.
 */
#ifndef RAIDLAB_PLOT_H
#define RAIDLAB_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum plot_style { PLOT_BRAILLE, PLOT_BLOCK, PLOT_ASCII };

#define PLOT_MAX_SERIES 4
#define PLOT_SHORT_BUF 8 /* plot_short(): 6 characters and the NUL */

struct plot_cell {
	char ch[8]; /* UTF-8, NUL-terminated, one column wide */
	uint32_t cp; /* the same character's code point: no decoding */
	unsigned char owner; /* bit i: series i (or a bar) drew here */
};

/*
 * A rendered chart: h rows of w cells, row 0 at the top. Start it zeroed
 * (struct plot_grid g = { 0 }); the renderers reuse cells and only grow
 * them, so redrawing a chart each frame allocates nothing after the first.
 */
struct plot_grid {
	int w, h;
	struct plot_cell *cells; /* cells[row * w + col] */
	size_t cap; /* cells allocated */
	double ymax; /* the scale used: the value of a full column or bar */
};

/*
 * Render the newest samples of up to PLOT_MAX_SERIES series into w x h
 * cells as areas. y[i][0..n-1] is series i, oldest first; every series
 * has length n (pad a shorter one with NAN; a NULL series is skipped;
 * series past PLOT_MAX_SERIES are ignored). The newest sample is in the
 * last column (braille: its right dot column); when there are more samples
 * than the chart holds (plot_capacity()) the oldest scroll off the
 * left, when fewer the left columns stay empty. ymax <= 0 (or not finite)
 * means auto: plot_nice() of the highest value shown, so a spike that
 * scrolled off no longer sets the scale. w or h <= 0 gives an empty grid.
 */
void plot_render(struct plot_grid *g, int w, int h, enum plot_style st,
    const double *const *y, size_t nseries, size_t n, double ymax);
/* The same, drawing series i as a line when bit i of lines is set. */
void plot_render_ex(struct plot_grid *g, int w, int h, enum plot_style st,
    const double *const *y, size_t nseries, size_t n, double ymax,
    unsigned lines);

/* Samples a chart w cells wide shows: 2w in braille, w otherwise. */
size_t plot_capacity(int w, enum plot_style st);

/*
 * Horizontal bars, one row per value (h = n), growing from the left in
 * eighths of a cell (U+258F one eighth .. U+2588 full; braille uses the
 * same blocks) or '#' per cell in ASCII. The scale is max when > 0 and
 * finite (longer values clip), otherwise the largest value, which then
 * fills all w cells. A positive value shows at least one eighth (one '#');
 * zero, negative and non-finite values leave their row empty. Drawn cells
 * have owner 1. The label column is the caller's.
 */
void plot_bars(struct plot_grid *g, int w, const double *v, size_t n,
    double max, enum plot_style st);

/* Free the cells; g is zeroed and may be rendered into again. */
void plot_grid_done(struct plot_grid *g);

/* The cell at row, col (row 0 at the top), both in range. */
static inline const struct plot_cell *
plot_cell_at(const struct plot_grid *g, int row, int col)
{
	return &g->cells[(size_t)row * (size_t)g->w + (size_t)col];
}

/*
 * The "nice" axis maximum for a highest value v: the smallest 1, 2 or 5
 * x 10^k at or above it (73 -> 100, 0.3 -> 0.5, 5 -> 5, 101 -> 200);
 * 1 when v <= 0 or not finite (nothing to show yet).
 */
double plot_nice(double v);

/*
 * Current, average and peak for a chart's labels: the last, the mean and
 * the largest of the finite values of y[0..n-1], and how many there were.
 * With none, cur, avg and peak are NAN and n is 0.
 */
struct plot_stats {
	double cur, avg, peak;
	size_t n;
};

void plot_stats(const double *y, size_t n, struct plot_stats *out);

/*
 * A short number for axis and value labels with SI suffixes (k = 1000):
 * 0 -> "0", 0.25 -> "0.25", 1.25 -> "1.2", 12 -> "12", 120 -> "120",
 * 1234 -> "1.2k", 12345 -> "12k", 999999 -> "1M", 2.5e9 -> "2.5G". At most
 * 5 characters for values >= 0, one more for a minus; NaN -> "-". buf
 * should hold PLOT_SHORT_BUF bytes. Returns buf.
 */
const char *plot_short(double v, char *buf, size_t len);

/*
 * Whether the current locale's codeset is UTF-8, so braille and block
 * characters can be shown (otherwise use PLOT_ASCII). Call after the
 * program's setlocale(LC_ALL, "").
 */
bool plot_utf8_locale(void);

#endif
