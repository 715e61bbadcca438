/*
 * Internal to compilebench (wl-compilebench.c, wl-compilebench-ops.c,
 * wl-compilebench-plan.c): the data sets, the plan that chooses
 * operations exactly as compilebench 0.6 does, and the operation a
 * worker runs (its phases, one test each, are wl-keys.h's). The driver
 * thread owns struct cb and fills struct cb_op before each
 * wl_parallel(); the one worker reads them and writes only cb_op.bytes,
 * which the driver reads after the join.
 */
#ifndef RAIDLAB_WL_COMPILEBENCH_H
#define RAIDLAB_WL_COMPILEBENCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pyrand.h"
#include "result.h"
#include "tree.h"
#include "wl-keys.h"

struct wl_worker;

/* compilebench reads and writes with a buffer of this size (its -b). */
#define CB_READ_BUF (256 * 1024)
/* Writes of at most this many bytes (a file smaller is one write): 1 MiB
   writes made compile's 700 MB cost twice the CPU of 256 KiB ones. */
#define CB_WRITE_BUF (256 * 1024)
/* The directory walk keeps one getdents buffer per level. */
#define CB_WALK_DEPTH 32
#define CB_DENTS_BUF (32 * 1024)
/* create names a tree kernel-N, N drawn with randint(100, 100000). */
#define CB_NAME_MIN 100
#define CB_NAME_MAX 100000

/*
 * compilebench's four kinds of tree (its four dicts of directories), in
 * the order its delete, read and stat list them.
 */
enum cb_state {
	CB_ST_PATCHED,
	CB_ST_UNPATCHED,
	CB_ST_UNPATCHED_COMPILED,
	CB_ST_PATCHED_COMPILED,
	CB__STATES,
};

/* The list of files an operation writes or unlinks. */
enum cb_set {
	CB_SET_NONE, /* walks: whatever is on disk */
	CB_SET_SOURCES, /* create: the whole clean tree */
	CB_SET_PATCH, /* the sources the patch changes, new sizes */
	CB_SET_OBJS, /* a build of the clean tree, in shuffled order */
	CB_SET_OBJS_CHANGED, /* a build of the patched tree: only the
				objects that differ from OBJS, new sizes */
};

/* Where the objects named in OBJS_CHANGED stand on one tree. */
enum cb_changed {
	CB_CHANGED_NONE, /* absent */
	CB_CHANGED_OLD, /* at their OBJS sizes */
	CB_CHANGED_NEW, /* at their OBJS_CHANGED sizes */
};

/*
 * One tree, the directory DIR/kernel-NAME, and what it holds: compilebench
 * patches a compiled tree by writing OBJS_CHANGED (not the sources), and
 * its clean then leaves the rest of OBJS behind; raidlab does the same.
 */
struct cb_tree {
	unsigned name;
	enum cb_state state;
	bool live; /* not deleted (a deleted tree's empty root stays) */
	bool src_patched; /* sources at the patch's sizes */
	bool objs_rest; /* OBJS files not named in OBJS_CHANGED */
	enum cb_changed changed;
};

/*
 * The choices of one compilebench run: its random.Random(seed), its
 * trees and the four insertion-ordered lists it draws them from.
 */
struct cb_plan {
	struct pyrand rng;
	struct cb_tree *trees;
	size_t ntrees, cap;
	size_t *list[CB__STATES]; /* indices in trees[], oldest first */
	size_t nlist[CB__STATES];
	unsigned char *taken; /* names used by a directory, one bit each */
	size_t free_names; /* names left in [CB_NAME_MIN, CB_NAME_MAX] */
};

/* One operation as compilebench would run it next. */
struct cb_step {
	enum cb_phase phase;
	size_t tree; /* index in plan.trees */
	enum cb_set set;
	bool unlink; /* patch: unlink each file before writing it */
};

/* As compilebench's random.Random(seed), with no tree. */
void cb_plan_init(struct cb_plan *p, uint64_t seed);
void cb_plan_done(struct cb_plan *p);

/*
 * compilebench's first draws: the shuffle of the n objects of a clean
 * build (the order compile writes them in). order: n indices, permuted
 * in place; NULL to draw without keeping the order.
 */
void cb_plan_shuffle(struct cb_plan *p, uint32_t *order, size_t n);

/* An initial tree kernel-NAME, clean; its index in trees[]. */
size_t cb_plan_initial(struct cb_plan *p, unsigned name);

/*
 * compilebench's next draw: the operation (one of its seven), then the
 * tree and what the operation itself draws, with the tree's new state
 * applied to the plan. 0 and *s; -EAGAIN when the operation drawn finds
 * no tree (compilebench draws again, not counting a run); -ENOSPC when
 * create finds no free name (compilebench would loop forever).
 */
int cb_plan_next(struct cb_plan *p, struct cb_step *s);

/* What the lists below hold on disk, in WORKLOAD_BLOCKs. */
struct cb_blocks {
	uint64_t clean, patched; /* the sources */
	uint64_t rest; /* objs not named in changed */
	uint64_t old, now; /* changed_old, changed */
	size_t nobjs; /* objs' files: what compilebench shuffles */
};

/* The data sets, built once from the tree spec (prepare, dataset). */
struct cb_data {
	struct tree clean; /* the tree as untarred */
	struct tree patch; /* the sources the patch changes (new sizes) */
	struct tree patched; /* clean at the patch's sizes; borrows
				clean's paths: free files only */
	struct tree objs; /* a build of clean, in directory order */
	struct tree objs_patched; /* a build of patched */
	struct tree changed; /* objs_patched's files whose size differs
				from objs' (borrowed paths) */
	struct tree changed_old; /* the same files at their objs sizes */
	struct cb_blocks sum;
};

/* compilebench's 2.6.21 list rewrites 6136 of 2.6.20's 21280 files. */
#define CB_PATCH_PERMILLE 288

/*
 * Build d for a tree of files and bytes whose patch rewrites permille
 * per 1000 of the files; -EINVAL when bytes < files or permille > 1000.
 */
int cb_data_init(struct cb_data *d, uint32_t files, uint64_t bytes,
    unsigned permille);
void cb_data_done(struct cb_data *d);

/* The blocks tree t of the plan holds on disk (0 once deleted). */
uint64_t cb_tree_blocks(const struct cb_blocks *b, const struct cb_tree *t);

struct cb;

/* The operation the worker runs, filled by the driver. */
struct cb_op {
	struct cb *cb;
	enum cb_phase phase;
	const struct tree *set; /* the files it writes or unlinks */
	bool unlink; /* patch */
	bool sync; /* sync at the end (not initial create) */
	char root[PATH_MAX]; /* the tree's directory, for messages */
	char name[32]; /* its name in the run's directory (wl_run.dirfd) */
	char path[PATH_MAX]; /* the walk's directory, for messages */
	uint64_t bytes; /* written by the worker: data set bytes it
			   touched (MiB/s = bytes / 2^20 / wall) */
};

/* The run's state (r->priv). */
struct cb {
	struct cb_data d;
	struct tree objs_order; /* objs in compilebench's shuffled order
				   (borrowed paths: free files only) */
	struct cb_plan plan;
	bool sync;
	bool patch_read; /* a patch reads each file before rewriting it */
	char *wbuf; /* TREE_FILL_BYTE, wlen bytes */
	size_t wlen;
	char *rbuf; /* CB_READ_BUF */
	char *dents; /* CB_WALK_DEPTH x CB_DENTS_BUF */
	struct cb_op op;
};

/* Worker: run w->arg (a struct cb_op), then sync when op->sync. */
int cb_worker(struct wl_worker *w);

#endif
