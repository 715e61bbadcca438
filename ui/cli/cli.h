/*
 * Command-line front end: one struct cli_cmd per subcommand, each in its
 * own cli-*.c file, all listed in cli_table[] in main.c (tmux style). The
 * entry declares the whole command: its usage line, its options (struct
 * cli_opt: the parser and the Options block of --help are both made
 * from them, cli-opt.c) and the text --help ends with. A subcommand gets
 * argv with argv[0] set to its own name, reads its options with
 * cli_getopt(), and returns the process exit status:
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

/*
 * One option of a subcommand. ch is its short letter ('v'), or for an
 * option with a long name only a code from CLI_OPT_LONG up (the file's
 * own enum). --help prints it as "  -v, --variant NAME  only this
 * variant", help's lines after the first aligned under it.
 */
struct cli_opt {
	int ch;
	const char *name; /* the long name, without "--" */
	const char *arg; /* its argument in the help ("NAME"; "=DEV,..."
			    for --yes-destroy=DEV,...); NULL: it takes none */
	const char *help; /* N_(): what it does; '
' starts a new line */
};

#define CLI_OPT_LONG 0x100

struct cli_cmd {
	const char *name;
	const char *args; /* usage after the name, untranslated syntax */
	const char *summary; /* N_() one line, shown by --help */
	/* Its own options, ended by name NULL (-h, --help comes after
	   them), then a group it shares with others (cli_scale_opts);
	   both NULL: the command reads its options itself. */
	const struct cli_opt *opts;
	const struct cli_opt *shared;
	/* What --help says after the options (operands, formats); NULL:
	   nothing. */
	void (*more)(FILE *fp);
	int (*exec)(int argc, char **argv);
	/* Plumbing for scripts (complete): left out of raidlab --help's
	   list and of the commands completion offers. */
	bool hidden;
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
extern const struct cli_cmd cli_complete;

/* NULL-terminated table of every subcommand, in --help order. */
extern const struct cli_cmd *const cli_table[];

/* The interactive lab (tui.h) on lab (NULL: the default), its outcome as
   an exit status: what `raidlab tui` and a bare `raidlab` on a terminal
   return (cli-tui.c). */
int cli_tui_open(const char *lab, bool ascii, const char *ssh_config);

/* Print "Usage: raidlab NAME ARGS" and the summary of cmd to fp. */
void cli_usage(const struct cli_cmd *cmd, FILE *fp);

/* The most options a command has, -h and the shared ones included. */
#define CLI_OPTS_MAX 32

/* cmd's options into v in --help's order (its own, -h, the shared
   ones); how many. cmd->opts NULL: only -h. */
size_t cli_opts(const struct cli_cmd *cmd, const struct cli_opt **v);

/* cli_usage(), then the Options block made from cmd's options, then
   cmd->more (cli-opt.c). */
void cli_help(const struct cli_cmd *cmd, FILE *fp);

enum {
	CLI_GETOPT_HELP = -2, /* --help, printed */
	CLI_GETOPT_BAD = -3, /* an unknown option or a missing argument, said */
};

/*
 * getopt_long() over cmd's options and -h, --help: the next option's ch
 * with its argument in optarg, -1 after the last; --help prints
 * cli_help() on stdout and returns CLI_GETOPT_HELP; a bad option is said
 * (getopt's line, then cli_try_help()) and returns CLI_GETOPT_BAD.
 */
int cli_getopt(const struct cli_cmd *cmd, int argc, char **argv);

/*
 * Load the lab ARG names (paths_lab(), paths.h) and lab_check() it; print every
 * problem as "file:line: field: reason" on stderr. NULL when invalid.
 */
struct lab *cli_load_lab(const char *arg);

/*
 * The record file a RESULT argument of show, compare or report names:
 * the argument itself when it exists, has a '/' or ends in ".json";
 * else the newest record with runs of the lab of that name (a lab file
 * as paths_lab() finds it, for its own results directory and name;
 * else the name itself in the default one), said on stderr; else NULL,
 * said as "raidlab CMD: ...". Caller frees (cli-results.c).
 */
char *cli_record_path(const struct cli_cmd *cmd, const char *arg);
/* The same for compare and report, except that a lab whose newest record
   is a fleet's (fleet-run.h) gives every record of that fleet run, one
   per host. NULL (said) when there is none; *n the count. */
char **cli_record_paths(const struct cli_cmd *cmd, const char *arg, size_t *n);

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

/* cli-compare.c: why row i has no figure at all, or NULL. */
const char *cli_row_why(const struct compare *c, size_t i);
/* cli-compare-csv.c: raidlab compare --csv, a line per cell with its
   row's host; --fleet-csv, a line per host and a combined line per test
   and variant of the verdicts over the hosts. On stdout. */
void cli_compare_csv(const struct compare *c);
void cli_compare_fleet_csv(const struct compare *c);

#endif
