/*
 * raidlab compare [-b VARIANT] [--test=T] [--equivalence=N%] [--latency]
 * [--json|--csv] RESULT...: the Compare screen's table, headless, for
 * scripts and mails. One block per test (workload and figure), a line per
 * variant of each record: the mean and standard deviation over the repeats, how
 * many repeats, the verdict against the baseline row (better or worse with the
 * change and its interval, the same within the margin, or can't tell),
 * the stability marks and the best of the test starred; then the answer
 * for each variant in a sentence and the marks' reasons, with the rules
 * of src/results/compare.c (failed runs counted, not averaged; too-fast repeats
 * shown as bonnie++ does; stopped runs marked, never judged). Under the
 * table each variant's summary over every test, and how the verdicts were
 * reached. A variant without figures says why. --latency adds each
 * test's p50, p99 and p99.9 latency columns (compare.h) to the table, the
 * JSON and the CSV alike. --json and --csv give the same cells with full
 * precision. Exit 0, 1 when a file cannot be read as a record, 2 on bad
 * usage. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/textsafe.h"
#include "cli.h"
#include "figures/plot.h"
#include "figures/stats.h"
#include "lab/lab.h"
#include "results/compare-fleet.h"
#include "results/compare.h"
#include "results/record.h"

enum out { OUT_TEXT, OUT_JSON, OUT_CSV, OUT_FLEET_CSV };
enum { OPT_FLEET_CSV = CLI_OPT_LONG };

static const struct cli_opt compare_options[] = {
	{ 'b', "baseline", "VARIANT",
	    N_("the row the others are compared with\n(default: the first; "
	       "'none': no percentages)") },
	{ 't', "test", "TEST",
	    N_("log, welch or rank: the test of every verdict\n(default: "
	       "the baseline record's lab, else log)") },
	{ 'e', "equivalence", "N%",
	    N_("the margin within which two variants are\nthe same "
	       "(default: the lab's, else 2%)") },
	{ 'l', "latency", NULL,
	    N_("add the p50, p99 and p99.9 latency of\neach test's main "
	       "operation, compared\nacross repeats") },
	{ 'j', "json", NULL, N_("print the table as JSON") },
	{ 'c', "csv", NULL, N_("print one CSV line per cell") },
	{ OPT_FLEET_CSV, "fleet-csv", NULL,
	    N_("print the verdicts over the hosts as CSV:\na line per host "
	       "and a combined line per\ntest and variant") },
	{ 0, NULL, NULL, NULL },
};

static void
compare_more(FILE *fp)
{
	fputs(
	    _("\nRESULT is a record written by 'raidlab run' (by default\n"
	      "under ~/.local/share/raidlab/results), or a lab's name for its\n"
	      "newest record ('raidlab results' lists them). Each variant of\n"
	      "each record is a row; runs of different records are never "
	      "pooled.\n"),
	    fp);
}

static const char *
pm(void)
{
	return plot_utf8_locale() ? "±" : "+-";
}

/* "#2 " before a row's variant when there are several records. */
static void
row_name(const struct compare *c, size_t i, char *buf, size_t len)
{
	const struct compare_row *r = &c->rows[i];
	/* Escaped here, so that the columns are measured as shown. */
	char *v = textsafe_dup(r->variant, 0);

	if (compare_by_host(c)) {
		char *h = textsafe_dup(r->host, 0);

		snprintf(buf, len, "%s%s@%s", v, r->scratch ? "~" : "", h);
		free(h);
	} else if (c->nrecords > 1)
		snprintf(buf, len, "%s%s #%zu", v, r->scratch ? "~" : "",
		    r->record + 1);
	else
		snprintf(buf, len, "%s%s", v, r->scratch ? "~" : "");
	free(v);
}

/* Bytes of s beyond the columns it takes: "±" and the "µ" of "µs" are
   two bytes and one column each, so a field pads by hand. */
static int
wide(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) == 0x80;
	return n;
}

/* The figure part of a text line:
   "1621.8 ± 939.1  2 runs  +12.3% ±4.1%  cv trend". */
static void
cell_line(const struct compare *c, size_t i, size_t k, char *buf, size_t len)
{
	const struct compare_cell *x = compare_cell(c, i, k);
	const struct compare_col *col = &c->cols[k];
	char m[COMPARE_NUM_BUF], sd[COMPARE_NUM_BUF + 8], vd[64];
	char runs[64], left[96], *marks;

	if (x->n == 0) {
		snprintf(runs, sizeof runs,
		    ngettext("%zu run", "%zu runs", x->failed), x->failed);
		snprintf(buf, len, "%10s %-11s %s", _("failed"), "", runs);
		return;
	}
	snprintf(runs, sizeof runs, ngettext("%zu run", "%zu runs", x->n),
	    x->n);
	if (x->too_fast) {
		snprintf(buf, len, "%10s %-11s %-8s %s", "+++++", "", runs,
		    _("too fast to measure"));
		return;
	}
	compare_format_value(x->mean, col->unit, m, sizeof m);
	sd[0] = '\0';
	if (x->n > 1) {
		char v[COMPARE_NUM_BUF];

		snprintf(sd, sizeof sd, "%s %s", pm(),
		    compare_format_value(x->sd, col->unit, v, sizeof v));
	}
	compare_format_verdict(c, i, k, vd, sizeof vd);
	marks = compare_marks_keys(x->marks);
	/* ± is two bytes and one column: pad by hand. */
	left[0] = '\0';
	if (x->stopped > 0 && !x->interrupted)
		snprintf(left, sizeof left, _("  (%zu stopped left out)"),
		    x->stopped);
	if (x->fast > 0 && !x->too_fast)
		snprintf(left + strlen(left), sizeof left - strlen(left),
		    _("  (%zu too fast left out)"), x->fast);
	snprintf(buf, len, "%*s %s%*s %-8s %-*s %s%s%s", 10 + wide(m), m, sd,
	    11 - (int)strlen(sd) + wide(sd), "", runs, 16 + wide(vd), vd, marks,
	    x->failed > 0 ? _("  (failed runs left out)") : "", left);
	free(marks);
}

const char *
cli_row_why(const struct compare *c, size_t i)
{
	for (size_t k = 0; k < c->ncols; k++)
		if (compare_cell(c, i, k)->n > 0 ||
		    compare_cell(c, i, k)->failed > 0)
			return NULL;
	return c->rows[i].why ? c->rows[i].why : _("no figures");
}

/* A record's source line: its fields come from the record, so a newline
   in one is shown as \x0a, never as a line of its own. */
static void
print_source(const struct compare *c, const struct compare_row *r)
{
	char *src = textsafe_dup(r->source, 0);
	char *path = textsafe_dup(r->path ? r->path : "", 0);
	char *scaled = r->scaled ? textsafe_dup(r->scaled, 0) : NULL;

	cli_printf(_("#%zu  %s  %s%s%s%s\n"), r->record + 1, src, path,
	    scaled ? _("  (scaled down: ") : "", scaled ? scaled : "",
	    scaled ? ")" : "");
	free(src);
	free(path);
	free(scaled);
	if (compare_host_count(c) > 1) {
		char *h = textsafe_dup(r->host ? r->host : "?", 0);

		cli_printf(_("    host %s\n"), h);
		free(h);
	}
}

static void
print_header(const struct compare *c)
{
	char name[256];
	bool scratch = false;

	for (size_t i = 0; i < c->nrows; i++)
		scratch = scratch || c->rows[i].scratch;
	for (size_t i = 0; c->nrecords > 1 && i < c->nrows; i++)
		if (i == 0 || c->rows[i].record != c->rows[i - 1].record)
			print_source(c, &c->rows[i]);
	if (compare_scaled_differ(c))
		cli_printf("%s\n",
		    _("The records were not scaled alike (--scale, --set, "
		      "--disk): their figures do not compare."));
	else if (c->nrows > 0 && c->rows[0].scaled != NULL)
		cli_printf(_("Scaled down (%s): not full results.\n"),
		    c->rows[0].scaled);
	if (c->baseline != COMPARE_NONE) {
		row_name(c, c->baseline, name, sizeof name);
		cli_printf(_("Baseline: %s; * marks a best proven after the "
			     "correction (none where no difference is).\n"),
		    name);
	} else {
		cli_printf("%s\n",
		    _("No baseline; * marks a best proven after the correction "
		      "(none where no difference is)."));
	}
	cli_printf(_("Verdicts: +5.0%% %s1.2%% better or worse, same %s%g%% "
		     "the same within the margin, ? -7.0..+9.0%% can't tell, "
		     "! an unstable sample.\n"),
	    pm(), pm(), c->margin);
	if (scratch)
		cli_printf("%s\n",
		    _("~ scratch disks: functional, not "
		      "representative (the members share one "
		      "physical disk)."));
	for (size_t i = 0; i < c->nrows; i++) {
		const char *why = cli_row_why(c, i);

		if (why == NULL)
			continue;
		row_name(c, i, name, sizeof name);
		cli_printf(_("%s: no figures: %s\n"), name, why);
	}
}

/* After a test's rows: each variant's answer, then the marks' reasons. */
static void
print_answers(const struct compare *c, size_t k)
{
	char name[256];

	for (size_t i = 0; i < c->nrows; i++) {
		char *a = compare_answer(c, i, k);

		if (a != NULL)
			cli_printf("  %s\n", a);
		free(a);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		char *m = compare_marks_text(c, i, k);

		row_name(c, i, name, sizeof name);
		if (m[0] != '\0')
			cli_printf(_("  ! %s: %s\n"), name, m);
		free(m);
	}
}

/* Under the table: each variant over every test, and how the verdicts
   were reached. */
static void
print_foot(const struct compare *c)
{
	char *m;
	bool said = false;

	for (size_t i = 0; i < c->nrows; i++) {
		char *s = compare_summary_text(c, i);

		if (s == NULL)
			continue;
		if (!said)
			cli_printf("\n%s\n", _("Overall:"));
		said = true;
		cli_printf("  %s\n", s);
		free(s);
	}
	if (c->baseline == COMPARE_NONE)
		return;
	m = compare_method_text(c);
	cli_printf(_("%sVerdicts by %s.\n"), said ? "" : "\n", m);
	free(m);
}

/* A fleet's section of column k: per variant each host's own verdict
   against the baseline variant there, then the combined answer. */
static void
print_fleet(const struct compare *c, const struct compare_fleet *f, size_t k)
{
	bool said = false;

	for (size_t i = 0; i < f->nitems; i++) {
		const struct compare_fleet_item *it = &f->items[i];
		char *a, *v, *b;

		if (it->col != k)
			continue;
		if (!said)
			cli_printf(ngettext("  Fleet of %zu host, the host as "
					    "a block:\n",
				       "  Fleet of %zu hosts, the host as a "
				       "block:\n",
				       (unsigned long)f->nhosts),
			    f->nhosts);
		said = true;
		v = textsafe_dup(it->variant, 0);
		b = textsafe_dup(it->base, 0);
		cli_printf(_("    %s against %s on each host:\n"), v, b);
		free(v);
		free(b);
		for (size_t h = 0; h < it->nhosts; h++) {
			char *t = compare_fleet_host_text(f, c, i, h);
			char *s = textsafe_dup(t, 0);

			cli_printf("      %s\n", s);
			free(s);
			free(t);
		}
		a = compare_fleet_answer(f, c, i);
		v = textsafe_dup(a, 0);
		cli_printf("    %s\n", v);
		free(v);
		free(a);
	}
}

/* Under a write amplification column, each row's ideal ratio. */
static void
print_ideals(const struct compare *c, size_t k, int nw)
{
	char name[256];

	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = compare_cell(c, i, k);
		char *t;

		if (x->n == 0 || (t = compare_wamp_ideal_text(c, i)) == NULL)
			continue;
		row_name(c, i, name, sizeof name);
		cli_printf("    %-*s  %s\n", nw, name, t);
		free(t);
	}
}

static void
print_text(const struct compare *c)
{
	char name[256], line[512];
	struct compare_fleet f;
	int nw = 8;

	compare_fleet_build(&f, c);

	for (size_t i = 0; i < c->nrows; i++) {
		row_name(c, i, name, sizeof name);
		if ((int)strlen(name) > nw)
			nw = (int)strlen(name);
	}
	print_header(c);
	for (size_t k = 0; k < c->ncols; k++) {
		const struct compare_col *col = &c->cols[k];

		cli_printf("\n%s: %s (%s, %s)\n", col->workload, col->label,
		    wl_unit_name(col->unit),
		    col->lower_better ? _("lower is better")
				      : _("higher is better"));
		if (col->apart != NULL)
			cli_printf("  %s\n", col->apart);
		for (size_t i = 0; i < c->nrows; i++) {
			const struct compare_cell *x = compare_cell(c, i, k);

			if (x->n == 0 && x->failed == 0)
				continue; /* the variant has no such test */
			row_name(c, i, name, sizeof name);
			cell_line(c, i, k, line, sizeof line);
			for (size_t e = strlen(line);
			     e > 0 && line[e - 1] == ' ';)
				line[--e] = '\0';
			cli_printf("  %s %-*s  %s\n",
			    col->best == i ? "*" : " ", nw, name, line);
		}
		if (compare_col_is_wamp(c, k))
			print_ideals(c, k, nw);
		print_answers(c, k);
		print_fleet(c, &f, k);
	}
	print_foot(c);
	if (f.nitems > 0) {
		char *m = compare_fleet_method_text(&f);

		cli_printf("%s\n", m);
		free(m);
	}
	compare_fleet_done(&f);
}

static void
print_json(const struct compare *c)
{
	json_t *root = json_object(), *recs = json_array(),
	       *tests = json_array(), *vars = json_array();
	char *s;

	for (size_t i = 0; i < c->nrows; i++)
		if (i == 0 || c->rows[i].record != c->rows[i - 1].record)
			json_array_append_new(recs,
			    json_pack("{s:I, s:s, s:s?}", "record",
				(json_int_t)c->rows[i].record + 1, "source",
				c->rows[i].source, "path", c->rows[i].path));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];

		/* wamp_ideal: the level's write amplification, null where
		   none is defined */
		json_array_append_new(vars,
		    json_pack("{s:s, s:I, s:b, s:s?, s:o, s:o, s:s?}",
			"variant", r->variant, "record",
			(json_int_t)r->record + 1, "baseline", i == c->baseline,
			"why", cli_row_why(c, i), "summary",
			compare_summary_json(c, i), "wamp_ideal",
			isfinite(r->wamp_ideal) ? json_real(r->wamp_ideal)
						: json_null(),
			"wamp_ideal_rule", r->wamp_how));
	}
	for (size_t k = 0; k < c->ncols; k++) {
		const struct compare_col *col = &c->cols[k];
		json_t *rows = json_array();

		for (size_t i = 0; i < c->nrows; i++)
			json_array_append_new(rows, compare_cell_json(c, i, k));
		json_array_append_new(tests,
		    json_pack("{s:s?, s:s?, s:s?, s:s?, s:s, s:b, s:o, s:s?, "
			      "s:o}",
			"workload", col->workload, "type", col->type, "key",
			col->key, "label", col->label, "unit",
			wl_unit_key(col->unit), "lower_better",
			col->lower_better, "params",
			json_loads(col->params, JSON_DECODE_ANY, NULL), "apart",
			col->apart, "rows", rows));
		/* a latency column: which percentile of which operation */
		if (col->lat_q > 0) {
			json_t *t = json_array_get(tests, k);

			json_object_set_new(t, "quantile",
			    json_real(col->lat_q));
			json_object_set_new(t, "op",
			    json_string(wl_op_name((enum wl_op)col->lat_op)));
		}
	}
	json_object_set_new(root, "records", recs);
	/* the level of every cell's ci_lo and ci_hi; the method's conf is
	   that of pct_lo and pct_hi */
	json_object_set_new(root, "confidence", json_real(STATS_CONF));
	json_object_set_new(root, "test", json_string(stats_test_key(c->test)));
	json_object_set_new(root, "conf", json_real(c->conf_shown));
	json_object_set_new(root, "method", compare_method_json(c));
	json_object_set_new(root, "variants", vars);
	json_object_set_new(root, "tests", tests);
	/* only for a fleet: one host's JSON stays as it was */
	if (compare_host_count(c) > 1) {
		struct compare_fleet f;

		compare_fleet_build(&f, c);
		json_object_set_new(root, "fleet", compare_fleet_json(&f, c));
		compare_fleet_done(&f);
		for (size_t i = 0; i < c->nrows; i++)
			json_object_set_new(json_array_get(vars, i), "host",
			    c->rows[i].host ? json_string(c->rows[i].host)
					    : json_null());
	}
	if ((s = json_dumps(root, JSON_INDENT(1))) != NULL)
		printf("%s\n", s);
	free(s);
	json_decref(root);
}

bool
cli_method_opt(const struct cli_cmd *cmd, int opt, const char *arg,
    struct cli_method *m)
{
	enum stats_test t;
	int32_t milli;

	if (opt == 't') {
		if (stats_test_parse(arg, &t) < 0) {
			cli_error(cmd,
			    _("--test: '%s' is not one of: log, welch, rank"),
			    arg);
			cli_try_help(cmd);
			return false;
		}
		m->test = (int)t;
		m->test_set = true;
		return true;
	}
	if (lab_percent_parse(arg, &milli) < 0) {
		cli_error(cmd,
		    _("--equivalence: '%s' is not a percent more than 0%% and "
		      "less than 100%%, such as 2%% or 0.5%%"),
		    arg);
		cli_try_help(cmd);
		return false;
	}
	m->margin = milli / 1000.0;
	m->margin_set = true;
	return true;
}

void
cli_method_apply(const struct cli_method *m, struct compare *c)
{
	if (!m->test_set && !m->margin_set)
		return;
	compare_set_method(c, m->test_set ? (enum stats_test)m->test : c->test,
	    m->margin_set ? m->margin : c->margin);
}

/* Some run of rec has a figure. */
static bool
record_has_figures(const struct record *rec)
{
	for (size_t i = 0; i < rec->nruns; i++)
		if (rec->runs[i].res != NULL && rec->runs[i].res->ntests > 0)
			return true;
	return false;
}

/* Add the record at path; false when it cannot be read (said). */
static bool
add_record(struct compare *c, const char *path, char *b, size_t len)
{
	struct record *rec;
	struct err e;

	err_clear(&e);
	if (record_load(path, &rec, &e) < 0) {
		cli_error(&cli_compare, "%s", err_format(&e, b, len));
		return false;
	}
	compare_add(c, rec, NULL);
	if (!record_has_figures(rec))
		cli_error(&cli_compare, _("%s: no figures to compare"), path);
	record_free(rec);
	return true;
}

/* Add every record; false when one cannot be read (said). */
static bool
add_records(struct compare *c, char **paths, int n)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	bool ok = true;

	for (int i = 0; i < n; i++) {
		size_t np;
		char **ps = cli_record_paths(&cli_compare, paths[i], &np);

		ok &= ps != NULL;
		for (size_t k = 0; k < np; k++)
			ok &= add_record(c, ps[k], b, sizeof b);
		for (size_t k = 0; k < np; k++)
			free(ps[k]);
		free(ps);
	}
	return ok;
}

/* The row -b names (the first with that variant name; "none": no
   baseline); false if there is none. */
static bool
set_baseline(struct compare *c, const char *name)
{
	/* By default compare_add()'s: the first row with figures. */
	if (name == NULL)
		return true;
	if (strcmp(name, "none") == 0) {
		compare_set_baseline(c, COMPARE_NONE);
		return true;
	}
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].variant, name) == 0) {
			compare_set_baseline(c, i);
			return true;
		}
	cli_error(&cli_compare, _("no variant named %s in these records"),
	    name);
	return false;
}

static int
compare_exec(int argc, char **argv)
{
	const char *base = NULL;
	enum out out = OUT_TEXT;
	struct cli_method method = { 0 };
	struct compare c;
	bool ok, latency = false;
	int ch;

	while ((ch = cli_getopt(&cli_compare, argc, argv)) != -1) {
		switch (ch) {
		case CLI_GETOPT_HELP:
			return CLI_OK;
		case 'b':
			base = optarg;
			break;
		case 't':
		case 'e':
			if (!cli_method_opt(&cli_compare, ch, optarg, &method))
				return CLI_USAGE;
			break;
		case 'j':
		case 'c':
		case OPT_FLEET_CSV:
			if (out != OUT_TEXT) {
				cli_error(&cli_compare, "%s",
				    _("--json, --csv and --fleet-csv exclude "
				      "each other"));
				return CLI_USAGE;
			}
			out = ch == 'j' ? OUT_JSON
			    : ch == 'c' ? OUT_CSV
					: OUT_FLEET_CSV;
			break;
		case 'l':
			latency = true;
			break;
		default:
			return CLI_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error(&cli_compare, _("no result file given"));
		cli_try_help(&cli_compare);
		return CLI_USAGE;
	}
	compare_init(&c);
	/* before the records: the columns are made as they come */
	if (latency)
		compare_set_latency(&c, true);
	ok = add_records(&c, argv + optind, argc - optind);
	if (!set_baseline(&c, base)) {
		compare_done(&c);
		return CLI_USAGE;
	}
	cli_method_apply(&method, &c);
	if (out == OUT_JSON)
		print_json(&c);
	else if (out == OUT_CSV)
		cli_compare_csv(&c);
	else if (out == OUT_FLEET_CSV)
		cli_compare_fleet_csv(&c);
	else if (c.nrows > 0)
		print_text(&c);
	fflush(stdout);
	compare_done(&c);
	return ok ? CLI_OK : CLI_FAIL;
}

const struct cli_cmd cli_compare = {
	.name = "compare",
	.args = "[-b VARIANT] [-t TEST] [-e N%] [--latency] "
		"[--json|--csv|--fleet-csv] RESULT...",
	.summary = N_("compare the variants of result records, test by test"),
	.opts = compare_options,
	.more = compare_more,
	.exec = compare_exec,
};
