/*
 * The comparison of a fleet, without curses: when the records compared
 * come from more than one host (a record's host is its fleet.host, else
 * its host.hostname), each host is a block of the experiment. For every
 * test (column) and every variant against the baseline row's variant,
 * the variant's effect is measured within each host (the log t-test of
 * that host's repeats: the ratio of geometric means and its interval)
 * and judged there (better or worse after Benjamini-Hochberg over every
 * host's comparison, the same within the comparison's margin by TOST, or
 * can't tell), then the hosts' log-ratios are combined into one change
 * with its interval (stats_meta_blocks(): equal weights, the wider of
 * the between-host and the within-host interval) and judged the same
 * way, corrected over the fleet's combined comparisons. With the hosts'
 * own verdicts counted, an answer says whether the change holds on every
 * host or on one ("consistently on 3 of 3 hosts", "faster on 1 of 3
 * hosts, the same on 2") and how much the hosts disagree (I^2, the range
 * of their changes). A host with several records uses its first one
 * (records are never pooled). The comparison table itself (compare.h)
 * is unchanged by it. The thread that owns the table.
 */
#ifndef RAIDLAB_COMPARE_FLEET_H
#define RAIDLAB_COMPARE_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "compare.h"
#include "figures/stats.h"

/* A record's host: its fleet.host when it is a string, else its
   host.hostname; NULL when it has neither. Borrowed from root. */
const char *compare_record_host(const json_t *root);

/* The distinct hosts of c's rows (a row with no host names none). */
size_t compare_host_count(const struct compare *c);

/* Rows are named by host ("v2@h2") rather than by record ("v2 #2"):
   more than one host, and one record each. */
bool compare_by_host(const struct compare *c);

/* One host's comparison of a variant with the baseline variant. */
struct compare_fleet_host {
	const char *host; /* borrowed from c's rows */
	size_t base, row; /* the rows of the two variants on this host */
	struct stats_change ch; /* log t-test of row against base; the
				   interval at the fleet's host_conf */
	double q; /* Benjamini-Hochberg over every host's comparison; NAN:
		     not judged */
	double eq_lo, eq_hi; /* the 90% interval TOST judged */
	enum compare_verdict verdict; /* better, worse, same, unsure; or
					 few, too fast, stopped, exact,
					 none: not judged */
};

/* A test and a variant over the hosts that have both variants in it. */
struct compare_fleet_item {
	size_t col;
	const char *variant, *base; /* borrowed from c's rows */
	struct compare_fleet_host *hosts;
	size_t nhosts;
	size_t used; /* hosts judged: the k combined */
	struct stats_meta m; /* their combination at the fleet's conf */
	double q; /* Benjamini-Hochberg over the combined comparisons */
	double pct, lo, hi; /* the combined change, percent, and its
			       interval at conf: (exp - 1) x 100 */
	double eq_lo, eq_hi; /* its 90% interval, for TOST */
	double spread_lo, spread_hi; /* the least and most change of a
					judged host, percent */
	enum compare_verdict verdict; /* none when fewer than 2 hosts are
					 judged */
	size_t better, worse, same, unsure, other; /* hosts by their own
						      verdict */
};

struct compare_fleet {
	size_t nhosts; /* compare_host_count() */
	struct compare_fleet_item *items;
	size_t nitems;
	/* The combined verdicts' family, rejections and the level of
	   their intervals (stats_fcr_conf()); the same for the hosts' own
	   verdicts. */
	size_t family, rejected;
	double conf;
	size_t host_family, host_rejected;
	double host_conf;
	double margin; /* the comparison's, percent */
};

/* The fleet analysis of c: no items with fewer than 2 hosts or without
   a baseline. compare_fleet_done() frees it. */
void compare_fleet_build(struct compare_fleet *f, const struct compare *c);
void compare_fleet_done(struct compare_fleet *f);

/*
 * The combined answer of item i in a sentence: "v2: 12.0% faster than v1
 * over 3 hosts (95% CI 8.1% to 16.0%; p = 0.003), consistently on 3 of 3
 * hosts"; "v2: can't tell against v1 over 3 hosts: the 95% CI spans
 * -9.0% to +21.0% (+4.2%; p = 0.41); faster on 1 of 3 hosts, the same on
 * 2; the hosts disagree: I² 93%, their changes +0.1% to +12.3%"; "v2:
 * the same as v1 within ±2% over 3 hosts (+0.3%, 90% CI -0.8% to +1.4%),
 * the same on 3 of 3 hosts"; "v2: 1 host of 3 can be judged against v1:
 * no fleet verdict". Caller frees.
 */
char *compare_fleet_answer(const struct compare_fleet *f,
    const struct compare *c, size_t i);

/* How the hosts of item i agree, the answer's tail: "consistently on 3
   of 3 hosts"; "faster on 1 of 3 hosts, the same on 2; the hosts
   disagree: I² 93%, their changes +0.1% to +12.3%". Caller frees. */
char *compare_fleet_hosts_text(const struct compare_fleet *f,
    const struct compare *c, size_t i);

/* A verdict of a host or of the fleet on col in a word or two: "faster",
   "slower" (for a ratio "lower", "higher"), "the same", "can't tell", or
   why it was not judged. */
const char *compare_fleet_verdict_word(const struct compare *c, size_t col,
    enum compare_verdict v);

/* Host h of item i in one line: "h1  +12.1% (95% CI +8.0% to +16.3%)
   faster" or "h2  +0.2% (90% CI -0.9% to +1.3%) the same". Caller
   frees. */
char *compare_fleet_host_text(const struct compare_fleet *f,
    const struct compare *c, size_t i, size_t h);

/* How the fleet verdicts were reached, one sentence for the foot.
   Caller frees. */
char *compare_fleet_method_text(const struct compare_fleet *f);

/*
 * `raidlab compare --json`'s "fleet": hosts [names], method {...}, and
 * tests: per item workload, key, label, unit, variant, baseline, hosts
 * [{host, n, n_base, change, pct_lo, pct_hi, p, q, eq_lo, eq_hi,
 * verdict}] and combined {hosts, change, pct_lo, pct_hi, p, q, eq_lo,
 * eq_hi, verdict, interval ("between" or "within"), log_ratio, se, df,
 * i2, tau2, q_stat, spread_lo, spread_hi, better, worse, same, unsure,
 * other, text}. NaN is null.
 */
json_t *
compare_fleet_json(const struct compare_fleet *f, const struct compare *c);

#endif
