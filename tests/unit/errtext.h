/*
 * The messages of an error list as text, for the tests that check a
 * lab's messages word for word. Any thread.
 */
#ifndef RAIDLAB_TEST_ERRTEXT_H
#define RAIDLAB_TEST_ERRTEXT_H

#include "base/err.h"

/* Every message of errs, formatted as the CLI prints it, one per line;
   "" when there is none. Caller frees. */
char *errs_text(const struct errlist *errs);

#endif
