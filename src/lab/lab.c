/*
 * Lab model lifecycle, enum names, field names and paths, and lab_equal():
 * see lab.h. The thread that owns the lab.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "figures/stats.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"
#include "measure/param.h"
#include "measure/workload.h"

/* ---------------------------------------------------------------- names */

const char *const lab_cache_names[] = { "drop", "keep", NULL };
const char *const lab_order_names[] = { "interleaved", "grouped", NULL };
/* In enum stats_test's order: the lab keeps the test as its index. */
const char *const lab_test_names[] = { "log", "welch", "rank", NULL };
_Static_assert(STATS_TEST_LOG == 0 && STATS_TEST_WELCH == 1 &&
	STATS_TEST_RANK == 2 && STATS_TEST__COUNT == 3,
    "lab_test_names follows enum stats_test");
const char *const lab_engine_names[] = { "md", "btrfs", "single", NULL };
const char *const lab_md_level_names[] = { "0", "1", "4", "5", "6", "10",
	NULL };
static const int md_level_numbers[] = { 0, 1, 4, 5, 6, 10 };
const char *const lab_profile_names[] = { "single", "dup", "raid0", "raid1",
	"raid1c3", "raid1c4", "raid10", "raid5", "raid6", NULL };
const char *const lab_md_metadata_names[] = { "1.2", "0.90", "1.0", "1.1",
	NULL };
/* "file" is the name of LAB_BITMAP_FILE but not a valid string value. */
const char *const lab_bitmap_names[] = { "none", "internal", "lockless", NULL };
const char *const lab_consistency_names[] = { "resync", "bitmap", "journal",
	"ppl", NULL };
const char *const lab_journal_mode_names[] = { "write-through", "write-back",
	NULL };
const char *const lab_phase_names[] = { "healthy", "degraded", "rebuild",
	"check", NULL };
const char *const lab_fs_type_names[] = { "ext2", "ext3", "ext4", "xfs",
	"btrfs", NULL };
const char *const lab_data_mode_names[] = { "ordered", "writeback", "journal",
	NULL };
const char *const lab_geometry_names[] = { "auto", "none", NULL };

static int
parse_name(const char *const *names, const char *s, int *out)
{
	int i;

	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(names[i], s) == 0) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *
name_of(const char *const *names, size_t n, int v)
{
	if (v < 0 || (size_t)v >= n)
		return "?";
	return names[v];
}

#define NAMES(t) (sizeof t / sizeof t[0] - 1)

#define NAME_FUNCS(fn, type, table)                                            \
	const char *lab_##fn##_name(type v)                                    \
	{                                                                      \
		return name_of(table, NAMES(table), (int)v);                   \
	}                                                                      \
	int lab_##fn##_parse(const char *s, type *out)                         \
	{                                                                      \
		int v, rc = parse_name(table, s, &v);                          \
                                                                               \
		if (rc == 0)                                                   \
			*out = (type)v;                                        \
		return rc;                                                     \
	}

NAME_FUNCS(cache, enum lab_cache, lab_cache_names)
NAME_FUNCS(order, enum lab_order, lab_order_names)
NAME_FUNCS(test, int, lab_test_names)
NAME_FUNCS(engine, enum lab_engine, lab_engine_names)
NAME_FUNCS(md_level, enum lab_md_level, lab_md_level_names)
NAME_FUNCS(profile, enum lab_profile, lab_profile_names)
NAME_FUNCS(md_metadata, enum lab_md_metadata, lab_md_metadata_names)
NAME_FUNCS(fs_type, enum lab_fs_type, lab_fs_type_names)
NAME_FUNCS(data_mode, enum lab_data_mode, lab_data_mode_names)
NAME_FUNCS(consistency, enum lab_consistency, lab_consistency_names)
NAME_FUNCS(journal_mode, enum lab_journal_mode, lab_journal_mode_names)
NAME_FUNCS(phase, enum lab_phase, lab_phase_names)

unsigned
lab_profile_copies(enum lab_profile p)
{
	switch (p) {
	case LAB_PROFILE_SINGLE:
	case LAB_PROFILE_RAID0:
		return 1;
	case LAB_PROFILE_DUP:
	case LAB_PROFILE_RAID1:
	case LAB_PROFILE_RAID10:
		return 2;
	case LAB_PROFILE_RAID1C3:
		return 3;
	case LAB_PROFILE_RAID1C4:
		return 4;
	default:
		return 0;
	}
}

unsigned
lab_profile_parity(enum lab_profile p)
{
	return p == LAB_PROFILE_RAID5 ? 1 : p == LAB_PROFILE_RAID6 ? 2 : 0;
}

int
lab_md_level_number(enum lab_md_level l)
{
	return md_level_numbers[l];
}

unsigned
lab_raid10_copies(const char *layout)
{
	char *end;
	unsigned long n;

	if (layout == NULL)
		return 2;
	if (layout[0] == '\0' || strchr("nfo", layout[0]) == NULL ||
	    layout[1] < '0' || layout[1] > '9')
		return 0;
	n = strtoul(layout + 1, &end, 10);
	if (*end != '\0' || n == 0 || n > 64)
		return 0;
	return (unsigned)n;
}

const char *
lab_workload_name(const struct lab_workload *w)
{
	return w->name ? w->name : w->type;
}

const char *
lab_bitmap_name(enum lab_bitmap b)
{
	return b == LAB_BITMAP_FILE
	    ? "file"
	    : name_of(lab_bitmap_names, NAMES(lab_bitmap_names), (int)b);
}

int
lab_bitmap_parse(const char *s, enum lab_bitmap *out)
{
	int v, rc = parse_name(lab_bitmap_names, s, &v);

	if (rc == 0)
		*out = (enum lab_bitmap)v;
	return rc;
}

const char *
lab_geometry_name(enum lab_geometry g)
{
	if (g == LAB_GEOMETRY_EXT)
		return "ext";
	if (g == LAB_GEOMETRY_XFS)
		return "xfs";
	return name_of(lab_geometry_names, NAMES(lab_geometry_names), (int)g);
}

int
lab_geometry_parse(const char *s, enum lab_geometry *out)
{
	int v, rc = parse_name(lab_geometry_names, s, &v);

	if (rc == 0)
		*out = (enum lab_geometry)v;
	return rc;
}

int
lab_scratch_index(const char *dev)
{
	const char *p;
	long n = 0;

	if (dev == NULL || strncmp(dev, "scratch:", 8) != 0)
		return -1;
	p = dev + 8;
	if (*p == '\0')
		return -1;
	for (; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p) || n > 100000)
			return -1;
		n = n * 10 + (*p - '0');
	}
	return (int)n;
}

static bool
strv_names(const struct lab_strv *s, int idx)
{
	for (size_t i = 0; i < s->n; i++)
		if (lab_scratch_index(s->v[i]) == idx)
			return true;
	return false;
}

bool
lab_scratch_named(const struct lab_variant *v, int idx)
{
	const struct lab_array *a = &v->array;

	if (strv_names(&a->spares, idx))
		return true;
	if (a->journal != NULL && lab_scratch_index(a->journal) == idx)
		return true;
	if (v->fs.journal == LAB_JOURNAL_DEVICE && v->fs.journal_device &&
	    lab_scratch_index(v->fs.journal_device) == idx)
		return true;
	if (v->fs.journal == LAB_JOURNAL_ARRAY && v->fs.journal_array &&
	    (strv_names(&v->fs.journal_array->devices, idx) ||
		strv_names(&v->fs.journal_array->spares, idx)))
		return true;
	return false;
}

size_t
lab_scratch_implicit(const struct lab_variant *v)
{
	size_t n = 0;

	for (int i = 0; i < v->scratch_count; i++)
		n += !lab_scratch_named(v, i);
	return n;
}

/* ---------------------------------------------------------------- keys */

const char *
lab_key(enum lab_l_field f)
{
	return lab_keys[f].name;
}

const char *
lab_variant_key(enum lab_v_field f)
{
	return lab_variant_keys[f].name;
}

const char *
lab_array_key(enum lab_a_field f)
{
	return lab_array_keys[f].name;
}

const char *
lab_fs_key(enum lab_f_field f)
{
	return lab_fs_keys[f].name;
}

bool
lab_isset(const struct lab *lab, enum lab_l_field f)
{
	return (lab->set & LAB_BIT(f)) != 0;
}

int
lab_line(const struct lab *lab, enum lab_l_field f)
{
	return lab_isset(lab, f) ? lab->lines[f] : 0;
}

bool
lab_variant_isset(const struct lab_variant *v, enum lab_v_field f)
{
	return (v->set & LAB_BIT(f)) != 0;
}

bool
lab_variant_inherited(const struct lab_variant *v, enum lab_v_field f)
{
	return (v->set & ~v->own & LAB_BIT(f)) != 0;
}

int
lab_variant_line(const struct lab_variant *v, enum lab_v_field f)
{
	return lab_variant_isset(v, f) && v->lines[f] > 0 ? v->lines[f]
							  : v->line;
}

bool
lab_array_isset(const struct lab_array *a, enum lab_a_field f)
{
	return (a->set & LAB_BIT(f)) != 0;
}

bool
lab_legs_differ(const struct lab_array *a, enum lab_a_field f)
{
	for (size_t i = 1; i < a->nlegs; i++) {
		const struct lab_array *l0 = &a->legs[0], *l = &a->legs[i];

		if ((f == LAB_A_LEVEL && l->md_level != l0->md_level) ||
		    (f == LAB_A_CHUNK && l->chunk != l0->chunk) ||
		    (f == LAB_A_DEVICES && l->devices.n != l0->devices.n))
			return true;
	}
	return false;
}

bool
lab_array_inherited(const struct lab_array *a, enum lab_a_field f)
{
	return (a->set & ~a->own & LAB_BIT(f)) != 0;
}

int
lab_array_line(const struct lab_array *a, enum lab_a_field f)
{
	return lab_array_isset(a, f) && a->lines[f] > 0 ? a->lines[f] : a->line;
}

bool
lab_fs_isset(const struct lab_fs *fs, enum lab_f_field f)
{
	return (fs->set & LAB_BIT(f)) != 0;
}

bool
lab_fs_inherited(const struct lab_fs *fs, enum lab_f_field f)
{
	return (fs->set & ~fs->own & LAB_BIT(f)) != 0;
}

int
lab_fs_line(const struct lab_fs *fs, enum lab_f_field f)
{
	return lab_fs_isset(fs, f) && fs->lines[f] > 0 ? fs->lines[f]
						       : fs->line;
}

int
lab_workload_line(const struct lab_workload *w, enum lab_w_field f)
{
	return (w->set & LAB_BIT(f)) && w->lines[f] > 0 ? w->lines[f] : w->line;
}

const struct param_value *
lab_workload_param(const struct lab_workload *w, const char *name)
{
	int i;

	if (w->wl == NULL || (i = param_index(w->wl->params, name)) < 0)
		return NULL;
	return &w->values[i];
}

int
lab_workload_param_line(const struct lab_workload *w, const char *name)
{
	const struct param_value *pv = lab_workload_param(w, name);

	return pv != NULL && pv->set && pv->line > 0 ? pv->line : w->line;
}

/* ---------------------------------------------------------------- paths */

static const char *
entry_path(const char *list, const char *name, size_t index, char *buf,
    size_t len)
{
	if (name != NULL)
		snprintf(buf, len, "%s.%s", list, name);
	else
		snprintf(buf, len, "%s[%zu]", list, index);
	return buf;
}

static const char *
variant_prefix(const struct lab_variant *v, char *buf, size_t len)
{
	if (v->is_defaults) {
		snprintf(buf, len, "defaults");
		return buf;
	}
	return entry_path("variants", v->name, v->index, buf, len);
}

/* buf = prefix + "." + sub (sub may be NULL). */
static const char *
join(char *buf, size_t len, const char *prefix, const char *sub)
{
	char tmp[LAB_PATH_MAX];

	int n;

	snprintf(tmp, sizeof tmp, "%s", prefix);
	if (sub != NULL)
		n = snprintf(buf, len, "%s.%s", tmp, sub);
	else
		n = snprintf(buf, len, "%s", tmp);
	if (n < 0 && len > 0)
		buf[0] = '\0';
	return buf;
}

const char *
lab_variant_path(const struct lab_variant *v, int f, char *buf, size_t len)
{
	char p[LAB_PATH_MAX];

	variant_prefix(v, p, sizeof p);
	return join(buf, len, p,
	    f >= 0 && f < LAB_V__COUNT ? lab_variant_keys[f].name : NULL);
}

const char *
lab_array_path(const struct lab_variant *v, const struct lab_array *a, int f,
    char *buf, size_t len)
{
	char p[LAB_PATH_MAX], q[LAB_PATH_MAX];

	variant_prefix(v, p, sizeof p);
	join(q, sizeof q, p, a->where[0] != '\0' ? a->where : "array");
	return join(buf, len, q,
	    f >= 0 && f < LAB_A__COUNT ? lab_array_keys[f].name : NULL);
}

const char *
lab_fs_path(const struct lab_variant *v, int f, char *buf, size_t len)
{
	char p[LAB_PATH_MAX], q[LAB_PATH_MAX];

	variant_prefix(v, p, sizeof p);
	join(q, sizeof q, p, "fs");
	return join(buf, len, q,
	    f >= 0 && f < LAB_F__COUNT ? lab_fs_keys[f].name : NULL);
}

const char *
lab_workload_path(const struct lab_workload *w, const char *param, char *buf,
    size_t len)
{
	char p[LAB_PATH_MAX];

	entry_path("workloads", w->name, w->index, p, sizeof p);
	return join(buf, len, p, param);
}

const char *
lab_join(char *buf, size_t len, const char *prefix, const char *key)
{
	if (snprintf(buf, len, "%s.%s", prefix, key) >= (int)len && len > 0)
		buf[len - 1] = '\0';
	return buf;
}

/* ---------------------------------------------------------------- life */

void
lab_strv_done(struct lab_strv *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

void
lab_strv_push(struct lab_strv *sv, const char *s)
{
	sv->v = xreallocarray(sv->v, sv->n + 1, sizeof *sv->v);
	sv->v[sv->n++] = xstrdup(s);
}

void
lab_strv_copy(struct lab_strv *dst, const struct lab_strv *src)
{
	size_t i;

	dst->v = NULL;
	dst->n = 0;
	for (i = 0; i < src->n; i++)
		lab_strv_push(dst, src->v[i]);
}

void
lab_array_init(struct lab_array *a)
{
	memset(a, 0, sizeof *a);
	for (const struct lab_key *k = lab_array_keys; k->name != NULL; k++)
		lab_key_reset(k, a);
	a->bitmap = LAB_BITMAP_NONE;
	snprintf(a->where, sizeof a->where, "array");
}

void
lab_array_done(struct lab_array *a)
{
	size_t i;

	for (const struct lab_key *k = lab_array_keys; k->name != NULL; k++)
		lab_key_reset(k, a);
	for (i = 0; i < a->nlegs; i++)
		lab_array_done(&a->legs[i]);
	free(a->legs);
	memset(a, 0, sizeof *a);
}

void
lab_array_copy(struct lab_array *dst, const struct lab_array *src)
{
	size_t i;

	*dst = *src;
	for (const struct lab_key *k = lab_array_keys; k->name != NULL; k++)
		lab_key_copy(k, dst, src);
	dst->legs = NULL;
	if (src->nlegs > 0) {
		dst->legs = xcalloc(src->nlegs, sizeof *dst->legs);
		for (i = 0; i < src->nlegs; i++)
			lab_array_copy(&dst->legs[i], &src->legs[i]);
	}
}

void
lab_fs_init(struct lab_fs *fs)
{
	memset(fs, 0, sizeof *fs);
	for (const struct lab_key *k = lab_fs_keys; k->name != NULL; k++)
		lab_key_reset(k, fs);
	fs->journal = LAB_JOURNAL_INTERNAL;
	fs->geometry = LAB_GEOMETRY_AUTO;
}

void
lab_fs_done(struct lab_fs *fs)
{
	for (const struct lab_key *k = lab_fs_keys; k->name != NULL; k++)
		lab_key_reset(k, fs);
	if (fs->journal_array != NULL) {
		lab_array_done(fs->journal_array);
		free(fs->journal_array);
	}
	memset(fs, 0, sizeof *fs);
}

void
lab_fs_copy(struct lab_fs *dst, const struct lab_fs *src)
{
	*dst = *src;
	for (const struct lab_key *k = lab_fs_keys; k->name != NULL; k++)
		lab_key_copy(k, dst, src);
	if (src->journal_array != NULL) {
		dst->journal_array = xmalloc(sizeof *dst->journal_array);
		lab_array_copy(dst->journal_array, src->journal_array);
	}
}

void
lab_variant_init(struct lab_variant *v)
{
	memset(v, 0, sizeof *v);
	lab_array_init(&v->array);
	lab_fs_init(&v->fs);
}

void
lab_variant_done(struct lab_variant *v)
{
	for (const struct lab_key *k = lab_variant_keys; k->name; k++)
		lab_key_reset(k, v);
	free(v->directory);
	free(v->directory_text);
	lab_array_done(&v->array);
	lab_fs_done(&v->fs);
	memset(v, 0, sizeof *v);
}

void
lab_workload_done(struct lab_workload *w)
{
	if (w->wl != NULL && w->values != NULL)
		param_values_done(w->wl->params, w->values, w->nvalues);
	free(w->values);
	free(w->name);
	free(w->type);
	memset(w, 0, sizeof *w);
}

struct lab *
lab_new(void)
{
	struct lab *lab = xcalloc(1, sizeof *lab);

	for (const struct lab_key *k = lab_keys; k->name != NULL; k++)
		lab_key_reset(k, lab);
	lab->repeats = 1;
	return lab;
}

void
lab_free(struct lab *lab)
{
	size_t i;

	if (lab == NULL)
		return;
	if (lab->defaults != NULL) {
		lab_variant_done(lab->defaults);
		free(lab->defaults);
	}
	for (i = 0; i < lab->nvariants; i++)
		lab_variant_done(&lab->variants[i]);
	free(lab->variants);
	for (i = 0; i < lab->nworkloads; i++)
		lab_workload_done(&lab->workloads[i]);
	free(lab->workloads);
	for (i = 0; i < lab->nhosts; i++)
		lab_host_done(&lab->hosts[i]);
	free(lab->hosts);
	for (const struct lab_key *k = lab_keys; k->name != NULL; k++)
		lab_key_reset(k, lab);
	free(lab->path);
	free(lab);
}

/* ---------------------------------------------------------------- equal */

static bool
str_eq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static bool
array_eq(const struct lab_array *a, const struct lab_array *b)
{
	const struct lab_key *k;
	size_t i;

	if (a->set != b->set || a->own != b->own ||
	    a->md_level != b->md_level || a->profile != b->profile ||
	    a->bitmap != b->bitmap || a->nlegs != b->nlegs ||
	    strcmp(a->where, b->where) != 0)
		return false;
	for (k = lab_array_keys; k->name != NULL; k++)
		if (!lab_key_equal(k, a, b))
			return false;
	for (i = 0; i < a->nlegs; i++)
		if (!array_eq(&a->legs[i], &b->legs[i]))
			return false;
	return true;
}

static bool
fs_eq(const struct lab_fs *a, const struct lab_fs *b)
{
	const struct lab_key *k;

	if (a->set != b->set || a->own != b->own || a->journal != b->journal ||
	    a->geometry != b->geometry)
		return false;
	for (k = lab_fs_keys; k->name != NULL; k++)
		if (!lab_key_equal(k, a, b))
			return false;
	if (a->journal_array == NULL || b->journal_array == NULL)
		return a->journal_array == b->journal_array;
	return array_eq(a->journal_array, b->journal_array);
}

static bool
variant_eq(const struct lab_variant *a, const struct lab_variant *b)
{
	const struct lab_key *k;

	if (a->set != b->set || a->own != b->own ||
	    a->is_defaults != b->is_defaults || a->index != b->index ||
	    !str_eq(a->directory, b->directory) ||
	    !str_eq(a->directory_text, b->directory_text))
		return false;
	for (k = lab_variant_keys; k->name != NULL; k++)
		if (!lab_key_equal(k, a, b))
			return false;
	return array_eq(&a->array, &b->array) && fs_eq(&a->fs, &b->fs);
}

static bool
workload_eq(const struct lab_workload *a, const struct lab_workload *b)
{
	size_t i;

	if (a->set != b->set || a->wl != b->wl || a->nvalues != b->nvalues ||
	    a->index != b->index || !str_eq(a->name, b->name) ||
	    !str_eq(a->type, b->type))
		return false;
	for (i = 0; i < a->nvalues; i++)
		if (!param_value_equal(&a->wl->params[i], &a->values[i],
			&b->values[i]))
			return false;
	return true;
}

bool
lab_equal(const struct lab *a, const struct lab *b)
{
	const struct lab_key *k;
	size_t i;

	if (a->set != b->set || a->own != b->own || a->repeats != b->repeats ||
	    a->repeats_min != b->repeats_min ||
	    a->repeats_ci != b->repeats_ci || a->nvariants != b->nvariants ||
	    a->nworkloads != b->nworkloads || a->nhosts != b->nhosts)
		return false;
	for (i = 0; i < a->nhosts; i++)
		if (!lab_host_equal(&a->hosts[i], &b->hosts[i]))
			return false;
	for (k = lab_keys; k->name != NULL; k++)
		if (!lab_key_equal(k, a, b))
			return false;
	if (a->defaults == NULL || b->defaults == NULL) {
		if (a->defaults != b->defaults)
			return false;
	} else if (!variant_eq(a->defaults, b->defaults)) {
		return false;
	}
	for (i = 0; i < a->nvariants; i++)
		if (!variant_eq(&a->variants[i], &b->variants[i]))
			return false;
	for (i = 0; i < a->nworkloads; i++)
		if (!workload_eq(&a->workloads[i], &b->workloads[i]))
			return false;
	return true;
}
