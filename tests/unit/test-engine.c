/*
 * Engine building blocks: latency histograms (the series: test-series.c),
 * the event queue across threads, rates and %CPU of a test, where the
 * sampler's stalls fall, text buffers.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/evq.h"
#include "base/strbuf.h"
#include "figures/hist.h"
#include "figures/series.h"
#include "measure/engine.h"
#include "measure/result.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

Test(hist, quantiles_within_the_bucket_error_of_the_exact_value)
{
	static struct hist h;
	static uint64_t v[20000];
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	uint64_t seed = 42;
	size_t i, k;

	hist_init(&h);
	for (i = 0; i < 20000; i++) {
		/* Heavy tail: 1 us .. ~1 s. */
		uint64_t r = wl_rand(&seed);

		v[i] = 1000 + (r % 1000) * (1u << (r >> 60));
		hist_add(&h, v[i]);
	}
	qsort(v, 20000, sizeof v[0], cmp_u64);
	for (k = 0; k < 4; k++) {
		uint64_t exact = v[(size_t)(qs[k] * 20000) - 1];
		uint64_t got = hist_quantile(&h, qs[k]);

		cr_assert_geq(got, exact, "q%.3f %llu < exact %llu", qs[k],
		    (unsigned long long)got, (unsigned long long)exact);
		cr_assert_leq((double)got, (double)exact * 1.0625 + 1,
		    "q%.3f %llu too far above %llu", qs[k],
		    (unsigned long long)got, (unsigned long long)exact);
	}
	cr_assert_eq(hist_quantile(&h, 1.0), v[19999]);
	cr_assert_eq(h.min, v[0]);
	cr_assert_eq(h.n, 20000);
	hist_done(&h);
}

/* An import holds thousands of tests: an empty histogram must cost its
   header only, one value one bucket (issue 19, item 8). */
Test(hist, holds_only_the_buckets_in_use)
{
	struct hist h;

	hist_init(&h);
	cr_assert_null(h.b);
	cr_assert_eq(h.nb, 0);
	hist_add(&h, 30519000);
	cr_assert_eq(h.nb, 1);
	hist_add(&h, 30519000);
	cr_assert_eq(h.nb, 1);
	hist_add(&h, 1000);
	cr_assert_eq(h.nb, hist_bucket(30519000) - hist_bucket(1000) + 1);
	cr_assert_eq(hist_count(&h, hist_bucket(30519000)), 2);
	cr_assert_eq(hist_quantile(&h, 0.5), 30519000);
	hist_done(&h);
	cr_assert_null(h.b);
}

Test(hist, buckets_are_contiguous_and_ordered)
{
	unsigned i;

	for (i = 1; i < HIST_BUCKETS - 1; i++) {
		cr_assert_eq(hist_bucket(hist_bucket_max(i - 1) + 1), i,
		    "bucket %u", i);
		cr_assert_eq(hist_bucket(hist_bucket_max(i)), i, "bucket %u",
		    i);
	}
	cr_assert_lt(hist_bucket(UINT64_MAX), HIST_BUCKETS);
}

Test(hist, merge_equals_adding_everything_to_one)
{
	static struct hist a, b, all;
	uint64_t i;

	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	for (i = 1; i < 5000; i++) {
		hist_add(i % 3 ? &a : &b, i * 37);
		hist_add(&all, i * 37);
	}
	hist_merge(&a, &b);
	cr_assert(hist_equal(&a, &all));
	hist_done(&a);
	hist_done(&b);
	hist_done(&all);
	cr_assert_eq(hist_quantile(&(struct hist){ .min = UINT64_MAX }, 0.5),
	    0);
}

static void *
pusher(void *arg)
{
	struct evq *q = arg;
	struct evq_event ev;
	int i;

	memset(&ev, 0, sizeof ev);
	ev.type = EVQ_NOTE;
	for (i = 0; i < 1000; i++) {
		ev.value = i;
		evq_push(q, &ev);
	}
	return NULL;
}

Test(evq, delivers_every_event_in_order_per_producer)
{
	struct evq *q = evq_new(sizeof(struct evq_event));
	struct evq_event ev;
	pthread_t t[4];
	double last = -1;
	int i, n = 0;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, pusher, q);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	while (evq_pop(q, &ev))
		n++;
	cr_assert_eq(n, 4000);
	pusher(q);
	while (evq_pop(q, &ev)) {
		cr_assert_gt(ev.value, last);
		last = ev.value;
	}
	evq_free(q);
}

Test(result, rates_and_cpu_follow_from_counters)
{
	struct wl_result *r = wl_result_new("x", NULL);
	struct wl_test *t = wl_result_add_test(r, "k", "K", WL_UNIT_KBPS);

	t->wall = 2.0;
	t->user = 0.5;
	t->sys = 0.5;
	t->bytes_written = 4096 * 1024;
	t->files = 100;
	t->ops = 50;
	cr_assert_float_eq(wl_test_rate(t, WL_UNIT_KBPS), 2048.0, 1e-9);
	cr_assert_float_eq(wl_test_rate(t, WL_UNIT_MBPS), 4194304 / 2e6, 1e-9);
	cr_assert_float_eq(wl_test_rate(t, WL_UNIT_FILES_S), 50.0, 1e-9);
	cr_assert_float_eq(wl_test_rate(t, WL_UNIT_SEEKS_S), 25.0, 1e-9);
	cr_assert_float_eq(wl_test_rate(t, WL_UNIT_SECONDS), 2.0, 1e-9);
	cr_assert_float_eq(wl_test_cpu_percent(t), 50.0, 1e-9);
	cr_assert_eq(wl_result_test(r, "k"), t);
	cr_assert_null(wl_result_test(r, "nope"));
	cr_assert_eq(wl_unit_parse(wl_unit_key(WL_UNIT_IOPS)), WL_UNIT_IOPS);
	cr_assert_eq(wl_status_parse("interrupted"), WL_INTERRUPTED);
	wl_result_free(r);
}

/* A test's begin and end, in seconds of CLOCK_MONOTONIC. */
static struct wl_test *
timed(struct wl_result *r, const char *key, double begin, double end)
{
	struct wl_test *t = wl_result_add_test(r, key, key, WL_UNIT_MBPS);

	t->begin_ns = (uint64_t)(begin * 1e9);
	t->end_ns = (uint64_t)(end * 1e9);
	return t;
}

Test(sampler, stalls_mark_the_tests_they_fell_in)
{
	struct wl_result *r = wl_result_new("x", NULL);
	struct sampler s;

	sampler_init(&s, 8);
	s.nstalls = 2;
	s.stalls = calloc(2, sizeof *s.stalls);
	/* Stopped 4.5 s before the tick at 15 s (the one at 10 s was the
	   last on time), then the machine slept 60 s within one tick. */
	s.stalls[0] = (struct sampler_stall){ .from = 10000000000ull,
		.to = 15000000000ull,
		.stopped = 4.5 };
	s.stalls[1] = (struct sampler_stall){ .from = 20000000000ull,
		.to = 20250000000ull,
		.suspended = 60 };
	timed(r, "stopped_in", 9, 16);
	timed(r, "after", 16, 19);
	timed(r, "began_at_resume", 14.99, 15.5);
	timed(r, "slept_in", 19, 21);
	timed(r, "before", 1, 9);
	sampler_mark_stalls(&s, r);
	cr_assert_float_eq(r->tests[0].stalled, 4.5, 1e-6);
	cr_assert_eq(r->tests[1].stalled, 0);
	cr_assert_eq(r->tests[2].stalled, 0, "under WL_STALL_MIN: %g",
	    r->tests[2].stalled);
	cr_assert_float_eq(r->tests[3].stalled, 60, 1e-6);
	cr_assert_eq(r->tests[4].stalled, 0);
	cr_assert_eq(r->nnotes, 2, "a note per stalled test");
	sampler_done(&s);
	wl_result_free(r);
}

Test(strbuf, grows_and_hands_over)
{
	struct strbuf b;
	char *s;
	int i;

	strbuf_init(&b);
	for (i = 0; i < 1000; i++)
		strbuf_printf(&b, "%d,", i);
	cr_assert_eq(strncmp(b.s, "0,1,2,", 6), 0);
	cr_assert_eq(b.len, strlen(b.s));
	s = strbuf_take(&b);
	cr_assert_eq(b.len, 0);
	free(s);
	strbuf_done(&b);
}
