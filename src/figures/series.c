/*
 * Samples that merge instead of dropping: see series.h. The owning
 * loop's thread.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "series.h"

void
series_init(struct series *s, size_t cap)
{
	s->cap = cap ? cap : 1;
	s->v = xcalloc(s->cap, sizeof *s->v);
	s->n = 0;
	s->span = s->last_ticks = 1;
	s->dropped = 0;
	s->dev = NULL;
	s->ndev = 0;
}

void
series_done(struct series *s)
{
	for (size_t k = 0; k < s->ndev; k++) {
		free(s->dev[k].name);
		free(s->dev[k].role);
		free(s->dev[k].v);
	}
	free(s->dev);
	free(s->v);
	s->dev = NULL;
	s->v = NULL;
	s->cap = s->n = s->ndev = 0;
}

size_t
series_add_dev(struct series *s, const char *name, const char *role)
{
	struct series_dev *d;

	s->dev = xreallocarray(s->dev, s->ndev + 1, sizeof *s->dev);
	d = &s->dev[s->ndev];
	d->name = xstrdup(name);
	d->role = xstrdup(role != NULL ? role : "device");
	d->v = xcalloc(s->cap, sizeof *d->v);
	return s->ndev++;
}

static void
sample_add(struct sample *a, const struct sample *b)
{
	a->t = b->t;
	a->dt += b->dt;
	a->bytes_read += b->bytes_read;
	a->bytes_written += b->bytes_written;
	a->files += b->files;
	a->ops += b->ops;
}

/* Unknown busy time in either part leaves the sum unknown. */
static void
dev_add(struct dev_sample *a, const struct dev_sample *b)
{
	a->read_bytes += b->read_bytes;
	a->write_bytes += b->write_bytes;
	a->busy_s += b->busy_s;
}

static const struct dev_sample dev_unknown = { 0, 0, NAN };

/* Sum the tick x (and its devices' d) into the newest sample. */
static void
add_last(struct series *s, const struct sample *x, const struct dev_sample *d)
{
	sample_add(&s->v[s->n - 1], x);
	for (size_t k = 0; k < s->ndev; k++)
		dev_add(&s->dev[k].v[s->n - 1], d ? &d[k] : &dev_unknown);
	s->last_ticks++;
}

static void
put(struct series *s, const struct sample *x, const struct dev_sample *d)
{
	s->v[s->n] = *x;
	for (size_t k = 0; k < s->ndev; k++)
		s->dev[k].v[s->n] = d ? d[k] : dev_unknown;
	s->n++;
}

/* Merge neighbours in pairs: sample i becomes 2i + 2i+1; an odd newest
   stays alone, now shorter than the doubled span. */
static void
halve(struct series *s)
{
	size_t i, half = s->n / 2;

	for (i = 0; i < half; i++) {
		s->v[i] = s->v[2 * i];
		sample_add(&s->v[i], &s->v[2 * i + 1]);
		for (size_t k = 0; k < s->ndev; k++) {
			struct dev_sample *v = s->dev[k].v;

			v[i] = v[2 * i];
			dev_add(&v[i], &v[2 * i + 1]);
		}
	}
	if (s->n % 2) {
		s->v[half] = s->v[s->n - 1];
		for (size_t k = 0; k < s->ndev; k++)
			s->dev[k].v[half] = s->dev[k].v[s->n - 1];
	} else if (s->n > 0)
		s->last_ticks += s->span;
	s->n = (s->n + 1) / 2;
	s->span *= 2;
}

void
series_push_devs(struct series *s, const struct sample *x,
    const struct dev_sample *d)
{
	if (s->n > 0 && s->last_ticks < s->span) {
		add_last(s, x, d);
		return;
	}
	if (s->n == s->cap) {
		halve(s);
		if (s->last_ticks < s->span) {
			add_last(s, x, d);
			return;
		}
	}
	put(s, x, d);
	s->last_ticks = 1;
}

void
series_push(struct series *s, const struct sample *x)
{
	series_push_devs(s, x, NULL);
}

bool
series_append(struct series *s, const struct sample *x,
    const struct dev_sample *d)
{
	if (s->n == s->cap)
		return false;
	put(s, x, d);
	s->last_ticks = s->span;
	return true;
}

const struct sample *
series_at(const struct series *s, size_t i)
{
	return &s->v[i];
}

const struct dev_sample *
series_dev_at(const struct series *s, size_t k, size_t i)
{
	return &s->dev[k].v[i];
}

static double
per_s(uint64_t v, double dt)
{
	return dt > 0 ? (double)v / dt : 0.0;
}

double
sample_read_mbps(const struct sample *x)
{
	return per_s(x->bytes_read, x->dt) / 1e6;
}

double
sample_write_mbps(const struct sample *x)
{
	return per_s(x->bytes_written, x->dt) / 1e6;
}

double
sample_files_per_s(const struct sample *x)
{
	return per_s(x->files, x->dt);
}

/* The first sample ending after t0: samples are in time order. */
static size_t
first_after(const struct series *s, double t0)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].t > t0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

bool
series_rates_between(const struct series *s, double t0, double t1,
    struct series_rates *out)
{
	double rd = 0, wr = 0, files = 0, covered = 0;

	for (size_t i = first_after(s, t0); i < s->n; i++) {
		const struct sample *x = &s->v[i];
		double a = x->t - x->dt, b = x->t, f;

		if (a >= t1)
			break;
		a = a > t0 ? a : t0;
		b = b < t1 ? b : t1;
		if (!(x->dt > 0) || !(b > a))
			continue;
		f = (b - a) / x->dt;
		rd += (double)x->bytes_read * f;
		wr += (double)x->bytes_written * f;
		files += (double)x->files * f;
		covered += b - a;
	}
	if (!(covered > 0))
		return false;
	out->read_mbps = rd / covered / 1e6;
	out->write_mbps = wr / covered / 1e6;
	out->files_per_s = files / covered;
	return true;
}

double
series_sample_seconds(const struct series *s)
{
	double spans;

	if (s->n == 0)
		return 0;
	spans = (double)(s->n - 1) + (double)s->last_ticks / (double)s->span;
	return s->v[s->n - 1].t / spans;
}

static uint64_t
left(uint64_t total, uint64_t seen)
{
	return total > seen ? total - seen : 0;
}

bool
sample_rest(const struct sample *total, const struct sample *seen,
    struct sample *out)
{
	bool none = seen->bytes_read == 0 && seen->bytes_written == 0 &&
	    seen->files == 0 && seen->ops == 0;

	out->t = 0;
	out->dt = none ? total->dt : total->dt - seen->dt;
	out->bytes_read = left(total->bytes_read, seen->bytes_read);
	out->bytes_written = left(total->bytes_written, seen->bytes_written);
	out->files = left(total->files, seen->files);
	out->ops = left(total->ops, seen->ops);
	/* the ticks covered the whole time: what is left is rounding */
	if (!(out->dt > 0))
		return false;
	return out->bytes_read || out->bytes_written || out->files || out->ops;
}

double
dev_sample_busy(const struct dev_sample *d, double dt)
{
	double f;

	if (!isfinite(d->busy_s) || !(dt > 0))
		return NAN;
	f = d->busy_s / dt;
	return f < 0 ? 0 : f > 1 ? 1 : f;
}
