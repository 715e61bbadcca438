/*
 * fio: one fio-style job: an I/O pattern at a block size over a file of
 * size (or for runtime seconds), threads jobs deep iodepth each, with
 * fio's meanings for direct, fsync=N, end_fsync and rwmixread. Schema
 * only for now. Read-only data.
 */
#include "config.h"

#include "i18n.h"
#include "workload.h"

static const char *const fio_rw[] = { "read", "write", "randread", "randwrite",
	"randrw", "rw", NULL };
static const char *const fio_engines[] = { "psync", "libaio", "io_uring",
	NULL };

static const struct param fio_params[] = {
	{ "rw", PARAM_ENUM, "read", 0, 0, fio_rw, 0, NULL,
	    N_("I/O pattern (rw=)") },
	{ "bs", PARAM_SIZE, "4K", 512, 64 << 20, NULL, 0, NULL,
	    N_("block size (bs=)") },
	{ "size", PARAM_SIZE, "1G", 4096, 0, NULL, 0, NULL,
	    N_("file size per job (size=)") },
	{ "runtime", PARAM_INT, "0", 0, 86400, NULL, 0, NULL,
	    N_("seconds to run; 0: until size is done (runtime=)") },
	{ "threads", PARAM_INT, "1", 1, 1024, NULL, 0, NULL,
	    N_("parallel jobs (numjobs=)") },
	{ "iodepth", PARAM_INT, "1", 1, 4096, NULL, 0, NULL,
	    N_("I/Os in flight per job (iodepth=)") },
	{ "ioengine", PARAM_ENUM, "psync", 0, 0, fio_engines, 0, NULL,
	    N_("how I/O is submitted (ioengine=)") },
	{ "direct", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("O_DIRECT, bypassing the page cache (direct=)") },
	{ "fsync", PARAM_INT, "0", 0, 1000000, NULL, 0, NULL,
	    N_("fsync every N writes; 0: never (fsync=)") },
	{ "end_fsync", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("fsync when the job is done, inside the timing (end_fsync=)") },
	{ "rwmixread", PARAM_INT, "50", 0, 100, NULL, 0, NULL,
	    N_("percentage of reads in randrw and rw (rwmixread=)") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

const struct workload wl_fio = {
	.name = "fio",
	.summary = N_("one fio-style job: pattern, block size, depth"),
	.params = fio_params,
};
