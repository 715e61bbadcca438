/*
 * Plans: the exact commands that build one lab variant (wipe, md arrays
 * and their initial resync, mkfs with its journal/log and geometry,
 * mount, readahead) and the commands that undo each of them, in order,
 * each with a one-line reason when the option is not obvious. A plan is
 * a pure function of the variant and where its scratch disks are: it
 * runs nothing and reads nothing, so `raidlab plan` can print it anywhere
 * and the tests check it as a table. The provisioner (provision.h)
 * executes it; the teardown is the undo lists of the steps that ran,
 * newest first, so a failure halfway undoes exactly what was built.
 * Thread of the caller.
 */
#ifndef RAIDLAB_PLAN_H
#define RAIDLAB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "geom.h"

struct err;
struct lab_variant;
struct strbuf;

enum plan_kind {
	PLAN_RUN, /* run argv */
	PLAN_WAIT_SYNC, /* wait for the initial resync of device */
	PLAN_SYSFS, /* write value to attr of an md device's sysfs, or
		       queue/ATTR of a member's queue (blkqueue.h) */
};

/* What a device is to the variant (for the guards' messages). */
enum plan_role {
	PLAN_ROLE_MEMBER,
	PLAN_ROLE_SPARE,
	PLAN_ROLE_JOURNAL, /* md write journal */
	PLAN_ROLE_FSLOG, /* ext journal_dev, XFS logdev (or their array) */
};

struct plan_step {
	enum plan_kind kind;
	char **argv; /* NULL-terminated; PLAN_RUN */
	char *device; /* PLAN_WAIT_SYNC, PLAN_SYSFS: the md device */
	char *attr; /* PLAN_SYSFS: under /sys/block/mdN ("md/skip_copy") */
	char *value; /* PLAN_SYSFS: as written ("1") */
	bool restore; /* PLAN_SYSFS: put back as found at teardown (the
			 executor reads it first and journals it); the
			 queue/ attributes of a member disk */
	char *reason; /* translated, one line; NULL when obvious */
	char *label; /* what it creates, for the state journal ("md
			/dev/md/rl-a"); NULL with undo NULL */
	char ***undo; /* NULL-terminated list of argv, run in order to undo
			 this step; NULL: nothing to undo */
	char *product; /* the path this step creates (md device, mount
			  point, mount), which its undo names; NULL: none
			  (it changes what exists, as mkfs does) */
};

/* A device the variant touches: every one of them goes through the
   guards before anything runs. */
struct plan_dev {
	char *path; /* resolved ("/dev/loop3"), or "<scratch:N>" */
	enum plan_role role;
	int scratch; /* scratch index, or -1 */
	char *field; /* lab field path: "variants.a.array.devices" */
	int line;
};

/* A command whose output is kept in the record as a fact of the build. */
struct plan_fact {
	char *key; /* "mdadm_detail /dev/md/rl-a", "dumpe2fs", "xfs_info" */
	char **argv;
};

struct plan {
	char *variant;
	bool scratch; /* built on scratch disks: not representative */
	char *fstype; /* "ext4" */
	char *fsdev; /* the device mkfs formats (first member for btrfs) */
	char *mountpoint; /* STATE_DIR/mnt/RUN-VARIANT: one per run */
	char *own_prefix; /* STATE_DIR/mnt/RUN-: paths only this run uses */
	char *mount_options; /* as passed to mount -o, or NULL */
	char **md; /* md arrays in creation order (legs, log, top) */
	size_t nmd;
	char **ra_devices; /* devices whose readahead is set */
	size_t nra;
	uint64_t readahead; /* bytes; 0: untouched */
	struct geom geom; /* the top array's */
	char *geometry; /* translated: what mkfs is told and by which rule */
	char *log; /* translated: XFS's log, where and its stripe unit as
		      mkfs.xfs will make it; NULL for other filesystems */
	char *bitmap; /* translated: the top md array's write-intent
			 bitmap and its chunk; NULL without one */
	/* The lab's phase (plan-phase.c): NULL when healthy; the md array
	   it acts on, the members it fails, the first step that fails one
	   (-1: none), and the step that starts the rebuild or scrub the
	   workloads run beside (-1: none) */
	char *phase;
	char *phase_md;
	char **failed;
	size_t nfailed;
	int fault_step;
	int phase_step;
	struct plan_step *steps;
	size_t nsteps;
	struct plan_dev *devs;
	size_t ndevs;
	struct plan_fact *facts;
	size_t nfacts;
};

struct plan_env {
	/* scratch[i] is scratch:i's device; NULL: shown as "<scratch:i>" */
	const char *const *scratch;
	size_t nscratch;
	/* Mount points go under STATE_DIR/mnt; NULL: /run/raidlab. */
	const char *state_dir;
	/* What makes the mount point this run's alone (the pid of the
	   process that runs it: two runs never share a mount point, and
	   one's cleanup never mistakes the other's); NULL: "<pid>". */
	const char *run;
};

/*
 * The plan of an array variant (v->array set; lab_check() passed).
 * Returns 0, or -EINVAL with e set for a variant that is not an array or
 * names a scratch disk beyond env->nscratch (when env->scratch is set).
 */
int plan_build(const struct lab_variant *v, const struct plan_env *env,
    struct plan **out, struct err *e);
void plan_free(struct plan *p);

/* A PLAN_SYSFS step as the shell line that does the same: "echo 4096 >
   /sys/block/$(basename $(realpath /dev/md/rl-a))/md/stripe_cache_size";
   for a queue/ attribute, one that finds a partition's disk: "q=/sys/
   class/block/$(basename $(realpath DEV)); [ -e $q/partition ] &&
   q=$q/..; echo 64 > $q/queue/nr_requests". Caller frees. */
char *plan_sysfs_command(const struct plan_step *s);

/* This process's plan_env.run ("4242"), into buf. */
const char *plan_run_self(char *buf, size_t len);

/* The md device name raidlab uses for variant, with suffix ("", "-leg0",
   "-log"): /dev/md/rl-NAME, shortened to fit md's 32-byte name. Caller
   frees. */
char *plan_md_name(const char *variant, const char *suffix);

/* Append the plan as text (setup, then teardown) for `raidlab plan`. */
void plan_format(const struct plan *p, struct strbuf *b);

/*
 * The plan as JSON, for `raidlab plan --json` and result records:
 * {variant, scratch, fstype, mountpoint, mount_options, geometry, log,
 * bitmap, md [],
 * devices [{path, role, field, line}], setup [{argv [] | wait_sync DEV |
 * sysfs {device, attr, value, restore}, reason}], teardown [argv []],
 * restore [{device, attr}]} (teardown of the whole plan; restore: the
 * sysfs writes put back as found, in teardown order).
 */
json_t *plan_json(const struct plan *p);

/* "member", "spare", "journal", "fs log". */
const char *plan_role_name(enum plan_role r);

#endif
