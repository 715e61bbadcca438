/*
 * bonnie: the bonnie++ 1.0x/2.00 test sequence (sequential output per
 * character, block and rewrite; sequential input; random seeks; file
 * create/stat/delete in sequential and random order), with bonnie++'s
 * option semantics: -s size:chunk, -r ram, -n files:max:min:dirs, -b, -D.
 * Schema only for now. Read-only data.
 */
#include "config.h"

#include "i18n.h"
#include "workload.h"

static const struct param bonnie_params[] = {
	{ "size", PARAM_SIZE, "auto", 1, 0, NULL, PARAM_AUTO, NULL,
	    N_("file size for the I/O tests (-s); auto: twice the RAM") },
	{ "chunk", PARAM_SIZE, "8K", 1, 64 << 20, NULL, 0, NULL,
	    N_("block size of the block and seek tests (-s SIZE:CHUNK)") },
	{ "ram", PARAM_SIZE, "auto", 1, 0, NULL, PARAM_AUTO, NULL,
	    N_("RAM to assume (-r); auto: read from the system") },
	{ "files", PARAM_INT, "16", 0, 1 << 20, NULL, 0, NULL,
	    N_("file tests: this many x 1024 files (-n); 0 skips them") },
	{ "max_size", PARAM_SIZE, "0", 0, 0, NULL, 0, NULL,
	    N_("largest file of the file tests (-n :MAX); 0: empty files") },
	{ "min_size", PARAM_SIZE, "0", 0, 0, NULL, 0, NULL,
	    N_("smallest file of the file tests (-n ::MIN)") },
	{ "dirs", PARAM_INT, "0", 0, 1 << 20, NULL, 0, NULL,
	    N_("directories the files spread over (-n :::DIRS); 0: one") },
	{ "fsync", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("fsync after every write (-b)") },
	{ "direct", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("O_DIRECT for the block tests (-D)") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

const struct workload wl_bonnie = {
	.name = "bonnie",
	.summary = N_("bonnie++: sequential, rewrite, seeks and file "
		      "create/stat/delete"),
	.params = bonnie_params,
};
