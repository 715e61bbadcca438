/*
 * A fleet host's barrier (fleet-host.h) between two threads, as `raidlab
 * run --fleet-host --barrier` has it: a runner thread waits at the gate
 * before each of ROUNDS rounds; the main thread polls the wait pipe and
 * the channel, answers each "wait N" with "go N" written to the channel
 * (a pipe, standing for the controller), and at the end closes the
 * channel, which stops the runner's next round. A plain program, not
 * Criterion, so that it runs under TSan (TSAN_OPTIONS has
 * halt_on_error=1); elsewhere it checks the rounds went in order.
 */
#include "config.h"

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fleet/fleet-host.h"
#include "fleet/fleet-proto.h"

#define ROUNDS 50

struct runner {
	struct fleet_host *fh;
	long passed; /* rounds the gate let go; read after the join */
	bool stopped; /* the gate said stop at round ROUNDS + 1 */
};

static void *
runner(void *arg)
{
	struct runner *r = arg;

	for (long n = 1; n <= ROUNDS + 1; n++) {
		if (!fleet_host_gate(r->fh, n)) {
			r->stopped = n == ROUNDS + 1;
			break;
		}
		r->passed = n;
	}
	return NULL;
}

int
main(void)
{
	struct runner r = { 0 };
	char bad[FLEET_PROTO_LINE], line[32];
	long expect = 1;
	pthread_t t;
	int ch[2];

	if (pipe(ch) < 0 || (r.fh = fleet_host_new(ch[0])) == NULL)
		return 1;
	if (pthread_create(&t, NULL, runner, &r) != 0)
		return 1;
	while (expect <= ROUNDS + 1) {
		struct pollfd p[2] = { { fleet_host_wait_fd(r.fh), POLLIN, 0 },
			{ ch[0], POLLIN, 0 } };
		long n;

		if (poll(p, 2, 10000) <= 0) {
			fprintf(stderr, "no round waited for 10 s\n");
			return 1;
		}
		if (p[1].revents != 0 &&
		    fleet_host_read(r.fh, bad, sizeof bad) != FLEET_HOST_OPEN)
			return 1;
		if (p[0].revents == 0 || (n = fleet_host_waiting(r.fh)) == 0)
			continue;
		if (n != expect) {
			fprintf(stderr, "round %ld waits, not %ld\n", n,
			    expect);
			return 1;
		}
		if (n == ROUNDS + 1)
			break;
		fleet_proto_go(n, line, sizeof line);
		if (write(ch[1], line, strlen(line)) < 0)
			return 1;
		expect++;
	}
	/* the controller goes away while round ROUNDS + 1 waits */
	close(ch[1]);
	while (fleet_host_read(r.fh, bad, sizeof bad) == FLEET_HOST_OPEN)
		;
	pthread_join(t, NULL);
	close(ch[0]);
	fleet_host_free(r.fh);
	printf("rounds passed: %ld of %d, then stopped: %s\n", r.passed, ROUNDS,
	    r.stopped ? "yes" : "no");
	return r.passed == ROUNDS && r.stopped ? 0 : 1;
}
