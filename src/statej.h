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
 * the pid it identifies the process even after its pid is reused.
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
			unlink, unless a loop device still has it as its
			backing file */
	STATEJ_DIR, /* a directory (mount point): undo = rmdir (only if
		       empty) */
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
};

struct statej;

/*
 * The state directory: $RAIDLAB_STATE_DIR when set and not empty, else
 * STATEJ_DIR_DEFAULT. Borrowed.
 */
const char *statej_dir(void);

/*
 * Open this process's journal, creating the state directory (0700) and
 * DIR/PID.journal (0600). A journal left at that name by a dead process
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
 * process is gone, newest object first; with force, also of running
 * processes (never this process's own journal). A process counts as
 * running when its pid exists, is not a zombie, and has the start time
 * the journal recorded (journals without one: /proc/PID/exe is a raidlab
 * binary, or the binary that wrote the journal), or when it still holds
 * the journal's lock. Before a CMDS object's commands run, each path
 * they name is judged (ident_judge()): a path that is gone, or emptied,
 * is moot; one that is something else now, or not provably the run's,
 * is left alone with a line saying why; a command left with none of its
 * paths does not run. An object whose every path is settled that way is
 * released: the things it named are gone. report (may be NULL) gets one
 * translated line per action: "removed /var/tmp/x.img", "detached /dev/loop7
 * (/var/tmp/x.img): ok", "mount /mnt/x: umount /mnt/x: ok", "md
 * /dev/md/rl-a: mdadm --stop /dev/md/rl-a: exit status 1: ...", and one
 * line per running process whose objects it left alone. Objects already
 * gone (never created) are undone silently. Each undone object is
 * released in its journal at once; a journal with nothing left is
 * removed, one with objects that could not be undone is kept. Returns 0,
 * -EIO when something could not be undone, -EBUSY when another cleanup is
 * running, or the errno of reading the state directory; e filled.
 */
int statej_cleanup(bool force, void (*report)(void *arg, const char *line),
    void *arg, struct err *e);

#endif
