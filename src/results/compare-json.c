/*
 * The comparison as JSON: a cell with every figure, its verdict, marks
 * and answer (`raidlab compare --json`), a variant's summary, how the
 * verdicts were reached, and the stability of a record's
 * own repeats, which the runner stores in the record it writes. See
 * compare.h. The thread that owns the table.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare.h"
#include "figures/stats.h"
#include "record.h"

/* A number, or null for NaN or an infinity (JSON has neither). */
static json_t *
num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* What the cell's own repeats say, with no baseline: the part of a cell
   a record stands alone with. */
static json_t *
sample_json(const struct compare *c, size_t i, size_t k)
{
	const struct compare_cell *x = compare_cell(c, i, k);
	const struct compare_row *r = &c->rows[i];
	char *keys = compare_marks_keys(x->marks);
	char *why = compare_marks_text(c, i, k);
	json_t *marks = json_array(), *o;
	char *save = NULL, *tok;

	for (tok = strtok_r(keys, " ", &save); tok != NULL;
	     tok = strtok_r(NULL, " ", &save))
		json_array_append_new(marks, json_string(tok));
	o = json_pack("{s:s, s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
		      "s:o, s:I, s:b, s:b}",
	    "variant", r->variant, "scratch", r->scratch, "n", (json_int_t)x->n,
	    "mean", num(x->mean), "sd", num(x->sd), "cv", num(x->d.cv),
	    "median", num(x->d.median), "min", num(x->d.min), "max",
	    num(x->d.max), "ci_lo", num(x->d.ci_lo), "ci_hi", num(x->d.ci_hi),
	    "failed", (json_int_t)x->failed, "too_fast", x->too_fast,
	    "interrupted", x->interrupted);
	/* the repeats left out of n, so that n losing one says why */
	json_object_set_new(o, "stopped_left_out",
	    json_integer((json_int_t)(x->interrupted ? 0 : x->stopped)));
	json_object_set_new(o, "fast_left_out",
	    json_integer((json_int_t)(x->too_fast ? 0 : x->fast)));
	json_object_set_new(o, "marks", marks);
	json_object_set_new(o, "marks_text", json_string(why));
	json_object_set_new(o, "why",
	    x->n == 0 && r->why ? json_string(r->why) : json_null());
	free(keys);
	free(why);
	return o;
}

json_t *
compare_cell_json(const struct compare *c, size_t i, size_t k)
{
	const struct compare_cell *x = compare_cell(c, i, k);
	char *answer = compare_answer(c, i, k);
	json_t *o = sample_json(c, i, k);

	/* a latency cell: the operations of its fewest round */
	if (c->cols[k].lat_q > 0)
		json_object_set_new(o, "lat_ops",
		    json_integer((json_int_t)x->lat_ops));
	json_object_set_new(o, "record",
	    json_integer((json_int_t)c->rows[i].record + 1));
	json_object_set_new(o, "pct", num(x->pct));
	json_object_set_new(o, "change", num(x->ch.pct));
	json_object_set_new(o, "pct_lo", num(x->ch.pct_lo));
	json_object_set_new(o, "pct_hi", num(x->ch.pct_hi));
	json_object_set_new(o, "p", num(x->ch.p));
	json_object_set_new(o, "df", num(x->ch.df));
	json_object_set_new(o, "q", num(x->q));
	json_object_set_new(o, "eq_lo", num(x->eq_lo));
	json_object_set_new(o, "eq_hi", num(x->eq_hi));
	json_object_set_new(o, "mde", num(x->mde));
	json_object_set_new(o, "settle",
	    x->settle > 0 ? json_integer((json_int_t)x->settle) : json_null());
	json_object_set_new(o, "baseline", json_boolean(i == c->baseline));
	json_object_set_new(o, "best", json_boolean(c->cols[k].best == i));
	json_object_set_new(o, "verdict",
	    json_string(compare_verdict_key(x->verdict)));
	if (x->verdict == COMPARE_V_FEW && x->needed > 0)
		json_object_set_new(o, "needed",
		    json_integer((json_int_t)x->needed));
	json_object_set_new(o, "answer",
	    answer ? json_string(answer) : json_null());
	free(answer);
	return o;
}

json_t *
compare_summary_json(const struct compare *c, size_t row)
{
	struct compare_summary s;
	char *text = compare_summary_text(c, row);
	json_t *o;

	compare_summarise(c, row, &s);
	o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:I}",
	    "tests", (json_int_t)s.tests, "better", (json_int_t)s.better,
	    "worse", (json_int_t)s.worse, "same", (json_int_t)s.same, "unsure",
	    (json_int_t)s.unsure, "other", (json_int_t)s.other, "gm", num(s.gm),
	    "gm_lo", num(s.gm_lo), "gm_hi", num(s.gm_hi), "gm_tests",
	    (json_int_t)s.gm_tests);
	json_object_set_new(o, "text", text ? json_string(text) : json_null());
	free(text);
	return o;
}

json_t *
compare_method_json(const struct compare *c)
{
	char *text = compare_method_text(c);
	json_t *o = json_pack("{s:s, s:f, s:f, s:I, s:I, s:o, s:f, s:s}",
	    "test", stats_test_key(c->test), "equivalence", c->margin, "alpha",
	    COMPARE_ALPHA, "family", (json_int_t)c->family, "rejected",
	    (json_int_t)c->rejected, "conf", num(c->conf_shown), "power",
	    COMPARE_POWER, "text", text);

	free(text);
	return o;
}

json_t *
compare_stability_json(const struct record *rec)
{
	json_t *out = json_array();
	struct compare c;

	compare_init(&c);
	compare_add(&c, rec, "");
	for (size_t i = 0; i < c.nrows; i++)
		for (size_t k = 0; k < c.ncols; k++) {
			json_t *o;

			if (compare_cell(&c, i, k)->n == 0)
				continue;
			/* a record stands alone: no baseline, no verdict */
			o = sample_json(&c, i, k);
			json_object_set_new(o, "workload",
			    json_string(c.cols[k].workload));
			json_object_set_new(o, "key",
			    json_string(c.cols[k].key));
			json_object_set_new(o, "unit",
			    json_string(wl_unit_key(c.cols[k].unit)));
			json_object_set_new(o, "cv_limit",
			    json_real(c.rows[i].cv_limit));
			json_array_append_new(out, o);
		}
	compare_done(&c);
	return out;
}
