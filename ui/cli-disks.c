/* Placeholder until the disks module lands (replaced in this same change). */
#include "config.h"
#include "cli.h"
#include "i18n.h"
static int
disks_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return CLI_FAIL;
}
const struct cli_cmd cli_disks = { "disks", "", N_("placeholder"), disks_exec };
