/*
 * The write amplification columns of the comparison: per workload (and
 * its parameters, like every column) one "Write amplification" column,
 * the bytes the member devices wrote per byte the workload wrote
 * (wamp.h), and when a run watched an md write journal or a filesystem's
 * external journal or log, the members, journal and log apart; only for
 * array variants (a directory's devices are shared). A run's
 * ratio is one repeat's figure: the cell's interval, marks and verdicts
 * are the other columns' (lower is better). A stopped run's or stalled
 * test's ratio is a stopped figure, a failed run is counted, not
 * averaged. The row's ideal ratio comes from its record's lab. The
 * thread that owns the table.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "compare-int.h"
#include "lab/lab.h"
#include "record.h"
#include "wamp.h"

/* The column labels: untranslated, as every column's. */
static const char *const part_label[WAMP__PARTS] = {
	[WAMP_MEMBERS] = "Write amplification, array members",
	[WAMP_JOURNAL] = "Write amplification, md write journal",
	[WAMP_LOG] = "Write amplification, fs journal or log",
};

/* A stopped run, or a test that stalled: the bytes are not the lab's
   run. */
static unsigned char
kind_of(const struct wl_result *res)
{
	if (res->status == WL_INTERRUPTED)
		return FIG_STOPPED;
	for (size_t t = 0; t < res->ntests; t++)
		if (res->tests[t].interrupted || res->tests[t].stalled > 0)
			return FIG_STOPPED;
	return FIG_REAL;
}

/* An array variant: built on devices the run held alone. A directory's
   filesystem shares its devices with the rest of the machine, whose
   writes its counters carry too. */
static bool
built(const struct record_run *run)
{
	const json_t *v = json_object_get(run->json, "variant");
	const char *kind = json_string_value(json_object_get(v, "kind"));

	return kind != NULL && strcmp(kind, "array") == 0;
}

/* The variant of row in rec's lab, and its ideal ratio. */
static void
ideal(struct compare_row *r, const struct record *rec)
{
	const json_t *lj = json_object_get(rec->root, "lab");
	const char *text = json_string_value(json_object_get(lj, "text"));
	struct errlist errs;
	struct lab *lab = NULL;
	char how[256];

	r->wamp_seen = true;
	if (text == NULL)
		return;
	errlist_init(&errs);
	if (lab_load_string(text,
		json_string_value(json_object_get(lj, "path")), &lab,
		&errs) == 0) {
		for (size_t v = 0; v < lab->nvariants; v++) {
			const struct lab_variant *x = &lab->variants[v];

			if (x->name == NULL ||
			    strcmp(x->name, r->variant) != 0 ||
			    !lab_variant_isset(x, LAB_V_ARRAY))
				continue;
			r->wamp_ideal = wamp_ideal(&x->array,
			    x->array.devices.n == 0 && x->array.nlegs == 0
				? lab_scratch_implicit(x)
				: 0,
			    how, sizeof how);
			if (how[0] != '\0')
				r->wamp_how = xstrdup(how);
			break;
		}
	}
	lab_free(lab);
	errlist_done(&errs);
}

/* The column of one part (-1: all of them) for run. */
static size_t
col_of(struct compare *c, const struct record_run *run, const char *params,
    int part)
{
	struct wl_test t = { 0 };
	char key[32], label[64];

	snprintf(key, sizeof key, "%s", wamp_key(part));
	snprintf(label, sizeof label, "%s",
	    part < 0 ? "Write amplification" : part_label[part]);
	t.key = key;
	t.label = label;
	t.unit = WL_UNIT_RATIO;
	return compare_col_get(c, run, params, &t);
}

void
compare_wamp_add(struct compare *c, const struct record *rec, size_t row,
    const struct record_run *run, const char *params)
{
	const struct wl_result *res = run->res;
	size_t col[WAMP__PARTS + 1];
	bool apart = false;
	struct wamp w;

	if (res == NULL || !built(run) ||
	    !wamp_measure(&res->series, wamp_wrote(res), &w))
		return;
	if (!c->rows[row].wamp_seen)
		ideal(&c->rows[row], rec);
	apart = w.ndev[WAMP_JOURNAL] > 0 || w.ndev[WAMP_LOG] > 0;
	/* the columns first: each may move the rows' cells */
	col[WAMP__PARTS] = col_of(c, run, params, -1);
	for (int p = 0; p < WAMP__PARTS; p++)
		col[p] = apart && w.ndev[p] > 0 ? col_of(c, run, params, p)
						: COMPARE_NONE;
	for (int p = -1; p < WAMP__PARTS; p++) {
		size_t k = col[p < 0 ? WAMP__PARTS : p];
		struct compare_cell *cell;

		if (k == COMPARE_NONE)
			continue;
		cell = &c->rows[row].cells[k];
		if (res->status == WL_FAILED)
			cell->failed++;
		else
			compare_cell_add(cell, wamp_ratio(&w, p), res->wall,
			    kind_of(res));
	}
}

char *
compare_wamp_ideal_text(const struct compare *c, size_t row)
{
	const struct compare_row *r = &c->rows[row];

	if (!isfinite(r->wamp_ideal))
		return NULL;
	/* TRANSLATORS: "ideal 2.00 (btrfs raid1: 2 copies of the data)". */
	return xasprintf(_("ideal %.2f (%s)"), r->wamp_ideal,
	    r->wamp_how ? r->wamp_how : "");
}

bool
compare_col_is_wamp(const struct compare *c, size_t k)
{
	return c->cols[k].unit == WL_UNIT_RATIO;
}
