/*
 * Internal to the tree module (tree.c, tree-links.c, tree-derive.c,
 * tree-create.c): the integer PRNG and arithmetic the generation is built
 * on, the generator's state, and the list builder the derived lists
 * share. Any thread.
 */
#ifndef RAIDLAB_TREE_INT_H
#define RAIDLAB_TREE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tree.h"

/* splitmix64: the next number of the stream in *state. */
uint64_t tree_rand(uint64_t *state);
/* Uniform in [0, n), n >= 1. */
uint32_t tree_below(uint64_t *state, uint32_t n);
/* a * b / c exactly (no 64-bit overflow), with c > 0 and a <= c. */
uint64_t tree_muldiv(uint64_t a, uint64_t b, uint64_t c);

/* Builds a derived list: files are pushed, then the paths are set. */
struct tree_lb {
	struct tree *t;
	size_t cap;
	size_t *off; /* arena offset of each file's path */
};

void tree_lb_init(struct tree_lb *lb, struct tree *t);
/* Append a file; path is copied into t's arena. */
void tree_lb_push(struct tree_lb *lb, const char *path, uint64_t size,
    uint32_t mode, uint32_t dir, uint32_t src);
/* Point every files[].path into the arena, and free the builder. */
void tree_lb_done(struct tree_lb *lb);

/* Copy s into t's arena; returns its offset. */
size_t tree_arena_add(struct tree *t, const char *s);

/* What a template directory holds. */
enum tree_kind {
	K_ROOT, /* the top: COPYING, MAINTAINERS... */
	K_SRC, /* .c, .h, Makefile, Kconfig */
	K_ARCH, /* K_SRC plus .S */
	K_HDR, /* .h only */
	K_DOC, /* text, most without an extension */
	K_CONF, /* NAME_defconfig */
	K_SCRIPT, /* .c, .sh, .pl (0755 for scripts) */
};

#define F_SPLIT 1 /* may grow generated subdirectories */
#define F_FLAT 2 /* may not, however many files it has */
#define F_DEEP 4 /* grows them narrow, down to the deepest level */
#define F_TOP 8 /* (tree.c) a template directory, not a generated one */

/* A directory of the template, with its weight. */
struct tree_node {
	char path[96]; /* under linux/ */
	uint32_t parent; /* TREE_NO_SRC for a top-level one */
	uint32_t own; /* files of its own (weight) */
	uint64_t sub; /* own + the children's sub */
	uint8_t kind, flags;
	const char *prefix; /* of its generated subdirectories */
};

struct tree_nodes {
	struct tree_node *v;
	size_t n, cap;
};

/*
 * The template as nodes (tree-template.c): the root first, a parent
 * before its children; sub computed. Free tn->v.
 */
void tree_template(struct tree_nodes *tn);

/* Syllables of generated names ("ehci-hcd", "cx88_core", "saa7134"). */
extern const char *const tree_stems[];
extern const size_t tree_nstems;

/* The generator's state while it builds a tree (tree.c). */
struct tree_builder {
	struct tree *t;
	uint64_t rng;
	struct tree_nodes tn;
	size_t cap_dirs, cap_files;
	size_t *dir_off, *file_off; /* paths, as arena offsets */
	size_t *link_off, *target_off; /* the links' paths and targets */
	uint64_t *raw; /* drawn sizes, before scaling */
	uint32_t draws; /* of size_draw() so far */
	size_t *hash; /* arena offset + 1; 0 = free */
	size_t hash_cap, hash_n;
};

/*
 * Add to t's arena a path made of dir + "/" + name + ext that no file,
 * directory or link has yet (on a clash, a number goes before ext:
 * "ide-cd2.c"); returns its offset.
 */
size_t tree_path_unique(struct tree_builder *b, const char *dir,
    const char *name, const char *ext);

/*
 * Add nsym symlinks and nhard hard links (tree-links.c) to b's tree, once
 * its directories and files are all there: t->links in directory order,
 * their paths and targets in b->link_off and b->target_off (the arena
 * moves while it grows: tree_generate() points them at the end).
 */
void tree_links(struct tree_builder *b, uint32_t nsym, uint32_t nhard);

/* FNV-1a of s: the builder's path table and the object model's per-path
   choices hash alike. */
uint64_t tree_hash_str(const char *s);

#endif
