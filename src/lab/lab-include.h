/*
 * @include in lab text, refused before libconfig reads it. libconfig 1.5
 * opens whatever path an @include names (absolute, or relative to the
 * working directory), reads it as part of the lab and names it in its
 * errors, so a lab from anywhere could make raidlab read /dev/stdin, a
 * FIFO or any file it can open. A lab is one self-contained file
 * (raidlab.lab(5)). Any thread.
 */
#ifndef RAIDLAB_LAB_INCLUDE_H
#define RAIDLAB_LAB_INCLUDE_H

struct errlist;

/* Add an error to errs ("file:line: @include: ...") for each @include in
   text outside comments and strings; returns how many. */
int lab_include_check(const char *text, const char *file, struct errlist *errs);

#endif
