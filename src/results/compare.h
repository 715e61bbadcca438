/*
 * The comparison table of result records, without curses: rows are the
 * variants of each record added (one row per record and variant, so runs
 * made on different days are never pooled; a variant with no figure, one
 * that was not built or not reached, gets its row with the reason),
 * columns are the tests of the workloads (workload name + parameters +
 * test key + unit: "small" "files_1000" files/s, bonnie's columns...; the
 * same workload run with other parameters is another column, kept apart
 * with the reason, never compared), and a cell holds what the repeats of
 * that variant say (src/figures/stats.h): n, mean, sd, CV, median, range,
 * the 95% confidence interval of the geometric mean (on the log scale:
 * figures are above 0, and so is the interval), the stability marks (CV
 * over the lab's limit, a trend, outliers, a warm-up, tests too short to
 * trust, stopped repeats) and, against a chosen baseline row, the change
 * in percent by the comparison's test (the log t-test by default) with its
 * interval and p-value, corrected over every cell judged
 * (Benjamini-Hochberg) and summed up as one of three answers: better or
 * worse, the same within the margin, or can't tell. Per column the best
 * cell is marked, the highest mean for rates, the lowest for seconds
 * (compare_lower_better decides from the unit), only when it is proven
 * better than every other at the corrected level (a star is an answer:
 * never where no verdict proves a difference). Failed runs are
 * counted, not averaged (their figures are partial), as `raidlab show` does;
 * too-fast repeats are left out unless every repeat was; a stopped run's
 * figures (an interrupted run, or a test that stalled: the process stopped or
 * the machine suspended while it was timed) are left out unless no other repeat
 * has one, and then they are shown marked and never judged. The Compare screen
 * (ui/tui/tui-compare.c) and `raidlab compare` draw it; the verdict texts are
 * compare-verdict.c's. The thread that owns the records (the UI thread).
 */
#ifndef RAIDLAB_COMPARE_H
#define RAIDLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "figures/stats.h"
#include "measure/result.h"

struct err;
struct record;

/* "No row": no baseline, no best cell in a column. */
#define COMPARE_NONE ((size_t)-1)

/* Buffer for compare_format_value() and compare_format_pct(). */
#define COMPARE_NUM_BUF 32
/* From here on a figure is written as 1.235e+15, not in full. */
#define COMPARE_HUGE 1e15

/* Why a cell's figures are not a plain result: each mark has a reason
   in words (compare_marks_text()). */
enum compare_mark {
	COMPARE_MARK_CV = 1 << 0, /* CV over the lab's cv_limit */
	COMPARE_MARK_TREND = 1 << 1, /* rises or falls with the repeats */
	COMPARE_MARK_OUTLIER = 1 << 2, /* a repeat far from the others */
	COMPARE_MARK_WARMUP = 1 << 3, /* the first repeat far from the rest */
	COMPARE_MARK_SHORT = 1 << 4, /* tests too short to trust */
	COMPARE_MARK_STOPPED = 1 << 5, /* only stopped runs had a figure */
	COMPARE_MARK_STALLED = 1 << 6, /* a repeat's test stalled (the
					  process stopped, the machine
					  suspended): counted as stopped */
	COMPARE_MARK_FEWLAT = 1 << 7, /* a latency percentile resting on
					 too few operations in a round
					 (compare_lat_need()): never
					 judged */
};

/* The marks that make a sample unstable, or its figures too short to
   trust: a verdict on it says so. */
#define COMPARE_UNSTABLE                                                       \
	(COMPARE_MARK_CV | COMPARE_MARK_TREND | COMPARE_MARK_OUTLIER |         \
	    COMPARE_MARK_WARMUP | COMPARE_MARK_SHORT)

/* A trend marks a sample when Mann-Kendall's p is at most this (n >= 4;
   four values falling at every step give 1/12). */
#define COMPARE_TREND_P 0.10
/* Tests whose median duration is under this many seconds are marked
   too short to trust. */
#define COMPARE_SHORT_S 0.5

/* What a cell says against the baseline, best known first. */
enum compare_verdict {
	COMPARE_V_NONE, /* no baseline, or no figure on either side */
	COMPARE_V_BASELINE, /* the cell is the baseline's */
	COMPARE_V_STOPPED, /* a side has only stopped runs: never judged */
	COMPARE_V_FAST, /* a side was too fast to measure */
	COMPARE_V_FEW, /* a side has under 3 repeats: noise cannot be told
			  from a difference */
	COMPARE_V_EXACT, /* both sides repeat one figure exactly: the
			    figures' resolution, not certainty; no
			    interval */
	COMPARE_V_SAME, /* the same within +-margin: both one-sided tests
			   reject (TOST at 5% each, the 90% interval
			   inside the margin) */
	COMPARE_V_UNSURE, /* can't tell: neither a difference (after the
			     correction for the comparisons made) nor
			     sameness within the margin is proven */
	COMPARE_V_BETTER, /* a change whose interval excludes 0 after the
			     Benjamini-Hochberg correction (q < 5%) */
	COMPARE_V_WORSE,
};

/* The equivalence margin when the lab sets none: +-2%, the smallest
   change the linux-raid threads argue over (a bitmap's cost). */
#define COMPARE_MARGIN_DEFAULT 2.0
/* The power the smallest detectable change is stated at. */
#define COMPARE_POWER 0.80
/* The family-wise level verdicts are judged at, after correction. */
#define COMPARE_ALPHA 0.05

struct compare_cell {
	size_t n; /* repeats averaged (0: the variant has no figure); a
		     repeat with several figures for the column (compilebench
		     operations) gives their mean */
	double mean, sd; /* sd: sample (n - 1) stddev, 0 when n is 1;
			    both NAN when n is 0 */
	struct stats_desc d; /* the n figures: CV, median, range; ci_lo and
				ci_hi are the 95% interval of their
				geometric mean (stats_log_interval()),
				ci_half half its width */
	double pct; /* (mean - base) / base x 100; NAN: no baseline,
		       no figure, or a baseline of 0 */
	struct stats_change ch; /* against the baseline, by the
				   comparison's test (c->test); its
				   interval at c->conf_shown */
	double q; /* ch.p adjusted by Benjamini-Hochberg over the
		     comparison's family (c->family tests); NAN: not
		     judged */
	double eq_lo, eq_hi; /* the 90% interval of the change (TOST):
				inside +-margin makes it "the same" */
	double mde; /* the smallest change in percent these repeats would
		       show at 80% power (stats_mde()); NAN unknown */
	size_t settle; /* COMPARE_V_UNSURE: repeats each that would settle
			  it (stats_n_settle()); 0 unknown */
	enum compare_verdict verdict;
	size_t needed; /* COMPARE_V_FEW: repeats each that would tell a
			  change this large from noise (0: unknown) */
	unsigned marks; /* enum compare_mark bits */
	double tau, trend_p; /* Mann-Kendall, NAN when n < 3 */
	double wall; /* median duration of the tests, seconds; NAN unknown */
	size_t failed; /* failed runs, left out of the mean */
	size_t fast; /* repeats too fast to mean much: left out of the mean
			unless every repeat was, as in raidlab show */
	size_t stopped; /* repeats from stopped runs (left out, or all),
			   stalled ones included */
	size_t stalled; /* repeats whose test stalled (wl_test.stalled) */
	double stalled_s; /* the longest such stall, seconds */
	bool too_fast; /* every repeat was (n > 0): not a candidate for
			  best, shown as bonnie++ does ("+++++") */
	bool interrupted; /* only stopped repeats had a figure: theirs are
			     shown, marked, never judged */
	bool proven; /* it is proven better or worse than another cell of
			its column (compare_proven_better()): only then
			does it get a colour (compare_score()) */
	double *v; /* the n figures averaged, in run order */
	bool *outlier; /* n of them: v[i] is an outlier */
	/* Every repeat's figure with its kind (enum in compare.c) and its
	   tests' duration, in run order: the mean takes the kind that means
	   most. */
	double *all;
	double *walls;
	unsigned char *kind;
	size_t nall;
	/* Latency (the latency part below). A rate column's cell: each
	   round's percentiles per operation, from which the latency
	   columns are built. A latency column's: the operations of its
	   fewest round among those averaged, and whether that is under
	   compare_lat_need() (COMPARE_MARK_FEWLAT). */
	struct compare_lat_round *lat;
	size_t nlat;
	uint64_t lat_ops;
	bool lat_few;
};

struct compare_row {
	char *variant; /* variant name */
	char *source; /* which record: "quick 2026-11-30 07:41" */
	char *path; /* the record's file, or NULL (a live record) */
	char *host; /* the record's host (compare_record_host()), or NULL:
		       the fleet comparison (compare-fleet.h) blocks by it */
	char *text; /* the variant's one-line description, or NULL */
	bool scratch; /* scratch disks: not representative */
	char *scaled; /* its record ran scaled down (record_scaled()): how;
			NULL for a full run */
	size_t record; /* index of the record (order of compare_add) */
	char *why; /* why the row has no figure ("not built: ..."), or
		      NULL */
	double cv_limit; /* its record's (record_cv_limit()) */
	/* Its record's test (record_test()) and equivalence margin in
	   percent (record_equivalence()): the comparison's when the row is
	   the baseline and compare_set_method() chose none. */
	enum stats_test test;
	double margin;
	struct compare_cell *cells; /* ncols of them */
	/* The write amplification its level should show
	   (wamp_ideal()), NAN when none is defined, and the rule in
	   words (NULL: none); wamp_seen: looked up. */
	double wamp_ideal;
	char *wamp_how;
	bool wamp_seen;
};

struct compare_col {
	char *workload; /* the lab's workload name: "small" */
	char *type; /* its type: "smallfiles" */
	char *key; /* the test's key: "files_1000" */
	char *params; /* the workload's parameters as compact JSON */
	/* Another column has the same workload and test run with other
	   parameters: why they are kept apart ("parameters differ from
	   the other small: counts [100] against [1000]"), else NULL. */
	char *apart;
	char *label; /* untranslated: "Block write (-s 2G:...)" */
	char *title; /* label without a trailing " (...)": "Block write" */
	enum wl_unit unit;
	bool lower_better; /* seconds: less is better */
	size_t best; /* the row with the best mean when it is proven
			better than every other row with a figure that
			counts (compare_proven_better()); else
			COMPARE_NONE: no star where no verdict says so */
	double min, max; /* of the means shown (for a colour scale) */
	/* A latency column (compare_set_latency()): the quantile (0.5,
	   0.99, 0.999; 0 in a rate column), the operation (enum wl_op)
	   and the rate column it comes from. */
	double lat_q;
	int lat_op;
	size_t lat_of;
};

struct compare {
	struct compare_row *rows;
	size_t nrows;
	struct compare_col *cols;
	size_t ncols;
	size_t nrecords; /* compare_add() calls kept */
	size_t baseline; /* row, or COMPARE_NONE (by default the first
			    row with a figure that can be judged) */
	bool baseline_chosen; /* by compare_set_baseline(): kept as rows
				 come and go */
	/* How verdicts are reached: the test (the baseline record's lab
	   `test`, STATS_TEST_LOG by default) and the equivalence margin in
	   percent (its `equivalence`, COMPARE_MARGIN_DEFAULT), unless
	   compare_set_method() chose them. */
	enum stats_test test;
	double margin;
	bool method_chosen;
	size_t family; /* cells judged against the baseline (the m of the
			  correction) */
	size_t rejected; /* of them, proven different after correction */
	double conf_shown; /* the level of the change intervals shown:
			      stats_fcr_conf(family, rejected, 0.05) */
	bool latency; /* the latency columns are in (compare_set_latency()) */
};

/* A variant's answer over every test of the comparison. */
struct compare_summary {
	size_t tests; /* cells with a verdict against the baseline */
	size_t better, worse, same, unsure,
	    other; /* other: too few,
		      too fast, stopped, exact */
	/* The geometric mean of its ratios to the baseline over the
	   judged tests, each turned so that above 1 is better (a time's
	   ratio inverted), and its 95% interval (stats_geomean_ratio());
	   NAN when no test has one. */
	double gm, gm_lo, gm_hi;
	size_t gm_tests; /* the ratios it averages */
};

/*
 * Write amplification (compare-wamp.c): every workload whose runs on an
 * array variant watched their devices gets a column "wamp" (unit WL_UNIT_RATIO,
 * lower is better): the bytes the bottom devices wrote per byte the workload
 * wrote, one figure per repeat (wamp.h), with the same interval, marks
 * and verdicts as any column; "wamp_members", "wamp_journal" and
 * "wamp_log" beside it when a journal or log device was watched. The
 * overall summary leaves them out: it answers speed.
 */
/* The row's ideal ratio in words: "ideal 2.00 (btrfs raid1: 2 copies of
   the data)"; NULL when its level defines none. Caller frees. */
char *compare_wamp_ideal_text(const struct compare *c, size_t row);
/* Column k holds a write amplification. */
bool compare_col_is_wamp(const struct compare *c, size_t k);

/*
 * Fault phases (compare-phase.c): a variant whose lab runs it degraded,
 * rebuilding or scrubbing gets a column of the rebuild's or scrub's
 * seconds (type "phase", workload "array phase", lower is better), one
 * figure per round's build. The overall summary leaves it out too.
 */
bool compare_col_is_phase(const struct compare *c, size_t k);

/* Choose the test and the margin (percent, > 0) for every verdict,
   overriding the records'; the verdicts follow. */
void compare_set_method(struct compare *c, enum stats_test t, double margin);

/* The summary of row over every column (none for the baseline). */
void compare_summarise(const struct compare *c, size_t row,
    struct compare_summary *s);

/*
 * The summary in one line: "b: 1.8% slower than a overall (geometric
 * mean of 12 tests, 95% CI -3.1% to -0.5%): 2 worse, 7 the same, 3
 * can't tell". NULL for the baseline or a row with nothing judged.
 * Caller frees.
 */
char *compare_summary_text(const struct compare *c, size_t row);

/*
 * How the verdicts were reached, for the foot of every answer: "the log
 * test (Welch's t-test on logarithms); same = within +-2% (TOST); 24
 * comparisons, Benjamini-Hochberg at 5%, intervals at 99.6%" (one
 * comparison: nothing corrected). Caller frees.
 */
char *compare_method_text(const struct compare *c);

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
   too); the records after it are numbered one less; the baseline moves
   to the first row if its record went. */
void compare_remove_record(struct compare *c, size_t record);

/* A row comes from the record file at path (as given to compare_add). */
bool compare_has_path(const struct compare *c, const char *path);

/* Choose the baseline row (COMPARE_NONE: none); the percentages and
   verdicts follow. */
void compare_set_baseline(struct compare *c, size_t row);

/* The cell at row, col (both in range). */
const struct compare_cell *
compare_cell(const struct compare *c, size_t row, size_t col);

/*
 * Where the cell's mean lies between the column's worst (0) and best (1)
 * means, for a colour scale; 1 when all means are equal; -1 (neutral, no
 * colour) when the cell has no figure, is too fast to count, or is
 * proven neither better nor worse than any other cell of its column.
 */
double compare_score(const struct compare *c, size_t row, size_t col);

/* Seconds (delete, stat, tar+sync): lower is better; rates: higher. */
bool compare_lower_better(enum wl_unit u);

/*
 * Figures as the table shows them: "0.25", "28.07", "1234.5", "98765"
 * (two decimals under 100 and for seconds, one under 10000, none above,
 * 4 significant digits from COMPARE_HUGE: "1e+308"); NaN gives "-".
 * Percentages: "+12.3%", "-4.0%", "+0.0%", "+150%" (no decimal from 100
 * up, "+1e+308%" from COMPARE_HUGE), NaN gives "". Both return buf.
 */
const char *
compare_format_value(double v, enum wl_unit u, char *buf, size_t len);
const char *compare_format_pct(double pct, char *buf, size_t len);

/* The level of the intervals (c->conf_shown) in percent, as the answers
   write it: the fewest decimals (at most 4) that keep it under 100 and
   within a twentieth of a percent: "95", "97.5", "99.8", never a rounded
   "100". Returns buf. */
const char *compare_conf_text(double conf, char *buf, size_t len);

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
	/* A fleet's record (fleet-run.h): its fleet.run and fleet.host;
	   NULL for a record made here. */
	char *fleet_run, *fleet_host;
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
/*
 * The newest record of l whose lab is named lab and that has runs (the
 * one the TUI's Compare opens a lab on, and `raidlab compare LAB`
 * reads), or NULL. Borrowed from l.
 */
const struct compare_file *
compare_files_latest(const struct compare_files *l, const char *lab);
/*
 * The files of l that belong to f's fleet run (f itself among them), by
 * path (LAB-STAMP-HOST.json: by host name); just f when it is
 * no fleet's. Borrowed pointers in a new array the caller frees; *n their
 * count.
 */
const struct compare_file **compare_files_run(const struct compare_files *l,
    const struct compare_file *f, size_t *n);

/* Rows of c come from records that ran scaled differently (one scaled
   down and one not, or scaled otherwise) and it shows in the effective
   parameters: a test of one workload ran with other parameters in them.
   Scaled alike in effect (a --set that made the parameters the other
   record's), their figures share columns and compare. */
bool compare_scaled_differ(const struct compare *c);

/* ---------------------------------------------------------- verdicts */
/* compare-verdict.c: the statistics of update() and their words. */

/*
 * The verdict of the cell in at most 16 columns, for tables: "+27.1%
 * ±4.2%" (better or worse: the test's change, the half-width of the
 * interval shown at conf_shown), "same ±2%" (within the margin), "?
 * -7.0..+9.0%" (can't tell: the interval shown; "? p=0.20" when the test
 * gives none), " !" after any of them when a side is unstable, "+5.0%
 * exact?", "n<3", "stopped", "+++++", "baseline", or "". Returns buf.
 */
const char *compare_format_verdict(const struct compare *c, size_t row,
    size_t col, char *buf, size_t len);

/*
 * The answer in one sentence, for the selected test, naming the test
 * that gave it, the interval shown (at conf_shown), p and, with more than
 * one comparison, q:
 * "b: 27.1% faster than a by the log t-test (99.6% CI 22.9% to 31.3%;
 * p = 0.004, 0.030 after correcting for 24 comparisons; n = 5 and 5)"
 * (and " (within the ±2% margin)" after a proven change smaller than
 * the margin), "b: the same as a within ±2% by the log t-test (-0.4%,
 * 90% CI -1.2% to +0.5%: both one-sided tests reject; p = 0.52, ...)",
 * "b: can't tell against a by the log t-test: the 99.6% CI spans -7.0%
 * to +9.0% (+1.0%; p = ...); about 6 more repeats each would settle it",
 * each of the three followed by "; the smallest change these repeats
 * could show is 4.1% (80% power)"; "b: 2 repeats against 5: noise cannot
 * be told from a difference; about 6 repeats each would tell", with
 * "; the verdict rests on an unstable sample: a: REASONS" for each side
 * that is. The names are the rows' variants ("b #2" with several
 * records). NULL when there is nothing to say (no baseline, the
 * baseline row itself, no figure). Caller frees.
 */
char *compare_answer(const struct compare *c, size_t row, size_t col);

/* compare_answer() without the unstable sides' reasons, for a report
   that says each cell's reasons once, beside its figure. */
char *compare_answer_bare(const struct compare *c, size_t row, size_t col);

/*
 * The reasons for the cell's marks, one clause each, joined by "; ":
 * "CV 18.2% over the 5% limit; falls with every repeat (Mann-Kendall
 * tau -1.00, p = 0.08); 1 outlier (repeat 4); the first repeat is far
 * from the rest (a warm-up?); the tests lasted 0.01 s: too short to
 * trust; only stopped runs had a figure". "" without marks. Caller frees.
 */
char *compare_marks_text(const struct compare *c, size_t row, size_t col);

/* One word per mark, for narrow places: "cv trend outlier warm-up short
   stopped" (those set, in that order). Untranslated keys: the JSON and
   CSV use them too. Caller frees. */
char *compare_marks_keys(unsigned marks);

/* "none", "baseline", "stopped", "too_fast", "too_few", "exact",
   "same", "unsure", "better", "worse": the verdict's key in JSON and
   CSV. */
const char *compare_verdict_key(enum compare_verdict v);

/*
 * Row a's figure in col is proven better than row b's at the corrected
 * level: 3 repeats or more each, neither stopped nor too fast, not both
 * exact, and the comparison's test gives a p under the family's
 * Benjamini-Hochberg threshold, max(rejected, 1) x 5% / family (= 1 -
 * conf_shown: where a shown interval excludes 0%). Against the baseline
 * this is exactly the verdict "better"; between two other rows the pair
 * is held to the same threshold. With no family (no baseline, or nothing
 * judged) the threshold is 5% / ncols (Bonferroni over the columns'
 * bests). What a star or a colour may claim.
 */
bool
compare_proven_better(const struct compare *c, size_t a, size_t b, size_t col);

/* The statistics of every cell (per cell, then against the baseline,
   then corrected over the family: compare-family.c), and which bests
   and colours are proven; update() calls it. */
void compare_judge(struct compare *c);

/* ---------------------------------------------------------------- JSON */
/* compare-json.c */

/*
 * The cell as `raidlab compare --json` prints it: variant, record (from
 * 1), scratch, n, mean, sd, cv, median, min, max, ci_lo, ci_hi (95% CI
 * of the geometric mean), pct (of the means), change (the test's: the
 * ratio of geometric means for the log test, the median ratio for the
 * rank test), pct_lo, pct_hi (its interval at the comparison's conf), p,
 * df (NaN for the rank test), q (Benjamini-Hochberg), eq_lo, eq_hi (the
 * 90% interval TOST judged), mde, settle, baseline, best, failed,
 * too_fast, interrupted, verdict (compare_verdict_key()), needed (too
 * few repeats: how many would tell), marks [keys], marks_text, answer,
 * why (a row without figures). NaN is null.
 */
json_t *compare_cell_json(const struct compare *c, size_t row, size_t col);

/* compare_summarise() of row with its text (compare_summary_text(), null
   for the baseline): tests, better, worse, same, unsure, other, gm,
   gm_lo, gm_hi, gm_tests, text. */
json_t *compare_summary_json(const struct compare *c, size_t row);

/* How the verdicts were reached: test (its key), equivalence (the margin
   in percent), alpha, family, rejected, conf (the level of pct_lo and
   pct_hi), power, text (compare_method_text()). */
json_t *compare_method_json(const struct compare *c);

/*
 * What rec's own repeats say, for the record itself ("stability"): one
 * object per variant and test with figures, as compare_cell_json() minus
 * everything that needs a baseline, plus workload, key, unit and the
 * cv_limit the marks used.
 */
json_t *compare_stability_json(const struct record *rec);

/* ------------------------------------------------------------- latency */
/* compare-lat.c: tail latency as compared figures. */

/*
 * With compare_set_latency(c, true), each rate column whose tests have
 * latency histograms gets three latency columns right after it: p50,
 * p99 and p99.9 of its dominant operation (the one with most samples
 * over every row, ties to the lower enum wl_op, as raidlab show and the
 * HTML report pick it), unit WL_UNIT_USEC, lower is better, labelled
 * "Block write, p99 write latency" and titled "p99 Block write" (the
 * percentile first, so that a narrow header keeps it). A latency cell's
 * figures are one per
 * round: that round's own percentile (hist_quantile() of its histogram,
 * the tests of a round under one column merged by adding counts, never
 * by averaging percentiles). So the interval of a latency change is the
 * one across rounds' percentiles (no bootstrap): the marks, the test,
 * the verdict and the star apply as to any column. A round without
 * samples of that operation gives no figure. Failed, stopped and
 * too-fast rounds count as in their rate column. The columns are part
 * of the comparison (its verdicts, its count of comparisons) only while
 * set; the order of the rate columns among themselves stays.
 *
 * Too few samples: a percentile q rests on the operations beyond it, so
 * it needs at least COMPARE_LAT_BEYOND of them in every round averaged,
 * n (1 - q) >= 10: p50 needs 20 operations a round, p99 1000, p99.9
 * 10000. A cell with a round under that is marked COMPARE_MARK_FEWLAT
 * and never judged (its verdict is COMPARE_V_NONE; its figures show).
 *
 * compare_lower_better(WL_UNIT_USEC) is true, and compare_format_value()
 * writes it with its unit, three significant digits: "8.52 µs", "850
 * µs", "12.3 ms", "1.20 s" ("us" where the locale is not UTF-8).
 */
#define COMPARE_LAT_BEYOND 10
#define COMPARE_LAT_NQ 3

/* One round's latency behind a rate cell: per operation its count and
   its histogram's p50, p99 and p99.9 (ns). */
struct compare_lat_round {
	unsigned char kind; /* the kind of the round's figure (compare.c) */
	double wall; /* its tests' mean duration, seconds */
	uint64_t n[WL_OP__COUNT];
	double q[WL_OP__COUNT][COMPARE_LAT_NQ];
};

/* Add or drop the latency columns; the verdicts follow. */
void compare_set_latency(struct compare *c, bool on);
/* The quantile of latency column number i (0 .. COMPARE_LAT_NQ - 1):
   0.5, 0.99, 0.999; and its name, "p50", "p99", "p99.9". */
double compare_lat_quantile(size_t i);
const char *compare_lat_name(double q);
/* Operations a round needs under percentile q: ceil(10 / (1 - q)). */
uint64_t compare_lat_need(double q);
/* The latency column of rate column k at quantile q, or COMPARE_NONE. */
size_t compare_lat_col(const struct compare *c, size_t k, double q);

#endif
