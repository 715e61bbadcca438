/*
 * The Run screen's tick: what the runner's counters did since the last
 * tick, pushed onto the current variant's curve, and the member devices'
 * activity read from sysfs. The loop calls it each tick, whether the
 * screen is shown or not. UI thread.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tick.h"
#include "disk/devstat.h"
#include "figures/series.h"
#include "measure/engine.h"
#include "run/labrun.h"
#include "tui-run.h"
#include "tui.h"

/* The counters' change over dt seconds, on the variant's own clock. */
static void
curve_push(struct run_curve *c, const struct engine_totals *now,
    const struct engine_totals *last, double dt)
{
	struct sample x;

	x.t = (c->s.n > 0 ? series_at(&c->s, c->s.n - 1)->t : 0) + dt;
	x.dt = dt;
	x.bytes_read = now->bytes_read - last->bytes_read;
	x.bytes_written = now->bytes_written - last->bytes_written;
	x.files = now->files - last->files;
	x.ops = now->ops - last->ops;
	series_push(&c->s, &x);
}

/* Member devices' activity since their last reading, from sysfs, over
   the time that really passed between the two readings. */
static void
members_sample(struct run *r)
{
	size_t n = 0;
	char **names = labrun_devices(r->lr, &n);

	if (n > RUN_MEMBERS)
		n = RUN_MEMBERS;
	/* No devices while a variant is built or torn down: the next
	   readings start afresh (a device made again, an md array, counts
	   from zero; the build's own I/O is not the workload's). */
	if (n == 0)
		for (size_t i = 0; i < RUN_MEMBERS; i++)
			r->members[i].seen = false;
	for (size_t i = 0; i < n; i++) {
		struct run_member *m = &r->members[i];
		struct devstat_reading rd;

		if (strcmp(m->name, names[i]) != 0) {
			memset(m, 0, sizeof *m);
			snprintf(m->name, sizeof m->name, "%s", names[i]);
		}
		if (devstat_read(NULL, names[i], &rd) == 0) {
			uint64_t sect = rd.read_sectors + rd.write_sectors;
			uint64_t ticks = rd.io_ticks;
			double at = tick_now_s(), dt = at - m->at;

			if (m->seen && dt > 0 && sect >= m->sectors &&
			    ticks >= m->ticks) {
				m->mbps = (double)(sect - m->sectors) * 512 /
				    1e6 / dt;
				m->util = (double)(ticks - m->ticks) /
				    (dt * 1000) * 100;
				if (m->util > 100)
					m->util = 100;
			} else if (!m->seen) {
				m->mbps = 0;
				m->util = 0;
			}
			m->sectors = sect;
			m->ticks = ticks;
			m->at = at;
			m->seen = true;
		}
	}
	r->nmembers = n;
	for (size_t i = 0; i < n; i++)
		free(names ? names[i] : NULL);
	free(names);
}

void
run_tick(void *p, struct tui *t, bool current)
{
	struct run *r = p;
	struct engine_totals now;
	unsigned long gen;
	double dt;

	/* a fleet's rates are the controller's atomics, read as drawn */
	if (r->state == RUN_RUNNING && r->fr != NULL) {
		if (current)
			t->redraw = true;
		return;
	}
	if (r->state != RUN_RUNNING || r->lr == NULL)
		return;
	if ((gen = labrun_totals(r->lr, &now)) == 0) {
		r->last_gen = 0;
		members_sample(r);
		t->redraw = current;
		return;
	}
	/* Another workload run since the last tick counts from zero. */
	if (gen != r->last_gen)
		memset(&r->last, 0, sizeof r->last);
	dt = now.t - r->last.t;
	if (dt > 0 && r->ncurves > 0)
		curve_push(&r->curves[r->ncurves - 1], &now, &r->last, dt);
	r->last = now;
	r->last_gen = gen;
	members_sample(r);
	if (current)
		t->redraw = true;
}
