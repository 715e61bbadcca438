/*
 * The report as Markdown (report.h): the text report's sections with
 * GitHub-flavoured tables for the verdicts and fenced blocks for the
 * commands and the lab file, for an issue tracker or a wiki. The answer
 * first (each variant over all tests, a line per test, how it was
 * judged, what could not be measured, the caveats), then the evidence:
 * the records, how each variant was built, a table per test. Text from
 * the records is shown, never obeyed: control characters as "\xHH"
 * (textsafe.h), "&", "<" and ">" as entities (a renderer would take
 * "<script>" as HTML), backticks escaped, and "|" in table cells; code
 * spans and fences are longer than any backtick run in them. The thread
 * that owns the records.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "measure/result.h"
#include "report-int.h"
#include "report.h"

void
report_md_text(struct strbuf *out, const char *s, bool in_cell)
{
	char *t = textsafe_dup(s, 0);

	for (const char *p = t; *p != '\0'; p++) {
		char one[2] = { *p, '\0' };

		if (*p == '&')
			strbuf_add(out, "&amp;");
		else if (*p == '<')
			strbuf_add(out, "&lt;");
		else if (*p == '>')
			strbuf_add(out, "&gt;");
		else if (*p == '`' || (*p == '|' && in_cell))
			strbuf_printf(out, "\\%c", *p);
		else
			strbuf_add(out, one);
	}
	free(t);
}

/* The same, as a string. Caller frees. */
static char *
text_dup(const char *s)
{
	struct strbuf b;

	strbuf_init(&b);
	report_md_text(&b, s, false);
	return strbuf_take(&b);
}

/* Text for a table cell. */
static void
cell(struct strbuf *out, const char *s)
{
	strbuf_add(out, " ");
	report_md_text(out, s, true);
	strbuf_add(out, " |");
}

/* The longest run of backticks in s. */
static size_t
backticks(const char *s)
{
	size_t run = 0, most = 0;

	for (const char *p = s; *p != '\0'; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	return most;
}

/* A code span of s, caller frees: its delimiters are longer than any
   backtick run in s, with a space inside when s starts or ends with
   one. */
static char *
code(const char *s)
{
	char *t = textsafe_dup(s, 0), *fence, *out;
	size_t n = backticks(t) + 1, len = strlen(t);
	const char *pad =
	    len > 0 && (t[0] == '`' || t[len - 1] == '`') ? " " : "";

	fence = xmalloc(n + 1);
	memset(fence, '`', n);
	fence[n] = '\0';
	out = xasprintf("%s%s%s%s%s", fence, pad, t, pad, fence);
	free(fence);
	free(t);
	return out;
}

/* A fenced block: the fence is longer than any backtick run in text. */
static void
fenced(struct strbuf *out, const char *lang, const char *text)
{
	char *t = textsafe_dup(text, TEXTSAFE_LINES);
	size_t most = backticks(t);

	if (most < 2)
		most = 2;
	for (size_t i = 0; i <= most; i++)
		strbuf_add(out, "`");
	strbuf_printf(out, "%s\n%s%s", lang, t,
	    t[0] != '\0' && t[strlen(t) - 1] != '\n' ? "\n" : "");
	for (size_t i = 0; i <= most; i++)
		strbuf_add(out, "`");
	strbuf_add(out, "\n\n");
	free(t);
}

/* "PREFIX- NAME: VALUE" as a list item (none without VALUE). */
static void
item(struct strbuf *out, const char *prefix, const char *name,
    const char *value)
{
	if (value == NULL)
		return;
	strbuf_printf(out, "%s- ", prefix);
	report_md_text(out, name, false);
	strbuf_add(out, ": ");
	report_md_text(out, value, false);
	strbuf_add(out, "\n");
}

static void
records(const struct report *s, struct strbuf *out)
{
	strbuf_printf(out, "## %s\n\n", _("Records"));
	for (size_t i = 0; i < s->nrecs; i++) {
		const struct report_record *r = &s->r[i];
		char *path = code(r->path ? r->path : _("(not saved)"));

		strbuf_printf(out, "- **#%zu ", i + 1);
		report_md_text(out, r->label, false);
		strbuf_printf(out, "**: %s\n", path);
		free(path);
		item(out, "  ", _("Question"), r->question);
		item(out, "  ", _("Status"), r->status);
		item(out, "  ", _("Host"),
		    r->host ? r->host : _("not recorded"));
		item(out, "  ", _("Repeats"), r->rounds);
		if (r->imported != NULL) {
			char *t = xasprintf("%s (%s: %s)", r->imported,
			    _("missing"), r->missing ? r->missing : "-");

			item(out, "  ", _("Imported"), t);
			free(t);
		}
		item(out, "  ", _("Scaled down"), r->scaled);
	}
	strbuf_add(out, "\n");
	if (s->ndisks == 0)
		return;
	strbuf_printf(out,
	    "## %s\n\n| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n",
	    _("Disks"), _("Disk"), _("Size"), _("Model"), _("Kind"),
	    _("Used by"));
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct report_disk *d = &s->disks[i];

		strbuf_add(out, "|");
		cell(out, d->name);
		cell(out, d->size ? d->size : "");
		cell(out, d->model ? d->model : "");
		cell(out, d->kind);
		cell(out, d->used_by);
		strbuf_add(out, "\n");
	}
	strbuf_add(out, "\n");
}

static void
variants(const struct report *s, struct strbuf *out)
{
	strbuf_printf(out, "## %s\n\n", _("How each variant was built"));
	for (size_t i = 0; i < s->nv; i++) {
		const struct report_variant *v = &s->v[i];
		char *name = report_row_name(s, i), *t;
		struct strbuf b;

		strbuf_add(out, "### ");
		report_md_text(out, name, false);
		strbuf_add(out, "\n\n");
		free(name);
		if (v->text != NULL) {
			report_md_text(out, v->text, false);
			strbuf_add(out, "\n\n");
		}
		item(out, "", _("Not measured"), s->cmp.rows[i].why);
		if (v->scratch &&
		    (v->text == NULL || strstr(v->text, "scratch") == NULL))
			strbuf_printf(out, "- %s\n",
			    _("scratch: functional, not representative"));
		if (v->target != NULL) {
			t = code(v->target);
			strbuf_printf(out, "- %s: %s\n", _("Target"), t);
			free(t);
		}
		item(out, "", _("Geometry"), v->geometry);
		strbuf_add(out, "\n");
		strbuf_init(&b);
		strbuf_add(&b, "");
		for (size_t k = 0; k < v->ncommands; k++)
			strbuf_printf(&b, "%s\n", v->commands[k]);
		if (v->ncommands > 0)
			fenced(out, "sh", b.s);
		strbuf_done(&b);
		strbuf_init(&b);
		strbuf_add(&b, "");
		for (size_t k = 0; k < v->nsettings; k++)
			strbuf_printf(&b, "%s\n", v->settings[k]);
		if (v->nsettings > 0) {
			strbuf_printf(out, "%s\n\n", _("Read back:"));
			fenced(out, "", b.s);
		}
		strbuf_done(&b);
	}
}

static void
test_table(const struct report *s, size_t k, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	const struct compare_col *col = &c->cols[k];

	char *t = xasprintf("%s: %s (%s, %s)", col->workload, col->label,
	    wl_unit_name(col->unit),
	    col->lower_better ? _("lower is better") : _("higher is better"));

	strbuf_add(out, "### ");
	report_md_text(out, t, false);
	strbuf_add(out, "\n\n");
	free(t);
	if (col->apart != NULL) {
		report_md_text(out, col->apart, false);
		strbuf_add(out, "\n\n");
	}
	strbuf_printf(out, "| | %s | %s | n | %s |\n|---|---|---:|---:|---|\n",
	    _("Variant"), /* xgettext:no-c-format */ _("Mean, 95% CI"),
	    _("Change, verdict"));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = compare_cell(c, i, k);
		char v[96], ch[96], n[32], *name;

		if (x->n == 0 && x->failed == 0)
			continue;
		name = report_row_name(s, i);
		snprintf(n, sizeof n, "%zu", x->n);
		strbuf_add(out, "|");
		cell(out, col->best == i ? "*" : "");
		cell(out, name);
		cell(out, report_cell_text(s, i, k, v, sizeof v));
		cell(out, n);
		cell(out, report_change_text(s, i, k, ch, sizeof ch));
		strbuf_add(out, "\n");
		free(name);
	}
	strbuf_add(out, "\n");
	if ((t = report_wamp_note(s, k)) != NULL) {
		report_md_text(out, t, false);
		strbuf_add(out, "\n\n");
		free(t);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		char *a = compare_answer_bare(c, i, k);

		if (a != NULL) {
			strbuf_add(out, "- ");
			report_md_text(out, a, false);
			strbuf_add(out, "\n");
		}
		free(a);
	}
	/* Each sample's reasons once, not again in every answer on it. */
	for (size_t i = 0; i < c->nrows; i++) {
		char *m = compare_marks_text(c, i, k);

		if (m[0] != '\0') {
			char *name = report_row_name(s, i),
			     *bang = xasprintf("! %s", name);

			item(out, "", bang, m);
			free(bang);
			free(name);
		}
		free(m);
	}
	strbuf_add(out, "\n");
}

/* "- TEXT" for a list. */
static void
bullet(struct strbuf *out, const char *text)
{
	strbuf_add(out, "- ");
	report_md_text(out, text, false);
	strbuf_add(out, "\n");
}

/* The answer first: each variant over all tests, each test in a line,
   how it was judged, what could not be measured, the caveats. */
static void
answer(const struct report *s, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	bool head = false;
	char **v, *m;
	size_t n;

	strbuf_printf(out, "## %s\n\n", _("The answer"));
	report_fleet(s, &v, &n, &m);
	if (n > 0)
		strbuf_printf(out, "%s\n\n",
		    _("Over the hosts, the host as a block:"));
	for (size_t i = 0; i < n; i++)
		bullet(out, v[i]);
	if (m != NULL) {
		strbuf_add(out, "\n");
		report_md_text(out, m, false);
		strbuf_add(out, "\n\n");
	}
	report_strv_free(v, n);
	free(m);
	for (size_t i = 0; i < c->nrows; i++) {
		char *t = compare_summary_text(c, i);

		if (t == NULL)
			continue;
		if (!head)
			strbuf_printf(out, "%s\n\n", _("Over all tests:"));
		head = true;
		bullet(out, t);
		free(t);
	}
	if (head)
		strbuf_printf(out, "\n%s\n\n", _("Per test:"));
	for (size_t k = 0; k < c->ncols; k++) {
		char *name = report_test_name(s, k);
		struct strbuf b;
		size_t said = 0;

		strbuf_init(&b);
		strbuf_add(&b, "");
		for (size_t i = 0; i < c->nrows; i++) {
			if (!report_judged(s, i, k))
				continue;
			if (said++ > 0)
				strbuf_add(&b, "; ");
			report_verdict_words(s, i, k, &b);
		}
		strbuf_add(out, "- **");
		report_md_text(out, name, false);
		strbuf_add(out, "**: ");
		report_md_text(out, said > 0 ? b.s : report_nothing_judged(s),
		    false);
		strbuf_add(out, "\n");
		strbuf_done(&b);
		free(name);
	}
	m = compare_method_text(c);
	strbuf_printf(out, "\n%s: ", _("How it was judged"));
	report_md_text(out, m, false);
	strbuf_printf(out, ". %s\n\n",
	    _("! marks an unstable sample: its reasons are under its test "
	      "in Results."));
	free(m);
	report_unmeasured(s, &v, &n);
	if (n > 0)
		strbuf_printf(out, "### %s\n\n", _("Could not be measured"));
	for (size_t i = 0; i < n; i++)
		bullet(out, v[i]);
	if (n > 0)
		strbuf_add(out, "\n");
	report_strv_free(v, n);
	if (s->ncaveats > 0)
		strbuf_printf(out, "### %s\n\n", _("Caveats"));
	for (size_t i = 0; i < s->ncaveats; i++)
		bullet(out, s->caveats[i]);
	if (s->ncaveats > 0)
		strbuf_add(out, "\n");
}

void
report_markdown(const struct report *s, struct strbuf *out)
{
	char *t = text_dup(s->title), conf[16];

	/* The answer, then the evidence: a reader stops after the first. */
	strbuf_printf(out, "# %s\n\n", t);
	free(t);
	answer(s, out);
	records(s, out);
	variants(s, out);
	t = xasprintf(_("Each figure is the mean of n repeats with where the "
			"95%% confidence interval of their geometric mean "
			"ends, in %% of the mean (on the log scale: never "
			"below 0); the change is against the baseline, with "
			"the half-width of its %s%% interval, then its "
			"verdict: better or worse, the same within the "
			"margin, or can't tell. * the best of a test, where "
			"proven; ! an unstable sample."),
	    compare_conf_text(s->cmp.conf_shown, conf, sizeof conf));
	strbuf_printf(out, "## %s\n\n%s\n\n", _("Results"), t);
	free(t);
	for (size_t k = 0; k < s->cmp.ncols; k++)
		test_table(s, k, out);
	report_lat_markdown(s, out);
	for (size_t i = 0; i < s->nrecs; i++) {
		if (s->r[i].lab_text == NULL)
			continue;
		strbuf_printf(out, _("## The lab of #%zu, as it ran\n\n"),
		    i + 1);
		fenced(out, "", s->r[i].lab_text);
	}
}
