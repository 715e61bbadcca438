/*
 * Repeat until sure: the rounds a lab asks for (repeats = N, or a range
 * { min; max; ci; } with a goal for the width of each mean's confidence
 * interval), the figures each (variant, workload) pair has gathered over
 * its rounds, and what the runner decides from them: whether a pair is
 * sure, how many rounds it will likely need in all, why its rounds
 * stopped, in words. The rounds stop on the interval's width alone,
 * never on a difference turning significant: rerunning until significant
 * is multiple testing, and its verdicts would lie. Pure functions of
 * their arguments (no I/O); the runner thread's, and the unit tests'.
 */
#ifndef RAIDLAB_ROUNDS_H
#define RAIDLAB_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lab;
struct wl_result;

struct rounds_goal {
	int64_t min, max; /* fixed: both N */
	double ci; /* the goal, a fraction of the mean (0.02: +-2%); 0:
		      a fixed number of rounds */
};

/* The goal of lab, or exactly repeats rounds when repeats > 0 (`run
   --repeats N` overrides a range too). */
void
rounds_goal_of(struct rounds_goal *g, const struct lab *lab, int64_t repeats);

/* One test of a pair: the figures that count, in round order. */
struct rounds_test {
	char *key;
	double *v;
	size_t n, cap;
};

struct rounds_pair {
	int64_t done; /* rounds run or skipped */
	struct rounds_test *tests; /* every test key seen, in first-seen
				      order */
	size_t ntests;
	char *failed; /* why its rounds ended early (the variant or its
			 target failed), or NULL */
	double wall; /* seconds its runs took, summed over nwall */
	int64_t nwall;
	double last; /* seconds the latest run took; 0: none yet */
};

void rounds_pair_init(struct rounds_pair *p);
void rounds_pair_done(struct rounds_pair *p);

/*
 * One round of the pair: its result, or NULL when skipped. Each test key
 * gives one figure, the mean of the run's tests under it (compilebench
 * has several), as the comparison takes it. Only the figures of a run
 * that did not fail and of tests neither interrupted nor too fast count
 * (as in every verdict); the keys of the others are kept, so that a test
 * that never counts is known.
 */
void rounds_pair_add(struct rounds_pair *p, const struct wl_result *res);
/* A figure of test key (counts: it enters the interval); the unit
   tests' way in, and rounds_pair_add()'s. Does not count a round. */
void rounds_pair_figure(struct rounds_pair *p, const char *key, double v,
    bool counts);
/* The pair ended early for why (copied; the first reason stays). */
void rounds_pair_fail(struct rounds_pair *p, const char *why);

/* What a pair's figures say now. */
struct rounds_state {
	bool sure; /* done >= min, and every test that has figures has at
		      least min of them and ci_half <= goal x |mean|; a
		      fixed goal: done >= max */
	double worst; /* the widest ci_half / |mean| among the tests with
			 two figures or more; NAN when none has */
	const char *worst_key; /* its test (borrowed), or NULL */
	double worst_cv; /* the largest coefficient of variation; NAN */
	/* The tests that will never be sure because none of their figures
	   counts (every one too fast or interrupted): treated as sure. */
	size_t never;
	const char *never_key; /* the first of them (borrowed) */
	int64_t estimate; /* the rounds it likely needs in all, from
			     stats_rounds_needed() of worst_cv: at least
			     min and done (+1 when not sure), at most max;
			     fixed: max */
};

void rounds_pair_state(const struct rounds_pair *p, const struct rounds_goal *g,
    struct rounds_state *st);

enum rounds_stop {
	ROUNDS_MORE, /* not yet: another round */
	ROUNDS_GOAL, /* sure */
	ROUNDS_MAX, /* max rounds without being sure */
	ROUNDS_FIXED, /* the fixed number of rounds ran */
	ROUNDS_INTERRUPTED, /* stopped by the user first */
	ROUNDS_FAILED, /* the variant or its target failed */
};

/* Its name in a record: "goal", "max", "fixed", "interrupted",
   "failed"; NULL for ROUNDS_MORE. */
const char *rounds_stop_name(enum rounds_stop s);

/* Where p stands after p->done rounds; stopped: the user stopped the
   run. */
enum rounds_stop rounds_pair_stop(const struct rounds_pair *p,
    const struct rounds_goal *g, bool stopped);

/* Why p stopped as s, one translated sentence into buf; returns buf. */
const char *rounds_pair_why(const struct rounds_pair *p,
    const struct rounds_goal *g, enum rounds_stop s, char *buf, size_t len);

/*
 * Where a run stands, for a live display: "round 3 of 5" (fixed), or
 * "round 3 of ~6  ±3.1% (goal ±2%)" from a LABRUN_RUN event's repeat,
 * total, ci and goal. Translated; returns buf.
 */
const char *rounds_progress(int round, unsigned long long total, double ci,
    double goal, char *buf, size_t len);

/*
 * What a run's rounds are, for a plan or a dry run: the order and the
 * repeats in words, and with order interleaved, how many times each of
 * the nbuild array variants will be built. Translated; caller frees.
 */
char *rounds_describe(const struct lab *lab, int64_t repeats, size_t narrays);

#endif
