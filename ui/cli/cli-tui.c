/*
 * raidlab tui [--ascii] [--ssh-config FILE] [LAB]: the interactive lab
 * (tui.c); --ssh-config is ssh -F for a fleet's hosts. Also what a
 * bare `raidlab` opens on a terminal. Main thread.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "base/i18n.h"
#include "cli.h"
#include "tui/tui.h"

enum { OPT_SSH_CONFIG = CLI_OPT_LONG };

static const struct cli_opt tui_options[] = {
	{ 'a', "ascii", NULL,
	    N_("draw with ASCII only (no line drawing, braille or blocks)") },
	{ OPT_SSH_CONFIG, "ssh-config", "FILE",
	    N_("ssh's configuration for a fleet's hosts (ssh -F)") },
	{ 0, NULL, NULL, NULL },
};

static void
tui_more(FILE *fp)
{
	fprintf(fp, "%s",
	    _("\nLAB is a lab file, a lab of your own or a preset's name;\n"
	      "default: the quick lab.\n"
	      "NO_COLOR in the environment turns colours off.\n"));
}

int
cli_tui_open(const char *lab, bool ascii, const char *ssh_config)
{
	int rc = tui_main(lab, ascii, ssh_config);

	/* A signal that ended it: the shell's 128 + N, as dying of it. */
	return rc > 0       ? 128 + rc
	    : rc == -EINVAL ? CLI_USAGE
	    : rc < 0        ? CLI_FAIL
			    : CLI_OK;
}

static int
tui_exec(int argc, char **argv)
{
	const char *ssh_config = NULL;
	bool ascii = false;
	int ch;

	while ((ch = cli_getopt(&cli_tui, argc, argv)) != -1) {
		switch (ch) {
		case 'a':
			ascii = true;
			break;
		case OPT_SSH_CONFIG:
			ssh_config = optarg;
			break;
		case CLI_GETOPT_HELP:
			return CLI_OK;
		default:
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
	return cli_tui_open(optind < argc ? argv[optind] : NULL, ascii,
	    ssh_config);
}

const struct cli_cmd cli_tui = {
	.name = "tui",
	.args = "[--ascii] [--ssh-config FILE] [LAB]",
	.summary = N_("open the interactive lab (what raidlab alone does on a "
		      "terminal)"),
	.opts = tui_options,
	.more = tui_more,
	.exec = tui_exec,
};
