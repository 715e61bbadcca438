/*
 * The clock and the tick of the loops that poll with a tick as timeout
 * (the lab runner following an engine, raidlab run's status line, the
 * TUI's screens). The clock is CLOCK_MONOTONIC: it never jumps with the
 * wall clock, and it counts the time a stopped process spends stopped
 * (not a suspended machine's sleep: engine.h's sampler looks for those).
 *
 * A tick's deadlines fall on start + k x period. One rule for a late
 * tick: it is taken once, the next deadline is the next multiple after
 * now, and the deadlines skipped are counted, never fired in a burst to
 * catch up (samples a few microseconds apart say nothing) nor moved to
 * now + period (the period would drift by each wake-up's lateness).
 * The tick functions take now as a parameter, so that tests give the
 * times. A struct tick belongs to one thread; tick_now_*() any thread.
 */
#ifndef RAIDLAB_TICK_H
#define RAIDLAB_TICK_H

#include <stdbool.h>
#include <stdint.h>

/* CLOCK_MONOTONIC, in nanoseconds and in seconds. */
uint64_t tick_now_ns(void);
double tick_now_s(void);

struct tick {
	uint64_t period; /* ns, > 0 */
	uint64_t next; /* ns on the clock above: the next deadline */
};

/* Deadlines every period_ns (0 counts as 1) from now: the first at
   now + period_ns. */
void tick_start(struct tick *t, uint64_t period_ns, uint64_t now);

/* Nanoseconds from now to the deadline; 0 when it is due. */
uint64_t tick_left(const struct tick *t, uint64_t now);

/* tick_left() in milliseconds for poll(), rounded up (a poll that wakes
   before the deadline would only poll again at once), at most INT_MAX. */
int tick_timeout_ms(const struct tick *t, uint64_t now);

/*
 * Whether the tick is due at now. When it is, the deadline moves to the
 * first multiple of the period after now, and *missed (NULL: not asked)
 * gets the deadlines passed over: 0 for a tick taken before its next
 * deadline came, n when n more came and went.
 */
bool tick_due(struct tick *t, uint64_t now, uint64_t *missed);

#endif
