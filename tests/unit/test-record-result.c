/*
 * One result in a record (record-result): it survives JSON exactly, long
 * merged series and member arrays included; older series read back;
 * member arrays that do not line up with the series and malformed
 * results are refused with a message; percentiles are there for readers.
 * Part of the test-record program (unit-record.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "results/record.h"
#include "unit-record.h"

/* ---------------------------------------------------------------- results */

Test(record, result_survives_json_exactly)
{
	struct wl_result *a = sample_result(), *b;
	json_t *j, *back;
	json_error_t jerr;
	struct err e;
	char *text;

	j = record_result_to_json(a);
	text = json_dumps(j, JSON_INDENT(1));
	cr_assert_not_null(text);
	back = json_loads(text, 0, &jerr);
	cr_assert_not_null(back, "%s", jerr.text);
	err_clear(&e);
	b = record_result_from_json(back, &e);
	cr_assert_not_null(b, "%s", e.msg);
	assert_same_result(a, b);
	cr_assert_eq(a->series.span, 2, "the test covers merged samples");
	cr_assert(isnan(series_dev_at(&a->series, 1, 2)->busy_s),
	    "the test covers unknown busy time");
	wl_result_free(b);
	json_decref(back);
	json_decref(j);
	free(text);
	wl_result_free(a);
}

/* A result through JSON text and back; asserts it reads. */
static struct wl_result *
through_json(const struct wl_result *a, json_t **jout)
{
	json_t *j = record_result_to_json(a), *back;
	json_error_t jerr;
	struct wl_result *b;
	struct err e;
	char *text = json_dumps(j, JSON_COMPACT);

	cr_assert_not_null(text);
	back = json_loads(text, 0, &jerr);
	cr_assert_not_null(back, "%s", jerr.text);
	err_clear(&e);
	b = record_result_from_json(back, &e);
	cr_assert_not_null(b, "%s", e.msg);
	json_decref(back);
	free(text);
	*jout = j;
	return b;
}

/* 8 hours at 4 ticks/s in the runner's 14400 samples, with a step change
   halfway, and one member device. */
Test(record, long_merged_series_and_members_survive_json)
{
	struct wl_result *a = wl_result_new("fio", "long"), *b;
	json_t *j, *s, *m;
	struct sample x = { 0 };
	size_t i, step = SIZE_MAX;

	series_done(&a->series);
	series_init(&a->series, 14400);
	series_add_dev(&a->series, "loop3", "device");
	for (uint64_t t = 1; t <= 115200; t++) {
		struct dev_sample d = { 0, t <= 57600 ? 4096 : 40960, 0.125 };

		x.t = (double)t * 0.25;
		x.dt = 0.25;
		x.bytes_written = t <= 57600 ? 1000 : 10000;
		series_push_devs(&a->series, &x, &d);
	}
	b = through_json(a, &j);
	assert_same_series(&a->series, &b->series);
	cr_assert_eq(b->series.span, 8);
	s = json_object_get(j, "series");
	cr_assert_eq(json_integer_value(json_object_get(s, "merged")), 8);
	cr_assert_eq(json_array_size(json_object_get(s, "t")), 14400);
	m = json_array_get(json_object_get(s, "members"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(m, "name")),
	    "loop3");
	cr_assert_eq(json_array_size(json_object_get(m, "write_bytes")), 14400);
	cr_assert_float_eq(json_real_value(
			       json_array_get(json_object_get(m, "busy"), 9)),
	    0.5, 1e-12);
	for (i = 0; i < b->series.n && step == SIZE_MAX; i++)
		if (series_dev_at(&b->series, 0, i)->write_bytes > 8 * 4096)
			step = i;
	cr_assert_float_eq(series_at(&b->series, step)->t -
		series_at(&b->series, step)->dt,
	    57600 * 0.25, 1e-6, "the step is 4 h in");
	json_decref(j);
	wl_result_free(b);
	wl_result_free(a);
}

/* A series as raidlab wrote it before merging and members. */
Test(record, older_series_with_dropped_samples_reads_back)
{
	json_error_t jerr;
	json_t *j = json_loads(
	    "{\"workload\": {\"type\": \"fio\"}, \"status\": \"ok\", "
	    "\"start\": \"2024-05-01T12:00:00.000000000Z\", "
	    "\"end\": \"2024-05-01T12:00:01.000000000Z\", \"wall\": 1.0, "
	    "\"tests\": [], \"series\": {\"dropped\": 3, \"t\": [1.0, 1.25], "
	    "\"dt\": [0.25, 0.25], \"bytes_read\": [0, 1], "
	    "\"bytes_written\": [5, 6], \"files\": [0, 0], "
	    "\"ops\": [1, 2]}}",
	    0, &jerr);
	struct wl_result *r;
	struct err e;

	cr_assert_not_null(j, "%s", jerr.text);
	err_clear(&e);
	r = record_result_from_json(j, &e);
	cr_assert_not_null(r, "%s", e.msg);
	cr_assert_eq(r->series.n, 2);
	cr_assert_eq(r->series.dropped, 3);
	cr_assert_eq(r->series.span, 1);
	cr_assert_eq(r->series.ndev, 0);
	cr_assert_eq(series_at(&r->series, 1)->bytes_written, 6);
	wl_result_free(r);
	json_decref(j);
}

Test(record, member_arrays_not_aligned_with_the_series_are_refused)
{
	struct wl_result *a = sample_result();
	json_t *j = record_result_to_json(a), *m;
	struct err e;

	m = json_array_get(json_object_get(json_object_get(j, "series"),
			       "members"),
	    0);
	json_array_append_new(json_object_get(m, "busy"), json_real(0.5));
	err_clear(&e);
	cr_assert_null(record_result_from_json(j, &e));
	cr_assert(strstr(e.msg, "member") != NULL, "%s", e.msg);
	json_decref(j);
	wl_result_free(a);
}

/* tests[i].latency.op of a result object. */
static json_t *
latency(json_t *res, size_t i, const char *op)
{
	json_t *t = json_array_get(json_object_get(res, "tests"), i);

	return json_object_get(json_object_get(t, "latency"), op);
}

Test(record, result_json_has_percentiles_for_readers)
{
	struct wl_result *a = sample_result();
	json_t *j = record_result_to_json(a), *h = latency(j, 0, "create");
	const struct hist *src = &a->tests[0].lat[WL_OP_CREATE];

	cr_assert_not_null(h);
	cr_assert_eq(json_integer_value(json_object_get(h, "p99_ns")),
	    (json_int_t)hist_quantile(src, 0.99));
	cr_assert_eq(json_integer_value(json_object_get(h, "p50_ns")),
	    (json_int_t)hist_quantile(src, 0.5));
	cr_assert_null(latency(j, 0, "write"),
	    "an empty histogram is left out");
	cr_assert(json_is_string(
		      json_object_get(latency(j, 0, "read"), "sum_ns")),
	    "a saturated sum is a decimal string");
	json_decref(j);
	wl_result_free(a);
}

Test(record, malformed_result_is_refused_with_a_message)
{
	json_error_t jerr;
	json_t *j = json_loads("{\"workload\": {\"type\": \"x\"}, "
			       "\"status\": \"bogus\", \"tests\": []}",
	    0, &jerr);
	struct err e;

	err_clear(&e);
	cr_assert_null(record_result_from_json(j, &e));
	cr_assert_eq(e.code, -EINVAL);
	cr_assert(strstr(e.msg, "status") != NULL, "%s", e.msg);
	json_decref(j);
}
