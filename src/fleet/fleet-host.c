/*
 * The host end of a fleet run: the controller's channel and the round
 * barrier. See fleet-host.h for which thread calls what.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "fleet-host.h"
#include "fleet-proto.h"

struct fleet_host {
	int fd; /* the channel */
	int wake[2]; /* runner -> front end: a round waits */
	char line[FLEET_PROTO_LINE]; /* front end: a line so far */
	size_t len;
	bool overlong; /* front end: the line so far did not fit */

	pthread_mutex_t lock;
	pthread_cond_t cond;
	long go; /* lock: the highest "go N" */
	long want; /* lock: the round the runner waits for; 0: none */
	long told; /* lock: the last want fleet_host_waiting() returned */
	bool closed; /* lock */
};

struct fleet_host *
fleet_host_new(int fd)
{
	struct fleet_host *fh = xcalloc(1, sizeof *fh);

	if (pipe2(fh->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		int err = errno;

		free(fh);
		errno = err;
		return NULL;
	}
	fh->fd = fd;
	pthread_mutex_init(&fh->lock, NULL);
	pthread_cond_init(&fh->cond, NULL);
	return fh;
}

void
fleet_host_free(struct fleet_host *fh)
{
	if (fh == NULL)
		return;
	close(fh->wake[0]);
	close(fh->wake[1]);
	pthread_cond_destroy(&fh->cond);
	pthread_mutex_destroy(&fh->lock);
	free(fh);
}

int
fleet_host_fd(const struct fleet_host *fh)
{
	return fh->fd;
}

int
fleet_host_wait_fd(const struct fleet_host *fh)
{
	return fh->wake[0];
}

void
fleet_host_close(struct fleet_host *fh)
{
	pthread_mutex_lock(&fh->lock);
	fh->closed = true;
	pthread_cond_broadcast(&fh->cond);
	pthread_mutex_unlock(&fh->lock);
}

/* One whole line from the controller. */
static void
take_line(struct fleet_host *fh, const char *line, char *bad, size_t len)
{
	long n = fleet_proto_parse_go(line);

	if (n < 0) {
		snprintf(bad, len, "%s", line);
		return;
	}
	pthread_mutex_lock(&fh->lock);
	if (n > fh->go)
		fh->go = n;
	pthread_cond_broadcast(&fh->cond);
	pthread_mutex_unlock(&fh->lock);
}

enum fleet_host_read
fleet_host_read(struct fleet_host *fh, char *bad, size_t len)
{
	char buf[1024];
	ssize_t n;

	if (len > 0)
		bad[0] = '\0';
	n = read(fh->fd, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return FLEET_HOST_OPEN;
	if (n <= 0) {
		/* a line cut by the end counts for nothing */
		fleet_host_close(fh);
		return FLEET_HOST_CLOSED;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (fh->len + 1 < sizeof fh->line)
				fh->line[fh->len++] = buf[i];
			else
				fh->overlong = true;
			continue;
		}
		fh->line[fh->len] = '\0';
		if (fh->overlong)
			snprintf(bad, len, "%s...", fh->line);
		else
			take_line(fh, fh->line, bad, len);
		fh->len = 0;
		fh->overlong = false;
	}
	return FLEET_HOST_OPEN;
}

long
fleet_host_waiting(struct fleet_host *fh)
{
	char buf[64];
	long n = 0;

	while (read(fh->wake[0], buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&fh->lock);
	if (fh->want > fh->told)
		n = fh->told = fh->want;
	pthread_mutex_unlock(&fh->lock);
	return n;
}

bool
fleet_host_gate(void *arg, long n)
{
	struct fleet_host *fh = arg;
	bool go;

	pthread_mutex_lock(&fh->lock);
	fh->want = n;
	pthread_mutex_unlock(&fh->lock);
	/* the pipe holds far more than the rounds of a run: a full one
	   still wakes the poll, and want says which round */
	(void)!write(fh->wake[1], "w", 1);
	pthread_mutex_lock(&fh->lock);
	while (!fh->closed && fh->go < n)
		pthread_cond_wait(&fh->cond, &fh->lock);
	go = !fh->closed;
	pthread_mutex_unlock(&fh->lock);
	return go;
}
