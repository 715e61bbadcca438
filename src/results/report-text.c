/*
 * The report as a mail (report.h): plain ASCII within REPORT_TEXT_WIDTH
 * columns, no colour, so it pastes into a mailing-list post as it is.
 * The answer first: the question, each variant over all tests, a line
 * per test with its verdicts in the three words (report-answer.c), how
 * they were reached, what could not be measured and the caveats, each
 * said once. Then the evidence: the records and their host, the disks,
 * how each variant was built (commands wrapped as a shell reads them,
 * with " \"), the verdict table per test with each answer in words,
 * then the lab file between scissors lines, wrapped so that libconfig
 * reads it back the same (a long string becomes adjacent literals, which
 * it joins). The thread that owns the records.
 */
#include "config.h"

#include <math.h>
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

#define W REPORT_TEXT_WIDTH

/* What a mail in ASCII writes for a character it cannot carry: the
   signs raidlab prints, and the letters and quotes of its German. */
static const struct {
	const char *utf8, *ascii;
} translit[] = {
	{ "±", "+-" },
	{ "×", "x" },
	{ "µ", "u" },
	{ "–", "-" },
	{ "—", "-" },
	{ "…", "..." },
	{ "ä", "ae" },
	{ "ö", "oe" },
	{ "ü", "ue" },
	{ "Ä", "Ae" },
	{ "Ö", "Oe" },
	{ "Ü", "Ue" },
	{ "ß", "ss" },
	{ "»", "\"" },
	{ "«", "\"" },
	{ "„", "\"" },
	{ "“", "\"" },
	{ "”", "\"" },
	{ "‚", "'" },
	{ "‘", "'" },
	{ "’", "'" },
	{ "²", "^2" },
};

/* The ASCII for the UTF-8 character at s, or "?". */
static const char *
translit_of(const char *s)
{
	for (size_t i = 0; i < sizeof translit / sizeof *translit; i++)
		if (strncmp(s, translit[i].utf8, strlen(translit[i].utf8)) == 0)
			return translit[i].ascii;
	return "?";
}

/* s in ASCII: control characters and invalid UTF-8 as "\\xHH"
   (textsafe.h: a record's names may carry escape sequences), "±" ->
   "+-", German letters as German writes them without ("ü" -> "ue"),
   "²" -> "^2" (I²), any other non-ASCII -> "?". Newlines and tabs
   stay: the lab text is lines, and an escape in one of its strings
   reads back as the same byte. */
static char *
ascii(const char *text)
{
	char *safe = textsafe_dup(text, TEXTSAFE_LINES), *s = safe;
	struct strbuf b;

	strbuf_init(&b);
	strbuf_add(&b, "");
	while (*s != '\0') {
		unsigned char c = (unsigned char)*s;
		char one[2] = { *s, '\0' };

		if (c < 0x80) {
			strbuf_add(&b, one);
			s++;
			continue;
		}
		strbuf_add(&b, translit_of(s));
		/* Past the rest of this UTF-8 sequence. */
		for (s++; ((unsigned char)*s & 0xc0) == 0x80; s++)
			;
	}
	free(safe);
	return strbuf_take(&b);
}

void
report_wrap(struct strbuf *out, const char *text, size_t first_len,
    size_t indent, size_t width)
{
	char *a = ascii(text), *p = a;
	size_t col = first_len;

	while (*p != '\0') {
		size_t room = width > col ? width - col : 0;
		size_t n = strlen(p), cut;

		if (n <= room) {
			strbuf_add(out, p);
			break;
		}
		/* The last space that leaves the line within width; a word
		   too long for what is left goes whole to the next line, and
		   only one longer than a line is split. */
		for (cut = room; cut > 0 && p[cut] != ' '; cut--)
			;
		if (cut == 0 && col > indent &&
		    strcspn(p, " ") <= width - indent) {
			while (out->len > 0 && out->s[out->len - 1] == ' ')
				out->s[--out->len] = '\0';
			strbuf_printf(out, "\n%*s", (int)indent, "");
			col = indent;
			continue;
		}
		if (cut == 0)
			cut = room > 0 ? room : (size_t)1;
		strbuf_printf(out, "%.*s\n%*s", (int)cut, p, (int)indent, "");
		p += cut;
		while (*p == ' ')
			p++;
		col = indent;
	}
	strbuf_add(out, "\n");
	free(a);
}

/* "Label: text", wrapped under the text. */
static void
field(struct strbuf *out, size_t indent, const char *label, const char *text)
{
	/* One text: a label too long for a line wraps as well. */
	char *t = xasprintf("%s: %s", label, text);

	strbuf_printf(out, "%*s", (int)indent, "");
	report_wrap(out, t, indent, indent + 4, W);
	free(t);
}

static void
heading(struct strbuf *out, const char *title)
{
	char *a = ascii(title);
	size_t n = strlen(a) < W ? strlen(a) : W;

	strbuf_printf(out, "\n%s\n", a);
	for (size_t i = 0; i < n; i++)
		strbuf_add(out, "-");
	strbuf_add(out, "\n");
	free(a);
}

/*
 * A command line as a shell reads it: broken at spaces outside quotes,
 * each line but the last ending in " \".
 */
static void
command(struct strbuf *out, const char *cmd, size_t indent)
{
	char *a = ascii(cmd), *p = a;
	size_t col = indent;

	strbuf_printf(out, "%*s", (int)indent, "");
	while (*p != '\0') {
		size_t room = W - col - 2, last = 0, i;
		char q = 0;

		if (strlen(p) <= W - col) {
			strbuf_add(out, p);
			break;
		}
		for (i = 0; p[i] != '\0' && (i <= room || last == 0); i++) {
			if (q != 0 && p[i] == q)
				q = 0;
			else if (q == 0 && (p[i] == '\'' || p[i] == '"'))
				q = p[i];
			else if (q == 0 && p[i] == ' ')
				last = i;
		}
		if (last == 0) {
			strbuf_add(out, p);
			break;
		}
		strbuf_printf(out, "%.*s \\\n%*s", (int)last, p,
		    (int)indent + 4, "");
		p += last + 1;
		col = indent + 4;
	}
	strbuf_add(out, "\n");
	free(a);
}

/* ------------------------------------------------------------ sections */

/* The records ask one question: it is said once, at the top. */
static bool
one_question(const struct report *s)
{
	bool same = s->nrecs > 0 && s->r[0].question != NULL;

	for (size_t i = 1; i < s->nrecs && same; i++)
		same = s->r[i].question != NULL &&
		    strcmp(s->r[i].question, s->r[0].question) == 0;
	return same;
}

static void
records(const struct report *s, struct strbuf *out)
{
	bool same = one_question(s);

	heading(out, _("Records"));
	for (size_t i = 0; i < s->nrecs; i++) {
		const struct report_record *r = &s->r[i];
		char *head = xasprintf("#%zu %s", i + 1, r->label);

		field(out, 0, head, r->path ? r->path : _("(not saved)"));
		free(head);
		if (r->question != NULL && !same)
			field(out, 4, _("Question"), r->question);
		if (r->status != NULL)
			field(out, 4, _("Status"), r->status);
		if (r->version != NULL)
			field(out, 4, _("raidlab"), r->version);
		field(out, 4, _("Host"), r->host ? r->host : _("not recorded"));
		if (r->rounds != NULL)
			field(out, 4, _("Repeats"), r->rounds);
		if (r->imported != NULL)
			field(out, 4, _("Imported"), r->imported);
		if (r->missing != NULL)
			field(out, 4, _("Missing"), r->missing);
		if (r->scaled != NULL)
			field(out, 4, _("Scaled down"), r->scaled);
	}
}

static void
disks(const struct report *s, struct strbuf *out)
{
	if (s->ndisks == 0)
		return;
	heading(out, _("Disks"));
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct report_disk *d = &s->disks[i];
		char *t = xasprintf("%s%s%s; %s; %s %s", d->size ? d->size : "",
		    d->size ? ", " : "", d->model ? d->model : _("no model"),
		    d->kind, _("used by"), d->used_by);

		field(out, 2, d->name, t);
		free(t);
	}
}

static void
variants(const struct report *s, struct strbuf *out)
{
	heading(out, _("How each variant was built"));
	for (size_t i = 0; i < s->nv; i++) {
		const struct report_variant *v = &s->v[i];
		char *name = report_row_name(s, i);

		strbuf_add(out, "\n");
		field(out, 0, name,
		    v->text ? v->text
			    : (v->array ? _("array") : _("directory")));
		free(name);
		if (s->cmp.rows[i].why != NULL)
			field(out, 4, _("Not measured"), s->cmp.rows[i].why);
		if (v->scratch &&
		    (v->text == NULL || strstr(v->text, "scratch") == NULL))
			field(out, 4, _("Disks"),
			    _("scratch: functional, not representative"));
		if (v->target != NULL)
			field(out, 4, _("Target"), v->target);
		if (v->geometry != NULL)
			field(out, 4, _("Geometry"), v->geometry);
		if (v->ncommands > 0 && v->nbuilds > 1) {
			char *b = xasprintf(_("Built %zu times (once a round); "
					      "the commands of the first "
					      "build that succeeded:"),
			    v->nbuilds);

			strbuf_add(out, "    ");
			report_wrap(out, b, 4, 6, W);
			free(b);
		} else if (v->ncommands > 0) {
			strbuf_printf(out, "    %s\n", _("Commands, as run:"));
		}
		for (size_t k = 0; k < v->ncommands; k++)
			command(out, v->commands[k], 6);
		if (v->nsettings > 0)
			strbuf_printf(out, "    %s\n", _("Read back:"));
		for (size_t k = 0; k < v->nsettings; k++) {
			strbuf_add(out, "      ");
			report_wrap(out, v->settings[k], 6, 10, W);
		}
	}
}

/* One test: a line per row with a figure, then the answers. */
static void
test_block(const struct report *s, size_t k, size_t nw, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	const struct compare_col *col = &c->cols[k];
	char *t = xasprintf("%s: %s (%s, %s)", col->workload, col->label,
	    wl_unit_name(col->unit),
	    col->lower_better ? _("lower is better") : _("higher is better"));

	strbuf_add(out, "\n");
	report_wrap(out, t, 0, 4, W);
	free(t);
	if (col->apart != NULL) {
		strbuf_add(out, "  ");
		report_wrap(out, col->apart, 2, 4, W);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = compare_cell(c, i, k);
		char cell[96], ch[96], *name, *line, *a;

		if (x->n == 0 && x->failed == 0)
			continue;
		a = report_row_name(s, i);
		name = ascii(a);
		free(a);
		a = ascii(report_cell_text(s, i, k, cell, sizeof cell));
		report_change_text(s, i, k, ch, sizeof ch);
		/* Cut to nw: a longer name is named in full above. */
		line = xasprintf("%c %-*.*s %16s %3zu  ",
		    col->best == i ? '*' : ' ', (int)nw, (int)nw, name, a,
		    x->n);
		free(a);
		strbuf_printf(out, "  %s", line);
		report_wrap(out, ch, strlen(line) + 2, nw + 26, W);
		free(line);
		free(name);
	}
	if ((t = report_wamp_note(s, k)) != NULL) {
		strbuf_add(out, "  ");
		report_wrap(out, t, 2, 4, W);
		free(t);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		char *a = compare_answer_bare(c, i, k);

		if (a != NULL) {
			strbuf_add(out, "  ");
			report_wrap(out, a, 2, 4, W);
		}
		free(a);
	}
	/* Each sample's reasons once, not again in every answer on it. */
	for (size_t i = 0; i < c->nrows; i++) {
		char *m = compare_marks_text(c, i, k);

		if (m[0] != '\0') {
			char *name = report_row_name(s, i);
			char *t2 = xasprintf("! %s: %s", name, m);

			strbuf_add(out, "  ");
			report_wrap(out, t2, 2, 4, W);
			free(t2);
			free(name);
		}
		free(m);
	}
}

static void
results(const struct report *s, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	size_t nw = 8;
	char *t;

	for (size_t i = 0; i < c->nrows; i++) {
		char *r = report_row_name(s, i), *n = ascii(r);

		if (strlen(n) > nw)
			nw = strlen(n);
		free(n);
		free(r);
	}
	if (nw > 24)
		nw = 24;
	heading(out, _("Results"));
	if (c->baseline != COMPARE_NONE) {
		char *b = report_row_name(s, c->baseline), conf[16];

		t = xasprintf(_("Each figure is the mean of n repeats with "
				"where the 95%% confidence interval of their "
				"geometric mean ends, in %% of the mean (on "
				"the log scale: never below 0); the change is "
				"against %s, with the half-width of its %s%% "
				"interval, then its verdict: better or worse, "
				"the same within the margin, or can't tell. * "
				"a proven best; ! an unstable sample."),
		    b, compare_conf_text(c->conf_shown, conf, sizeof conf));
		free(b);
	} else {
		/* xgettext:no-c-format */
		t = xstrdup(_("Each figure is the mean of n repeats with where "
			      "the 95% confidence interval of their geometric "
			      "mean ends, in % of the mean (on the log scale: "
			      "never below 0). * a proven best; ! an unstable "
			      "sample."));
	}
	report_wrap(out, t, 0, 0, W);
	free(t);
	for (size_t k = 0; k < c->ncols; k++)
		test_block(s, k, nw, out);
}

/* ------------------------------------------------------------ summary */

/* "  - TEXT", wrapped under the text. */
static void
bullet(struct strbuf *out, const char *text)
{
	strbuf_add(out, "  - ");
	report_wrap(out, text, 4, 6, W);
}

/* A fleet's combined answers first: whether a change holds on every
   host is the answer a fleet was run for. */
static void
fleet(const struct report *s, struct strbuf *out)
{
	char **v, *m;
	size_t n;

	report_fleet(s, &v, &n, &m);
	if (n > 0)
		strbuf_printf(out, "%s\n",
		    _("Over the hosts, the host as a block:"));
	for (size_t i = 0; i < n; i++)
		bullet(out, v[i]);
	if (m != NULL)
		field(out, 0, _("How the hosts were judged"), m);
	report_strv_free(v, n);
	free(m);
}

/* Each variant over every test: its summary line. */
static void
overall(const struct report *s, struct strbuf *out)
{
	bool head = false;

	for (size_t i = 0; i < s->cmp.nrows; i++) {
		char *t = compare_summary_text(&s->cmp, i);

		if (t == NULL)
			continue;
		if (!head)
			strbuf_printf(out, "%s\n", _("Over all tests:"));
		head = true;
		bullet(out, t);
		free(t);
	}
	if (head)
		strbuf_printf(out, "%s\n", _("Per test:"));
}

/* The answer of test k in one line (wrapped): each variant's verdict. */
static void
answer_line(const struct report *s, size_t k, struct strbuf *out)
{
	char *name = report_test_name(s, k);
	struct strbuf b;
	size_t said = 0;

	strbuf_init(&b);
	strbuf_printf(&b, "%s: ", name);
	free(name);
	for (size_t i = 0; i < s->cmp.nrows; i++) {
		if (!report_judged(s, i, k))
			continue;
		if (said++ > 0)
			strbuf_add(&b, "; ");
		report_verdict_words(s, i, k, &b);
	}
	if (said == 0)
		strbuf_add(&b, report_nothing_judged(s));
	bullet(out, b.s);
	strbuf_done(&b);
}

/* How the verdicts were reached, once for every answer. */
static void
method(const struct report *s, struct strbuf *out)
{
	char *m = compare_method_text(&s->cmp);
	char *t = xasprintf(_("%s. ! marks an unstable sample: its reasons "
			      "are under its test in Results."),
	    m);

	field(out, 0, _("How it was judged"), t);
	free(t);
	free(m);
}

/* What has no figure to judge: variants not measured, tests too fast. */
static void
not_measured(const struct report *s, struct strbuf *out)
{
	char **v;
	size_t n;

	report_unmeasured(s, &v, &n);
	if (n > 0)
		heading(out, _("Could not be measured"));
	for (size_t i = 0; i < n; i++)
		bullet(out, v[i]);
	report_strv_free(v, n);
}

static void
caveats(const struct report *s, struct strbuf *out)
{
	if (s->ncaveats == 0)
		return;
	heading(out, _("Caveats"));
	for (size_t i = 0; i < s->ncaveats; i++)
		bullet(out, s->caveats[i]);
}

/* ------------------------------------------------------------ lab text */

/*
 * Where to break a lab line longer than W: the last space inside a
 * string (the literal is closed there and reopened on the next line) or
 * the last ", " outside one; 0: nowhere.
 */
static size_t
lab_break(const char *l, bool *in_string)
{
	size_t best = 0;
	bool str = false, best_str = false;

	for (size_t i = 0; l[i] != '\0' && i < W - 1; i++) {
		if (str && l[i] == '\\' && l[i + 1] != '\0') {
			i++;
			continue;
		}
		if (l[i] == '"') {
			str = !str;
			continue;
		}
		if (!str && l[i] == '#')
			break;
		if ((str && l[i] == ' ' && i < W - 2) ||
		    (!str && l[i] == ',' && l[i + 1] == ' ')) {
			best = i + 1;
			best_str = str;
		}
	}
	*in_string = best_str;
	return best;
}

static void
lab_line(struct strbuf *out, const char *l)
{
	size_t ind = strspn(l, " ");

	if (l[ind] == '#') {
		strbuf_printf(out, "%.*s", (int)ind + 2, l);
		report_wrap(out, l + ind + (l[ind + 1] == ' ' ? 2 : 1), ind + 2,
		    ind + 2, W);
		return;
	}
	while (strlen(l) > W) {
		bool str;
		size_t cut = lab_break(l, &str);

		if (cut == 0)
			break;
		if (str)
			strbuf_printf(out, "%.*s\"\n%*s\"", (int)cut, l,
			    (int)ind + 4, "");
		else
			strbuf_printf(out, "%.*s\n%*s", (int)cut, l,
			    (int)ind + 4, "");
		l += cut;
		if (!str)
			l += strspn(l, " ");
	}
	strbuf_printf(out, "%s\n", l);
}

static void
lab_files(const struct report *s, struct strbuf *out)
{
	for (size_t i = 0; i < s->nrecs; i++) {
		char *t, *a, *p;

		if (s->r[i].lab_text == NULL)
			continue;
		t = xasprintf(_("The lab of #%zu, as it ran"), i + 1);
		heading(out, t);
		free(t);
		report_wrap(out,
		    _("Save the lines between the scissors as a file and run "
		      "it with 'raidlab run FILE' (see raidlab.lab(5))."),
		    0, 0, W);
		strbuf_add(out, "-- 8< --\n");
		a = ascii(s->r[i].lab_text);
		for (p = a; *p != '\0';) {
			char *e = strchr(p, '\n');

			if (e != NULL)
				*e = '\0';
			lab_line(out, p);
			if (e == NULL)
				break;
			p = e + 1;
		}
		strbuf_add(out, "-- >8 --\n");
		free(a);
	}
}

static void
body(const struct report *s, struct strbuf *out)
{
	char *t = xasprintf(_("raidlab report: %s"),
	    s->nrecs > 0 && s->r[0].lab ? s->r[0].lab : _("results"));
	char *a = ascii(t);
	size_t n = strlen(a);

	report_wrap(out, t, 0, 0, W);
	for (size_t i = 0; i < (n < W ? n : W); i++)
		strbuf_add(out, "=");
	strbuf_add(out, "\n");
	free(a);
	free(t);
	/* The answer, then the evidence: a reader stops after the first. */
	if (one_question(s))
		field(out, 0, _("The question"), s->r[0].question);
	heading(out, _("The answer"));
	fleet(s, out);
	overall(s, out);
	for (size_t k = 0; k < s->cmp.ncols; k++)
		answer_line(s, k, out);
	method(s, out);
	not_measured(s, out);
	caveats(s, out);
	records(s, out);
	disks(s, out);
	variants(s, out);
	results(s, out);
	report_lat_text(s, out);
	lab_files(s, out);
}

void
report_text(const struct report *s, struct strbuf *out)
{
	struct strbuf b;
	char *t, *a;

	strbuf_init(&b);
	strbuf_add(&b, "");
	body(s, &b);
	/* The few lines written past report_wrap() (a test's heading, a
	   line of figures) in ASCII too: the whole mail is. */
	t = strbuf_take(&b);
	a = ascii(t);
	strbuf_add(out, a);
	free(a);
	free(t);
}
