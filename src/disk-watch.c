/*
 * Block device events through libudev: see disk-watch.h.
 */
#include "config.h"

#include <libudev.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disk-watch.h"
#include "xalloc.h"

struct disk_watch {
	struct udev *udev;
	struct udev_monitor *mon;
	const char *source;
};

struct disk_watch *
disk_watch_new(void)
{
	struct disk_watch *w = xcalloc(1, sizeof *w);

	/* udevd's socket: its events carry the database's properties */
	w->source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	if ((w->udev = udev_new()) == NULL)
		goto fail;
	w->mon = udev_monitor_new_from_netlink(w->udev, w->source);
	if (w->mon == NULL ||
	    udev_monitor_filter_add_match_subsystem_devtype(w->mon, "block",
		NULL) < 0 ||
	    udev_monitor_enable_receiving(w->mon) < 0)
		goto fail;
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
	if (w->mon != NULL)
		udev_monitor_unref(w->mon);
	if (w->udev != NULL)
		udev_unref(w->udev);
	free(w);
}

int
disk_watch_fd(const struct disk_watch *w)
{
	return udev_monitor_get_fd(w->mon);
}

bool
disk_watch_drain(struct disk_watch *w)
{
	struct udev_device *d;
	bool any = false;

	/* the monitor's socket is non-blocking: NULL when drained */
	while ((d = udev_monitor_receive_device(w->mon)) != NULL) {
		const char *a = udev_device_get_action(d);

		if (a != NULL &&
		    (strcmp(a, "add") == 0 || strcmp(a, "remove") == 0 ||
			strcmp(a, "change") == 0))
			any = true;
		udev_device_unref(d);
	}
	return any;
}

const char *
disk_watch_source(const struct disk_watch *w)
{
	return w->source;
}
