/*
 * `raidlab run` for variants placed on hosts (cli-run-hosts.c): the
 * fleet controller followed and printed. Main thread.
 */
#ifndef RAIDLAB_CLI_RUN_HOSTS_H
#define RAIDLAB_CLI_RUN_HOSTS_H

#include <signal.h>
#include <stdbool.h>

#include "fleet/fleet-run.h"

struct lab;

/* What the CLI does besides the controller's options. */
struct cli_hosts {
	bool json; /* -j: the records as one JSON object keyed by host */
	bool dry_run; /* print each host's command, contact none */
	bool here_only; /* --disk, --csv, --hook or --keep: refused */
};

/*
 * Run lab's selected host-placed variants on their hosts (fo, with
 * fo->record set by the caller) and print what happens; selected
 * variants here among them, or o->here_only, are refused. Returns the
 * exit status: CLI_OK when every host's runs succeeded, CLI_FAIL when
 * any failed, CLI_USAGE for bad options (said), 130 after *interrupted.
 */
int cli_run_hosts(const struct lab *lab, const struct fleet_opts *fo,
    const struct cli_hosts *o, volatile sig_atomic_t *interrupted);

#endif
