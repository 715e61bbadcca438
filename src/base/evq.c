/*
 * Event queue: see evq.h. Push from any thread, pop from one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evq.h"
#include "i18n.h"
#include "xalloc.h"

struct evq_node {
	struct evq_node *next;
	unsigned char ev[]; /* evq.size bytes */
};

struct evq {
	size_t size;
	pthread_mutex_t lock;
	struct evq_node *head, *tail;
	int pipe[2];
};

struct evq *
evq_new(size_t size)
{
	struct evq *q = xcalloc(1, sizeof *q);

	q->size = size;
	pthread_mutex_init(&q->lock, NULL);
	if (pipe2(q->pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		fatal(_("cannot create a pipe: %s"), strerror(errno));
	return q;
}

void
evq_free(struct evq *q)
{
	struct evq_node *n, *next;

	if (q == NULL)
		return;
	for (n = q->head; n != NULL; n = next) {
		next = n->next;
		free(n);
	}
	close(q->pipe[0]);
	close(q->pipe[1]);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

void
evq_push(struct evq *q, const void *ev)
{
	struct evq_node *n = xmalloc(sizeof *n + q->size);
	char c = 1;

	n->next = NULL;
	memcpy(n->ev, ev, q->size);
	pthread_mutex_lock(&q->lock);
	if (q->tail != NULL)
		q->tail->next = n;
	else
		q->head = n;
	q->tail = n;
	pthread_mutex_unlock(&q->lock);
	/* A full pipe already wakes the reader: EAGAIN is fine. */
	(void)!write(q->pipe[1], &c, 1);
}

bool
evq_pop(struct evq *q, void *ev)
{
	struct evq_node *n;
	char buf[64];

	while (read(q->pipe[0], buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&q->lock);
	n = q->head;
	if (n != NULL) {
		q->head = n->next;
		if (q->head == NULL)
			q->tail = NULL;
	}
	pthread_mutex_unlock(&q->lock);
	if (n == NULL)
		return false;
	memcpy(ev, n->ev, q->size);
	free(n);
	return true;
}

int
evq_fd(const struct evq *q)
{
	return q->pipe[0];
}
