/*
 * `raidlab run` for array variants, the printing side (the work is the
 * lab runner's, labrun.h): the dry run (the precheck's lines and every
 * plan, nothing changed), and the progress of a build or teardown on
 * stderr as the runner's events tell it: a line per step, resync progress
 * redrawn in place on a terminal or a line per 10% otherwise. Main
 * thread.
 */
#ifndef RAIDLAB_CLI_RUN_BUILD_H
#define RAIDLAB_CLI_RUN_BUILD_H

#include <stdbool.h>

struct lab;
struct labrun_opts;

/*
 * Check every selected array variant (labrun_check()) and print each
 * problem and, only when everything passed, the plans (stdout) and that
 * nothing was changed. Returns 0 when everything may go ahead, -ENOSPC
 * when refused with labrun_check's space_refused among the reasons,
 * -EPERM when refused otherwise, another negative errno on failure.
 */
int build_dry_run(const struct lab *lab, const struct labrun_opts *o);

struct build_progress {
	bool tty;
	bool line_open; /* a \r resync line is on the terminal */
	int decile; /* resync progress printed so far (not a terminal) */
};

void build_progress_init(struct build_progress *bp, bool tty);
/* A build or teardown step of variant starts. */
void
build_step(struct build_progress *bp, const char *variant, const char *what);
/* A resync of dev on variant: done of total sectors. */
void build_sync(struct build_progress *bp, const char *variant, const char *dev,
    unsigned long long done, unsigned long long total);
/* End an open resync line before printing something else. */
void build_close(struct build_progress *bp);

#endif
