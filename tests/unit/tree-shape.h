/*
 * Test helpers for the synthetic tree (tree.h): a tree's entries as tar
 * lists them, from a list or from a tarball, and their shape in the
 * definitions of bench/tree-stats.sh, with the ranges src/measure/tree.c states
 * for the default tree (the real tree's figure, the bounds). Any failure
 * fails the test.
 */
#ifndef RAIDLAB_TEST_TREE_SHAPE_H
#define RAIDLAB_TEST_TREE_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "measure/tree.h"

struct entry {
	char type; /* 'd', '-', 'l' (symlink), 'h' (hard link) */
	char *path; /* no trailing '/' */
	uint64_t size;
	uint32_t mode;
};

struct shape {
	struct entry *v;
	size_t n, cap;
};

/* Append an entry (path copied, a trailing '/' dropped). */
void shape_add(struct shape *s, char type, const char *path, uint64_t size,
    uint32_t mode);
void shape_free(struct shape *s);

/*
 * The entries of t in tar's listing order: a directory, its files, its
 * links (a hard link with its file's mode, a symlink 0777).
 */
void shape_of_tree(struct shape *s, const struct tree *t);

/*
 * The entries of the tarball at path in its order, each regular file's
 * size counted from its data (every byte checked to be TREE_FILL_BYTE);
 * a link's target follows it as an entry of type '>'.
 */
void shape_of_tarball(struct shape *s, const char *path);

/* The figures, all as doubles so that one table bounds them. */
struct figures {
	double symlink_per_10k, empty_pct, exec_pct;
	double depth_max, dirs_deep_pct, files_deep_pct;
	double p10, p25, p75, p90, p99, mean; /* over the median size */
	double fpd_mean, fpd_p50, fpd_p90, fpd_p99, no_files_pct;
	double leaves_pct, spd_p90, spd_p99;
	double path_max;
};

/* The figures of s ('>' entries ignored). */
void figures_of(const struct shape *s, struct figures *f);

/* Expect every figure within src/measure/tree.c's range; what names the
   source. */
void figures_check(const struct figures *f, const char *what);

#endif
