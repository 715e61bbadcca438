/*
 * The HTML report's provenance (report-html-int.h): everything the text
 * report says about where the figures came from: each record (file,
 * lab, question, host, version, how the run repeated, an import's
 * source, a scaled-down run), the disks with their models, per variant
 * the commands as they ran, the geometry and its rule, the md and queue
 * settings read back, and the lab file itself, ready to run again. The
 * thread that owns the records.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "report-html-int.h"
#include "report-svg.h"
#include "report.h"

/* One term of a facts list; nothing for a NULL value. */
static void
fact(struct strbuf *out, const char *term, const char *value)
{
	if (value == NULL)
		return;
	html_elem(out, "dt", term);
	html_elem(out, "dd", value);
	strbuf_add(out, "\n");
}

static void
records(const struct report *s, struct strbuf *out)
{
	html_elem(out, "h3", _("Records"));
	strbuf_add(out, "\n");
	for (size_t i = 0; i < s->nrecs; i++) {
		const struct report_record *r = &s->r[i];
		char *head = xasprintf("#%zu %s", i + 1, r->label);

		html_elem(out, "h4", head);
		strbuf_add(out, "\n<dl class=\"facts\">\n");
		fact(out, _("File"), r->path ? r->path : _("(not saved)"));
		fact(out, _("Lab"), r->lab);
		fact(out, _("Question"), r->question);
		fact(out, _("Created"), r->created);
		fact(out, _("Status"), r->status);
		fact(out, _("raidlab"), r->version);
		fact(out, _("Host"), r->host ? r->host : _("not recorded"));
		fact(out, _("Repeats"), r->rounds);
		fact(out, _("Imported"), r->imported);
		fact(out, _("Missing"), r->missing);
		fact(out, _("Scaled down"), r->scaled);
		strbuf_add(out, "</dl>\n");
		free(head);
	}
}

static void
disks(const struct report *s, struct strbuf *out)
{
	static const char *const heads[] = { N_("Disk"), N_("Model"),
		N_("Size"), N_("Kind"), N_("Used by") };

	if (s->ndisks == 0)
		return;
	html_elem(out, "h3", _("Disks"));
	strbuf_add(out, "\n<table>\n<thead><tr>");
	for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
		html_elem(out, "th scope=\"col\"", _(heads[h]));
	strbuf_add(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct report_disk *d = &s->disks[i];

		strbuf_add(out, "<tr>");
		html_elem(out, "th scope=\"row\"", d->name);
		html_elem(out, "td", d->model ? d->model : _("no model"));
		html_elem(out, "td", d->size ? d->size : "-");
		html_elem(out, "td", d->kind ? d->kind : "-");
		html_elem(out, "td", d->used_by ? d->used_by : "-");
		strbuf_add(out, "</tr>\n");
	}
	strbuf_add(out, "</tbody>\n</table>\n");
}

static void
variant(const struct report *s, size_t i, struct strbuf *out)
{
	const struct report_variant *v = &s->v[i];
	char *name = report_row_name(s, i);

	strbuf_printf(out,
	    "<h4><span class=\"swatch\" style=\"color:%s\">\xe2\x96\xa0</span>",
	    svg_colour(v->row));
	html_text(out, name);
	strbuf_add(out, "</h4>\n<dl class=\"facts\">\n");
	fact(out, _("Description"),
	    v->text ? v->text : (v->array ? _("array") : _("directory")));
	if (v->row < s->cmp.nrows)
		fact(out, _("Not measured"), s->cmp.rows[v->row].why);
	if (v->scratch)
		fact(out, _("Disks"),
		    _("scratch: functional, not representative"));
	fact(out, _("Target"), v->target);
	fact(out, _("Geometry"), v->geometry);
	strbuf_add(out, "</dl>\n");
	if (v->ncommands > 0) {
		html_elem(out, "p class=\"note\"", _("Commands, as run:"));
		strbuf_add(out, "\n<pre>");
		for (size_t k = 0; k < v->ncommands; k++) {
			html_text(out, v->commands[k]);
			strbuf_add(out, "\n");
		}
		strbuf_add(out, "</pre>\n");
	}
	if (v->nsettings > 0) {
		html_elem(out, "p class=\"note\"", _("Read back:"));
		strbuf_add(out, "\n<ul>\n");
		for (size_t k = 0; k < v->nsettings; k++) {
			html_elem(out, "li", v->settings[k]);
			strbuf_add(out, "\n");
		}
		strbuf_add(out, "</ul>\n");
	}
	free(name);
}

static void
lab_files(const struct report *s, struct strbuf *out)
{
	for (size_t i = 0; i < s->nrecs; i++) {
		char *t;

		if (s->r[i].lab_text == NULL)
			continue;
		t = xasprintf(_("The lab of #%zu, as it ran"), i + 1);
		html_elem(out, "h3", t);
		free(t);
		strbuf_add(out, "\n");
		html_elem(out, "p class=\"note\"",
		    _("Save this text as a file and run it with 'raidlab run "
		      "FILE' (see raidlab.lab(5))."));
		strbuf_add(out, "\n<pre class=\"lab\">");
		html_text(out, s->r[i].lab_text);
		strbuf_add(out, "</pre>\n");
	}
}

void
report_html_provenance(const struct report *s, struct html_toc *toc,
    struct strbuf *out)
{
	html_h2(out, toc, "provenance", _("Where the figures came from"));
	records(s, out);
	disks(s, out);
	html_elem(out, "h3", _("How each variant was built"));
	strbuf_add(out, "\n");
	for (size_t i = 0; i < s->nv; i++)
		variant(s, i, out);
	/* the caveats are the answer's, said once at the top */
	lab_files(s, out);
}
