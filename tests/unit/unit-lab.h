/*
 * Helpers of the lab tests, shared by the files of one test program:
 * test-lab.c (where they live), test-lab-load.c, test-lab-save.c and
 * test-lab-name.c.
 */
#ifndef RAIDLAB_UNIT_LAB_H
#define RAIDLAB_UNIT_LAB_H

#include "base/err.h"
#include "errtext.h"
#include "lab/lab.h"

/* The lab text (named name in messages) loaded; the test fails with the
   messages when it does not load. */
struct lab *must_load_string(const char *text, const char *name);
/* The lab file loaded; the test fails when it does not load. */
struct lab *must_load(const char *path);
/* lab_format(lab) loads back to an equal model whose format is the same
   text: load -> save -> load is a fixed point. */
void assert_fixed_point(const struct lab *lab, const char *what);
/* rel under $TESTDATA (tests/data); caller frees. */
char *testdata(const char *rel);
/* A new directory under /tmp; caller frees. */
char *tmpdir(void);
/* path holds text and nothing else. */
void write_text(const char *path, const char *text);
/* dir/file and then dir removed (both may be gone already). */
void remove_tree(const char *dir, const char *file);

#endif
