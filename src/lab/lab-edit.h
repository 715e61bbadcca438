/*
 * Editing a lab in place (the interactive lab's forms): setters that
 * change one field of a variant, its array or filesystem, a workload or
 * the lab itself, and keep the set/own masks as lab_load() leaves them
 * (see lab.h), so that lab_format() -> lab_load_string() gives back a lab
 * that lab_equal() finds equal. A field a setter writes becomes the
 * entry's own (and so does the group holding it); "reset" forgets the
 * entry's own value, so that the field takes the defaults group's value
 * again, or the documented default when defaults say nothing.
 *
 * The setters refuse only what lab_load() would refuse to read back (bad
 * names, device names that are neither /... nor scratch:N, relative bitmap
 * files, out-of-range numbers); everything else, however impossible
 * (RAID6 on 3 devices), is lab_check()'s to report, which the caller runs
 * after each change. Choosing an engine, a level, a filesystem or a
 * journal placement forgets the keys the entry wrote that the new choice
 * has no use for (md keys on btrfs, a layout on RAID1, data= on xfs), as
 * lab_edit_array_applies() and lab_edit_fs_applies() say: a form hides
 * those fields, so they must not linger in the file.
 *
 * Variants and workloads are addressed by index; adding, deleting or
 * moving entries renumbers them. Setters return 0, or -EINVAL (-ERANGE
 * for an index out of range) with e (which may be NULL) set: the field
 * path and a translated sentence. The thread that owns the lab.
 */
#ifndef RAIDLAB_LAB_EDIT_H
#define RAIDLAB_LAB_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab.h"

struct err;

/* ---------------------------------------------------------------- lab */

int lab_edit_name(struct lab *lab, const char *name, struct err *e);
/* The lab's description; NULL or "" forgets it. */
int lab_edit_about(struct lab *lab, const char *text);
/* A fixed count of rounds (it replaces a range). */
int lab_edit_repeats(struct lab *lab, int64_t repeats, struct err *e);
int lab_edit_order(struct lab *lab, enum lab_order o);
/*
 * A lab made from nothing (the interactive lab's new empty lab) gets
 * LAB_EDIT_NEW_REPEATS repeats, its own (saved with it): a lab file's
 * default of 1 leaves Compare no verdict but "n<3".
 */
#define LAB_EDIT_NEW_REPEATS 3
void lab_edit_new_defaults(struct lab *lab);
int lab_edit_cache(struct lab *lab, enum lab_cache c);
/* Forget a top-level key (name, description, repeats, order, cv_limit,
   test, equivalence, cache, results). */
int lab_edit_reset(struct lab *lab, enum lab_l_field f);

/* ---------------------------------------------------------------- variants */

/* A name lab_load() accepts (lab_name_ok()). */
bool lab_edit_name_ok(const char *name);
/* base, or base-2, base-3...: not yet a variant's name, base cut so
   that it has at most LAB_NAME_MAX bytes. Caller frees. */
char *lab_edit_variant_unique(const struct lab *lab, const char *base);

/*
 * Append a variant named name, with the defaults group's values. Returns
 * its index, or a negative errno (bad or duplicate name).
 */
int lab_edit_variant_add(struct lab *lab, const char *name, struct err *e);
/* Insert a copy of variant i named name after it; returns its index. */
int lab_edit_variant_clone(struct lab *lab, size_t i, const char *name,
    struct err *e);
int lab_edit_variant_rename(struct lab *lab, size_t i, const char *name,
    struct err *e);
int lab_edit_variant_delete(struct lab *lab, size_t i);
/* Move variant i to position to (the others keep their order). */
int lab_edit_variant_move(struct lab *lab, size_t i, size_t to);

int lab_edit_description(struct lab *lab, size_t vi, const char *text);
/*
 * The target: LAB_V_DIRECTORY (an existing directory, path) or LAB_V_ARRAY
 * (path ignored). A directory forgets the variant's own array, fs and
 * scratch group; an array forgets its own directory.
 */
int lab_edit_target(struct lab *lab, size_t vi, enum lab_v_field target,
    const char *path, struct err *e);
int
lab_edit_scratch_count(struct lab *lab, size_t vi, int64_t n, struct err *e);
int lab_edit_scratch_size(struct lab *lab, size_t vi, uint64_t bytes);
int lab_edit_scratch_dir(struct lab *lab, size_t vi, const char *dir,
    struct err *e);
int lab_edit_readahead(struct lab *lab, size_t vi, uint64_t bytes);
/* Forget a variant key (description, directory, scratch.*, readahead). */
int lab_edit_variant_reset(struct lab *lab, size_t vi, enum lab_v_field f);

/* ---------------------------------------------------------------- array */
/* The variant's top array; the variant owns its array group afterwards. */

/*
 * The engine. The level carries over where the other engine has the same
 * thing (md 10 <-> btrfs raid10); btrfs makes fs.type btrfs.
 */
int lab_edit_engine(struct lab *lab, size_t vi, enum lab_engine eng);
int lab_edit_md_level(struct lab *lab, size_t vi, enum lab_md_level l);
/* btrfs data profile (level); the metadata profile is
   lab_edit_array_value(LAB_A_METADATA_PROFILE). */
int lab_edit_profile(struct lab *lab, size_t vi, enum lab_profile p);
int
lab_edit_layout(struct lab *lab, size_t vi, const char *layout, struct err *e);
int lab_edit_chunk(struct lab *lab, size_t vi, uint64_t bytes);
/* The member (or spare) list; n == 0 forgets the variant's own list. */
int lab_edit_devices(struct lab *lab, size_t vi, enum lab_a_field which,
    const char *const *devs, size_t n, struct err *e);
/*
 * dev becomes a member (which = LAB_A_DEVICES) or a spare (LAB_A_SPARES)
 * of variant vi, or stops being one when it is already (the Disks
 * screen's m and s): a member made a spare leaves the members and the
 * other way round, a nested array splits its members over the legs
 * again, and a scratch variant's implicit members (every scratch disk)
 * become a list first. Refused, with e set, for a directory variant, a
 * spare where the array takes none, and the variant's journal or log
 * device. *now: dev is in the list afterwards.
 */
int lab_edit_toggle_device(struct lab *lab, size_t vi, const char *dev,
    enum lab_a_field which, bool *now, struct err *e);
/* none, internal, or LAB_BITMAP_FILE with an absolute file. */
int lab_edit_bitmap(struct lab *lab, size_t vi, enum lab_bitmap b,
    const char *file, struct err *e);
int lab_edit_bitmap_chunk(struct lab *lab, size_t vi, uint64_t bytes);
/* The md write journal device; NULL forgets it. Sets bitmap none. */
int
lab_edit_md_journal(struct lab *lab, size_t vi, const char *dev, struct err *e);
/* lab_edit_key_value() of the array group (below). */
int lab_edit_array_value(struct lab *lab, size_t vi, enum lab_a_field f,
    int64_t value, struct err *e);
/*
 * Nesting (md only): n >= 2 legs split the members in order (the devices,
 * or the scratch disks named nowhere else); a new nesting is RAID1 over
 * RAID0 legs (0+1), or RAID0 over RAID1 legs (1+0) when the array is a
 * RAID0. n == 0: no legs, their devices become the array's.
 */
int lab_edit_legs(struct lab *lab, size_t vi, size_t n, struct err *e);
/* The members of a nested array, split over its legs again (what
   lab_edit_devices() does for LAB_A_DEVICES when there are legs). */
int lab_edit_legs_devices(struct lab *lab, size_t vi, const char *const *devs,
    size_t n, struct err *e);
/* Every leg's level and chunk (0: mdadm's; a RAID1 leg has none). */
int lab_edit_leg_level(struct lab *lab, size_t vi, enum lab_md_level l);
int lab_edit_leg_chunk(struct lab *lab, size_t vi, uint64_t bytes);
/* Forget an array key (LAB_A_BITMAP also forgets the file; LAB_A_LEGS
   hands the legs' devices to the array). */
int lab_edit_array_reset(struct lab *lab, size_t vi, enum lab_a_field f);

/*
 * The key means something for this array as it stands (engine, level,
 * bitmap mode): the form shows it. LAB_A_BITMAP and LAB_A_JOURNAL exclude
 * each other too, which the form shows by hiding the unused one.
 */
bool lab_edit_array_applies(const struct lab_array *a, enum lab_a_field f);

/* ---------------------------------------------------------------- fs */

int lab_edit_fs_type(struct lab *lab, size_t vi, enum lab_fs_type t);
int lab_edit_mkfs_options(struct lab *lab, size_t vi, const char *opts);
/* internal, or LAB_JOURNAL_DEVICE with dev (an array: below). Keeps
   journal.size. */
int lab_edit_fs_journal(struct lab *lab, size_t vi, enum lab_fs_journal j,
    const char *dev, struct err *e);
/* The journal or log on an md array of its own (fs.journal.array) of
   level l over devs, a RAID1 as a rule. Keeps journal.size. */
int lab_edit_journal_array(struct lab *lab, size_t vi, enum lab_md_level l,
    const char *const *devs, size_t n, struct err *e);
int lab_edit_journal_size(struct lab *lab, size_t vi, uint64_t bytes);
int lab_edit_data_mode(struct lab *lab, size_t vi, enum lab_data_mode d);
/* auto or none (LAB_GEOMETRY_EXT/XFS come with values: below). */
int lab_edit_geometry(struct lab *lab, size_t vi, enum lab_geometry g,
    struct err *e);
/*
 * One number of a stripe geometry given by hand: LAB_F_GEOMETRY_STRIDE,
 * _STRIPE_WIDTH (ext, blocks), _SU (xfs, bytes) or _SW (xfs, disks). The
 * other kind's numbers are forgotten.
 */
int lab_edit_geometry_value(struct lab *lab, size_t vi, enum lab_f_field f,
    uint64_t value, struct err *e);
int lab_edit_mount_options(struct lab *lab, size_t vi, const char *opts);
/* lab_edit_key_value() of the fs group (below). */
int lab_edit_fs_value(struct lab *lab, size_t vi, enum lab_f_field f,
    int64_t value, struct err *e);
/* Forget an fs key (LAB_F_JOURNAL and LAB_F_GEOMETRY as a whole). */
int lab_edit_fs_reset(struct lab *lab, size_t vi, enum lab_f_field f);

/* The filesystem really built: btrfs on engine btrfs, else fs.type. */
enum lab_fs_type lab_edit_fs_built(const struct lab_variant *v);
bool lab_edit_fs_applies(const struct lab_variant *v, enum lab_f_field f);

/* ---------------------------------------------------------------- keys */
/*
 * The setters of the keys that are one plain table line (lab-schema.h:
 * bool, int, size, enum or string; not LAB_KEY_SPECIAL, not a key inside
 * a group such as journal.size) of the array (group LAB_V_ARRAY, f an
 * enum lab_a_field) or fs group (LAB_V_FS, enum lab_f_field), owned by
 * variant vi from now on.
 */
/* A number (bool, int, size, enum index); -ERANGE with e set when the
   key does not take it, -EINVAL for another key. */
int lab_edit_key_value(struct lab *lab, size_t vi, enum lab_v_field group,
    int f, int64_t value, struct err *e);
/* Text as a lab file spells the value ("64K", "writeback", any string),
   checked as lab_load() checks it, with its sentence in e; "" or NULL
   forgets the key. */
int lab_edit_key_text(struct lab *lab, size_t vi, enum lab_v_field group, int f,
    const char *text, struct err *e);

/* ---------------------------------------------------------------- workloads */

/* base, or base-2...: not yet a workload's name, at most LAB_NAME_MAX
   bytes. Caller frees. */
char *lab_edit_workload_unique(const struct lab *lab, const char *base);
/* Append a workload of type type (workload_table) named name; returns
   its index or a negative errno. */
int lab_edit_workload_add(struct lab *lab, const char *type, const char *name,
    struct err *e);
int lab_edit_workload_rename(struct lab *lab, size_t wi, const char *name,
    struct err *e);
int lab_edit_workload_delete(struct lab *lab, size_t wi);
int lab_edit_workload_move(struct lab *lab, size_t wi, size_t to);
/*
 * Parameter param of workload wi from text as a user types it: "64K",
 * "auto", "true", "100, 1000" (a list), a string without quotes. A
 * parameter that conflicts with it (param.h) is forgotten; *conflict (may
 * be NULL) names it then, else NULL.
 */
int lab_edit_param(struct lab *lab, size_t wi, const char *param,
    const char *text, const char **conflict, struct err *e);
/* Forget a parameter: its schema default applies again. */
int lab_edit_param_reset(struct lab *lab, size_t wi, const char *param);

#endif
