/*
 * What `raidlab run` shows while a lab runner (labrun.h) works: the
 * runner's events printed as they come (build steps and resync progress
 * through cli-run-build.c, a line per test when stderr is not a terminal,
 * a fault phase's progress every 10% or 10 s and its end, notes and
 * errors), and on a terminal a one-line status of the run in
 * progress redrawn in place each tick from labrun_totals(). Main thread.
 */
#ifndef RAIDLAB_CLI_RUN_LIVE_H
#define RAIDLAB_CLI_RUN_LIVE_H

#include <stdbool.h>

#include "cli-run-build.h"
#include "measure/engine.h"
#include "run/labrun.h"

struct live {
	char variant[256], workload[256]; /* of the run in progress */
	int repeat, repeats; /* the round, and the rounds likely in all */
	double expect; /* seconds a run took before; 0: unknown */
	double ci, goal; /* the widest relative CI so far (NAN), the goal
			    (0: a fixed count) */
	double left; /* seconds of runs left from this one's start; NAN */
	bool tty;
	int width;
	bool active; /* between a run's start and its result */
	bool drawn; /* the status line is on the terminal */
	char test[EVQ_TEXT]; /* label of the test in progress */
	struct engine_totals last; /* at the previous tick */
	unsigned long last_gen; /* of that run (labrun_totals) */
	double read_mbps, write_mbps, files_s; /* over that tick */
	struct build_progress bp;
	/* the variant's fault phase as last printed: its tenth of the
	   way and when (a log's pace, not every event) */
	int phase_tenth;
	double phase_t;
};

void live_init(struct live *lv);
/* Print (or note) one event of lr; LABRUN_RESULT is the caller's. */
void live_event(struct live *lv, const struct labrun *lr,
    const struct labrun_event *ev);
/* Each tick: read the counters, redraw the status line on a terminal. */
void live_tick(struct live *lv, struct labrun *lr);
/* The run in progress has ended: take its status line away. */
void live_end(struct live *lv);

#endif
