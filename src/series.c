/*
 * Ring buffer of samples: see series.h. The owning loop's thread.
 */
#include "config.h"

#include <stdlib.h>

#include "series.h"
#include "xalloc.h"

void
series_init(struct series *s, size_t cap)
{
	s->v = xcalloc(cap ? cap : 1, sizeof *s->v);
	s->cap = cap ? cap : 1;
	s->head = s->n = 0;
	s->dropped = 0;
}

void
series_done(struct series *s)
{
	free(s->v);
	s->v = NULL;
	s->cap = s->head = s->n = 0;
}

void
series_push(struct series *s, const struct sample *x)
{
	if (s->n < s->cap) {
		s->v[(s->head + s->n) % s->cap] = *x;
		s->n++;
		return;
	}
	s->v[s->head] = *x;
	s->head = (s->head + 1) % s->cap;
	s->dropped++;
}

const struct sample *
series_at(const struct series *s, size_t i)
{
	return &s->v[(s->head + i) % s->cap];
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
