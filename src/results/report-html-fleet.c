/*
 * The HTML report's fleet section (report-html-int.h), after the answer
 * when the records come from more than one host (compare-fleet.h): each
 * test and variant's combined answer over the hosts, coloured by its
 * verdict as the answer is, then one table with every host's own change
 * and verdict and, under them, the combined change with its interval,
 * how many hosts agree and how much they disagree (I², the range of
 * their changes), then how the hosts were judged. The thread that owns
 * the records.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "compare-fleet.h"
#include "report-html-int.h"
#include "report-int.h"
#include "report.h"

/* "+12.1% (+8.0% – +16.3%)", or the change alone without an interval. */
static void
change_td(struct strbuf *out, double pct, double lo, double hi)
{
	char p[COMPARE_NUM_BUF], l[COMPARE_NUM_BUF], h[COMPARE_NUM_BUF];
	char buf[3 * COMPARE_NUM_BUF + 16];

	compare_format_pct(pct, p, sizeof p);
	if (isfinite(pct) && isfinite(lo) && isfinite(hi)) {
		compare_format_pct(lo, l, sizeof l);
		compare_format_pct(hi, h, sizeof h);
		snprintf(buf, sizeof buf, "%s (%s \xe2\x80\x93 %s)", p, l, h);
		html_elem(out, "td class=\"num\"", buf);
	} else {
		html_elem(out, "td class=\"num\"", p);
	}
}

static void
verdict_td(struct strbuf *out, const struct compare *c, size_t col,
    enum compare_verdict v)
{
	char *td = xasprintf("td class=\"%s\"", html_verdict_class(v));

	html_elem(out, td, compare_fleet_verdict_word(c, col, v));
	free(td);
}

/* The combined answers, a line per test and variant. */
static void
answers(const struct report *s, const struct compare_fleet *f,
    struct strbuf *out)
{
	strbuf_add(out, "<ul class=\"answer fleet\">\n");
	for (size_t i = 0; i < f->nitems; i++) {
		const struct compare_fleet_item *it = &f->items[i];
		char *name = report_test_name(s, it->col);
		char *a = compare_fleet_answer(f, &s->cmp, i);

		strbuf_printf(out, "<li><a href=\"#t-%zu\">", it->col);
		html_text(out, name);
		strbuf_printf(out, "</a>: <span class=\"%s\">",
		    html_verdict_class(it->verdict));
		html_text(out, a);
		strbuf_add(out, "</span></li>\n");
		free(name);
		free(a);
	}
	strbuf_add(out, "</ul>\n");
}

/* Host h's row of item i: the test and variant cells span the item's
   rows and open its first. */
static void
host_row(const struct report *s, const struct compare_fleet *f, size_t i,
    size_t h, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	const struct compare_fleet_item *it = &f->items[i];
	const struct compare_fleet_host *x = &it->hosts[h];
	char n[64];

	strbuf_add(out, "<tr>");
	if (h == 0) {
		char *name = report_test_name(s, it->col);

		strbuf_printf(out, "<th scope=\"rowgroup\" rowspan=\"%zu\">",
		    it->nhosts + 1);
		html_text(out, name);
		strbuf_printf(out,
		    "</th><th scope=\"rowgroup\" rowspan=\"%zu\">",
		    it->nhosts + 1);
		html_text(out, it->variant);
		strbuf_add(out, "</th>");
		free(name);
	}
	html_elem(out, "td class=\"host\"", x->host);
	snprintf(n, sizeof n, "%zu / %zu", compare_cell(c, x->row, it->col)->n,
	    compare_cell(c, x->base, it->col)->n);
	html_elem(out, "td class=\"num\"", n);
	change_td(out, x->ch.pct, x->ch.pct_lo, x->ch.pct_hi);
	verdict_td(out, c, it->col, x->verdict);
	html_elem(out, "td", "");
	strbuf_add(out, "</tr>\n");
}

/* Item i's combined row: over the hosts judged. */
static void
combined_row(const struct report *s, const struct compare_fleet *f, size_t i,
    struct strbuf *out)
{
	const struct compare_fleet_item *it = &f->items[i];
	char *all = xasprintf(ngettext("all %zu host", "all %zu hosts",
				  (unsigned long)it->nhosts),
	    it->nhosts);
	char *agree = compare_fleet_hosts_text(f, &s->cmp, i);
	char n[32];

	strbuf_add(out, "<tr class=\"combined\">");
	html_elem(out, "td class=\"host\"", all);
	snprintf(n, sizeof n, "%zu", it->used);
	html_elem(out, "td class=\"num\"", n);
	change_td(out, it->pct, it->lo, it->hi);
	verdict_td(out, &s->cmp, it->col, it->verdict);
	html_elem(out, "td", agree);
	strbuf_add(out, "</tr>\n");
	free(all);
	free(agree);
}

static void
table(const struct report *s, const struct compare_fleet *f, struct strbuf *out)
{
	static const char *const heads[] = { N_("Test"), N_("Variant"),
		N_("Host"), N_("n / n of the baseline"), NULL, N_("Verdict"),
		N_("The hosts") };
	char conf[16], hconf[16], buf[160];

	compare_conf_text(f->conf, conf, sizeof conf);
	compare_conf_text(f->host_conf, hconf, sizeof hconf);
	strbuf_add(out, "<div class=\"side\">\n<table class=\"fleet\">\n");
	snprintf(buf, sizeof buf,
	    _("Each host's change against the baseline on that host (%s%% "
	      "CI), then all hosts combined (%s%% CI)."),
	    hconf, conf);
	html_elem(out, "caption", buf);
	strbuf_add(out, "\n<thead><tr>");
	for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
		strbuf_add(out, "<th scope=\"col\">");
		html_text(out, heads[h] ? _(heads[h]) : _("Change, CI"));
		strbuf_add(out, "</th>");
	}
	strbuf_add(out, "</tr></thead>\n");
	for (size_t i = 0; i < f->nitems; i++) {
		strbuf_add(out, "<tbody>\n");
		for (size_t h = 0; h < f->items[i].nhosts; h++)
			host_row(s, f, i, h, out);
		combined_row(s, f, i, out);
		strbuf_add(out, "</tbody>\n");
	}
	strbuf_add(out, "</table>\n</div>\n");
}

void
report_html_fleet(const struct report *s, struct html_toc *toc,
    struct strbuf *out)
{
	struct compare_fleet f;
	char *m, *t;

	compare_fleet_build(&f, &s->cmp);
	if (f.nitems == 0) {
		compare_fleet_done(&f);
		return;
	}
	strbuf_add(out, "<section class=\"fleet\">\n");
	t = xasprintf(ngettext("Over the %zu host", "Over the %zu hosts",
			  (unsigned long)f.nhosts),
	    f.nhosts);
	html_h2(out, toc, "fleet", t);
	free(t);
	html_elem(out, "p",
	    _("The host is a block: each variant is compared with the "
	      "baseline on its own host, then the hosts' changes are "
	      "combined."));
	strbuf_add(out, "\n");
	answers(s, &f, out);
	table(s, &f, out);
	m = compare_fleet_method_text(&f);
	html_elem(out, "p class=\"note\"", m);
	strbuf_add(out, "\n</section>\n");
	free(m);
	compare_fleet_done(&f);
}
