/*
 * The state journal: every object raidlab creates (scratch files, loop
 * devices, md arrays, mounts, mount points) is recorded before it is
 * created, with how to undo it, so that `raidlab cleanup` can undo what a
 * killed run left behind. One journal file per raidlab process,
 * $RAIDLAB_STATE_DIR/PID.journal (default /run/raidlab, created 0700):
 * JSON lines, each written with O_APPEND and fsync'ed before the function
 * that wrote it returns, so a journal is never behind what exists. A
 * reader ignores a torn last line (a crash in the middle of a write).
 *
 *   {"op":"open","pid":4242,"start":123456,"exe":"/usr/bin/raidlab",
 *    "version":1,"time":1700000000.5}
 *   {"op":"add","id":1,"kind":"file","name":"/var/tmp/x.img","time":...}
 *   {"op":"created","id":1,"fdev":2049,"ino":1233,
 *    "btime":1700000000123456789,"time":...}
 *   {"op":"add","id":2,"kind":"loop","name":"/var/tmp/x.img","fdev":2049,
 *    "ino":1234,"time":...}
 *   {"op":"named","id":2,"device":"/dev/loop7","time":...}
 *   {"op":"add","id":3,"kind":"cmds","name":"mount /mnt/x",
 *    "undo":[["umount","/mnt/x"]],"product":"/mnt/x",
 *    "own_prefix":"/run/raidlab/mnt/4242-",
 *    "pre":{"/mnt/x":{"kind":"dir",...}},"time":...}
 *   {"op":"created","id":3,"post":{"/mnt/x":{"kind":"mount",...}},
 *    "time":...}
 *   {"op":"release","id":3,"time":...}
 *
 * "start" is the process's start time (field 22 of /proc/PID/stat): with
 * the pid it identifies the process even after its pid is reused. A file
 * or directory gets its identity (device, inode, birth time in ns where
 * the filesystem keeps one) once created: cleanup removes that very one
 * and nothing else that took its name.
 *
 * The state directory must be the caller's own, mode 0700, and every
 * journal in it the caller's, mode 0600 (no access for group or others):
 * a journal says what cleanup removes, so one that somebody else could
 * have written is refused, never read.
 *
 * Thread-safety: the journal of a process is one reference-counted object
 * (statej_open() again returns the same one); statej_add/named/created/
 * release may be called from any thread. A forked child that calls
 * statej_open() gets a journal of its own. statej_cleanup() may run in any
 * thread; two cleanups never run at once (a lock on the state directory).
 */
#ifndef RAIDLAB_STATEJ_H
#define RAIDLAB_STATEJ_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct err;

/* Where journals live when RAIDLAB_STATE_DIR is not set. */
#define STATEJ_DIR_DEFAULT "/run/raidlab"

enum statej_kind {
	STATEJ_FILE, /* a file raidlab creates (scratch image): undo =
			unlink, only when it still is the file
			statej_identify() recorded, and no loop device
			still has it as its backing file */
	STATEJ_DIR, /* a directory: undo = rmdir (only if empty, and
		       still the one statej_identify() recorded) */
	STATEJ_LOOP, /* a loop device over file `name`: undo = detach the
			loop whose backing file is `name` (the device given
			to statej_named(), after checking that its backing
			file in /sys/block/loopN/loop/backing_file, and the
			inode recorded when the object was added, still are
			`name`'s; when never named or no longer backed by
			`name`, every loop device backed by `name`). A busy
			device only gets autoclear: reported as not undone */
	STATEJ_CMDS, /* anything else (md array, mount, btrfs
			registration): undo = a list of argv vectors run in
			order through exec_run() (failures reported, the
			rest still run), each path argument first judged
			by its identity (ident.h): one that is not the
			run's is left out, with a line saying why */
	STATEJ_SYSFS, /* a write to queue/ATTR of block device `name`
			 (blkqueue.h): undo = write back, in order, the
			 values it found ("restore": [[ATTR, VALUE]...]),
			 only while `name` is still the device it was
			 (ident.h, "pre"); gone: moot */
};

struct statej;

/*
 * The state directory: $RAIDLAB_STATE_DIR when set and not empty, else
 * STATEJ_DIR_DEFAULT. Borrowed.
 */
const char *statej_dir(void);

/*
 * Open the state directory dir, creating it (0700) when create is set:
 * a descriptor, after checking that it is a directory (not a symbolic
 * link) owned by the caller with no access for group or others. A
 * negative errno with e filled naming the path, its owner and its mode
 * (-EPERM when it is somebody else's or open to others; -ENOENT when it
 * does not exist and create is not set).
 */
int statej_dir_open(const char *dir, bool create, struct err *e);

/*
 * Open this process's journal, creating the state directory (0700) and
 * DIR/PID.journal (0600); a state directory that statej_dir_open()
 * refuses is not used. A journal left at that name by a dead process
 * whose pid we now have is renamed DIR/PID.START.journal and kept for
 * statej_cleanup(). Opening again in the same process returns the same
 * journal with one more reference. Returns 0 or a negative errno with e
 * filled.
 */
int statej_open(struct statej **out, struct err *e);

/*
 * Record an object before creating it; *id identifies it later. undo: a
 * NULL-terminated list of NULL-terminated argv vectors, for STATEJ_CMDS
 * only (at least one, none empty), else NULL. name: the file or directory
 * path (STATEJ_LOOP: the backing file, which must exist then: its inode
 * is recorded), or a label for CMDS ("md /dev/md/rl-x", "mount
 * /run/raidlab/mnt/v"). Returns 0, -EINVAL for bad arguments, or the
 * errno of the write; on failure the object is not recorded and must not
 * be created.
 */
int statej_add(struct statej *j, enum statej_kind kind, const char *name,
    const char *const *const *undo, int *id, struct err *e);

/* A STATEJ_CMDS object, for statej_add_cmds(). */
struct statej_cmds {
	const char *label; /* "md /dev/md/rl-a", "mount /run/..." */
	const char *const *const *undo; /* as for statej_add() */
	const char *product; /* the path the step creates, or NULL */
	const char *own_prefix; /* see struct ident_obj, or NULL */
	const json_t *pre; /* ident_take_undo() before the step, or NULL */
};

/*
 * Record a STATEJ_CMDS object with what its undo needs to tell the run's
 * objects from others (ident.h), before running the step. As
 * statej_add() otherwise.
 */
int statej_add_cmds(struct statej *j, const struct statej_cmds *c, int *id,
    struct err *e);

/* A STATEJ_SYSFS object, for statej_add_sysfs(). */
struct statej_sysfs {
	const char *device; /* "/dev/loop3", "/dev/sdb1" */
	/* What to write back, in order: [["scheduler", "mq-deadline"],
	   ["nr_requests", "64"]] (attributes under the device's queue:
	   a scheduler switch resets the depth, so its undo puts both) */
	const json_t *restore;
	const json_t *pre; /* ident_take(device, false) before the write */
};

/*
 * Record a STATEJ_SYSFS object before the write it undoes. As
 * statej_add() otherwise.
 */
int statej_add_sysfs(struct statej *j, const struct statej_sysfs *s, int *id,
    struct err *e);

/*
 * The device an object got once created: a loop's "/dev/loop7". Also
 * marks the object as created (see statej_created). -ENOENT when id is
 * not a live object.
 */
int statej_named(struct statej *j, int id, const char *device, struct err *e);

/*
 * Mark an object as created, with post (may be NULL): the identities of
 * what its undo names, taken right after the step (ident_take_undo with
 * content), in the same journal line. Optional, and it matters only for
 * STATEJ_CMDS: when an undo command fails, statej_cleanup() keeps an
 * object known to be created (and reports a failure), but forgets one
 * that was never marked, since the run may have died between recording
 * and creating it (the failing `umount` of a mount that never happened
 * must not keep a journal forever). Call it right after the creating
 * command succeeded. -ENOENT when id is not a live object.
 */
int statej_created(struct statej *j, int id, const json_t *post, struct err *e);

/*
 * Mark a STATEJ_FILE or STATEJ_DIR object as created, with the identity
 * of what fd has open (device, inode and, where the filesystem keeps
 * one, birth time). Call it on a descriptor of what was created, before
 * it gets its name (an O_TMPFILE file, linked after: no moment where the
 * name holds an unidentified file) or right after creating it (open with
 * O_EXCL, mkdir). A file or
 * directory never identified (the run died before this line was
 * written, or an older raidlab wrote the journal) is left alone by
 * statej_cleanup(), with a line saying so. -ENOENT when id is not a live
 * object.
 */
int statej_identify(struct statej *j, int id, int fd, struct err *e);

/*
 * The object was undone normally: forget it. -ENOENT when id is not a
 * live object.
 */
int statej_release(struct statej *j, int id, struct err *e);

/* Objects recorded and not released. */
size_t statej_live(struct statej *j);

/* The journal's file name. Borrowed, valid until the last close. */
const char *statej_path(const struct statej *j);

/*
 * Drop one reference; on the last one, close the journal and remove its
 * file when no object is live (a normal run leaves no journal behind). A
 * journal with live objects stays for statej_cleanup(). NULL is a no-op;
 * a forked child closing its parent's journal does nothing.
 */
void statej_close(struct statej *j);

/*
 * Undo every live object of every journal in the state directory whose
 * process is gone (a state directory or journal that somebody else owns,
 * or that group or others may access, is refused: -EPERM, nothing in it
 * read), newest object first; with force, also of running
 * processes (never this process's own journal). A process counts as
 * running when its pid exists, is not a zombie, and has the start time
 * the journal recorded (journals without one: /proc/PID/exe is a raidlab
 * binary, or the binary that wrote the journal), or when it still holds
 * the journal's lock. Before a CMDS object's commands run, each path
 * they name is judged (ident_judge()): a path that is gone, or emptied,
 * is moot; one that is something else now, or not provably the run's,
 * is left alone with a line saying why; a command left with none of its
 * paths does not run. An object whose every path is settled that way is
 * released: the things it named are gone. A SYSFS object's value is
 * written back only to the device it was found on; one whose device is
 * gone (a loop device detached) is moot, and one that is another device
 * now is left alone with a line saying why. A file or directory is removed
 * only when it still has the identity statej_identify() recorded; one
 * with another, or none recorded, is left alone with a line saying why,
 * and forgotten. report (may be NULL) gets one
 * translated line per action: "removed /var/tmp/x.img", "detached /dev/loop7
 * (/var/tmp/x.img): ok", "mount /mnt/x: umount /mnt/x: ok", "md
 * /dev/md/rl-a: mdadm --stop /dev/md/rl-a: exit status 1: ...", and one
 * line per running process whose objects it left alone. Objects already
 * gone (never created) are undone silently. Each undone object is
 * released in its journal at once; a journal with nothing left is
 * removed, one with objects that could not be undone is kept. Returns 0,
 * -EIO when something could not be undone, -EPERM when the state
 * directory or a journal was refused, -EBUSY when another cleanup is
 * running, or the errno of reading the state directory; e filled.
 */
int statej_cleanup(bool force, void (*report)(void *arg, const char *line),
    void *arg, struct err *e);

/*
 * An undo command (a plan's teardown step, a journal's CMDS undo) that
 * failed only because what it undoes is gone already: a translated note
 * saying so, else NULL. Three cases: `btrfs device scan --forget` of a
 * one-device btrfs, which kernels before 6.5 or so drop at unmount (the
 * ioctl then says ENOENT), and `btrfs scrub cancel` and `btrfs replace
 * cancel` of a scrub or replace that has ended ("not running", "not
 * started").
 */
const char *
statej_undo_moot(const char *const *argv, int status, const char *output);

#endif
