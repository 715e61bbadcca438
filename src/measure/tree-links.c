/*
 * The links of the synthetic tree (tree.h): symlinks shaped like those of
 * linux-source-6.1 (one in five names a directory, as
 * scripts/dtc/include-prefixes/arm -> ../../../arch/arm/boot/dts does;
 * of those naming a file, one in five is a sibling of it, as
 * include/dt-bindings/clock/qcom,dispcc-sm8150.h is; the rest reach across
 * the tree with ../), named after what they name, and hard links to
 * regular files. Drawn from the generator's stream once the directories
 * and files are all there. Any thread (allocates).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tree-int.h"

#define ATTEMPTS 16 /* draws of a symlink before it names a file */

/* Is a an ancestor of d, or d itself? */
static bool
dir_within(const struct tree *t, uint32_t d, uint32_t a)
{
	for (; d != TREE_NO_SRC; d = t->dirs[d].parent)
		if (d == a)
			return true;
	return false;
}

/*
 * The path of to relative to the directory from ("../../lib/sort.c"), in
 * out; false when it does not fit in TREE_PATH_MAX.
 */
static bool
rel_path(const char *from, const char *to, char *out, size_t len)
{
	size_t common = 0, i, n = 0;
	const char *p, *tail;

	/* The longest common prefix that ends on a component boundary. */
	for (i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i + 1;
	if (from[i] == '\0' && to[i] == '/') {
		tail = to + i + 1; /* below from: no ../ */
	} else {
		tail = to + common;
		/* One ../ per component of from below the common part. */
		for (p = from + common; p != NULL; p = strchr(p, '/')) {
			if (*p == '/')
				p++;
			if (n + 4 > len)
				return false;
			memcpy(out + n, "../", 3);
			n += 3;
		}
	}
	if (n + strlen(tail) + 1 > len)
		return false;
	memcpy(out + n, tail, strlen(tail) + 1);
	return true;
}

/* Split the last component of path into stem and extension ("x", ".c"). */
static void
base_split(const char *path, char *stem, size_t slen, char *ext, size_t elen)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (dot == NULL || dot == base)
		dot = base + strlen(base);
	snprintf(stem, slen, "%.*s", (int)(dot - base), base);
	snprintf(ext, elen, "%s", dot);
}

static void
link_push(struct tree_builder *b, uint8_t type, uint32_t dir, uint32_t file,
    uint32_t tdir, const char *name_of, const char *target)
{
	struct tree *t = b->t;
	struct tree_link *l = &t->links[t->nlinks];
	char dpath[TREE_PATH_MAX], stem[TREE_PATH_MAX], ext[TREE_PATH_MAX];

	base_split(name_of, stem, sizeof stem, ext, sizeof ext);
	snprintf(dpath, sizeof dpath, "%s", t->strings + b->dir_off[dir]);
	memset(l, 0, sizeof *l);
	l->type = type;
	l->dir = dir;
	l->file = file;
	l->tdir = tdir;
	b->link_off[t->nlinks] = tree_path_unique(b, dpath, stem, ext);
	b->target_off[t->nlinks] = tree_arena_add(t, target);
	t->nlinks++;
}

/*
 * One symlink: a directory it names (tdir, or TREE_NO_SRC) or a file,
 * the directory it sits in, its target; retried while the target would
 * be the link's own directory or an ancestor (a loop) or too long.
 */
static void
symlink_add(struct tree_builder *b)
{
	const struct tree *t = b->t;
	char from[TREE_PATH_MAX], to[TREE_PATH_MAX], rel[TREE_PATH_MAX];
	unsigned attempt;

	for (attempt = 0;; attempt++) {
		uint32_t x = tree_below(&b->rng, 5), ld, tdir = TREE_NO_SRC;
		uint32_t f = TREE_NO_SRC;

		if (x == 0 && t->ndirs > 1 && attempt < ATTEMPTS) {
			tdir = 1 + tree_below(&b->rng, (uint32_t)t->ndirs - 1);
			ld = tree_below(&b->rng, (uint32_t)t->ndirs);
			if (dir_within(t, ld, tdir))
				continue;
			snprintf(to, sizeof to, "%s",
			    t->strings + b->dir_off[tdir]);
		} else {
			f = tree_below(&b->rng, (uint32_t)t->nfiles);
			ld = x == 1 || attempt >= ATTEMPTS
			    ? t->files[f].dir
			    : tree_below(&b->rng, (uint32_t)t->ndirs);
			snprintf(to, sizeof to, "%s",
			    t->strings + b->file_off[f]);
		}
		snprintf(from, sizeof from, "%s", t->strings + b->dir_off[ld]);
		/* Room for the name's number too ("/name12.c"). */
		if (strlen(from) + strlen(strrchr(to, '/')) + 8 >=
			TREE_PATH_MAX ||
		    !rel_path(from, to, rel, sizeof rel))
			continue;
		link_push(b, TREE_SYMLINK, ld, f, tdir, to, rel);
		return;
	}
}

/* One hard link to a file, in the file's directory or a later one. */
static void
hardlink_add(struct tree_builder *b)
{
	const struct tree *t = b->t;
	char to[TREE_PATH_MAX];

	for (unsigned attempt = 0;; attempt++) {
		uint32_t f = tree_below(&b->rng, (uint32_t)t->nfiles);
		uint32_t d0 = t->files[f].dir;
		uint32_t ld = d0 + tree_below(&b->rng, (uint32_t)t->ndirs - d0);

		if (attempt >= ATTEMPTS)
			ld = d0; /* next to its file: that path fits */

		snprintf(to, sizeof to, "%s", t->strings + b->file_off[f]);
		if (attempt < ATTEMPTS &&
		    strlen(t->strings + b->dir_off[ld]) +
			    strlen(strrchr(to, '/')) + 8 >=
			TREE_PATH_MAX)
			continue;
		link_push(b, TREE_HARDLINK, ld, f, TREE_NO_SRC, to, to);
		return;
	}
}

struct order {
	uint32_t dir;
	size_t i;
};

static int
cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Put the links in directory order (stable: ties keep their draw order). */
static void
links_sort(struct tree_builder *b)
{
	struct tree *t = b->t;
	size_t n = t->nlinks, i;
	struct order *o = xmalloc((n ? n : 1) * sizeof *o);
	struct tree_link *l = xmalloc((n ? n : 1) * sizeof *l);
	size_t *lo = xmalloc((n ? n : 1) * sizeof *lo);
	size_t *to = xmalloc((n ? n : 1) * sizeof *to);

	for (i = 0; i < n; i++) {
		o[i].dir = t->links[i].dir;
		o[i].i = i;
	}
	qsort(o, n, sizeof *o, cmp_order);
	for (i = 0; i < n; i++) {
		l[i] = t->links[o[i].i];
		lo[i] = b->link_off[o[i].i];
		to[i] = b->target_off[o[i].i];
	}
	memcpy(t->links, l, n * sizeof *l);
	memcpy(b->link_off, lo, n * sizeof *lo);
	memcpy(b->target_off, to, n * sizeof *to);
	free(o);
	free(l);
	free(lo);
	free(to);
}

void
tree_links(struct tree_builder *b, uint32_t nsym, uint32_t nhard)
{
	struct tree *t = b->t;
	size_t n = (size_t)nsym + nhard, i;

	if (n == 0 || t->nfiles == 0)
		return;
	t->links = xcalloc(n, sizeof *t->links);
	b->link_off = xcalloc(n, sizeof *b->link_off);
	b->target_off = xcalloc(n, sizeof *b->target_off);
	for (i = 0; i < nsym; i++)
		symlink_add(b);
	for (i = 0; i < nhard; i++)
		hardlink_add(b);
	links_sort(b);
}
