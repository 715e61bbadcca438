/*
 * --scale, --set and --disk for run, plan and check: see cli-scale.h.
 * Main thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "cli-scale.h"
#include "cli.h"
#include "lab/lab-scale.h"
#include "lab/lab.h"

bool
cli_scale_is_opt(int ch)
{
	return ch == CLI_OPT_SCALE || ch == CLI_OPT_SET || ch == CLI_OPT_DISK;
}

bool
cli_scale_opt(const struct cli_cmd *cmd, int ch, const char *arg,
    struct lab_scale *s)
{
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 8];
	struct err e;
	int rc;

	err_clear(&e);
	if (ch == CLI_OPT_SCALE)
		rc = lab_scale_parse_fraction(s, arg, &e);
	else if (ch == CLI_OPT_SET)
		rc = lab_scale_add_set(s, arg, &e);
	else
		rc = lab_scale_add_disk(s, arg, &e);
	if (rc < 0)
		cli_error(cmd, "%s", err_format(&e, b, sizeof b));
	return rc == 0;
}

const struct cli_opt cli_scale_opts[] = {
	{ CLI_OPT_SCALE, "scale", "F",
	    N_("every workload's sizes and counts times F (0 < F <= 1)") },
	{ CLI_OPT_SET, "set", "W.KEY=VALUE",
	    N_("workload W's KEY is VALUE (repeatable)") },
	{ CLI_OPT_DISK, "disk", "scratch:N=DEV",
	    N_("scratch disk N is the device DEV (repeatable)") },
	{ 0, NULL, NULL, NULL },
};

struct lab *
cli_load_lab_scaled(const char *arg, struct lab_scale *s)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	char *path = paths_lab(arg);
	struct lab *lab = NULL;
	struct errlist errs;
	bool ok;

	errlist_init(&errs);
	/* the option's problems first: the lab check after them may only
	   repeat them in other words */
	ok = lab_load(path, &lab, &errs) == 0;
	if (ok && lab_scale_apply(lab, s, &errs) < 0)
		ok = false;
	else if (ok)
		ok = lab_check(lab, &errs) == 0;
	errlist_sort(&errs);
	for (size_t i = 0; i < errs.n; i++)
		cli_fprintf(stderr, "%s\n",
		    err_format(&errs.v[i], b, sizeof b));
	errlist_done(&errs);
	free(path);
	if (!ok) {
		lab_free(lab);
		return NULL;
	}
	return lab;
}

void
cli_scale_print(const struct lab_scale *s, FILE *fp)
{
	char *how = lab_scale_describe(s);

	if (how == NULL)
		return;
	fprintf(fp, _("# scaled down: %s\n"), how);
	for (size_t i = 0; i < s->nchanges; i++)
		fprintf(fp, "#   %s\n", s->changes[i]);
	if (s->nchanges == 0 && s->ndisks == 0)
		fprintf(fp, "%s", _("#   (nothing to change)\n"));
	free(how);
}

void
cli_comment_lines(FILE *fp, const char *text)
{
	while (*text != '\0') {
		size_t n = strcspn(text, "\n");

		fprintf(fp, "# %.*s\n", (int)n, text);
		text += n + (text[n] == '\n');
	}
}
