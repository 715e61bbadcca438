/*
 * The HTML report's chart primitives (src/results/report-svg.h): nice ticks
 * that cover the data, scaling onto pixels, escaping of everything a record may
 * hold, and charts of empty data.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <string.h>

#include "base/strbuf.h"
#include "results/report-svg.h"

static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

Test(svg_axis, rounds_out_to_nice_ticks)
{
	struct svg_axis a;

	svg_axis_make(&a, 0, 97, 6, false);
	cr_assert_float_eq(a.lo, 0, 1e-12);
	cr_assert_float_eq(a.hi, 100, 1e-12);
	cr_assert_float_eq(a.step, 20, 1e-12);
	cr_assert_eq(a.nticks, 6);
	cr_assert_float_eq(svg_axis_tick(&a, 3), 60, 1e-12);

	svg_axis_make(&a, 0.03, 0.87, 6, false);
	cr_assert_float_eq(a.lo, 0, 1e-12);
	cr_assert_float_eq(a.hi, 1, 1e-12);
	cr_assert_float_eq(a.step, 0.2, 1e-12);

	svg_axis_make(&a, -13, 42, 8, false);
	cr_assert_float_eq(a.lo, -20, 1e-12);
	cr_assert_float_eq(a.hi, 50, 1e-12);
	cr_assert_float_eq(a.step, 10, 1e-12);
}

Test(svg_axis, widens_a_single_value_and_survives_nan)
{
	struct svg_axis a;

	svg_axis_make(&a, 0, 0, 6, false);
	cr_assert_float_eq(a.lo, 0, 1e-12);
	cr_assert_float_eq(a.hi, 1, 1e-12);
	svg_axis_make(&a, 5, 5, 6, false);
	cr_assert_float_eq(a.lo, 0, 1e-12);
	cr_assert_float_eq(a.hi, 10, 1e-12);
	svg_axis_make(&a, NAN, 3, 6, false);
	cr_assert_float_eq(a.lo, 0, 1e-12);
	cr_assert_float_eq(a.hi, 1, 1e-12);
	svg_axis_make(&a, 0, INFINITY, 6, false);
	cr_assert_float_eq(a.hi, 1, 1e-12);
}

struct range {
	double lo, hi;
	size_t max;
};

ParameterizedTestParameters(svg_axis, covers_the_data_within_max_ticks)
{
	static struct range r[] = {
		{ 0, 1, 2 },
		{ 0, 9999, 7 },
		{ 0.001, 0.0047, 6 },
		{ 1234, 1299, 6 },
		{ -3.5, 0.2, 5 },
		{ 0, 5885.5, 7 },
		{ 0, 3e9, 8 },
		{ 17, 18, 12 },
		{ 0, 101, 3 },
	};

	return cr_make_param_array(struct range, r, sizeof r / sizeof r[0]);
}

ParameterizedTest(struct range *r, svg_axis, covers_the_data_within_max_ticks)
{
	struct svg_axis a;
	double mant;

	svg_axis_make(&a, r->lo, r->hi, r->max, false);
	cr_assert_leq(a.lo, r->lo);
	cr_assert_geq(a.hi, r->hi);
	cr_assert_leq(a.nticks, r->max, "%zu ticks for %g..%g, max %zu",
	    a.nticks, r->lo, r->hi, r->max);
	cr_assert_geq(a.nticks, 2);
	/* a step of 1, 2 or 5 times a power of ten */
	mant = a.step / pow(10, floor(log10(a.step)));
	cr_assert(fabs(mant - 1) < 1e-9 || fabs(mant - 2) < 1e-9 ||
		fabs(mant - 5) < 1e-9,
	    "step %g", a.step);
	cr_assert_float_eq(svg_axis_tick(&a, a.nticks - 1), a.hi,
	    a.step * 1e-9);
}

Test(svg_axis, log_ticks_are_powers_of_ten)
{
	struct svg_axis a;
	char buf[32];

	svg_axis_make(&a, 3, 4200, 8, true);
	cr_assert_float_eq(a.lo, 1, 1e-12);
	cr_assert_float_eq(a.hi, 10000, 1e-9);
	cr_assert_eq(a.nticks, 5);
	cr_assert_float_eq(svg_axis_tick(&a, 2), 100, 1e-9);
	cr_assert_float_eq(svg_axis_map(&a, 100, 0, 400), 200, 1e-9);
	cr_assert_str_eq(svg_axis_label(&a, 1000, buf, sizeof buf), "1000");
	/* zero and negative values have no place on a log axis */
	svg_axis_make(&a, -1, 0, 8, true);
	cr_assert_gt(a.lo, 0);
	cr_assert_gt(a.hi, a.lo);
}

Test(svg_axis, maps_and_clamps)
{
	struct svg_axis a;

	svg_axis_make(&a, 0, 100, 6, false);
	cr_assert_float_eq(svg_axis_map(&a, 0, 50, 550), 50, 1e-12);
	cr_assert_float_eq(svg_axis_map(&a, 100, 50, 550), 550, 1e-12);
	cr_assert_float_eq(svg_axis_map(&a, 25, 50, 550), 175, 1e-12);
	/* an inverted range: y grows downwards */
	cr_assert_float_eq(svg_axis_map(&a, 25, 300, 100), 250, 1e-12);
	cr_assert_float_eq(svg_axis_map(&a, 1e9, 50, 550), 550, 1e-12);
	cr_assert_float_eq(svg_axis_map(&a, -5, 50, 550), 50, 1e-12);
	cr_assert_float_eq(svg_axis_map(&a, NAN, 50, 550), 50, 1e-12);
}

Test(svg_axis, labels_carry_the_steps_decimals)
{
	struct svg_axis a;
	char buf[32];

	svg_axis_make(&a, 0, 1, 6, false);
	cr_assert_str_eq(svg_axis_label(&a, 0.4, buf, sizeof buf), "0.4");
	svg_axis_make(&a, 0, 0.05, 6, false);
	cr_assert_str_eq(svg_axis_label(&a, 0.03, buf, sizeof buf), "0.03");
	svg_axis_make(&a, 0, 9000, 6, false);
	cr_assert_str_eq(svg_axis_label(&a, 4000, buf, sizeof buf), "4000");
}

Test(svg_escape, escapes_markup_and_bad_bytes)
{
	struct strbuf b;

	strbuf_init(&b);
	strbuf_add(&b, "");
	svg_escape(&b, "a<b&c>\"d'e");
	cr_assert_str_eq(b.s, "a&lt;b&amp;c&gt;&quot;d&#39;e");
	strbuf_done(&b);

	strbuf_init(&b);
	strbuf_add(&b, "");
	/* UTF-8 kept; a stray byte and a control character replaced */
	svg_escape(&b, "\xc2\xb5s \xff x\x01y\n");
	cr_assert_str_eq(b.s, "\xc2\xb5s \xef\xbf\xbd x\xef\xbf\xbdy\n");
	strbuf_done(&b);

	strbuf_init(&b);
	strbuf_add(&b, "");
	/* a C1 control (CSI, U+009B) is UTF-8 but a terminal obeys it */
	svg_escape(&b,
	    "x\xc2\x9b"
	    "2Jy\xc2\xa0");
	cr_assert_str_eq(b.s,
	    "x\xef\xbf\xbd"
	    "2Jy\xc2\xa0");
	strbuf_done(&b);

	strbuf_init(&b);
	strbuf_add(&b, "");
	svg_escape(&b, NULL);
	cr_assert_str_eq(b.s, "");
	strbuf_done(&b);
}

Test(svg_colour, first_colours_differ)
{
	for (size_t i = 0; i < 8; i++)
		for (size_t j = i + 1; j < 8; j++)
			cr_assert_str_neq(svg_colour(i), svg_colour(j));
	cr_assert_str_eq(svg_colour(0), "#0072b2");
	cr_assert_str_eq(svg_dash(0), "");
	cr_assert_str_neq(svg_dash(1), "");
}

Test(svg_bars, escapes_labels_and_marks_what_is_not_plain)
{
	struct svg_bar bars[] = {
		{ .label = "<a&b>", .value = 100, .lo = 90, .hi = 110 },
		{ .label = "\"q\"",
		    .value = 120,
		    .lo = NAN,
		    .hi = NAN,
		    .colour = 1,
		    .kind = SVG_BAR_UNSTABLE,
		    .note = "? unstable",
		    .best = true },
		{ .label = "none",
		    .value = NAN,
		    .lo = NAN,
		    .hi = NAN,
		    .colour = 2,
		    .kind = SVG_BAR_NONE,
		    .note = "no figure" },
	};
	struct svg_bars_opts o = { .title = "t<1>",
		.unit = "MB/s",
		.baseline = 100,
		.baseline_label = "baseline" };
	struct strbuf b;

	strbuf_init(&b);
	svg_bars(&b, bars, 3, &o);
	cr_assert_eq(count(b.s, "<svg class=\"chart bars\""), 1);
	cr_assert_not_null(strstr(b.s, "&lt;a&amp;b&gt;"));
	cr_assert_not_null(strstr(b.s, "&quot;q&quot;"));
	cr_assert_not_null(strstr(b.s, "t&lt;1&gt;"));
	cr_assert_null(strstr(b.s, "<a&"));
	/* two bars drawn; the unstable one faded and hatched */
	cr_assert_eq(count(b.s, "<rect"), 2);
	cr_assert_eq(count(b.s, "fill-opacity"), 1);
	cr_assert_not_null(strstr(b.s, "? unstable"));
	cr_assert_not_null(strstr(b.s, "no figure"));
	cr_assert_not_null(strstr(b.s, "stroke-dasharray=\"4 3\""));
	cr_assert_null(strstr(b.s, "url("));
	strbuf_done(&b);
}

Test(svg_bars, empty)
{
	struct svg_bars_opts o = { .title = "empty", .baseline = NAN };
	struct strbuf b;

	strbuf_init(&b);
	svg_bars(&b, NULL, 0, &o);
	cr_assert_not_null(strstr(b.s, "<svg"));
	cr_assert_not_null(strstr(b.s, "</svg>"));
	cr_assert_not_null(strstr(b.s, "no data"));
	cr_assert_null(strstr(b.s, "<rect"));
	cr_assert_null(strstr(b.s, "nan"));
	strbuf_done(&b);
}

Test(svg_lines, empty_and_gaps)
{
	static const double x[] = { 1, 2, 3, 4 }, y[] = { 5, NAN, 7, 8 };
	struct svg_line l = { .label = "a&b", .x = x, .y = y, .n = 4 };
	struct svg_lines_opts o = { .title = "lines",
		.kind = "series",
		.yunit = "MB/s" };
	struct strbuf b;

	strbuf_init(&b);
	svg_lines(&b, NULL, 0, &o);
	cr_assert_not_null(strstr(b.s, "no data"));
	cr_assert_null(strstr(b.s, "<path"));
	strbuf_done(&b);

	strbuf_init(&b);
	svg_lines(&b, &l, 1, &o);
	cr_assert_eq(count(b.s, "<svg class=\"chart series\""), 1);
	cr_assert_null(strstr(b.s, "no data"));
	/* one path; the NaN splits it: a move to 5, a move to 7, a line
	   to 8 */
	cr_assert_eq(count(b.s, "<path"), 1);
	{
		const char *d = strstr(b.s, " d=\"") + 4;
		size_t len = strcspn(d, "\""), m = 0, ln = 0;

		for (size_t i = 0; i < len; i++) {
			m += d[i] == 'M';
			ln += d[i] == 'L';
		}
		cr_assert_eq(m, 2);
		cr_assert_eq(ln, 1);
	}
	cr_assert_not_null(strstr(b.s, "a&amp;b"));
	cr_assert_null(strstr(b.s, "nan"));
	strbuf_done(&b);
}

Test(svg_lines, log_categories_skip_zero)
{
	static const double x[] = { 0, 1, 2 }, y[] = { 0, 10, 1000 };
	static const char *const cats[] = { "p50", "p90", "max" };
	struct svg_line l = { .label = "v", .x = x, .y = y, .n = 3 };
	struct svg_lines_opts o = { .title = "lat",
		.categories = cats,
		.ncategories = 3,
		.ylog = true,
		.markers = true };
	struct strbuf b;

	strbuf_init(&b);
	svg_lines(&b, &l, 1, &o);
	cr_assert_eq(count(b.s, "<circle"), 2);
	cr_assert_not_null(strstr(b.s, ">p90</text>"));
	cr_assert_null(strstr(b.s, "inf"));
	strbuf_done(&b);
}
