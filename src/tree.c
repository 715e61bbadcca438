/*
 * Generation of the synthetic kernel-like tree (tree.h). A template of
 * the top of a 2.6.20 tree (its directories, with roughly their real file
 * counts as weights) is scaled to the file count asked for; directories
 * that get many files grow generated subdirectories, down to six levels.
 * File sizes are drawn from a heavy-tailed table of power-of-two buckets
 * (median about 6 KiB), then scaled so that they add up to the size asked
 * for exactly. Only integer arithmetic and our own PRNG: the list is the
 * same on every machine. Any thread (allocates).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree-int.h"
#include "xalloc.h"

#define ROOT_NAME "linux"
#define MAX_DEPTH 6 /* of a directory; linux/ is 1 */
#define SPLIT_OVER 16 /* a dir with more own files may split */
#define NAME_MAX_LEN 40

/* Syllables of generated names ("ehci-hcd", "cx88_core", "saa7134"). */
static const char *const stems[] = {
	"ata",
	"usb",
	"pci",
	"net",
	"dev",
	"core",
	"hw",
	"irq",
	"dma",
	"bus",
	"tx",
	"rx",
	"phy",
	"mac",
	"io",
	"mem",
	"inode",
	"file",
	"dir",
	"super",
	"lock",
	"sched",
	"timer",
	"clk",
	"gpio",
	"i2c",
	"spi",
	"uart",
	"serial",
	"tty",
	"video",
	"snd",
	"pcm",
	"mixer",
	"codec",
	"ctl",
	"eth",
	"wlan",
	"scsi",
	"sd",
	"host",
	"hcd",
	"hub",
	"ehci",
	"ohci",
	"uhci",
	"main",
	"init",
	"setup",
	"proc",
	"sys",
	"util",
	"debug",
	"trace",
	"quirks",
	"power",
	"pm",
	"mtd",
	"nand",
	"flash",
	"map",
	"cfi",
	"radeon",
	"intel",
	"amd",
	"via",
	"sis",
	"ati",
	"tulip",
	"e1000",
	"bnx2",
	"tg3",
	"sky2",
	"cx88",
	"saa7134",
	"bttv",
	"ov511",
	"pwc",
	"em28xx",
	"ivtv",
	"sym",
	"aic",
	"qla",
	"lpfc",
	"mpt",
	"fc",
	"iscsi",
	"sas",
	"raid",
	"md",
	"dm",
	"crypt",
	"hash",
	"cache",
	"page",
	"buf",
	"queue",
	"cmd",
	"ops",
	"attr",
	"mod",
	"fw",
	"rom",
	"nvram",
	"rtc",
	"wdt",
	"led",
	"kbd",
	"mouse",
	"joy",
	"fb",
	"con",
	"logo",
	"tbl",
	"reg",
	"regs",
	"probe",
	"ioctl",
	"xmit",
	"ring",
	"desc",
	"ack",
	"ether",
	"arp",
	"route",
	"sock",
	"tcp",
	"udp",
	"ip",
	"frag",
	"conntrack",
	"nat",
	"filter",
	"table",
	"match",
	"target",
	"mgmt",
	"auth",
	"assoc",
	"scan",
	"smp",
	"numa",
	"acpi",
	"apic",
	"mpparse",
	"entry",
	"signal",
	"ptrace",
	"traps",
	"time",
	"cpu",
	"topology",
	"vm",
	"mmap",
	"tlb",
	"fault",
	"swap",
	"slab",
	"aops",
	"journal",
	"xattr",
	"acl",
	"namei",
	"symlink",
	"export",
	"ialloc",
	"balloc",
	"extent",
};

struct builder {
	struct tree *t;
	uint64_t rng;
	struct tree_nodes tn;
	size_t cap_dirs, cap_files;
	size_t *dir_off, *file_off; /* paths, as arena offsets */
	uint64_t *raw; /* drawn sizes, before scaling */
	size_t *hash; /* arena offset + 1; 0 = free */
	size_t hash_cap, hash_n;
};

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

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static void hash_put(struct builder *b, size_t off);

static void
hash_grow(struct builder *b)
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
hash_find(const struct builder *b, const char *s)
{
	size_t mask = b->hash_cap - 1, i = (size_t)hash_str(s) & mask;

	while (b->hash[i] && strcmp(b->t->strings + b->hash[i] - 1, s) != 0)
		i = (i + 1) & mask;
	return i;
}

static void
hash_put(struct builder *b, size_t off)
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
hash_has(const struct builder *b, const char *s)
{
	return b->hash_cap && b->hash[hash_find(b, s)] != 0;
}

/*
 * Add a path made of dir + "/" + name + ext that no file or directory
 * has yet: on a clash, a number goes before the extension ("ide-cd2.c").
 */
static size_t
path_unique(struct builder *b, const char *dir, const char *name,
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
name_gen(struct builder *b, char *out, size_t len)
{
	const size_t nstems = sizeof stems / sizeof stems[0];
	const char *s1 = stems[tree_below(&b->rng, (uint32_t)nstems)];
	const char *s2 = stems[tree_below(&b->rng, (uint32_t)nstems)];
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
 * Per ten thousand: the share of sizes in [2^k, 2^(k+1)) for k = 6..20
 * (64 B .. 2 MiB). Median about 6 KiB, mean about 12 KiB, 1% above
 * 100 KiB: the shape of the .c/.h files of a 2.6 tree.
 */
static const uint16_t size_table[15] = {
	100,
	250,
	500,
	800,
	1200,
	1600,
	1920,
	1700,
	1100,
	550,
	200,
	60,
	15,
	4,
	1,
};

/* A size from the table, shifted down by shift buckets (small .h). */
static uint64_t
size_draw(struct builder *b, unsigned shift)
{
	uint32_t x = tree_below(&b->rng, 10000), acc = 0;
	unsigned k;

	for (k = 0; k < 15; k++) {
		acc += size_table[k];
		if (x < acc)
			break;
	}
	if (k > 14)
		k = 14;
	k = k >= shift ? k - shift : 0;
	return (1ULL << (k + 6)) + tree_below(&b->rng, 1U << (k + 6));
}

/* Uniform in [lo, hi). */
static uint64_t
size_range(struct builder *b, uint32_t lo, uint32_t hi)
{
	return lo + tree_below(&b->rng, hi - lo);
}

/* ---------------------------------------------------------------- lists */

static uint32_t
dir_add(struct builder *b, size_t off, uint32_t parent, uint16_t depth)
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
file_add(struct builder *b, size_t off, uint32_t dir, uint64_t raw,
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
file_gen(struct builder *b, uint32_t dir, uint8_t kind, uint32_t i, uint32_t n)
{
	const char *dpath = b->t->strings + b->dir_off[dir];
	char name[NAME_MAX_LEN];
	const char *ext = "";
	uint64_t raw;
	uint32_t mode = 0644, x;

	if (kind == K_ROOT && i < sizeof root_files / sizeof root_files[0]) {
		file_add(b, path_unique(b, dpath, root_files[i].name, ""), dir,
		    root_files[i].size, mode);
		return;
	}
	if ((kind == K_SRC || kind == K_ARCH || kind == K_SCRIPT) && n >= 2 &&
	    i < 2) {
		if (i == 0) {
			file_add(b, path_unique(b, dpath, "Makefile", ""), dir,
			    size_range(b, 300, 4000), mode);
			return;
		}
		if (n >= 4) {
			file_add(b, path_unique(b, dpath, "Kconfig", ""), dir,
			    size_range(b, 1000, 16000), mode);
			return;
		}
	}
	name_gen(b, name, sizeof name);
	x = tree_below(&b->rng, 100);
	switch (kind) {
	case K_DOC:
		ext = x < 45 ? ".txt" : "";
		raw = size_draw(b, 0);
		break;
	case K_CONF:
		ext = "_defconfig";
		raw = size_range(b, 8000, 32000);
		break;
	case K_HDR:
		ext = ".h";
		raw = size_draw(b, x < 50);
		break;
	case K_SCRIPT:
		ext = x < 55 ? ".c" : x < 65 ? ".h" : x < 85 ? ".sh" : ".pl";
		if (x >= 65)
			mode = 0755;
		raw = size_draw(b, x < 65 ? 0 : 1);
		break;
	default: /* K_SRC, K_ARCH, K_ROOT */
		if (kind == K_ARCH && x < 10)
			ext = ".S";
		else
			ext = x < 70 ? ".c" : ".h";
		raw = size_draw(b, ext[1] == 'h' && x < 85);
		break;
	}
	file_add(b, path_unique(b, dpath, name, ext), dir, raw, mode);
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

static void emit_gen(struct builder *b, uint32_t parent, uint8_t kind,
    const char *prefix, uint64_t n);

/*
 * The files of directory dir: own of them here, and when there are many
 * and depth allows, part of them in generated subdirectories.
 */
static void
emit_files(struct builder *b, uint32_t dir, uint8_t kind, uint8_t flags,
    const char *prefix, uint64_t own)
{
	uint64_t here = own, i;

	if (!(flags & F_FLAT) && kind != K_CONF &&
	    (kind != K_DOC || (flags & F_SPLIT)) && own > SPLIT_OVER &&
	    b->t->dirs[dir].depth < MAX_DEPTH)
		here = own * (35 + tree_below(&b->rng, 31)) / 100;
	for (i = 0; i < here; i++)
		file_gen(b, dir, kind, (uint32_t)i, (uint32_t)here);
	if (here < own)
		emit_gen(b, dir, kind, prefix, own - here);
}

/* Generated subdirectories of parent holding n files in all. */
static void
emit_gen(struct builder *b, uint32_t parent, uint8_t kind, const char *prefix,
    uint64_t n)
{
	uint64_t w[12], out[12];
	size_t k = 1 + (size_t)(n / SPLIT_OVER), i;
	char name[NAME_MAX_LEN + 16], base[NAME_MAX_LEN];

	if (k > 12)
		k = 12;
	for (i = 0; i < k; i++)
		w[i] = 1 + tree_below(&b->rng, 4);
	split(n, w, k, out);
	for (i = 0; i < k; i++) {
		const char *ppath = b->t->strings + b->dir_off[parent];
		uint16_t depth = (uint16_t)(b->t->dirs[parent].depth + 1);
		uint32_t d;

		if (out[i] == 0)
			continue;
		name_gen(b, base, sizeof base);
		snprintf(name, sizeof name, "%s%s", prefix, base);
		d = dir_add(b, path_unique(b, ppath, name, ""), parent, depth);
		emit_files(b, d, kind, kind == K_DOC ? 0 : F_SPLIT, "", out[i]);
	}
}

/* Template node idx, its directory at off, with n files in its subtree. */
static void
emit_node(struct builder *b, size_t idx, uint32_t parent, size_t off,
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
	emit_files(b, dir, nd->kind, nd->flags, nd->prefix, out[0]);
	for (i = 0; i < nk; i++)
		if (out[i + 1] > 0)
			emit_node(b, kids[i], dir, koff[i], out[i + 1]);
}

/*
 * Scale the drawn sizes so that they add up to bytes: each file gets one
 * byte, and bytes - files is shared in proportion to the drawn sizes
 * (cumulative, so that the rounding never drifts).
 */
static void
sizes_scale(struct builder *b, uint64_t bytes)
{
	struct tree *t = b->t;
	uint64_t total = 0, acc = 0, prev = 0, extra = bytes - t->nfiles;
	size_t i;

	for (i = 0; i < t->nfiles; i++)
		total += b->raw[i];
	for (i = 0; i < t->nfiles; i++) {
		uint64_t cum;

		acc += b->raw[i];
		cum = tree_muldiv(acc, extra, total);
		t->files[i].size = 1 + cum - prev;
		prev = cum;
	}
	t->bytes = bytes;
}

static void
builder_done(struct builder *b)
{
	free(b->tn.v);
	free(b->dir_off);
	free(b->file_off);
	free(b->raw);
	free(b->hash);
}

void
tree_spec_default(struct tree_spec *spec)
{
	spec->seed = TREE_DEFAULT_SEED;
	spec->files = TREE_DEFAULT_FILES;
	spec->bytes = TREE_DEFAULT_BYTES;
}

int
tree_generate(const struct tree_spec *spec, struct tree *t)
{
	struct builder b;
	size_t i, off;

	memset(t, 0, sizeof *t);
	if (spec->files == 0 || spec->bytes < spec->files)
		return -EINVAL;
	memset(&b, 0, sizeof b);
	b.t = t;
	b.rng = spec->seed;
	tree_template(&b.tn);
	off = tree_arena_add(t, ROOT_NAME);
	hash_put(&b, off);
	emit_node(&b, 0, TREE_NO_SRC, off, spec->files);
	sizes_scale(&b, spec->bytes);
	for (i = 0; i < t->ndirs; i++)
		t->dirs[i].path = t->strings + b.dir_off[i];
	for (i = 0; i < t->nfiles; i++)
		t->files[i].path = t->strings + b.file_off[i];
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
	free(t->strings);
	memset(t, 0, sizeof *t);
}
