/* Placeholder until the check module lands (replaced in this same change). */
#include "config.h"
#include "cli.h"
#include "i18n.h"
static int
check_exec(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return CLI_FAIL;
}
const struct cli_cmd cli_check = { "check", "", N_("placeholder"), check_exec };
