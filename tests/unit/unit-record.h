/*
 * Helpers of the record tests, shared by the files of one test program:
 * test-record.c (where they live), test-record-result.c,
 * test-record-target.c and test-show.c.
 */
#ifndef RAIDLAB_UNIT_RECORD_H
#define RAIDLAB_UNIT_RECORD_H

#include "lab/lab.h"
#include "measure/result.h"

/* A result with every field set to something distinctive; caller frees. */
struct wl_result *sample_result(void);
/* a and b hold the same samples and member samples, busy time to within
   rounding (the test fails otherwise). */
void assert_same_series(const struct series *a, const struct series *b);
/* a and b hold the same figures, series and notes (the test fails
   otherwise). */
void assert_same_result(const struct wl_result *a, const struct wl_result *b);
/* The lab "reclab": variants plain (a directory) and mirror (scratch),
   workload small. */
struct lab *sample_lab(void);
/* A new directory under /tmp; caller frees. */
char *temp_dir(void);
/* rm -rf dir. */
void rm_rf(const char *dir);
/* path holds text. */
void write_file(const char *path, const char *text);

#endif
