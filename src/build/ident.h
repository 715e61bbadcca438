/*
 * Identities of the things an undo command names, so that an undo acts
 * only on what raidlab built and never on whatever has its name now. A
 * name is not an identity: a freed /dev/loop3 is given to the next
 * `losetup -f`, /dev/sdb may be another disk after a reboot, and a mount
 * point can hold another filesystem. So before a step runs, and again
 * once it succeeded, every absolute path in its undo commands has its
 * identity taken:
 *
 *   block device  {"kind":"block","rdev":N,"diskseq":N,"boot":"UUID",
 *                  "type":"ext4","uuid":"...","uuid_sub":"...",
 *                  "md_uuid":"...","md_members":[{"rdev":N,
 *                  "uuid_sub":"..."}]}
 *                 rdev and the kernel's disk sequence number (a new one
 *                 at every attach or hot-plug) within one boot; the
 *                 signature libblkid finds on it (after the step), and
 *                 for an md array the array UUID its members carry and
 *                 each member's own device UUID. An md array is proved
 *                 by those alone: md gives it a new disk sequence each
 *                 time its node is opened with no array behind it, as
 *                 mdadm --create may do, so the sequence proves nothing.
 *                 A fault phase that fails members of the run's array
 *                 and adds them back adds two allowances: on the array,
 *                 "md_leaving":[rdev] (those members may be in it or
 *                 not, with any device UUID); on each such member,
 *                 "md_joining":"UUID" (carrying that array's UUID, it is
 *                 the run's whatever its device UUID).
 *   regular file  {"kind":"file","dev":N,"ino":N}
 *   directory     {"kind":"dir","dev":N,"ino":N}
 *   mount point   {"kind":"mount","dev":N} (st_dev of what is mounted)
 *   nothing       {"kind":"absent"}
 *
 * ident_judge() then decides, for one object of the state journal or one
 * step of a teardown, which of its paths may be touched: the same thing
 * (IDENT_SAME), gone or emptied already (IDENT_GONE: the undo is moot),
 * something else now (IDENT_OTHER), or not provably the run's
 * (IDENT_UNPROVEN). ident_apply() drops every path that is not
 * IDENT_SAME from a command, and the command itself when it named paths
 * and none is left. Any thread; reads /sys, /proc and the devices'
 * superblocks (read-only), never writes.
 */
#ifndef RAIDLAB_IDENT_H
#define RAIDLAB_IDENT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

enum ident_verdict {
	IDENT_SAME, /* the very thing the run made or used */
	IDENT_GONE, /* no longer there, or nothing left to undo */
	IDENT_OTHER, /* something else has the name now */
	IDENT_UNPROVEN, /* cannot be shown to be the run's */
};

/*
 * The identity of what path names now (symlinks followed). content: also
 * the signature on a block device and an md array's member UUID (after a
 * step; before one, only the instance counts). A new reference.
 */
json_t *ident_take(const char *path, bool content);

/*
 * {path: identity} for every distinct absolute path among the arguments
 * of undo (a NULL-terminated list of NULL-terminated argv). A new
 * reference; an empty object when undo names no path.
 */
json_t *ident_take_undo(const char *const *const *undo, bool content);

/*
 * Compare what path names now with want (from ident_take). Instance
 * first (device number, disk sequence within the same boot, inode), then
 * content when want has it. why gets a translated reason for every
 * verdict but IDENT_SAME ("" then).
 */
enum ident_verdict
ident_check(const char *path, const json_t *want, char *why, size_t len);

/*
 * The verdict on block device path given want (from ident_take) and now
 * (what it shows now: ident_take(path, true) plus "present" (true: a
 * device stands behind the node), "empty" (true: no medium) and
 * "md_state" (1: an md array whose members share one array UUID, 0: no
 * member, -1: members that do not)). ident_check's rules for a block
 * device, reading nothing: tests give it recorded identities.
 */
enum ident_verdict ident_block_verdict(const char *path, const json_t *want,
    const json_t *now, char *why, size_t len);

/* One object to undo, as the journal or the provisioner knows it. */
struct ident_obj {
	const json_t *pre; /* identities before the step, or NULL */
	const json_t *post; /* identities after it succeeded, or NULL */
	const char *product; /* the path the step creates (an md device, a
				mount), or NULL */
	bool created; /* the step succeeded (post was taken) */
	/* A product under this prefix is the run's whatever its
	   identity: a per-run path nobody else uses (its mount point).
	   NULL: none. */
	const char *own_prefix;
};

/* The verdict on each path of one object's undo commands. */
struct ident_judgement {
	size_t n;
	char **paths;
	enum ident_verdict *v;
	char **why; /* translated; "" for IDENT_SAME */
	const json_t **want; /* the identity each was judged by (borrowed
				from the ident_obj), or NULL */
	bool hold; /* a path is IDENT_OTHER or IDENT_UNPROVEN: none of the
		      object's commands may run */
};

/*
 * Judge every absolute path of undo for o, before the first command
 * runs (the commands change what they name). Rules: a path that is gone
 * is moot; a created object's paths are checked against post; a product
 * never created is left alone when it exists (the run may have died while
 * making it, or the name was taken: nothing proves it is the run's),
 * unless it did not exist before and lies under own_prefix; any other
 * path must match its pre identity, content included (a signature that
 * appeared since may be the step's or somebody else's: unproven). A path
 * with no identity recorded at all (an older journal) is unproven. One
 * path that is not the run's holds the whole object: an md array or a
 * btrfs is undone whole or not at all.
 */
void ident_judge(const struct ident_obj *o, const char *const *const *undo,
    struct ident_judgement *out);
void ident_judgement_done(struct ident_judgement *j);

/* The verdict on path, IDENT_UNPROVEN when j does not know it. */
enum ident_verdict ident_verdict_of(const struct ident_judgement *j,
    const char *path, const char **why);

/*
 * argv with every absolute-path argument whose verdict is not IDENT_SAME
 * removed (a new NULL-terminated vector of borrowed strings: free only
 * the array), or NULL when the command must not run: the object is held,
 * or argv named paths and none is left. A block device is checked again
 * here, right before its command: an earlier command of the same object
 * may have let it go, and its name be another device's by now.
 */
const char **
ident_apply(const struct ident_judgement *j, const char *const *argv);

/* "same", "gone", "other", "unproven". */
const char *ident_verdict_name(enum ident_verdict v);

#endif
