/*
 * Results as text tables: what `raidlab show` prints for a record
 * and `raidlab run` prints at the end of a run. Per variant (in order of
 * first appearance) a variant line with its target, then per workload the
 * workload's own report (struct workload.report) of its repeats, or the
 * generic table below when it has none, and the notes, errors and skipped
 * runs. Text goes into a strbuf; nothing is printed here. The thread
 * that owns the record.
 */
#ifndef RAIDLAB_SHOW_H
#define RAIDLAB_SHOW_H

#include <stddef.h>

struct record;
struct strbuf;
struct wl_result;

/*
 * The generic table of n repeats of one workload: test label, primary
 * value with its unit, wall seconds, %CPU and the p99 latency (ms) of the
 * test's dominant operation (the one with most samples); with n > 1 a row
 * per repeat and one with mean and standard deviation.
 */
void
show_generic(const struct wl_result *const *res, size_t n, struct strbuf *out);

/* Lab, creation time, status, host (kernel, CPU, cores, RAM), version. */
void show_header(const struct record *rec, struct strbuf *out);

/* Every variant and workload of rec (show without the header), then
   show_stability(). */
void show_runs(const struct record *rec, struct strbuf *out);

/*
 * What the repeats of each variant and test say (compare.h): the mean,
 * its 95% confidence interval, the CV and n, and under a sample with
 * stability marks a line of their reasons ("    ! CV 18.2% over the 5%
 * limit; falls across the repeats ..."). Nothing without figures.
 */
void show_stability(const struct record *rec, struct strbuf *out);

/*
 * Every test of every run as CSV (RFC 4180 quoting, one line each, a
 * header line first): variant, scratch, workload, type, repeat, status,
 * test key and label, unit, value, wall, user, sys, cpu_percent, bytes
 * and files and ops counted, p99_ms, too_fast, interrupted, error. A run
 * without tests (skipped, failed early) is one line with the test
 * columns empty and the reason in error.
 */
void show_csv(const struct record *rec, struct strbuf *out);

#endif
