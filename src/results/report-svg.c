/*
 * Inline SVG charts for the HTML report (report-svg.h): axes, bars with
 * whiskers, lines with a legend. Coordinates are SVG units in a viewBox
 * SVG_WIDTH wide; the page's CSS scales the chart to its column. Any
 * thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "report-svg.h"

/* Okabe and Ito's colours, the yellow last: it fades on white paper. */
static const char *const palette[] = {
	"#0072b2",
	"#d55e00",
	"#009e73",
	"#cc79a7",
	"#e69f00",
	"#56b4e9",
	"#000000",
	"#f0e442",
};
#define NPALETTE (sizeof palette / sizeof palette[0])

static const char *const dashes[] = { "", "6 3", "2 2", "8 3 2 3", "1 3",
	"10 4" };
#define NDASHES (sizeof dashes / sizeof dashes[0])

/* Average advance of a 12-unit sans-serif glyph, for layout. */
#define GLYPH_W 6.6
#define FONT 12

const char *
svg_colour(size_t i)
{
	return palette[i % NPALETTE];
}

const char *
svg_dash(size_t i)
{
	return dashes[(i / NPALETTE + i) % NDASHES];
}

/* The length of a valid UTF-8 sequence at s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and past U+10FFFF are not UTF-8 */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff)
		return 0;
	return n;
}

void
svg_escape(struct strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	if (s == NULL)
		return;
	while (*p != '\0') {
		n = utf8_len(p);
		/* C1 controls (U+0080..U+009F: CSI among them) are UTF-8
		   that a terminal showing the file would obey. */
		if (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f) {
			strbuf_add(out, "\xef\xbf\xbd");
			p += n;
			continue;
		}
		if (n > 1) {
			char seq[5];

			memcpy(seq, p, n);
			seq[n] = '\0';
			strbuf_add(out, seq);
			p += n;
			continue;
		}
		switch (*p) {
		case '&':
			strbuf_add(out, "&amp;");
			break;
		case '<':
			strbuf_add(out, "&lt;");
			break;
		case '>':
			strbuf_add(out, "&gt;");
			break;
		case '"':
			strbuf_add(out, "&quot;");
			break;
		case '\'':
			strbuf_add(out, "&#39;");
			break;
		default:
			if (n == 0 || *p == 0x7f ||
			    (*p < 0x20 && *p != '\n' && *p != '\t'))
				strbuf_add(out, "\xef\xbf\xbd");
			else
				strbuf_printf(out, "%c", *p);
		}
		p++;
	}
}

/* s cut to at most max characters, "..." marking a cut. */
static void
escape_cut(struct strbuf *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0, bytes = 0, n;
	char *cut;

	if (s == NULL)
		return;
	while (p[bytes] != '\0') {
		n = utf8_len(p + bytes);
		bytes += n ? n : 1;
		chars++;
	}
	if (chars <= max || max < 4) {
		svg_escape(out, s);
		return;
	}
	for (bytes = 0, chars = 0; chars < max - 3; chars++) {
		n = utf8_len(p + bytes);
		bytes += n ? n : 1;
	}
	cut = xstrndup(s, bytes);
	svg_escape(out, cut);
	strbuf_add(out, "...");
	free(cut);
}

/* Characters in s, for layout. */
static size_t
text_chars(const char *s)
{
	size_t chars = 0;

	for (; s != NULL && *s != '\0'; s++)
		chars += ((unsigned char)*s & 0xc0) != 0x80;
	return chars;
}

/* ---------------------------------------------------------------- axes */

static double
nice_step(double range, size_t max)
{
	double raw = range / (double)(max - 1), mag, f;

	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* The nice step after step: 1 -> 2 -> 5 -> 10 times a power of ten. */
static double
next_step(double step)
{
	double mag = pow(10, floor(log10(step) + 1e-9)), f = step / mag;

	return (f < 1.5 ? 2 : f < 3.5 ? 5 : 10) * mag;
}

static void
axis_log(struct svg_axis *a, double lo, double hi, size_t max)
{
	double elo, ehi, decades;

	if (!(lo > 0) || !isfinite(lo))
		lo = hi > 0 && isfinite(hi) ? hi : 1;
	if (!(hi > 0) || !isfinite(hi) || hi < lo)
		hi = lo;
	elo = floor(log10(lo));
	ehi = ceil(log10(hi));
	if (ehi <= elo)
		ehi = elo + 1;
	decades = ehi - elo;
	a->step = ceil(decades / (double)(max - 1));
	ehi = elo + a->step * ceil(decades / a->step);
	a->lo = pow(10, elo);
	a->hi = pow(10, ehi);
	a->nticks = (size_t)((ehi - elo) / a->step) + 1;
}

void
svg_axis_make(struct svg_axis *a, double lo, double hi, size_t max, bool log)
{
	if (max < 2)
		max = 2;
	if (max > SVG_MAX_TICKS)
		max = SVG_MAX_TICKS;
	memset(a, 0, sizeof *a);
	a->log = log;
	if (log) {
		axis_log(a, lo, hi, max);
		return;
	}
	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (hi < lo) {
		double t = lo;

		lo = hi;
		hi = t;
	}
	if (hi == lo) {
		/* one value: from 0 to twice it, so it sits mid-chart */
		if (lo == 0)
			hi = 1;
		else if (lo > 0)
			lo = 0, hi *= 2;
		else
			hi = 0, lo *= 2;
	}
	/* the smallest nice step whose ticks, rounded out to cover the
	   data, stay within max */
	a->step = nice_step(hi - lo, max);
	for (;;) {
		/* a hair of slack keeps floating error from adding a tick */
		a->lo = floor(lo / a->step + 1e-9) * a->step;
		a->hi = ceil(hi / a->step - 1e-9) * a->step;
		a->nticks = (size_t)llround((a->hi - a->lo) / a->step) + 1;
		if (a->nticks <= max)
			break;
		a->step = next_step(a->step);
	}
}

double
svg_axis_tick(const struct svg_axis *a, size_t i)
{
	double v;

	if (a->log)
		return pow(10, log10(a->lo) + (double)i * a->step);
	v = a->lo + (double)i * a->step;
	return fabs(v) < a->step * 1e-9 ? 0 : v;
}

double
svg_axis_map(const struct svg_axis *a, double v, double px0, double px1)
{
	double f;

	if (a->log)
		f = v > 0
		    ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo))
		    : 0;
	else
		f = (v - a->lo) / (a->hi - a->lo);
	if (!isfinite(f) || f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return px0 + f * (px1 - px0);
}

const char *
svg_axis_label(const struct svg_axis *a, double v, char *buf, size_t len)
{
	int dec = 0;

	if (fabs(v) >= 1e7 || (a->log && fabs(v) < 1e-3 && v != 0)) {
		snprintf(buf, len, "%.3g", v);
		return buf;
	}
	if (a->log) {
		snprintf(buf, len, "%g", v);
		return buf;
	}
	if (a->step < 1)
		dec = (int)ceil(-log10(a->step) - 1e-9);
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}

/* ---------------------------------------------------------------- frame */

static void
svg_open(struct strbuf *out, double h, const char *title, const char *kind)
{
	strbuf_printf(out,
	    "<svg class=\"chart %s\" viewBox=\"0 0 %d %.0f\" width=\"%d\" "
	    "height=\"%.0f\" role=\"img\" aria-label=\"",
	    kind, SVG_WIDTH, h, SVG_WIDTH, h);
	svg_escape(out, title);
	strbuf_add(out, "\">\n<title>");
	svg_escape(out, title);
	strbuf_printf(out, "</title>\n<g font-size=\"%d\">\n", FONT);
}

static void
svg_close(struct strbuf *out)
{
	strbuf_add(out, "</g>\n</svg>\n");
}

/* A text element at x, y; anchor "start", "middle" or "end". */
static void
text_at(struct strbuf *out, double x, double y, const char *anchor,
    const char *extra, const char *s, size_t max)
{
	strbuf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>",
	    x, y, anchor, extra ? extra : "");
	escape_cut(out, s, max);
	strbuf_add(out, "</text>\n");
}

static void
line_at(struct strbuf *out, double x1, double y1, double x2, double y2,
    const char *style)
{
	strbuf_printf(out,
	    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n", x1,
	    y1, x2, y2, style);
}

/* Ticks, grid lines and labels of a horizontal value axis under a plot
   from y0 to y1. */
static void
axis_x(struct strbuf *out, const struct svg_axis *a, double x0, double x1,
    double y0, double y1, const char *unit)
{
	char lab[32];

	for (size_t i = 0; i < a->nticks; i++) {
		double v = svg_axis_tick(a, i), x = svg_axis_map(a, v, x0, x1);

		line_at(out, x, y0, x, y1, "stroke=\"#dddddd\"");
		text_at(out, x, y1 + 15, "middle", NULL,
		    svg_axis_label(a, v, lab, sizeof lab), 16);
	}
	line_at(out, x0, y1, x1, y1, "stroke=\"#555555\"");
	if (unit != NULL)
		text_at(out, (x0 + x1) / 2, y1 + 31, "middle", NULL, unit, 80);
}

/* ---------------------------------------------------------------- bars */

#define BAR_ROW 24
#define BAR_H 14
#define BAR_TOP 20
#define BAR_RIGHT 100

/* Diagonal lines over a rectangle, clipped to it by hand (a pattern
   would need url()). */
static void
hatch(struct strbuf *out, double x, double y, double w, double h,
    const char *colour)
{
	strbuf_printf(out, "<path stroke=\"%s\" stroke-width=\"1.5\" d=\"",
	    colour);
	for (double a = x - h; a < x + w; a += 5) {
		double u0 = fmax(0, x - a), u1 = fmin(h, x + w - a);

		if (u1 > u0)
			strbuf_printf(out, "M%.1f %.1fL%.1f %.1f", a + u0,
			    y + h - u0, a + u1, y + h - u1);
	}
	strbuf_add(out, "\"/>\n");
}

static void
bar_draw(struct strbuf *out, const struct svg_bar *b, const struct svg_axis *a,
    double x0, double x1, double y)
{
	double zero = svg_axis_map(a, 0, x0, x1), end = zero,
	       yc = y + BAR_H / 2.0;
	const char *c = svg_colour(b->colour);
	bool plain = b->kind == SVG_BAR_PLAIN;

	if (b->kind != SVG_BAR_NONE && isfinite(b->value)) {
		double v = svg_axis_map(a, b->value, x0, x1);
		double l = fmin(zero, v), w = fmax(fabs(v - zero), 1);

		strbuf_printf(out,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		    "fill=\"%s\"%s/>\n",
		    l, y, w, BAR_H, c,
		    plain ? "" : " fill-opacity=\"0.25\" stroke-width=\"1\"");
		if (!plain)
			hatch(out, l, y, w, BAR_H, c);
		end = fmax(end, v);
	}
	if (b->kind != SVG_BAR_NONE && isfinite(b->lo) && isfinite(b->hi)) {
		double lo = svg_axis_map(a, b->lo, x0, x1);
		double hi = svg_axis_map(a, b->hi, x0, x1);
		const char *st = "stroke=\"#000000\" stroke-width=\"1.3\"";

		line_at(out, lo, yc, hi, yc, st);
		line_at(out, lo, yc - 5, lo, yc + 5, st);
		line_at(out, hi, yc - 5, hi, yc + 5, st);
		end = fmax(end, hi);
	}
	if (b->note != NULL || b->best) {
		struct strbuf s;

		strbuf_init(&s);
		strbuf_printf(&s, "%s%s%s", b->best ? "\xe2\x98\x85" : "",
		    b->best && b->note ? " " : "", b->note ? b->note : "");
		text_at(out, end + 5, yc + 4, "start",
		    b->kind == SVG_BAR_PLAIN ? NULL : " font-style=\"italic\"",
		    s.s, (size_t)((x1 + BAR_RIGHT - end - 8) / GLYPH_W));
		strbuf_done(&s);
	}
}

/* The domain of the bars: 0, every figure and whisker, the baseline. */
static void
bars_range(const struct svg_bar *bars, size_t n, double base, double *lo,
    double *hi)
{
	*lo = 0;
	*hi = 0;
	for (size_t i = 0; i < n; i++) {
		const double v[] = { bars[i].value, bars[i].lo, bars[i].hi };

		if (bars[i].kind == SVG_BAR_NONE)
			continue;
		for (size_t k = 0; k < 3; k++)
			if (isfinite(v[k])) {
				*lo = fmin(*lo, v[k]);
				*hi = fmax(*hi, v[k]);
			}
	}
	if (isfinite(base)) {
		*lo = fmin(*lo, base);
		*hi = fmax(*hi, base);
	}
}

void
svg_bars(struct strbuf *out, const struct svg_bar *bars, size_t n,
    const struct svg_bars_opts *o)
{
	size_t maxlab = 4;
	double lo, hi, x0, x1, y1, h;
	struct svg_axis a;

	for (size_t i = 0; i < n; i++)
		if (text_chars(bars[i].label) > maxlab)
			maxlab = text_chars(bars[i].label);
	x0 = fmin(fmax(12 + GLYPH_W * (double)maxlab, 60), 190);
	x1 = SVG_WIDTH - BAR_RIGHT;
	y1 = BAR_TOP + (double)(n ? n : 1) * BAR_ROW + 4;
	h = y1 + 40;
	bars_range(bars, n, o->baseline, &lo, &hi);
	svg_axis_make(&a, lo, hi, 7, false);
	svg_open(out, h, o->title, "bars");
	axis_x(out, &a, x0, x1, BAR_TOP - 4, y1, o->unit);
	if (n == 0)
		text_at(out, (x0 + x1) / 2, BAR_TOP + 16, "middle", NULL,
		    _("no data"), 40);
	for (size_t i = 0; i < n; i++) {
		double y =
		    BAR_TOP + (double)i * BAR_ROW + (BAR_ROW - BAR_H) / 2.0;

		text_at(out, x0 - 6, y + BAR_H / 2.0 + 4, "end", NULL,
		    bars[i].label, (size_t)((x0 - 10) / GLYPH_W));
		bar_draw(out, &bars[i], &a, x0, x1, y);
	}
	if (isfinite(o->baseline)) {
		double x = svg_axis_map(&a, o->baseline, x0, x1);

		line_at(out, x, BAR_TOP - 6, x, y1,
		    "stroke=\"#333333\" stroke-width=\"1.2\" "
		    "stroke-dasharray=\"4 3\"");
		text_at(out, x, BAR_TOP - 9, "middle", " font-size=\"10\"",
		    o->baseline_label, 30);
	}
	svg_close(out);
}

/* ---------------------------------------------------------------- lines */

#define LN_LEFT 62
#define LN_RIGHT 16
#define LN_TOP 24
#define LN_PLOT 190
#define LEGEND_ROW 18

struct frame {
	struct svg_axis x, y;
	double x0, x1, y0, y1; /* the plot area; y0 at the top */
	size_t ncat; /* categorical x */
};

static double
frame_x(const struct frame *f, double v)
{
	if (f->ncat > 0)
		return f->x0 + (v + 0.5) * (f->x1 - f->x0) / (double)f->ncat;
	return svg_axis_map(&f->x, v, f->x0, f->x1);
}

static double
frame_y(const struct frame *f, double v)
{
	return svg_axis_map(&f->y, v, f->y1, f->y0);
}

static bool
point_ok(const struct svg_lines_opts *o, double y)
{
	return isfinite(y) && (!o->ylog || y > 0);
}

/* The data's extent; false without a point to draw. */
static bool
lines_range(const struct svg_line *l, size_t n, const struct svg_lines_opts *o,
    double r[4])
{
	bool any = false;

	r[0] = INFINITY, r[1] = -INFINITY, r[2] = INFINITY, r[3] = -INFINITY;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < l[i].n; k++) {
			if (!point_ok(o, l[i].y[k]) || !isfinite(l[i].x[k]))
				continue;
			any = true;
			r[0] = fmin(r[0],
			    o->step && l[i].x0 ? l[i].x0[k] : l[i].x[k]);
			r[1] = fmax(r[1], l[i].x[k]);
			r[2] = fmin(r[2], l[i].y[k]);
			r[3] = fmax(r[3], l[i].y[k]);
		}
	return any;
}

static void
frame_make(struct frame *f, const struct svg_line *l, size_t n,
    const struct svg_lines_opts *o, bool *any)
{
	double r[4];

	*any = lines_range(l, n, o, r);
	if (!*any)
		r[0] = 0, r[1] = 1, r[2] = o->ylog ? 1 : 0, r[3] = 1;
	f->ncat = o->ncategories;
	f->x0 = LN_LEFT;
	f->x1 = SVG_WIDTH - LN_RIGHT;
	f->y0 = LN_TOP;
	f->y1 = LN_TOP + LN_PLOT;
	svg_axis_make(&f->x, fmin(r[0], 0), r[1], 8, false);
	if (o->ylog)
		svg_axis_make(&f->y, r[2], fmax(r[3], o->ymax), 8, true);
	else
		svg_axis_make(&f->y, fmin(r[2], 0), fmax(r[3], o->ymax), 6,
		    false);
}

static void
frame_axes(struct strbuf *out, const struct frame *f,
    const struct svg_lines_opts *o)
{
	char lab[32];

	for (size_t i = 0; i < f->y.nticks; i++) {
		double v = svg_axis_tick(&f->y, i), y = frame_y(f, v);

		line_at(out, f->x0, y, f->x1, y, "stroke=\"#dddddd\"");
		text_at(out, f->x0 - 5, y + 4, "end", NULL,
		    svg_axis_label(&f->y, v, lab, sizeof lab), 9);
	}
	line_at(out, f->x0, f->y0, f->x0, f->y1, "stroke=\"#555555\"");
	if (o->yunit != NULL)
		text_at(out, 4, LN_TOP - 10, "start", NULL, o->yunit, 60);
	if (f->ncat == 0) {
		axis_x(out, &f->x, f->x0, f->x1, f->y0, f->y1, o->xunit);
		return;
	}
	for (size_t i = 0; i < f->ncat; i++)
		text_at(out, frame_x(f, (double)i), f->y1 + 15, "middle", NULL,
		    o->categories[i], 12);
	line_at(out, f->x0, f->y1, f->x1, f->y1, "stroke=\"#555555\"");
	if (o->xunit != NULL)
		text_at(out, (f->x0 + f->x1) / 2, f->y1 + 31, "middle", NULL,
		    o->xunit, 80);
}

static void
line_path(struct strbuf *out, const struct frame *f, const struct svg_line *l,
    const struct svg_lines_opts *o)
{
	const char *dash = svg_dash(l->colour);
	bool pen = false;

	strbuf_printf(out,
	    "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
	    "stroke-linejoin=\"round\"%s%s%s d=\"",
	    svg_colour(l->colour), *dash ? " stroke-dasharray=\"" : "", dash,
	    *dash ? "\"" : "");
	for (size_t k = 0; k < l->n; k++) {
		double y, x = frame_x(f, l->x[k]);

		if (!point_ok(o, l->y[k]) || !isfinite(l->x[k])) {
			pen = false;
			continue;
		}
		y = frame_y(f, l->y[k]);
		if (o->step && l->x0 != NULL) {
			strbuf_printf(out, "%c%.1f %.1f", pen ? 'L' : 'M',
			    frame_x(f, l->x0[k]), y);
			pen = true;
		}
		strbuf_printf(out, "%c%.1f %.1f", pen ? 'L' : 'M', x, y);
		pen = true;
	}
	strbuf_add(out, "\"/>\n");
	if (!o->markers)
		return;
	for (size_t k = 0; k < l->n; k++)
		if (point_ok(o, l->y[k]) && isfinite(l->x[k]))
			strbuf_printf(out,
			    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			    "fill=\"%s\"/>\n",
			    frame_x(f, l->x[k]), frame_y(f, l->y[k]),
			    svg_colour(l->colour));
}

/* Where the legend's entries go: rows under the axis, wrapped. Returns
   the number of rows; with out, draws them from y. */
static size_t
legend(struct strbuf *out, const struct svg_line *l, size_t n, double y)
{
	double x = LN_LEFT, w;
	size_t rows = n ? 1 : 0;

	for (size_t i = 0; i < n; i++) {
		size_t chars = text_chars(l[i].label);

		if (chars > 40)
			chars = 40;
		w = 34 + GLYPH_W * (double)chars + 14;
		if (x + w > SVG_WIDTH && x > LN_LEFT) {
			x = LN_LEFT;
			y += LEGEND_ROW;
			rows++;
		}
		if (out != NULL) {
			const char *dash = svg_dash(l[i].colour);

			strbuf_printf(out,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"2.5\"%s%s%s/>\n",
			    x, y - 4, x + 28, y - 4, svg_colour(l[i].colour),
			    *dash ? " stroke-dasharray=\"" : "", dash,
			    *dash ? "\"" : "");
			text_at(out, x + 34, y, "start", NULL, l[i].label, 40);
		}
		x += w;
	}
	return rows;
}

void
svg_lines(struct strbuf *out, const struct svg_line *lines, size_t n,
    const struct svg_lines_opts *o)
{
	struct frame f;
	bool any;
	double ly = LN_TOP + LN_PLOT + 54;
	size_t rows = legend(NULL, lines, n, ly);

	frame_make(&f, lines, n, o, &any);
	svg_open(out, ly + (double)rows * LEGEND_ROW, o->title,
	    o->kind ? o->kind : "lines");
	frame_axes(out, &f, o);
	if (!any)
		text_at(out, (f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2, "middle",
		    NULL, _("no data"), 40);
	for (size_t i = 0; any && i < n; i++)
		line_path(out, &f, &lines[i], o);
	legend(out, lines, n, ly);
	svg_close(out);
}
