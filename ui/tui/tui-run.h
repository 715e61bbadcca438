/*
 * Internal to the Run screen (tui-run.c: runs, events, records;
 * tui-run-tick.c: curves and member activity sampled each tick;
 * tui-run-draw.c: charts, the phase, member activity, log;
 * tui-run-fleet.c: a lab's variants run on its hosts). UI thread only.
 */
#ifndef RAIDLAB_TUI_RUN_H
#define RAIDLAB_TUI_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "build/confirm.h"
#include "build/provision.h"
#include "figures/plot.h"
#include "figures/series.h"
#include "measure/engine.h"
#include "tui.h"

struct fleet_run;
struct labrun;
struct record;

/* Completed variants drawn over the current one as lines. */
#define RUN_OVERLAID 2
/* Samples kept per variant for the charts (at 4 Hz: 10 minutes, then
   they merge in pairs: series.h). */
#define RUN_HISTORY 2400
#define RUN_LOG 200
#define RUN_MEMBERS 32

/* One variant's curves: what its workload runs did each tick, t in
   seconds since the variant's first sample, its whole time however long
   (merged when full). */
struct run_curve {
	char name[64]; /* as the legend shows it: with its round, if any */
	char variant[64];
	unsigned round; /* the variant's curves before this one */
	struct series s;
};

/* Activity of one member device from /sys/class/block/NAME/stat. */
struct run_member {
	char name[32];
	uint64_t sectors, ticks; /* last reading: sectors read + written,
				    io_ticks (ms busy) */
	double at; /* when (monotonic seconds) */
	double mbps, util; /* since the reading before */
	bool seen;
};

enum run_state {
	RUN_IDLE,
	RUN_CONFIRM, /* typing the devices to destroy */
	RUN_ASK_SKIP, /* asked: run only the variants that can build? */
	RUN_RUNNING,
	RUN_DONE,
};

struct run {
	enum run_state state;
	struct labrun *lr;
	struct record *rec; /* the runner's, once it is done */
	/* a fleet run instead of lr (the lab's variants on hosts), and
	   the hosts' records saved so far */
	struct fleet_run *fr;
	char **fleet_records;
	size_t nfleet_records;
	bool *only; /* the variants to run (NULL: all): those that can
		       build here, once the user said so */
	/* the confirmation dialog */
	char **destroy;
	size_t ndestroy;
	char *destroy_text;
	/* what they designated when shown: the confirmation binds to it */
	struct confirm_set *bound;
	char typed[512];
	/* what is going on */
	char variant[64], step[256], workload[64], test[128];
	int repeat, repeats; /* the round, and the rounds likely in all */
	double ci, goal; /* the widest relative CI so far (NAN), the goal */
	double left; /* seconds of runs left from this run's start; NAN */
	bool stopped; /* the run that ended was stopped (x, a signal) */
	/* the current variant's fault phase (LABRUN_PHASE), shown above
	   the charts; has_phase false: healthy, or not told yet */
	struct prov_progress phase;
	bool has_phase;
	double expect; /* seconds the previous repeat took */
	/* the test's step in its workload (compilebench's "run 5/100"):
	   the step and the time its sequence was first seen, for an ETA */
	unsigned long long prog_done, prog_total, prog_first;
	double prog_t0;
	double run_start; /* monotonic seconds of the run's start */
	struct engine_totals last;
	unsigned long last_gen; /* the run last sampled (labrun_totals) */
	struct run_curve *curves; /* one per variant started; last: current */
	size_t ncurves;
	unsigned long curves_gen; /* the tui's lab_gen they are of */
	size_t overlay; /* completed curves skipped, newest first, before the
			   ones drawn over the current (o cycles) */
	struct run_member members[RUN_MEMBERS];
	size_t nmembers;
	char *log[RUN_LOG]; /* ring of lines */
	size_t log_head, log_n;
	size_t log_total; /* lines ever logged: log_since() counts on it */
	size_t log_run; /* log_total when the last run started */
	int log_back; /* rows the log panel is scrolled back (PgUp) */
	struct plot_grid grid;
	double *tmp[PLOT_MAX_SERIES]; /* the charts' series, padded */
	double *fig; /* the current curve's values: the title's figures */
};

void run_log(struct run *r, bool bad, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The lines logged since the total was from (the bad ones only when
   bad_only), one a line, for a dialog; the caller's. */
char *run_log_since(const struct run *r, size_t from, bool bad_only);

/* The k-th completed curve drawn over the current one, or NULL. */
const struct run_curve *run_overlaid(const struct run *r, size_t k);

/* tui-run-fleet.c. The lab's variants run on hosts. */
bool run_fleet_wanted(const struct tui *t);
/* r: start the fleet run (said when it cannot). */
void run_fleet_start(struct run *r, struct tui *t);
/* The controller's events into the log and the state. */
void run_fleet_readable(struct run *r, struct tui *t);
/* The status line, and from y a line per host and the sum in rows. */
void run_fleet_status(struct run *r, struct tui *t, WINDOW *w);
void run_fleet_draw(struct run *r, struct tui *t, WINDOW *w, int y, int rows);
/* Stop and free the fleet run (fleet_run_free() stops it first). */
void run_fleet_free(struct run *r);

/* tui-run-tick.c: the screen's tick (struct tui_screen's tick) */
void run_tick(void *p, struct tui *t, bool current);

/* tui-run-draw.c */
void run_draw_body(struct run *r, struct tui *t, WINDOW *w);
void run_draw_confirm(struct run *r, struct tui *t, WINDOW *w);

#endif
