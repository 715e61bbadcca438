/*
 * Internal to the report (report*.c): the pieces report.c calls to gather
 * the provenance, and the text helpers the plain-text and Markdown
 * renderers share. The thread that owns the records.
 */
#ifndef RAIDLAB_REPORT_INT_H
#define RAIDLAB_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct compare_cell;
struct report;
struct report_variant;
struct strbuf;

/* Append s (taken) to the vector v of n strings. */
void report_strv_push(char ***v, size_t *n, char *s);
/* Free the n strings of v and v. */
void report_strv_free(char **v, size_t n);

/*
 * report-answer.c: the answer the reports lead with, worded alike in
 * every format. Row's verdict on test col in a few words, appended to
 * out: "two 12.3% faster than one (q = 0.002)" (q: Benjamini-Hochberg's
 * adjusted p), "two took 4.0% less time than one (q = 0.03)", "two the
 * same as one within ±2%", "two: can't tell against one (-7.0% to
 * +9.0%; about 12 repeats each would settle it)", "two: too few repeats
 * to tell (n<3)"; " !" after it when a side is unstable. Only for a row
 * report_judged().
 */
void report_verdict_words(const struct report *s, size_t row, size_t col,
    struct strbuf *out);
/* The change in percent the test measured (the ratio of geometric means
   for the log test, the median ratio for the rank test: what the
   interval is of), else that of the means; NAN with neither. */
double report_cell_change(const struct compare_cell *x);
/* Row has a verdict against the baseline on col (neither none nor the
   baseline itself). */
bool report_judged(const struct report *s, size_t row, size_t col);
/* What a test's answer says when no row is judged on it. */
const char *report_nothing_judged(const struct report *s);
/* "small: 1000 files of 4K in 10 dirs": the test's name in an answer
   (workload and label). Caller frees. */
char *report_test_name(const struct report *s, size_t col);
/* Under a write amplification column (compare_col_is_wamp()), what it
   counts and each row's ideal ratio, as one paragraph; NULL for another
   column. Caller frees. */
char *report_wamp_note(const struct report *s, size_t col);
/* What could not be measured, as sentences into a new vector *v of *n
   (report_strv_free()): the variants with no figure and why, and the
   tests too fast to measure. */
void report_unmeasured(const struct report *s, char ***v, size_t *n);
/* A fleet's answers (compare-fleet.h), the combined verdict of each
   test and variant as "small: Files 1000: v2: 12.0% faster than v1 over
   3 hosts (...), consistently on 3 of 3 hosts", into a new vector *v of
   *n (report_strv_free()), and how they were reached into *method (NULL
   with no fleet: records of fewer than 2 hosts). */
void report_fleet(const struct report *s, char ***v, size_t *n, char **method);

/* report-facts.c: the md and queue settings a build's facts read back
   (mdadm --detail's and sysfs's md values, readahead, the filesystem's
   geometry as dumpe2fs and xfs_info say it, the mount in effect). */
void report_settings(struct report_variant *v, json_t *facts);
/* The build's phase (the array degraded, rebuilding or scrubbed while
   measured) as a setting line; nothing without one. */
void report_phase(struct report_variant *v, const json_t *build);
/* report-facts.c: the caveats of s, as sentences. */
void report_caveats(struct report *s);

/*
 * report-text.c: text wrapped to width at spaces, the first line after
 * first (already in out, its length first_len), the others indented by
 * indent; a word longer than a line is split. ASCII only: control
 * characters as "\xHH" (textsafe.h), "±" becomes "+-", German letters
 * and quotes their ASCII ("ü" "ue", "»" '"'), other non-ASCII
 * characters "?".
 */
void report_wrap(struct strbuf *out, const char *text, size_t first_len,
    size_t indent, size_t width);

/* report-lat.c: tail latency. */
struct compare;
struct compare_col;
/* The comparison of s's records with the latency columns in (the same
   rows, baseline and method as s->cmp), into lc; false (lc done) when
   no test has latency samples. compare_done() it after. */
bool report_lat_compare(const struct report *s, struct compare *lc);
/* lc's rate column of the same workload, parameters, test and unit as
   col (from s->cmp), or COMPARE_NONE. */
size_t
report_lat_rate_col(const struct compare *lc, const struct compare_col *col);
/* The latency columns of lc's rate column k, p50 to p99.9, into j
   (COMPARE_LAT_NQ); false when it has none. */
bool report_lat_cols(const struct compare *lc, size_t k, size_t *j);
/* A latency cell's verdict for a table: compare_format_verdict(), or
   "few samples" for a percentile not judged on them. Returns buf. */
const char *report_lat_verdict(const struct compare *lc, size_t row, size_t col,
    char *buf, size_t len);
/* What the section's figures are, in a paragraph (translated). */
const char *report_lat_intro(void);
/* report-md.c: text from the records in Markdown (in_cell: a table
   cell's): control characters escaped, HTML's specials as entities,
   backticks and (in a cell) bars escaped. */
void report_md_text(struct strbuf *out, const char *s, bool in_cell);
/* The "Tail latency" section of the text and Markdown reports (nothing
   when no test has latency samples). */
void report_lat_text(const struct report *s, struct strbuf *out);
void report_lat_markdown(const struct report *s, struct strbuf *out);
#endif
