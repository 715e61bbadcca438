/*
 * `raidlab run --fleet-host NAME`, the front end's side (the fleet's
 * lines are fleet-proto.h's, the channel and the barrier
 * fleet-host.h's): the protocol lines on stderr (ready, wait, live about
 * once a second, done), the controller's channel polled beside the
 * runner's events, and its end turned into a stop as ^C would. Main
 * thread.
 */
#ifndef RAIDLAB_CLI_RUN_FLEET_H
#define RAIDLAB_CLI_RUN_FLEET_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

struct lab;
struct live;
struct labrun_opts;

struct run_fleet {
	const char *host; /* --fleet-host */
	bool barrier; /* --barrier */
	struct fleet_host *fh; /* the channel; NULL until run_fleet_open() */
	double live_t; /* when the last live line went */
	unsigned long live_gen; /* of which run */
	bool closed; /* the channel ended */
};

/*
 * The variants of lab (loaded and checked) that run on rf->host: each
 * placed on it, made local with the host's disks (lab_host_localize()),
 * and among names (-v; none: all of them). *sel (the caller frees) is
 * the selection for labrun_opts.variants. CLI_USAGE (said, naming the
 * lab file) when the lab has no such host, a name is a variant not
 * placed on it, or none is.
 */
int run_fleet_select(const struct run_fleet *rf, struct lab *lab, char **names,
    size_t n, bool **sel);
/* Say "ready HOST VERSION". */
void run_fleet_ready(const struct run_fleet *rf);
/* Say "done RAN FAILED". */
void run_fleet_done(const struct run_fleet *rf, long ran, long failed);

/* Open the channel (stdin) and, with --barrier, hook the gate into lo;
   false (said) when it cannot be. */
bool run_fleet_open(struct run_fleet *rf, struct labrun_opts *lo);
/* After the runner was freed. */
void run_fleet_close(struct run_fleet *rf);

/* The descriptors to poll beside the runner's: into p (room for 2);
   how many. */
int run_fleet_pollfds(const struct run_fleet *rf, struct pollfd *p);
/* After poll: read the channel, say the rounds that wait. Returns false
   once the channel has ended (said): the caller stops the run. */
bool run_fleet_poll(struct run_fleet *rf, const struct pollfd *p, int n);
/* Stop: a waiting round gives up (^C, or the channel's end). */
void run_fleet_stop(struct run_fleet *rf);
/* Each tick, after live_tick(): a live line when a second has passed. */
void run_fleet_tick(struct run_fleet *rf, const struct live *lv);

#endif
