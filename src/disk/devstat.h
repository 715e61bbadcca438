/*
 * Block device activity from sysfs: the counters of
 * SYSROOT/class/block/NAME/stat (Documentation/block/stat.rst: sectors
 * read and written, io_ticks), read for a list of kernel device names,
 * and their change since the previous reading as struct dev_sample
 * (series.h). The list can be trimmed of partitions whose whole disk is
 * listed too (their I/O is the disk's already) and each device given its
 * role. The sysfs root is a parameter so tests can point it at a
 * directory of their own; NULL means "/sys". Any thread; a struct
 * devstat belongs to one.
 */
#ifndef RAIDLAB_DEVSTAT_H
#define RAIDLAB_DEVSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figures/series.h"

/* The counters raidlab uses from one stat file. */
struct devstat_reading {
	uint64_t read_sectors; /* field 3; 512-byte units whatever the disk */
	uint64_t write_sectors; /* field 7 */
	uint64_t io_ticks; /* field 10: milliseconds with I/O in flight */
};

/* Parse the text of a stat file; false unless it has 10 fields or more. */
bool devstat_parse(const char *text, struct devstat_reading *out);
/* Read device name's stat file; 0 or a negative errno. */
int devstat_read(const char *sysroot, const char *name,
    struct devstat_reading *out);
/* "array" (an md device), "member" (a slave of another listed device)
   or "device". Borrowed, static. sysfs cannot tell what a device is to
   a variant: whoever built it tags its md write journal and its
   filesystem's external journal or log with the two roles below
   instead (sampler_watch()'s roles). */
#define DEVSTAT_ROLE_JOURNAL "journal"
#define DEVSTAT_ROLE_LOG "log"
const char *devstat_role(const char *sysroot, const char *name,
    char *const *names, size_t n);
/* Whether name is a partition of a device that is in names. */
bool devstat_part_of_listed(const char *sysroot, const char *name,
    char *const *names, size_t n);

/* The devices followed by one sampler, with their last readings. */
struct devstat {
	char *sysroot; /* NULL: /sys */
	size_t n;
	char **names;
	struct devstat_reading *last;
	bool *ok; /* last[i] was read */
};

/* Follow names (copied), reading each once now as the baseline. */
void devstat_init(struct devstat *d, const char *sysroot, char *const *names,
    size_t n);
void devstat_done(struct devstat *d);
/* Each device's change since the previous reading into out[0..n): bytes
   read and written, busy seconds. A device unreadable now or then (or
   whose counters went back: it was made anew) gives 0 bytes and NAN. */
void devstat_delta(struct devstat *d, struct dev_sample *out);

#endif
