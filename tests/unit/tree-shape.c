/*
 * The shape of a tree from its entries (tree-shape.h), in the definitions
 * of bench/tree-stats.sh: depth counts path components (linux/ is 1),
 * quantiles are nearest rank, per-directory counts take every directory.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree-shape.h"

void
shape_add(struct shape *s, char type, const char *path, uint64_t size,
    uint32_t mode)
{
	struct entry *e;
	size_t len = strlen(path);

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		cr_assert_not_null(s->v);
	}
	e = &s->v[s->n++];
	e->type = type;
	e->path = strdup(path);
	if (len > 1 && e->path[len - 1] == '/')
		e->path[len - 1] = '\0';
	e->size = size;
	e->mode = mode;
}

void
shape_free(struct shape *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* The entries of t in tar's listing order: a directory, its files, its links.
 */
void
shape_of_tree(struct shape *s, const struct tree *t)
{
	size_t d, j = 0, k = 0;

	for (d = 0; d < t->ndirs; d++) {
		shape_add(s, 'd', t->dirs[d].path, 0, t->dirs[d].mode);
		for (; j < t->nfiles && t->files[j].dir == d; j++)
			shape_add(s, '-', t->files[j].path, t->files[j].size,
			    t->files[j].mode);
		for (; k < t->nlinks && t->links[k].dir == d; k++)
			shape_add(s,
			    t->links[k].type == TREE_SYMLINK ? 'l' : 'h',
			    t->links[k].path, 0,
			    t->links[k].type == TREE_SYMLINK
				? 0777
				: t->files[t->links[k].file].mode);
	}
	cr_assert_eq(j, t->nfiles, "files out of directory order");
	cr_assert_eq(k, t->nlinks, "links out of directory order");
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Nearest rank: the value at rank ceil(q/100 * n) of sorted v. */
static double
quantile(const uint64_t *v, size_t n, unsigned q)
{
	size_t r = (q * n + 99) / 100;

	return (double)v[r < 1 ? 0 : r - 1];
}

static unsigned
depth_of(const char *path)
{
	unsigned n = 1;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

/* The index of the directory holding path in sorted dirs, or -1. */
static long
parent_of(char *const *dirs, size_t nd, const char *path)
{
	const char *slash = strrchr(path, '/');
	char buf[TREE_PATH_MAX + 8];
	const char *key = buf;
	char *const *hit;

	if (slash == NULL)
		return -1;
	snprintf(buf, sizeof buf, "%.*s", (int)(slash - path), path);
	hit = bsearch(&key, dirs, nd, sizeof *dirs, cmp_strp);
	return hit ? (long)(hit - dirs) : -1;
}

void
figures_of(const struct shape *s, struct figures *f)
{
	size_t i, nd = 0, nf = 0, nsym = 0, nempty = 0, nexec = 0;
	size_t ddeep = 0, fdeep = 0, nofiles = 0, leaves = 0, plen = 0;
	char **dirs = malloc((s->n + 1) * sizeof *dirs);
	uint64_t *sizes = malloc((s->n + 1) * sizeof *sizes), sum = 0;
	uint64_t *fpd, *spd;
	unsigned dmax = 0;
	double med;

	memset(f, 0, sizeof *f);
	for (i = 0; i < s->n; i++) {
		const struct entry *e = &s->v[i];
		unsigned d = depth_of(e->path);

		dmax = d > dmax ? d : dmax;
		plen = strlen(e->path) > plen ? strlen(e->path) : plen;
		if (e->type == 'd') {
			dirs[nd++] = e->path;
			ddeep += d >= 10;
		} else if (e->type == '-') {
			sizes[nf++] = e->size;
			sum += e->size;
			nempty += e->size == 0;
			nexec += (e->mode & 0111) != 0;
			fdeep += d >= 10;
		} else if (e->type == 'l') {
			nsym++;
		}
	}
	cr_assert(nd > 0 && nf > 0);
	qsort(dirs, nd, sizeof *dirs, cmp_strp);
	fpd = calloc(nd, sizeof *fpd);
	spd = calloc(nd, sizeof *spd);
	for (i = 0; i < s->n; i++) {
		long p = parent_of(dirs, nd, s->v[i].path);

		if (p >= 0 && s->v[i].type == '-')
			fpd[p]++;
		else if (p >= 0 && s->v[i].type == 'd')
			spd[p]++;
	}
	for (i = 0; i < nd; i++) {
		nofiles += fpd[i] == 0;
		leaves += spd[i] == 0;
	}
	qsort(sizes, nf, sizeof *sizes, cmp_u64);
	qsort(fpd, nd, sizeof *fpd, cmp_u64);
	qsort(spd, nd, sizeof *spd, cmp_u64);
	med = quantile(sizes, nf, 50);
	f->symlink_per_10k = 1e4 * (double)nsym / (double)nf;
	f->empty_pct = 100.0 * (double)nempty / (double)nf;
	f->exec_pct = 100.0 * (double)nexec / (double)nf;
	f->depth_max = dmax;
	f->dirs_deep_pct = 100.0 * (double)ddeep / (double)nd;
	f->files_deep_pct = 100.0 * (double)fdeep / (double)nf;
	f->p10 = quantile(sizes, nf, 10) / med;
	f->p25 = quantile(sizes, nf, 25) / med;
	f->p75 = quantile(sizes, nf, 75) / med;
	f->p90 = quantile(sizes, nf, 90) / med;
	f->p99 = quantile(sizes, nf, 99) / med;
	f->mean = (double)sum / (double)nf / med;
	f->fpd_mean = (double)nf / (double)nd;
	f->fpd_p50 = quantile(fpd, nd, 50);
	f->fpd_p90 = quantile(fpd, nd, 90);
	f->fpd_p99 = quantile(fpd, nd, 99);
	f->no_files_pct = 100.0 * (double)nofiles / (double)nd;
	f->leaves_pct = 100.0 * (double)leaves / (double)nd;
	f->spd_p90 = quantile(spd, nd, 90);
	f->spd_p99 = quantile(spd, nd, 99);
	f->path_max = (double)plen;
	free(dirs);
	free(sizes);
	free(fpd);
	free(spd);
}

/* src/measure/tree.c's table: name, linux-source-6.1's figure, the bounds. */
static const struct {
	const char *name;
	size_t off;
	double real, lo, hi;
} ranges[] = {
#define R(field, real, lo, hi)                                                 \
	{                                                                      \
#field, offsetof(struct figures, field), real, lo, hi          \
	}
	R(symlink_per_10k, 7.1, 6.0, 8.5),
	R(empty_pct, 0.04, 0.02, 0.06),
	R(exec_pct, 1.04, 0.80, 1.30),
	R(depth_max, 11, 10, 12),
	R(dirs_deep_pct, 1.10, 0.60, 1.80),
	R(files_deep_pct, 0.94, 0.50, 1.50),
	R(p10, 0.115, 0.092, 0.138),
	R(p25, 0.330, 0.264, 0.396),
	R(p75, 2.947, 2.50, 3.39),
	R(p90, 7.424, 6.31, 8.54),
	R(p99, 32.23, 27.4, 37.1),
	R(mean, 4.266, 3.63, 4.91),
	R(fpd_mean, 15.42, 11.6, 19.3),
	R(fpd_p50, 6, 4, 9),
	R(fpd_p90, 32, 24, 40),
	R(fpd_p99, 156, 100, 250),
	R(no_files_pct, 6.30, 1.5, 12.0),
	R(leaves_pct, 78.9, 70.0, 88.0),
	R(spd_p90, 2, 1, 4),
	R(spd_p99, 22, 10, 35),
	R(path_max, 117, 48, TREE_PATH_MAX - 1),
#undef R
};

void
figures_check(const struct figures *f, const char *what)
{
	size_t i;

	for (i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
		double v = *(const double *)((const char *)f + ranges[i].off);

		cr_expect(v >= ranges[i].lo && v <= ranges[i].hi,
		    "%s: %s = %.3f, not in [%.3f, %.3f] (real tree: %.3f)",
		    what, ranges[i].name, v, ranges[i].lo, ranges[i].hi,
		    ranges[i].real);
	}
}

/* Read the tarball at path into sh, checking that every byte is the fill. */
void
shape_of_tarball(struct shape *sh, const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	static char buf[65536];

	archive_read_support_format_all(a);
	cr_assert_eq(archive_read_open_filename(a, path, 65536), ARCHIVE_OK,
	    "%s: %s", path, archive_error_string(a));
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		mode_t type = archive_entry_filetype(e);
		char c = archive_entry_hardlink(e) ? 'h'
		    : type == AE_IFDIR             ? 'd'
		    : type == AE_IFLNK             ? 'l'
		    : type == AE_IFREG             ? '-'
						   : '?';
		uint64_t got = 0;
		la_ssize_t n;

		while ((n = archive_read_data(a, buf, sizeof buf)) > 0) {
			for (la_ssize_t i = 0; i < n; i++)
				cr_assert_eq(buf[i], TREE_FILL_BYTE);
			got += (uint64_t)n;
		}
		cr_assert_geq(n, 0, "%s", archive_error_string(a));
		shape_add(sh, c, archive_entry_pathname(e), got,
		    (uint32_t)archive_entry_perm(e));
		if (c == 'l' || c == 'h')
			sh->v[sh->n - 1].size = 0;
		if (c == 'l')
			sh->v[sh->n - 1].mode = 0777;
		/* Keep the target, to compare (in the size's stead). */
		if (c == 'l' || c == 'h') {
			const char *tg = c == 'l' ? archive_entry_symlink(e)
						  : archive_entry_hardlink(e);

			shape_add(sh, '>', tg, 0, 0);
		}
	}
	archive_read_free(a);
}
