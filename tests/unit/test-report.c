/*
 * The report's answer (report.h, report-answer.c): a lab of a baseline and
 * four variants with chosen figures, one clearly better, one the same
 * figures in another order, one too noisy to tell, one never built. The
 * cells' words are the three answers, the same in every format; every
 * report leads with the answer (the text, the Markdown and the HTML:
 * before the records and before any table), says how it was judged and
 * each caveat once, and lists what could not be measured.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "results/record.h"
#include "results/report-int.h"
#include "results/report.h"

static const char lab_text[] =
    "name = \"sharelab\";\n"
    "description = \"Which directory keeps up?\";\n"
    "repeats = 3;\n"
    "cache = \"keep\";\n"
    "variants = (\n"
    "  { name = \"base\"; directory = \"/var/tmp/raidlab-share-a\"; },\n"
    "  { name = \"up\"; directory = \"/var/tmp/raidlab-share-b\"; },\n"
    "  { name = \"same\"; directory = \"/var/tmp/raidlab-share-c\"; },\n"
    "  { name = \"vague\"; directory = \"/var/tmp/raidlab-share-d\"; },\n"
    "  { name = \"gone\"; directory = \"/var/tmp/raidlab-share-e\"; }\n"
    ");\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; counts = [100]; }\n"
    ");\n";

enum { V_BASE, V_UP, V_SAME, V_VAGUE, V_GONE };

/* Each variant's three figures, in files/s. */
static const double figures[4][3] = {
	[V_BASE] = { 1000, 1001, 1002 },
	[V_UP] = { 2000, 2001, 2002 },
	[V_SAME] = { 1001, 1002, 1000 },
	[V_VAGUE] = { 500, 1500, 1000 },
};

struct fixture {
	struct lab *lab;
	struct record *rec;
	struct report s;
};

static void
setup(struct fixture *f)
{
	struct errlist errs;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(lab_text, "sharelab.cfg", &f->lab, &errs),
	    0, "%s", errs.n ? errs.v[0].msg : "?");
	errlist_done(&errs);
	f->rec = record_new(f->lab);
	for (int v = V_BASE; v <= V_VAGUE; v++)
		for (int i = 0; i < 3; i++) {
			struct wl_result *r =
			    wl_result_new("smallfiles", "small");
			struct wl_test *t = wl_result_add_test(r, "files_100",
			    "100 files of 4K in 10 dirs", WL_UNIT_FILES_S);

			t->value = figures[v][i];
			t->wall = 1.0; /* long enough to trust */
			record_add_run(f->rec, &f->lab->variants[v], NULL,
			    &f->lab->workloads[0], i + 1, r, NULL);
			wl_result_free(r);
		}
	record_add_run(f->rec, &f->lab->variants[V_GONE], NULL,
	    &f->lab->workloads[0], 1, NULL, "not built: no md driver");
	cr_assert_eq(report_init(&f->s, &f->rec, 1, "base"), 0);
}

static void
teardown(struct fixture *f)
{
	report_done(&f->s);
	record_free(f->rec);
	lab_free(f->lab);
}

static char *
render(const struct report *s, enum report_format fmt)
{
	struct strbuf b;

	strbuf_init(&b);
	strbuf_add(&b, "");
	report_render(s, fmt, &b);
	return strbuf_take(&b);
}

/* Where needle first is in hay; -1 when nowhere. */
static long
at(const char *hay, const char *needle)
{
	const char *p = strstr(hay, needle);

	return p ? (long)(p - hay) : -1;
}

/* The text as one line: each line break and the indent after it become
   one space (a wrapped sentence reads whole). */
static char *
flat(const char *text)
{
	char *o = xmalloc(strlen(text) + 1), *q = o;

	for (const char *p = text; *p != '\0'; p++) {
		if (*p != '\n') {
			*q++ = *p;
			continue;
		}
		*q++ = ' ';
		while (p[1] == ' ')
			p++;
	}
	*q = '\0';
	return o;
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

Test(report, cells_say_the_three_answers)
{
	struct fixture f;
	char b[128];

	setup(&f);
	cr_assert_eq(compare_cell(&f.s.cmp, V_UP, 0)->verdict,
	    COMPARE_V_BETTER);
	cr_assert_eq(compare_cell(&f.s.cmp, V_SAME, 0)->verdict,
	    COMPARE_V_SAME);
	cr_assert_eq(compare_cell(&f.s.cmp, V_VAGUE, 0)->verdict,
	    COMPARE_V_UNSURE);
	/* +99.9% of the geometric mean, its interval's half-width, the word */
	report_verdict_short(&f.s.cmp, V_UP, 0, b, sizeof b);
	cr_assert(strncmp(b, "+99.9% ±", strlen("+99.9% ±")) == 0, "%s", b);
	cr_assert(strstr(b, "% better") != NULL, "%s", b);
	cr_assert_str_eq(report_verdict_short(&f.s.cmp, V_SAME, 0, b, sizeof b),
	    "same ±2%");
	report_verdict_short(&f.s.cmp, V_VAGUE, 0, b, sizeof b);
	cr_assert(strncmp(b, "can't tell -", strlen("can't tell -")) == 0, "%s",
	    b);
	cr_assert(strstr(b, "..+") != NULL, "%s", b);
	cr_assert_str_eq(report_verdict_short(&f.s.cmp, V_BASE, 0, b, sizeof b),
	    "baseline");
	cr_assert_str_eq(report_verdict_word(&f.s.cmp, V_UP, 0, b, sizeof b),
	    "better");
	cr_assert_str_eq(report_verdict_word(&f.s.cmp, V_VAGUE, 0, b, sizeof b),
	    "can't tell");
	teardown(&f);
}

Test(report, every_report_leads_with_the_answer)
{
	struct fixture f;
	char *t, *m, *h, *ft;

	setup(&f);
	t = render(&f.s, REPORT_TEXT);
	m = render(&f.s, REPORT_MARKDOWN);
	h = render(&f.s, REPORT_HTML);
	/* the text: the question, the answer, then the evidence */
	cr_assert(at(t, "The question: Which directory keeps up?") >= 0, "%s",
	    t);
	cr_assert(at(t, "\nThe answer\n") < at(t, "\nRecords\n"), "%s", t);
	ft = flat(t);
	cr_assert(at(ft, "up 99.9% faster than base (q < 0.001)") >= 0, "%s",
	    t);
	cr_assert(at(ft, "same the same as base within +-2%") >= 0, "%s", t);
	cr_assert(at(ft, "vague: can't tell against base (-") >= 0, "%s", t);
	cr_assert(at(ft, "How it was judged: ") < at(ft, " Records "));
	free(ft);
	/* Markdown: the answer before any table */
	cr_assert(at(m, "## The answer\n") >= 0, "%s", m);
	cr_assert(at(m,
		      "- **small: 100 files of 4K in 10 dirs**: up 99.9% "
		      "faster than base") < at(m, "|---"),
	    "%s", m);
	cr_assert(at(m, "How it was judged: ") < at(m, "|---"), "%s", m);
	/* HTML: the answer, each verdict in its colour, before any table */
	cr_assert(at(h, "<h2 id=\"answer\">") >= 0);
	cr_assert(at(h, "<span class=\"v-better\">up 99.9% faster") <
	    at(h, "<table"));
	cr_assert(at(h,
		      "<span class=\"v-same\">same the same as base within "
		      "±2%</span>") < at(h, "<table"));
	cr_assert(
	    at(h, "<span class=\"v-unsure\">vague: can") < at(h, "<table"));
	cr_assert(at(h, "<td class=\"v-same\">same ±2%</td>") >= 0);
	/* how it was judged, said once in each */
	cr_assert_eq(count(t, "How it was judged"), 1);
	cr_assert_eq(count(m, "How it was judged"), 1);
	cr_assert_eq(count(h, "How it was judged"), 1);
	free(t);
	free(m);
	free(h);
	teardown(&f);
}

Test(report, caveats_are_said_once)
{
	struct fixture f;
	char *h, *m;

	setup(&f);
	cr_assert_gt(f.s.ncaveats, 0);
	h = render(&f.s, REPORT_HTML);
	m = render(&f.s, REPORT_MARKDOWN);
	/* (these caveats have nothing HTML escapes) */
	for (size_t i = 0; i < f.s.ncaveats; i++) {
		cr_assert_eq(count(m, f.s.caveats[i]), 1, "%s", f.s.caveats[i]);
		cr_assert_eq(count(h, f.s.caveats[i]), 1, "%s", f.s.caveats[i]);
	}
	cr_assert_eq(count(h, "Caveats"), 1);
	free(h);
	free(m);
	teardown(&f);
}

Test(report, what_could_not_be_measured)
{
	struct fixture f;
	char **v, *t;
	size_t n;

	setup(&f);
	report_unmeasured(&f.s, &v, &n);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(v[0], "gone: not built: no md driver");
	report_strv_free(v, n);
	t = render(&f.s, REPORT_TEXT);
	cr_assert(at(t, "Could not be measured") < at(t, "\nRecords\n"));
	cr_assert(at(t, "  - gone: not built: no md driver") >= 0, "%s", t);
	free(t);
	teardown(&f);
}
