/*
 * Helpers of the state journal tests, shared by the files of one test
 * program: test-statej.c (where they live, with the suites statej and
 * scratch, each test in a fresh test_dir with RAIDLAB_STATE_DIR set to
 * state_dir), test-statej-clean.c, test-statej-dir.c and test-scratch.c.
 */
#ifndef RAIDLAB_UNIT_STATEJ_H
#define RAIDLAB_UNIT_STATEJ_H

#include <stdbool.h>
#include <sys/types.h>

/* The test's own directory, and the state directory inside it. */
extern char test_dir[64];
extern char state_dir[128];

/* name inside test_dir; caller frees. */
char *tpath(const char *name);
/* The journal file of pid; caller frees. */
char *journal_of(pid_t pid);
/* p exists (lstat: a dangling link too). */
bool exists(const char *p);
/* An empty file p. */
void touch(const char *p);
/* p holds text. */
void write_file(const char *p, const char *text);
/* The journal line statej_identify() writes for path as object id;
   caller frees. */
char *ident_line(int id, const char *path);
/* statej_cleanup(force), its report into *out (caller frees). */
int cleanup(bool force, char **out);
/* The output of a command; caller frees. */
char *output_of(const char *const *argv);
/* A journal written by hand: an open line for pid/start, then rest;
   caller frees. */
char *fake_journal(pid_t pid, unsigned long long start, const char *rest);
/* A pid that surely belongs to nobody now: a child that exited. */
pid_t dead_pid(void);
/* Skips the test without root, losetup or /dev/loop-control. */
void need_loops(void);
/* `losetup -j FILE`: the loop devices over file ("" for none); caller
   frees. */
char *losetup_j(const char *file);

#endif
