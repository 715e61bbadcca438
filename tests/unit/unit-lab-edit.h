/*
 * Helpers of the lab-edit tests, shared by the files of one test
 * program: test-lab-edit.c (where they live), test-lab-edit-arrays.c,
 * test-lab-edit-fs.c and test-lab-edit-wl.c.
 */
#ifndef RAIDLAB_UNIT_LAB_EDIT_H
#define RAIDLAB_UNIT_LAB_EDIT_H

#include <stdbool.h>

#include "lab/lab.h"

/* A lab with a defaults group, an md variant, a btrfs one, a directory,
   in this order. */
extern const char base_lab[];
#define R5 0
#define R10 1
#define BT 2
#define DIR 3

/* The lab text loaded; the test fails when it does not load. */
struct lab *load(const char *text);
/* Save and load again: the same lab comes back. The copy is returned. */
struct lab *roundtrip(const struct lab *lab);
/* The messages lab_check has for the field path or inside it, joined;
   caller frees. */
char *check_msgs(const struct lab *lab, const char *field);
/* The variant wrote the array key itself. */
bool a_own(const struct lab_variant *v, enum lab_a_field f);
/* The variant wrote the fs key itself. */
bool f_own(const struct lab_variant *v, enum lab_f_field f);

#endif
