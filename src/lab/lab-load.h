/*
 * Internals of the lab module shared by lab.c, lab-load*.c, lab-merge.c,
 * lab-save.c and lab-schema*.c: init/done/copy of the model's structs,
 * reading settings, and the merge of defaults. Not for other modules.
 * The thread that owns the lab.
 */
#ifndef RAIDLAB_LAB_LOAD_H
#define RAIDLAB_LAB_LOAD_H

#include <libconfig.h>

#include "lab.h"

#define LAB_BIT(f) (1u << (unsigned)(f))

/* Names indexed by enum value, NULL-terminated (lab.c). */
extern const char *const lab_cache_names[];
extern const char *const lab_order_names[];
extern const char *const lab_test_names[];
extern const char *const lab_engine_names[];
extern const char *const lab_md_level_names[];
extern const char *const lab_profile_names[];
extern const char *const lab_md_metadata_names[];
extern const char *const lab_bitmap_names[];
extern const char *const lab_consistency_names[];
extern const char *const lab_journal_mode_names[];
extern const char *const lab_phase_names[];
extern const char *const lab_fs_type_names[];
extern const char *const lab_data_mode_names[];
extern const char *const lab_geometry_names[];

void lab_strv_done(struct lab_strv *sv);
void lab_strv_copy(struct lab_strv *dst, const struct lab_strv *src);
void lab_strv_push(struct lab_strv *sv, const char *s);

void lab_array_init(struct lab_array *a);
void lab_array_done(struct lab_array *a);
void lab_array_copy(struct lab_array *dst, const struct lab_array *src);
void lab_fs_init(struct lab_fs *fs);
void lab_fs_done(struct lab_fs *fs);
void lab_fs_copy(struct lab_fs *dst, const struct lab_fs *src);
void lab_variant_init(struct lab_variant *v);
void lab_variant_done(struct lab_variant *v);
void lab_variant_copy(struct lab_variant *dst, const struct lab_variant *src);
void lab_workload_done(struct lab_workload *w);

/* buf = prefix.key, truncated quietly; returns buf. */
const char *
lab_join(char *buf, size_t len, const char *prefix, const char *key);

/* Loading context: the file name for messages and the error list. */
struct lab_ctx {
	const char *file;
	struct errlist *errs;
	int nerr;
};

void lab_ctx_error(struct lab_ctx *c, int line, const char *field,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Key checks and typed reads of one setting (lab-load.c). Each reports
 * its problem to c and returns false when the value is not usable.
 */
void lab_load_unknown_keys(struct lab_ctx *c, const config_setting_t *g,
    const char *const *known, const char *prefix);
bool lab_get_string(struct lab_ctx *c, const config_setting_t *s,
    const char *field, char **out);
bool lab_get_int(struct lab_ctx *c, const config_setting_t *s,
    const char *field, int64_t min, int64_t max, int64_t *out);
bool lab_get_bool(struct lab_ctx *c, const config_setting_t *s,
    const char *field, bool *out);
bool lab_get_size(struct lab_ctx *c, const config_setting_t *s,
    const char *field, uint64_t *out);
bool lab_get_strv(struct lab_ctx *c, const config_setting_t *s,
    const char *field, bool devices, struct lab_strv *out);
/* A name usable in paths and file names (lab_name_ok()). */
bool lab_get_name(struct lab_ctx *c, const config_setting_t *s,
    const char *field, char **out);
/* One name, or a list of names, each lab_name_ok() (lab-hosts.c). */
bool lab_get_names(struct lab_ctx *c, const config_setting_t *s,
    const char *field, struct lab_strv *out);
/* lab-hosts.c: the hosts list; a host's init, done, copy, equality. */
void lab_load_hosts(struct lab_ctx *c, const config_setting_t *list,
    struct lab *lab);
void lab_host_init(struct lab_host *h);
void lab_host_done(struct lab_host *h);
void lab_host_copy(struct lab_host *dst, const struct lab_host *src);
bool lab_host_equal(const struct lab_host *a, const struct lab_host *b);
/* The host keys read in their own way (lab_key.load, on a struct
   lab_host): a name that is not "local" or "all", an address, a user,
   fio's bind address, the disks' "FROM=TO" pairs. */
bool lab_load_host_name(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
bool lab_load_host_address(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
bool lab_load_host_user(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
bool lab_load_host_fio_bind(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
bool lab_load_host_disks(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
/* A percent in quotes, "2%" (lab-rounds.c). */
bool lab_get_percent(struct lab_ctx *c, const config_setting_t *s,
    const char *field, int32_t *out);
/* Translated "one of: a, b, c" list for messages; caller frees. */
char *lab_choices(const char *const *names);
/* A string that must be one of names (NULL-terminated); index in *out. */
bool lab_get_enum(struct lab_ctx *c, const config_setting_t *s,
    const char *field, const char *const *names, int *out);
/* The line a setting came from. */
int lab_line_of(const config_setting_t *s);

/* lab-schema.c: one key of a schema read from s, by its kind (or its
   own load); true when the value was taken. */
struct lab_key;
bool lab_key_load(struct lab_ctx *c, const struct lab_key *k,
    const config_setting_t *s, const char *field, void *group);
/* The names of keys (sub-keys and keys flagged skip left out) into
   out[max], NULL-terminated, for lab_load_unknown_keys(). */
size_t lab_key_names(const struct lab_key *keys, unsigned skip,
    const char **out, size_t max);

/* lab-load-array.c: the array and fs groups of a variant or defaults. */
void lab_load_array(struct lab_ctx *c, const config_setting_t *g,
    const char *prefix, bool leg, struct lab_array *a);
void lab_load_fs(struct lab_ctx *c, const config_setting_t *g,
    const char *prefix, struct lab_fs *fs);
/* The array keys read in their own way (lab_key.load, on a struct
   lab_array): level as text or a number, metadata also as the floats
   1.2 and 0.90, bitmap_chunk not twice. */
bool lab_load_level(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
bool lab_load_md_metadata(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
bool lab_load_bitmap_chunk(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group);
/*
 * Interpret level_text for the merged engine (md level or btrfs profile)
 * in a and its legs and journal array; report bad levels.
 */
void
lab_resolve_array(struct lab_ctx *c, const char *prefix, struct lab_array *a);

/*
 * lab-ints.c: past a comment or string at p (counting the lines it
 * spans), or p itself, by libconfig 1.5's scanner rules: # and // to the
 * end of the line, one level of C comment, a backslash in a string takes
 * the next character. For the checks of the text before libconfig reads
 * it (lab-ints.c, lab-include.c).
 */
const char *lab_text_skip(const char *p, int *line);

/* lab-rounds.c: the top-level repeats, a count or a range. */
void
lab_load_repeats(struct lab_ctx *c, const config_setting_t *s, struct lab *lab);

/* lab-merge.c: fill unset fields of v from d (defaults). */
void lab_merge_defaults(struct lab_variant *v, const struct lab_variant *d);

#endif
