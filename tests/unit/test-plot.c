/*
 * The chart renderer: known series render to known cells in each style
 * (code points checked by decoding the UTF-8 the grid holds), series merge
 * with their owner bits, old samples scroll off, gaps stay gaps, the auto
 * scale reads well, bars are proportional and labels are short. (What
 * the charts cost is measured in bench/tui.sh, not timed here.)
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures/plot.h"
#include "unit.h"

/* ---------------------------------------------------------------- helpers */

/* The code point of a cell's one UTF-8 character (ASCII or 3 bytes),
   which its cp (what the TUI draws) must be too. */
static unsigned
cp_of(const struct plot_cell *c)
{
	const unsigned char *s = (const unsigned char *)c->ch;
	unsigned cp;

	if (s[0] < 0x80) {
		cr_assert_eq(s[1], 0, "more than one character: '%s'", c->ch);
		cp = s[0];
	} else {
		cr_assert_eq(s[0] & 0xf0, 0xe0, "not a 3-byte sequence: '%s'",
		    c->ch);
		cr_assert_eq(s[3], 0, "more than one character: '%s'", c->ch);
		cp =
		    (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
	}
	cr_assert_eq(c->cp, cp, "'%s' has code point U+%04X, cp says U+%04X",
	    c->ch, cp, (unsigned)c->cp);
	return cp;
}

/* A row as one string, as the screen would show it. */
static const char *
row_of(const struct plot_grid *g, int row)
{
	static char buf[1024];
	size_t len = 0;
	int x;

	buf[0] = '\0';
	for (x = 0; x < g->w; x++) {
		const char *ch = plot_cell_at(g, row, x)->ch;

		(void)cp_of(plot_cell_at(g, row, x));
		cr_assert_lt(len + strlen(ch), sizeof buf);
		memcpy(buf + len, ch, strlen(ch) + 1);
		len += strlen(ch);
	}
	return buf;
}

/* Render one series. */
static void
one(struct plot_grid *g, int w, int h, enum plot_style st, const double *y,
    size_t n, double ymax)
{
	const double *ys[1] = { y };

	plot_render(g, w, h, st, ys, 1, n, ymax);
}

#define BRAILLE(dots) (0x2800u + (dots))
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- block */

Test(plot, block_ramp_climbs_in_eighths_and_zero_stays_blank)
{
	static const double y[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct plot_grid g = { 0 };
	int x;

	one(&g, 9, 1, PLOT_BLOCK, y, N(y), 8);
	cr_assert_str_eq(row_of(&g, 0), " ▁▂▃▄▅▆▇█");
	cr_assert_eq(plot_cell_at(&g, 0, 0)->owner, 0);
	for (x = 1; x < 9; x++) {
		cr_assert_eq(cp_of(plot_cell_at(&g, 0, x)),
		    0x2580u + (unsigned)x);
		cr_assert_eq(plot_cell_at(&g, 0, x)->owner, 1);
	}
	cr_assert_eq(g.ymax, 8);
	plot_grid_done(&g);
}

Test(plot, block_value_spans_rows_from_the_bottom)
{
	static const double y[] = { 20, 16, 3 };
	struct plot_grid g = { 0 };

	/* 3 rows = 24 eighths of 24: 20 is two full rows and a half. */
	one(&g, 3, 3, PLOT_BLOCK, y, N(y), 24);
	cr_assert_str_eq(row_of(&g, 0), "▄  ");
	cr_assert_str_eq(row_of(&g, 1), "██ ");
	cr_assert_str_eq(row_of(&g, 2), "██▃");
	plot_grid_done(&g);
}

Test(plot, constant_series_at_the_scale_fills_every_row_in_each_style)
{
	static const double y[] = { 50, 50, 50, 50, 50, 50, 50, 50 };
	static const struct {
		enum plot_style st;
		const char *full;
	} styles[] = {
		{ PLOT_BRAILLE, "⣿⣿⣿⣿" },
		{ PLOT_BLOCK, "████" },
		{ PLOT_ASCII, "####" },
	};
	struct plot_grid g = { 0 };
	size_t i;
	int r;

	for (i = 0; i < N(styles); i++) {
		/* Auto scale: 50 is already a nice number. */
		one(&g, 4, 3, styles[i].st, y, N(y), 0);
		cr_assert_eq(g.ymax, 50);
		for (r = 0; r < 3; r++) {
			cr_assert_str_eq(row_of(&g, r), styles[i].full,
			    "style %zu row %d: '%s'", i, r, row_of(&g, r));
			cr_assert_eq(plot_cell_at(&g, r, 3)->owner, 1);
		}
	}
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), '#');
	plot_render(&g, 4, 3, PLOT_BRAILLE, (const double *const[]){ y }, 1,
	    N(y), 50);
	cr_assert_eq(cp_of(plot_cell_at(&g, 1, 2)), BRAILLE(0xff));
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- braille */

Test(plot, braille_dots_match_the_values)
{
	static const struct {
		double a, b; /* left and right sample, scale 4 = one row */
		unsigned cp;
	} cases[] = {
		{ 1, 2, BRAILLE(0x40 | 0x80 | 0x20) }, /* dots 7; 8, 6 */
		{ 4, 3, BRAILLE(0x47 | 0xb0) }, /* dots 7321; 865 */
		{ 0, 4, BRAILLE(0xb8) }, /* right column only */
		{ 3, 0, BRAILLE(0x46) }, /* dots 7, 3, 2 */
		{ 0, 0, ' ' },
	};
	struct plot_grid g = { 0 };
	size_t i;

	for (i = 0; i < N(cases); i++) {
		double y[2] = { cases[i].a, cases[i].b };

		one(&g, 1, 1, PLOT_BRAILLE, y, 2, 4);
		cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), cases[i].cp,
		    "%g,%g: U+%04X, want U+%04X", cases[i].a, cases[i].b,
		    cp_of(plot_cell_at(&g, 0, 0)), cases[i].cp);
	}
	plot_grid_done(&g);
}

Test(plot, braille_value_spans_rows_four_dots_each)
{
	static const double y[] = { 5, 8 };
	struct plot_grid g = { 0 };

	one(&g, 1, 2, PLOT_BRAILLE, y, N(y), 8);
	cr_assert_eq(cp_of(plot_cell_at(&g, 1, 0)), BRAILLE(0xff));
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x40 | 0xb8));
	cr_assert_str_eq(row_of(&g, 0), "⣸");
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- series */

Test(plot, two_series_or_their_dots_and_mark_their_owners)
{
	static const double a[] = { 4, 0, 4, 4 }, b[] = { 0, 2, 0, 0 };
	const double *ys[] = { a, b };
	struct plot_grid g = { 0 };

	plot_render(&g, 2, 1, PLOT_BRAILLE, ys, 2, 4, 4);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x47 | 0xa0));
	cr_assert_eq(plot_cell_at(&g, 0, 0)->owner, 3);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 1)), BRAILLE(0xff));
	cr_assert_eq(plot_cell_at(&g, 0, 1)->owner, 1);
	plot_grid_done(&g);
}

Test(plot, block_series_show_the_highest_fill_with_every_owner)
{
	static const double a[] = { 4 }, b[] = { 12 };
	const double *ys[] = { a, b };
	struct plot_grid g = { 0 };

	plot_render(&g, 1, 2, PLOT_BLOCK, ys, 2, 1, 16);
	cr_assert_str_eq(row_of(&g, 1), "█");
	cr_assert_eq(plot_cell_at(&g, 1, 0)->owner, 3);
	cr_assert_str_eq(row_of(&g, 0), "▄");
	cr_assert_eq(plot_cell_at(&g, 0, 0)->owner, 2);
	plot_grid_done(&g);
}

Test(plot, series_beyond_the_maximum_and_null_series_are_skipped)
{
	static const double a[] = { 8 };
	const double *ys[PLOT_MAX_SERIES + 1] = { NULL, a, a, a, a };
	struct plot_grid g = { 0 };

	plot_render(&g, 1, 1, PLOT_BLOCK, ys, N(ys), 1, 8);
	cr_assert_str_eq(row_of(&g, 0), "█");
	cr_assert_eq(plot_cell_at(&g, 0, 0)->owner, 0x0e);
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- scrolling */

Test(plot, more_samples_than_columns_shows_the_newest)
{
	static const double y[] = { 8, 8, 8, 8, 8, 8, 1, 2, 3, 4 };
	static const double z[] = { 4, 4, 1, 2, 3, 4 };
	struct plot_grid g = { 0 };

	one(&g, 4, 1, PLOT_BLOCK, y, N(y), 8);
	cr_assert_str_eq(row_of(&g, 0), "▁▂▃▄");
	one(&g, 4, 1, PLOT_ASCII, y, N(y), 3);
	cr_assert_str_eq(row_of(&g, 0), ".:##");
	/* Braille holds two samples a column: 1, 2 | 3, 4. */
	one(&g, 2, 1, PLOT_BRAILLE, z, N(z), 4);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x40 | 0xa0));
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 1)), BRAILLE(0x46 | 0xb8));
	plot_grid_done(&g);
}

Test(plot, capacity_is_two_samples_a_braille_column)
{
	cr_assert_eq(plot_capacity(80, PLOT_BRAILLE), 160);
	cr_assert_eq(plot_capacity(80, PLOT_BLOCK), 80);
	cr_assert_eq(plot_capacity(80, PLOT_ASCII), 80);
	cr_assert_eq(plot_capacity(-1, PLOT_BRAILLE), 0);
}

Test(plot, fewer_samples_than_columns_are_right_aligned)
{
	static const double y[] = { 8 };
	struct plot_grid g = { 0 };

	one(&g, 3, 1, PLOT_BLOCK, y, N(y), 8);
	cr_assert_str_eq(row_of(&g, 0), "  █");
	one(&g, 2, 1, PLOT_BRAILLE, y, N(y), 32); /* one dot */
	cr_assert_str_eq(row_of(&g, 0), " ⢀");
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 1)), BRAILLE(0x80));
	plot_grid_done(&g);
}

Test(plot, auto_scale_ignores_a_spike_that_scrolled_off)
{
	static const double y[] = { 1000, 1, 2, 3, 4 };
	struct plot_grid g = { 0 };

	one(&g, 4, 1, PLOT_BLOCK, y, N(y), 0);
	cr_assert_eq(g.ymax, 5);
	one(&g, 5, 1, PLOT_BLOCK, y, N(y), 0);
	cr_assert_eq(g.ymax, 1000);
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- gaps */

Test(plot, nan_negative_and_infinite_samples_leave_gaps)
{
	static const double y[] = { 8, NAN, 8, -1, INFINITY, 8 };
	struct plot_grid g = { 0 };

	one(&g, 6, 1, PLOT_BLOCK, y, N(y), 8);
	cr_assert_str_eq(row_of(&g, 0), "█ █  █");
	one(&g, 6, 1, PLOT_BLOCK, y, N(y), 0);
	cr_assert_eq(g.ymax, 10);
	one(&g, 3, 1, PLOT_BRAILLE, y, N(y), 32); /* one dot each */
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x40));
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 1)), BRAILLE(0x40));
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 2)), BRAILLE(0x80));
	plot_grid_done(&g);
}

Test(plot, tiny_positive_values_still_show)
{
	static const double y[] = { 0.001 };
	struct plot_grid g = { 0 };

	one(&g, 1, 2, PLOT_BLOCK, y, 1, 8);
	cr_assert_str_eq(row_of(&g, 1), "▁");
	one(&g, 1, 2, PLOT_ASCII, y, 1, 8);
	cr_assert_str_eq(row_of(&g, 1), ".");
	cr_assert_str_eq(row_of(&g, 0), " ");
	plot_grid_done(&g);
}

Test(plot, ascii_fills_thirds_of_a_row)
{
	static const double y[] = { 0, 1, 2, 3, 4, 5, 6, 9 };
	struct plot_grid g = { 0 };

	one(&g, 8, 2, PLOT_ASCII, y, N(y), 6);
	cr_assert_str_eq(row_of(&g, 0), "    .:##");
	cr_assert_str_eq(row_of(&g, 1), " .:#####");
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- lines */

Test(plot, braille_lines_join_steps_and_break_at_gaps)
{
	static const double up[] = { 1, 4 }, flat[] = { 4, 4 },
			    zero[] = { 0, 0 }, gap[] = { 4, NAN, 1, 1 };
	const double *ys[1];
	struct plot_grid g = { 0 };

	ys[0] = up;
	plot_render_ex(&g, 1, 1, PLOT_BRAILLE, ys, 1, 2, 4, 1);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x40 | 0xb8));
	ys[0] = flat;
	plot_render_ex(&g, 1, 1, PLOT_BRAILLE, ys, 1, 2, 4, 1);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x01 | 0x08));
	ys[0] = zero; /* zero is a baseline, not nothing */
	plot_render_ex(&g, 1, 1, PLOT_BRAILLE, ys, 1, 2, 4, 1);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x40 | 0x80));
	ys[0] = gap; /* 1 after the gap is not joined to 4 */
	plot_render_ex(&g, 2, 1, PLOT_BRAILLE, ys, 1, 4, 4, 1);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x01));
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 1)), BRAILLE(0x40 | 0x80));
	plot_grid_done(&g);
}

Test(plot, a_line_enters_from_the_sample_scrolled_off)
{
	static const double y[] = { 4, 1, 1 };
	struct plot_grid g = { 0 };
	const double *ys[] = { y };

	/* Shown: 1, 1; the 4 before them pulls the first column up. */
	plot_render_ex(&g, 1, 1, PLOT_BRAILLE, ys, 1, 3, 4, 1);
	cr_assert_eq(cp_of(plot_cell_at(&g, 0, 0)), BRAILLE(0x47 | 0x80));
	plot_grid_done(&g);
}

Test(plot, block_line_is_the_top_cell_over_an_area)
{
	static const double area[] = { 4 }, line[] = { 12 };
	const double *ys[] = { area, line };
	struct plot_grid g = { 0 };

	plot_render_ex(&g, 1, 2, PLOT_BLOCK, ys, 2, 1, 16, 2);
	cr_assert_str_eq(row_of(&g, 0), "▄");
	cr_assert_eq(plot_cell_at(&g, 0, 0)->owner, 2);
	cr_assert_str_eq(row_of(&g, 1), "▄");
	cr_assert_eq(plot_cell_at(&g, 1, 0)->owner, 1);
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- scale */

struct nice_case {
	double v, nice;
};

ParameterizedTestParameters(plot, auto_scale_rounds_up_to_1_2_5)
{
	static const struct nice_case cases[] = {
		{ 73, 100 },
		{ 0.3, 0.5 },
		{ 5, 5 },
		{ 101, 200 },
		{ 7, 10 },
		{ 1, 1 },
		{ 0.1, 0.1 },
		{ 0.07, 0.1 },
		{ 12, 20 },
		{ 1500, 2000 },
		{ 0.0031, 0.005 },
		{ 4.2e9, 5e9 },
		{ 0, 1 },
		{ -3, 1 },
		{ NAN, 1 },
		{ INFINITY, 1 },
	};
	struct nice_case *v = cr_malloc(sizeof cases);

	memcpy(v, cases, sizeof cases);
	return cr_make_param_array(struct nice_case, v, N(cases));
}

ParameterizedTest(struct nice_case *c, plot, auto_scale_rounds_up_to_1_2_5)
{
	double got = plot_nice(c->v), d = got - c->nice;

	cr_assert(d <= c->nice * 1e-12 && -d <= c->nice * 1e-12,
	    "%g -> %.17g, want %g", c->v, got, c->nice);
}

Test(plot, chart_scale_is_the_nice_maximum_shown)
{
	static const double y[] = { 10, 73, 40 };
	struct plot_grid g = { 0 };

	one(&g, 3, 4, PLOT_BLOCK, y, N(y), 0);
	cr_assert_eq(g.ymax, 100);
	/* 73 of 100 over 32 eighths: 23 = two full rows and 7 eighths. */
	cr_assert_str_eq(row_of(&g, 0), "   ");
	cr_assert_str_eq(row_of(&g, 1), " ▇ ");
	one(&g, 3, 4, PLOT_BLOCK, y, N(y), 50);
	cr_assert_eq(g.ymax, 50);
	cr_assert_str_eq(row_of(&g, 0), " █▂"); /* 73 clips at the top */
	one(&g, 3, 4, PLOT_BLOCK, y, 0, 0);
	cr_assert_eq(g.ymax, 1);
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- bars */

Test(plot, bars_are_proportional_to_the_longest)
{
	static const double v[] = { 10, 5, 2.5, 0, NAN, 1 };
	static const char *const ascii[] = { "####", "##  ", "#   ", "    ",
		"    ", "#   " };
	static const char *const block[] = { "████", "██  ", "█   ", "    ",
		"    ", "▍   " };
	struct plot_grid g = { 0 };
	size_t i;

	plot_bars(&g, 4, v, N(v), 0, PLOT_ASCII);
	cr_assert_eq(g.h, (int)N(v));
	cr_assert_eq(g.ymax, 10);
	for (i = 0; i < N(v); i++)
		cr_assert_str_eq(row_of(&g, (int)i), ascii[i], "row %zu", i);
	plot_bars(&g, 4, v, N(v), 0, PLOT_BLOCK);
	for (i = 0; i < N(v); i++)
		cr_assert_str_eq(row_of(&g, (int)i), block[i], "row %zu", i);
	cr_assert_eq(cp_of(plot_cell_at(&g, 5, 0)), 0x258du); /* 3/8 */
	cr_assert_eq(plot_cell_at(&g, 1, 1)->owner, 1);
	cr_assert_eq(plot_cell_at(&g, 1, 2)->owner, 0);
	plot_grid_done(&g);
}

Test(plot, bars_follow_a_given_scale_and_clip)
{
	static const double v[] = { 10, 7, 30 };
	struct plot_grid g = { 0 };

	plot_bars(&g, 2, v, N(v), 20, PLOT_BRAILLE);
	cr_assert_eq(g.ymax, 20);
	cr_assert_str_eq(row_of(&g, 0), "█ ");
	cr_assert_str_eq(row_of(&g, 1), "▊ "); /* 5.6 -> 6 eighths */
	cr_assert_str_eq(row_of(&g, 2), "██");
	plot_grid_done(&g);
}

/* ---------------------------------------------------------------- stats */

Test(plot, stats_are_last_mean_and_peak_of_finite_values)
{
	static const double y[] = { 1, NAN, 3, 8, INFINITY, NAN };
	struct plot_stats st;

	plot_stats(y, N(y), &st);
	cr_assert_eq(st.n, 3);
	cr_assert_eq(st.cur, 8);
	cr_assert_eq(st.avg, 4);
	cr_assert_eq(st.peak, 8);
	plot_stats(y, 2, &st);
	cr_assert_eq(st.cur, 1);
	plot_stats(y + 1, 1, &st);
	cr_assert_eq(st.n, 0);
	cr_assert(isnan(st.cur) && isnan(st.avg) && isnan(st.peak));
}

/* ---------------------------------------------------------------- labels */

struct short_case {
	double v;
	char want[PLOT_SHORT_BUF];
};

ParameterizedTestParameters(plot, short_labels_read_like_a_dashboard)
{
	static const struct short_case cases[] = {
		{ 0, "0" },
		{ 0.25, "0.25" },
		{ 0.5, "0.5" },
		{ 0.012, "0.012" },
		{ 0.001, "1e-03" },
		{ 1, "1" },
		{ 1.2, "1.2" },
		{ 9.96, "10" },
		{ 12, "12" },
		{ 120, "120" },
		{ 999, "999" },
		{ 999.7, "1k" },
		{ 1234, "1.2k" },
		{ 12345, "12k" },
		{ 123456, "123k" },
		{ 999999, "1M" },
		{ 2.5e9, "2.5G" },
		{ 1e21, "1e+21" },
		{ -1234, "-1.2k" },
		{ NAN, "-" },
	};
	struct short_case *v = cr_malloc(sizeof cases);

	memcpy(v, cases, sizeof cases);
	return cr_make_param_array(struct short_case, v, N(cases));
}

ParameterizedTest(struct short_case *c, plot,
    short_labels_read_like_a_dashboard)
{
	char buf[PLOT_SHORT_BUF];

	cr_assert_str_eq(plot_short(c->v, buf, sizeof buf), c->want,
	    "%g -> '%s', want '%s'", c->v, buf, c->want);
}

Test(plot, short_labels_never_exceed_five_characters)
{
	char buf[PLOT_SHORT_BUF];
	double v;

	for (v = 1e-9; v < 1e24; v *= 1.0137) {
		cr_assert_leq(strlen(plot_short(v, buf, sizeof buf)), 5u,
		    "%.17g -> '%s'", v, buf);
		cr_assert_leq(strlen(plot_short(-v, buf, sizeof buf)), 6u,
		    "%.17g -> '%s'", -v, buf);
	}
}

/* ---------------------------------------------------------------- misc */

Test(plot, utf8_locale_follows_the_codeset)
{
	cr_assert_not_null(setlocale(LC_ALL, "C"));
	cr_assert_not(plot_utf8_locale());
	if (setlocale(LC_ALL, "C.UTF-8") == NULL &&
	    setlocale(LC_ALL, "en_US.UTF-8") == NULL)
		cr_skip_test("no UTF-8 locale installed");
	cr_assert(plot_utf8_locale());
}

Test(plot, empty_inputs_give_blank_or_empty_grids)
{
	static const double y[] = { 8 };
	struct plot_grid g = { 0 };

	one(&g, 0, 5, PLOT_BRAILLE, y, 1, 8);
	cr_assert_eq(g.w, 0);
	cr_assert_eq(g.h, 0);
	one(&g, 2, 1, PLOT_BLOCK, y, 0, 0);
	cr_assert_str_eq(row_of(&g, 0), "  ");
	plot_render(&g, 2, 1, PLOT_BLOCK, NULL, 0, 0, 0);
	cr_assert_str_eq(row_of(&g, 0), "  ");
	plot_bars(&g, 3, y, 0, 0, PLOT_ASCII);
	cr_assert_eq(g.h, 0);
	plot_grid_done(&g);
	plot_grid_done(&g);
	cr_assert_null(g.cells);
}

Test(plot, redrawing_reuses_the_grid)
{
	static const double y[] = { 1, 2, 3 };
	struct plot_grid g = { 0 };
	struct plot_cell *cells;

	one(&g, 20, 10, PLOT_BRAILLE, y, N(y), 0);
	cells = g.cells;
	one(&g, 10, 5, PLOT_BLOCK, y, N(y), 0);
	one(&g, 20, 10, PLOT_ASCII, y, N(y), 0);
	plot_bars(&g, 20, y, N(y), 0, PLOT_BLOCK);
	cr_assert_eq(g.cells, cells);
	cr_assert_eq(g.cap, 200);
	plot_grid_done(&g);
}
