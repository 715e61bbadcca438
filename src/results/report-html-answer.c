/*
 * The HTML report's answer (report-html-int.h), first on the page: each
 * variant over all tests (compare_summary_text()), one line per test
 * with each variant's verdict in the words every report uses
 * (report_verdict_words()), coloured as the tables are (better blue,
 * worse vermilion, the same grey, can't tell uncoloured), how the
 * verdicts were reached, what could not be measured, and the caveats,
 * each said once. The thread that owns the records.
 */
#include "config.h"

#include <stdlib.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "report-html-int.h"
#include "report-int.h"
#include "report-svg.h"
#include "report.h"

const char *
html_verdict_class(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_V_BETTER:
		return "v-better";
	case COMPARE_V_WORSE:
		return "v-worse";
	case COMPARE_V_SAME:
		return "v-same";
	case COMPARE_V_UNSURE:
		return "v-unsure";
	default:
		return "v-other";
	}
}

/* Each variant over all tests, with its chart colour, the baseline
   first (the swatches are the key to every chart below); nothing when
   no variant is judged. */
static void
overall(const struct report *s, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	char **t = xcalloc(c->nrows + 1, sizeof *t);
	size_t n = 0;

	for (size_t i = 0; i < c->nrows; i++)
		n += (t[i] = compare_summary_text(c, i)) != NULL;
	if (n > 0) {
		html_elem(out, "p", _("Over all tests:"));
		strbuf_add(out, "\n<ul class=\"overall\">\n");
	}
	for (size_t k = 0; n > 0 && k <= c->nrows; k++) {
		/* k == 0: the baseline; then the rows in order */
		size_t i = k == 0 ? c->baseline : k - 1;
		char *name;

		if (i >= c->nrows || (k > 0 && t[i] == NULL))
			continue;
		strbuf_printf(out,
		    "<li><span class=\"swatch\" style=\"color:%s\">"
		    "\xe2\x96\xa0</span>",
		    svg_colour(i));
		if (k == 0) {
			name = report_row_name(s, i);
			html_text(out, name);
			strbuf_add(out, ": ");
			html_text(out, _("the baseline"));
			free(name);
		} else {
			html_text(out, t[i]);
		}
		strbuf_add(out, "</li>\n");
	}
	if (n > 0) {
		strbuf_add(out, "</ul>\n");
		html_elem(out, "p", _("Per test:"));
		strbuf_add(out, "\n");
	}
	for (size_t i = 0; i < c->nrows; i++)
		free(t[i]);
	free(t);
}

/* A line per test: its name, a link to its section, and each variant's
   verdict coloured by its word. */
static void
per_test(const struct report *s, struct strbuf *out)
{
	strbuf_add(out, "<ul class=\"answer\">\n");
	for (size_t k = 0; k < s->cmp.ncols; k++) {
		char *name = report_test_name(s, k);
		size_t said = 0;

		strbuf_printf(out, "<li><a href=\"#t-%zu\">", k);
		html_text(out, name);
		strbuf_add(out, "</a>: ");
		free(name);
		for (size_t i = 0; i < s->cmp.nrows; i++) {
			struct strbuf b;

			if (!report_judged(s, i, k))
				continue;
			strbuf_init(&b);
			report_verdict_words(s, i, k, &b);
			strbuf_printf(out, "%s<span class=\"%s\">",
			    said++ > 0 ? "; " : "",
			    html_verdict_class(
				compare_cell(&s->cmp, i, k)->verdict));
			html_text(out, b.s);
			strbuf_add(out, "</span>");
			strbuf_done(&b);
		}
		if (said == 0)
			html_text(out, report_nothing_judged(s));
		strbuf_add(out, "</li>\n");
	}
	strbuf_add(out, "</ul>\n");
}

static void
unmeasured(const struct report *s, struct strbuf *out)
{
	char **v;
	size_t n;

	report_unmeasured(s, &v, &n);
	if (n > 0) {
		html_elem(out, "p", _("Could not be measured:"));
		strbuf_add(out, "\n<ul>\n");
	}
	for (size_t i = 0; i < n; i++) {
		html_elem(out, "li", v[i]);
		strbuf_add(out, "\n");
	}
	if (n > 0)
		strbuf_add(out, "</ul>\n");
	report_strv_free(v, n);
}

static void
caveats(const struct report *s, struct strbuf *out)
{
	if (s->ncaveats == 0)
		return;
	strbuf_add(out, "<div class=\"caveats\">\n<strong>");
	html_text(out, _("Caveats"));
	strbuf_add(out, "</strong>\n<ul>\n");
	for (size_t i = 0; i < s->ncaveats; i++) {
		html_elem(out, "li", s->caveats[i]);
		strbuf_add(out, "\n");
	}
	strbuf_add(out, "</ul>\n</div>\n");
}

void
report_html_answer(const struct report *s, struct html_toc *toc,
    struct strbuf *out)
{
	char *m = compare_method_text(&s->cmp);

	strbuf_add(out, "<section class=\"answer\">\n");
	html_h2(out, toc, "answer", _("The answer"));
	overall(s, out);
	per_test(s, out);
	strbuf_add(out, "<p class=\"note\">");
	html_text(out, _("How it was judged"));
	strbuf_add(out, ": ");
	html_text(out, m);
	strbuf_add(out, ". ");
	html_text(out,
	    _("! marks an unstable sample: its reasons are under its test "
	      "in Results."));
	strbuf_add(out, "</p>\n");
	free(m);
	unmeasured(s, out);
	caveats(s, out);
	strbuf_add(out, "</section>\n");
}
