/*
 * raidlab complete WHAT [ARG...]: the words shell completion offers, one
 * a line on stdout, read from the tables the parser and the loader use
 * themselves (cli_table[], each command's struct cli_opt, the presets'
 * directory, the lab's own names), so that the completion script
 * (data/bash-completion/raidlab) lists no command, option or name of
 * its own and cannot drift from the program, as git's
 * --git-completion-helper. It reads files only: no disk is probed,
 * nothing is written, no root is needed. Hidden from raidlab --help's
 * list: plumbing, documented in raidlab(1). Main thread.
 */
#include "config.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "base/xalloc.h"
#include "cli.h"
#include "figures/stats.h"
#include "lab/lab.h"
#include "results/import.h"

static void
complete_more(FILE *fp)
{
	fputs(_("\nWHAT is one of:\n"
		"  commands                the subcommands\n"
		"  options COMMAND         COMMAND's options, one a line: its\n"
		"                          letter (or -), long name and "
		"argument (or -)\n"
		"  operands COMMAND        the operands of COMMAND's usage\n"
		"                          (LAB, RESULT...: ... repeats)\n"
		"  values COMMAND OPTION   the fixed choices of OPTION's "
		"argument\n"
		"  labs                    the presets' and your labs' names\n"
		"  variants LAB            the names of LAB's variants\n"
		"  workloads LAB           the names of LAB's workloads\n"
		"\nFor shell completion (see COMPLETION in raidlab(1)). It "
		"reads files\nonly, never a disk, and needs no root. A lab "
		"that does not load is\nsaid as 'raidlab check' says it, "
		"and no name is printed.\n"),
	    fp);
}

static const struct cli_cmd *
command_find(const char *name)
{
	for (const struct cli_cmd *const *c = cli_table; *c != NULL; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	cli_error(&cli_complete, _("unknown command '%s'"), name);
	return NULL;
}

static int
list_commands(char **args)
{
	(void)args;
	for (const struct cli_cmd *const *c = cli_table; *c != NULL; c++)
		if (!(*c)->hidden)
			printf("%s\n", (*c)->name);
	return CLI_OK;
}

static int
list_options(char **args)
{
	const struct cli_cmd *cmd = command_find(args[0]);
	const struct cli_opt *v[CLI_OPTS_MAX];
	size_t n;

	if (cmd == NULL)
		return CLI_USAGE;
	n = cli_opts(cmd, v);
	for (size_t i = 0; i < n; i++) {
		if (v[i]->ch < CLI_OPT_LONG)
			printf("-%c", v[i]->ch);
		else
			putchar('-');
		printf(" --%s %s\n", v[i]->name, v[i]->arg ? v[i]->arg : "-");
	}
	return CLI_OK;
}

/* The operands of cmd's usage, one a line, as written there without
   their brackets ("LAB", "RESULT...": "..." repeats): the usage with
   every bracketed group that starts with an option left out. */
static int
list_operands(char **args)
{
	const struct cli_cmd *cmd = command_find(args[0]);
	const char *p;
	size_t k;

	if (cmd == NULL)
		return CLI_USAGE;
	for (p = cmd->args; *p != '\0'; p += k) {
		if (p[0] == '[' && p[1] == '-') {
			k = strcspn(p, "]");
			k += p[k] == ']';
			continue;
		}
		k = strcspn(p, "[] |");
		if (k > 0)
			printf("%.*s\n", (int)k, p);
		else
			k = 1;
	}
	return CLI_OK;
}

/* The i-th choice of an argument, NULL past the last. */
typedef const char *(*choice_fn)(size_t i);

static const char *
test_choice(size_t i)
{
	return i < STATS_TEST__COUNT ? stats_test_key((enum stats_test)i)
				     : NULL;
}

static const char *
format_choice(size_t i)
{
	/* import_formats[] ends with NULL: stop there. */
	for (size_t k = 0; import_formats[k] != NULL; k++)
		if (k == i)
			return import_formats[k]->name;
	return NULL;
}

/* Arguments with fixed choices, by the name the option table gives the
   argument: every option taking a TEST takes the same tests. */
static const struct {
	const char *arg;
	choice_fn choice;
} choices[] = {
	{ "TEST", test_choice },
	{ "FORMAT", format_choice },
};

/* OPTION as its long name ("test"), or after "--" as "-t" or "--test". */
static const struct cli_opt *
option_find(const struct cli_cmd *cmd, const char *word)
{
	const struct cli_opt *v[CLI_OPTS_MAX];
	size_t n = cli_opts(cmd, v);
	const char *w = word + strspn(word, "-");

	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i]->name, w) == 0 ||
		    (word[0] == '-' && word[1] != '-' && w[0] != '\0' &&
			w[1] == '\0' && v[i]->ch == (unsigned char)w[0]))
			return v[i];
	cli_error(&cli_complete, _("%s has no option '%s'"), cmd->name, word);
	return NULL;
}

static int
list_values(char **args)
{
	const struct cli_cmd *cmd = command_find(args[0]);
	const struct cli_opt *o = cmd ? option_find(cmd, args[1]) : NULL;

	if (o == NULL)
		return CLI_USAGE;
	for (size_t k = 0;
	     o->arg != NULL && k < sizeof choices / sizeof *choices; k++) {
		if (strcmp(choices[k].arg, o->arg) != 0)
			continue;
		for (size_t i = 0; choices[k].choice(i) != NULL; i++)
			printf("%s\n", choices[k].choice(i));
	}
	return CLI_OK;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the labs in dir (NAME.cfg) appended to *v. */
static void
add_labs(const char *dir, char ***v, size_t *n)
{
	DIR *d = dir != NULL ? opendir(dir) : NULL;
	struct dirent *de;
	size_t len;

	while (d != NULL && (de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 5 ||
		    strcmp(de->d_name + len - 4, ".cfg") != 0)
			continue;
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		(*v)[(*n)++] = xasprintf("%.*s", (int)(len - 4), de->d_name);
	}
	if (d != NULL)
		closedir(d);
}

/* What paths_find_lab() takes as a name: the user's labs and the
   presets, sorted, each name once (a user's lab shadows a preset). */
static int
list_labs(char **args)
{
	char *mine = paths_user_labs(), *presets = paths_presets();
	char **v = NULL;
	size_t n = 0;

	(void)args;
	add_labs(mine, &v, &n);
	add_labs(presets, &v, &n);
	if (n > 1)
		qsort(v, n, sizeof *v, str_cmp);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			cli_printf("%s\n", v[i]);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(mine);
	free(presets);
	return CLI_OK;
}

/* The names of LAB's variants or workloads, as run's -v and -w match
   them; a lab that does not load prints its errors and no name. */
static int
list_names(const char *arg, bool variants)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	char *path = paths_lab(arg);
	struct lab *lab = NULL;
	struct errlist errs;
	int rc = CLI_OK;

	errlist_init(&errs);
	if (lab_load(path, &lab, &errs) < 0) {
		errlist_sort(&errs);
		for (size_t i = 0; i < errs.n; i++)
			cli_fprintf(stderr, "%s\n",
			    err_format(&errs.v[i], buf, sizeof buf));
		rc = CLI_USAGE;
	} else if (variants) {
		for (size_t i = 0; i < lab->nvariants; i++)
			if (lab->variants[i].name != NULL)
				cli_printf("%s\n", lab->variants[i].name);
	} else {
		for (size_t i = 0; i < lab->nworkloads; i++)
			cli_printf("%s\n",
			    lab_workload_name(&lab->workloads[i]));
	}
	lab_free(lab);
	errlist_done(&errs);
	free(path);
	return rc;
}

static int
list_variants(char **args)
{
	return list_names(args[0], true);
}

static int
list_workloads(char **args)
{
	return list_names(args[0], false);
}

/* WHAT, the number of operands it takes after it, and what prints its
   words (given those operands). */
static const struct {
	const char *what;
	int nargs;
	int (*list)(char **args);
} whats[] = {
	{ "commands", 0, list_commands },
	{ "options", 1, list_options },
	{ "operands", 1, list_operands },
	{ "values", 2, list_values },
	{ "labs", 0, list_labs },
	{ "variants", 1, list_variants },
	{ "workloads", 1, list_workloads },
};

static int
complete_exec(int argc, char **argv)
{
	int ch, rc;

	/* No options but --help: an OPTION operand follows "--". */
	if ((ch = cli_getopt(&cli_complete, argc, argv)) != -1)
		return ch == CLI_GETOPT_HELP ? CLI_OK : CLI_USAGE;
	if (optind >= argc) {
		cli_error(&cli_complete, _("no WHAT given"));
		cli_try_help(&cli_complete);
		return CLI_USAGE;
	}
	for (size_t k = 0; k < sizeof whats / sizeof *whats; k++) {
		if (strcmp(whats[k].what, argv[optind]) != 0)
			continue;
		if (argc - optind - 1 != whats[k].nargs) {
			/* TRANSLATORS: %s is a WHAT of raidlab complete. */
			cli_error(&cli_complete,
			    _("%s: wrong number of arguments"), whats[k].what);
			cli_try_help(&cli_complete);
			return CLI_USAGE;
		}
		rc = whats[k].list(argv + optind + 1);
		fflush(stdout);
		return rc;
	}
	cli_error(&cli_complete, _("unknown WHAT '%s'"), argv[optind]);
	cli_try_help(&cli_complete);
	return CLI_USAGE;
}

const struct cli_cmd cli_complete = {
	.name = "complete",
	.args = "WHAT [ARG...]",
	.summary = N_("print the words shell completion offers, one a line"),
	.more = complete_more,
	.exec = complete_exec,
	.hidden = true,
};
