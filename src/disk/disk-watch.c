/*
 * Block device events through libudev and inotify: see disk-watch.h.
 */
#include "config.h"

#include <libudev.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "disk-watch.h"
#include "disk.h"

struct disk_watch {
	struct udev *udev;
	struct udev_monitor *mon;
	const char *source;
	int ino; /* inotify on the device nodes; -1 with udevd or none */
	int ep; /* epoll over both: the one descriptor the UI polls */
};

/* Without udevd nobody turns "a writer closed the node" into a change
   event (udevd's inotify watch does): watch the nodes here instead, so
   a signature written by mkfs or wipefs shows without a rescan key. */
static void
watch_nodes_too(struct disk_watch *w)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (strcmp(w->source, "kernel") != 0)
		return;
	if ((w->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0)
		return;
	ev.data.fd = w->ino;
	if (epoll_ctl(w->ep, EPOLL_CTL_ADD, w->ino, &ev) < 0) {
		close(w->ino);
		w->ino = -1;
	}
}

struct disk_watch *
disk_watch_new(void)
{
	struct disk_watch *w = xcalloc(1, sizeof *w);
	struct epoll_event ev = { .events = EPOLLIN };
	bool ok;

	w->ino = -1;
	/* udevd's socket: its events carry the database's properties */
	w->source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	if ((w->ep = epoll_create1(EPOLL_CLOEXEC)) < 0)
		goto fail;
	disk_udev_lock();
	if ((w->udev = udev_new()) != NULL)
		w->mon = udev_monitor_new_from_netlink(w->udev, w->source);
	ok = w->mon != NULL &&
	    udev_monitor_filter_add_match_subsystem_devtype(w->mon, "block",
		NULL) >= 0 &&
	    udev_monitor_enable_receiving(w->mon) >= 0;
	disk_udev_unlock();
	if (!ok)
		goto fail;
	ev.data.fd = udev_monitor_get_fd(w->mon);
	if (epoll_ctl(w->ep, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0)
		goto fail;
	watch_nodes_too(w);
	return w;
fail:
	disk_watch_free(w);
	return NULL;
}

void
disk_watch_free(struct disk_watch *w)
{
	if (w == NULL)
		return;
	if (w->ino >= 0)
		close(w->ino);
	if (w->ep >= 0)
		close(w->ep);
	disk_udev_lock();
	if (w->mon != NULL)
		udev_monitor_unref(w->mon);
	if (w->udev != NULL)
		udev_unref(w->udev);
	disk_udev_unlock();
	free(w);
}

int
disk_watch_fd(const struct disk_watch *w)
{
	return w->ep;
}

void
disk_watch_node(struct disk_watch *w, const char *path)
{
	/* the same node again is the same watch: no growth per rescan */
	if (w->ino >= 0)
		(void)inotify_add_watch(w->ino, path, IN_CLOSE_WRITE);
}

/* Every waiting inotify record; true when a writer closed a node. */
static bool
drain_nodes(struct disk_watch *w)
{
	char buf[4096]
	    __attribute__((aligned(__alignof__(struct inotify_event))));
	bool any = false;
	ssize_t n;

	while ((n = read(w->ino, buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < n;) {
			const struct inotify_event *e =
			    (const struct inotify_event *)(buf + i);

			if (e->mask & IN_CLOSE_WRITE)
				any = true;
			i += (ssize_t)(sizeof *e + e->len);
		}
	return any;
}

bool
disk_watch_drain(struct disk_watch *w)
{
	struct udev_device *d;
	bool any = false;

	/* the monitor's socket is non-blocking: NULL when drained */
	disk_udev_lock();
	while ((d = udev_monitor_receive_device(w->mon)) != NULL) {
		const char *a = udev_device_get_action(d);

		if (a != NULL &&
		    (strcmp(a, "add") == 0 || strcmp(a, "remove") == 0 ||
			strcmp(a, "change") == 0))
			any = true;
		udev_device_unref(d);
	}
	disk_udev_unlock();
	if (w->ino >= 0 && drain_nodes(w))
		any = true;
	return any;
}

const char *
disk_watch_source(const struct disk_watch *w)
{
	return w->source;
}
