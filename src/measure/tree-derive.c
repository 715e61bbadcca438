/*
 * Lists derived from a generated tree (tree.h): the files a patch
 * changes (tree_patch), the list builder tree-objects.c shares, and the
 * digest and size helpers. Deterministic in their inputs; integer
 * arithmetic only. Any thread (allocates).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tree-int.h"

void
tree_lb_init(struct tree_lb *lb, struct tree *t)
{
	memset(t, 0, sizeof *t);
	lb->t = t;
	lb->cap = 0;
	lb->off = NULL;
}

void
tree_lb_push(struct tree_lb *lb, const char *path, uint64_t size, uint32_t mode,
    uint32_t dir, uint32_t src)
{
	struct tree *t = lb->t;
	struct tree_file *f;

	if (t->nfiles == lb->cap) {
		lb->cap = lb->cap ? lb->cap * 2 : 1024;
		t->files = xreallocarray(t->files, lb->cap, sizeof *t->files);
		lb->off = xreallocarray(lb->off, lb->cap, sizeof *lb->off);
	}
	f = &t->files[t->nfiles];
	memset(f, 0, sizeof *f);
	f->size = size;
	f->mode = mode;
	f->dir = dir;
	f->src = src;
	lb->off[t->nfiles++] = tree_arena_add(t, path);
	t->bytes += size;
}

void
tree_lb_done(struct tree_lb *lb)
{
	size_t i;

	for (i = 0; i < lb->t->nfiles; i++)
		lb->t->files[i].path = lb->t->strings + lb->off[i];
	free(lb->off);
	lb->off = NULL;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* A changed file's new size: mostly small edits, a few rewrites. */
static uint64_t
patch_size(uint64_t *rng, uint64_t s)
{
	uint32_t x = tree_below(rng, 100);
	uint64_t d;

	if (x < 70) { /* within +-10% */
		d = s / 10 + 1;
		d = tree_rand(rng) % (2 * d + 1);
		s = s + d > s / 10 + 1 ? s + d - (s / 10 + 1) : 1;
	} else if (x < 85) { /* grows 10-50% */
		s += s * (10 + tree_below(rng, 41)) / 100 + 1;
	} else if (x < 95) { /* shrinks 10-50% */
		s -= s * (10 + tree_below(rng, 41)) / 100;
	} else { /* rewritten */
		s = s * (1 + tree_below(rng, 3)) + tree_below(rng, 4096);
	}
	return s ? s : 1;
}

int
tree_patch(const struct tree *src, uint64_t seed, unsigned permille,
    struct tree *out)
{
	struct tree_lb lb;
	uint64_t rng = seed ^ 0x70617463ULL; /* "patc" */
	uint32_t *idx;
	size_t k, i;

	if (permille > 1000) {
		memset(out, 0, sizeof *out);
		return -EINVAL;
	}
	if (permille == 0)
		permille = TREE_PATCH_PERMILLE;
	tree_lb_init(&lb, out);
	if (src->nfiles == 0) {
		tree_lb_done(&lb);
		return 0;
	}
	k = src->nfiles * permille / 1000;
	if (k == 0)
		k = 1;
	/* A partial Fisher-Yates shuffle picks k distinct files. */
	idx = xmalloc(src->nfiles * sizeof *idx);
	for (i = 0; i < src->nfiles; i++)
		idx[i] = (uint32_t)i;
	for (i = 0; i < k; i++) {
		size_t j = i + tree_below(&rng, (uint32_t)(src->nfiles - i));
		uint32_t tmp = idx[i];

		idx[i] = idx[j];
		idx[j] = tmp;
	}
	qsort(idx, k, sizeof *idx, cmp_u32);
	for (i = 0; i < k; i++) {
		const struct tree_file *f = &src->files[idx[i]];

		tree_lb_push(&lb, f->path, patch_size(&rng, f->size), f->mode,
		    f->dir, idx[i]);
	}
	free(idx);
	tree_lb_done(&lb);
	return 0;
}

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* A number as 8 little-endian bytes: the same digest on every host. */
static uint64_t
fnv_u64(uint64_t h, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return fnv(h, b, sizeof b);
}

uint64_t
tree_digest(const struct tree *t)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < t->ndirs; i++) {
		h = fnv(h, t->dirs[i].path, strlen(t->dirs[i].path) + 1);
		h = fnv_u64(h, t->dirs[i].mode);
	}
	for (i = 0; i < t->nfiles; i++) {
		h = fnv(h, t->files[i].path, strlen(t->files[i].path) + 1);
		h = fnv_u64(h, t->files[i].size);
		h = fnv_u64(h, t->files[i].mode);
	}
	for (i = 0; i < t->nlinks; i++) {
		h = fnv_u64(h, t->links[i].type);
		h = fnv(h, t->links[i].path, strlen(t->links[i].path) + 1);
		h = fnv(h, t->links[i].target, strlen(t->links[i].target) + 1);
	}
	return h;
}

uint64_t
tree_max_size(const struct tree *t)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < t->nfiles; i++)
		if (t->files[i].size > m)
			m = t->files[i].size;
	return m;
}
