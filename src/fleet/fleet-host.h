/*
 * The host end of a fleet run (`raidlab run --fleet-host NAME`): the
 * controller's channel, the host's stdin (fleet-proto.h: "go N" lines,
 * end of file = stop), and the barrier a lab runner waits at before each
 * round (labrun_opts.before_round).
 *
 * Threads: the front end's thread polls fleet_host_fd() (the channel)
 * and fleet_host_wait_fd() (a round waits), and calls fleet_host_read(),
 * fleet_host_waiting() and fleet_host_close(); the runner's thread calls
 * fleet_host_gate() only, which blocks until the front end lets the
 * round go or closes. A mutex and a condition variable between the two;
 * a pipe wakes the front end's poll.
 */
#ifndef RAIDLAB_FLEET_HOST_H
#define RAIDLAB_FLEET_HOST_H

#include <stdbool.h>
#include <stddef.h>

struct fleet_host;

/* The channel is fd (the host's stdin; not closed by us). NULL with
   errno when the pipe cannot be made. */
struct fleet_host *fleet_host_new(int fd);
/* Once the runner has been joined. NULL is a no-op. */
void fleet_host_free(struct fleet_host *fh);

/* Readable when the controller wrote or went away: fleet_host_read(). */
int fleet_host_fd(const struct fleet_host *fh);
/* Readable when the runner waits at a round: fleet_host_waiting(). */
int fleet_host_wait_fd(const struct fleet_host *fh);

enum fleet_host_read {
	FLEET_HOST_OPEN, /* lines read (or none yet) */
	FLEET_HOST_CLOSED, /* end of file or a read error: stop */
};

/*
 * Read what the channel has (one read(2); call when fleet_host_fd() is
 * readable): each "go N" lets rounds up to N go; any other line is
 * copied into bad (the last one, cut to len; "" when none) for the
 * caller to say. FLEET_HOST_CLOSED at end of file or on an error, and
 * then the gate is closed too (fleet_host_close()).
 */
enum fleet_host_read
fleet_host_read(struct fleet_host *fh, char *bad, size_t len);

/* The round the runner now waits for and that was not returned before,
   or 0. Drains fleet_host_wait_fd(). */
long fleet_host_waiting(struct fleet_host *fh);

/* No round goes any more: a waiting gate returns false now, any later
   one at once. */
void fleet_host_close(struct fleet_host *fh);

/*
 * labrun_round_fn for labrun_opts.before_round, arg a struct fleet_host:
 * announce round n (fleet_host_waiting()) and block until "go N" with N
 * >= n came (true) or the gate closed (false). Runner thread.
 */
bool fleet_host_gate(void *arg, long n);

#endif
