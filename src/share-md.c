/*
 * The report as Markdown (share.h): the text report's sections with
 * GitHub-flavoured tables for the verdicts and fenced blocks for the
 * commands and the lab file, for an issue tracker or a wiki. Table cells
 * escape "|"; everything else is as the records say. The thread that
 * owns the records.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "result.h"
#include "share-int.h"
#include "share.h"
#include "strbuf.h"
#include "xalloc.h"

/* Text for a table cell: "|" escaped, newlines as spaces. */
static void
cell(struct strbuf *out, const char *s)
{
	strbuf_add(out, " ");
	for (; s != NULL && *s != '\0'; s++) {
		char one[2] = { *s == '\n' ? ' ' : *s, '\0' };

		strbuf_add(out, *s == '|' ? "\\|" : one);
	}
	strbuf_add(out, " |");
}

/* A fenced block: the fence is longer than any backtick run in text. */
static void
fenced(struct strbuf *out, const char *lang, const char *text)
{
	size_t run = 0, most = 2;

	for (const char *p = text; *p != '\0'; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	for (size_t i = 0; i <= most; i++)
		strbuf_add(out, "`");
	strbuf_printf(out, "%s\n%s%s", lang, text,
	    text[0] != '\0' && text[strlen(text) - 1] != '\n' ? "\n" : "");
	for (size_t i = 0; i <= most; i++)
		strbuf_add(out, "`");
	strbuf_add(out, "\n\n");
}

static void
records(const struct share *s, struct strbuf *out)
{
	strbuf_printf(out, "## %s\n\n", _("Records"));
	for (size_t i = 0; i < s->nrecs; i++) {
		const struct share_record *r = &s->r[i];

		strbuf_printf(out, "- **#%zu %s**: `%s`\n", i + 1, r->label,
		    r->path ? r->path : _("(not saved)"));
		if (r->question != NULL)
			strbuf_printf(out, "  - %s: %s\n", _("Question"),
			    r->question);
		if (r->status != NULL)
			strbuf_printf(out, "  - %s: %s\n", _("Status"),
			    r->status);
		strbuf_printf(out, "  - %s: %s\n", _("Host"),
		    r->host ? r->host : _("not recorded"));
		if (r->rounds != NULL)
			strbuf_printf(out, "  - %s: %s\n", _("Repeats"),
			    r->rounds);
		if (r->imported != NULL)
			strbuf_printf(out, "  - %s: %s (%s: %s)\n",
			    _("Imported"), r->imported, _("missing"),
			    r->missing ? r->missing : "-");
		if (r->scaled != NULL)
			strbuf_printf(out, "  - %s: %s\n", _("Scaled down"),
			    r->scaled);
	}
	strbuf_add(out, "\n");
	if (s->ndisks == 0)
		return;
	strbuf_printf(out,
	    "## %s\n\n| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n",
	    _("Disks"), _("Disk"), _("Size"), _("Model"), _("Kind"),
	    _("Used by"));
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct share_disk *d = &s->disks[i];

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
variants(const struct share *s, struct strbuf *out)
{
	strbuf_printf(out, "## %s\n\n", _("How each variant was built"));
	for (size_t i = 0; i < s->nv; i++) {
		const struct share_variant *v = &s->v[i];
		char *name = share_row_name(s, i);
		struct strbuf b;

		strbuf_printf(out, "### %s\n\n", name);
		free(name);
		if (v->text != NULL)
			strbuf_printf(out, "%s\n\n", v->text);
		if (s->cmp.rows[i].why != NULL)
			strbuf_printf(out, "- %s: %s\n", _("Not measured"),
			    s->cmp.rows[i].why);
		if (v->scratch &&
		    (v->text == NULL || strstr(v->text, "scratch") == NULL))
			strbuf_printf(out, "- %s\n",
			    _("scratch: functional, not representative"));
		if (v->target != NULL)
			strbuf_printf(out, "- %s: `%s`\n", _("Target"),
			    v->target);
		if (v->geometry != NULL)
			strbuf_printf(out, "- %s: %s\n", _("Geometry"),
			    v->geometry);
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
test_table(const struct share *s, size_t k, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	const struct compare_col *col = &c->cols[k];

	strbuf_printf(out, "### %s: %s (%s, %s)\n\n", col->workload, col->label,
	    wl_unit_name(col->unit),
	    col->lower_better ? _("lower is better") : _("higher is better"));
	if (col->apart != NULL)
		strbuf_printf(out, "%s\n\n", col->apart);
	strbuf_printf(out, "| | %s | %s | n | %s |\n|---|---|---:|---:|---|\n",
	    _("Variant"), _("Mean, 95% CI"), _("Change"));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = compare_cell(c, i, k);
		char v[96], ch[96], n[32], *name;

		if (x->n == 0 && x->failed == 0)
			continue;
		name = share_row_name(s, i);
		snprintf(n, sizeof n, "%zu", x->n);
		strbuf_add(out, "|");
		cell(out, col->best == i ? "*" : "");
		cell(out, name);
		cell(out, share_cell_text(s, i, k, v, sizeof v));
		cell(out, n);
		cell(out, share_change_text(s, i, k, ch, sizeof ch));
		strbuf_add(out, "\n");
		free(name);
	}
	strbuf_add(out, "\n");
	for (size_t i = 0; i < c->nrows; i++) {
		char *a = compare_answer(c, i, k),
		     *m = compare_marks_text(c, i, k);

		if (a != NULL)
			strbuf_printf(out, "- %s\n", a);
		/* An answer says its sides' reasons already. */
		if (m[0] != '\0' && a == NULL) {
			char *name = share_row_name(s, i);

			strbuf_printf(out, "- ! %s: %s\n", name, m);
			free(name);
		}
		free(a);
		free(m);
	}
	strbuf_add(out, "\n");
}

void
share_markdown(const struct share *s, struct strbuf *out)
{
	strbuf_printf(out, "# %s\n\n", s->title);
	records(s, out);
	variants(s, out);
	strbuf_printf(out, "## %s\n\n%s\n\n", _("Results"),
	    _("Each figure is the mean of n repeats with the half-width of "
	      "its 95% confidence interval; the change is against the "
	      "baseline, with the half-width of its 95% interval. * the best "
	      "of a test; ! an unstable sample."));
	for (size_t k = 0; k < s->cmp.ncols; k++)
		test_table(s, k, out);
	if (s->ncaveats > 0) {
		strbuf_printf(out, "## %s\n\n", _("Caveats"));
		for (size_t i = 0; i < s->ncaveats; i++)
			strbuf_printf(out, "- %s\n", s->caveats[i]);
		strbuf_add(out, "\n");
	}
	for (size_t i = 0; i < s->nrecs; i++) {
		if (s->r[i].lab_text == NULL)
			continue;
		strbuf_printf(out, _("## The lab of #%zu, as it ran\n\n"),
		    i + 1);
		fenced(out, "", s->r[i].lab_text);
	}
}
