/*
 * raidlab disks [--all] [--json] [DEVICE...]: the disk inventory with one
 * verdict per device (free, has-data, busy) and why, as an lsblk-like
 * table or as JSON. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <langinfo.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "cli.h"
#include "disk/disk-json.h"
#include "disk/disk-table.h"
#include "disk/disk.h"

struct filter {
	const struct disk_list *list;
	const bool *selected; /* NULL: no DEVICE arguments */
	bool all;
};

static bool
keep_disk(const struct disk *d, void *arg)
{
	const struct filter *f = arg;

	if (f->selected != NULL)
		return f->selected[d - f->list->v];
	return f->all || !disk_is_hidden(d);
}

static const struct cli_opt disks_options[] = {
	{ 'a', "all", NULL,
	    N_("also show empty loop devices, zram and ram disks") },
	{ 'j', "json", NULL,
	    N_("print a JSON object with a \"devices\" array") },
	{ 'n', "no-probe", NULL,
	    N_("do not open the devices: sysfs only, so\nsignatures are "
	       "unknown and verdicts cautious") },
	{ 0, NULL, NULL, NULL },
};

static void
disks_more(FILE *fp)
{
	fprintf(fp, "%s",
	    _("\nVerdicts: free (no signature, unused), has-data (usable "
	      "only after\nconfirmation), busy (mounted, swap, held, holds /: "
	      "never usable).\n"));
}

/* Mark the disks named on the command line and their partitions. */
static int
select_args(struct disk_list *l, char **args, int n, bool *sel)
{
	struct err e;
	int i, rc = CLI_OK;

	for (i = 0; i < n; i++) {
		struct disk *d;
		size_t j;

		err_clear(&e);
		if (disk_list_find(l, args[i], &d, &e) < 0) {
			cli_error(&cli_disks, "%s", e.msg);
			rc = CLI_FAIL;
			continue;
		}
		sel[d - l->v] = true;
		for (j = 0; j < l->n; j++)
			if (l->v[j].parent != NULL &&
			    strcmp(l->v[j].parent, d->name) == 0)
				sel[j] = true;
	}
	return rc;
}

/* A terminal's width; 0 (never cut, as lsblk) on a pipe or a file,
   where a script or a reader wants the whole text. */
static size_t
term_width(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static void
print_table(const struct disk_list *l, struct filter *f)
{
	unsigned flags = 0;
	struct disk_table t;
	size_t i;

	if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
		flags |= DISK_TABLE_UTF8;
	disk_table_build(&t, l, keep_disk, f, term_width(), flags);
	for (i = 0; i < t.n; i++)
		printf("%s\n", t.lines[i]);
	disk_table_done(&t);
}

static int
print_json(const struct disk_list *l, struct filter *f)
{
	json_t *o = disk_list_to_json(l, keep_disk, f);
	int rc = json_dumpf(o, stdout, JSON_INDENT(2)) == 0 ? CLI_OK : CLI_FAIL;

	putchar('\n');
	json_decref(o);
	return rc;
}

static int
disks_exec(int argc, char **argv)
{
	struct filter f = { NULL, NULL, false };
	struct disk_list l;
	bool json = false, *sel = NULL;
	unsigned scan = 0;
	char buf[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;
	int ch, rc;

	while ((ch = cli_getopt(&cli_disks, argc, argv)) != -1) {
		switch (ch) {
		case 'a':
			f.all = true;
			break;
		case 'j':
			json = true;
			break;
		case 'n':
			scan |= DISK_SCAN_NO_PROBE;
			break;
		case CLI_GETOPT_HELP:
			return CLI_OK;
		default:
			return CLI_USAGE;
		}
	}
	disk_list_init(&l);
	err_clear(&e);
	if (disk_list_scan(&l, scan, &e) < 0) {
		cli_error(&cli_disks, "%s", err_format(&e, buf, sizeof buf));
		rc = CLI_FAIL;
		goto out;
	}
	f.list = &l;
	if (optind < argc) {
		f.selected = sel = xcalloc(l.n + 1, sizeof *sel);
		if ((rc = select_args(&l, argv + optind, argc - optind, sel)))
			goto out;
	}
	if (json) {
		rc = print_json(&l, &f);
	} else {
		print_table(&l, &f);
		rc = CLI_OK;
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = CLI_FAIL;
out:
	free(sel);
	disk_list_done(&l);
	return rc;
}

const struct cli_cmd cli_disks = {
	.name = "disks",
	.args = "[-ajn] [DEVICE...]",
	.summary = N_("list disks and whether each is free, has data or busy"),
	.opts = disks_options,
	.more = disks_more,
	.exec = disks_exec,
};
