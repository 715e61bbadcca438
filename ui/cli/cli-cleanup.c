/*
 * raidlab cleanup [--force]: undo what killed raidlab runs left behind
 * (mounts, md arrays, loop devices, scratch files), as recorded in the
 * state journals ($RAIDLAB_STATE_DIR, default /run/raidlab). Prints a line
 * per action, or "nothing to clean up". Exit 0, 1 when something could not
 * be undone, 2 on bad usage. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "base/i18n.h"
#include "build/statej.h"
#include "cli.h"

static const struct cli_opt cleanup_options[] = {
	{ 'f', "force", NULL,
	    N_("also undo the objects of raidlab processes that are\nstill "
	       "running") },
	{ 0, NULL, NULL, NULL },
};

static void
cleanup_more(FILE *fp)
{
	fprintf(fp,
	    _("\nEvery object raidlab creates is recorded in a state journal "
	      "(under\n%s, or $RAIDLAB_STATE_DIR) before it exists. cleanup "
	      "undoes,\nnewest first, the objects of raidlab processes that "
	      "are gone.\n"),
	    STATEJ_DIR_DEFAULT);
}

/* Print one action as it happens. */
static void
print_line(void *arg, const char *line)
{
	bool *said = arg;

	*said = true;
	cli_printf("%s\n", line);
	fflush(stdout);
}

static int
cleanup_exec(int argc, char **argv)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	bool force = false, said = false;
	struct err e;
	int ch;

	while ((ch = cli_getopt(&cli_cleanup, argc, argv)) != -1) {
		switch (ch) {
		case CLI_GETOPT_HELP:
			return CLI_OK;
		case 'f':
			force = true;
			break;
		default:
			return CLI_USAGE;
		}
	}
	if (optind < argc) {
		cli_error(&cli_cleanup, _("unexpected argument '%s'"),
		    argv[optind]);
		cli_try_help(&cli_cleanup);
		return CLI_USAGE;
	}
	err_clear(&e);
	if (statej_cleanup(force, print_line, &said, &e) < 0) {
		cli_error(&cli_cleanup, "%s", err_format(&e, b, sizeof b));
		return CLI_FAIL;
	}
	if (!said)
		printf(_("nothing to clean up\n"));
	return CLI_OK;
}

const struct cli_cmd cli_cleanup = {
	.name = "cleanup",
	.args = "[--force]",
	.summary = N_("undo what killed runs left behind (mounts, arrays, "
		      "loop devices, scratch files)"),
	.opts = cleanup_options,
	.more = cleanup_more,
	.exec = cleanup_exec,
};
