/*
 * Internal to the comparison (compare*.c): the correction over the
 * family of verdicts that compare_judge() hands to compare-family.c,
 * and the words both files use; the cell and label pieces of compare.c
 * that compare-lat.c builds the latency columns with, and the latency
 * rounds compare.c gathers while it adds a run. Not for front ends: they
 * read compare.h. The thread that owns the table.
 */
#ifndef RAIDLAB_COMPARE_INT_H
#define RAIDLAB_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "measure/result.h"

/* x is judged against the baseline: its verdict is one of better,
   worse, the same or can't tell, decided by the family's correction. */
bool compare_judged(const struct compare_cell *x);

/*
 * compare-family.c: every judged cell (its verdict COMPARE_V_UNSURE and
 * ch filled at STATS_CONF by compare_judge()) gets q by Benjamini-Hochberg
 * over all of them, its interval again at the level that keeps shown
 * intervals in step with the corrected verdicts, its final verdict (q,
 * then TOST), mde and settle; c->family, rejected and conf_shown follow.
 */
void compare_family_judge(struct compare *c);

/* The p-value a pair must be under to count as proven once corrected
   (compare_proven_better()): 1 - c->conf_shown, computed exactly. */
double compare_family_level(const struct compare *c);

/* The cell's change by the test, in percent: ch.pct, or pct when the
   test gave none. */
double compare_change(const struct compare_cell *x);

/* "the log t-test", "Welch's t-test", "the Mann-Whitney rank test":
   the test as an answer names it ("... by the log t-test"). */
const char *compare_test_words(enum stats_test t);

/* "12.0% faster than v1", "took 3.1% more time than v1", "wrote 8.0%
   less to its devices than v1": a change of pct percent in column col
   against base, appended to out (compare-verdict.c). */
struct strbuf;
void compare_change_words(const struct compare *c, size_t col, double pct,
    const char *base, struct strbuf *out);

/* A p-value as an answer gives it after "p ": "< 0.001", "= 0.042". */
void compare_p_text(double p, char *buf, size_t len);

/* "b", or "b #2" when several records are compared. Caller frees. */
char *compare_row_label(const struct compare *c, size_t row);

/* "±" in a UTF-8 locale, else "+-". */
const char *compare_pm(void);

/* What a repeat's figure is, best first: the mean takes the first kind
   any repeat has (raidlab show's rule). */
enum fig_kind { FIG_REAL, FIG_FAST, FIG_STOPPED };

struct record;
struct record_run;

/* compare.c: the column of test t of run's workload with params, added
   (empty cells in every row) when new. */
size_t compare_col_get(struct compare *c, const struct record_run *run,
    const char *params, const struct wl_test *t);
/* compare-wamp.c: the run's write amplification into its row's columns
   ("wamp", and by part when a journal or log was watched), and the
   row's ideal ratio from rec's lab, once. */
void compare_wamp_add(struct compare *c, const struct record *rec, size_t row,
    const struct record_run *run, const char *params);

/* compare-phase.c: the rebuild or scrub time of each build of rec's
   fault phases into its variant's row (record number recno), a column
   per phase ("Rebuild time (md recover)"). */
void
compare_phase_add(struct compare *c, const struct record *rec, size_t recno);

/* compare.c: an empty cell; a figure of a kind (enum fig_kind) with its
   tests' duration pushed onto it. */
void compare_cell_init(struct compare_cell *cell);
void compare_cell_add(struct compare_cell *cell, double v, double wall,
    unsigned char kind);

/*
 * compare-lat.c: one run's latency, gathered as compare.c's add_run()
 * gathers its figures: every test of column col and kind merged by
 * operation (compilebench has several tests under one key), then one
 * round per column of the best kind present pushed onto the row's rate
 * cells (none for a failed run, none without samples).
 */
struct compare_lat_acc;
struct compare_lat_acc *compare_lat_acc_new(size_t ncols);
void compare_lat_acc_take(struct compare_lat_acc *a, size_t col, int kind,
    const struct wl_test *t);
void compare_lat_acc_push(const struct compare_lat_acc *a,
    struct compare_row *row, enum wl_status status);
void compare_lat_acc_free(struct compare_lat_acc *a);

/* compare-lat.c: the latency columns of c (it has none), each after its
   rate column, their cells filled from the rate cells' rounds. */
void compare_lat_build(struct compare *c);

#endif
