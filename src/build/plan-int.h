/*
 * Internal to the plan builder (plan.c: devices, steps, text; plan-md.c:
 * mdadm; plan-fs.c: mkfs, mount, readahead, facts). Not for use outside
 * them. Thread of the caller.
 */
#ifndef RAIDLAB_PLAN_INT_H
#define RAIDLAB_PLAN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/lab.h"
#include "plan.h"

#define PRINTF(f, a) __attribute__((format(printf, f, a)))

/* A growing NULL-terminated argv. */
struct av {
	char **v;
	size_t n;
};

void av_add(struct av *a, const char *s);
void av_addf(struct av *a, const char *fmt, ...) PRINTF(2, 3);
/* Split s on blanks and append each word (mkfs_options). */
void av_split(struct av *a, const char *s);
/* The argv, NULL-terminated (an empty av gives { NULL }); a is reset. */
char **av_take(struct av *a);

/* A growing list of undo argvs. */
struct undo {
	char ***v;
	size_t n;
};

void undo_add(struct undo *u, char **argv);
char ***undo_take(struct undo *u);

/* One plan being built. */
struct pb {
	struct plan *p;
	const struct lab_variant *v;
	const struct plan_env *env;
	struct err *e;
	int rc;
	char *logdev; /* external journal/log device, or NULL */
};

/* Append a step; takes argv, undo (may be NULL) and copies the strings. */
void pb_run(struct pb *b, char **argv, const char *reason, const char *label,
    char ***undo);
/* The steps that make the run's mount point (the plan's first). */
void pb_mountpoint(struct pb *b);
/* The path the step just added creates (see plan_step.product). */
void pb_product(struct pb *b, const char *path);
void pb_wait(struct pb *b, const char *dev, const char *reason);
/* Write value to /sys/block/mdN/attr, mdN being dev's kernel name. */
void pb_sysfs(struct pb *b, const char *dev, const char *attr,
    const char *value, const char *reason);
void pb_fact(struct pb *b, const char *key, char **argv);
/* The variant's scheduler and nr_requests on every member and spare
   registered so far, each a PLAN_SYSFS step put back at teardown. */
void pb_queues(struct pb *b);

/* Device path of a lab device name ("scratch:N" resolved); caller frees.
   Sets b->rc when a scratch disk is out of range. */
char *pb_dev(struct pb *b, const char *name);
/* Register a device the variant touches (for the guards). */
void pb_touch(struct pb *b, const char *path, const char *name,
    enum plan_role role, const char *field, int line);

/* The active members of a (its devices, or the variant's unnamed scratch
   disks for the top array when devices is not given), as lab names. */
size_t
pb_members(struct pb *b, const struct lab_array *a, bool top, char ***out);

/* plan-md.c: the arrays of the variant (log array, legs, top) after
   wiping every device; returns the device the filesystem goes on (caller
   frees) and sets b->logdev for a log array. */
char *pb_md(struct pb *b);
/* plan-md.c: register every device of the variant for the guards, then
   one wipefs step over all of them. */
void pb_wipe(struct pb *b, char **members, size_t n);
/* plan-fs.c: mkfs, mount, readahead and the facts, on dev (md, single)
   or the btrfs members. */
void pb_fs(struct pb *b, const char *dev, char **members, size_t nmembers);
/* dev is one of the members the phase fails (the plan's failed[]). */
void pb_failed(struct pb *b, const char *dev);
/* plan-phase.c: the top md array md into the lab's phase (sync speed
   limits, failed, removed or re-added members, a scrub), once mounted. */
void pb_phase(struct pb *b, const char *md);

#endif
