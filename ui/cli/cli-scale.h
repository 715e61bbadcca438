/*
 * The scale-down options shared by run, plan and check (lab-scale.h):
 * --scale F, --set WORKLOAD.KEY=VALUE, --disk scratch:N=DEV. A command
 * shares cli_scale_opts (its cli_cmd's .shared), hands those codes to
 * cli_scale_opt(), and loads its lab with cli_load_lab_scaled(). Main
 * thread.
 */
#ifndef RAIDLAB_CLI_SCALE_H
#define RAIDLAB_CLI_SCALE_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

struct lab;
struct lab_scale;

/* Long-only: from CLI_OPT_LONG up, past any command's own codes. */
enum { CLI_OPT_SCALE = 0x200, CLI_OPT_SET, CLI_OPT_DISK };

/* The three, for a cli_cmd's .shared; ended by name NULL. */
extern const struct cli_opt cli_scale_opts[];

/* ch is one of ours. */
bool cli_scale_is_opt(int ch);

/* Take one of the options into s; false when its argument is bad
   (said as "raidlab CMD: --set: reason"). */
bool cli_scale_opt(const struct cli_cmd *cmd, int ch, const char *arg,
    struct lab_scale *s);

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
