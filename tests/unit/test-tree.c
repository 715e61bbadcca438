/*
 * The synthetic kernel-like tree: the same spec gives the same list (a
 * golden digest pins it across machines and releases), the default tree
 * has the shape of the real tree measured (linux-source-6.1) within the
 * ranges src/measure/tree.c states, from its list and from the tarball untar
 * writes of it (and extracts), any spec gives a tree that can be made as
 * listed, and the derived lists are consistent.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/tree.h"
#include "tree-shape.h"
#include "wltest.h"

#define TREE_GOLDEN_DEFAULT 0x369c2d538d86532fULL
#define TREE_GOLDEN_OBJECTS 0x5caf7d13657639beULL
#define TREE_GOLDEN_PATCH 0x4428bc1ce28d2dbaULL

static struct tree_spec
spec_of(uint64_t seed, uint32_t files, uint64_t bytes)
{
	struct tree_spec s = { seed, files, bytes };

	return s;
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
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
	cr_assert_eq(TREE_VERSION, 4);
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

/* The counts a spec promises (tree.h's closed forms), and the sum. */
static void
check_counts(const struct tree *t, const struct tree_spec *s)
{
	size_t i, empty = 0, sym = 0, hard = 0;
	uint64_t sum = 0;

	cr_assert_eq(t->nfiles, s->files);
	for (i = 0; i < t->nfiles; i++) {
		sum += t->files[i].size;
		empty += t->files[i].size == 0;
	}
	for (i = 0; i < t->nlinks; i++) {
		sym += t->links[i].type == TREE_SYMLINK;
		hard += t->links[i].type == TREE_HARDLINK;
	}
	cr_assert_eq(sum, s->bytes);
	cr_assert_eq(t->bytes, s->bytes);
	cr_assert_eq(empty, tree_spec_empty_files(s), "%zu empty files", empty);
	cr_assert_eq(sym, tree_spec_symlinks(s), "%zu symlinks", sym);
	cr_assert_eq(hard, tree_spec_hardlinks(s), "%zu hard links", hard);
	cr_assert_eq(sym + hard, t->nlinks);
}

Test(tree, default_tree_has_the_real_trees_shape)
{
	struct tree_spec s;
	struct shape sh = { 0 };
	struct figures f;
	struct tree t;

	tree_spec_default(&s);
	cr_assert_eq(tree_generate(&s, &t), 0);
	check_counts(&t, &s);
	cr_assert_eq(t.bytes, TREE_DEFAULT_BYTES);
	cr_assert_gt(t.nlinks, 0);
	cr_assert(t.ndirs > 800 && t.ndirs < 2000, "%zu dirs", t.ndirs);
	shape_of_tree(&sh, &t);
	figures_of(&sh, &f);
	figures_check(&f, "list");
	shape_free(&sh);
	tree_free(&t);
}

/*
 * The tarball untar writes from the default tree: its entries are the
 * list's, in the list's order, with as many bytes, so its shape is the
 * one the ranges hold; extracted, every link is what the list says.
 */
Test(tree, default_tarball_is_the_list, .init = wltest_cache_setup,
    .fini = wltest_cache_teardown)
{
	struct tree_spec s;
	struct shape lst = { 0 }, tar = { 0 }, only = { 0 };
	struct figures fl, ft;
	struct wltest_target tg;
	struct wl_result *r;
	struct tree t;
	char p[512], dir[4096];
	size_t i, j = 0, k;

	tree_spec_default(&s);
	cr_assert_eq(tree_generate(&s, &t), 0);
	shape_of_tree(&lst, &t);
	wltest_target_dir(&tg);
	r = wltest_run(&wl_untar, "keep = true;", tg.dir, LAB_CACHE_KEEP, NULL,
	    NULL, 900);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	snprintf(p, sizeof p, "%s/raidlab/untar-tree-v%d-s%llu-f%u-b%llu.tar",
	    wltest_cache_dir, TREE_VERSION, (unsigned long long)s.seed,
	    (unsigned)s.files, (unsigned long long)s.bytes);
	shape_of_tarball(&tar, p);
	/* Entry by entry; a link's target follows it as a '>' entry. */
	for (i = 0, k = 0; i < lst.n; i++, j++) {
		const struct entry *a = &lst.v[i], *b = &tar.v[j];

		cr_assert_lt(j, tar.n, "tarball ends early");
		cr_assert_eq(a->type, b->type, "%s", a->path);
		cr_assert_str_eq(a->path, b->path);
		cr_assert_eq(a->size, b->size, "%s", a->path);
		cr_assert_eq(a->mode, b->mode, "%s", a->path);
		if (a->type == 'l' || a->type == 'h') {
			cr_assert_str_eq(tar.v[++j].path, t.links[k].target);
			k++;
		}
		shape_add(&only, b->type, b->path, b->size, b->mode);
	}
	cr_assert_eq(j, tar.n, "tarball has more entries");
	figures_of(&lst, &fl);
	figures_of(&only, &ft);
	cr_assert_eq(memcmp(&fl, &ft, sizeof fl), 0);
	figures_check(&ft, "tarball");
	/* On disk: symlinks read back, and reach what they name. */
	wltest_run_dir(tg.dir, dir, sizeof dir);
	cr_assert_neq(dir[0], '\0', "no run directory kept");
	for (k = 0; k < t.nlinks; k++) {
		const struct tree_link *l = &t.links[k];
		struct stat ls, ts, fs;
		char q[8192], got[TREE_PATH_MAX];
		ssize_t n;

		snprintf(q, sizeof q, "%s/%s", dir, l->path);
		cr_assert_eq(lstat(q, &ls), 0, "missing %s", q);
		cr_assert_eq(stat(q, &ts), 0, "%s does not resolve", q);
		snprintf(q, sizeof q, "%s/%s", dir,
		    l->file != TREE_NO_SRC ? t.files[l->file].path
					   : t.dirs[l->tdir].path);
		cr_assert_eq(stat(q, &fs), 0);
		cr_assert_eq(ts.st_ino, fs.st_ino, "%s", l->path);
		if (l->type == TREE_SYMLINK) {
			cr_assert(S_ISLNK(ls.st_mode), "%s", l->path);
			snprintf(q, sizeof q, "%s/%s", dir, l->path);
			n = readlink(q, got, sizeof got - 1);
			cr_assert_gt(n, 0);
			got[n] = '\0';
			cr_assert_str_eq(got, l->target);
		} else {
			cr_assert(S_ISREG(ls.st_mode), "%s", l->path);
			cr_assert_eq(ls.st_ino, fs.st_ino, "%s", l->path);
		}
	}
	wl_result_free(r);
	wltest_target_free(&tg);
	shape_free(&lst);
	shape_free(&tar);
	shape_free(&only);
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
	qsort(v, n, sizeof *v, cmp_strp);
	for (i = 1; i < n; i++)
		cr_assert_str_neq(v[i - 1], v[i]);
	free(v);
	tree_free(&t);
}

/*
 * Resolve target relative to the directory dir, as the kernel would
 * (no symlinks on the way): the path inside the tree, or false when it
 * climbs out of it.
 */
static bool
resolve(const char *dir, const char *target, char *out, size_t len)
{
	char buf[2 * TREE_PATH_MAX + 2], *tok, *save = NULL;
	size_t n = 0;

	snprintf(buf, sizeof buf, "%s/%s", dir, target);
	out[0] = '\0';
	for (tok = strtok_r(buf, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			char *slash;

			if (n == 0)
				return false;
			slash = strrchr(out, '/');
			n = slash ? (size_t)(slash - out) : 0;
			out[n] = '\0';
			continue;
		}
		n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "/" : "",
		    tok);
	}
	return n > 0;
}

/* Is path inside dir (or dir itself)? */
static bool
within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

/*
 * What any tree must be to be made as listed: parents before children,
 * files and links in directory order, no path too long, no two entries
 * with one path, every symlink resolving inside the tree to what it says
 * (never to its own directory or above it), every hard link naming a
 * file listed before it.
 */
static void
check_valid(const struct tree *t)
{
	size_t i, n = 0, total = t->ndirs + t->nfiles + t->nlinks;
	const char **all = malloc(total * sizeof *all);

	for (i = 0; i < t->ndirs; i++) {
		cr_assert_lt(strlen(t->dirs[i].path), TREE_PATH_MAX);
		if (i > 0)
			cr_assert_lt(t->dirs[i].parent, i);
		all[n++] = t->dirs[i].path;
	}
	for (i = 0; i < t->nfiles; i++) {
		cr_assert_lt(strlen(t->files[i].path), TREE_PATH_MAX);
		if (i > 0)
			cr_assert_geq(t->files[i].dir, t->files[i - 1].dir);
		all[n++] = t->files[i].path;
	}
	for (i = 0; i < t->nlinks; i++) {
		const struct tree_link *l = &t->links[i];
		const char *dp = t->dirs[l->dir].path;
		char to[2 * TREE_PATH_MAX];

		cr_assert_lt(strlen(l->path), TREE_PATH_MAX);
		cr_assert_lt(strlen(l->target), TREE_PATH_MAX);
		cr_assert(within(l->path, dp) && l->path[strlen(dp)] == '/' &&
			strchr(l->path + strlen(dp) + 1, '/') == NULL,
		    "%s is not in %s", l->path, dp);
		if (i > 0)
			cr_assert_geq(l->dir, t->links[i - 1].dir,
			    "links not in directory order");
		if (l->type == TREE_HARDLINK) {
			cr_assert_lt(l->file, t->nfiles);
			cr_assert_str_eq(l->target, t->files[l->file].path);
			cr_assert_leq(t->files[l->file].dir, l->dir,
			    "%s: its file comes later", l->path);
		} else {
			cr_assert_eq(l->type, TREE_SYMLINK);
			cr_assert((l->file == TREE_NO_SRC) !=
			    (l->tdir == TREE_NO_SRC));
			cr_assert(resolve(dp, l->target, to, sizeof to),
			    "%s -> %s leaves the tree", l->path, l->target);
			cr_assert_str_eq(to,
			    l->file != TREE_NO_SRC ? t->files[l->file].path
						   : t->dirs[l->tdir].path,
			    "%s -> %s", l->path, l->target);
			cr_assert_not(within(dp, to), "%s -> %s: a loop",
			    l->path, l->target);
		}
		all[n++] = l->path;
	}
	qsort(all, n, sizeof *all, cmp_strp);
	for (i = 1; i < n; i++)
		cr_assert_str_neq(all[i - 1], all[i]);
	free(all);
}

Test(tree, edge_specs_give_valid_trees)
{
	static const struct {
		uint32_t files;
		uint64_t bytes;
	} cases[] = {
		{ 1, 1 },
		{ 2, 2 },
		{ 10, 100000 },
		{ 500, 6000000 },
		{ 3000, 3000 },
		{ 10000, 9997 }, /* 3 empty files: the least it may have */
		{ 20000, 240ULL << 20 },
		{ 100000, 1200000000 },
	};
	size_t k;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct tree_spec s = spec_of(1, cases[k].files, cases[k].bytes);
		struct tree t;

		cr_assert_eq(tree_generate(&s, &t), 0, "%u files",
		    cases[k].files);
		check_counts(&t, &s);
		check_valid(&t);
		/* Every tree has a symlink and a hard link to extract. */
		cr_assert_geq(tree_spec_symlinks(&s), 1);
		cr_assert_geq(tree_spec_hardlinks(&s), 1);
		tree_free(&t);
	}
}

/* Other seeds keep the validity too (the shape is held for the default). */
Test(tree, other_seeds_give_valid_trees)
{
	uint64_t seed;

	for (seed = 0; seed < 8; seed++) {
		struct tree_spec s = spec_of(seed, 20000, 240ULL << 20);
		struct tree t;

		cr_assert_eq(tree_generate(&s, &t), 0);
		check_counts(&t, &s);
		check_valid(&t);
		tree_free(&t);
	}
}
Test(tree, objects_follow_the_sources)
{
	struct tree_spec s = spec_of(5, 4000, 48000000);
	struct tree t, o;
	size_t i, doto = 0, builtin = 0, cmd = 0;
	bool vmlinux = false;
	uint64_t sum = 0;

	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(tree_objects(&t, &o), 0);
	cr_assert_eq(o.ndirs, 0);
	for (i = 0; i < o.nfiles; i++) {
		const struct tree_file *f = &o.files[i];
		char want[TREE_PATH_MAX + 16];

		sum += f->size;
		cr_assert_lt(f->dir, t.ndirs);
		cr_assert_geq(f->size, 1);
		if (f->src != TREE_NO_SRC) {
			const struct tree_file *c = &t.files[f->src];
			size_t n = strlen(c->path);
			const char *base = strrchr(f->path, '/') + 1;

			doto++;
			cr_assert_eq(strncmp(f->path, c->path, n - 1), 0);
			cr_assert_str_eq(f->path + n - 1, "o");
			cr_assert_eq(f->dir, c->dir);
			/* kbuild's .NAME.o.cmd beside it, right after. */
			snprintf(want, sizeof want, "%.*s.%s.cmd",
			    (int)(base - f->path), f->path, base);
			cr_assert_lt(i + 1, o.nfiles);
			cr_assert_str_eq(o.files[i + 1].path, want);
		} else if (strstr(f->path, "/built-in.o") != NULL) {
			builtin++;
		} else if (strcmp(f->path, "linux/vmlinux") == 0) {
			vmlinux = true;
		}
		cmd += strstr(f->path, ".cmd") != NULL;
	}
	cr_assert_gt(doto, 0);
	cr_assert_gt(builtin, 0);
	cr_assert_geq(cmd, doto + builtin);
	cr_assert(vmlinux);
	cr_assert_eq(sum, o.bytes);
	/* compilebench's share of the files: 3263 per 21280. */
	cr_assert_eq(o.nfiles, 4000 * 3263 / 21280);
	tree_free(&t);
	tree_free(&o);
}

/*
 * compilebench's 2.6.20 build, from its data set: 3263 files of
 * 713696760 bytes for 21280 sources of 233176153 (dataset-unpatched-
 * compiled less dataset-unpatched); 1143 compiled sources; vmlinux,
 * .tmp_vmlinux1 and .tmp_vmlinux2 of 63-64 MB each; the 2.6.21 build
 * differs in 2573 of them.
 */
Test(tree, objects_have_compilebench_proportions)
{
	struct tree_spec s;
	struct tree t, o;
	size_t i, compiled = 0;
	uint64_t vmlinux = 0;

	tree_spec_default(&s);
	s.files = 21280;
	s.bytes = 233176153;
	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(tree_objects(&t, &o), 0);
	cr_assert_eq(o.nfiles, 3263);
	cr_assert_eq(o.bytes, 713696760);
	for (i = 0; i < o.nfiles; i++) {
		compiled += o.files[i].src != TREE_NO_SRC;
		if (strcmp(o.files[i].path, "linux/vmlinux") == 0)
			vmlinux = o.files[i].size;
	}
	cr_assert(compiled > 1143 * 9 / 10 && compiled < 1143 * 11 / 10,
	    "%zu sources compiled", compiled);
	cr_assert(vmlinux > (56u << 20) && vmlinux < (72u << 20),
	    "vmlinux of %llu bytes", (unsigned long long)vmlinux);
	tree_free(&t);
	tree_free(&o);
}

Test(tree, patch_changes_a_few_percent)
{
	struct tree_spec s;
	struct tree t, p, q;
	size_t i, fresh = 0;
	uint64_t changed = 0, last = 0;

	tree_spec_default(&s);
	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(tree_patch(&t, 9, 0, &p), 0);
	cr_assert_eq(p.nfiles, t.nfiles * TREE_PATCH_PERMILLE / 1000);
	for (i = 0; i < p.nfiles; i++) {
		const struct tree_file *f = &p.files[i], *o;

		cr_assert_geq(f->size, 1);
		cr_assert_lt(f->dir, t.ndirs);
		if (f->src == TREE_NO_SRC) {
			/* New: in an existing directory, a name nothing has. */
			fresh++;
			cr_assert(strstr(f->path, "_new") != NULL, "%s",
			    f->path);
			cr_assert_eq(strncmp(f->path, t.dirs[f->dir].path,
					 strlen(t.dirs[f->dir].path)),
			    0, "%s not in %s", f->path, t.dirs[f->dir].path);
			for (size_t j = 0; j < t.nfiles; j++)
				cr_assert_str_neq(f->path, t.files[j].path);
			continue;
		}
		o = &t.files[f->src];
		cr_assert_str_eq(f->path, o->path);
		cr_assert_eq(f->dir, o->dir);
		changed += f->size != o->size;
		cr_assert(f->src + 1 > last, "patch list not in tree order");
		last = f->src + 1;
	}
	cr_assert_eq(fresh, p.nfiles / 10);
	cr_assert_gt(changed, (p.nfiles - fresh) * 9 / 10);
	cr_assert_eq(tree_patch(&t, 9, 0, &q), 0);
	cr_assert_eq(tree_digest(&p), tree_digest(&q));
	tree_free(&q);
	cr_assert_eq(tree_patch(&t, 9, 1001, &q), -EINVAL);
	cr_assert_eq(tree_patch(&t, 9, 50, &q), 0);
	cr_assert_eq(q.nfiles, t.nfiles / 20);
	tree_free(&q);
	cr_assert_eq(tree_patch(&t, 9, 1000, &q), 0, "every file fits");
	cr_assert_eq(q.nfiles, t.nfiles);
	tree_free(&q);
	tree_free(&p);
	tree_free(&t);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * On compilebench's numbers a patch has its proportions, from its data
 * sets (2.6.20 -> 2.6.21, files whose size changes): 6136 entries of
 * 21280 files, 610 of them new with a mean of 8226 bytes; the changed
 * files held 108940503 of the 233176153 bytes (0.47); their new sizes'
 * median ratio 1.001, 10th and 90th percentiles 0.975 and 1.079.
 */
Test(tree, patch_has_compilebench_proportions)
{
	struct tree_spec s;
	struct tree t, p;
	uint64_t old = 0, fresh_bytes = 0;
	size_t i, n = 0, fresh = 0;
	double *r;

	tree_spec_default(&s);
	s.files = 21280;
	s.bytes = 233176153;
	cr_assert_eq(tree_generate(&s, &t), 0);
	cr_assert_eq(tree_patch(&t, s.seed, 288, &p), 0);
	cr_assert_eq(p.nfiles, 6128);
	r = calloc(p.nfiles, sizeof *r);
	for (i = 0; i < p.nfiles; i++) {
		const struct tree_file *f = &p.files[i];

		if (f->src == TREE_NO_SRC) {
			fresh++;
			fresh_bytes += f->size;
			continue;
		}
		old += t.files[f->src].size;
		r[n++] = (double)f->size / (double)t.files[f->src].size;
	}
	cr_assert(fresh > 580 && fresh < 640, "%zu new", fresh);
	cr_assert(fresh_bytes / fresh > 6000 && fresh_bytes / fresh < 11000,
	    "new files' mean %llu", (unsigned long long)(fresh_bytes / fresh));
	cr_assert(old * 100 / t.bytes >= 40 && old * 100 / t.bytes <= 55,
	    "changed files hold %llu of %llu bytes", (unsigned long long)old,
	    (unsigned long long)t.bytes);
	qsort(r, n, sizeof *r, cmp_double);
	cr_assert(r[n / 2] > 0.99 && r[n / 2] < 1.01, "median %g", r[n / 2]);
	cr_assert(r[n / 10] > 0.95 && r[n / 10] < 0.99, "10th %g", r[n / 10]);
	cr_assert(r[n * 9 / 10] > 1.04 && r[n * 9 / 10] < 1.12, "90th %g",
	    r[n * 9 / 10]);
	free(r);
	tree_free(&p);
	tree_free(&t);
}
