/*
 * A rebuild or scrub followed over time: a thread that looks at it every
 * interval, from when the watch starts until it ends (or mdwatch_stop()),
 * so that the record holds its progress beside the workloads that ran
 * meanwhile, and how long it took. What it looks at is an ops table: md's
 * sysfs (mdwatch_start()), or btrfs's scrub and replace (btrfswatch.h).
 * Started, read (mdwatch_now()) and ended by one thread (the
 * provisioner's); the watcher thread shares only atomics with it, no
 * mutex.
 */
#ifndef RAIDLAB_MDWATCH_H
#define RAIDLAB_MDWATCH_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct mdwatch;

/* One look: seconds since the start, progress and speed in the source's
   units (md: sectors and KiB/s, md's own 30 s average). */
struct mdwatch_sample {
	double t;
	unsigned long long done, total, speed;
};

enum mdwatch_look {
	MDWATCH_BUSY, /* it runs: the sample is kept */
	MDWATCH_IDLE, /* nothing runs (or not yet): no sample */
	MDWATCH_FINAL, /* it has ended, and the sample is its last figure */
};

/*
 * What a watch follows, called on the watcher thread only. look() fills
 * s (all but t) and, once, the first time it can, action ("recover",
 * "scrub": never written again, mdwatch_now() reads it); end() adds its own
 * keys to the record (it may replace "complete") and frees ctx.
 */
struct mdwatch_ops {
	enum mdwatch_look (*look)(void *ctx, struct mdwatch_sample *s,
	    char *action, size_t alen);
	void (*end)(void *ctx, json_t *rec);
	/* mdwatch_now()'s units: bytes per unit of done and total, bytes/s
	   per unit of speed (md: 512, 1024; a unit that is no size, as
	   replace's permille: 1, and the speed 0) */
	unsigned done_bytes, speed_bytes;
};

/* Watch md array name (kernel name "md127"; sysroot NULL: /sys) every
   interval_ms. NULL when the thread cannot start. */
struct mdwatch *
mdwatch_start(const char *sysroot, const char *name, unsigned interval_ms);
/* Watch what ops look at, with ctx (ops->end frees it, also when the
   thread cannot start: then NULL). */
struct mdwatch *mdwatch_start_ops(const struct mdwatch_ops *ops, void *ctx,
    unsigned interval_ms);
/* Whether it has ended (the watch ended by itself). */
bool mdwatch_done(struct mdwatch *w);

/* The watch as it stands, read while the watcher thread runs. */
struct mdwatch_now {
	char action[32]; /* the first one seen ("recover"); "" none yet */
	unsigned long long done, total; /* of the newest sample, in bytes
					   (the ops' done_bytes); total 0:
					   not said yet */
	unsigned long long speed; /* bytes/s (md: its own 30 s average) */
	double elapsed; /* seconds from the start to now, or to the end
			   once finished */
	bool finished; /* it ended: elapsed is the whole of it */
};

/* The newest sample, consistent (done, total and speed from one
   reading); until it is seen busy, action is "" and the figures 0. */
void mdwatch_now(struct mdwatch *w, struct mdwatch_now *n);
/* Wait up to timeout_s seconds for it to end, asking stop(arg) each
   interval (true: give up); then end the watch. True when it ended. */
bool mdwatch_wait(struct mdwatch *w, double timeout_s, bool (*stop)(void *),
    void *arg);
/*
 * The watch as the record keeps it, and w freed: {action (the first one
 * seen: "recover", "check", "scrub"), complete (it ended), seen (it was
 * seen running at least once: else seconds is no length), seconds
 * (start to end, or to the end of the watch), samples {t [s], done,
 * total, speed}}, and what the ops add.
 */
json_t *mdwatch_end(struct mdwatch *w);

#endif
