/*
 * Internal to compilebench (wl-compilebench.c, wl-compilebench-ops.c):
 * the phases, the state of the trees, and the operation a worker runs.
 * The driver thread owns struct cb and fills struct cb_op before each
 * wl_parallel(); the one worker reads them and writes only cb_op.bytes,
 * which the driver reads after the join.
 */
#ifndef RAIDLAB_WL_COMPILEBENCH_H
#define RAIDLAB_WL_COMPILEBENCH_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "result.h"
#include "tree.h"

struct wl_worker;

/* compilebench reads every file with a buffer of this size. */
#define CB_READ_BUF (256 * 1024)
/* Writes of at most this many bytes (a file smaller is one write). */
#define CB_WRITE_BUF (1024 * 1024)
/* The directory walk keeps one getdents buffer per level. */
#define CB_DENTS_BUF (32 * 1024)
#define CB_WALK_DEPTH 32

/* One test per operation; the key names its phase. */
enum cb_phase {
	CB_INITIAL,
	CB_CREATE,
	CB_PATCH,
	CB_COMPILE,
	CB_CLEAN,
	CB_READ_TREE,
	CB_READ_COMPILED,
	CB_DELETE_TREE,
	CB_DELETE_COMPILED,
	CB_STAT_TREE,
	CB_STAT_COMPILED,
	CB__COUNT,
};

/* The tree an operation needs. */
enum cb_need {
	CB_NEED_NONE, /* makes a new one */
	CB_NEED_CLEAN, /* a tree not compiled */
	CB_NEED_COMPILED,
};

struct cb_phase_info {
	const char *key; /* the test's key: "read_compiled" */
	const char *name; /* compilebench's words: "read compiled tree" */
	enum wl_unit unit; /* MB/s, or seconds for delete and stat */
	enum cb_need need;
};

extern const struct cb_phase_info cb_phases[CB__COUNT];

/* One kernel tree, the directory DIR/treeID. */
struct cb_tree {
	unsigned id;
	bool live; /* created and not deleted */
	bool compiled; /* holds its objects */
	bool patched; /* holds the patched sources */
};

struct cb;

/* The operation the worker runs, filled by the driver. */
struct cb_op {
	struct cb *cb;
	enum cb_phase phase;
	const struct cb_tree *tree;
	uint64_t seed; /* patch: which files are unlinked first */
	char root[PATH_MAX]; /* the tree's directory */
	char path[PATH_MAX]; /* the walk's directory, for messages */
	uint64_t bytes; /* written by the worker: data set bytes it
			   touched (MB/s = bytes / wall) */
};

/* The run's state (r->priv). */
struct cb {
	struct tree clean; /* the tree as untarred */
	struct tree patch; /* the files a patch changes, new sizes */
	struct tree patched; /* clean with the patch applied; shares
				clean's paths and dirs: free files only */
	struct tree objs; /* what a build of clean adds */
	struct tree objs_patched; /* what a build of patched adds */
	struct cb_tree *trees;
	size_t ntrees, cap;
	bool sync;
	uint64_t rng; /* the operations' random sequence */
	char *wbuf; /* TREE_FILL_BYTE, wlen bytes */
	size_t wlen;
	char *rbuf; /* CB_READ_BUF */
	char *dents; /* CB_WALK_DEPTH x CB_DENTS_BUF */
	struct cb_op op;
};

/* The sources of t as they are now, and the objects a build adds. */
const struct tree *cb_sources(const struct cb *cb, const struct cb_tree *t);
const struct tree *cb_objects(const struct cb *cb, const struct cb_tree *t);

/* Worker: run w->arg (a struct cb_op), then sync when cb->sync. */
int cb_worker(struct wl_worker *w);

#endif
