/*
 * Following one engine run headless: the front end's loop (poll the
 * event queue with the sampling tick as timeout, sample the counters,
 * drain events), drawing a one-line status redrawn in place on a terminal
 * (stderr) or printing a line per test otherwise. Main thread.
 */
#ifndef RAIDLAB_RUN_LIVE_H
#define RAIDLAB_RUN_LIVE_H

#include <stdbool.h>

#include "engine.h"

struct live {
	const char *variant, *workload;
	int repeat, repeats;
	unsigned tick_ms;
	double expect; /* seconds a run took before; 0: unknown */
	bool tty;
	int width;
	char test[EVQ_TEXT]; /* label of the test in progress */
	struct sampler sampler;
};

void live_init(struct live *lv, const char *variant, const char *workload,
    int repeat, int repeats, unsigned tick_ms, double expect);
void live_done(struct live *lv);
/*
 * Follow eng until its driver is done; return the joined result with the
 * sampled series attached (the caller frees it).
 */
struct wl_result *live_follow(struct live *lv, struct engine *eng);

#endif
