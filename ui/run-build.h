/*
 * `raidlab run` for array variants: the checks before anything is
 * touched (every selected variant planned and guarded against one
 * inventory and the --yes-destroy list), the dry run, and building and
 * tearing down one variant with its progress on stderr. Main thread.
 */
#ifndef RAIDLAB_RUN_BUILD_H
#define RAIDLAB_RUN_BUILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "disk.h"
#include "provision.h"

struct lab;
struct record;
struct statej;

/* Set by SIGINT/SIGTERM (cli-run.c): abandon resync waits. */
extern volatile sig_atomic_t run_interrupted;

struct build_opts {
	const char *const *confirmed; /* --yes-destroy entries */
	size_t nconfirmed;
	bool dry_run;
	const char *state_dir; /* $RAIDLAB_STATE_DIR or NULL */
};

/*
 * Before anything: plan every selected array variant (sel[i] for
 * lab->variants[i]) and guard its devices against a fresh inventory
 * (left in inv) and the confirmations; print each problem. With dry_run,
 * print the plans too. Returns 0 when everything may go ahead, -EPERM
 * when something is refused, another negative errno on failure.
 */
int build_precheck(const struct lab *lab, const bool *sel,
    const struct build_opts *o, struct disk_list *inv);

/*
 * Build variant v for real: scratch disks, guards again (the disks may
 * have changed since the precheck), the plan's steps, facts. The build
 * is added to rec at once. Returns 0 with prov_target(p) mounted, or a
 * negative errno with the reason printed; call build_teardown() either
 * way once prov_init() ran (p is initialised here).
 */
int build_variant(struct prov *p, const struct lab *lab,
    const struct lab_variant *v, const struct build_opts *o, struct statej *j,
    struct disk_list *inv, struct record *rec);

/* Tear p down, print what failed; then prov_done(). Returns 0 or the
   teardown's error. */
int build_teardown(struct prov *p);

#endif
