/*
 * The statistics of the verdicts against scipy on many random samples. A
 * plain program, not Criterion, with two modes:
 *   stats-scipy           the test: runs tests/unit/stats-scipy.py, which
 *                         draws the cases, feeds them to this program's
 *                         filter mode, recomputes each with scipy and
 *                         exits 0, 1 (a mismatch) or 77 (no scipy: SKIP)
 *   stats-scipy --filter  one request a line on stdin, one answer a line
 *                         on stdout (bench/verdict-tests.py uses it too)
 * Requests, figures separated by spaces and lists by " / ":
 *   cmp TEST CONF A... / B...      kind test diff t df p pct lo hi se
 *   eq TEST ALPHA MARGIN A... / B...        equivalent(0|1) lo hi
 *   bh P... and holm P...                   the adjusted p-values
 *   fcr M R ALPHA                           the conf
 *   mde TEST CVA CVB NA NB CONF POWER       the change in percent
 *   settle TEST CVA CVB PCT MARGIN CONF POWER MAX     the repeats
 *   geo CONF LR... / SE... / DF...          gm lo hi
 *   meta CONF LR... / SE... / DF...   mean se df p lo hi between
 *                                           se_between se_within
 *                                           df_within q_stat i2 tau2
 * TEST is a key of stats_test_key(). Answers print %.17g, nan and inf.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "figures/stats.h"

#define MAX_LISTS 3

/* A request's words after its verb: scalars, then up to MAX_LISTS lists. */
struct req {
	double *v[MAX_LISTS];
	size_t n[MAX_LISTS], nlists;
	char *words[8];
	size_t nwords;
};

/* Split line into nw leading words, then the lists of figures. */
static int
req_parse(char *line, size_t nw, struct req *r)
{
	char *save = NULL, *w;
	size_t cap[MAX_LISTS] = { 0 };

	memset(r, 0, sizeof *r);
	for (w = strtok_r(line, " \t\n", &save); w != NULL;
	     w = strtok_r(NULL, " \t\n", &save)) {
		size_t l;

		if (r->nwords < nw) {
			r->words[r->nwords++] = w;
			continue;
		}
		if (r->nlists == 0)
			r->nlists = 1;
		if (strcmp(w, "/") == 0) {
			if (r->nlists == MAX_LISTS)
				return -1;
			r->nlists++;
			continue;
		}
		l = r->nlists - 1;
		if (r->n[l] == cap[l]) {
			cap[l] = cap[l] ? 2 * cap[l] : 16;
			r->v[l] = xrealloc(r->v[l], cap[l] * sizeof(double));
		}
		r->v[l][r->n[l]++] = strtod(w, NULL);
	}
	return r->nwords == nw ? 0 : -1;
}

static void
req_done(struct req *r)
{
	for (size_t i = 0; i < MAX_LISTS; i++)
		free(r->v[i]);
}

static enum stats_test
test_of(const char *key)
{
	enum stats_test t = STATS_TEST_LOG;

	if (stats_test_parse(key, &t) != 0) {
		fprintf(stderr, "stats-scipy: unknown test %s\n", key);
		exit(2);
	}
	return t;
}

/* One request; -1 when it cannot be read. */
static int
answer(char *line)
{
	char verb[16];
	struct req r;

	if (sscanf(line, "%15s", verb) != 1)
		return -1;
	line += strlen(verb);
	if (strcmp(verb, "cmp") == 0) {
		struct stats_change c;

		if (req_parse(line, 2, &r) != 0 || r.nlists != 2)
			goto bad;
		stats_compare_by(test_of(r.words[0]), r.v[0], r.n[0], r.v[1],
		    r.n[1], strtod(r.words[1], NULL), &c);
		printf("%d %s %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
		       "%.17g\n",
		    (int)c.kind, stats_test_key(c.test), c.diff, c.t, c.df, c.p,
		    c.pct, c.pct_lo, c.pct_hi, c.se);
	} else if (strcmp(verb, "eq") == 0) {
		double lo, hi;
		bool eq;

		if (req_parse(line, 3, &r) != 0 || r.nlists != 2)
			goto bad;
		eq = stats_equivalent(test_of(r.words[0]), r.v[0], r.n[0],
		    r.v[1], r.n[1], strtod(r.words[1], NULL),
		    strtod(r.words[2], NULL), &lo, &hi);
		printf("%d %.17g %.17g\n", eq, lo, hi);
	} else if (strcmp(verb, "bh") == 0 || strcmp(verb, "holm") == 0) {
		double *q;
		size_t m;

		if (req_parse(line, 0, &r) != 0 || r.nlists != 1)
			goto bad;
		q = xmalloc(r.n[0] * sizeof *q + 1);
		m = verb[0] == 'b' ? stats_bh(r.v[0], r.n[0], q)
				   : stats_holm(r.v[0], r.n[0], q);
		printf("%zu", m);
		for (size_t i = 0; i < r.n[0]; i++)
			printf(" %.17g", q[i]);
		printf("\n");
		free(q);
	} else if (strcmp(verb, "fcr") == 0) {
		if (req_parse(line, 3, &r) != 0)
			goto bad;
		printf("%.17g\n",
		    stats_fcr_conf(strtoul(r.words[0], NULL, 10),
			strtoul(r.words[1], NULL, 10),
			strtod(r.words[2], NULL)));
	} else if (strcmp(verb, "mde") == 0) {
		if (req_parse(line, 7, &r) != 0)
			goto bad;
		printf("%.17g\n",
		    stats_mde(test_of(r.words[0]), strtod(r.words[1], NULL),
			strtod(r.words[2], NULL), strtoul(r.words[3], NULL, 10),
			strtoul(r.words[4], NULL, 10), strtod(r.words[5], NULL),
			strtod(r.words[6], NULL)));
	} else if (strcmp(verb, "settle") == 0) {
		if (req_parse(line, 8, &r) != 0)
			goto bad;
		printf("%zu\n",
		    stats_n_settle(test_of(r.words[0]),
			strtod(r.words[1], NULL), strtod(r.words[2], NULL),
			strtod(r.words[3], NULL), strtod(r.words[4], NULL),
			strtod(r.words[5], NULL), strtod(r.words[6], NULL),
			strtoul(r.words[7], NULL, 10)));
	} else if (strcmp(verb, "geo") == 0) {
		double gm, lo, hi;

		if (req_parse(line, 1, &r) != 0 || r.nlists != 3 ||
		    r.n[0] != r.n[1] || r.n[0] != r.n[2])
			goto bad;
		stats_geomean_ratio(r.v[0], r.v[1], r.v[2], r.n[0],
		    strtod(r.words[0], NULL), &gm, &lo, &hi);
		printf("%.17g %.17g %.17g\n", gm, lo, hi);
	} else if (strcmp(verb, "meta") == 0) {
		struct stats_meta m;

		if (req_parse(line, 1, &r) != 0 || r.nlists != 3 ||
		    r.n[0] != r.n[1] || r.n[0] != r.n[2])
			goto bad;
		stats_meta_blocks(r.v[0], r.v[1], r.v[2], r.n[0],
		    strtod(r.words[0], NULL), &m);
		printf("%.17g %.17g %.17g %.17g %.17g %.17g %d %.17g %.17g "
		       "%.17g %.17g %.17g %.17g\n",
		    m.mean, m.se, m.df, m.p, m.lo, m.hi, (int)m.between,
		    m.se_between, m.se_within, m.df_within, m.q_stat, m.i2,
		    m.tau2);
	} else {
		return -1;
	}
	req_done(&r);
	return 0;
bad:
	req_done(&r);
	return -1;
}

static int
filter(void)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long no = 0;

	while (getline(&line, &cap, stdin) > 0) {
		no++;
		if (answer(line) != 0) {
			fprintf(stderr, "stats-scipy: stdin:%lu: bad request\n",
			    no);
			free(line);
			return 2;
		}
		fflush(stdout);
	}
	free(line);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char *script;

	if (argc > 1 && strcmp(argv[1], "--filter") == 0)
		return filter();
	script = xasprintf("%s/tests/unit/stats-scipy.py", top ? top : ".");
	execl(script, script, argv[0], (char *)NULL);
	fprintf(stderr, "stats-scipy: %s: %s\n", script, strerror(errno));
	free(script);
	return 99;
}
