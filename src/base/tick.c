/*
 * The loops' clock and tick: see tick.h. Any thread; a struct tick is
 * its owner's.
 */
#include "config.h"

#include <limits.h>
#include <time.h>

#include "tick.h"

uint64_t
tick_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double
tick_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
tick_start(struct tick *t, uint64_t period_ns, uint64_t now)
{
	t->period = period_ns > 0 ? period_ns : 1;
	t->next = now + t->period;
}

uint64_t
tick_left(const struct tick *t, uint64_t now)
{
	return now >= t->next ? 0 : t->next - now;
}

int
tick_timeout_ms(const struct tick *t, uint64_t now)
{
	uint64_t ms = (tick_left(t, now) + 999999) / 1000000;

	return ms > INT_MAX ? INT_MAX : (int)ms;
}

bool
tick_due(struct tick *t, uint64_t now, uint64_t *missed)
{
	uint64_t late;

	if (now < t->next)
		return false;
	late = (now - t->next) / t->period;
	t->next += (late + 1) * t->period;
	if (missed != NULL)
		*missed = late;
	return true;
}
