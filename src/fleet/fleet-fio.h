/*
 * A fio workload with fio_server = true, run by fio itself on every host
 * of a variant at once, through fio's own client/server: raidlab writes
 * one job file per host, starts `fio --server` on each host over ssh,
 * runs one `fio --client=H1 JOB1 --client=H2 JOB2 ...` from this machine
 * per round, and reads fio's JSON back per host. fio's server has no
 * authentication: it is bound to the host's fio_bind (lab.h), or to the
 * host's 127.0.0.1 and reached through an `ssh -L` tunnel (fio_tunnel).
 *
 * The steps, in fleet_fio_run():
 *  1. `fio --version` here and on each host (ssh): fio's server accepts
 *     only its own protocol version, so a host whose fio differs is left
 *     out, named with both versions, and the others go on (a fleet loses
 *     one host, not the experiment); no host left is an error.
 *  2. A job file per host (fleet_fio_job_text()): the workload's
 *     parameters as fio spells them, directory = the variant's directory
 *     on that host (%h: the host's name), unique_filename=0, and the job
 *     named after the host, which is how the JSON maps back (fio 3.33's
 *     client_stats may lack a hostname, fio#515).
 *  3. Each host's server: `fio --server=ip:ADDR,PORT --daemonize=PIDFILE`
 *     over ssh, in a directory made there by mktemp -d; raidlab waits
 *     (bounded) until the port accepts, and stops the server by its PID
 *     and removes that directory at the end, always (an error, a stop
 *     request and a failed round included). The job files live in a
 *     directory of this machine that goes too.
 *  4. Per round: fio --client with --output-format=json. Each host's
 *     client_stats entry (its job, group_reporting) becomes one run in
 *     raidlab's record format, as `raidlab import` reads fio's JSON
 *     (src/results/import.h): the figure MB/s of both directions, the
 *     completion latency per direction. fio's "All clients" entry is
 *     ignored (wrong or missing in some versions, fio#1881, #1918):
 *     raidlab sums the hosts' bandwidth and IOPS itself. Percentiles are
 *     not summed or averaged: the aggregate has none, only the highest
 *     of the hosts' own 99th percentiles, labelled as such.
 *
 * Records: per host, one record (lab.h's host name as `fleet.host`, so
 * compare treats the host as a block); the all-hosts figures go into
 * each record's `fleet.aggregate` list too. Not thread-safe: one call
 * at a time per lab; it blocks the calling thread (the controller's)
 * for the whole run and never prints: events go to opts->on_event.
 */
#ifndef RAIDLAB_FLEET_FIO_H
#define RAIDLAB_FLEET_FIO_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct err;
struct lab;
struct lab_host;
struct lab_variant;
struct lab_workload;
struct param_value;
struct record;
struct wl_result;

/* Waiting for a server to accept, at most (s). */
#define FLEET_FIO_START_TIMEOUT 15.0
/* A round's fio --client may run this much longer than its runtime. */
#define FLEET_FIO_SLACK 120.0
/* A round without runtime (one pass of size) gets at most this (s). */
#define FLEET_FIO_PASS_TIMEOUT 3600.0

enum fleet_fio_event_kind {
	FLEET_FIO_LEFT_OUT, /* a host does not take part: text says why */
	FLEET_FIO_STARTED, /* a host's server accepts; pid: its PID there */
	FLEET_FIO_SERVERS_UP, /* every remaining server accepts */
	FLEET_FIO_ROUND, /* round `round` starts */
	FLEET_FIO_ROUND_DONE, /* round `round` is in the records */
	FLEET_FIO_NOTE, /* anything else worth a line (cleanup trouble) */
};

struct fleet_fio_event {
	enum fleet_fio_event_kind kind;
	const char *host; /* the lab's host name, or NULL */
	int round; /* 1-based; 0 when not about a round */
	long pid; /* FLEET_FIO_STARTED: the server's PID on the host */
	const char *text; /* a translated sentence, or NULL */
};

struct fleet_fio_opts {
	const char *ssh_config; /* ssh -F; NULL: the user's */
	/* Where fio's raw JSON of each round is kept, as
	   DIR/fio-VARIANT-WORKLOAD-rN.json (named in the aggregate); NULL:
	   not kept. */
	const char *raw_dir;
	int rounds; /* 0: the lab's repeats */
	double start_timeout; /* 0: FLEET_FIO_START_TIMEOUT */
	/* Checked between rounds: non-zero stops after the current one
	   (servers are stopped as ever). NULL: never. */
	const volatile sig_atomic_t *stop;
	void (*on_event)(void *arg, const struct fleet_fio_event *ev);
	void *arg;
};

/* One host's figures of one round, from its client_stats entry. */
struct fleet_fio_figs {
	double read_bw, write_bw; /* bytes/s: fio's bw_bytes */
	double read_iops, write_iops;
	double read_p99, write_p99; /* clat ns, 0 when no I/O */
};

/*
 * Run w on v's hosts through fio's client/server, opts->rounds rounds.
 * hosts[0..n) are the lab's hosts v runs on. records[i] belongs to
 * hosts[i]: NULL makes a new record (record_new(lab), its `host` facts
 * emptied and `fleet.host` set; the caller frees it), else the runs are
 * appended to the one given. *aggregate (may be NULL) gets a new
 * reference to the all-hosts object appended to each record's
 * fleet.aggregate: {variant, workload, note, fio_version, hosts [...],
 * left_out [{host, reason}], rounds [{round, raw, hosts [{host,
 * read_bw_bytes, write_bw_bytes, read_iops, write_iops, read_p99_ns,
 * write_p99_ns}], sum {read_bw_bytes, write_bw_bytes, bw_bytes,
 * read_iops, write_iops, iops}, latency, max_host_p99_ns {read,
 * write}}]}.
 *
 * 0 when every round ran on the hosts left; a negative errno with e
 * (a sentence naming the host where one is to blame) when none could
 * take part, a server did not start, or a round failed (the rounds run
 * before it stay in the records). -EINTR when opts->stop ended it early.
 */
int fleet_fio_run(const struct lab *lab, const struct lab_variant *v,
    const struct lab_workload *w, const struct lab_host *const *hosts, size_t n,
    const struct fleet_fio_opts *opts, struct record **records,
    json_t **aggregate, struct err *e);

/* ---- the pure parts (fleet-fio-job.c), for tests and the above */

/* w has fio_server = true. */
bool fleet_fio_workload(const struct lab_workload *w);

/*
 * v's directory on host: v's directory with each "%h" replaced by host's
 * name (as lab_expand_directory() would with lab_expand_set_host(host),
 * without that process-wide setting). Caller frees.
 */
char *fleet_fio_directory(const struct lab_variant *v, const char *host);

/* The job file for host, in directory dir. Caller frees. */
char *fleet_fio_job_text(const struct lab_workload *w, const char *host,
    const char *dir);

/* "fio-3.33" from `fio --version`'s output (first line, trimmed) into
   buf; false when it does not read as a fio version. */
bool fleet_fio_version(const char *output, char *buf, size_t len);

/*
 * fio's client-mode JSON text: for each of hosts[0..n), the entry of
 * client_stats whose jobname is that host's name into figs[i] and a new
 * raidlab result into res[i] (NULL-able: not wanted); "All clients" is
 * skipped. -EINVAL with e when the text is not fio's JSON or a host has
 * no entry (named); res[] then holds nothing.
 */
int fleet_fio_parse(const char *json, const char *file,
    const char *const *hosts, size_t n, struct fleet_fio_figs *figs,
    struct wl_result **res, char *fio_version, size_t vlen, struct err *e);

/* The round's aggregate object (the "rounds" item above) from the
   hosts' figures. */
json_t *fleet_fio_round_json(int round, const char *raw,
    const char *const *hosts, const struct fleet_fio_figs *figs, size_t n);

#endif
