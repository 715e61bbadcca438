/*
 * Helpers of the lab runner tests, shared by the files of one test
 * program: test-labrun.c (where they live), test-labrun-build.c,
 * test-labrun-phase.c, test-labrun-record.c and test-labrun-rounds.c.
 */
#ifndef RAIDLAB_UNIT_LABRUN_H
#define RAIDLAB_UNIT_LABRUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lab/lab.h"
#include "results/record.h"
#include "run/labrun.h"

/* Everything one run said and handed over, in order. */
struct seen {
	struct labrun_event *ev;
	size_t nev;
	struct labrun_result **r;
	size_t nr;
	char **devs; /* labrun_devices() when the first run started */
	size_t ndevs;
	bool devs_read;
};

typedef void (
    *seen_fn)(struct labrun *lr, const struct labrun_event *ev, void *arg);

/* Poll the runner like a front end until LABRUN_DONE (or fail after
   timeout_s); fn sees every event as it comes, and NULL every 20 ms. */
void drain(struct labrun *lr, struct seen *s, double timeout_s, seen_fn fn,
    void *arg);
void seen_done(struct seen *s);

/* A new directory under /var/tmp; caller frees. */
char *temp_dir(void);
/* rm -rf dir. */
void rm_rf(const char *dir);
/* The lab text loaded and checked; the test fails when it does not. */
struct lab *load(const char *text);
/* labrun_start(); the test fails when it does not start. */
struct labrun *start(const struct lab *lab, const struct labrun_opts *o);
/* dir holds nothing. */
bool dir_empty(const char *dir);
/* Lab texts: two directory variants under tmp (created by the run) x two
   small workloads, two repeats, more top-level keys added ("" for none);
   the same without more; one run that goes on until stopped. Caller
   frees. */
char *two_by_two_with(const char *tmp, const char *more);
char *two_by_two(const char *tmp);
char *endless(const char *tmp);
/* The one record (*.json) in dir, or NULL; caller frees. */
char *only_file(const char *dir);
/* The runner's record of a finished run: the one file in dir, as it
   was handed over. */
struct record *taken_record(struct labrun *lr, const char *dir);
/* A string and an integer of the record's "rounds". */
const char *rounds_str(const struct record *rec, const char *key);
json_int_t rounds_int(const struct record *rec, const char *key);

/* The two-by-two lab (more: more top-level keys) run to its end, ticks of
   20 ms, with the runner's record in tmp/res. */
struct ran {
	char *tmp, *text, *res;
	struct labrun *lr;
	struct seen s;
};

void ran_two_by_two(struct ran *f, const char *more);
void ran_done(struct ran *f);

#endif
