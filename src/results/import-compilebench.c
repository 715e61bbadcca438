/*
 * compilebench's closing summary (import.h): "OPERATION total runs N avg
 * V MB/s (user Us sys Ss)", or "avg V seconds" for delete and stat, one
 * line per operation, one block per run. Read as a stream of words, so
 * that quoted and wrapped lines ("... (user 0.61s sys" / "1.17s)") read
 * the same. A block ends where an operation it already has comes again;
 * it is named after the line ending in ':' just above it ("Ext4
 * results:" gives "Ext4"), else compilebench-N. compilebench's -i is
 * the initial create's run count and -r the sum of the others'. Any
 * thread.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "import.h"
#include "measure/result.h"
#include "measure/wl-keys.h"
#include "measure/workload.h"

struct word {
	const char *s;
	int line;
};

/* Operation names as words: compilebench spells "intial". */
static const char *const op_words[CB__COUNT][4] = {
	[CB_INITIAL] = { "intial", "create" },
	[CB_CREATE] = { "create" },
	[CB_PATCH] = { "patch" },
	[CB_COMPILE] = { "compile" },
	[CB_CLEAN] = { "clean" },
	[CB_READ_TREE] = { "read", "tree" },
	[CB_READ_COMPILED] = { "read", "compiled", "tree" },
	[CB_DELETE_TREE] = { "delete", "tree" },
	[CB_DELETE_COMPILED] = { "delete", "compiled", "tree" },
	[CB_STAT_TREE] = { "stat", "tree" },
	[CB_STAT_COMPILED] = { "stat", "compiled", "tree" },
};

static size_t
nwords(int op)
{
	size_t n = 0;

	while (n < 4 && op_words[op][n] != NULL)
		n++;
	return n;
}

/* The operation whose words end just before w[i] ("total"), longest
   first; -1 if none. */
static int
op_before(const struct word *w, size_t i)
{
	int best = -1;
	size_t blen = 0;

	for (int op = 0; op < CB__COUNT; op++) {
		size_t n = nwords(op), k;

		if (n > i || n <= blen)
			continue;
		for (k = 0; k < n; k++)
			if (strcmp(w[i - n + k].s, op_words[op][k]) != 0 &&
			    !(op == CB_INITIAL && k == 0 &&
				strcmp(w[i - n].s, "initial") == 0))
				break;
		if (k == n) {
			best = op;
			blen = n;
		}
	}
	return best;
}

static bool
num(const char *s, const char *unit, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end != s && strcmp(end, unit) == 0 && isfinite(*v) && *v >= 0;
}

struct entry {
	int op, line, runs;
	double avg, user, sys;
	bool seconds;
};

/* "total runs N avg V UNIT (user Us sys Ss)" at w[i]; e names what is
   wrong. */
static int
entry_at(const struct word *w, size_t n, size_t i, struct entry *en,
    const char *file, struct err *e)
{
	double runs;
	size_t at = i;

	if (i + 10 > n || strcmp(w[i + 1].s, "runs") != 0 ||
	    !num(w[i + 2].s, "", &runs) || strcmp(w[i + 3].s, "avg") != 0)
		goto bad;
	if (!num(w[i + 4].s, "", &en->avg))
		goto bad_at;
	if (runs < 1 || runs > 1e6)
		goto bad;
	en->runs = (int)runs;
	if (strcmp(w[i + 5].s, "MB/s") == 0)
		en->seconds = false;
	else if (strcmp(w[i + 5].s, "seconds") == 0)
		en->seconds = true;
	else
		goto bad_unit;
	at = i + 6;
	if (strcmp(w[at].s, "(user") != 0 ||
	    !num(w[at + 1].s, "s", &en->user) ||
	    strcmp(w[at + 2].s, "sys") != 0 ||
	    !num(w[at + 3].s, "s)", &en->sys))
		return err_set(e, -EINVAL, file, w[at].line,
		    cb_phases[en->op].name, "%s",
		    _("expected \"(user 0.43s sys 0.60s)\" after the figure"));
	return 0;
bad:
	return err_set(e, -EINVAL, file, w[at].line, cb_phases[en->op].name,
	    "%s", _("expected \"total runs N avg FIGURE UNIT\""));
bad_at:
	return err_set(e, -EINVAL, file, w[i + 4].line, cb_phases[en->op].name,
	    _("not a figure: '%s'"), w[i + 4].s);
bad_unit:
	return err_set(e, -EINVAL, file, w[i + 5].line, cb_phases[en->op].name,
	    _("unit '%s': compilebench prints MB/s or seconds"), w[i + 5].s);
}

/* "Ext4 results:" above the block's first line, as "Ext4"; or NULL. */
static char *
heading(char **lines, int first)
{
	for (int l = first - 2; l >= 0; l--) {
		char *s = lines[l], *end;
		size_t len = strlen(s);

		while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		if (len == 0)
			continue;
		if (s[len - 1] != ':' || len == 1)
			return NULL;
		s = xstrndup(s, len - 1);
		if ((end = strstr(s, " results")) != NULL && end != s)
			*end = '\0';
		return s;
	}
	return NULL;
}

static void
store(struct import_result *r, char **lines, const struct entry *v, size_t nv)
{
	char *name = heading(lines, v[0].line);
	char *def = xasprintf("compilebench-%zu", r->nruns + 1);
	struct import_run *run =
	    import_run_add(r, &wl_compilebench, name ? name : def);
	int64_t runs = 0;

	for (size_t k = 0; k < nv; k++) {
		const struct cb_phase_info *pi = &cb_phases[v[k].op];
		struct wl_test *t;
		char *label = xasprintf("%s (%d runs, mean)",
		    v[k].op == CB_INITIAL ? "initial create" : pi->name,
		    v[k].runs);

		t = wl_result_add_test(run->res, pi->key, label, pi->unit);
		free(label);
		t->value = v[k].avg;
		t->wall = v[k].seconds ? v[k].avg : NAN;
		t->user = v[k].user;
		t->sys = v[k].sys;
		if (v[k].op == CB_INITIAL)
			import_set_int(run, "initial", v[k].runs);
		else
			runs += v[k].runs;
	}
	if (runs > 0)
		import_set_int(run, "runs", runs);
	run->res->wall = NAN;
	run->text = xasprintf("%s, %s", r->from, run->variant);
	free(name);
	free(def);
}

static int
cb_parse(const char *text, const char *file, struct import_result *r,
    struct err *e)
{
	size_t nl, n = 0, nv = 0, cap = 0;
	char **lines = import_lines(text, &nl), **copy;
	struct word *w = NULL;
	struct entry v[CB__COUNT];
	int rc = 0, op;

	/* The words of every line (a copy: heading() reads the lines). */
	copy = xcalloc(nl + 1, sizeof *copy);
	for (size_t i = 0; i < nl; i++) {
		char *save = NULL, *p;

		copy[i] = xstrdup(lines[i]);
		for (p = strtok_r(copy[i], " \t", &save); p != NULL;
		     p = strtok_r(NULL, " \t", &save)) {
			/* Doubling: a word at a time is quadratic. */
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				w = xreallocarray(w, cap, sizeof *w);
			}
			w[n].s = p;
			w[n++].line = (int)i + 1;
		}
	}
	r->tool = xstrdup("compilebench");
	r->from = xstrdup("compilebench summary");
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (strcmp(w[i].s, "total") != 0 || (op = op_before(w, i)) < 0)
			continue;
		for (size_t k = 0; k < nv; k++)
			if (v[k].op == op) {
				store(r, lines, v, nv);
				nv = 0;
				break;
			}
		v[nv].op = op;
		v[nv].line = w[i - nwords(op)].line;
		if ((rc = entry_at(w, n, i, &v[nv], file, e)) == 0)
			nv++;
	}
	if (rc == 0 && nv > 0)
		store(r, lines, v, nv);
	free(w);
	import_lines_free(copy, nl);
	import_lines_free(lines, nl);
	if (rc < 0)
		return rc;
	import_missing(r, "repeats (the means only)");
	import_missing(r, "wall of the MB/s operations");
	import_missing(r, "start and end times");
	import_missing(r, "time series");
	import_missing(r, "latency");
	import_missing(r, "bytes and files counted");
	import_missing(r, "param seed");
	import_missing(r, "param sync");
	import_missing(r, "param files");
	import_missing(r, "param size");
	import_missing(r, "param patched");
	return 0;
}

static bool
cb_detect(const char *text)
{
	return strstr(text, "total runs") != NULL &&
	    strstr(text, " avg ") != NULL &&
	    (strstr(text, "intial create") != NULL ||
		strstr(text, "delete tree") != NULL);
}

const struct import_format import_compilebench = {
	.name = "compilebench",
	.summary = N_("compilebench's summary (\"create total runs 14 avg "
		      "36.49 MB/s ...\")"),
	.detect = cb_detect,
	.parse = cb_parse,
	.max_bytes = 4u << 20,
};
