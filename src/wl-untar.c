/*
 * untar: time sh -c 'tar xf linux-2.6.20.tar; sync'. Extracts a tarball
 * the user gives (libarchive), or a synthetic tree with a kernel-like
 * small-file size distribution; the final sync is inside the timing.
 * Schema only for now. Read-only data.
 */
#include "config.h"

#include "i18n.h"
#include "workload.h"

static const struct param untar_params[] = {
	{ "tarball", PARAM_STRING, NULL, 0, 0, NULL, 0, NULL,
	    N_("tar archive to extract; none: a synthetic tree") },
	{ "synthetic_files", PARAM_INT, "20000", 1, 10000000, NULL, 0, NULL,
	    N_("files in the synthetic tree (2.6.20: about 20000)") },
	{ "synthetic_size", PARAM_SIZE, "240M", 1, 0, NULL, 0, NULL,
	    N_("total bytes of the synthetic tree (2.6.20: about 240M)") },
	{ "sync", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("sync at the end, inside the timing") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

const struct workload wl_untar = {
	.name = "untar",
	.summary = N_("extract a kernel-sized tar archive, then sync"),
	.params = untar_params,
};
