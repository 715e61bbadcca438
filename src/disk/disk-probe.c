/*
 * Signature probe: one low-level libblkid probe per device, on a
 * read-only descriptor, for the superblock (type, label, UUID) and the
 * partition table type. A device that cannot be opened is recorded, not
 * an error. See disk.h. Any thread.
 */
#include "config.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "disk.h"

static char *
lookup(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) != 0 || v == NULL ||
	    *v == '\0')
		return NULL;
	return xstrdup(v);
}

static void
forget(struct disk *d)
{
	free(d->pttype);
	free(d->fstype);
	free(d->label);
	free(d->uuid);
	d->pttype = d->fstype = d->label = d->uuid = NULL;
	d->probe_errno = 0;
}

void
disk_probe(struct disk *d)
{
	blkid_probe pr = NULL;
	int fd, rc;

	forget(d);
	if (d->size == 0) {
		d->probe = DISK_PROBE_OK; /* nothing there to read */
		return;
	}
	/* O_NONBLOCK: an optical drive without a disc must not wait. */
	fd = open(d->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		d->probe = DISK_PROBE_FAILED;
		d->probe_errno = errno;
		return;
	}
	errno = 0;
	if ((pr = blkid_new_probe()) == NULL ||
	    blkid_probe_set_device(pr, fd, 0, 0) != 0) {
		d->probe = DISK_PROBE_FAILED;
		d->probe_errno = errno ? errno : EIO;
		goto out;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr,
	    BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
	blkid_probe_enable_partitions(pr, 1);
	errno = 0;
	rc = blkid_do_safeprobe(pr);
	if (rc == -2) {
		/* Two signatures that contradict each other: data anyway. */
		d->probe = DISK_PROBE_OK;
		d->fstype = xstrdup("ambivalent");
	} else if (rc < 0) {
		d->probe = DISK_PROBE_FAILED;
		d->probe_errno = errno ? errno : EIO;
	} else {
		d->probe = DISK_PROBE_OK;
		d->fstype = lookup(pr, "TYPE");
		d->label = lookup(pr, "LABEL");
		d->uuid = lookup(pr, "UUID");
		d->pttype = lookup(pr, "PTTYPE");
	}
out:
	blkid_free_probe(pr);
	close(fd);
}
