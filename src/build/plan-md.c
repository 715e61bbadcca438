/*
 * Plan builder, md part: wiping the variant's devices and the mdadm
 * commands of its arrays (an fs log array, legs, the top array) with
 * every option spelled out, each followed by a wait for its initial
 * resync unless the lab says assume_clean. See plan.h. Thread of the
 * caller.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "plan-int.h"

/* ---------------------------------------------------------------- wipe */

static void
touch_list(struct pb *b, struct av *all, const struct lab_array *a,
    const struct lab_strv *s, enum lab_a_field f, enum plan_role role)
{
	char field[LAB_PATH_MAX];

	lab_array_path(b->v, a, f, field, sizeof field);
	for (size_t i = 0; i < s->n; i++) {
		char *d = pb_dev(b, s->v[i]);

		pb_touch(b, d, s->v[i], role, field, lab_array_line(a, f));
		av_add(all, d);
		free(d);
	}
}

static void
touch_one(struct pb *b, struct av *all, const char *name, enum plan_role role,
    const char *field, int line)
{
	char *d = pb_dev(b, name);

	pb_touch(b, d, name, role, field, line);
	av_add(all, d);
	free(d);
}

/* Members, spares and write journal of one md array (not its legs). */
static void
touch_array(struct pb *b, struct av *all, const struct lab_array *a,
    enum plan_role role, char **members, size_t n)
{
	char field[LAB_PATH_MAX];

	if (members != NULL) {
		lab_array_path(b->v, a, LAB_A_DEVICES, field, sizeof field);
		for (size_t i = 0; i < n; i++)
			touch_one(b, all, members[i], role, field,
			    lab_array_line(a, LAB_A_DEVICES));
	} else {
		touch_list(b, all, a, &a->devices, LAB_A_DEVICES, role);
	}
	touch_list(b, all, a, &a->spares, LAB_A_SPARES, PLAN_ROLE_SPARE);
	if (a->journal != NULL && a->engine == LAB_ENGINE_MD) {
		lab_array_path(b->v, a, LAB_A_JOURNAL, field, sizeof field);
		touch_one(b, all, a->journal, PLAN_ROLE_JOURNAL, field,
		    lab_array_line(a, LAB_A_JOURNAL));
	}
}

void
pb_wipe(struct pb *b, char **members, size_t n)
{
	const struct lab_variant *v = b->v;
	const struct lab_array *a = &v->array;
	const struct lab_fs *fs = &v->fs;
	struct av all = { 0 };
	char field[LAB_PATH_MAX];
	size_t first;

	av_add(&all, "wipefs");
	av_add(&all, "--all");
	first = all.n;
	if (a->nlegs > 0)
		for (size_t i = 0; i < a->nlegs; i++)
			touch_array(b, &all, &a->legs[i], PLAN_ROLE_MEMBER,
			    NULL, 0);
	else
		touch_array(b, &all, a, PLAN_ROLE_MEMBER, members, n);
	if (a->nlegs > 0)
		touch_list(b, &all, a, &a->spares, LAB_A_SPARES,
		    PLAN_ROLE_SPARE);
	if (lab_variant_isset(v, LAB_V_FS) && fs->journal == LAB_JOURNAL_DEVICE)
		touch_one(b, &all, fs->journal_device, PLAN_ROLE_FSLOG,
		    lab_fs_path(v, LAB_F_JOURNAL_DEVICE, field, sizeof field),
		    lab_fs_line(fs, LAB_F_JOURNAL_DEVICE));
	if (lab_variant_isset(v, LAB_V_FS) &&
	    fs->journal == LAB_JOURNAL_ARRAY && fs->journal_array != NULL)
		touch_array(b, &all, fs->journal_array, PLAN_ROLE_FSLOG, NULL,
		    0);
	if (all.n == first) {
		free(av_take(&all)[0]);
		return;
	}
	pb_run(b, av_take(&all),
	    _("old signatures would make mdadm and mkfs refuse or prompt; the "
	      "guards have checked and confirmed every device first"),
	    NULL, NULL);
	pb_queues(b);
}

/* ---------------------------------------------------------------- mdadm */

static bool
striped(enum lab_md_level l)
{
	return l != LAB_MD_LEVEL_1;
}

/* mdadm's default layout, spelled out; NULL where the level has none. */
static const char *
default_layout(enum lab_md_level l)
{
	switch (l) {
	case LAB_MD_LEVEL_5:
	case LAB_MD_LEVEL_6:
		return "left-symmetric";
	case LAB_MD_LEVEL_10:
		return "n2";
	default:
		return NULL;
	}
}

/* --bitmap= and friends; appends why to r. */
static void
md_bitmap(const struct lab_array *a, struct av *c, struct strbuf *r)
{
	char sz[UNITS_BUF];

	if (a->md_level == LAB_MD_LEVEL_0)
		return; /* no redundancy, nothing to resync: no bitmap */
	if (a->journal != NULL) {
		strbuf_printf(r, "; %s",
		    _("no --bitmap: md takes a write journal or a bitmap, "
		      "not both"));
		return;
	}
	if (a->bitmap == LAB_BITMAP_NONE) {
		av_add(c, "--bitmap=none");
		strbuf_printf(r, "; %s",
		    _("--bitmap=none explicitly: mdadm would otherwise add "
		      "one by array size, or ask"));
	} else if (a->bitmap == LAB_BITMAP_INTERNAL) {
		av_add(c, "--bitmap=internal");
	} else if (a->bitmap == LAB_BITMAP_LOCKLESS) {
		av_add(c, "--bitmap=lockless");
		strbuf_printf(r, "; %s",
		    _("lockless bitmap (llbitmap): it tracks written data "
		      "only, so a new array needs no initial resync"));
	} else {
		av_addf(c, "--bitmap=%s", a->bitmap_file);
		strbuf_printf(r, "; %s",
		    _("external bitmap file: it must live outside the "
		      "array, on a filesystem md can map blocks on (ext4, "
		      "xfs) (deprecated upstream)"));
	}
	if (a->bitmap != LAB_BITMAP_NONE && a->bitmap_chunk != 0)
		av_addf(c, "--bitmap-chunk=%s",
		    units_format_exact(a->bitmap_chunk, sz, sizeof sz));
}

/*
 * The bitmap of a, said with its chunk: one bit per chunk, written
 * before the first write into a clean chunk, so the chunk sets the
 * bitmap's cost (seed 000's question). NULL where md keeps none.
 */
static char *
bitmap_note(const struct lab_array *a)
{
	char sz[UNITS_BUF], *where, *chunk, *s;

	/* none said by mdadm's own --bitmap=none: no line of its own */
	if (a->md_level == LAB_MD_LEVEL_0 || a->journal != NULL ||
	    a->bitmap == LAB_BITMAP_NONE)
		return NULL;
	where = a->bitmap == LAB_BITMAP_INTERNAL ? xstrdup(_("internal"))
	    : a->bitmap == LAB_BITMAP_LOCKLESS
	    ? xstrdup(_("lockless"))
	    : xasprintf(_("file %s"), a->bitmap_file);
	if (a->bitmap_chunk != 0)
		chunk = xasprintf(_("chunk %s (the lab's bitmap_chunk)"),
		    units_format_exact(a->bitmap_chunk, sz, sizeof sz));
	else if (a->bitmap == LAB_BITMAP_INTERNAL)
		chunk = xstrdup(_("chunk mdadm's default: 64M, or more for "
				  "the bitmap to fit"));
	else
		chunk = xstrdup(_("chunk mdadm's default: the smallest from "
				  "4K with at most 2^21 bits"));
	s = xasprintf(_("%s, %s; a bit per chunk, set on disk before a "
			"write into a clean chunk: a smaller chunk, more "
			"bitmap writes"),
	    where, chunk);
	free(where);
	free(chunk);
	return s;
}

/* mdadm --create's options for a (no devices); why the non-obvious ones
   go into r. */
static void
md_options(struct pb *b, const struct lab_array *a, size_t n, struct av *c,
    struct strbuf *r)
{
	const char *layout =
	    a->layout ? a->layout : default_layout(a->md_level);
	char sz[UNITS_BUF];

	strbuf_add(r, _("--run: no confirmation prompt"));
	av_add(c, "--run");
	av_addf(c, "--level=%d", lab_md_level_number(a->md_level));
	av_addf(c, "--raid-devices=%zu", n);
	if (a->spares.n > 0)
		av_addf(c, "--spare-devices=%zu", a->spares.n);
	if (layout != NULL)
		av_addf(c, "--layout=%s", layout);
	if (a->layout == NULL && layout != NULL)
		strbuf_printf(r, _("; --layout=%s is mdadm's default"), layout);
	if (striped(a->md_level)) {
		av_addf(c, "--chunk=%s",
		    units_format_exact(a->chunk ? a->chunk
						: GEOM_MD_DEFAULT_CHUNK,
			sz, sizeof sz));
		if (a->chunk == 0)
			strbuf_printf(r, "; %s",
			    _("--chunk=512K is mdadm's default"));
	}
	av_addf(c, "--metadata=%s", lab_md_metadata_name(a->metadata));
	md_bitmap(a, c, r);
	if (a == &b->v->array && b->p->bitmap == NULL)
		b->p->bitmap = bitmap_note(a);
	if (a->journal != NULL) {
		char *j = pb_dev(b, a->journal);

		av_addf(c, "--write-journal=%s", j);
		free(j);
	}
	if (lab_array_isset(a, LAB_A_CONSISTENCY))
		av_addf(c, "--consistency-policy=%s",
		    lab_consistency_name(a->consistency));
	if (lab_array_isset(a, LAB_A_WRITE_BEHIND)) {
		av_addf(c, "--write-behind=%lld", (long long)a->write_behind);
		strbuf_printf(r, "; %s",
		    _("--write-behind: writes to the write-mostly members "
		      "complete before they reach them, up to that many"));
	}
	if (a->assume_clean) {
		av_add(c, "--assume-clean");
		strbuf_printf(r, "; %s",
		    _("--assume-clean (the lab's assume_clean): no initial "
		      "resync, redundancy is not in sync until written"));
	}
}

/* Whether member d (resolved) is one of a's write-mostly members. */
static bool
write_mostly(struct pb *b, const struct lab_array *a, const char *d)
{
	bool yes = false;

	for (size_t i = 0; i < a->write_mostly.n && !yes; i++) {
		char *w = pb_dev(b, a->write_mostly.v[i]);

		yes = strcmp(w, d) == 0;
		free(w);
	}
	return yes;
}

/* The n members then the spares in all, into c: mdadm's --write-mostly
   marks the devices after it, until --readwrite. */
static void
md_devices(struct pb *b, const struct lab_array *a, struct av *c,
    const struct av *all, size_t n)
{
	bool wm = false;

	for (size_t i = 0; i < all->n; i++) {
		bool want = i < n && write_mostly(b, a, all->v[i]);

		if (want != wm)
			av_add(c, want ? "--write-mostly" : "--readwrite");
		wm = want;
		av_add(c, all->v[i]);
	}
}

/* The stripe cache's memory: a page per member per stripe (md(4)). */
static char *
stripe_memory(const struct lab_array *a, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	char pg[UNITS_BUF], sz[UNITS_BUF];
	uint64_t bytes;

	if (page <= 0)
		page = 4096;
	bytes = (uint64_t)page * n * (uint64_t)a->stripe_cache;
	return xasprintf(_("md/stripe_cache_size: %s pages x %zu members x "
			   "%lld stripes = %s of memory, held while the "
			   "array runs"),
	    units_format_exact((uint64_t)page, pg, sizeof pg), n,
	    (long long)a->stripe_cache,
	    units_format_size(bytes, sz, sizeof sz));
}

/* md's knobs the lab sets, each a write to the new array's sysfs; what
   the lab leaves unset stays as md has it (and the record says what). */
static void
md_knobs(struct pb *b, const struct lab_array *a, const char *md, size_t n)
{
	char v[32], *why;

	if (lab_array_isset(a, LAB_A_JOURNAL_MODE) && a->journal != NULL)
		pb_sysfs(b, md, "md/journal_mode",
		    lab_journal_mode_name(a->journal_mode),
		    _("the write journal's mode: write-back acknowledges "
		      "writes once they are in the journal"));
	if (lab_array_isset(a, LAB_A_STRIPE_CACHE)) {
		snprintf(v, sizeof v, "%lld", (long long)a->stripe_cache);
		why = stripe_memory(a, n);
		pb_sysfs(b, md, "md/stripe_cache_size", v, why);
		free(why);
	}
	if (lab_array_isset(a, LAB_A_GROUP_THREADS)) {
		snprintf(v, sizeof v, "%lld", (long long)a->group_threads);
		pb_sysfs(b, md, "md/group_thread_cnt", v,
		    _("threads that handle stripes beside md's own, per "
		      "group of CPUs"));
	}
	if (lab_array_isset(a, LAB_A_SKIP_COPY))
		pb_sysfs(b, md, "md/skip_copy", a->skip_copy ? "1" : "0",
		    _("1: parity is computed from the written pages "
		      "directly, without a copy into the stripe cache"));
	if (lab_array_isset(a, LAB_A_PREREAD_BYPASS)) {
		snprintf(v, sizeof v, "%lld", (long long)a->preread_bypass);
		pb_sysfs(b, md, "md/preread_bypass_threshold", v,
		    _("how many full stripes may go before a stripe that "
		      "must read first: 0 favours sequential writes"));
	}
}

/* Stop md, then clear every device it was made of (members, spares,
   write journal) and an external bitmap file. */
static char ***
md_undo(const struct lab_array *a, const char *md, char **devs, size_t n)
{
	struct av s = { 0 }, z = { 0 }, w = { 0 };
	struct undo u = { 0 };

	av_add(&s, "mdadm");
	av_add(&s, "--stop");
	av_add(&s, md);
	av_add(&z, "mdadm");
	av_add(&z, "--zero-superblock");
	av_add(&w, "wipefs");
	av_add(&w, "--all");
	for (size_t i = 0; i < n; i++) {
		av_add(&z, devs[i]);
		av_add(&w, devs[i]);
	}
	undo_add(&u, av_take(&s));
	undo_add(&u, av_take(&z));
	undo_add(&u, av_take(&w));
	if (a->bitmap == LAB_BITMAP_FILE && a->journal == NULL &&
	    a->md_level != LAB_MD_LEVEL_0) {
		struct av rm = { 0 };

		av_add(&rm, "rm");
		av_add(&rm, "-f");
		av_add(&rm, a->bitmap_file);
		undo_add(&u, av_take(&rm));
	}
	return undo_take(&u);
}

/*
 * mdadm --create of a over members (resolved) and its spares, then its
 * resync wait. The undo stops it and clears every member's superblock.
 */
static void
md_create(struct pb *b, const struct lab_array *a, const char *md,
    char **members, size_t n)
{
	struct av c = { 0 }, all = { 0 };
	struct strbuf r;
	char *label;
	size_t i;

	strbuf_init(&r);
	av_add(&c, "mdadm");
	av_add(&c, "--create");
	av_add(&c, md);
	md_options(b, a, n, &c, &r);
	for (i = 0; i < n; i++)
		av_add(&all, members[i]);
	for (i = 0; i < a->spares.n; i++) {
		char *d = pb_dev(b, a->spares.v[i]);

		av_add(&all, d);
		free(d);
	}
	md_devices(b, a, &c, &all, n);
	if (a->journal != NULL) {
		char *j = pb_dev(b, a->journal);

		av_add(&all, j);
		free(j);
	}
	label = xasprintf("md %s", md);
	pb_run(b, av_take(&c), r.s, label, md_undo(a, md, all.v, all.n));
	pb_product(b, md);
	md_knobs(b, a, md, n);
	free(label);
	strbuf_done(&r);
	for (i = 0; i < all.n; i++)
		free(all.v[i]);
	free(all.v);
	b->p->md = xreallocarray(b->p->md, b->p->nmd + 1, sizeof *b->p->md);
	b->p->md[b->p->nmd++] = xstrdup(md);
	if (a->md_level != LAB_MD_LEVEL_0 && !a->assume_clean)
		pb_wait(b, md,
		    _("md resyncs a new array in the background: measuring "
		      "now would measure the resync"));
}

/* Resolve lab names into device paths, in place. */
static void
resolve(struct pb *b, char **names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *d = pb_dev(b, names[i]);

		free(names[i]);
		names[i] = d;
	}
}

static void
free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char *
pb_md(struct pb *b)
{
	const struct lab_variant *v = b->v;
	const struct lab_array *a = &v->array;
	const char *name = b->p->variant;
	char **m = NULL, *top;
	size_t n;

	n = pb_members(b, a, true, &m);
	pb_wipe(b, m, n);
	if (lab_variant_isset(v, LAB_V_FS) &&
	    v->fs.journal == LAB_JOURNAL_ARRAY && v->fs.journal_array) {
		const struct lab_array *la = v->fs.journal_array;
		char **lm = NULL;
		size_t ln = pb_members(b, la, false, &lm);

		resolve(b, lm, ln);
		b->logdev = plan_md_name(name, "-log");
		md_create(b, la, b->logdev, lm, ln);
		free_list(lm, ln);
	}
	top = plan_md_name(name, "");
	if (a->nlegs > 0) {
		free_list(m, n);
		m = xcalloc(a->nlegs + 1, sizeof *m);
		n = a->nlegs;
		for (size_t i = 0; i < a->nlegs; i++) {
			const struct lab_array *leg = &a->legs[i];
			char **lm = NULL, sfx[32];
			size_t ln = pb_members(b, leg, false, &lm);

			snprintf(sfx, sizeof sfx, "-leg%zu", i);
			m[i] = plan_md_name(name, sfx);
			resolve(b, lm, ln);
			md_create(b, leg, m[i], lm, ln);
			free_list(lm, ln);
		}
	} else {
		resolve(b, m, n);
	}
	geom_of(a, (unsigned)n, &b->p->geom);
	md_create(b, a, top, m, n);
	free_list(m, n);
	return top;
}
