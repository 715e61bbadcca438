/*
 * The fleet comparison in words and as JSON: the combined answer with
 * the hosts' own verdicts counted and their disagreement, a line per
 * host, how the verdicts were reached. See compare-fleet.h. The thread
 * that owns the table.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "compare-fleet.h"
#include "compare-int.h"
#include "compare.h"
#include "figures/plot.h"

/* I^2 at or above this says the change's size differs between hosts
   even when their own verdicts agree (Higgins et al.: "substantial"
   from 50%). */
#define FLEET_I2_DISAGREE 50.0

static json_t *
num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

const char *
compare_fleet_verdict_word(const struct compare *c, size_t col,
    enum compare_verdict v)
{
	bool ratio = c->cols[col].unit == WL_UNIT_RATIO;

	switch (v) {
	case COMPARE_V_BETTER:
		return ratio ? _("lower") : _("faster");
	case COMPARE_V_WORSE:
		return ratio ? _("higher") : _("slower");
	case COMPARE_V_SAME:
		return _("the same");
	case COMPARE_V_UNSURE:
		return _("can't tell");
	case COMPARE_V_FEW:
		return _("too few repeats");
	case COMPARE_V_FAST:
		return _("too fast to measure");
	case COMPARE_V_STOPPED:
		return _("stopped");
	case COMPARE_V_EXACT:
		return _("exact figures");
	default:
		break;
	}
	return _("not judged");
}

/* "consistently on 3 of 3 hosts", or "faster on 1 of 3 hosts, the same
   on 2, can't tell on 0" without the zeros. */
static void
count_words(const struct compare *c, const struct compare_fleet_item *it,
    struct strbuf *out)
{
	const enum compare_verdict vs[] = { COMPARE_V_BETTER, COMPARE_V_WORSE,
		COMPARE_V_SAME, COMPARE_V_UNSURE, COMPARE_V_NONE };
	const size_t ns[] = { it->better, it->worse, it->same, it->unsure,
		it->other };
	bool first = true;

	if ((it->verdict == COMPARE_V_BETTER && it->better == it->nhosts) ||
	    (it->verdict == COMPARE_V_WORSE && it->worse == it->nhosts) ||
	    (it->verdict == COMPARE_V_SAME && it->same == it->nhosts)) {
		strbuf_printf(out,
		    ngettext("consistently on %zu of %zu host",
			"consistently on %zu of %zu hosts",
			(unsigned long)it->nhosts),
		    it->nhosts, it->nhosts);
		return;
	}
	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		if (ns[i] == 0)
			continue;
		if (first)
			strbuf_printf(out,
			    ngettext("%s on %zu of %zu host",
				"%s on %zu of %zu hosts",
				(unsigned long)it->nhosts),
			    compare_fleet_verdict_word(c, it->col, vs[i]),
			    ns[i], it->nhosts);
		else
			strbuf_printf(out, _(", %s on %zu"),
			    compare_fleet_verdict_word(c, it->col, vs[i]),
			    ns[i]);
		first = false;
	}
}

/* How many of better, worse and the same the hosts' own verdicts
   hold (can't tell conflicts with none of them), and whether any two
   verdicts differ at all. */
static size_t
kinds(const struct compare_fleet_item *it, bool *differ)
{
	const size_t ns[] = { it->better, it->worse, it->same };
	size_t k = 0;

	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
		k += ns[i] > 0;
	*differ = k + (it->unsure > 0) > 1;
	return k;
}

/*
 * The hosts disagree when their verdicts conflict; when they agree but
 * I^2 is substantial, the change holds everywhere at different sizes;
 * when they differ only because some hosts can't tell, the changes may
 * still agree within their noise, and I^2 says so: "faster on 1 of 3"
 * is then a matter of power, not of hosts.
 */
static void
disagree_words(const struct compare_fleet_item *it, struct strbuf *out)
{
	const char *i2 = plot_utf8_locale() ? "I²" : "I^2";
	bool differ;
	bool conflict = kinds(it, &differ) > 1;

	if (!isfinite(it->spread_lo))
		return;
	if (conflict && isfinite(it->m.i2))
		strbuf_printf(out,
		    _("; the hosts disagree: %s %.0f%%, their changes %+.1f%% "
		      "to %+.1f%%"),
		    i2, it->m.i2, it->spread_lo, it->spread_hi);
	else if (conflict)
		strbuf_printf(out,
		    _("; the hosts disagree: their changes %+.1f%% to "
		      "%+.1f%%"),
		    it->spread_lo, it->spread_hi);
	else if (it->m.i2 >= FLEET_I2_DISAGREE)
		strbuf_printf(out,
		    _("; its size differs between hosts: %s %.0f%%, their "
		      "changes %+.1f%% to %+.1f%%"),
		    i2, it->m.i2, it->spread_lo, it->spread_hi);
	else if (differ && isfinite(it->m.i2))
		strbuf_printf(out,
		    _("; the hosts' changes agree within their noise: %s "
		      "%.0f%%, %+.1f%% to %+.1f%%"),
		    i2, it->m.i2, it->spread_lo, it->spread_hi);
}

/* "; p = 0.004, 0.016 after correcting for 4 comparisons" */
static void
p_and_q(const struct compare_fleet *f, const struct compare_fleet_item *it,
    struct strbuf *out)
{
	char p[32], q[32];

	compare_p_text(it->m.p, p, sizeof p);
	strbuf_printf(out, "p %s", p);
	if (f->family > 1 && isfinite(it->q)) {
		compare_p_text(it->q, q, sizeof q);
		strbuf_printf(out,
		    ngettext(", %s after correcting for %zu comparison",
			", %s after correcting for %zu comparisons",
			(unsigned long)f->family),
		    q[0] == '=' ? q + 2 : q, f->family);
	}
}

static void
answer_verdict(const struct compare_fleet *f, const struct compare *c,
    const struct compare_fleet_item *it, struct strbuf *out)
{
	char conf[16];
	double lo = it->lo, hi = it->hi;

	compare_conf_text(f->conf, conf, sizeof conf);
	if (it->verdict == COMPARE_V_SAME) {
		strbuf_printf(out,
		    ngettext("the same as %s within %s%g%% over %zu host "
			     "(%+.1f%%, 90%% CI %+.1f%% to %+.1f%%; ",
			"the same as %s within %s%g%% over %zu hosts "
			"(%+.1f%%, 90%% CI %+.1f%% to %+.1f%%; ",
			(unsigned long)it->used),
		    it->base, compare_pm(), f->margin, it->used, it->pct,
		    it->eq_lo, it->eq_hi);
	} else if (it->verdict == COMPARE_V_UNSURE) {
		strbuf_printf(out,
		    ngettext("can't tell against %s over %zu host: the %s%% "
			     "CI spans %+.1f%% to %+.1f%% (%+.1f%%; ",
			"can't tell against %s over %zu hosts: the %s%% CI "
			"spans %+.1f%% to %+.1f%% (%+.1f%%; ",
			(unsigned long)it->used),
		    it->base, it->used, conf, lo, hi, it->pct);
	} else {
		compare_change_words(c, it->col, it->pct, it->base, out);
		if (it->pct < 0) {
			lo = -it->hi;
			hi = -it->lo;
		}
		strbuf_printf(out,
		    ngettext(" over %zu host (%s%% CI %.1f%% to %.1f%%; ",
			" over %zu hosts (%s%% CI %.1f%% to %.1f%%; ",
			(unsigned long)it->used),
		    it->used, conf, lo, hi);
	}
	p_and_q(f, it, out);
	strbuf_add(out, ")");
}

char *
compare_fleet_answer(const struct compare_fleet *f, const struct compare *c,
    size_t i)
{
	const struct compare_fleet_item *it = &f->items[i];
	struct strbuf out;

	strbuf_init(&out);
	strbuf_printf(&out, "%s: ", it->variant);
	if (it->verdict == COMPARE_V_NONE) {
		strbuf_printf(&out,
		    ngettext("%zu of %zu host can be judged against %s: no "
			     "fleet verdict",
			"%zu of %zu hosts can be judged against %s: no fleet "
			"verdict",
			(unsigned long)it->nhosts),
		    it->used, it->nhosts, it->base);
		return strbuf_take(&out);
	}
	answer_verdict(f, c, it, &out);
	strbuf_add(&out, it->verdict == COMPARE_V_UNSURE ? "; " : ", ");
	count_words(c, it, &out);
	disagree_words(it, &out);
	return strbuf_take(&out);
}

char *
compare_fleet_hosts_text(const struct compare_fleet *f, const struct compare *c,
    size_t i)
{
	const struct compare_fleet_item *it = &f->items[i];
	struct strbuf out;

	strbuf_init(&out);
	strbuf_add(&out, "");
	count_words(c, it, &out);
	disagree_words(it, &out);
	return strbuf_take(&out);
}

char *
compare_fleet_host_text(const struct compare_fleet *f, const struct compare *c,
    size_t i, size_t h)
{
	const struct compare_fleet_item *it = &f->items[i];
	const struct compare_fleet_host *x = &it->hosts[h];
	const char *word = compare_fleet_verdict_word(c, it->col, x->verdict);
	char conf[16];

	if (!isfinite(x->ch.pct_lo) || !isfinite(x->ch.pct_hi))
		return isfinite(x->ch.pct)
		    ? xasprintf("%s  %+.1f%%  %s", x->host, x->ch.pct, word)
		    : xasprintf("%s  %s", x->host, word);
	compare_conf_text(f->host_conf, conf, sizeof conf);
	return xasprintf(_("%s  %+.1f%% (%s%% CI %+.1f%% to %+.1f%%; n = %zu "
			   "and %zu)  %s"),
	    x->host, x->ch.pct, conf, x->ch.pct_lo, x->ch.pct_hi,
	    compare_cell(c, x->row, it->col)->n,
	    compare_cell(c, x->base, it->col)->n, word);
}

char *
compare_fleet_method_text(const struct compare_fleet *f)
{
	char hc[16], cc[16];

	compare_conf_text(f->host_conf, hc, sizeof hc);
	compare_conf_text(f->conf, cc, sizeof cc);
	return xasprintf(
	    _("Fleet verdicts: each variant against the baseline on its own "
	      "host (the log t-test; %zu host comparisons, "
	      "Benjamini-Hochberg, intervals at %s%%), then the hosts' "
	      "log-ratios combined with equal weights, the interval the "
	      "wider of the between-host (t on hosts - 1 df) and the "
	      "within-host one (%zu combined comparisons, intervals at "
	      "%s%%); same = within %s%g%% (TOST)."),
	    f->host_family, hc, f->family, cc, compare_pm(), f->margin);
}

static json_t *
host_json(const struct compare *c, const struct compare_fleet_item *it,
    const struct compare_fleet_host *x)
{
	return json_pack("{s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:s}",
	    "host", x->host, "n",
	    (json_int_t)compare_cell(c, x->row, it->col)->n, "n_base",
	    (json_int_t)compare_cell(c, x->base, it->col)->n, "change",
	    num(x->ch.pct), "pct_lo", num(x->ch.pct_lo), "pct_hi",
	    num(x->ch.pct_hi), "p", num(x->ch.p), "q", num(x->q), "eq_lo",
	    num(x->eq_lo), "eq_hi", num(x->eq_hi), "verdict",
	    compare_verdict_key(x->verdict));
}

static json_t *
combined_json(const struct compare_fleet *f, const struct compare *c, size_t i)
{
	const struct compare_fleet_item *it = &f->items[i];
	char *text = compare_fleet_answer(f, c, i);
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
	    "hosts", (json_int_t)it->used, "change", num(it->pct), "pct_lo",
	    num(it->lo), "pct_hi", num(it->hi), "p", num(it->m.p), "q",
	    num(it->q), "eq_lo", num(it->eq_lo), "eq_hi", num(it->eq_hi),
	    "verdict", compare_verdict_key(it->verdict));

	json_object_set_new(o, "interval",
	    it->verdict == COMPARE_V_NONE
		? json_null()
		: json_string(it->m.between ? "between" : "within"));
	json_object_set_new(o, "log_ratio", num(it->m.mean));
	json_object_set_new(o, "se", num(it->m.se));
	json_object_set_new(o, "df", num(it->m.df));
	json_object_set_new(o, "i2", num(it->m.i2));
	json_object_set_new(o, "tau2", num(it->m.tau2));
	json_object_set_new(o, "q_stat", num(it->m.q_stat));
	json_object_set_new(o, "spread_lo", num(it->spread_lo));
	json_object_set_new(o, "spread_hi", num(it->spread_hi));
	json_object_set_new(o, "better", json_integer((json_int_t)it->better));
	json_object_set_new(o, "worse", json_integer((json_int_t)it->worse));
	json_object_set_new(o, "same", json_integer((json_int_t)it->same));
	json_object_set_new(o, "unsure", json_integer((json_int_t)it->unsure));
	json_object_set_new(o, "other", json_integer((json_int_t)it->other));
	json_object_set_new(o, "text", json_string(text));
	free(text);
	return o;
}

json_t *
compare_fleet_json(const struct compare_fleet *f, const struct compare *c)
{
	json_t *root = json_object(), *hosts = json_array(),
	       *tests = json_array();
	char *m = compare_fleet_method_text(f);

	for (size_t i = 0; i < c->nrows; i++) {
		const char *h = c->rows[i].host;
		bool seen = false;

		for (size_t j = 0; h != NULL && j < json_array_size(hosts); j++)
			seen = seen ||
			    strcmp(json_string_value(json_array_get(hosts, j)),
				h) == 0;
		if (h != NULL && !seen)
			json_array_append_new(hosts, json_string(h));
	}
	for (size_t i = 0; i < f->nitems; i++) {
		const struct compare_fleet_item *it = &f->items[i];
		const struct compare_col *col = &c->cols[it->col];
		json_t *hs = json_array();

		for (size_t h = 0; h < it->nhosts; h++)
			json_array_append_new(hs,
			    host_json(c, it, &it->hosts[h]));
		json_array_append_new(tests,
		    json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}",
			"workload", col->workload, "key", col->key, "label",
			col->label, "unit", wl_unit_key(col->unit), "variant",
			it->variant, "baseline", it->base, "hosts", hs,
			"combined", combined_json(f, c, i)));
	}
	json_object_set_new(root, "hosts", hosts);
	json_object_set_new(root, "method",
	    json_pack("{s:s, s:f, s:f, s:I, s:I, s:f, s:I, s:I, s:f, s:s}",
		"test", "log", "equivalence", f->margin, "alpha", COMPARE_ALPHA,
		"host_family", (json_int_t)f->host_family, "host_rejected",
		(json_int_t)f->host_rejected, "host_conf", f->host_conf,
		"family", (json_int_t)f->family, "rejected",
		(json_int_t)f->rejected, "conf", f->conf, "text", m));
	json_object_set_new(root, "tests", tests);
	free(m);
	return root;
}
