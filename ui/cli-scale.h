/*
 * The scale-down options shared by run, plan and check (lab-scale.h):
 * --scale F, --set WORKLOAD.KEY=VALUE, --disk scratch:N=DEV. A command
 * lists CLI_SCALE_OPTIONS in its getopt_long table, hands those codes to
 * cli_scale_opt(), and loads its lab with cli_load_lab_scaled(). Main
 * thread.
 */
#ifndef RAIDLAB_CLI_SCALE_H
#define RAIDLAB_CLI_SCALE_H

#include <stdbool.h>
#include <stdio.h>

struct cli_cmd;
struct lab;
struct lab_scale;

enum { CLI_OPT_SCALE = 0x200, CLI_OPT_SET, CLI_OPT_DISK };

#define CLI_SCALE_OPTIONS                                                      \
	{ "scale", required_argument, NULL, CLI_OPT_SCALE },                   \
	    { "set", required_argument, NULL, CLI_OPT_SET },                   \
	{                                                                      \
		"disk", required_argument, NULL, CLI_OPT_DISK                  \
	}

/* ch is one of ours. */
bool cli_scale_is_opt(int ch);

/* Take one of the options into s; false when its argument is bad
   (said as "raidlab CMD: --set: reason"). */
bool cli_scale_opt(const struct cli_cmd *cmd, int ch, const char *arg,
    struct lab_scale *s);

/* The options' lines for --help, translated. */
const char *cli_scale_help(void);

/*
 * As cli_load_lab(): the lab ARG names, with s applied before
 * lab_check(); every problem said on stderr ("--set: small.count:
 * expected an integer"). NULL when the lab or an option is invalid.
 */
struct lab *cli_load_lab_scaled(const char *arg, struct lab_scale *s);

/* What s changed, one "# " line each (valid in a lab file and in a plan),
   on fp; nothing when s is empty. */
void cli_scale_print(const struct lab_scale *s, FILE *fp);
/* Each line of text as a "# " line on fp (a plan's comments: rounds.h's
   rounds_describe()). */
void cli_comment_lines(FILE *fp, const char *text);

#endif
