/*
 * The fleet controller: the variants of a lab that are placed on hosts
 * (lab.h "hosts"), run on those hosts, each by its own raidlab, driven
 * from here over ssh (ssh.h) with the protocol of fleet-proto.h. One
 * worker thread per host that has a selected variant: probe the host
 * (reachable, raidlab there, our version), copy the lab file there, run
 * `raidlab run --fleet-host NAME --json ...` with its stdin on a pipe
 * this runner writes ("go N" for the barrier; closing it stops the
 * host), read its stderr's protocol lines (live rates, waits, ready,
 * done; any other line is the host's message), keep its stdout whole (the
 * record), remove the copied lab. Each host's record gets a "fleet"
 * object (host, address, run, hosts, controller) and is saved into the
 * lab's local results directory, one file per host.
 *
 * A host that cannot be reached, lacks raidlab, runs another version, or
 * goes away mid-run is reported with a sentence naming it and its
 * address; the other hosts go on. With a barrier (the lab's `barrier` or
 * opts.barrier) round N starts on every host at once: it is released
 * when every host still running waits for it; a host that ended or
 * failed no longer counts.
 *
 * The front end hears from the runner only through an event queue
 * (fleet_run_pop(), polled through fleet_run_fd()), fleet_run_rates()
 * (atomics each worker updates from its host's live lines: read them
 * each tick), fleet_run_summary() and, once FLEET_EV_DONE came,
 * fleet_run_take_records().
 *
 * Threads: every fleet_run_*() function from the one front-end thread
 * that called fleet_run_start(), except fleet_run_rates(),
 * fleet_run_nhosts() and fleet_run_host_name(), which any thread may
 * call. The runner's threads block every signal; a front end that catches
 * SIGINT calls fleet_run_stop() from its loop, not from the handler.
 */
#ifndef RAIDLAB_FLEET_RUN_H
#define RAIDLAB_FLEET_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct err;
struct lab;

/* Seconds between closing the hosts' stdin (stop) and killing the ssh
   clients of the sessions still open. */
#define FLEET_STOP_GRACE 60.0

/* What to run. Everything is copied by fleet_run_start(). */
struct fleet_opts {
	/* variants[i] for lab->variants[i]; NULL: every variant. Only
	   host-placed variants are run; local ones are ignored here. */
	const bool *variants;
	/* workloads[i] for lab->workloads[i]; NULL: every workload. */
	const bool *workloads;
	int64_t repeats; /* 0: the lab's; else passed as -r N */
	const char *scale; /* --scale F passed on as written; NULL: none */
	/* --set W.K=V, passed on to every host as written. */
	const char *const *sets;
	size_t nsets;
	/* "HOST:DEV" devices whose data may be destroyed: each host gets
	   its own as --yes-destroy=DEV,... An entry without a host that
	   names a known one is refused (fleet_run_start(), fleet_run_dry()). */
	const char *const *confirmed;
	size_t nconfirmed;
	const char *ssh_config; /* ssh -F FILE; NULL: ssh's defaults */
	/* Where the records go: NULL: record_results_dir() of the lab. */
	const char *results;
	bool barrier; /* a barrier per round even when the lab has none */
	bool record; /* save each host's record (the CLI does) */
	/* The version the hosts' raidlab must report; NULL: ours. */
	const char *version;
	double stop_grace; /* 0: FLEET_STOP_GRACE */
};

/* Where a host stands. DONE and the states after it are final. */
enum fleet_host_state {
	FLEET_HOST_IDLE, /* its worker has not started yet */
	FLEET_HOST_PROBING, /* ssh_probe() */
	FLEET_HOST_COPYING, /* ssh_copy() of the lab */
	FLEET_HOST_RUNNING, /* its raidlab runs (READY came or will) */
	FLEET_HOST_WAITING, /* its raidlab waits at the barrier */
	FLEET_HOST_DONE, /* its runs ended, all well; record taken */
	FLEET_HOST_FAILED, /* runs failed there, its raidlab failed, or its
			      record could not be read or saved */
	FLEET_HOST_UNREACHABLE, /* ssh could not reach it (before or
				   during the run: "went away") */
	FLEET_HOST_MISSING, /* no raidlab there */
	FLEET_HOST_VERSION, /* another raidlab version, or another
			       protocol version there */
	FLEET_HOST_STOPPED, /* fleet_run_stop() ended it */
};

/* A state's word for messages and status lines ("running", "went away"
   is "unreachable"), translated. */
const char *fleet_host_state_name(enum fleet_host_state s);
/* s is one of the final states. */
bool fleet_host_state_final(enum fleet_host_state s);

enum fleet_ev {
	/* host's state changed: state; text = a sentence naming the host
	   and its address for a failure ("h3 (127.0.0.4): no raidlab in
	   the PATH of an ssh session there"), else a short one. */
	FLEET_EV_STATE,
	/* A line of host's raidlab that is no protocol line (its own
	   messages), text = "h2: line". */
	FLEET_EV_MESSAGE,
	/* Something went wrong that is not a state: a bad protocol line, a
	   record that could not be saved, a copy not removed; host or -1
	   (the controller). text is a sentence. */
	FLEET_EV_ERROR,
	/* The barrier released round: every host still running got "go
	   round". host -1. */
	FLEET_EV_ROUND,
	/* host's record was saved: text = its path. */
	FLEET_EV_RECORD,
	/* Every worker has ended; fleet_run_summary() is final. Nothing
	   more comes. */
	FLEET_EV_DONE,
};

struct fleet_event {
	enum fleet_ev type;
	int host; /* index for fleet_run_host_name(), or -1 */
	enum fleet_host_state state; /* FLEET_EV_STATE */
	long round; /* FLEET_EV_ROUND; STATE: the host's last round, 0 */
	char text[512];
};

/* A host's live rates as its last live line gave them. */
struct fleet_rates {
	enum fleet_host_state state;
	/* The variant and workload of that line (borrowed from the
	   runner's lab copy; valid until fleet_run_free()), or NULL when
	   no live line came since the host started (or the names were not
	   the lab's). */
	const char *variant, *workload;
	long round; /* 0: none yet */
	double read_mbps, write_mbps, files_s;
	bool live; /* a live line came and the host is still running */
};

/* How the fleet run went; final once FLEET_EV_DONE was popped. */
struct fleet_summary {
	size_t hosts; /* hosts that had something to run */
	size_t hosts_ok; /* ended DONE */
	size_t hosts_failed; /* ended in another final state */
	long ran, failed; /* runs, summed from the hosts' done lines */
	size_t records; /* records saved */
	long rounds; /* rounds the barrier released (0 without one) */
	bool barrier; /* the run had a barrier */
	bool stopped; /* fleet_run_stop() was called */
	bool done;
};

struct fleet_run;

/*
 * Check o against lab (the confirmations name hosts; some selected
 * variant is placed on a host), copy the lab, and start one worker per
 * host that has a selected variant. lab must have passed lab_check();
 * lab_path is the lab file that is copied to each host (the file lab was
 * loaded from, as it is on disk). NULL with e set on bad options or
 * when nothing runs on a host.
 */
struct fleet_run *fleet_run_start(const struct lab *lab, const char *lab_path,
    const struct fleet_opts *o, struct err *e);

/* Readable (POLLIN) when events are waiting. */
int fleet_run_fd(const struct fleet_run *fr);
/* Take the oldest event; false when there is none. Drains the fd. */
bool fleet_run_pop(struct fleet_run *fr, struct fleet_event *ev);

/* The hosts that run something, in the lab's order. */
size_t fleet_run_nhosts(const struct fleet_run *fr);
const char *fleet_run_host_name(const struct fleet_run *fr, size_t i);
const char *fleet_run_host_address(const struct fleet_run *fr, size_t i);

/* Host i's rates now (atomics: each field is current, the set may mix
   two consecutive lines). */
void
fleet_run_rates(const struct fleet_run *fr, size_t i, struct fleet_rates *r);
/* The sum over the hosts that are live (state: RUNNING when any is). */
void fleet_run_rates_sum(const struct fleet_run *fr, struct fleet_rates *r);

/* This fleet run's id, shared by its records' fleet.run. */
const char *fleet_run_id(const struct fleet_run *fr);

void fleet_run_summary(struct fleet_run *fr, struct fleet_summary *s);

/*
 * The hosts' records as a JSON object keyed by host name (each with its
 * "fleet" object; a host that gave none is absent), in the lab's order.
 * The caller owns it. NULL before FLEET_EV_DONE and on a second call.
 */
json_t *fleet_run_take_records(struct fleet_run *fr);

/*
 * Stop: every host's stdin is closed (its raidlab stops and tears down),
 * hosts not started yet are skipped; sessions still open after
 * stop_grace seconds have their ssh client killed. Returns at once;
 * FLEET_EV_DONE follows.
 */
void fleet_run_stop(struct fleet_run *fr);

/* Stop if still running, join the workers, free everything. NULL is a
   no-op. */
void fleet_run_free(struct fleet_run *fr);

/*
 * What fleet_run_start() would run, contacting no host: per host one
 * line "NAME (ADDRESS): ssh ... 'raidlab' 'run' ..." (the ssh client's
 * argv as one line, the copied lab as LAB). Caller frees; NULL with e
 * set as fleet_run_start() would fail.
 */
char *
fleet_run_dry(const struct lab *lab, const struct fleet_opts *o, struct err *e);

/* lab has a variant placed on hosts among the selected (sel NULL: all). */
bool fleet_run_wanted(const struct lab *lab, const bool *sel);

/* The names a fleet run's records share, also for the fio_server path
   (fleet-run-record.c). Each caller frees what it gets. */

/* The run's id, every host record's fleet.run: LAB-STAMP@CONTROLLER. */
char *
fleet_record_id(const char *lab, const char *stamp, const char *controller);
/* A host's record file, reserved: dir/LAB-STAMP-HOST.json, or
   ...-HOST-2.json and on when taken (record_reserve_path()). */
char *fleet_record_path(const char *dir, const char *lab, const char *stamp,
    const char *host);
/* This machine's host name, the records' fleet.controller ("?" when
   unknown). */
char *fleet_controller_name(void);

#endif
