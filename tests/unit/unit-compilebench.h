/*
 * Helpers of the compilebench tests, shared by the files of one test
 * program: test-wl-compilebench.c (where they live),
 * test-wl-compilebench-ops.c and test-wl-compilebench-plan.c.
 */
#ifndef RAIDLAB_UNIT_COMPILEBENCH_H
#define RAIDLAB_UNIT_COMPILEBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/tree.h"

#define TINY "files = 200; size = \"2M\"; "
#define TINY_FILES 200
#define TINY_BYTES (2u << 20)
/* compilebench-seq-o68-*: made for a data set of the tiny tree's size. */
#define TINY_OBJS 68
#define MAX_TREES 256
#define MIB 1048576.0

/* A tree as compilebench's rules leave it, replayed from the tests. */
struct mtree {
	unsigned name;
	bool live, patched, compiled; /* its state */
	bool src_patched, rest; /* sources patched; objs not in changed */
	int changed; /* 0 absent, 1 at objs' sizes, 2 at changed's */
};

/*
 * The lists, recomputed here from the generator: compilebench keeps only
 * the patched files whose size changes (and the new ones: p_new of
 * them), and of a patched build only the objects whose size differs from
 * the clean build's.
 */
struct model {
	struct tree clean, patch, objs, objs_patched;
	uint64_t *psize; /* clean's files at the patch's sizes */
	bool *in_changed; /* objs[i] differs in the patched build */
	uint64_t p_bytes, c_bytes, c_old_bytes, src_patched_bytes;
	size_t p_n, p_new, c_n;
	struct mtree t[MAX_TREES];
	size_t n;
};

/* The lists of the tiny tree, recomputed from the generator; no trees
   yet. */
void model_init(struct model *m);
void model_done(struct model *m);

#endif
