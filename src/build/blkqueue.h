/*
 * The request queue behind a member device, as sysfs shows it: the I/O
 * scheduler (queue/scheduler, "[none] mq-deadline kyber bfq", the active
 * one in brackets), queue/nr_requests, queue/rotational,
 * queue/write_cache and queue/read_ahead_kb. A partition has no queue of
 * its own: its disk's is the one read and written
 * (/sys/class/block/NAME/../queue). The sysfs root is a parameter so
 * tests can point it at a directory of their own; NULL means "/sys".
 * Any thread; no state.
 */
#ifndef RAIDLAB_BLKQUEUE_H
#define RAIDLAB_BLKQUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/*
 * The queue directory of block device dev ("/dev/loop3", a symlink, or a
 * partition: its disk's), into buf. Returns 0, or -ENOENT when dev is
 * not a block device sysfs knows.
 */
int blkqueue_dir(const char *sysroot, const char *dev, char *buf, size_t len);
/* dev is a partition: its queue is its disk's, shared with the disk's
   other partitions. */
bool blkqueue_is_partition(const char *sysroot, const char *dev);

/* queue/ATTR of dev (attr "scheduler"), trailing blanks removed; NULL
   when absent. Caller frees. */
char *blkqueue_attr(const char *sysroot, const char *dev, const char *attr);

/* The active scheduler of a queue/scheduler text ("none" of "[none]
   mq-deadline"), into buf; false when none is marked. */
bool blkqueue_sched_active(const char *list, char *buf, size_t len);

/* The text of queue/scheduler offers name. */
bool blkqueue_sched_offers(const char *list, const char *name);

/*
 * What writing back would restore: the active scheduler's name for
 * "scheduler", the attribute as read for the others. NULL when absent.
 * Caller frees.
 */
char *blkqueue_value(const char *sysroot, const char *dev, const char *attr);

/*
 * Write value to queue/ATTR of dev, ATTR "scheduler" or "nr_requests"
 * only (-EINVAL, nothing written, for any other). *found gets
 * blkqueue_value() before, *now after (caller frees both; NULL when
 * unread). Returns 0, -ENOENT when dev has no such attribute, or the
 * write's -errno (-EINVAL: the kernel refused the value).
 */
int blkqueue_write(const char *sysroot, const char *dev, const char *attr,
    const char *value, char **found, char **now);

/*
 * The facts raidlab records of dev's queue: {scheduler (active),
 * schedulers [offered], nr_requests, rotational, read_ahead_kb (integers),
 * write_cache ("write back")}; an attribute that is absent is left out.
 * A new reference, NULL when dev has no queue.
 */
json_t *blkqueue_facts(const char *sysroot, const char *dev);

#endif
