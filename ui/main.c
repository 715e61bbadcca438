/*
 * Entry point: locale and gettext set-up, global options, and dispatch to
 * the subcommand named on the command line through cli_table[]. With no
 * subcommand raidlab opens the interactive lab on a terminal (tui.c) and
 * prints help otherwise.
 * Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli-scale.h"
#include "err.h"
#include "i18n.h"
#include "lab.h"
#include "lab-scale.h"
#include "presets.h"
#include "textsafe.h"
#include "tui.h"
#include "xalloc.h"

const struct cli_cmd *const cli_table[] = {
	&cli_disks,
	&cli_check,
	&cli_plan,
	&cli_run,
	&cli_show,
	&cli_compare,
	&cli_report,
	&cli_import,
	&cli_cleanup,
	&cli_tui,
	NULL,
};

void
cli_usage(const struct cli_cmd *cmd, FILE *fp)
{
	fprintf(fp, _("Usage: raidlab %s %s\n"), cmd->name, cmd->args);
	fprintf(fp, "%s\n", _(cmd->summary));
}

void
cli_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	/* Messages quote labels, names and paths from outside. */
	fprintf(stderr, "raidlab %s: ", cmd->name);
	cli_puts(msg, stderr);
	fputc('\n', stderr);
	free(msg);
}

void
cli_puts(const char *text, FILE *fp)
{
	char *t = textsafe_dup(text, TEXTSAFE_LINES);

	fputs(t, fp);
	free(t);
}

void
cli_printf(const char *fmt, ...)
{
	va_list ap;
	char *t;

	va_start(ap, fmt);
	t = xvasprintf(fmt, ap);
	va_end(ap);
	cli_puts(t, stdout);
	free(t);
}

void
cli_fprintf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	char *t;

	va_start(ap, fmt);
	t = xvasprintf(fmt, ap);
	va_end(ap);
	cli_puts(t, fp);
	free(t);
}

char *
cli_lab_path(const char *arg)
{
	char *p = presets_find(arg);

	/* Not found: lab_load() names it in its message. */
	return p != NULL ? p : xstrdup(arg);
}

struct lab *
cli_load_lab(const char *arg)
{
	struct lab_scale none;
	struct lab *lab;

	lab_scale_init(&none);
	lab = cli_load_lab_scaled(arg, &none);
	lab_scale_done(&none);
	return lab;
}

static void
usage(FILE *fp)
{
	const struct cli_cmd *const *c;

	fprintf(fp,
	    _("Usage: raidlab [--help] [--version] [COMMAND [ARGS]]\n"
	      "A terminal storage lab: compose md and btrfs arrays and "
	      "filesystems,\nbuild them on real disks and compare workloads "
	      "on them.\n\nCommands:\n"));
	for (c = cli_table; *c != NULL; c++)
		fprintf(fp, "  %s %s\n      %s\n", (*c)->name, (*c)->args,
		    _((*c)->summary));
	fprintf(fp,
	    _("\nRun 'raidlab COMMAND --help' for a command's options;"
	      " see raidlab(1)\nand raidlab.lab(5).\n"));
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cli_cmd *const *c;
	int ch;

	setlocale(LC_ALL, "");
#ifdef ENABLE_NLS
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
#endif

	/* Global options stop at the first word: the subcommand's own. */
	while ((ch = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			return CLI_OK;
		case 'V':
			printf("raidlab %s\n", PACKAGE_VERSION);
			return CLI_OK;
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (optind >= argc) {
		/* On a terminal, the interactive lab; otherwise help. */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			return tui_main(NULL, false);
		usage(stdout);
		return CLI_OK;
	}
	for (c = cli_table; *c != NULL; c++) {
		if (strcmp((*c)->name, argv[optind]) == 0) {
			int first = optind;

			/* glibc: optind 0 re-initialises getopt. */
			optind = 0;
			return (*c)->exec(argc - first, argv + first);
		}
	}
	cli_fprintf(stderr, _("raidlab: unknown command '%s'\n"), argv[optind]);
	usage(stderr);
	return CLI_USAGE;
}
