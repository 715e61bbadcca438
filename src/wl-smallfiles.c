/*
 * smallfiles: the seeds' dd loop. Write count files of size bytes, in
 * write_size pieces, spread over dirs directories (1000 files of 4 KB in
 * 10 directories of 100), then sync inside the timing; counts runs one
 * batch per entry in one directory each, to see how it scales. Schema
 * only for now. Read-only data.
 */
#include "config.h"

#include "i18n.h"
#include "workload.h"

static const struct param smallfiles_params[] = {
	{ "count", PARAM_INT, "1000", 1, 100000000, NULL, 0, "counts",
	    N_("files to write") },
	{ "counts", PARAM_INT_LIST, NULL, 1, 100000000, NULL, 0, "count",
	    N_("several batches, one result each (instead of count)") },
	{ "size", PARAM_SIZE, "4K", 0, 1LL << 30, NULL, 0, NULL,
	    N_("bytes per file") },
	{ "write_size", PARAM_SIZE, "1K", 1, 1LL << 30, NULL, 0, NULL,
	    N_("bytes per write(2), as dd bs=") },
	{ "dirs", PARAM_INT, "10", 1, 1000000, NULL, 0, NULL,
	    N_("directories the files are spread over") },
	{ "fsync", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("fsync each file before closing it") },
	{ "sync", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("sync at the end, inside the timing") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

const struct workload wl_smallfiles = {
	.name = "smallfiles",
	.summary = N_("write many small files, as a dd loop does"),
	.params = smallfiles_params,
};
