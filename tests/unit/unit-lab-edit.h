/*
 * Helpers of the lab-edit tests, shared by test-lab-edit.c (where they
 * live) and test-lab-edit-arrays.c, one test program.
 */
#ifndef RAIDLAB_UNIT_LAB_EDIT_H
#define RAIDLAB_UNIT_LAB_EDIT_H

#include <stdbool.h>

#include "lab.h"

/* The lab text loaded; the test fails when it does not load. */
struct lab *load(const char *text);
/* Save and load again: the same lab comes back. The copy is returned. */
struct lab *roundtrip(const struct lab *lab);
/* The messages lab_check has for the field path or inside it, joined;
   caller frees. */
char *check_msgs(const struct lab *lab, const char *field);
/* The variant wrote the array key itself. */
bool a_own(const struct lab_variant *v, enum lab_a_field f);

#endif
