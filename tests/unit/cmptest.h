/*
 * Fixtures shared by the comparison table's unit tests (test-compare*.c):
 * a lab of three variants (slow, fast, mirror) and two workloads (small,
 * untar), records filled with runs of chosen figures, and the table built
 * from them. Any failure fails the test.
 */
#ifndef RAIDLAB_TEST_CMPTEST_H
#define RAIDLAB_TEST_CMPTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/lab.h"
#include "measure/result.h"
#include "results/compare.h"
#include "results/record.h"

/* The lab's variants and workloads, by index. */
enum { V_SLOW, V_FAST, V_MIRROR };
enum { W_SMALL, W_TAR };

/* The lab "cmplab", loaded from its text. */
struct lab *cmptest_lab(void);

/* A run of the small-files workload: files_100 and files_1000 figures. */
void cmptest_add_small(struct record *rec, const struct lab *lab, int v,
    int repeat, double f100, double f1000, enum wl_status st);

/* A run of the untar workload: seconds, lower is better. */
void cmptest_add_tar(struct record *rec, const struct lab *lab, int v,
    int repeat, double secs, bool too_fast);

/*
 * Runs of "small" for variant v, one per figure: files_100 = vals[i],
 * each test lasting wall seconds.
 */
void cmptest_add_vals(struct record *rec, const struct lab *lab, int v,
    const double *vals, size_t n, double wall);

/*
 * The sample record:
 * slow: files_100 10, 20, 30 (mean 20, sd 10); files_1000 100 x3.
 * fast: files_100 30, 30, 30; files_1000 150, 250 and a failed run.
 * mirror: skipped.  tar: slow 4 s, fast 2 s and 3 s.
 */
struct record *cmptest_record(const struct lab *lab);

/* The column of workload's test key; fails the test if there is none. */
size_t
cmptest_col(const struct compare *c, const char *workload, const char *key);

/* The sample record's table, labelled "first". */
struct cmptest {
	struct lab *lab;
	struct record *rec;
	struct compare c;
};

void cmptest_setup(struct cmptest *f);
void cmptest_teardown(struct cmptest *f);

/* A table of slow (a) against fast (b), slow the baseline. */
void cmptest_table(struct compare *c, struct lab **lab, struct record **rec,
    const double *a, size_t na, const double *b, size_t nb);
void cmptest_table_done(struct compare *c, struct lab *lab, struct record *rec);

#endif
