/*
 * The comparison table of result records, without curses: rows are the
 * variants of each record added (one row per record and variant, so runs
 * made on different days are never pooled), columns are the tests of the
 * workloads (workload name + test key + unit: "small" "files_1000"
 * files/s, bonnie's columns...), and a cell holds the mean and sample
 * standard deviation of the test's figure over the repeats of that
 * variant, how many repeats it averages, and its change in percent
 * against a chosen baseline row. Per column the best cell is marked:
 * the highest mean for rates, the lowest for seconds (compare_lower_better
 * decides from the unit). Failed runs are counted, not averaged (their
 * figures are partial), as `raidlab show` does; interrupted runs are
 * averaged and flagged. The Compare screen (ui/tui-compare.c) draws it;
 * any front end may. The thread that owns the records (the UI thread).
 */
#ifndef RAIDLAB_COMPARE_H
#define RAIDLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "result.h"

struct err;
struct record;

/* "No row": no baseline, no best cell in a column. */
#define COMPARE_NONE ((size_t)-1)

/* Buffer for compare_format_value() and compare_format_pct(). */
#define COMPARE_NUM_BUF 32

struct compare_cell {
	size_t n; /* repeats averaged (0: the variant has no figure); a
		     repeat with several figures for the column (compilebench
		     operations) gives their mean */
	double mean, sd; /* sd: sample (n - 1) stddev, 0 when n is 1;
			    both NAN when n is 0 */
	double pct; /* (mean - base) / base x 100; NAN: no baseline,
		       no figure, or a baseline of 0 */
	size_t failed; /* failed runs, left out of the mean */
	size_t fast; /* repeats too fast to mean much: left out of the mean
			unless every repeat was, as in raidlab show */
	bool too_fast; /* every repeat was (n > 0): not a candidate for
			  best, shown as bonnie++ does ("+++++") */
	bool interrupted; /* only stopped repeats had a figure: theirs are
			     averaged (a stopped one is left out otherwise) */
	double *v; /* the n figures averaged, in run order */
	/* Every repeat's figure with its kind (enum in compare.c), in run
	   order: the mean takes the kind that means most. */
	double *all;
	unsigned char *kind;
	size_t nall;
};

struct compare_row {
	char *variant; /* variant name */
	char *source; /* which record: "quick 2026-11-30 07:41" */
	char *path; /* the record's file, or NULL (a live record) */
	char *text; /* the variant's one-line description, or NULL */
	bool scratch; /* scratch disks: not representative */
	char *scaled; /* its record ran scaled down (record_scaled()): how;
			NULL for a full run */
	size_t record; /* index of the record (order of compare_add) */
	struct compare_cell *cells; /* ncols of them */
};

struct compare_col {
	char *workload; /* the lab's workload name: "small" */
	char *type; /* its type: "smallfiles" */
	char *key; /* the test's key: "files_1000" */
	char *label; /* untranslated: "Block write (-s 2G:...)" */
	char *title; /* label without a trailing " (...)": "Block write" */
	enum wl_unit unit;
	bool lower_better; /* seconds: less is better */
	size_t best; /* the best row when two or more rows have a figure
			that counts, else COMPARE_NONE */
	double min, max; /* of the means shown (for a colour scale) */
};

struct compare {
	struct compare_row *rows;
	size_t nrows;
	struct compare_col *cols;
	size_t ncols;
	size_t nrecords; /* compare_add() calls kept */
	size_t baseline; /* row, or COMPARE_NONE (the first row by default) */
};

void compare_init(struct compare *c);
void compare_done(struct compare *c);

/*
 * Add the rows and columns of rec (its figures are copied: rec may be
 * freed afterwards). label names the record in the rows' source; NULL
 * gives "LAB YYYY-MM-DD HH:MM" (lab name and local creation time). The
 * first row added becomes the baseline when there was none. Returns the
 * number of rows added (0: the record has no figures).
 */
size_t
compare_add(struct compare *c, const struct record *rec, const char *label);

/* Drop the rows of record number i (the columns nobody uses any more go
   too); the baseline moves to the first row if its record went. */
void compare_remove_record(struct compare *c, size_t record);

/* A row comes from the record file at path (as given to compare_add). */
bool compare_has_path(const struct compare *c, const char *path);

/* Choose the baseline row (COMPARE_NONE: none); the percentages follow. */
void compare_set_baseline(struct compare *c, size_t row);

/* The cell at row, col (both in range). */
const struct compare_cell *
compare_cell(const struct compare *c, size_t row, size_t col);

/*
 * Where the cell's mean lies between the column's worst (0) and best (1)
 * means, for a colour scale; 1 when all means are equal; -1 when the cell
 * has no figure or is too fast to count.
 */
double compare_score(const struct compare *c, size_t row, size_t col);

/* Seconds (delete, stat, tar+sync): lower is better; rates: higher. */
bool compare_lower_better(enum wl_unit u);

/*
 * Figures as the table shows them: "0.25", "28.07", "1234.5", "98765"
 * (two decimals under 100 and for seconds, one under 10000, none above);
 * NaN gives "-". Percentages: "+12.3%", "-4.0%", "+0.0%", "+150%" (no
 * decimal from 100 up), NaN gives "". Both return buf.
 */
const char *
compare_format_value(double v, enum wl_unit u, char *buf, size_t len);
const char *compare_format_pct(double pct, char *buf, size_t len);

/*
 * A record file found in a results directory, for a picker: its path, lab
 * name, creation time, status, and how many runs and variants it has.
 * Files that are not records (or unreadable) are listed with ok = false
 * and why in error.
 */
struct compare_file {
	char *path;
	char *lab; /* NULL when unknown */
	char *status; /* "ok", "failed", "interrupted", "running", NULL */
	char *error; /* why it is not a record, or NULL */
	time_t created; /* 0 when unknown */
	size_t nruns, nvariants;
	bool ok;
};

struct compare_files {
	struct compare_file *v;
	size_t n;
};

/*
 * The *.json files of dir, newest first (by creation time, then name).
 * Returns 0 (an absent directory is an empty list) or a negative errno
 * with e filled.
 */
int compare_files_scan(struct compare_files *l, const char *dir, struct err *e);
void compare_files_done(struct compare_files *l);

/* Rows of c come from records that ran scaled differently (one scaled
   down and one not, or scaled otherwise): their figures do not compare. */
bool compare_scaled_differ(const struct compare *c);

#endif
