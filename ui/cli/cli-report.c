/*
 * raidlab report [-b VARIANT] [--test=TEST] [--equivalence=N%]
 * [--markdown|--html] [-o FILE] RESULT...:
 * the answer to share (src/results/report.h), built from the same comparison as
 * raidlab compare: plain text for a mail by default (ASCII, 72 columns),
 * Markdown, or one self-contained HTML file with charts. On stdout, or
 * replacing FILE. Exit 0, 1 when a file cannot be read as a record or
 * written, 2 on bad usage or when nothing has a figure. Main thread.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cli.h"
#include "results/compare.h"
#include "results/record.h"
#include "results/report.h"

enum { OPT_HTML = CLI_OPT_LONG };

static const struct cli_opt report_options[] = {
	{ 'b', "baseline", "VARIANT",
	    N_("the row the others are compared with\n(default: the first "
	       "with figures)") },
	{ 't', "test", "TEST",
	    N_("log, welch or rank: the test of every verdict") },
	{ 'e', "equivalence", "N%",
	    N_("the margin within which two variants are\nthe same "
	       "(default: the lab's, else 2%)") },
	{ 'm', "markdown", NULL, N_("write Markdown") },
	{ OPT_HTML, "html", NULL, N_("write one HTML file with charts") },
	{ 'o', "output", "FILE",
	    N_("write FILE (replaced atomically)\ninstead of standard "
	       "output") },
	{ 0, NULL, NULL, NULL },
};

static void
report_more(FILE *fp)
{
	fprintf(fp, "%s",
	    _("\nRESULT is a record written by 'raidlab run' or 'raidlab "
	      "import', or\na lab's name for its newest record ('raidlab "
	      "results' lists them).\nThe text report is plain ASCII within "
	      "72 columns: paste it into\na mail as it is.\n"));
}

/* Load every record (a fleet run's lab name: each host's); false when
   one cannot be read (said). *out holds *nout entries, NULL for those
   that could not be read. */
static bool
load_all(char **paths, int n, struct record ***out, int *nout)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct record **v = NULL;
	bool ok = true;
	int m = 0;

	for (int i = 0; i < n; i++) {
		size_t np;
		char **ps = cli_record_paths(&cli_report, paths[i], &np);

		ok &= ps != NULL;
		for (size_t k = 0; k < np; k++) {
			struct err e;

			v = xreallocarray(v, (size_t)m + 1, sizeof *v);
			v[m] = NULL;
			err_clear(&e);
			if (record_load(ps[k], &v[m], &e) < 0) {
				cli_error(&cli_report, "%s",
				    err_format(&e, b, sizeof b));
				ok = false;
			}
			m++;
			free(ps[k]);
		}
		free(ps);
	}
	*out = v != NULL ? v : xcalloc(1, sizeof *v);
	*nout = m;
	return ok;
}

static int
emit(const struct report *s, enum report_format f, const char *path)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct strbuf t;
	struct err e;

	if (path != NULL) {
		err_clear(&e);
		if (report_save(s, f, path, &e) < 0) {
			cli_error(&cli_report, "%s",
			    err_format(&e, b, sizeof b));
			return CLI_FAIL;
		}
		return CLI_OK;
	}
	strbuf_init(&t);
	strbuf_add(&t, "");
	report_render(s, f, &t);
	cli_puts(t.s, stdout);
	strbuf_done(&t);
	return fflush(stdout) == 0 ? CLI_OK : CLI_FAIL;
}

/* -b names a row: the first with that variant. */
static bool
has_variant(const struct report *s, const char *name)
{
	for (size_t i = 0; i < s->cmp.nrows; i++)
		if (strcmp(s->cmp.rows[i].variant, name) == 0)
			return true;
	return false;
}

static int
run(char **paths, int n, const char *base, const struct cli_method *method,
    enum report_format f, const char *out)
{
	struct record **recs;
	struct report s;
	int rc = CLI_OK, k = 0;

	if (!load_all(paths, n, &recs, &n))
		rc = CLI_FAIL;
	for (int i = 0; i < n; i++)
		if (recs[i] != NULL)
			recs[k++] = recs[i];
	if (report_init(&s, recs, (size_t)k, base) < 0) {
		cli_error(&cli_report, "%s",
		    _("nothing to report: no record has a figure"));
		rc = rc == CLI_OK ? CLI_USAGE : rc;
	} else if (base != NULL && !has_variant(&s, base)) {
		cli_error(&cli_report,
		    _("no variant named %s in these records"), base);
		rc = CLI_USAGE;
	} else if (rc == CLI_OK) {
		cli_method_apply(method, &s.cmp);
		rc = emit(&s, f, out);
	}
	report_done(&s);
	for (int i = 0; i < k; i++)
		record_free(recs[i]);
	free(recs);
	return rc;
}

static int
report_exec(int argc, char **argv)
{
	const char *base = NULL, *out = NULL;
	enum report_format f = REPORT_TEXT;
	struct cli_method method = { 0 };
	bool chosen = false;
	int ch;

	while ((ch = cli_getopt(&cli_report, argc, argv)) != -1) {
		switch (ch) {
		case 'b':
			base = optarg;
			break;
		case 't':
		case 'e':
			if (!cli_method_opt(&cli_report, ch, optarg, &method))
				return CLI_USAGE;
			break;
		case 'm':
		case OPT_HTML:
			if (chosen) {
				cli_error(&cli_report, "%s",
				    _("--markdown and --html exclude each "
				      "other"));
				return CLI_USAGE;
			}
			chosen = true;
			f = ch == 'm' ? REPORT_MARKDOWN : REPORT_HTML;
			break;
		case 'o':
			out = optarg;
			break;
		case CLI_GETOPT_HELP:
			return CLI_OK;
		default:
			return CLI_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error(&cli_report, "%s", _("no result file given"));
		cli_try_help(&cli_report);
		return CLI_USAGE;
	}
	return run(argv + optind, argc - optind, base, &method, f, out);
}

const struct cli_cmd cli_report = {
	.name = "report",
	.args = "[-b VARIANT] [-t TEST] [-e N%] [--markdown|--html] [-o FILE] "
		"RESULT...",
	.summary = N_("write the answer to share: a mail, Markdown or HTML"),
	.opts = report_options,
	.more = report_more,
	.exec = report_exec,
};
