/*
 * Integers too big for the lab file's reader. libconfig 1.5 reads an
 * integer written without the L suffix as 32 bits and keeps the low
 * ones: repeats = 4294967297 would load as 1, silently. This looks at
 * the text itself first (comments and strings skipped) and names every
 * such number with its line. Any thread.
 */
#ifndef RAIDLAB_LAB_INTS_H
#define RAIDLAB_LAB_INTS_H

struct errlist;

/* Add an error to errs for each decimal integer in text outside -2^31 ..
   2^31-1 without an L suffix; returns how many. file names them. */
int lab_ints_check(const char *text, const char *file, struct errlist *errs);

#endif
