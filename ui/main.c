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

#include "base/err.h"
#include "base/i18n.h"
#include "base/suggest.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "cli/cli-scale.h"
#include "cli/cli.h"
#include "lab/lab-scale.h"
#include "lab/lab.h"

const struct cli_cmd *const cli_table[] = {
	&cli_disks,
	&cli_check,
	&cli_plan,
	&cli_run,
	&cli_show,
	&cli_compare,
	&cli_report,
	&cli_results,
	&cli_import,
	&cli_cleanup,
	&cli_tui,
	&cli_complete,
	NULL,
};

void
cli_usage(const struct cli_cmd *cmd, FILE *fp)
{
	fprintf(fp, _("Usage: raidlab %s %s\n"), cmd->name, cmd->args);
	fprintf(fp, "%s\n", _(cmd->summary));
}

void
cli_try_help(const struct cli_cmd *cmd)
{
	if (cmd != NULL)
		fprintf(stderr,
		    _("Try 'raidlab %s --help' for more information.\n"),
		    cmd->name);
	else
		fputs(_("Try 'raidlab --help' for more information.\n"),
		    stderr);
}

bool
cli_one_operand(const struct cli_cmd *cmd, int argc, char **argv,
    const char *what)
{
	if (optind == argc - 1)
		return true;
	if (optind >= argc)
		/* TRANSLATORS: %s is an operand's name: LAB, RESULT. */
		cli_error(cmd, _("no %s given"), what);
	else
		cli_error(cmd, _("unexpected argument '%s'"), argv[optind + 1]);
	cli_try_help(cmd);
	return false;
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
		if (!(*c)->hidden)
			fprintf(fp, "  %s %s\n      %s\n", (*c)->name,
			    (*c)->args, _((*c)->summary));
	fprintf(fp,
	    _("\nRun 'raidlab COMMAND --help' for a command's options;"
	      " see raidlab(1)\nand raidlab.lab(5).\n"));
}

/* Run cmd with argv[0] "raidlab NAME": getopt's own messages then say
   which command the option was given to. */
static int
dispatch(const struct cli_cmd *cmd, int argc, char **argv)
{
	char *name = xasprintf("raidlab %s", cmd->name);
	int rc;

	argv[0] = name;
	/* glibc: optind 0 re-initialises getopt. */
	optind = 0;
	rc = cmd->exec(argc, argv);
	free(name);
	return rc;
}

/* One line, the likely command when the word is a typo of one, and where
   the list is: not the whole help. */
static void
unknown_command(const char *word)
{
	const char *names[sizeof cli_table / sizeof cli_table[0]];
	const char *near;
	size_t n = 0;

	for (const struct cli_cmd *const *c = cli_table; *c != NULL; c++)
		if (!(*c)->hidden)
			names[n++] = (*c)->name;
	near = suggest_nearest(word, names, n);
	if (near != NULL)
		cli_fprintf(stderr,
		    _("raidlab: unknown command '%s'; did you mean '%s'?\n"),
		    word, near);
	else
		cli_fprintf(stderr, _("raidlab: unknown command '%s'\n"), word);
	cli_try_help(NULL);
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
	/* Numbers as in the lab files, the records, CSV and the man pages,
	   whatever the language: a decimal comma would make "--scale 0.5"
	   read as 0 (strtod) and a CSV column two. */
	setlocale(LC_NUMERIC, "C");
#ifdef ENABLE_NLS
	/* RAIDLAB_LOCALEDIR: catalogues not yet installed (the tests, a
	   build tree), as RAIDLAB_DATADIR is for the presets. */
	const char *ld = getenv("RAIDLAB_LOCALEDIR");

	bindtextdomain(PACKAGE, ld != NULL && *ld != '\0' ? ld : LOCALEDIR);
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
			cli_try_help(NULL);
			return CLI_USAGE;
		}
	}
	if (optind >= argc) {
		/* On a terminal, the interactive lab; otherwise help. */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			return cli_tui_open(NULL, false, NULL);
		usage(stdout);
		return CLI_OK;
	}
	for (c = cli_table; *c != NULL; c++)
		if (strcmp((*c)->name, argv[optind]) == 0)
			return dispatch(*c, argc - optind, argv + optind);
	unknown_command(argv[optind]);
	return CLI_USAGE;
}
