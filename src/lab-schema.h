/*
 * The schema of the lab model's keys: one const table per group (today
 * the array group, lab_array_keys[]) with a line per key: its name, kind,
 * field, offset in the struct, allowed values or range, default, how the
 * defaults group merges it, which engines it applies to, and its label in
 * the Compose form. Load (type, range and value checks, with the messages
 * "file:line: field: reason"), save, the defaults merge, equality, copy,
 * init, forgetting a key and the form's plain fields all walk the table,
 * so that a key is spelled once. Keys whose value is not one plain field
 * (bitmap, legs, fs journal, geometry) are LAB_KEY_SPECIAL: they keep a
 * line here, so the table still lists every key, and their own code
 * beside each walk. A sub-key (bitmap.file, geometry.su) is read, saved
 * and merged with its whole key, and copied and compared by its kind.
 *
 * Adding a key, for example md's stripe cache (a RAID4/5/6 setting, in
 * pages), takes one field and one line:
 *
 *   lab.h, enum lab_a_field:  LAB_A_STRIPE_CACHE, (before LAB_A__COUNT)
 *   lab.h, struct lab_array:  int64_t stripe_cache;
 *   lab-schema-array.c:
 *	{ "stripe_cache", LAB_KEY_INT, LAB_A_STRIPE_CACHE,
 *	    AOFF(stripe_cache), .min = 17, .max = 32768, .dflt = 256,
 *	    .where = MD, .applies = parity,
 *	    .label = N_("stripe cache") },
 *
 * and then its rule: what it means across fields (lab-check-array.c,
 * when it has one) and what it builds (plan-md.c). Loading, saving, the
 * merge, equality, copies, the Compose field and its setter follow from
 * the line. Table order is the order keys are read, reported and saved.
 *
 * Pure data and functions; the thread that owns the lab.
 */
#ifndef RAIDLAB_LAB_SCHEMA_H
#define RAIDLAB_LAB_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab.h"

struct config_setting_t;
struct lab_ctx;

enum lab_key_kind {
	LAB_KEY_BOOL, /* bool */
	LAB_KEY_INT, /* int64_t in min..max */
	LAB_KEY_SIZE, /* uint64_t bytes: "64K" or an integer */
	LAB_KEY_ENUM, /* an enum (int-sized): one of names[] */
	LAB_KEY_STRING, /* char *, NULL when unset */
	LAB_KEY_DEVICE, /* char *: a device path or scratch:N */
	LAB_KEY_DEVICES, /* struct lab_strv of devices */
	LAB_KEY_SPECIAL, /* the group's own code reads and writes it */
};

/* How a variant takes the key from the defaults group. */
enum lab_key_merge {
	LAB_MERGE_KEY, /* alone, when the variant lacks it */
	LAB_MERGE_WHOLE, /* with its sub-keys, as one (bitmap, legs) */
	LAB_MERGE_SUB, /* a sub-key: goes with its whole key */
};

/* lab_key.where for an array key: the engines it applies to. */
#define LAB_KEY_MD (1u << LAB_ENGINE_MD)
#define LAB_KEY_BTRFS (1u << LAB_ENGINE_BTRFS)
#define LAB_KEY_SINGLE (1u << LAB_ENGINE_SINGLE)
#define LAB_KEY_ANY (LAB_KEY_MD | LAB_KEY_BTRFS | LAB_KEY_SINGLE)
/* For an fs key: the filesystems, as built (lab_edit_fs_built()). */
#define LAB_KEY_FS(t) (1u << (t))
#define LAB_KEY_FS_ANY 0x1fu

/* lab_key.flags */
#define LAB_KEY_NOT_LEG 0x1 /* not a key of a leg of a nested array */
#define LAB_KEY_FORM 0x2 /* a plain field of the Compose form */

struct lab_key {
	const char *name; /* "assume_clean"; a sub-key "bitmap.file" */
	enum lab_key_kind kind;
	int field; /* enum lab_a_field, lab_f_field: the bit of set/own
		      and the index of lines[] */
	size_t offset; /* offsetof() the value; 0 for LAB_KEY_SPECIAL */
	const char *const *names; /* LAB_KEY_ENUM: NULL-terminated */
	int64_t min, max; /* LAB_KEY_INT */
	int64_t dflt; /* bool, int, enum, size: the value when unset */
	enum lab_key_merge merge;
	unsigned where; /* LAB_KEY_MD..., LAB_KEY_FS(): where it means
			   something */
	/* The rest of where it applies (a level, a mode), given the
	   group (a struct lab_array, lab_fs); NULL: always. */
	bool (*applies)(const void *group);
	/* A key read in its own way (lab-load.h); NULL: by its kind. True
	   when the value was taken. */
	bool (*load)(struct lab_ctx *c, const struct config_setting_t *s,
	    const char *field, void *group);
	unsigned flags;
	const char *label; /* N_(): the Compose form's label */
};

/* The array and fs groups' keys, in enum lab_a_field (lab_f_field)
   order, { NULL }-ended. */
extern const struct lab_key lab_array_keys[];
extern const struct lab_key lab_fs_keys[];

/* The line of field f of the array (fs) group; NULL out of range. */
const struct lab_key *lab_array_schema(enum lab_a_field f);
const struct lab_key *lab_fs_schema(enum lab_f_field f);

/* The key means something for this array (engine, level, modes), the
   bitmap/journal exclusion aside (lab_edit_array_applies()). */
bool lab_array_key_applies(const struct lab_array *a, enum lab_a_field f);
/* The key means something for v's filesystem as built. */
bool lab_fs_key_applies(const struct lab_variant *v, enum lab_f_field f);

/* Where a key's value is in its group. */
static inline void *
lab_key_ptr(const struct lab_key *k, void *group)
{
	return (char *)group + k->offset;
}

static inline const void *
lab_key_cptr(const struct lab_key *k, const void *group)
{
	return (const char *)group + k->offset;
}

/* Its value as a number: bool, int, enum, size. */
int64_t lab_key_get(const struct lab_key *k, const void *group);
/*
 * Set a number (bool, int, enum, size). -ERANGE outside the key's range
 * (int), its names (enum), 0/1 (bool) or for a negative size; -EINVAL
 * for a kind that is not a number.
 */
int lab_key_set(const struct lab_key *k, void *group, int64_t v);
/* The key's default value; strings and lists freed. */
void lab_key_reset(const struct lab_key *k, void *group);
/* dst's value becomes a deep copy of src's (dst's own is not freed). */
void lab_key_copy(const struct lab_key *k, void *dst, const void *src);
bool lab_key_equal(const struct lab_key *k, const void *a, const void *b);
/* The value's text as a choice list gives it: "true", "raid1", "64K"
   (a size in exact units), the string; buf holds at least 32 bytes. */
const char *
lab_key_text(const struct lab_key *k, const void *group, char *buf, size_t len);

#endif
