/*
 * Rare events from worker threads to a front end's loop: a mutex
 * protected FIFO of copies of fixed-size events plus a pipe whose read
 * end the loop polls. Two queues of it: the engine's (struct evq_event
 * below: a test started or ended, a note, an error, the run finished)
 * and the lab runner's (struct labrun_event, labrun.h).
 * evq_push() from any thread; evq_pop() and evq_fd() from the loop.
 */
#ifndef RAIDLAB_EVQ_H
#define RAIDLAB_EVQ_H

#include <stdbool.h>
#include <stddef.h>

#define EVQ_TEXT 256

enum evq_type {
	EVQ_TEST_START, /* key, text = label */
	EVQ_TEST_END, /* key, text = label, value, unit */
	EVQ_STEP, /* text: what the driver does between tests
		     ("preparing", "cleaning up") */
	EVQ_NOTE, /* text: something the result will say */
	EVQ_ERROR, /* text: why the run fails */
	EVQ_DONE, /* the driver has finished: join the engine */
};

struct evq_event {
	enum evq_type type;
	char key[48];
	char text[EVQ_TEXT];
	double value;
	int unit; /* enum wl_unit */
	bool too_fast; /* EVQ_TEST_END: under the workload's minimum time,
			  so left out of a mean (result.h) */
	/* EVQ_TEST_START: this test is step done of total (wl_test_progress);
	   0 and 0 when the workload did not say. */
	unsigned long long done, total;
};

struct evq;

/* A queue of events of size bytes each (sizeof struct evq_event for the
   engine's). */
struct evq *evq_new(size_t size);
void evq_free(struct evq *q);
/* Append a copy of the size bytes at ev. */
void evq_push(struct evq *q, const void *ev);
/* Copy the oldest event into ev and drop it; false when there is none.
   Drains the pipe. */
bool evq_pop(struct evq *q, void *ev);
/* Readable when events are waiting (poll it with POLLIN). */
int evq_fd(const struct evq *q);

#endif
