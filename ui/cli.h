/*
 * Command-line front end: one struct cli_cmd per subcommand, each in its
 * own cli-*.c file, all listed in cli_table[] in main.c (tmux style). A
 * subcommand gets argv with argv[0] set to its own name, parses its own
 * options with getopt_long, and returns the process exit status:
 * CLI_OK, CLI_FAIL (something went wrong while doing it), CLI_USAGE
 * (bad arguments or invalid input files) or CLI_CANNOT (`check`, `plan`
 * and `run`: a valid lab that `raidlab run` refuses here, before
 * building anything, by the room check of space.h). Main thread only.
 */
#ifndef RAIDLAB_CLI_H
#define RAIDLAB_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct compare;
struct lab;

enum {
	CLI_OK = 0,
	CLI_FAIL = 1,
	CLI_USAGE = 2,
	CLI_CANNOT = 3,
};

struct cli_cmd {
	const char *name;
	const char *args; /* usage after the name, untranslated syntax */
	const char *summary; /* N_() one line, shown by --help */
	int (*exec)(int argc, char **argv);
};

extern const struct cli_cmd cli_disks;
extern const struct cli_cmd cli_check;
extern const struct cli_cmd cli_plan;
extern const struct cli_cmd cli_run;
extern const struct cli_cmd cli_show;
extern const struct cli_cmd cli_compare;
extern const struct cli_cmd cli_report;
extern const struct cli_cmd cli_results;
extern const struct cli_cmd cli_import;
extern const struct cli_cmd cli_tui;
extern const struct cli_cmd cli_cleanup;

/* NULL-terminated table of every subcommand, in --help order. */
extern const struct cli_cmd *const cli_table[];

/* Print "Usage: raidlab NAME ARGS" and the summary of cmd to fp. */
void cli_usage(const struct cli_cmd *cmd, FILE *fp);

/*
 * The lab file a command-line argument names: the path itself when it
 * exists or has a '/', else the user's own lab ARG.cfg (saved by the
 * TUI), else the preset ARG.cfg in presets_dir() (presets.h:
 * $RAIDLAB_DATADIR, the build tree, the installed data directory), else
 * ARG. Caller frees.
 */
char *cli_lab_path(const char *arg);

/*
 * Load the lab ARG names (cli_lab_path) and lab_check() it; print every
 * problem as "file:line: field: reason" on stderr. NULL when invalid.
 */
struct lab *cli_load_lab(const char *arg);

/*
 * The record file a RESULT argument of show, compare or report names:
 * the argument itself when it exists, has a '/' or ends in ".json";
 * else the newest record with runs of the lab of that name (a lab file
 * as cli_lab_path() finds it, for its own results directory and name;
 * else the name itself in the default one), said on stderr; else NULL,
 * said as "raidlab CMD: ...". Caller frees (cli-results.c).
 */
char *cli_record_path(const struct cli_cmd *cmd, const char *arg);

/*
 * Exactly one operand is left (argv[optind]); else one line says what is
 * wrong ("no LAB given", "unexpected argument 'x'") with cli_try_help():
 * false then.
 */
bool cli_one_operand(const struct cli_cmd *cmd, int argc, char **argv,
    const char *what);

/* --test and --equivalence of compare and report (cli-compare.c). */
struct cli_method {
	bool test_set, margin_set;
	int test; /* enum stats_test */
	double margin; /* percent */
};

/*
 * The argument of --test (opt 't': log, welch or rank) or --equivalence
 * (opt 'e': a percent, "2%", more than 0% and less than 100%) into m;
 * false, said in one line with cli_try_help(), when it is not one.
 */
bool cli_method_opt(const struct cli_cmd *cmd, int opt, const char *arg,
    struct cli_method *m);
/* What m sets, over the records' own method (compare_set_method()). */
void cli_method_apply(const struct cli_method *m, struct compare *c);

/* After a usage error said in one line: "Try 'raidlab NAME --help' for
   more information." on stderr (cmd NULL: raidlab --help). */
void cli_try_help(const struct cli_cmd *cmd);

/* Print "raidlab NAME: MESSAGE" to stderr, rendered as cli_puts(). */
void cli_error(const struct cli_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Write text to fp with every control character but newline and tab
 * shown as "\xHH" (textsafe.h): for output that carries names, labels
 * or record fields from outside, which must not drive the terminal.
 */
void cli_puts(const char *text, FILE *fp);
/* printf() and fprintf(), rendered as cli_puts(). */
void cli_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_fprintf(FILE *fp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
