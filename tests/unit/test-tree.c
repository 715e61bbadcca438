/*
 * The synthetic kernel-like tree: the same spec gives the same list (a
 * golden digest pins it across machines and releases), the shape is that
 * of a 2.6.20 tree, the derived lists are consistent, and tree_create()
 * writes what the list says.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tree.h"

#define TREE_GOLDEN_DEFAULT 0x71f04d0c75997ff4ULL
#define TREE_GOLDEN_OBJECTS 0x612e141e7c83a50fULL
#define TREE_GOLDEN_PATCH 0x924002d584d31c66ULL

static struct tree_spec
spec_of(uint64_t seed, uint32_t files, uint64_t bytes)
{
	struct tree_spec s = { seed, files, bytes };

	return s;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
median_size(const struct tree *t)
{
	uint64_t *v = malloc(t->nfiles * sizeof *v), m;
	size_t i;

	for (i = 0; i < t->nfiles; i++)
		v[i] = t->files[i].size;
	qsort(v, t->nfiles, sizeof *v, cmp_u64);
	m = v[t->nfiles / 2];
	free(v);
	return m;
}

static unsigned
components(const char *path)
{
	unsigned n = 1;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

Test(tree, same_spec_gives_the_same_list)
{
	struct tree_spec s = spec_of(7, 3000, 30000000);
	struct tree a, b;
	size_t i;

	cr_assert_eq(tree_generate(&s, &a), 0);
	cr_assert_eq(tree_generate(&s, &b), 0);
	cr_assert_eq(a.nfiles, b.nfiles);
	cr_assert_eq(a.ndirs, b.ndirs);
	for (i = 0; i < a.nfiles; i++) {
		cr_assert_str_eq(a.files[i].path, b.files[i].path);
		cr_assert_eq(a.files[i].size, b.files[i].size);
	}
	cr_assert_eq(tree_digest(&a), tree_digest(&b));
	s.seed = 8;
	tree_free(&b);
	cr_assert_eq(tree_generate(&s, &b), 0);
	cr_assert_neq(tree_digest(&a), tree_digest(&b), "seed ignored");
	tree_free(&a);
	tree_free(&b);
}

/*
 * Golden values: the list is a promise (results on two machines used the
 * same data set). If a change to the generator moves them, bump
 * TREE_VERSION (the cache names change with it) and update them here.
 */
Test(tree, default_tree_matches_its_golden_digest)
{
	struct tree_spec s;
	struct tree t, o, p;

	tree_spec_default(&s);
	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(TREE_VERSION, 1);
	cr_assert_eq(tree_digest(&t), TREE_GOLDEN_DEFAULT, "digest %016llx",
	    (unsigned long long)tree_digest(&t));
	cr_assert_eq(tree_objects(&t, &o), 0);
	cr_assert_eq(tree_digest(&o), TREE_GOLDEN_OBJECTS,
	    "objects digest %016llx", (unsigned long long)tree_digest(&o));
	cr_assert_eq(tree_patch(&t, 1, 0, &p), 0);
	cr_assert_eq(tree_digest(&p), TREE_GOLDEN_PATCH, "patch digest %016llx",
	    (unsigned long long)tree_digest(&p));
	tree_free(&t);
	tree_free(&o);
	tree_free(&p);
}

Test(tree, default_tree_has_a_kernel_shape)
{
	struct tree_spec s;
	struct tree t;
	uint64_t sum = 0, med, mean;
	size_t i, deep = 0, small = 0, big = 0;

	tree_spec_default(&s);
	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(t.nfiles, 20000);
	for (i = 0; i < t.nfiles; i++) {
		unsigned c = components(t.files[i].path);

		sum += t.files[i].size;
		cr_assert_geq(t.files[i].size, 1);
		cr_assert_lt(strlen(t.files[i].path), TREE_PATH_MAX);
		cr_assert_lt(t.files[i].dir, t.ndirs);
		if (c >= 4 && c <= 6)
			deep++;
		if (t.files[i].size >= 1024 && t.files[i].size <= 16384)
			small++;
		if (t.files[i].size > 256 * 1024)
			big++;
	}
	cr_assert_eq(sum, t.bytes);
	/* The total is exact (within 1% is the promise). */
	cr_assert_eq(t.bytes, TREE_DEFAULT_BYTES);
	med = median_size(&t);
	mean = t.bytes / t.nfiles;
	cr_assert(med >= 4096 && med <= 8192, "median %llu",
	    (unsigned long long)med);
	cr_assert(mean >= 10000 && mean <= 14000, "mean %llu",
	    (unsigned long long)mean);
	cr_assert_gt(small, t.nfiles / 2, "1-16 KiB: %zu", small);
	cr_assert(big > 0 && big < t.nfiles / 100, "%zu files > 256K", big);
	cr_assert_gt(deep, t.nfiles * 8 / 10, "4-6 levels: %zu", deep);
	cr_assert(t.ndirs > 800 && t.ndirs < 2000, "%zu dirs", t.ndirs);
	tree_free(&t);
}

Test(tree, directories_come_before_their_children)
{
	struct tree_spec s = spec_of(3, 5000, 50000000);
	struct tree t;
	size_t i;

	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_str_eq(t.dirs[0].path, "linux");
	cr_assert_eq(t.dirs[0].parent, TREE_NO_SRC);
	for (i = 1; i < t.ndirs; i++) {
		const struct tree_dir *d = &t.dirs[i], *p = &t.dirs[d->parent];
		size_t n = strlen(p->path);

		cr_assert_lt(d->parent, i);
		cr_assert_eq(d->depth, p->depth + 1);
		cr_assert(strncmp(d->path, p->path, n) == 0 &&
			d->path[n] == '/' &&
			strchr(d->path + n + 1, '/') == NULL,
		    "%s is not a child of %s", d->path, p->path);
	}
	for (i = 0; i < t.nfiles; i++) {
		const char *dp = t.dirs[t.files[i].dir].path;
		size_t n = strlen(dp);

		cr_assert(strncmp(t.files[i].path, dp, n) == 0 &&
		    t.files[i].path[n] == '/');
		if (i > 0)
			cr_assert_geq(t.files[i].dir, t.files[i - 1].dir,
			    "files not in directory order");
	}
	tree_free(&t);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* No two entries share a path: the tree can be created as listed. */
Test(tree, paths_are_unique)
{
	struct tree_spec s = spec_of(11, 20000, 200000000);
	struct tree t;
	const char **v;
	size_t i, n;

	cr_assert_eq(tree_generate(&s, &t), 0);
	n = t.ndirs + t.nfiles;
	v = malloc(n * sizeof *v);
	for (i = 0; i < t.ndirs; i++)
		v[i] = t.dirs[i].path;
	for (i = 0; i < t.nfiles; i++)
		v[t.ndirs + i] = t.files[i].path;
	qsort(v, n, sizeof *v, cmp_str);
	for (i = 1; i < n; i++)
		cr_assert_str_neq(v[i - 1], v[i]);
	free(v);
	tree_free(&t);
}

Test(tree, scales_with_files_and_bytes)
{
	static const struct {
		uint32_t files;
		uint64_t bytes;
	} cases[] = {
		{ 1, 1 },
		{ 10, 100000 },
		{ 500, 6000000 },
		{ 100000, 1200000000 },
		{ 3000, 3000 },
	};
	size_t k;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct tree_spec s = spec_of(1, cases[k].files, cases[k].bytes);
		struct tree t;
		uint64_t sum = 0;
		size_t i;

		cr_assert_eq(tree_generate(&s, &t), 0);
		cr_assert_eq(t.nfiles, cases[k].files);
		for (i = 0; i < t.nfiles; i++) {
			cr_assert_geq(t.files[i].size, 1);
			sum += t.files[i].size;
		}
		cr_assert_eq(sum, cases[k].bytes);
		tree_free(&t);
	}
}

Test(tree, rejects_impossible_specs)
{
	struct tree_spec s = spec_of(1, 0, 100);
	struct tree t;

	cr_assert_eq(tree_generate(&s, &t), -EINVAL);
	s = spec_of(1, 100, 99);
	cr_assert_eq(tree_generate(&s, &t), -EINVAL);
	tree_free(&t);
}

Test(tree, objects_follow_the_sources)
{
	struct tree_spec s = spec_of(5, 4000, 48000000);
	struct tree t, o;
	size_t i, dotc = 0, doto = 0, builtin = 0;
	bool vmlinux = false;
	uint64_t sum = 0;

	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(tree_objects(&t, &o), 0);
	cr_assert_eq(o.ndirs, 0);
	for (i = 0; i < t.nfiles; i++) {
		size_t n = strlen(t.files[i].path);

		dotc += n > 2 && strcmp(t.files[i].path + n - 2, ".c") == 0;
	}
	for (i = 0; i < o.nfiles; i++) {
		const struct tree_file *f = &o.files[i];

		sum += f->size;
		cr_assert_lt(f->dir, t.ndirs);
		cr_assert_geq(f->size, 1);
		if (f->src != TREE_NO_SRC) {
			const struct tree_file *c = &t.files[f->src];
			size_t n = strlen(c->path);

			doto++;
			cr_assert_eq(strncmp(f->path, c->path, n - 1), 0);
			cr_assert_str_eq(f->path + n - 1, "o");
			cr_assert_eq(f->dir, c->dir);
		} else if (strstr(f->path, "/built-in.o") != NULL) {
			builtin++;
		} else if (strcmp(f->path, "linux/vmlinux") == 0) {
			vmlinux = true;
		}
	}
	cr_assert_eq(doto, dotc, "one .o per .c");
	cr_assert_gt(builtin, 0);
	cr_assert(vmlinux);
	cr_assert_eq(sum, o.bytes);
	/* A build adds about as much as the sources weigh. */
	cr_assert(o.bytes > t.bytes / 2 && o.bytes < t.bytes * 2,
	    "objects %llu for sources %llu", (unsigned long long)o.bytes,
	    (unsigned long long)t.bytes);
	tree_free(&t);
	tree_free(&o);
}

Test(tree, patch_changes_a_few_percent)
{
	struct tree_spec s;
	struct tree t, p, q;
	size_t i;
	uint64_t changed = 0;

	tree_spec_default(&s);
	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(tree_patch(&t, 9, 0, &p), 0);
	cr_assert_eq(p.nfiles, t.nfiles * TREE_PATCH_PERMILLE / 1000);
	for (i = 0; i < p.nfiles; i++) {
		const struct tree_file *f = &p.files[i], *o = &t.files[f->src];

		cr_assert_str_eq(f->path, o->path);
		cr_assert_eq(f->dir, o->dir);
		cr_assert_geq(f->size, 1);
		changed += f->size != o->size;
		if (i > 0)
			cr_assert_gt(f->src, p.files[i - 1].src,
			    "patch list not in tree order");
	}
	cr_assert_gt(changed, p.nfiles * 9 / 10);
	cr_assert_eq(tree_patch(&t, 9, 0, &q), 0);
	cr_assert_eq(tree_digest(&p), tree_digest(&q));
	tree_free(&q);
	cr_assert_eq(tree_patch(&t, 9, 1001, &q), -EINVAL);
	cr_assert_eq(tree_patch(&t, 9, 50, &q), 0);
	cr_assert_eq(q.nfiles, t.nfiles / 20);
	tree_free(&q);
	tree_free(&p);
	tree_free(&t);
}
