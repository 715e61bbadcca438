/*
 * Chart rendering into cell grids: see plot.h. Pure functions, any thread;
 * the only allocation is growing a grid's cells. A chart is rendered one
 * cell column at a time: each series' samples in that column become ranges
 * of lit levels, and each cell takes its share of every range.
 */
#include "config.h"

#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"
#include "plot.h"

/* How a style slices a cell: samples across, levels up. */
struct layout {
	enum plot_style st;
	int w, h;
	int across, per; /* samples per cell column, levels per cell row */
	int levels; /* h * per */
	size_t cap; /* samples the grid holds: w * across */
	size_t first; /* index of the first sample shown */
	size_t skip; /* empty sample columns before it */
	double ymax;
};

/* Lit levels of one sample column, lo..hi from the bottom (empty: lo > hi). */
struct range {
	int lo, hi;
};

/*
 * Braille dots of a run of levels in a cell row, indexed by a 4-bit mask
 * of those levels (bit 0 the bottom): dots 7, 3, 2, 1 (0x40, 0x04, 0x02,
 * 0x01) on the left and 8, 6, 5, 4 (0x80, 0x20, 0x10, 0x08) on the right.
 */
static const unsigned char braille_left[16] = { 0x00, 0x40, 0x04, 0x44, 0x02,
	0x42, 0x06, 0x46, 0x01, 0x41, 0x05, 0x45, 0x03, 0x43, 0x07, 0x47 };
static const unsigned char braille_right[16] = { 0x00, 0x80, 0x20, 0xa0, 0x10,
	0x90, 0x30, 0xb0, 0x08, 0x88, 0x28, 0xa8, 0x18, 0x98, 0x38, 0xb8 };

static void
cell_blank(struct plot_cell *c)
{
	c->ch[0] = ' ';
	c->ch[1] = '\0';
	c->cp = ' ';
	c->owner = 0;
}

/* A three-byte UTF-8 sequence for a code point in U+0800..U+FFFF. */
static void
cell_utf8(struct plot_cell *c, unsigned cp)
{
	c->ch[0] = (char)(0xe0 | (cp >> 12));
	c->ch[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	c->ch[2] = (char)(0x80 | (cp & 0x3f));
	c->ch[3] = '\0';
	c->cp = cp;
}

/* Size g for w x h cells, all blank; cells only grow. */
static void
grid_reset(struct plot_grid *g, int w, int h)
{
	size_t need, i;

	if (w <= 0 || h <= 0)
		w = h = 0;
	need = (size_t)w * (size_t)h;
	if (need > g->cap) {
		g->cells = xreallocarray(g->cells, need, sizeof(*g->cells));
		g->cap = need;
	}
	g->w = w;
	g->h = h;
	for (i = 0; i < need; i++)
		cell_blank(&g->cells[i]);
}

double
plot_nice(double v)
{
	static const double steps[] = { 1, 2, 5, 10 };
	double p = 1, q = 1, tol;
	size_t i;

	if (!(v > 0) || !isfinite(v))
		return 1;
	tol = v * (1 - 1e-9); /* 5.0000000001 from a sum still reads 5 */
	/* Decades as exact integers: p for v >= 1, 1/q below. */
	while (p * 10 <= tol && isfinite(p * 10))
		p *= 10;
	while (1 / q > v && q < 1e300)
		q *= 10;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		double c = q > 1 ? steps[i] / q : steps[i] * p;

		if (c >= tol && isfinite(c))
			return c;
	}
	return v;
}

/* Level of a value: -1 draws nothing, 0 is zero, else 1..levels. */
static int
level_of(double v, double ymax, int levels)
{
	double f;
	int l;

	if (!isfinite(v) || v < 0)
		return -1;
	if (v == 0)
		return 0;
	f = v / ymax;
	if (!(f < 1))
		return levels;
	l = (int)(f * levels + 0.5);
	return l < 1 ? 1 : l;
}

/* The highest finite value among the samples shown. */
static double
shown_max(const struct layout *lo, const double *const *y, size_t nseries,
    size_t n)
{
	double m = 0;
	size_t s, i;

	for (s = 0; s < nseries; s++) {
		if (y[s] == NULL)
			continue;
		for (i = lo->first; i < n; i++)
			if (isfinite(y[s][i]) && y[s][i] > m)
				m = y[s][i];
	}
	return m;
}

size_t
plot_capacity(int w, enum plot_style st)
{
	return w <= 0 ? 0 : (size_t)w * (st == PLOT_BRAILLE ? 2 : 1);
}

static void
layout_init(struct layout *lo, int w, int h, enum plot_style st, size_t n)
{
	lo->st = st;
	lo->w = w;
	lo->h = h;
	lo->across = st == PLOT_BRAILLE ? 2 : 1;
	lo->per = st == PLOT_BRAILLE ? 4 : st == PLOT_BLOCK ? 8 : 3;
	lo->levels = h * lo->per;
	lo->cap = plot_capacity(w, st);
	lo->first = n > lo->cap ? n - lo->cap : 0;
	lo->skip = lo->cap - (n - lo->first);
}

/*
 * The range one sample lights. A line in braille joins the previous
 * sample's dot (*prev, -1 for none) so steps stay connected.
 */
static struct range
sample_range(const struct layout *lo, double v, bool line, int *prev)
{
	struct range r = { 1, 0 };
	int l = level_of(v, lo->ymax, lo->levels), p;

	if (!line) {
		if (l > 0)
			r.lo = 0, r.hi = l - 1;
		return r;
	}
	if (l < 0) {
		*prev = -1;
		return r;
	}
	p = l > 0 ? l - 1 : 0;
	r.lo = r.hi = p;
	if (lo->st == PLOT_BRAILLE && *prev >= 0) {
		r.lo = *prev < p ? *prev : p;
		r.hi = *prev > p ? *prev : p;
	}
	*prev = p;
	return r;
}

/* Braille dots of range r within the cell row starting at level base. */
static unsigned
dots_of(struct range r, int base, const unsigned char *bits)
{
	int a = r.lo - base, b = r.hi - base;

	if (r.lo > r.hi || a > 3 || b < 0)
		return 0;
	a = a < 0 ? 0 : a;
	b = b > 3 ? 3 : b;
	return bits[(0xfu >> (3 - b)) & (0xfu << a) & 0xfu];
}

/* Levels of range r filled in the cell row starting at base, from below. */
static int
fill_of(struct range r, int base, int per)
{
	int top = base + per - 1;

	if (r.lo > r.hi || r.lo > top || r.hi < base)
		return 0;
	return (r.hi < top ? r.hi : top) - base + 1;
}

/* Write one cell of a column from every series' ranges ([s][0..1]). */
static void
cell_draw(const struct layout *lo, struct plot_cell *c, struct range rg[][2],
    size_t nseries, int base)
{
	unsigned m = 0, owner = 0, k;
	size_t s;

	for (s = 0; s < nseries; s++) {
		if (lo->st == PLOT_BRAILLE)
			k = dots_of(rg[s][0], base, braille_left) |
			    dots_of(rg[s][1], base, braille_right);
		else
			k = (unsigned)fill_of(rg[s][0], base, lo->per);
		if (k == 0)
			continue;
		owner |= 1u << s;
		m = lo->st == PLOT_BRAILLE ? m | k : (k > m ? k : m);
	}
	if (owner == 0)
		return;
	c->owner = (unsigned char)owner;
	if (lo->st == PLOT_BRAILLE)
		cell_utf8(c, 0x2800 + m);
	else if (lo->st == PLOT_BLOCK)
		cell_utf8(c, 0x2580 + m);
	else {
		c->ch[0] = ".:#"[m - 1];
		c->cp = (unsigned char)c->ch[0];
	}
}

/* Draw the cell column x; prev holds each line series' last dot. */
static void
column_draw(struct plot_grid *g, const struct layout *lo,
    const double *const *y, size_t nseries, unsigned lines, int x, int *prev)
{
	struct range rg[PLOT_MAX_SERIES][2];
	int top = -1, row, j;
	size_t s;

	for (s = 0; s < nseries; s++) {
		for (j = 0; j < 2; j++) {
			size_t col = (size_t)x * (size_t)lo->across + (size_t)j;

			rg[s][j].lo = 1;
			rg[s][j].hi = 0;
			if (j >= lo->across || y[s] == NULL || col < lo->skip)
				continue;
			rg[s][j] =
			    sample_range(lo, y[s][lo->first + col - lo->skip],
				(lines >> s) & 1, &prev[s]);
			if (rg[s][j].lo <= rg[s][j].hi && rg[s][j].hi > top)
				top = rg[s][j].hi;
		}
	}
	/* Rows above the highest lit level stay blank. */
	for (row = lo->h - 1; row >= 0; row--) {
		int base = (lo->h - 1 - row) * lo->per;

		if (base > top)
			break;
		cell_draw(lo,
		    &g->cells[(size_t)row * (size_t)lo->w + (size_t)x], rg,
		    nseries, base);
	}
}

void
plot_render_ex(struct plot_grid *g, int w, int h, enum plot_style st,
    const double *const *y, size_t nseries, size_t n, double ymax,
    unsigned lines)
{
	struct layout lo;
	int prev[PLOT_MAX_SERIES], x;
	size_t s;

	grid_reset(g, w, h);
	if (nseries > PLOT_MAX_SERIES)
		nseries = PLOT_MAX_SERIES;
	if (g->w == 0 || y == NULL)
		nseries = n = 0;
	layout_init(&lo, g->w, g->h, st, n);
	if (!(ymax > 0) || !isfinite(ymax))
		ymax = plot_nice(shown_max(&lo, y, nseries, n));
	lo.ymax = g->ymax = ymax;
	/* A line enters from the sample just scrolled off, if any. */
	for (s = 0; s < nseries; s++) {
		prev[s] = -1;
		if (y[s] != NULL && lo.first > 0)
			(void)sample_range(&lo, y[s][lo.first - 1], true,
			    &prev[s]);
	}
	for (x = 0; x < g->w && nseries > 0; x++)
		column_draw(g, &lo, y, nseries, lines, x, prev);
}

void
plot_render(struct plot_grid *g, int w, int h, enum plot_style st,
    const double *const *y, size_t nseries, size_t n, double ymax)
{
	plot_render_ex(g, w, h, st, y, nseries, n, ymax, 0);
}

/* One bar of e eighths (or cells, in ASCII) along row. */
static void
bar_draw(struct plot_grid *g, int row, long e, enum plot_style st)
{
	struct plot_cell *c = &g->cells[(size_t)row * (size_t)g->w];
	long x;

	for (x = 0; x < g->w && e > 0; x++) {
		c[x].owner = 1;
		if (st == PLOT_ASCII) {
			c[x].ch[0] = '#';
			c[x].cp = '#';
			e--;
			continue;
		}
		/* U+2588 full, U+2589..U+258F seven eighths down to one. */
		cell_utf8(&c[x], 0x2590 - (unsigned)(e >= 8 ? 8 : e));
		e -= 8;
	}
}

void
plot_bars(struct plot_grid *g, int w, const double *v, size_t n, double max,
    enum plot_style st)
{
	long units;
	size_t i;

	/* No screen has a million rows; the cap keeps h an int. */
	grid_reset(g, w, n > (size_t)1 << 20 ? 1 << 20 : (int)n);
	if (!(max > 0) || !isfinite(max)) {
		max = 0;
		for (i = 0; i < n; i++)
			if (isfinite(v[i]) && v[i] > max)
				max = v[i];
		if (max == 0)
			max = 1;
	}
	g->ymax = max;
	units = (long)g->w * (st == PLOT_ASCII ? 1 : 8);
	for (i = 0; i < (size_t)g->h; i++) {
		double f = v[i] / max;
		long e;

		if (!isfinite(v[i]) || !(v[i] > 0))
			continue;
		e = f < 1 ? (long)(f * (double)units + 0.5) : units;
		bar_draw(g, (int)i, e < 1 ? 1 : e, st);
	}
}

void
plot_grid_done(struct plot_grid *g)
{
	free(g->cells);
	memset(g, 0, sizeof(*g));
}

void
plot_stats(const double *y, size_t n, struct plot_stats *out)
{
	double sum = 0;
	size_t i;

	out->cur = out->avg = out->peak = NAN;
	out->n = 0;
	for (i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			continue;
		if (out->n == 0 || y[i] > out->peak)
			out->peak = y[i];
		out->cur = y[i];
		sum += y[i];
		out->n++;
	}
	if (out->n > 0)
		out->avg = sum / (double)out->n;
}

/* Print a magnitude a >= 1 with the suffix scaled from it. */
static void
short_scaled(double a, const char *sign, char *buf, size_t len)
{
	static const char suffix[] = "\0kMGTPE";
	size_t i = 0;

	while (a >= 999.5 && i + 1 < sizeof(suffix) - 1) {
		a /= 1000;
		i++;
	}
	if (a >= 999.5)
		snprintf(buf, len, "%s%.0e", sign, a * 1e18);
	else if (a < 9.95 && (long)(a * 10 + 0.5) % 10 != 0)
		snprintf(buf, len, "%s%.1f%.1s", sign, a, &suffix[i]);
	else
		snprintf(buf, len, "%s%.0f%.1s", sign, a, &suffix[i]);
}

const char *
plot_short(double v, char *buf, size_t len)
{
	const char *sign = v < 0 ? "-" : "";
	double a = v < 0 ? -v : v;

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", sign);
	else if (a == 0)
		snprintf(buf, len, "0");
	else if (a < 0.00995) /* "0.0012" would pass 5 characters */
		snprintf(buf, len, "%s%.0e", sign, a);
	else if (a < 0.9995)
		snprintf(buf, len, "%s%.2g", sign, a);
	else
		short_scaled(a, sign, buf, len);
	return buf;
}

bool
plot_utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs != NULL &&
	    (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}
