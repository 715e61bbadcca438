/*
 * compilebench: Chris Mason's aging simulation. initial trees created
 * from a kernel file list, then runs random operations (create, patch,
 * compile, clean, read, delete, stat) chosen with seed; each operation
 * drops caches first and syncs last, both inside the timing. Schema only
 * for now. Read-only data.
 */
#include "config.h"

#include "i18n.h"
#include "workload.h"

static const struct param compilebench_params[] = {
	{ "initial", PARAM_INT, "30", 1, 10000, NULL, 0, NULL,
	    N_("trees created first (-i)") },
	{ "runs", PARAM_INT, "100", 0, 1000000, NULL, 0, NULL,
	    N_("random operations after that (-r)") },
	{ "seed", PARAM_INT, "555", 0, 4294967295LL, NULL, 0, NULL,
	    N_("random seed, so that runs are comparable") },
	{ "sync", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("sync after each operation (false: --no-sync)") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

const struct workload wl_compilebench = {
	.name = "compilebench",
	.summary = N_("compilebench: create, patch, compile, read and delete "
		      "kernel trees"),
	.params = compilebench_params,
};
