/*
 * raidlab tui [--ascii] [LAB]: the interactive lab (tui.c). Also what a
 * bare `raidlab` opens on a terminal. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "tui.h"

static void
usage(FILE *fp)
{
	cli_usage(&cli_tui, fp);
	fprintf(fp,
	    _("\nOptions:\n"
	      "  -a, --ascii   draw with ASCII only (no line drawing, braille "
	      "or blocks)\n"
	      "  -h, --help    show this help\n\n"
	      "LAB is a lab file, a lab of your own or a preset's name;\n"
	      "default: the quick lab.\n"
	      "NO_COLOR in the environment turns colours off.\n"));
}

static int
tui_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ascii", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool ascii = false;
	int ch;

	while ((ch = getopt_long(argc, argv, "ah", opts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			ascii = true;
			break;
		case 'h':
			usage(stdout);
			return CLI_OK;
		default:
			cli_try_help(&cli_tui);
			return CLI_USAGE;
		}
	}
	if (optind < argc - 1) {
		cli_error(&cli_tui, _("unexpected argument '%s'"),
		    argv[optind + 1]);
		cli_try_help(&cli_tui);
		return CLI_USAGE;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_error(&cli_tui, "%s",
		    _("needs a terminal; for scripts use raidlab run"));
		return CLI_USAGE;
	}
	return tui_main(optind < argc ? argv[optind] : NULL, ascii);
}

const struct cli_cmd cli_tui = {
	.name = "tui",
	.args = "[--ascii] [LAB]",
	.summary = N_("open the interactive lab (what raidlab alone does on a "
		      "terminal)"),
	.exec = tui_exec,
};
