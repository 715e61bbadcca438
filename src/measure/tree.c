/*
 * Generation of the synthetic kernel-like tree (tree.h). A template of
 * the top of a 2.6.20 tree (its directories, with roughly their real file
 * counts as weights, and a few later, deeper areas) is scaled to the file
 * count asked for; directories that get many files grow generated
 * subdirectories (a few large ones that split again, many small ones),
 * down to MAX_DEPTH, or in narrow chains down to DEEP_DEPTH under an
 * F_DEEP node. File sizes come from the real tree's power-of-two
 * histogram, then are scaled so that they add up to the size asked for
 * exactly; then come the empty files and the links (tree-links.c). Only
 * integer arithmetic and our own PRNG: the list is the same on every
 * machine. Any thread (allocates).
 *
 * The shape is the one measured on Debian's linux-source-6.1 tarball
 * (bench/tree-stats.sh: 5096 dirs, 78579 files, 56 symlinks, no hard
 * link, 1.30 GB), kept at any size: shares are of the files, sizes are
 * over the median. tests/unit/test-tree.c holds the default tree (20000
 * files, 240 MiB, seed 2620), from its list and from its tarball, to:
 *
 *   figure                          6.1     held to        default
 *   symlinks per 10k files          7.1     6.0 .. 8.5     7.5
 *   hard links                      0       ceil(files/10^4), exactly: 2
 *   empty files, % of files         0.04    0.02 .. 0.06   0.04
 *   executable files, %             1.04    0.80 .. 1.30   1.03
 *   deepest entry (linux/ is 1)     11      10 .. 12       11
 *   dirs at depth >= 10, %          1.10    0.60 .. 1.80   1.26
 *   files at depth >= 10, %         0.94    0.50 .. 1.50   1.04
 *   file size p10/p50               0.115   0.092 .. 0.138 0.125
 *             p25/p50               0.330   0.264 .. 0.396 0.361
 *             p75/p50               2.95    2.50 .. 3.39   3.17
 *             p90/p50               7.42    6.31 .. 8.54   7.38
 *             p99/p50               32.2    27.4 .. 37.1   32.2
 *             mean/p50              4.27    3.63 .. 4.91   4.13
 *   files per dir, mean             15.4    11.6 .. 19.3   15.7
 *                  p50              6       4 .. 9         8
 *                  p90              32      24 .. 40       30
 *                  p99              156     100 .. 250     131
 *   dirs without files, %           6.3     1.5 .. 12      2.8
 *   dirs without subdirs, %         78.9    70 .. 88       77.4
 *   subdirs per dir p90             2       1 .. 4         3
 *                   p99             22      10 .. 35       13
 *   longest path, bytes             117     48 .. 255      87
 *
 * Exact by construction: symlinks = ceil(files * 71 / 10^5), empty files
 * = floor(files * 39 / 10^5) (so bytes >= files - empty), hard links as
 * above; the size total. Not matched: the middle depths (6.1 has 48% of
 * its files at depth 6-9, this tree 19%: 2.6.20's template is shallower),
 * the largest directories (6.1: 2541 files, 137 subdirectories; here 763
 * and 35) and the largest file (6.1: 23 MB, 1 in 78579; 20000 files
 * rarely draw one). The real tree has no hard link (git archive makes
 * none); the few here are there so that extractors take that path too.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tree-int.h"

#define ROOT_NAME "linux"
#define MAX_DEPTH 8 /* of a directory; linux/ is 1 */
#define DEEP_DEPTH 10 /* of one grown under an F_DEEP node */
#define SPLIT_OVER 32 /* a dir with more own files may split */
#define GEN_MAX 64 /* generated subdirectories of one directory */
#define GEN_SMALL 16 /* bound of a small generated subdirectory's files */
#define NAME_MAX_LEN 40
/* The closed forms of tree_spec_*(): see the top comment. */
#define EMPTY_PER_100K 39
#define SYMLINK_PER_100K 71
#define HARDLINK_PER_100K 10

/* splitmix64: one integer stream for the whole generation. */
uint64_t
tree_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1 (multiply-shift on the high 32 bits). */
uint32_t
tree_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((tree_rand(state) >> 32) * (uint64_t)n) >> 32);
}

/* a * b / c, exact, with c > 0 and a <= c (the result fits). */
uint64_t
tree_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)((unsigned __int128)a * b / c);
#else
	uint64_t hi, lo, q = 0, r = 0;
	uint64_t a0 = a & 0xffffffffU, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffffU, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffU) + (p10 & 0xffffffffU);
	int i;

	lo = (mid << 32) | (p00 & 0xffffffffU);
	hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	for (i = 127; i >= 0; i--) {
		uint64_t bit = i >= 64 ? (hi >> (i - 64)) & 1 : (lo >> i) & 1;
		int carry = (r >> 63) != 0;

		r = (r << 1) | bit;
		if (carry || r >= c) {
			r -= c;
			if (i < 64)
				q |= 1ULL << i;
		}
	}
	return q;
#endif
}

/* ---------------------------------------------------------------- paths */

size_t
tree_arena_add(struct tree *t, const char *s)
{
	size_t len = strlen(s) + 1, off;

	if (t->strings_len + len > t->strings_cap) {
		size_t cap = t->strings_cap ? t->strings_cap : 65536;

		while (cap < t->strings_len + len)
			cap *= 2;
		t->strings = xrealloc(t->strings, cap);
		t->strings_cap = cap;
	}
	off = t->strings_len;
	memcpy(t->strings + off, s, len);
	t->strings_len += len;
	return off;
}

uint64_t
tree_hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static void hash_put(struct tree_builder *b, size_t off);

static void
hash_grow(struct tree_builder *b)
{
	size_t *old = b->hash, cap = b->hash_cap, i;

	b->hash_cap = cap ? cap * 2 : 4096;
	b->hash = xcalloc(b->hash_cap, sizeof *b->hash);
	b->hash_n = 0;
	for (i = 0; i < cap; i++)
		if (old[i])
			hash_put(b, old[i] - 1);
	free(old);
}

/* The slot of path s: where it is, or the free slot it would go to. */
static size_t
hash_find(const struct tree_builder *b, const char *s)
{
	size_t mask = b->hash_cap - 1, i = (size_t)tree_hash_str(s) & mask;

	while (b->hash[i] && strcmp(b->t->strings + b->hash[i] - 1, s) != 0)
		i = (i + 1) & mask;
	return i;
}

static void
hash_put(struct tree_builder *b, size_t off)
{
	size_t i;

	if ((b->hash_n + 1) * 2 > b->hash_cap)
		hash_grow(b);
	i = hash_find(b, b->t->strings + off);
	if (!b->hash[i]) {
		b->hash[i] = off + 1;
		b->hash_n++;
	}
}

static bool
hash_has(const struct tree_builder *b, const char *s)
{
	return b->hash_cap && b->hash[hash_find(b, s)] != 0;
}

size_t
tree_path_unique(struct tree_builder *b, const char *dir, const char *name,
    const char *ext)
{
	char p[TREE_PATH_MAX + 32];
	unsigned n;
	size_t off;

	snprintf(p, sizeof p, "%s/%s%s", dir, name, ext);
	for (n = 2; hash_has(b, p); n++)
		snprintf(p, sizeof p, "%s/%s%u%s", dir, name, n, ext);
	off = tree_arena_add(b->t, p);
	hash_put(b, off);
	return off;
}

/* A generated name: "stem", "stem_stem", "stem-stem", "stem42". */
static void
name_gen(struct tree_builder *b, char *out, size_t len)
{
	const char *s1 = tree_stems[tree_below(&b->rng, (uint32_t)tree_nstems)];
	const char *s2 = tree_stems[tree_below(&b->rng, (uint32_t)tree_nstems)];
	uint32_t form = tree_below(&b->rng, 20);

	if (form < 5)
		snprintf(out, len, "%s_%s", s1, s2);
	else if (form < 8)
		snprintf(out, len, "%s-%s", s1, s2);
	else if (form < 11)
		snprintf(out, len, "%s%u", s1, 1 + tree_below(&b->rng, 999));
	else
		snprintf(out, len, "%s", s1);
}

/* ---------------------------------------------------------------- sizes */

/*
 * Per 100000 non-empty files: the share of sizes in [2^k, 2^(k+1)) for
 * k = 2..24 (4 B .. 32 MiB), linux-source-6.1's (the top comment). The
 * drawn sizes are scaled to the spec's total afterwards: the shape (a
 * quantile over the median) is kept, whatever the total.
 */
#define SIZE_K0 2
static const uint16_t size_table[] = {
	3,
	65,
	178,
	500,
	1254,
	3012,
	6477,
	9552,
	14032,
	16268,
	16405,
	14022,
	9746,
	5384,
	2194,
	573,
	164,
	65,
	56,
	14,
	24,
	11,
	1,
};
#define SIZE_BUCKETS (sizeof size_table / sizeof size_table[0])

/*
 * A size from the table: a bucket, then uniform within it. The bucket
 * comes from a Weyl sequence (the n-th draw: n * 2^32 / phi, mod 2^32),
 * not the stream: the buckets' shares are met within a file or two at
 * any count, so the few huge files that make much of the mean are there
 * in their share, not by luck.
 */
static uint64_t
size_draw(struct tree_builder *b)
{
	uint32_t total = 0, x, acc = 0;
	unsigned k;

	for (k = 0; k < SIZE_BUCKETS; k++)
		total += size_table[k];
	x = (uint32_t)((((uint64_t)(uint32_t)(b->draws++ * 2654435769U)) *
			   total) >>
	    32);
	for (k = 0; k < SIZE_BUCKETS - 1; k++) {
		acc += size_table[k];
		if (x < acc)
			break;
	}
	return (1ULL << (k + SIZE_K0)) +
	    tree_below(&b->rng, 1U << (k + SIZE_K0));
}

/* Uniform in [lo, hi). */
static uint64_t
size_range(struct tree_builder *b, uint32_t lo, uint32_t hi)
{
	return lo + tree_below(&b->rng, hi - lo);
}

/* ---------------------------------------------------------------- lists */

static uint32_t
dir_add(struct tree_builder *b, size_t off, uint32_t parent, uint16_t depth)
{
	struct tree *t = b->t;
	struct tree_dir *d;

	if (t->ndirs == b->cap_dirs) {
		b->cap_dirs = b->cap_dirs ? b->cap_dirs * 2 : 256;
		t->dirs = xreallocarray(t->dirs, b->cap_dirs, sizeof *t->dirs);
		b->dir_off =
		    xreallocarray(b->dir_off, b->cap_dirs, sizeof *b->dir_off);
	}
	d = &t->dirs[t->ndirs];
	memset(d, 0, sizeof *d);
	d->parent = parent;
	d->mode = 0755;
	d->depth = depth;
	b->dir_off[t->ndirs] = off;
	return (uint32_t)t->ndirs++;
}

static void
file_add(struct tree_builder *b, size_t off, uint32_t dir, uint64_t raw,
    uint32_t mode)
{
	struct tree *t = b->t;
	struct tree_file *f;

	if (t->nfiles == b->cap_files) {
		b->cap_files = b->cap_files ? b->cap_files * 2 : 1024;
		t->files =
		    xreallocarray(t->files, b->cap_files, sizeof *t->files);
		b->file_off = xreallocarray(b->file_off, b->cap_files,
		    sizeof *b->file_off);
		b->raw = xreallocarray(b->raw, b->cap_files, sizeof *b->raw);
	}
	f = &t->files[t->nfiles];
	memset(f, 0, sizeof *f);
	f->mode = mode;
	f->dir = dir;
	f->src = (uint32_t)t->nfiles;
	b->file_off[t->nfiles] = off;
	b->raw[t->nfiles] = raw;
	t->nfiles++;
}

/* The top-level files, then generated ones if more are asked for. */
static const struct {
	const char *name;
	uint32_t size;
} root_files[] = {
	{ "COPYING", 18693 },
	{ "CREDITS", 89536 },
	{ "Kbuild", 2132 },
	{ "MAINTAINERS", 92150 },
	{ "Makefile", 51642 },
	{ "README", 16930 },
	{ "REPORTING-BUGS", 3216 },
};

/* File i of n of a directory of the given kind. */
static void
file_gen(struct tree_builder *b, uint32_t dir, uint8_t kind, uint32_t i,
    uint32_t n)
{
	const char *dpath = b->t->strings + b->dir_off[dir];
	char name[NAME_MAX_LEN];
	const char *ext = "";
	uint64_t raw;
	uint32_t mode = 0644, x;

	if (kind == K_ROOT && i < sizeof root_files / sizeof root_files[0]) {
		file_add(b, tree_path_unique(b, dpath, root_files[i].name, ""),
		    dir, root_files[i].size, mode);
		return;
	}
	if ((kind == K_SRC || kind == K_ARCH || kind == K_SCRIPT) && n >= 2 &&
	    i < 2) {
		if (i == 0) {
			file_add(b, tree_path_unique(b, dpath, "Makefile", ""),
			    dir, size_range(b, 300, 4000), mode);
			return;
		}
		if (n >= 4) {
			file_add(b, tree_path_unique(b, dpath, "Kconfig", ""),
			    dir, size_range(b, 1000, 16000), mode);
			return;
		}
	}
	name_gen(b, name, sizeof name);
	x = tree_below(&b->rng, 100);
	raw = size_draw(b);
	switch (kind) {
	case K_DOC:
		ext = x < 45 ? ".txt" : x < 70 ? ".rst" : "";
		break;
	case K_CONF:
		ext = "_defconfig";
		raw = size_range(b, 8000, 32000);
		break;
	case K_HDR:
		ext = ".h";
		break;
	case K_SCRIPT:
		/* Scripts are executable, as in scripts/ and selftests/. */
		ext = x < 35 ? ".c"
		    : x < 45 ? ".h"
		    : x < 80 ? ".sh"
		    : x < 90 ? ".pl"
			     : ".py";
		if (x >= 45)
			mode = 0755;
		break;
	default: /* K_SRC, K_ARCH, K_ROOT */
		if (kind == K_ARCH && x < 10)
			ext = ".S";
		else
			ext = x < 70 ? ".c" : ".h";
		break;
	}
	file_add(b, tree_path_unique(b, dpath, name, ext), dir, raw, mode);
}

/* ---------------------------------------------------------------- shape */

/*
 * Share n among k parts of weights w (largest remainder, ties to the
 * lower index): out[] adds up to n exactly.
 */
static void
split(uint64_t n, const uint64_t *w, size_t k, uint64_t *out)
{
	uint64_t total = 0, given = 0;
	size_t i;

	for (i = 0; i < k; i++)
		total += w[i];
	if (total == 0) {
		memset(out, 0, k * sizeof *out);
		if (k)
			out[0] = n;
		return;
	}
	for (i = 0; i < k; i++) {
		out[i] = n * w[i] / total;
		given += out[i];
	}
	while (given < n) {
		size_t best = 0;
		uint64_t rem = 0;
		bool found = false;

		for (i = 0; i < k; i++) {
			uint64_t r = n * w[i] % total;

			/* One extra per part: skip those that had theirs. */
			if (out[i] * total > n * w[i])
				continue;
			if (!found || r > rem) {
				best = i;
				rem = r;
				found = true;
			}
		}
		if (!found)
			best = 0;
		out[best]++;
		given++;
	}
}

static void emit_gen(struct tree_builder *b, uint32_t parent, uint8_t kind,
    uint8_t flags, const char *prefix, uint64_t n);

static uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/*
 * The files of directory dir: own of them here, and when there are many
 * and depth allows, part of them in generated subdirectories. A template
 * directory keeps 30-70%; a generated one keeps none (3 in 8, as
 * drivers/net/ethernet does), 25-60% (3 in 8) or 85-99% (the large
 * directories of the tail). Under F_DEEP most go down, into narrow
 * chains that reach DEEP_DEPTH.
 */
static void
emit_files(struct tree_builder *b, uint32_t dir, uint8_t kind, uint8_t flags,
    const char *prefix, uint64_t own)
{
	unsigned maxd = flags & F_DEEP ? DEEP_DEPTH : MAX_DEPTH;
	uint64_t here = own, i;
	uint32_t x;

	if (!(flags & F_FLAT) && kind != K_CONF &&
	    (kind != K_DOC || (flags & (F_SPLIT | F_DEEP))) &&
	    own > (flags & F_DEEP ? SPLIT_OVER / 4 : SPLIT_OVER) &&
	    b->t->dirs[dir].depth < maxd) {
		if (flags & F_DEEP)
			here = own * (10 + tree_below(&b->rng, 21)) / 100;
		else if (flags & F_TOP)
			here = own * (30 + tree_below(&b->rng, 41)) / 100;
		else if ((x = tree_below(&b->rng, 8)) < 3)
			here = 0;
		else if (x < 6)
			here = own * (25 + tree_below(&b->rng, 36)) / 100;
		else
			here = own * (85 + tree_below(&b->rng, 15)) / 100;
	}
	for (i = 0; i < here; i++)
		file_gen(b, dir, kind, (uint32_t)i, (uint32_t)here);
	if (here < own)
		emit_gen(b, dir, kind, flags & (F_DEEP | F_SPLIT), prefix,
		    own - here);
}

/*
 * Generated subdirectories of parent holding n files in all: many small,
 * a few large that split again (at most GEN_MAX: the last takes what is
 * left); under F_DEEP, two or three of about even shares.
 */
static void
emit_gen(struct tree_builder *b, uint32_t parent, uint8_t kind, uint8_t flags,
    const char *prefix, uint64_t n)
{
	uint64_t w[GEN_MAX], out[GEN_MAX], left = n;
	size_t k = 0, i;
	char name[NAME_MAX_LEN + 16], base[NAME_MAX_LEN];

	if (flags & F_DEEP) {
		/* Narrow: two or three shares of even weight. */
		k = n > 3 * SPLIT_OVER / 4 ? 3 : 2;
		for (i = 0; i < k; i++)
			w[i] = 2 + tree_below(&b->rng, 3);
		split(n, w, k, out);
	} else {
		/*
		 * Sizes drawn one by one: three in four small (skewed to a
		 * few files: the min of two uniform draws up to GEN_SMALL),
		 * the rest large enough to split again.
		 */
		while (left > 0 && k < GEN_MAX) {
			uint64_t c;

			if (tree_below(&b->rng, 4) < 3)
				c = 1 +
				    (uint64_t)min_u32(tree_below(&b->rng,
							  GEN_SMALL),
					tree_below(&b->rng, GEN_SMALL));
			else
				c = GEN_SMALL +
				    tree_below(&b->rng, 3 * SPLIT_OVER);
			if (c > left || k == GEN_MAX - 1)
				c = left;
			out[k++] = c;
			left -= c;
		}
	}
	for (i = 0; i < k; i++) {
		const char *ppath = b->t->strings + b->dir_off[parent];
		uint16_t depth = (uint16_t)(b->t->dirs[parent].depth + 1);
		uint32_t d;

		if (out[i] == 0)
			continue;
		name_gen(b, base, sizeof base);
		snprintf(name, sizeof name, "%s%s", prefix, base);
		d = dir_add(b, tree_path_unique(b, ppath, name, ""), parent,
		    depth);
		emit_files(b, d, kind,
		    (flags & F_DEEP)                          ? F_DEEP
			: kind == K_DOC && !(flags & F_SPLIT) ? 0
							      : F_SPLIT,
		    "", out[i]);
	}
}

/* Template node idx, its directory at off, with n files in its subtree. */
static void
emit_node(struct tree_builder *b, size_t idx, uint32_t parent, size_t off,
    uint64_t n)
{
	const struct tree_node *nd = &b->tn.v[idx];
	size_t kids[64], nk = 0, i;
	size_t koff[64];
	uint64_t w[65], out[65];
	uint32_t dir;

	dir = dir_add(b, off, parent,
	    (uint16_t)(parent == TREE_NO_SRC ? 1
					     : b->t->dirs[parent].depth + 1));
	w[0] = nd->own;
	for (i = idx + 1; i < b->tn.n && nk < 64; i++)
		if (b->tn.v[i].parent == idx) {
			kids[nk] = i;
			w[++nk] = b->tn.v[i].sub;
		}
	split(n, w, nk + 1, out);
	/* Reserve the children's names before the files take theirs. */
	for (i = 0; i < nk; i++) {
		char p[TREE_PATH_MAX];

		koff[i] = 0;
		if (out[i + 1] == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", ROOT_NAME,
		    b->tn.v[kids[i]].path);
		koff[i] = tree_arena_add(b->t, p);
		hash_put(b, koff[i]);
	}
	emit_files(b, dir, nd->kind, nd->flags | F_TOP, nd->prefix, out[0]);
	for (i = 0; i < nk; i++)
		if (out[i + 1] > 0)
			emit_node(b, kids[i], dir, koff[i], out[i + 1]);
}

/*
 * The empty files: evenly spread over the list from a drawn start (the
 * stride is at least 2564 files, so they are distinct). Their raw size
 * becomes 0; sizes_scale() keeps it.
 */
static void
empties_mark(struct tree_builder *b, uint32_t n)
{
	size_t nf = b->t->nfiles, i, start;

	if (n == 0)
		return;
	start = tree_below(&b->rng, (uint32_t)(nf / n));
	for (i = 0; i < n; i++)
		b->raw[start + i * nf / n] = 0;
}

/*
 * Scale the drawn sizes so that they add up to bytes: each non-empty file
 * gets one byte, and the rest is shared in proportion to the drawn sizes
 * (cumulative, so that the rounding never drifts).
 */
static void
sizes_scale(struct tree_builder *b, uint64_t bytes, uint32_t empties)
{
	struct tree *t = b->t;
	uint64_t total = 0, acc = 0, prev = 0;
	uint64_t extra = bytes - (t->nfiles - empties);
	size_t i;

	for (i = 0; i < t->nfiles; i++)
		total += b->raw[i];
	for (i = 0; i < t->nfiles; i++) {
		uint64_t cum;

		if (b->raw[i] == 0) {
			t->files[i].size = 0;
			continue;
		}
		acc += b->raw[i];
		cum = tree_muldiv(acc, extra, total);
		t->files[i].size = 1 + cum - prev;
		prev = cum;
	}
	t->bytes = bytes;
}

static void
builder_done(struct tree_builder *b)
{
	free(b->tn.v);
	free(b->dir_off);
	free(b->file_off);
	free(b->raw);
	free(b->hash);
	free(b->link_off);
	free(b->target_off);
}

void
tree_spec_default(struct tree_spec *spec)
{
	spec->seed = TREE_DEFAULT_SEED;
	spec->files = TREE_DEFAULT_FILES;
	spec->bytes = TREE_DEFAULT_BYTES;
}

uint32_t
tree_spec_empty_files(const struct tree_spec *spec)
{
	return (uint32_t)((uint64_t)spec->files * EMPTY_PER_100K / 100000);
}

/* Rounded up: every tree, however small, has one of each. */
uint32_t
tree_spec_symlinks(const struct tree_spec *spec)
{
	return (uint32_t)(((uint64_t)spec->files * SYMLINK_PER_100K + 99999) /
	    100000);
}

uint32_t
tree_spec_hardlinks(const struct tree_spec *spec)
{
	return (uint32_t)(((uint64_t)spec->files * HARDLINK_PER_100K + 99999) /
	    100000);
}

uint64_t
tree_spec_min_bytes(const struct tree_spec *spec)
{
	return spec->files - tree_spec_empty_files(spec);
}

int
tree_generate(const struct tree_spec *spec, struct tree *t)
{
	struct tree_builder b;
	uint32_t empties;
	size_t i, off;

	memset(t, 0, sizeof *t);
	if (spec->files == 0 || spec->bytes < tree_spec_min_bytes(spec))
		return -EINVAL;
	empties = tree_spec_empty_files(spec);
	memset(&b, 0, sizeof b);
	b.t = t;
	b.rng = spec->seed;
	tree_template(&b.tn);
	off = tree_arena_add(t, ROOT_NAME);
	hash_put(&b, off);
	emit_node(&b, 0, TREE_NO_SRC, off, spec->files);
	empties_mark(&b, empties);
	sizes_scale(&b, spec->bytes, empties);
	tree_links(&b, tree_spec_symlinks(spec), tree_spec_hardlinks(spec));
	for (i = 0; i < t->ndirs; i++)
		t->dirs[i].path = t->strings + b.dir_off[i];
	for (i = 0; i < t->nfiles; i++)
		t->files[i].path = t->strings + b.file_off[i];
	for (i = 0; i < t->nlinks; i++) {
		t->links[i].path = t->strings + b.link_off[i];
		t->links[i].target = t->strings + b.target_off[i];
	}
	builder_done(&b);
	return 0;
}

void
tree_free(struct tree *t)
{
	if (t == NULL)
		return;
	free(t->dirs);
	free(t->files);
	free(t->links);
	free(t->strings);
	memset(t, 0, sizeof *t);
}
