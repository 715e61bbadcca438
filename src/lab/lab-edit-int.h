/*
 * Internals shared by lab-edit.c, lab-edit-array.c, lab-edit-fs.c,
 * lab-edit-key.c, lab-edit-legs.c and lab-edit-wl.c. Not for other
 * modules. The thread that owns the lab.
 */
#ifndef RAIDLAB_LAB_EDIT_INT_H
#define RAIDLAB_LAB_EDIT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "lab.h"

struct err;

/* Variant vi, or NULL. */
struct lab_variant *lab_edit_variant_at(struct lab *lab, size_t vi);
/* Take forgotten keys from defaults again and re-read the level. */
void lab_edit_refresh(struct lab *lab, struct lab_variant *v);
/* The variant writes its own array (fs) group from now on. */
void lab_edit_own_array(struct lab_variant *v);
void lab_edit_own_fs(struct lab_variant *v);
/* err_set(e, -ERANGE, ...) for an index past the end. */
int lab_edit_bad_index(struct err *e);
bool lab_edit_strv_has(const struct lab_strv *sv, const char *s);
/* The members as one list: the array's devices, else its legs' devices
   in order, else the scratch disks named nowhere else (what "no device
   list" means). out is overwritten. */
void lab_edit_members_of(const struct lab_variant *v, struct lab_strv *out);
/* *dst = a copy of s (NULL: none), the old value freed. */
void lab_edit_set_str(char **dst, const char *s);
/* "/dev/..."-like path or scratch:N, as lab_load() accepts. */
bool lab_edit_device_ok(const char *d);
/* After a setter: forget own keys the choices leave without use, take
   defaults again, re-read the level. Returns 0. */
int lab_edit_done(struct lab *lab, struct lab_variant *v);
/* The fs part of that (lab-edit-fs.c). */
void lab_edit_tidy_fs(struct lab_variant *v);
/* No legs any more: their devices become the array's when it names
   none (lab-edit-legs.c). */
void lab_edit_unnest(struct lab_array *a);
/* base followed by "-k" (k >= 2; none for k < 2), base cut so that the
   whole has at most LAB_NAME_MAX bytes. Caller frees. */
char *lab_edit_name_k(const char *base, int k);
/* A valid name not taken (taken: the caller looked). */
int lab_edit_check_name(const char *name, const char *field, bool taken,
    struct err *e);

#endif
