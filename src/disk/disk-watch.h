/*
 * Block devices coming and going, as events: a libudev monitor on the
 * "udev" source when a udev daemon runs (its events come after the
 * database is updated), otherwise on the kernel's own uevents (no daemon
 * needed), filtered to the block subsystem. Without udevd nothing
 * reports a signature written on a device that stays (mkfs, wipefs), so
 * the watch also puts inotify on the device nodes it is given and counts
 * a writer's close as a change, as udevd itself does. The Disks screen
 * polls its descriptor and rescans when something happened; where no
 * monitor can be made (no netlink), it falls back to a periodic rescan.
 * The thread that made it.
 */
#ifndef RAIDLAB_DISK_WATCH_H
#define RAIDLAB_DISK_WATCH_H

#include <stdbool.h>

struct disk_watch;

/* NULL when no monitor can be made here. */
struct disk_watch *disk_watch_new(void);
void disk_watch_free(struct disk_watch *w);
/* Readable (POLLIN) when events are waiting. */
int disk_watch_fd(const struct disk_watch *w);
/* Watch the node at PATH (/dev/NAME) for writers closing it; nothing
   with udevd (its events say so) or where inotify fails. */
void disk_watch_node(struct disk_watch *w, const char *path);
/* Read every waiting event; true when a block device was added, removed
   or changed (a loop device attached or detached is a change, and so
   is a writer closing a watched node). */
bool disk_watch_drain(struct disk_watch *w);
/* "udev" or "kernel": where the events come from. */
const char *disk_watch_source(const struct disk_watch *w);

#endif
