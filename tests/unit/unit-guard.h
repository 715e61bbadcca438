/*
 * Helpers of the guard tests, shared by the files of one test program:
 * test-guard.c (where they live) and test-guard-real.c.
 */
#ifndef RAIDLAB_UNIT_GUARD_H
#define RAIDLAB_UNIT_GUARD_H

#include <stddef.h>

#include "base/err.h"

/* The file every entry names. */
#define LAB "lab.cfg"
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* What the last check found: the tests check into it. */
extern struct errlist entries;

/* The formatted entry k: "lab.cfg:10: variants.v.array.devices[0]: ...";
   the test fails when there is none. */
const char *entry(size_t k);
/* There are n entries (each is logged). */
void expect_entries(size_t n);
/* Entry k reads want. */
void expect_entry(size_t k, const char *want);
/* rm -rf dir (nothing for ""), without a shell. */
void rm_tree(const char *dir);

#endif
