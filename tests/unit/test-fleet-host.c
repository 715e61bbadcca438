/*
 * The host end of a fleet run (fleet-host.h): a runner thread waits at
 * the gate until "go N" comes on the channel and is told once as
 * waiting; a "go" sent ahead lets the round pass at once; the end of the
 * channel (or a close) makes a waiting gate and every later one say
 * stop; lines that are no "go N" are handed back. The channel is a pipe;
 * the runner a thread of the test (TSan checks the two sides).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "fleet/fleet-host.h"
#include "fleet/fleet-proto.h"

struct gate_run {
	struct fleet_host *fh;
	long round;
	atomic_int result; /* -1: still waiting; 0: stop; 1: go */
};

static void *
gate_thread(void *arg)
{
	struct gate_run *g = arg;

	atomic_store(&g->result, fleet_host_gate(g->fh, g->round) ? 1 : 0);
	return NULL;
}

/* The round the gate waits for, once fleet_host_wait_fd() woke. */
static long
waiting(struct fleet_host *fh)
{
	struct pollfd p = { fleet_host_wait_fd(fh), POLLIN, 0 };

	cr_assert_eq(poll(&p, 1, 10000), 1, "the gate never said it waits");
	return fleet_host_waiting(fh);
}

static void
send_line(int fd, const char *s)
{
	cr_assert_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

/* Read what was written to the channel: wait for it, then read as long
   as there is more (or it closed). */
static enum fleet_host_read
read_all(struct fleet_host *fh, char *bad, size_t len)
{
	struct pollfd p = { fleet_host_fd(fh), POLLIN, 0 };
	enum fleet_host_read r;

	cr_assert_eq(poll(&p, 1, 10000), 1, "nothing on the channel");
	do
		r = fleet_host_read(fh, bad, len);
	while (r == FLEET_HOST_OPEN && poll(&p, 1, 0) == 1);
	return r;
}

Test(fleet_host, a_round_waits_for_its_go)
{
	int ch[2];
	struct gate_run g = { .round = 1, .result = -1 };
	char bad[FLEET_PROTO_LINE];
	pthread_t t;

	cr_assert_eq(pipe(ch), 0);
	g.fh = fleet_host_new(ch[0]);
	cr_assert_not_null(g.fh);
	cr_assert_eq(pthread_create(&t, NULL, gate_thread, &g), 0);
	cr_assert_eq(waiting(g.fh), 1);
	cr_assert_eq(fleet_host_waiting(g.fh), 0, "told once");
	/* a stray line does not let round 1 go; its go does */
	send_line(ch[1], "hello\n");
	cr_assert_eq(fleet_host_read(g.fh, bad, sizeof bad), FLEET_HOST_OPEN);
	cr_assert_str_eq(bad, "hello");
	cr_assert_eq(atomic_load(&g.result), -1);
	send_line(ch[1], "go 1\n");
	cr_assert_eq(read_all(g.fh, bad, sizeof bad), FLEET_HOST_OPEN);
	pthread_join(t, NULL);
	cr_assert_eq(atomic_load(&g.result), 1);

	/* a go sent ahead: round 2 passes at once, still told */
	send_line(ch[1], "go 2\n");
	{
		struct pollfd p = { ch[0], POLLIN, 0 };

		cr_assert_eq(poll(&p, 1, 10000), 1);
	}
	cr_assert_eq(fleet_host_read(g.fh, bad, sizeof bad), FLEET_HOST_OPEN);
	cr_assert_str_eq(bad, "");
	cr_assert(fleet_host_gate(g.fh, 2));
	cr_assert_eq(fleet_host_waiting(g.fh), 2);
	close(ch[1]);
	close(ch[0]);
	fleet_host_free(g.fh);
}

Test(fleet_host, the_end_of_the_channel_stops_a_waiting_round)
{
	int ch[2];
	struct gate_run g = { .round = 1, .result = -1 };
	char bad[FLEET_PROTO_LINE];
	pthread_t t;

	cr_assert_eq(pipe(ch), 0);
	g.fh = fleet_host_new(ch[0]);
	cr_assert_eq(pthread_create(&t, NULL, gate_thread, &g), 0);
	cr_assert_eq(waiting(g.fh), 1);
	/* a line cut by the end is not a go */
	send_line(ch[1], "go 1");
	close(ch[1]);
	cr_assert_eq(read_all(g.fh, bad, sizeof bad), FLEET_HOST_CLOSED);
	pthread_join(t, NULL);
	cr_assert_eq(atomic_load(&g.result), 0);
	cr_assert_not(fleet_host_gate(g.fh, 2), "closed for good");
	close(ch[0]);
	fleet_host_free(g.fh);
}

Test(fleet_host, a_close_stops_a_waiting_round)
{
	int ch[2];
	struct gate_run g = { .round = 3, .result = -1 };
	pthread_t t;

	cr_assert_eq(pipe(ch), 0);
	g.fh = fleet_host_new(ch[0]);
	cr_assert_eq(pthread_create(&t, NULL, gate_thread, &g), 0);
	cr_assert_eq(waiting(g.fh), 3);
	fleet_host_close(g.fh);
	pthread_join(t, NULL);
	cr_assert_eq(atomic_load(&g.result), 0);
	close(ch[1]);
	close(ch[0]);
	fleet_host_free(g.fh);
}

Test(fleet_host, an_overlong_line_is_handed_back_cut)
{
	int ch[2];
	char bad[64], big[FLEET_PROTO_LINE + 100];
	struct fleet_host *fh;

	cr_assert_eq(pipe(ch), 0);
	fh = fleet_host_new(ch[0]);
	memset(big, 'g', sizeof big - 2);
	big[sizeof big - 2] = '\n';
	big[sizeof big - 1] = '\0';
	send_line(ch[1], big);
	send_line(ch[1], "go 1\n");
	/* both lines are in the pipe, under one read's size */
	cr_assert_eq(fleet_host_read(fh, bad, sizeof bad), FLEET_HOST_OPEN);
	cr_assert_eq(strncmp(bad, "ggg", 3), 0, "%s", bad);
	cr_assert_eq(strlen(bad), sizeof bad - 1, "cut to the buffer");
	cr_assert(fleet_host_gate(fh, 1), "the next line still counts");
	close(ch[1]);
	close(ch[0]);
	fleet_host_free(fh);
}
