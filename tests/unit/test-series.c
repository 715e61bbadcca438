/*
 * The series merges instead of dropping: a full series halves its
 * resolution, so a long run keeps its whole shape (start, end, totals,
 * even spacing, a step at the right time) in bounded memory, with the
 * devices' samples merged in step.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "figures/series.h"

/* The runner's cap (labrun-exec.c): an hour of 250 ms ticks. */
#define CAP 14400
#define TICK 0.25
/* 8 hours of ticks. */
#define TICKS 115200

Test(series, full_series_merges_neighbours_instead_of_dropping)
{
	struct series s;
	struct sample x;

	series_init(&s, 4);
	memset(&x, 0, sizeof x);
	for (int i = 1; i <= 10; i++) {
		x.t = i;
		x.dt = 1;
		x.bytes_written = (uint64_t)i;
		series_push(&s, &x);
	}
	/* ticks 1-4 | 5-8 | 9-10 (the newest still filling) */
	cr_assert_eq(s.n, 3);
	cr_assert_eq(s.span, 4);
	cr_assert_eq(s.last_ticks, 2);
	cr_assert_float_eq(series_at(&s, 0)->t, 4, 1e-12);
	cr_assert_float_eq(series_at(&s, 1)->t, 8, 1e-12);
	cr_assert_float_eq(series_at(&s, 2)->t, 10, 1e-12);
	cr_assert_float_eq(series_at(&s, 2)->dt, 2, 1e-12);
	cr_assert_eq(series_at(&s, 0)->bytes_written, 1 + 2 + 3 + 4);
	cr_assert_eq(series_at(&s, 1)->bytes_written, 5 + 6 + 7 + 8);
	cr_assert_eq(series_at(&s, 2)->bytes_written, 9 + 10);
	cr_assert_eq(s.dropped, 0);
	series_done(&s);
}

/* With any cap, odd ones too, every sample but the newest spans the
   resolution and nothing pushed is lost. */
Test(series, every_cap_keeps_samples_evenly_spaced)
{
	for (size_t cap = 1; cap <= 9; cap++) {
		struct series s;
		struct sample x;
		uint64_t sum = 0, ticks = 0;
		size_t i;

		series_init(&s, cap);
		memset(&x, 0, sizeof x);
		for (i = 1; i <= 1000; i++) {
			x.t = (double)i;
			x.dt = 1;
			x.ops = i;
			series_push(&s, &x);
		}
		cr_assert_leq(s.n, cap);
		for (i = 0; i < s.n; i++) {
			const struct sample *y = series_at(&s, i);
			double want =
			    i + 1 < s.n ? (double)s.span : (double)s.last_ticks;

			cr_assert_float_eq(y->dt, want, 1e-9,
			    "cap %zu: sample %zu spans %g ticks, not %g", cap,
			    i, y->dt, want);
			sum += y->ops;
			ticks += (uint64_t)y->dt;
		}
		cr_assert_eq(ticks, 1000, "cap %zu", cap);
		cr_assert_eq(sum, 1000 * 1001 / 2, "cap %zu", cap);
		cr_assert_float_eq(series_at(&s, s.n - 1)->t, 1000, 1e-9);
		series_done(&s);
	}
}

/* The counters of tick i (1-based) of the long run: a step up in the
   writes at the midpoint. */
static void
long_tick(uint64_t i, struct sample *x, struct dev_sample *d)
{
	x->t = (double)i * TICK;
	x->dt = TICK;
	x->bytes_read = i % 7;
	x->bytes_written = i <= TICKS / 2 ? 1000 : 5000;
	x->files = 1;
	x->ops = i % 3;
	d[0].read_bytes = 512 * (i % 5);
	d[0].write_bytes = 2 * x->bytes_written;
	d[0].busy_s = i <= TICKS / 2 ? TICK / 4 : TICK;
	d[1].read_bytes = 0;
	d[1].write_bytes = x->bytes_written;
	d[1].busy_s = i % 2 ? NAN : 0; /* unknown every other tick */
}

Test(series, eight_hour_run_keeps_its_whole_shape)
{
	struct series s;
	struct sample x, sum = { 0 };
	struct dev_sample d[2];
	uint64_t drd = 0, dwr = 0, want_rd = 0, want_wr = 0;
	size_t i, step = SIZE_MAX;

	series_init(&s, CAP);
	series_add_dev(&s, "md0", "array");
	series_add_dev(&s, "loop3", "member");
	for (uint64_t t = 1; t <= TICKS; t++) {
		long_tick(t, &x, d);
		sum.bytes_read += x.bytes_read;
		sum.bytes_written += x.bytes_written;
		sum.files += x.files;
		sum.ops += x.ops;
		want_rd += d[0].read_bytes;
		want_wr += d[0].write_bytes;
		series_push_devs(&s, &x, d);
	}
	cr_assert_leq(s.n, CAP);
	cr_assert_eq(s.span, 8, "8 h of 4 ticks/s in an hour's samples");
	cr_assert_eq(s.n, TICKS / 8);
	/* the first sample starts at the run's start, the last ends at its
	   end */
	cr_assert_float_eq(series_at(&s, 0)->t - series_at(&s, 0)->dt, 0, 1e-9);
	cr_assert_float_eq(series_at(&s, 0)->t, 8 * TICK, 1e-9);
	cr_assert_float_eq(series_at(&s, s.n - 1)->t, TICKS * TICK, 1e-6);
	for (i = 0; i < s.n; i++) {
		const struct sample *y = series_at(&s, i);
		const struct dev_sample *a = series_dev_at(&s, 0, i);
		double prev = i ? series_at(&s, i - 1)->t : 0;

		cr_assert_float_eq(y->dt, 8 * TICK, 1e-9, "sample %zu", i);
		cr_assert_float_eq(y->t - y->dt, prev, 1e-6, "sample %zu", i);
		sum.bytes_read -= y->bytes_read;
		sum.bytes_written -= y->bytes_written;
		sum.files -= y->files;
		sum.ops -= y->ops;
		drd += a->read_bytes;
		dwr += a->write_bytes;
		cr_assert(isnan(series_dev_at(&s, 1, i)->busy_s),
		    "busy unknown in part is unknown");
		if (step == SIZE_MAX && sample_write_mbps(y) > 0.012)
			step = i;
	}
	cr_assert_eq(sum.bytes_read, 0, "nothing read is lost");
	cr_assert_eq(sum.bytes_written, 0, "nothing written is lost");
	cr_assert_eq(sum.files, 0);
	cr_assert_eq(sum.ops, 0);
	cr_assert_eq(drd, want_rd);
	cr_assert_eq(dwr, want_wr);
	/* the step up is where it happened: 4 h in */
	cr_assert_neq(step, SIZE_MAX);
	cr_assert_float_eq(series_at(&s, step)->t - series_at(&s, step)->dt,
	    TICKS * TICK / 2, 1e-6);
	cr_assert_float_eq(sample_write_mbps(series_at(&s, step)), 0.02, 1e-9);
	cr_assert_float_eq(sample_write_mbps(series_at(&s, step - 1)), 0.004,
	    1e-9);
	/* the busy fraction is over the merged dt */
	cr_assert_float_eq(dev_sample_busy(series_dev_at(&s, 0, 0),
			       series_at(&s, 0)->dt),
	    0.25, 1e-9);
	cr_assert_float_eq(dev_sample_busy(series_dev_at(&s, 0, s.n - 1),
			       series_at(&s, s.n - 1)->dt),
	    1.0, 1e-9);
	series_done(&s);
}

Test(series, busy_fraction_is_clamped_and_unknown_stays_unknown)
{
	struct dev_sample d = { 0, 0, 0.3 };

	cr_assert_float_eq(dev_sample_busy(&d, 1.0), 0.3, 1e-12);
	/* io_ticks read a little after the engine's clock */
	cr_assert_float_eq(dev_sample_busy(&d, 0.25), 1.0, 1e-12);
	cr_assert(isnan(dev_sample_busy(&d, 0)));
	d.busy_s = NAN;
	cr_assert(isnan(dev_sample_busy(&d, 1.0)));
}

Test(series, append_keeps_samples_as_they_are)
{
	struct series s;
	struct sample x = { .t = 2, .dt = 2, .ops = 5 };

	series_init(&s, 2);
	s.span = 8;
	cr_assert(series_append(&s, &x, NULL));
	x.t = 4;
	cr_assert(series_append(&s, &x, NULL));
	x.t = 6;
	cr_assert_not(series_append(&s, &x, NULL), "full");
	cr_assert_eq(s.n, 2);
	cr_assert_eq(s.span, 8);
	cr_assert_float_eq(series_at(&s, 1)->t, 4, 1e-12);
	series_done(&s);
}

/* Two curves of one run at different resolutions plot against time: a
   merged one gives, over a one-tick bin, the rate of the sample that
   covers it, and one-tick samples average over a wide bin. */
Test(series, rates_between_follow_time_at_any_resolution)
{
	struct series fine, coarse;
	struct series_rates r;
	struct sample x = { 0 };

	series_init(&fine, 64);
	series_init(&coarse, 4);
	for (int i = 1; i <= 16; i++) {
		x.t = i * TICK;
		x.dt = TICK;
		x.bytes_written = i <= 8 ? 250000 : 750000; /* 1, then 3 MB/s */
		x.files = 1;
		series_push(&fine, &x);
		series_push(&coarse, &x);
	}
	cr_assert_eq(coarse.span, 4);
	/* a tick in each half, from the coarse series */
	cr_assert(series_rates_between(&coarse, 3 * TICK, 4 * TICK, &r));
	cr_assert_float_eq(r.write_mbps, 1.0, 1e-9);
	cr_assert(series_rates_between(&coarse, 12 * TICK, 13 * TICK, &r));
	cr_assert_float_eq(r.write_mbps, 3.0, 1e-9);
	cr_assert_float_eq(r.files_per_s, 4.0, 1e-9);
	/* a bin across the step, from the fine series: the mean */
	cr_assert(series_rates_between(&fine, 6 * TICK, 10 * TICK, &r));
	cr_assert_float_eq(r.write_mbps, 2.0, 1e-9);
	/* half a sample counts half */
	cr_assert(series_rates_between(&coarse, 7 * TICK, 9 * TICK, &r));
	cr_assert_float_eq(r.write_mbps, 2.0, 1e-9);
	/* past the end: only what is covered, then nothing */
	cr_assert(series_rates_between(&fine, 15 * TICK, 20 * TICK, &r));
	cr_assert_float_eq(r.write_mbps, 3.0, 1e-9);
	cr_assert_not(series_rates_between(&fine, 16 * TICK, 20 * TICK, &r));
	cr_assert_float_eq(series_sample_seconds(&coarse), 4 * TICK, 1e-9);
	cr_assert_float_eq(series_sample_seconds(&fine), TICK, 1e-9);
	series_done(&fine);
	series_done(&coarse);
}

/* A run shorter than a tick (6595 files in a second's tenth, no tick saw
   it) shows its result's rate; one a tick saw shows what the tick
   missed, over the time it missed. */
Test(series, rest_of_a_run_shorter_than_a_tick_shows_its_figure)
{
	struct sample total = { .dt = 0.1, .files = 660, .bytes_written = 1e6 };
	struct sample none = { 0 }, seen = { .dt = 0.5, .files = 100 }, out;

	cr_assert(sample_rest(&total, &none, &out));
	cr_assert_float_eq(sample_files_per_s(&out), 6600.0, 1e-6);
	cr_assert_float_eq(sample_write_mbps(&out), 10.0, 1e-6);
	total.dt = 1.0;
	cr_assert(sample_rest(&total, &seen, &out));
	cr_assert_eq(out.files, 560);
	cr_assert_float_eq(sample_files_per_s(&out), 1120.0, 1e-6);
	/* nothing left, or no time left: no sample */
	seen.files = 660;
	seen.bytes_written = 1000000;
	cr_assert_not(sample_rest(&total, &seen, &out));
	seen.files = 100;
	seen.dt = 1.0;
	cr_assert_not(sample_rest(&total, &seen, &out));
}
