/*
 * JSON form of the disk inventory (jansson): the object `raidlab disks
 * --json` prints and result records embed, one per device, with every
 * field of struct disk. Absent strings are null; verdict and reason_code
 * are untranslated tokens, reason is the translated sentence. Any thread.
 */
#ifndef RAIDLAB_DISK_JSON_H
#define RAIDLAB_DISK_JSON_H

#include <jansson.h>

#include "disk.h"

/* A new object describing d (new reference). */
json_t *disk_to_json(const struct disk *d);

/*
 * {"devices": [...]} with the disks of l for which keep(d, arg) is true,
 * or every disk when keep is NULL, in list order (new reference).
 */
json_t *
disk_list_to_json(const struct disk_list *l, disk_filter_fn keep, void *arg);

#endif
