/*
 * Hand-built inventories for unit tests of code that judges disks (the
 * inventory's verdicts, the guards): a device as the scan would leave it.
 */
#ifndef RAIDLAB_TEST_UNIT_DISK_H
#define RAIDLAB_TEST_UNIT_DISK_H

#include "base/xalloc.h"
#include "disk/disk.h"

/* A probed, unused 1 GiB device; partitions name their parent. */
static inline struct disk *
unit_disk_add(struct disk_list *l, const char *name, unsigned maj, unsigned min,
    const char *parent)
{
	struct disk *d = disk_list_add(l, name);

	d->path = xasprintf("/dev/%s", name);
	d->major = maj;
	d->minor = min;
	d->size = 1ULL << 30;
	d->probe = DISK_PROBE_OK;
	if (parent != NULL) {
		d->type = DISK_TYPE_PART;
		d->parent = xstrdup(parent);
	}
	return d;
}

#endif
