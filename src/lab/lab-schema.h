/*
 * The schema of the lab model's keys: one const table per group of keys
 * (lab_array_keys[], lab_fs_keys[], lab_variant_keys[], lab_keys[],
 * lab_host_keys[]),
 * a line per key: its name, kind, field, offset in the struct, allowed
 * values or range, default, how the defaults group merges it, where it
 * applies (engines and levels, filesystems, modes) and its label in the
 * Compose form. Load (type, range and value checks, with the messages
 * "file:line: field: reason"), save, the defaults merge, equality,
 * copies, init, free, forgetting a key, the generic setter and the
 * form's plain fields all walk the tables, so that a key is spelled
 * once. Keys whose value is not one plain field (bitmap, legs, the fs
 * journal and geometry, directory, the scratch group, repeats, the
 * lists) are LAB_KEY_SPECIAL: they keep a line, so a table still lists
 * every key, and their own code beside each walk. A key inside a group
 * (bitmap.file, geometry.su, scratch.count) is read and saved by its
 * group's code, and copied, compared and freed by its kind.
 *
 * Adding a key is one field and one line. md's stripe cache, say (pages
 * of RAID4/5/6 only):
 *
 *   lab.h, enum lab_a_field, before LAB_A__COUNT (at most 32 fields:
 *   set and own are bit masks):
 *	LAB_A_STRIPE_CACHE,
 *   lab.h, struct lab_array:
 *	int64_t stripe_cache;
 *   lab-schema-array.c, lab_array_keys[], at the same place:
 *	{ "stripe_cache", LAB_KEY_INT, LAB_A_STRIPE_CACHE,
 *	    AOFF(stripe_cache), .min = 17, .max = 32768, .dflt = 256,
 *	    .where = MD, .applies = parity, .flags = LAB_KEY_FORM,
 *	    .label = N_("stripe cache") },
 *
 * Reading it with "expected an integer" and "N is out of range" at its
 * line, saving it, taking it from defaults, lab_equal(), copies,
 * forgetting it when the level changes to one it does not apply to, and
 * lab_edit_array_value() and lab_edit_key_text() follow from the line.
 * With LAB_KEY_FORM it is a Compose field too, where it applies: a
 * choice for a bool or an enum, typed text for an int, a size or a
 * string, refused as load refuses it ("5 is out of range (17..32768)"),
 * labelled .label, with .unset (or the default) shown when not set. Then
 * its rule: what it means across fields, when anything
 * (lab-check-array.c), and what it builds (plan-md.c). Table order is the
 * order keys are read, reported and saved, and the form's order among
 * the plain fields.
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
	LAB_KEY_NAME, /* char *: a name (lab_name_ok()) */
	LAB_KEY_NAMES, /* struct lab_strv of names: "a" or [ "a", "b" ] */
	LAB_KEY_PERCENT, /* int32_t thousandths of a percent: "2%" */
	LAB_KEY_SPECIAL, /* the group's own code reads and writes it */
};

/* How a variant takes the key from the defaults group (variant keys
   and the keys of their groups; a lab key is never merged). */
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
#define LAB_KEY_NOT_DEFAULTS 0x4 /* not a key of the defaults group */
/* With LAB_KEY_FORM: the form shows it after the group's other fields
   (free text: the mkfs and mount options close the fs part). */
#define LAB_KEY_FORM_LAST 0x8

struct lab_key {
	const char *name; /* "chunk"; a key inside a group of keys,
			     read and saved by the group's code, has the
			     group's name first: "bitmap.file" */
	enum lab_key_kind kind;
	int field; /* enum lab_a_field, lab_f_field, lab_v_field,
		      lab_l_field: the bit of set/own, the index of lines[] */
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
	/* N_(): the form's choice that forgets the key ("mkfs decides"),
	   or what a typed field shows when the key is not set ("none");
	   NULL: the default is offered (shown) as one of the values. */
	const char *unset;
};

/* Each group's keys, in its field enum's order, { NULL }-ended: the
   array and fs groups, a variant (and the defaults group), the lab. */
extern const struct lab_key lab_array_keys[];
extern const struct lab_key lab_fs_keys[];
extern const struct lab_key lab_variant_keys[];
extern const struct lab_key lab_keys[];
/* A host of the lab's hosts list (lab-schema-lab.c). */
extern const struct lab_key lab_host_keys[];

/* The line of field f of a group; NULL out of range. */
const struct lab_key *lab_array_schema(enum lab_a_field f);
const struct lab_key *lab_fs_schema(enum lab_f_field f);
const struct lab_key *lab_variant_schema(enum lab_v_field f);
const struct lab_key *lab_schema(enum lab_l_field f);
const struct lab_key *lab_host_schema(enum lab_h_field f);

/* The key sits inside a group of keys ("scratch.count"). */
bool lab_key_nested(const struct lab_key *k);

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
 * Whether the key takes the number v (bool, int, enum, size, percent):
 * 0, or -ERANGE outside its range (int), its names (enum), 0/1 (bool) or
 * for a negative size, with lab_load()'s sentence for it in why (len
 * bytes); -EINVAL, with the same sentence, for a kind that is not a
 * number.
 */
int lab_key_check(const struct lab_key *k, int64_t v, char *why, size_t len);
/* Set a number when lab_key_check() takes it; its error otherwise. */
int lab_key_set(const struct lab_key *k, void *group, int64_t v);
/*
 * A plain key (bool, int, size, enum, string) from text as a lab file
 * spells its value: true or false, an integer, "64K", one of names[], any
 * text. A refused value leaves the group as it was and puts lab_load()'s
 * sentence for it in why (len bytes): -EINVAL when the text is not of
 * the kind, -ERANGE out of the key's range; -EINVAL (why untouched) for
 * another kind.
 */
int lab_key_parse(const struct lab_key *k, void *group, const char *text,
    char *why, size_t len);
/* The key's default value; strings and lists freed. */
void lab_key_reset(const struct lab_key *k, void *group);
/* dst's value becomes a deep copy of src's (dst's own is not freed). */
void lab_key_copy(const struct lab_key *k, void *dst, const void *src);
bool lab_key_equal(const struct lab_key *k, const void *a, const void *b);
/* The value's text as a lab file has it: "true", "raid1", "64K" (a size
   in exact units), "2%", the string; buf holds at least 32 bytes. */
const char *
lab_key_text(const struct lab_key *k, const void *group, char *buf, size_t len);

#endif
