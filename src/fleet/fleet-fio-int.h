/*
 * Internal to fleet-fio: one host's fio server, started over ssh and
 * reached directly or through an ssh tunnel (fleet-fio-server.c). The
 * controller's thread only.
 */
#ifndef RAIDLAB_FLEET_FIO_INT_H
#define RAIDLAB_FLEET_FIO_INT_H

#include <stdbool.h>
#include <sys/types.h>

#include "ssh.h"

struct err;
struct lab_host;

struct fio_server {
	const struct lab_host *h;
	struct ssh_host ssh;
	const char *dir; /* the job's directory there (borrowed) */
	char *remote_dir; /* made there by mktemp -d; NULL: none */
	long pid; /* the server's PID there; 0: none known */
	/* The guard: an ssh session whose end of stdin stops the server
	   (raidlab gone included); with fio_tunnel also the tunnel. */
	pid_t guard; /* 0: none */
	int guard_fd; /* its stdin's write end; -1: none */
	char addr[256]; /* where fio --client connects */
	int port;
};

/* s for host h (borrowed), ssh through config (may be NULL). */
void fio_server_init(struct fio_server *s, const struct lab_host *h,
    const char *config);

/*
 * Start h's server over ssh (in a new directory there, with a pidfile),
 * the tunnel when h says fio_tunnel, and wait until it accepts, at most
 * timeout s. 0, or a negative errno with e naming the host; whatever did
 * start is left for fio_server_stop().
 */
int fio_server_start(struct fio_server *s, double timeout, struct err *e);

/* Stop what fio_server_start() started: the server by its PID, the
   directory there, the tunnel. 0, or a negative errno with e. Safe to
   call twice and after a failed start. */
int fio_server_stop(struct fio_server *s, struct err *e);

/* "ip:ADDR,PORT" (ip6: for an address with a ':') into buf. */
const char *fio_server_spec(const char *addr, int port, char *buf, size_t len);

#endif
