/*
 * A rebuild or scrub followed over time: a thread that reads an md
 * array's sync_action, sync_completed and sync_speed every interval,
 * from when mdwatch_start() is called until md is idle again (or
 * mdwatch_stop()), so that the record holds its progress beside the
 * workloads that ran meanwhile, and how long it took. Started, read
 * (mdwatch_now()) and ended by one thread (the provisioner's); the
 * watcher thread shares only atomics with it, no mutex.
 */
#ifndef RAIDLAB_MDWATCH_H
#define RAIDLAB_MDWATCH_H

#include <stdbool.h>

#include <jansson.h>

struct mdwatch;

/* Watch md array name (kernel name "md127"; sysroot NULL: /sys) every
   interval_ms. NULL when the thread cannot start. */
struct mdwatch *
mdwatch_start(const char *sysroot, const char *name, unsigned interval_ms);
/* Whether md is idle again (the watch ended by itself). */
bool mdwatch_done(struct mdwatch *w);

/* The watch as it stands, read while the watcher thread runs. */
struct mdwatch_now {
	char action[32]; /* the first one seen ("recover"); "" none yet */
	unsigned long long done, total; /* sectors of the newest sample;
					   total 0: md has not said */
	unsigned long long speed; /* KiB/s, md's own 30 s average */
	double elapsed; /* seconds from mdwatch_start() to now, or to idle
			   once finished */
	bool finished; /* md went idle: elapsed is the whole of it */
};

/* The newest sample, consistent (done, total and speed from one
   reading); until md is seen busy, action is "" and the figures 0. */
void mdwatch_now(struct mdwatch *w, struct mdwatch_now *n);
/* Wait up to timeout_s seconds for md to be idle, asking stop(arg)
   each interval (true: give up); then end the watch. True when md went
   idle. */
bool mdwatch_wait(struct mdwatch *w, double timeout_s, bool (*stop)(void *),
    void *arg);
/*
 * The watch as the record keeps it, and w freed: {action (the first one
 * seen: "recover", "check"), complete (md went idle), seconds (start to
 * idle, or to the end of the watch), samples {t [s], done [sectors],
 * total, speed [KiB/s, md's own 30 s average]}}.
 */
json_t *mdwatch_end(struct mdwatch *w);

#endif
