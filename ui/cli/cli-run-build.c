/*
 * Array variants in `raidlab run`, the printing side: the dry run, and
 * build progress. See cli-run-build.h. Main thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "base/i18n.h"
#include "build/provision.h"
#include "cli-run-build.h"
#include "cli-scale.h"
#include "cli.h"
#include "lab/lab.h"
#include "run/labrun.h"

int
build_dry_run(const struct lab *lab, const struct labrun_opts *o)
{
	struct labrun_check c;
	int rc = labrun_check(lab, o, &c);
	/* Selected variants the checks let through that cannot build on
	   this kernel (md without the md driver): they will fail. */
	size_t nsel = 0,
	       nfail = o->target != NULL
	    ? 0
	    : prov_md_missing(lab, o->variants, &nsel, NULL);

	for (size_t i = 0; i < c.nmsgs; i++)
		cli_fprintf(stderr, "raidlab run: %s\n", c.msgs[i].text);
	/* A plan is shown only when it could run: a refused one would list
	   commands (wipefs --all /dev/vda) that will never be run. */
	if (rc == 0) {
		if (c.rounds != NULL)
			cli_comment_lines(stdout, c.rounds);
		cli_puts(c.plans, stdout);
		/* Allowed is not the same as working: say what will fail. */
		if (nfail > 0)
			fprintf(stderr,
			    ngettext("raidlab run: dry run: the checks passed, "
				     "but %zu of %zu variants will fail on "
				     "this machine (see above); nothing was "
				     "changed\n",
				"raidlab run: dry run: the checks passed, "
				"but %zu of %zu variants will fail on this "
				"machine (see above); nothing was changed\n",
				nfail),
			    nfail, nsel);
		else
			fprintf(stderr,
			    _("raidlab run: dry run: every check passed; "
			      "nothing was changed\n"));
	} else if (c.plans[0] != '\0') {
		fprintf(stderr,
		    _("raidlab run: dry run: no plan is shown while something "
		      "is refused\n"));
	}
	if (c.space_refused)
		rc = -ENOSPC;
	labrun_check_done(&c);
	return rc;
}

void
build_progress_init(struct build_progress *bp, bool tty)
{
	bp->tty = tty;
	bp->line_open = false;
	bp->decile = 0;
}

void
build_close(struct build_progress *bp)
{
	if (bp->line_open)
		fputc('\n', stderr);
	bp->line_open = false;
}

void
build_step(struct build_progress *bp, const char *variant, const char *what)
{
	build_close(bp);
	bp->decile = 0;
	cli_fprintf(stderr, "raidlab run: %s: %s\n", variant, what);
}

void
build_sync(struct build_progress *bp, const char *variant, const char *dev,
    unsigned long long done, unsigned long long total)
{
	double pct;

	if (total == 0)
		return;
	pct = 100.0 * (double)done / (double)total;
	if (bp->tty) {
		fprintf(stderr, _("\r  resync %s: %5.1f%%"), dev, pct);
		bp->line_open = true;
	} else if ((int)(pct / 10) > bp->decile) {
		/* a log, not a terminal: a line per 10% */
		bp->decile = (int)(pct / 10);
		cli_fprintf(stderr, _("raidlab run: %s: resync %s: %d%%\n"),
		    variant, dev, bp->decile * 10);
	}
}
