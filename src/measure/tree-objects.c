/*
 * The files a build adds to a generated tree (tree_objects, tree.h), in
 * the proportions of compilebench's 2.6.20 build: its
 * dataset-unpatched-compiled adds 3263 files of 713696760 bytes to the
 * 21280 sources of 233176153 bytes. Of those: 1143 sources compiled (an
 * eighth of the .c, whole directories at a time, one architecture) each
 * into a .o and a .cmd of ~12.7 KB; a built-in.o per directory holding
 * objects (the sum of what it links) with a small .cmd; module objects
 * linking a directory's objects; ~420 tiny generated headers; and the
 * link outputs, vmlinux and its two temporaries of ~64 MB each, a third
 * of the bytes. Deterministic in the source list; integer arithmetic
 * only. Any thread (allocates).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "tree-int.h"

/* compilebench's 2.6.20 lists (facts of its data set). */
#define CB_SOURCES 21280
#define CB_SOURCE_BYTES 233176153ULL
#define CB_OBJECTS 3263
#define CB_OBJECT_BYTES 713696760ULL
#define CB_COMPILED 1143 /* .c and .S with a .o */
/* A module object links this many of its directory's objects. */
#define MODULE_GROUP 12
/*
 * An object's size per byte of its source, in 1/16: calibrated so that
 * objects, built-in.o and module objects weigh two thirds of the build,
 * as compilebench's do (the link outputs take the rest).
 */
#define OBJ_PER_SRC16 170
/* A link output's .cmd. */
#define LINK_CMD 1024
/* Of 1000 objects, this many include a header a patch changes. */
#define HDR_DEPENDENT 900

/* The link outputs, sized in 1/10000 of vmlinux (compilebench's). */
static const struct link_out {
	const char *name;
	unsigned frac;
	bool boot; /* arch/x86_64/boot, when the tree has it */
	bool cmd; /* has a .NAME.cmd */
} link_outs[] = {
	{ ".tmp_vmlinux1", 9905, false, true },
	{ ".tmp_vmlinux2", 10000, false, true },
	{ "vmlinux", 10000, false, true },
	{ ".tmp_kallsyms1.S", 472, false, false },
	{ ".tmp_kallsyms1.o", 215, false, true },
	{ ".tmp_kallsyms2.S", 472, false, false },
	{ ".tmp_kallsyms2.o", 215, false, true },
	{ ".tmp_System.map", 193, false, false },
	{ "System.map", 193, false, false },
	{ "Module.symvers", 28, false, false },
	{ ".config", 6, false, false },
	{ "vmlinux.bin", 1470, true, true },
	{ "vmlinux.bin.gz", 441, true, true },
	{ "piggy.o", 446, true, true },
	{ "bzImage", 446, true, true },
};
#define NLINK_OUTS (sizeof link_outs / sizeof link_outs[0])

/* x * num / den without overflow for x up to 2^64 / num. */
static uint64_t
scale(uint64_t x, uint64_t num, uint64_t den)
{
	return x / den * num + x % den * num / den;
}

/* A number from 0 to 255 that depends only on i. */
static unsigned
jitter(uint64_t i)
{
	uint64_t s = i * 0x2545f4914f6cdd1dULL;

	return (unsigned)(tree_rand(&s) & 0xff);
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The build's state: which sources compile, sums per directory. */
struct build {
	const struct tree *src;
	struct tree_lb lb;
	uint64_t salt; /* changes with the headers: patched builds differ */
	bool *compiled; /* per source file */
	uint64_t *sum; /* per directory: what its built-in.o links */
	uint32_t *own; /* per directory: its compiled sources */
	bool *has; /* per directory: a built-in.o */
	const char **names; /* the sources' paths, sorted */
	size_t nnames;
};

/*
 * The directories a defconfig builds from: no documentation, tools or
 * headers, and one architecture. Core directories come first.
 */
static int
build_class(const char *path)
{
	static const char *const core[] = { "kernel", "mm", "init", "ipc",
		"block", "lib", "arch/x86_64" };
	static const char *const never[] = { "Documentation", "tools",
		"include", "usr", "samples" };
	const char *p = strchr(path, '/');
	size_t i, n;

	p = p ? p + 1 : path; /* past linux/ */
	for (i = 0; i < sizeof never / sizeof *never; i++) {
		n = strlen(never[i]);
		if (strncmp(p, never[i], n) == 0 && (p[n] == '/' || !p[n]))
			return -1;
	}
	if (strncmp(p, "arch/", 5) == 0 && strncmp(p, "arch/x86_64", 11) != 0 &&
	    strncmp(p, "arch/i386", 9) != 0)
		return -1;
	for (i = 0; i < sizeof core / sizeof *core; i++) {
		n = strlen(core[i]);
		if (strncmp(p, core[i], n) == 0 && (p[n] == '/' || !p[n]))
			return 0;
	}
	return 1;
}

struct cand {
	uint64_t key;
	uint32_t file;
};

static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

/*
 * Choose the compiled sources: compilebench's share of the files, taken
 * a whole directory at a time (a config builds a driver's directory or
 * not), core first, the others in an order the paths fix.
 */
static void
choose_compiled(struct build *b)
{
	const struct tree *src = b->src;
	size_t want = (size_t)scale(src->nfiles, CB_COMPILED, CB_SOURCES);
	struct cand *c = xcalloc(src->nfiles + 1, sizeof *c);
	size_t n = 0, i;

	if (want == 0)
		want = 1;
	for (i = 0; i < src->nfiles; i++) {
		const struct tree_file *f = &src->files[i];
		bool asm_src = ends_with(f->path, ".S");
		int cls;

		if (!ends_with(f->path, ".c") && !asm_src)
			continue;
		cls = build_class(f->path);
		if (cls < 0 || (asm_src && strstr(f->path, "/arch/") == NULL))
			continue;
		c[n].key = ((uint64_t)cls << 63) |
		    (tree_hash_str(src->dirs[f->dir].path) >> 1);
		c[n++].file = (uint32_t)i;
	}
	qsort(c, n, sizeof *c, cmp_cand);
	for (i = 0; i < n && i < want; i++)
		b->compiled[c[i].file] = true;
	free(c);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Would path clash with a source, or (for NAME.o) with the object of a
 * source NAME.c or NAME.S? Generated names cannot clash with each other.
 */
static bool
name_taken(const struct build *b, const char *path)
{
	char p[TREE_PATH_MAX + 24];
	const char *key = p;
	size_t n = strlen(path);

	if (n + 1 > sizeof p)
		return true;
	memcpy(p, path, n + 1);
	if (bsearch(&key, b->names, b->nnames, sizeof *b->names, cmp_str))
		return true;
	if (!ends_with(p, ".o"))
		return false;
	p[n - 1] = 'c';
	if (bsearch(&key, b->names, b->nnames, sizeof *b->names, cmp_str))
		return true;
	p[n - 1] = 'S';
	return bsearch(&key, b->names, b->nnames, sizeof *b->names, cmp_str);
}

static void
emit(struct build *b, const char *path, uint64_t size, uint32_t mode,
    uint32_t dir, uint32_t src)
{
	tree_lb_push(&b->lb, path, size ? size : 1, mode, dir, src);
}

/* The .cmd kbuild writes beside target (".NAME.cmd"). */
static void
emit_cmd(struct build *b, const char *target, uint64_t size, uint32_t dir)
{
	char p[TREE_PATH_MAX + 16];
	const char *slash = strrchr(target, '/');
	int dl = slash ? (int)(slash - target + 1) : 0;

	snprintf(p, sizeof p, "%.*s.%s.cmd", dl, target, target + dl);
	emit(b, p, size, 0644, dir, TREE_NO_SRC);
}

/*
 * Each compiled source's .o (its size from the source's, more with
 * debug info) and .cmd (the dependency list: ~9-17 KB). An object that
 * includes a header changes size when the headers change (salt).
 */
static void
emit_sources(struct build *b)
{
	const struct tree *src = b->src;
	char p[TREE_PATH_MAX + 8];
	size_t j;

	for (j = 0; j < src->nfiles; j++) {
		const struct tree_file *f = &src->files[j];
		uint64_t k = j, sz;

		if (!b->compiled[j])
			continue;
		if (jitter(j ^ 0x68647273ULL) * 1000 / 256 < HDR_DEPENDENT)
			k += b->salt;
		snprintf(p, sizeof p, "%s", f->path);
		p[strlen(p) - 1] = 'o';
		sz = f->size * OBJ_PER_SRC16 / 16 + 2000;
		sz = sz - sz / 8 + sz * jitter(k) / 1024;
		emit(b, p, sz, 0644, f->dir, (uint32_t)j);
		b->sum[f->dir] += sz;
		b->own[f->dir]++;
		b->has[f->dir] = true;
		emit_cmd(b, p, 9000 + 32 * (uint64_t)jitter(k + 1), f->dir);
	}
}

/*
 * A module object per MODULE_GROUP objects of a directory ("xfs.o"
 * links fs/xfs), sized as what it links.
 */
static void
emit_modules(struct build *b, uint32_t d, const char *base)
{
	char p[TREE_PATH_MAX + 24];
	uint32_t g, groups = b->own[d] / MODULE_GROUP;

	for (g = 0; g < groups; g++) {
		if (g == 0)
			snprintf(p, sizeof p, "%s/%s.o", b->src->dirs[d].path,
			    base);
		else
			snprintf(p, sizeof p, "%s/%s%u.o", b->src->dirs[d].path,
			    base, g + 1);
		if (name_taken(b, p))
			continue;
		emit(b, p, b->sum[d] / groups, 0644, d, TREE_NO_SRC);
		emit_cmd(b, p, 120 + 16 * MODULE_GROUP, d);
	}
}

/* built-in.o of each directory with objects, its .cmd, its modules. */
static void
emit_builtins(struct build *b)
{
	const struct tree *src = b->src;
	char p[TREE_PATH_MAX + 16];
	uint64_t *own_sum = xcalloc(src->ndirs, sizeof *own_sum);
	size_t d;

	memcpy(own_sum, b->sum, src->ndirs * sizeof *own_sum);
	/* Children come after their parent: sum them bottom up. */
	for (d = src->ndirs; d-- > 1;) {
		uint32_t parent = src->dirs[d].parent;

		if (b->has[d] && parent != TREE_NO_SRC && parent != 0) {
			b->sum[parent] += b->sum[d];
			b->has[parent] = true;
		}
	}
	for (d = 1; d < src->ndirs; d++) {
		const char *base = strrchr(src->dirs[d].path, '/');

		if (!b->has[d])
			continue;
		snprintf(p, sizeof p, "%s/built-in.o", src->dirs[d].path);
		emit(b, p, b->sum[d], 0644, (uint32_t)d, TREE_NO_SRC);
		emit_cmd(b, p, 100 + 20 * (uint64_t)b->own[d], (uint32_t)d);
		b->sum[d] = own_sum[d]; /* a module links its own objects */
		emit_modules(b, (uint32_t)d, base ? base + 1 : "mod");
	}
	free(own_sum);
}

/* The directory the boot images go to: arch/x86_64/boot, else the top. */
static uint32_t
boot_dir(const struct tree *src)
{
	for (size_t d = 0; d < src->ndirs; d++)
		if (ends_with(src->dirs[d].path, "/arch/x86_64/boot"))
			return (uint32_t)d;
	return 0;
}

/*
 * The link outputs take the build's bytes left (vmlinux sized so that
 * the whole build weighs compilebench's share of the sources).
 */
static void
emit_links(struct build *b, uint64_t total)
{
	const struct tree *src = b->src;
	uint32_t bd = boot_dir(src);
	uint64_t left, v, fracs = 0, used = 0, cmds = 0, sz[NLINK_OUTS];
	char p[TREE_PATH_MAX + 24];
	size_t k;

	for (k = 0; k < NLINK_OUTS; k++) {
		fracs += link_outs[k].frac;
		cmds += link_outs[k].cmd ? LINK_CMD : 0;
	}
	left = total > b->lb.t->bytes ? total - b->lb.t->bytes : 0;
	left = left > cmds ? left - cmds : 0;
	v = scale(left, 10000, fracs);
	for (k = 0; k < NLINK_OUTS; k++) {
		sz[k] = scale(v, link_outs[k].frac, 10000);
		used += sz[k];
	}
	sz[0] += left > used ? left - used : 0; /* rounding: exact total */
	for (k = 0; k < NLINK_OUTS; k++) {
		uint32_t d = link_outs[k].boot ? bd : 0;

		snprintf(p, sizeof p, "%s/%s", src->dirs[d].path,
		    link_outs[k].name);
		emit(b, p, sz[k], link_outs[k].boot ? 0644 : 0755, d,
		    TREE_NO_SRC);
		if (link_outs[k].cmd)
			emit_cmd(b, p, LINK_CMD, d);
	}
}

/*
 * Generated headers (include/config/..., autoconf.h) make up the count:
 * tiny files, one per config option, that a build rewrites rarely.
 */
static void
emit_headers(struct build *b, size_t want)
{
	const struct tree *src = b->src;
	uint32_t inc = 0;
	char p[TREE_PATH_MAX + 24];
	size_t i = 0, made = 0;

	for (size_t d = 0; d < src->ndirs; d++)
		if (ends_with(src->dirs[d].path, "/include/linux"))
			inc = (uint32_t)d;
	while (b->lb.t->nfiles < want) {
		snprintf(p, sizeof p, "%s/config-%zu.h", src->dirs[inc].path,
		    i++);
		if (name_taken(b, p))
			continue;
		emit(b, p, 1 + 3 * (uint64_t)jitter(made++ ^ 0x636667ULL), 0644,
		    inc, TREE_NO_SRC);
	}
}

/*
 * What the headers weigh (the salt of the objects that include them) and
 * what the sources weigh, summed here: a borrowed list's bytes may lag.
 */
static uint64_t
headers_salt(const struct tree *src, uint64_t *bytes)
{
	uint64_t s = 0;

	*bytes = 0;
	for (size_t i = 0; i < src->nfiles; i++) {
		*bytes += src->files[i].size;
		if (ends_with(src->files[i].path, ".h"))
			s += src->files[i].size;
	}
	return s * 0x9e3779b97f4a7c15ULL;
}

int
tree_objects(const struct tree *src, struct tree *out)
{
	struct build b;
	size_t n = src->ndirs ? src->ndirs : 1, i, want, nlink = 0;
	uint64_t total;

	memset(&b, 0, sizeof b);
	b.src = src;
	tree_lb_init(&b.lb, out);
	if (src->ndirs == 0 || src->nfiles == 0) {
		tree_lb_done(&b.lb);
		return 0;
	}
	want = (size_t)scale(src->nfiles, CB_OBJECTS, CB_SOURCES);
	b.salt = headers_salt(src, &total);
	total = scale(total, CB_OBJECT_BYTES, CB_SOURCE_BYTES);
	b.compiled = xcalloc(src->nfiles, sizeof *b.compiled);
	b.sum = xcalloc(n, sizeof *b.sum);
	b.own = xcalloc(n, sizeof *b.own);
	b.has = xcalloc(n, sizeof *b.has);
	b.names = xcalloc(src->nfiles, sizeof *b.names);
	for (i = 0; i < src->nfiles; i++)
		b.names[i] = src->files[i].path;
	b.nnames = src->nfiles;
	qsort(b.names, b.nnames, sizeof *b.names, cmp_str);
	choose_compiled(&b);
	emit_sources(&b);
	emit_builtins(&b);
	/* Headers fill the count; the link outputs come last. */
	for (i = 0; i < NLINK_OUTS; i++)
		nlink += link_outs[i].cmd ? 2 : 1;
	emit_headers(&b, want > nlink ? want - nlink : 0);
	emit_links(&b, total);
	tree_lb_done(&b.lb);
	free(b.names);
	free(b.compiled);
	free(b.sum);
	free(b.own);
	free(b.has);
	return 0;
}
