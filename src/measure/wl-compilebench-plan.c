/*
 * compilebench's choices and data sets. The plan replays compilebench
 * 0.6's random calls in its order: random.Random(seed); the shuffle of a
 * clean build's objects; then per run choice(ops) among its seven
 * operations, and inside the operation choice() of a kind of tree among
 * those not empty, choice() of a tree of that kind (oldest first, as its
 * dicts iterate), randint(0, 3) == 1 for patch's unlink, randint(100,
 * 100000) for a new tree's name until the name is free. An operation
 * that finds no tree draws nothing more and does not count as a run. So
 * a seed gives compilebench's own sequence of operations and trees,
 * given a data set with as many objects as its (3263 for 2.6.20).
 * The data sets mirror its four lists. Driver thread (prepare, run) or
 * any thread for the data set estimate; allocates.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "wl-compilebench.h"
#include "workload.h"

/* compilebench's ops tuple, in its order. */
enum cb_opkind {
	OP_PATCH,
	OP_COMPILE,
	OP_CLEAN,
	OP_DELETE,
	OP_CREATE,
	OP_READ,
	OP_STAT,
	OP__COUNT,
};

/* One of patch's, compile's or clean's (dataset, from, to) triples. */
struct move {
	enum cb_set set;
	enum cb_state from, to;
};

static const struct move patch_moves[] = {
	{ CB_SET_PATCH, CB_ST_UNPATCHED, CB_ST_PATCHED },
	{ CB_SET_OBJS_CHANGED, CB_ST_UNPATCHED_COMPILED,
	    CB_ST_PATCHED_COMPILED },
};
static const struct move compile_moves[] = {
	{ CB_SET_OBJS, CB_ST_UNPATCHED, CB_ST_UNPATCHED_COMPILED },
	{ CB_SET_OBJS_CHANGED, CB_ST_PATCHED, CB_ST_PATCHED_COMPILED },
};
static const struct move clean_moves[] = {
	{ CB_SET_OBJS_CHANGED, CB_ST_PATCHED_COMPILED, CB_ST_PATCHED },
	{ CB_SET_OBJS, CB_ST_UNPATCHED_COMPILED, CB_ST_UNPATCHED },
};

void
cb_plan_init(struct cb_plan *p, uint64_t seed)
{
	memset(p, 0, sizeof *p);
	pyrand_seed(&p->rng, seed);
	p->taken = xcalloc(CB_NAME_MAX / 8 + 1, 1);
	p->free_names = CB_NAME_MAX - CB_NAME_MIN + 1;
}

void
cb_plan_done(struct cb_plan *p)
{
	for (int s = 0; s < CB__STATES; s++)
		free(p->list[s]);
	free(p->trees);
	free(p->taken);
	memset(p, 0, sizeof *p);
}

void
cb_plan_shuffle(struct cb_plan *p, uint32_t *order, size_t n)
{
	if (order != NULL) {
		pyrand_shuffle(&p->rng, order, n);
		return;
	}
	/* The same draws without an array. */
	for (size_t i = n; i-- > 1;)
		pyrand_below(&p->rng, (uint64_t)i + 1);
}

static bool
taken(const struct cb_plan *p, unsigned name)
{
	return name <= CB_NAME_MAX && (p->taken[name / 8] >> (name % 8)) & 1;
}

static void
take(struct cb_plan *p, unsigned name)
{
	if (name > CB_NAME_MAX || taken(p, name))
		return;
	p->taken[name / 8] |= (unsigned char)(1u << (name % 8));
	if (name >= CB_NAME_MIN)
		p->free_names--;
}

/* Every list can hold every tree: the lists grow with trees[]. */
static size_t
tree_new(struct cb_plan *p, unsigned name)
{
	struct cb_tree *t;

	if (p->ntrees == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		p->trees = xreallocarray(p->trees, p->cap, sizeof *p->trees);
		for (int s = 0; s < CB__STATES; s++)
			p->list[s] = xreallocarray(p->list[s], p->cap,
			    sizeof *p->list[s]);
	}
	t = &p->trees[p->ntrees];
	memset(t, 0, sizeof *t);
	t->name = name;
	t->state = CB_ST_UNPATCHED;
	t->live = true;
	take(p, name);
	p->list[CB_ST_UNPATCHED][p->nlist[CB_ST_UNPATCHED]++] = p->ntrees;
	return p->ntrees++;
}

size_t
cb_plan_initial(struct cb_plan *p, unsigned name)
{
	return tree_new(p, name);
}

/* Take the k-th tree out of list s (the others keep their order). */
static size_t
list_take(struct cb_plan *p, enum cb_state s, size_t k)
{
	size_t idx = p->list[s][k];

	memmove(p->list[s] + k, p->list[s] + k + 1,
	    (p->nlist[s] - k - 1) * sizeof *p->list[s]);
	p->nlist[s]--;
	return idx;
}

/* A dict's insertion: the tree goes last. */
static void
list_put(struct cb_plan *p, enum cb_state s, size_t idx)
{
	p->list[s][p->nlist[s]++] = idx;
	p->trees[idx].state = s;
}

/* What an operation leaves on the tree it moves. */
static void
tree_moved(struct cb_tree *t, enum cb_opkind op, const struct move *m)
{
	bool from_compiled = m->from == CB_ST_UNPATCHED_COMPILED ||
	    m->from == CB_ST_PATCHED_COMPILED;

	switch (op) {
	case OP_PATCH:
		if (from_compiled)
			t->changed = CB_CHANGED_NEW;
		else
			t->src_patched = true;
		break;
	case OP_COMPILE:
		if (m->set == CB_SET_OBJS) {
			t->objs_rest = true;
			t->changed = CB_CHANGED_OLD;
		} else {
			t->changed = CB_CHANGED_NEW;
		}
		break;
	default: /* clean unlinks exactly its set */
		if (m->set == CB_SET_OBJS)
			t->objs_rest = false;
		t->changed = CB_CHANGED_NONE;
		break;
	}
}

/* patch, compile, clean: choice of a move, choice of a tree. */
static int
plan_move(struct cb_plan *p, enum cb_opkind op, const struct move *moves,
    struct cb_step *s)
{
	const struct move *good[2];
	size_t ngood = 0, k, idx;

	for (int i = 0; i < 2; i++)
		if (p->nlist[moves[i].from] > 0)
			good[ngood++] = &moves[i];
	if (ngood == 0)
		return -EAGAIN;
	k = (size_t)pyrand_below(&p->rng, ngood);
	idx = list_take(p, good[k]->from,
	    (size_t)pyrand_below(&p->rng, p->nlist[good[k]->from]));
	s->tree = idx;
	s->set = good[k]->set;
	if (op == OP_PATCH)
		s->unlink = pyrand_randint(&p->rng, 0, 3) == 1;
	tree_moved(&p->trees[idx], op, good[k]);
	list_put(p, good[k]->to, idx);
	return 0;
}

/* delete, read, stat: choice of a kind of tree, choice of a tree. */
static int
plan_any(struct cb_plan *p, enum cb_opkind op, struct cb_step *s)
{
	static const enum cb_phase phases[][2] = {
		[OP_DELETE] = { CB_DELETE_TREE, CB_DELETE_COMPILED },
		[OP_READ] = { CB_READ_TREE, CB_READ_COMPILED },
		[OP_STAT] = { CB_STAT_TREE, CB_STAT_COMPILED },
	};
	enum cb_state good[CB__STATES], st;
	size_t ngood = 0, k;
	bool compiled;

	for (int i = 0; i < CB__STATES; i++)
		if (p->nlist[i] > 0)
			good[ngood++] = (enum cb_state)i;
	if (ngood == 0)
		return -EAGAIN;
	st = good[pyrand_below(&p->rng, ngood)];
	k = (size_t)pyrand_below(&p->rng, p->nlist[st]);
	compiled =
	    st == CB_ST_UNPATCHED_COMPILED || st == CB_ST_PATCHED_COMPILED;
	s->tree = p->list[st][k];
	if (op == OP_DELETE) {
		list_take(p, st, k);
		p->trees[s->tree].live = false;
		/*
		 * compilebench files a delete under "compiled" when the
		 * dict it drew from, once the tree is out, equals a compiled
		 * dict: so the last tree of a kind counts as compiled while
		 * either compiled kind is empty. Its figures say so.
		 */
		if (p->nlist[st] == 0 &&
		    (p->nlist[CB_ST_UNPATCHED_COMPILED] == 0 ||
			p->nlist[CB_ST_PATCHED_COMPILED] == 0))
			compiled = true;
	}
	s->phase = phases[op][compiled];
	return 0;
}

int
cb_plan_next(struct cb_plan *p, struct cb_step *s)
{
	enum cb_opkind op = (enum cb_opkind)pyrand_below(&p->rng, OP__COUNT);
	unsigned name;

	memset(s, 0, sizeof *s);
	switch (op) {
	case OP_PATCH:
		s->phase = CB_PATCH;
		return plan_move(p, op, patch_moves, s);
	case OP_COMPILE:
		s->phase = CB_COMPILE;
		return plan_move(p, op, compile_moves, s);
	case OP_CLEAN:
		s->phase = CB_CLEAN;
		return plan_move(p, op, clean_moves, s);
	case OP_CREATE:
		if (p->free_names == 0)
			return -ENOSPC;
		do
			name = (unsigned)pyrand_randint(&p->rng, CB_NAME_MIN,
			    CB_NAME_MAX);
		while (taken(p, name));
		s->phase = CB_CREATE;
		s->set = CB_SET_SOURCES;
		s->tree = tree_new(p, name);
		return 0;
	default:
		return plan_any(p, op, s);
	}
}

/* ---------------------------------------------------------------- data */

/* A list that borrows src's paths and directories: files[] its own. */
static void
borrow(struct tree *dst, const struct tree *src)
{
	*dst = *src;
	dst->strings = NULL;
	dst->strings_len = dst->strings_cap = 0;
	dst->files = xcalloc(src->nfiles + 1, sizeof *dst->files);
	memcpy(dst->files, src->files, src->nfiles * sizeof *src->files);
}

/*
 * compilebench's patched list holds only the files whose size changes,
 * and the new ones; patched is clean with those sizes. A new file is not
 * in patched's list (a build compiles none) but in its bytes.
 */
static void
patch_build(struct cb_data *d, uint64_t seed, unsigned permille)
{
	size_t i, n = 0;

	tree_patch(&d->clean, seed, permille, &d->patch);
	borrow(&d->patched, &d->clean);
	for (i = 0; i < d->patch.nfiles; i++) {
		struct tree_file *pf = &d->patch.files[i], *f;

		if (pf->src == TREE_NO_SRC) {
			d->patched.bytes += pf->size;
			d->patch.files[n++] = *pf;
			continue;
		}
		f = &d->patched.files[pf->src];
		if (pf->size == f->size) {
			d->patch.bytes -= pf->size;
			continue;
		}
		d->patched.bytes += pf->size - f->size;
		f->size = pf->size;
		d->patch.files[n++] = *pf;
	}
	d->patch.nfiles = n;
}

/*
 * compilebench's compiled list: the objects of the patched build that
 * are new or differ in size from the clean build's. The two builds come
 * from one file list, so object i is the same path in both.
 */
static void
changed_build(struct cb_data *d)
{
	const struct tree *o = &d->objs, *np = &d->objs_patched;
	size_t i, n = 0;

	memset(&d->changed, 0, sizeof d->changed);
	memset(&d->changed_old, 0, sizeof d->changed_old);
	d->changed.files = xcalloc(np->nfiles + 1, sizeof *d->changed.files);
	d->changed_old.files =
	    xcalloc(np->nfiles + 1, sizeof *d->changed_old.files);
	for (i = 0; i < np->nfiles; i++) {
		bool same = i < o->nfiles &&
		    strcmp(o->files[i].path, np->files[i].path) == 0;

		if (same && o->files[i].size == np->files[i].size)
			continue;
		d->changed.files[n] = np->files[i];
		d->changed.bytes += np->files[i].size;
		/* A new object (none so far) has no old size. */
		d->changed_old.files[n] = np->files[i];
		d->changed_old.files[n].size = same ? o->files[i].size : 0;
		d->changed_old.bytes += d->changed_old.files[n].size;
		n++;
	}
	d->changed.nfiles = d->changed_old.nfiles = n;
}

static uint64_t
blocks(const struct tree *t)
{
	uint64_t n = 0;

	for (size_t i = 0; i < t->nfiles; i++)
		n = workload_add(n, workload_blocks(t->files[i].size));
	return n;
}

/* The blocks of a patch's new files, which patched's list leaves out. */
static uint64_t
new_blocks(const struct tree *patch)
{
	uint64_t n = 0;

	for (size_t i = 0; i < patch->nfiles; i++)
		if (patch->files[i].src == TREE_NO_SRC)
			n = workload_add(n,
			    workload_blocks(patch->files[i].size));
	return n;
}

int
cb_data_init(struct cb_data *d, uint32_t files, uint64_t bytes,
    unsigned permille)
{
	struct tree_spec spec;

	memset(d, 0, sizeof *d);
	tree_spec_default(&spec);
	spec.files = files;
	spec.bytes = bytes;
	if (permille < 1 || permille > 1000 ||
	    tree_generate(&spec, &d->clean) < 0)
		return -EINVAL;
	/* The data set does not depend on the operations' seed. */
	patch_build(d, spec.seed, permille);
	tree_objects(&d->clean, &d->objs);
	tree_objects(&d->patched, &d->objs_patched);
	changed_build(d);
	d->sum.clean = blocks(&d->clean);
	d->sum.patched = blocks(&d->patched) + new_blocks(&d->patch);
	d->sum.old = blocks(&d->changed_old);
	d->sum.rest = blocks(&d->objs) - d->sum.old;
	d->sum.now = blocks(&d->changed);
	d->sum.nobjs = d->objs.nfiles;
	return 0;
}

void
cb_data_done(struct cb_data *d)
{
	tree_free(&d->clean);
	tree_free(&d->patch);
	free(d->patched.files);
	tree_free(&d->objs);
	tree_free(&d->objs_patched);
	free(d->changed.files);
	free(d->changed_old.files);
	memset(d, 0, sizeof *d);
}

uint64_t
cb_tree_blocks(const struct cb_blocks *b, const struct cb_tree *t)
{
	uint64_t n;

	if (!t->live)
		return 0;
	n = t->src_patched ? b->patched : b->clean;
	if (t->objs_rest)
		n = workload_add(n, b->rest);
	if (t->changed == CB_CHANGED_OLD)
		n = workload_add(n, b->old);
	else if (t->changed == CB_CHANGED_NEW)
		n = workload_add(n, b->now);
	return n;
}
