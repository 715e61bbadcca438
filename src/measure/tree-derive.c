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

/*
 * A changed file's new size, after compilebench's 2.6.20 -> 2.6.21 (its
 * data sets: of the 5526 files whose size changes, half change by under
 * 0.5%; the 10th and 90th percentiles of new / old are 0.975 and 1.079,
 * the 5th and 95th 0.93 and 1.15).
 */
static uint64_t
patch_size(uint64_t *rng, uint64_t s)
{
	uint32_t x = tree_below(rng, 100);

	if (x < 85) { /* an edit: within +-1%, or +-6% */
		uint64_t e = s * (x < 50 ? 1 : 6) / 100 + 1;
		uint64_t d = tree_rand(rng) % (2 * e + 1);

		s = s + d > e ? s + d - e : 1;
	} else if (x < 94) { /* grows 6-25% */
		s += s * (6 + tree_below(rng, 20)) / 100 + 1;
	} else if (x < 98) { /* shrinks 6-30% */
		s -= s * (6 + tree_below(rng, 25)) / 100;
	} else { /* rewritten: half to one and a half times */
		s = s / 2 + s * tree_below(rng, 3) / 2 + tree_below(rng, 4096);
	}
	return s ? s : 1;
}

/*
 * How likely a patch changes a file, by size: per 1000 files of 2^b to
 * 2^(b+1)-1 bytes (b = 19: anything larger), from compilebench's data
 * sets. 2.6.20 -> 2.6.21 changes 28% of the files but 47% of the bytes:
 * a large file has more lines to edit. The last class is 300, not 2.6.20's
 * 120 (1 file of 8): the generated tree holds more bytes in files over
 * 512K, and 300 brings the bytes changed to the same 47%.
 */
static const uint16_t patch_odds[20] = { 0, 0, 0, 0, 10, 20, 40, 100, 70, 70,
	110, 200, 280, 380, 490, 580, 610, 640, 430, 300 };

static unsigned
size_class(uint64_t s)
{
	unsigned b = 0;

	while (s > 1 && b < 19) {
		s >>= 1;
		b++;
	}
	return b;
}

/*
 * How many files of each size class to change, k in all: in proportion
 * to patch_odds[b] x the class's files; what rounding or a full class
 * leaves goes to the likeliest classes with room, so any k up to the
 * file count fits.
 */
static void
patch_quota(const size_t have[20], size_t k, size_t quota[20])
{
	uint64_t total = 0;
	size_t b, left = k;

	for (b = 0; b < 20; b++)
		total += (uint64_t)patch_odds[b] * have[b];
	for (b = 0; b < 20; b++) {
		quota[b] = total
		    ? (size_t)((uint64_t)k * patch_odds[b] * have[b] / total)
		    : 0;
		if (quota[b] > have[b])
			quota[b] = have[b];
		left -= quota[b];
	}
	while (left > 0) {
		size_t best = 20, add;

		for (b = 0; b < 20; b++)
			if (quota[b] < have[b] &&
			    (best == 20 || patch_odds[b] > patch_odds[best]))
				best = b;
		if (best == 20)
			break;
		add = have[best] - quota[best];
		add = add < left ? add : left;
		quota[best] += add;
		left -= add;
	}
}

/* Move k randomly chosen of the n indices in idx to its front. */
static void
pick(uint64_t *rng, uint32_t *idx, size_t n, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		size_t j = i + tree_below(rng, (uint32_t)(n - i));
		uint32_t tmp = idx[i];

		idx[i] = idx[j];
		idx[j] = tmp;
	}
}

/* A new file's size: compilebench's 610 have a median of 4 KB, a mean of 8. */
static uint64_t
new_size(uint64_t *rng)
{
	return tree_below(rng, 100) < 65 ? 256 + tree_below(rng, 6000)
					 : 6144 + tree_below(rng, 26000);
}

/*
 * A new file beside an existing one, named after it: "STEM_newN.EXT"
 * with N unique in the patch. The generator makes no "_new" name, so no
 * file or directory of the tree has it.
 */
static void
push_new(struct tree_lb *lb, const struct tree_file *f, unsigned n,
    uint64_t size)
{
	char path[TREE_PATH_MAX + 32];
	const char *base = strrchr(f->path, '/');
	const char *name = base ? base + 1 : f->path;
	const char *dot = strrchr(name, '.');
	int stem =
	    (int)((dot && dot != name ? dot : name + strlen(name)) - f->path);

	snprintf(path, sizeof path, "%.*s_new%u%s", stem, f->path, n,
	    f->path + stem);
	if (strlen(path) >= TREE_PATH_MAX) /* too long: a short name */
		snprintf(path, sizeof path, "%.*snew%u", (int)(name - f->path),
		    f->path, n);
	tree_lb_push(lb, path, size, 0644, f->dir, TREE_NO_SRC);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int
tree_patch(const struct tree *src, uint64_t seed, unsigned permille,
    struct tree *out)
{
	struct tree_lb lb;
	uint64_t rng = seed ^ 0x70617463ULL; /* "patc" */
	size_t have[20] = { 0 }, quota[20], at[20], k, knew, i, n = 0;
	uint32_t *idx;
	uint64_t *order; /* a file's index << 1, | 1 for a new one beside it */

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
	k = k ? k : 1;
	knew = k / 10;
	/* idx: the files of class 0, then those of class 1... */
	for (i = 0; i < src->nfiles; i++)
		have[size_class(src->files[i].size)]++;
	for (at[0] = 0, i = 1; i < 20; i++)
		at[i] = at[i - 1] + have[i - 1];
	idx = xmalloc(src->nfiles * sizeof *idx);
	for (i = 0; i < src->nfiles; i++)
		idx[at[size_class(src->files[i].size)]++] = (uint32_t)i;
	patch_quota(have, k - knew, quota);
	order = xmalloc(k * sizeof *order);
	for (i = 0, at[0] = 0; i < 20; at[0] += have[i++]) {
		pick(&rng, idx + at[0], have[i], quota[i]);
		for (size_t j = 0; j < quota[i]; j++)
			order[n++] = (uint64_t)idx[at[0] + j] << 1;
	}
	/* The new files: beside files drawn from the whole tree. */
	for (i = 0; i < src->nfiles; i++)
		idx[i] = (uint32_t)i;
	pick(&rng, idx, src->nfiles, knew);
	for (i = 0; i < knew; i++)
		order[n++] = (uint64_t)idx[i] << 1 | 1;
	qsort(order, n, sizeof *order, cmp_u64);
	for (i = 0; i < n; i++) {
		const struct tree_file *f = &src->files[order[i] >> 1];

		if (order[i] & 1)
			push_new(&lb, f, (unsigned)i, new_size(&rng));
		else
			tree_lb_push(&lb, f->path, patch_size(&rng, f->size),
			    f->mode, f->dir, (uint32_t)(order[i] >> 1));
	}
	free(order);
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
