/*
 * A subcommand's options from its table entry (struct cli_opt, cli.h):
 * getopt_long()'s option table and short-option string, and the Options
 * block of --help, made from one list, so that what the parser takes and
 * what the help says cannot part. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "cli.h"

/* The help's option column: left parts wider than this are followed by
   two spaces instead. */
#define CLI_HELP_COL 24

static const struct cli_opt help_opt = { 'h', "help", NULL,
	N_("show this help") };

size_t
cli_opts(const struct cli_cmd *cmd, const struct cli_opt **v)
{
	size_t n = 0;

	for (const struct cli_opt *o = cmd->opts; o && o->name; o++)
		if (n < CLI_OPTS_MAX - 1)
			v[n++] = o;
	v[n++] = &help_opt;
	for (const struct cli_opt *o = cmd->shared; o && o->name; o++)
		if (n < CLI_OPTS_MAX)
			v[n++] = o;
	return n;
}

int
cli_getopt(const struct cli_cmd *cmd, int argc, char **argv)
{
	static struct option lo[CLI_OPTS_MAX + 1];
	static char so[2 * CLI_OPTS_MAX + 1];
	const struct cli_opt *v[CLI_OPTS_MAX];
	size_t n = cli_opts(cmd, v), k = 0;
	int ch;

	for (size_t i = 0; i < n; i++) {
		lo[i] = (struct option){ v[i]->name,
			v[i]->arg ? required_argument : no_argument, NULL,
			v[i]->ch };
		if (v[i]->ch < CLI_OPT_LONG) {
			so[k++] = (char)v[i]->ch;
			if (v[i]->arg)
				so[k++] = ':';
		}
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	so[k] = '\0';
	ch = getopt_long(argc, argv, so, lo, NULL);
	if (ch == 'h') {
		cli_help(cmd, stdout);
		return CLI_GETOPT_HELP;
	}
	if (ch == '?' || ch == ':') {
		cli_try_help(cmd);
		return CLI_GETOPT_BAD;
	}
	return ch;
}

/* "  -v, --variant NAME" or "      --hook PROG", into buf; its length. */
static int
left_part(const struct cli_opt *o, char *buf, size_t len)
{
	const char *arg = o->arg ? o->arg : "";
	const char *sep = o->arg && o->arg[0] != '=' ? " " : "";

	if (o->ch < CLI_OPT_LONG)
		return snprintf(buf, len, "  -%c, --%s%s%s", o->ch, o->name,
		    sep, arg);
	return snprintf(buf, len, "      --%s%s%s", o->name, sep, arg);
}

void
cli_help(const struct cli_cmd *cmd, FILE *fp)
{
	const struct cli_opt *v[CLI_OPTS_MAX];
	size_t n = cli_opts(cmd, v);
	char left[128];
	int col = 0;

	cli_usage(cmd, fp);
	for (size_t i = 0; i < n; i++) {
		int w = left_part(v[i], left, sizeof left);

		if (w <= CLI_HELP_COL && w > col)
			col = w;
	}
	col += 2;
	fputs(_("\nOptions:\n"), fp);
	for (size_t i = 0; i < n; i++) {
		const char *h = _(v[i]->help);
		int w = left_part(v[i], left, sizeof left);

		fprintf(fp, "%s%*s", left, w < col ? col - w : 2, "");
		for (;;) {
			size_t k = strcspn(h, "\n");

			fprintf(fp, "%.*s\n", (int)k, h);
			if (h[k] == '\0')
				break;
			h += k + 1;
			fprintf(fp, "%*s", col, "");
		}
	}
	if (cmd->more != NULL)
		cmd->more(fp);
}
