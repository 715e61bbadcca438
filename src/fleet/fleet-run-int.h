/*
 * Inside the fleet controller (fleet-run.h): the run, its hosts, and the
 * functions its files share. fleet-run.c: the API, the supervisor thread
 * and the barrier; fleet-run-host.c: one host's worker; fleet-run-cmd.c:
 * what each host is asked to run; fleet-run-record.c: the records.
 */
#ifndef RAIDLAB_FLEET_RUN_INT_H
#define RAIDLAB_FLEET_RUN_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "fleet-run.h"
#include "ssh.h"

struct evq;
struct lab;
struct lab_host;

struct fleet_host {
	struct fleet_run *fr;
	size_t index; /* in fr->hosts */
	const struct lab_host *lh; /* in fr->lab */
	struct ssh_host ssh; /* strings borrowed from lh and fr, name
				from name_addr */
	char *name_addr; /* "h2 (127.0.0.2)": hosts in sentences */
	char **remote; /* the remote command, LAB last (replaced by the
			  copy's path once copied); NULL-terminated */
	pthread_t thread;
	bool started;

	/* Read by any thread. */
	_Atomic int state; /* enum fleet_host_state */
	_Atomic int variant, workload; /* lab indices of the last live
					  line; -1 */
	_Atomic long round; /* the last round it waited for or ran */
	_Atomic uint64_t rd, wr, fs; /* doubles' bits */
	_Atomic bool live;

	/* Under fr->mu. */
	int stdin_w; /* write end of the ssh client's stdin; -1 */
	pid_t pid; /* the ssh client of the session, 0: none */
	long waiting; /* the round it waits for; 0: not waiting */
	bool ended; /* its session ended: no longer counts at the
		       barrier */
	bool ready; /* its READY line came */
	bool done_line; /* its DONE line came */
	long ran, failed; /* from the DONE line */
	json_t *record; /* with its fleet object, once read */
	bool saved;
};

struct fleet_run {
	struct lab *lab; /* the runner's copy */
	char *lab_path; /* the file copied to the hosts */
	struct evq *q;
	struct fleet_host *hosts;
	size_t nhosts;
	char *id; /* fleet.run */
	char *controller; /* this machine's host name */
	char *results; /* the records' directory */
	char *stamp; /* YYYYMMDD-HHMMSS of the start, local time */
	char *version; /* what the hosts' raidlab must say */
	char *ssh_config;
	double grace;
	bool barrier;
	bool record;

	pthread_t supervisor;
	bool supervised; /* supervisor runs, to be joined */
	pthread_mutex_t mu;
	pthread_cond_t cond; /* a worker ended, or stop */
	/* Under mu. */
	size_t running; /* workers not ended */
	long released; /* the last round the barrier released */
	bool stop;
	double stop_at; /* tick_now_s() of the stop */
	bool taken; /* the records were taken */
	struct fleet_summary sum;
};

/* Push an event; text printf-style (may be NULL). */
void fleet_emit(struct fleet_run *fr, enum fleet_ev type, int host,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Set host's state and push its FLEET_EV_STATE with text. */
void fleet_host_set(struct fleet_host *h, enum fleet_host_state s,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* h waits for round n (0: h no longer counts); releases the round when
   every host still running waits. Under no lock. */
void fleet_barrier_wait(struct fleet_host *h, long n);

/* The worker of one host (fleet-run-host.c). */
void *fleet_host_main(void *arg);

/* The remote command for h, the lab as lab_arg (fleet-run-cmd.c);
   NULL-terminated, caller frees with fleet_strv_free(). */
char **fleet_remote_argv(const struct lab *lab, const struct fleet_opts *o,
    const struct lab_host *h, bool barrier, const char *lab_arg);
void fleet_strv_free(char **v);
/* Every confirmation of o names a host of lab; else -EINVAL with e. */
int fleet_confirm_check(const struct lab *lab, const struct fleet_opts *o,
    struct err *e);
/* Host h runs a selected variant. */
bool fleet_host_wanted(const struct lab *lab, const bool *sel,
    const struct lab_host *h);
/* ssh's view of lab host lh, config as given. */
void fleet_ssh_host(const struct lab_host *lh, const char *config,
    struct ssh_host *out);

/* Parse out (a host's stdout) as a record, add the fleet object, keep it
   in h->record and save it (fleet-run-record.c). 0 or -errno, with the
   reason said as an event. */
int fleet_record_take(struct fleet_host *h, const char *out);

#endif
