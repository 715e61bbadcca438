/*
 * Two threads using libudev at once, each with its own context, as the
 * TUI's device watch and a run's target scan do. libudev's process-wide
 * state (its hash seed) raced under ThreadSanitizer until every call held
 * disk_udev_lock(). A plain program, not Criterion: Criterion cannot run
 * under TSan, and this test is for the TSan build (TSAN_OPTIONS has
 * halt_on_error=1); elsewhere it checks that both threads saw devices.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>

#include "base/err.h"
#include "disk/disk-watch.h"
#include "disk/disk.h"

#define ROUNDS 20

static void *
udev_user(void *p)
{
	size_t *found = p;

	for (int i = 0; i < ROUNDS; i++) {
		struct disk_watch *w = disk_watch_new();
		struct disk_list l;
		struct err e;

		disk_list_init(&l);
		err_clear(&e);
		if (disk_list_enumerate(&l, &e) == 0)
			*found += l.n;
		else
			fprintf(stderr, "enumerate: %s\n", e.msg);
		if (w != NULL) {
			(void)disk_watch_drain(w);
			disk_watch_free(w);
		}
		disk_list_done(&l);
	}
	return NULL;
}

int
main(void)
{
	pthread_t t;
	size_t a = 0, b = 0;

	if (pthread_create(&t, NULL, udev_user, &a) != 0)
		return 1;
	udev_user(&b);
	pthread_join(t, NULL);
	printf("devices seen: %zu and %zu over %d rounds each\n", a, b, ROUNDS);
	return a > 0 && b > 0 ? 0 : 1;
}
