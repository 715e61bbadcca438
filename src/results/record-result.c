/*
 * One workload result as JSON and back (record.h): every field of struct
 * wl_result and struct wl_test, latency histograms as sparse buckets with
 * their exact n/sum/min/max so that reading rebuilds the same struct
 * hist, plus percentiles for people who read the JSON. Also the small
 * JSON helpers of record-int.h. The thread that owns the record.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "record-int.h"
#include "record.h"

/* ---------------------------------------------------------------- helpers */

json_t *
rec_ju64(uint64_t v)
{
	char buf[32];

	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	return json_string(buf);
}

json_t *
rec_jdbl(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *
rec_jtime(const struct timespec *ts)
{
	char buf[64], date[40];
	time_t t = ts->tv_sec;
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, sizeof buf, "%s.%09ldZ", date, (long)ts->tv_nsec);
	return json_string(buf);
}

bool
rec_u64_value(const json_t *j, uint64_t *out)
{
	const char *s;
	char *end;

	if (json_is_integer(j)) {
		if (json_integer_value(j) < 0)
			return false;
		*out = (uint64_t)json_integer_value(j);
		return true;
	}
	if (!json_is_string(j))
		return false;
	s = json_string_value(j);
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno == 0 && end != s && *end == '\0';
}

bool
record_get_u64(const json_t *o, const char *key, uint64_t *out)
{
	uint64_t v;

	if (!rec_u64_value(json_object_get(o, key), &v))
		return false;
	*out = v;
	return true;
}

bool
record_get_int(const json_t *o, const char *key, int *out)
{
	json_t *j = json_object_get(o, key);

	if (!json_is_integer(j))
		return false;
	*out = (int)json_integer_value(j);
	return true;
}

bool
record_get_dbl(const json_t *o, const char *key, double *out)
{
	json_t *j = json_object_get(o, key);

	if (json_is_null(j)) {
		*out = NAN;
		return true;
	}
	if (!json_is_number(j))
		return false;
	*out = json_number_value(j);
	return true;
}

bool
record_get_bool(const json_t *o, const char *key, bool *out)
{
	json_t *j = json_object_get(o, key);

	if (!json_is_boolean(j))
		return false;
	*out = json_is_true(j);
	return true;
}

const char *
record_get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

bool
record_get_time(const json_t *o, const char *key, struct timespec *out)
{
	const char *s = record_get_str(o, key);
	int y, mo, d, h, mi, sec, n = 0;
	char frac[16] = "";
	long ns = 0;
	struct tm tm;
	size_t i;

	if (s == NULL ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec,
		&n) != 6)
		return false;
	s += n;
	if (*s == '.') {
		s++;
		for (i = 0; i < 9 && s[i] >= '0' && s[i] <= '9'; i++)
			frac[i] = s[i];
		s += strspn(s, "0123456789");
		for (; i < 9; i++)
			frac[i] = '0';
		frac[9] = '\0';
		ns = strtol(frac, NULL, 10);
	}
	if (strcmp(s, "Z") != 0 || mo < 1 || mo > 12 || d < 1 || d > 31)
		return false;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	out->tv_sec = timegm(&tm);
	out->tv_nsec = ns;
	return true;
}

/* ---------------------------------------------------------------- to JSON */

static json_t *
hist_to_json(const struct hist *h)
{
	json_t *o = json_object(), *b = json_array();
	unsigned i;

	json_object_set_new(o, "n", rec_ju64(h->n));
	json_object_set_new(o, "mean_ns", rec_jdbl(hist_mean(h)));
	json_object_set_new(o, "min_ns", rec_ju64(h->min));
	json_object_set_new(o, "p50_ns", rec_ju64(hist_quantile(h, 0.50)));
	json_object_set_new(o, "p90_ns", rec_ju64(hist_quantile(h, 0.90)));
	json_object_set_new(o, "p99_ns", rec_ju64(hist_quantile(h, 0.99)));
	json_object_set_new(o, "p999_ns", rec_ju64(hist_quantile(h, 0.999)));
	json_object_set_new(o, "max_ns", rec_ju64(h->max));
	json_object_set_new(o, "sum_ns", rec_ju64(h->sum));
	for (i = 0; i < HIST_BUCKETS; i++) {
		json_t *pair;

		if (hist_count(h, i) == 0)
			continue;
		pair = json_array();
		json_array_append_new(pair, json_integer(i));
		json_array_append_new(pair, rec_ju64(hist_count(h, i)));
		json_array_append_new(b, pair);
	}
	json_object_set_new(o, "buckets", b);
	return o;
}

static json_t *
test_to_json(const struct wl_test *t)
{
	json_t *o = json_object(), *lat = json_object();
	unsigned op;

	json_object_set_new(o, "key", jsonx_str(t->key));
	json_object_set_new(o, "label", jsonx_str(t->label));
	json_object_set_new(o, "unit", json_string(wl_unit_key(t->unit)));
	json_object_set_new(o, "value", rec_jdbl(t->value));
	json_object_set_new(o, "wall", rec_jdbl(t->wall));
	json_object_set_new(o, "user", rec_jdbl(t->user));
	json_object_set_new(o, "sys", rec_jdbl(t->sys));
	json_object_set_new(o, "cpu_percent", rec_jdbl(wl_test_cpu_percent(t)));
	json_object_set_new(o, "bytes_read", rec_ju64(t->bytes_read));
	json_object_set_new(o, "bytes_written", rec_ju64(t->bytes_written));
	json_object_set_new(o, "files", rec_ju64(t->files));
	json_object_set_new(o, "ops", rec_ju64(t->ops));
	json_object_set_new(o, "too_fast", json_boolean(t->too_fast));
	json_object_set_new(o, "interrupted", json_boolean(t->interrupted));
	if (t->stalled > 0)
		json_object_set_new(o, "stalled", rec_jdbl(t->stalled));
	/* An empty histogram is left out: reading it back re-initialises. */
	for (op = 0; op < WL_OP__COUNT; op++)
		if (t->lat[op].n > 0)
			json_object_set_new(lat, wl_op_name(op),
			    hist_to_json(&t->lat[op]));
	json_object_set_new(o, "latency", lat);
	return o;
}

/* Device k's series: bytes per sample and the busy fraction of each
   sample's dt (null when unknown). */
static json_t *
dev_to_json(const struct series *s, size_t k)
{
	json_t *o = json_object(), *rd = json_array(), *wr = json_array(),
	       *busy = json_array();

	json_object_set_new(o, "name", jsonx_str(s->dev[k].name));
	json_object_set_new(o, "role", jsonx_str(s->dev[k].role));
	for (size_t i = 0; i < s->n; i++) {
		const struct dev_sample *d = series_dev_at(s, k, i);

		json_array_append_new(rd, rec_ju64(d->read_bytes));
		json_array_append_new(wr, rec_ju64(d->write_bytes));
		json_array_append_new(busy,
		    rec_jdbl(dev_sample_busy(d, series_at(s, i)->dt)));
	}
	json_object_set_new(o, "read_bytes", rd);
	json_object_set_new(o, "write_bytes", wr);
	json_object_set_new(o, "busy", busy);
	return o;
}

static json_t *
series_to_json(const struct series *s)
{
	static const char *const keys[] = { "t", "dt", "bytes_read",
		"bytes_written", "files", "ops" };
	json_t *o = json_object(), *a[6], *m = json_array();
	size_t i, k;

	json_object_set_new(o, "dropped", rec_ju64(s->dropped));
	json_object_set_new(o, "merged", rec_ju64(s->span));
	for (k = 0; k < 6; k++)
		a[k] = json_array();
	for (i = 0; i < s->n; i++) {
		const struct sample *x = series_at(s, i);

		json_array_append_new(a[0], rec_jdbl(x->t));
		json_array_append_new(a[1], rec_jdbl(x->dt));
		json_array_append_new(a[2], rec_ju64(x->bytes_read));
		json_array_append_new(a[3], rec_ju64(x->bytes_written));
		json_array_append_new(a[4], rec_ju64(x->files));
		json_array_append_new(a[5], rec_ju64(x->ops));
	}
	for (k = 0; k < 6; k++)
		json_object_set_new(o, keys[k], a[k]);
	for (k = 0; k < s->ndev; k++)
		json_array_append_new(m, dev_to_json(s, k));
	json_object_set_new(o, "members", m);
	return o;
}

json_t *
record_result_to_json(const struct wl_result *res)
{
	json_t *o = json_object(), *w = json_object(), *a;
	size_t i;

	json_object_set_new(w, "type", jsonx_str(res->workload));
	json_object_set_new(w, "name", jsonx_str(res->name));
	json_object_set_new(o, "workload", w);
	json_object_set_new(o, "status",
	    json_string(wl_status_name(res->status)));
	if (res->error != NULL)
		json_object_set_new(o, "error", jsonx_str(res->error));
	a = json_array();
	for (i = 0; i < res->nnotes; i++)
		json_array_append_new(a, jsonx_str(res->notes[i]));
	json_object_set_new(o, "notes", a);
	json_object_set_new(o, "start", rec_jtime(&res->start));
	json_object_set_new(o, "end", rec_jtime(&res->end));
	json_object_set_new(o, "wall", rec_jdbl(res->wall));
	json_object_set_new(o, "tick", rec_jdbl(res->tick));
	a = json_array();
	for (i = 0; i < res->ntests; i++)
		json_array_append_new(a, test_to_json(&res->tests[i]));
	json_object_set_new(o, "tests", a);
	json_object_set_new(o, "series", series_to_json(&res->series));
	return o;
}

/* ---------------------------------------------------------------- from JSON */

static int
bad(struct err *e, const char *what)
{
	return err_setf(e, -EINVAL, _("malformed result: %s"), what);
}

static int
hist_from_json(const json_t *o, struct hist *h, struct err *e)
{
	const json_t *b = json_object_get(o, "buckets"), *pair;
	json_int_t idx;
	uint64_t c, total = 0;
	size_t i;

	hist_init(h);
	if (!record_get_u64(o, "n", &h->n) ||
	    !record_get_u64(o, "sum_ns", &h->sum) ||
	    !record_get_u64(o, "min_ns", &h->min) ||
	    !record_get_u64(o, "max_ns", &h->max) || !json_is_array(b))
		return bad(e, _("latency histogram"));
	for (i = 0; i < json_array_size(b); i++) {
		pair = json_array_get(b, i);
		idx = json_integer_value(json_array_get(pair, 0));
		if (!json_is_integer(json_array_get(pair, 0)) || idx < 0 ||
		    idx >= HIST_BUCKETS ||
		    !rec_u64_value(json_array_get(pair, 1), &c))
			return bad(e, _("latency bucket"));
		hist_add_bucket(h, (unsigned)idx, c);
		total += c;
	}
	if (total != h->n)
		return bad(e, _("latency buckets do not add up to n"));
	return 0;
}

static int
test_from_json(const json_t *o, struct wl_result *r, struct err *e)
{
	const char *key = record_get_str(o, "key"),
		   *label = record_get_str(o, "label");
	const char *unit = record_get_str(o, "unit");
	const json_t *lat = json_object_get(o, "latency"), *h;
	struct wl_test *t;
	int u, op;

	if (key == NULL || label == NULL || unit == NULL ||
	    (u = wl_unit_parse(unit)) < 0)
		return bad(e, _("test without key, label or unit"));
	t = wl_result_add_test(r, key, label, (enum wl_unit)u);
	if (!record_get_dbl(o, "value", &t->value) ||
	    !record_get_dbl(o, "wall", &t->wall) ||
	    !record_get_dbl(o, "user", &t->user) ||
	    !record_get_dbl(o, "sys", &t->sys) ||
	    !record_get_u64(o, "bytes_read", &t->bytes_read) ||
	    !record_get_u64(o, "bytes_written", &t->bytes_written) ||
	    !record_get_u64(o, "files", &t->files) ||
	    !record_get_u64(o, "ops", &t->ops) ||
	    !record_get_bool(o, "too_fast", &t->too_fast) ||
	    !record_get_bool(o, "interrupted", &t->interrupted))
		return bad(e, key);
	/* Optional: only a stalled test has it. */
	if (json_object_get(o, "stalled") != NULL &&
	    (!record_get_dbl(o, "stalled", &t->stalled) || !(t->stalled >= 0)))
		return bad(e, key);
	if (lat != NULL && !json_is_object(lat))
		return bad(e, _("latency"));
	/* Operations a newer raidlab measures are not ours to keep. */
	for (op = 0; op < WL_OP__COUNT; op++) {
		h = json_object_get(lat, wl_op_name((enum wl_op)op));
		if (h != NULL && hist_from_json(h, &t->lat[op], e) < 0)
			return -EINVAL;
	}
	return 0;
}

/* The members [] of a series already read (n samples): each device's
   arrays must have n values. */
static int
devs_from_json(const json_t *m, struct series *s, struct err *e)
{
	const json_t *o, *rd, *wr, *busy;
	size_t k, i, n = s->n;

	if (m == NULL)
		return 0;
	if (!json_is_array(m))
		return bad(e, _("series members"));
	for (k = 0; k < json_array_size(m); k++) {
		o = json_array_get(m, k);
		rd = json_object_get(o, "read_bytes");
		wr = json_object_get(o, "write_bytes");
		busy = json_object_get(o, "busy");
		if (record_get_str(o, "name") == NULL ||
		    json_array_size(rd) != n || json_array_size(wr) != n ||
		    json_array_size(busy) != n)
			return bad(e,
			    _("series member arrays differ in length"));
		series_add_dev(s, record_get_str(o, "name"),
		    record_get_str(o, "role"));
		for (i = 0; i < n; i++) {
			struct dev_sample *x = &s->dev[k].v[i];
			const json_t *b = json_array_get(busy, i);

			if (!rec_u64_value(json_array_get(rd, i),
				&x->read_bytes) ||
			    !rec_u64_value(json_array_get(wr, i),
				&x->write_bytes) ||
			    !(json_is_number(b) || json_is_null(b)))
				return bad(e, _("series members"));
			x->busy_s = json_is_number(b)
			    ? json_number_value(b) * series_at(s, i)->dt
			    : NAN;
		}
	}
	return 0;
}

static int
series_from_json(const json_t *o, struct series *s, struct err *e)
{
	static const char *const keys[] = { "t", "dt", "bytes_read",
		"bytes_written", "files", "ops" };
	const json_t *a[6];
	struct sample x;
	size_t i, k, n;

	if (o == NULL)
		return 0;
	for (k = 0; k < 6; k++)
		if (!json_is_array(a[k] = json_object_get(o, keys[k])))
			return bad(e, _("series"));
	n = json_array_size(a[0]);
	for (k = 1; k < 6; k++)
		if (json_array_size(a[k]) != n)
			return bad(e, _("series arrays differ in length"));
	series_done(s);
	series_init(s, n);
	/* Older records have no "merged": one tick a sample. */
	if (!record_get_u64(o, "merged", &s->span) || s->span == 0)
		s->span = 1;
	for (i = 0; i < n; i++) {
		const json_t *t = json_array_get(a[0], i);
		const json_t *dt = json_array_get(a[1], i);

		x.t = json_is_number(t) ? json_number_value(t) : NAN;
		x.dt = json_is_number(dt) ? json_number_value(dt) : NAN;
		if (!rec_u64_value(json_array_get(a[2], i), &x.bytes_read) ||
		    !rec_u64_value(json_array_get(a[3], i), &x.bytes_written) ||
		    !rec_u64_value(json_array_get(a[4], i), &x.files) ||
		    !rec_u64_value(json_array_get(a[5], i), &x.ops))
			return bad(e, _("series"));
		series_append(s, &x, NULL);
	}
	if (!record_get_u64(o, "dropped", &s->dropped))
		return bad(e, _("series"));
	return devs_from_json(json_object_get(o, "members"), s, e);
}

/* Status, error, notes, times: the fields around the tests. */
static int
head_from_json(const json_t *o, struct wl_result *r, struct err *e)
{
	const char *status = record_get_str(o, "status");
	const json_t *notes = json_object_get(o, "notes"), *n;
	int st;
	size_t i;

	if (status == NULL || (st = wl_status_parse(status)) < 0)
		return bad(e, _("status"));
	r->status = (enum wl_status)st;
	if (record_get_str(o, "error") != NULL)
		r->error = xstrdup(record_get_str(o, "error"));
	if (notes != NULL && !json_is_array(notes))
		return bad(e, _("notes"));
	for (i = 0; i < json_array_size(notes); i++)
		if (json_is_string(n = json_array_get(notes, i)))
			wl_result_add_note(r, json_string_value(n));
	if (!record_get_time(o, "start", &r->start) ||
	    !record_get_time(o, "end", &r->end) ||
	    !record_get_dbl(o, "wall", &r->wall))
		return bad(e, _("start, end or wall"));
	if (!record_get_dbl(o, "tick", &r->tick))
		r->tick = 0;
	return 0;
}

struct wl_result *
record_result_from_json(const json_t *o, struct err *e)
{
	const json_t *w = json_object_get(o, "workload");
	const json_t *tests = json_object_get(o, "tests");
	const char *type = record_get_str(w, "type");
	struct wl_result *r;
	size_t i;

	if (!json_is_object(o) || type == NULL) {
		bad(e, _("no workload type"));
		return NULL;
	}
	r = wl_result_new(type, record_get_str(w, "name"));
	if (head_from_json(o, r, e) < 0)
		goto fail;
	if (!json_is_array(tests)) {
		bad(e, _("no tests"));
		goto fail;
	}
	for (i = 0; i < json_array_size(tests); i++)
		if (test_from_json(json_array_get(tests, i), r, e) < 0)
			goto fail;
	if (series_from_json(json_object_get(o, "series"), &r->series, e) < 0)
		goto fail;
	return r;
fail:
	wl_result_free(r);
	return NULL;
}
