/*
 * The tests some workloads write into a result, with their keys, for
 * code outside the workload that must name them exactly as the workload
 * does: raidlab import sets bonnie++'s and compilebench's own figures
 * beside raidlab's runs of them. The keys are stable, as result records
 * store them. Read-only tables; any thread.
 */
#ifndef RAIDLAB_WL_KEYS_H
#define RAIDLAB_WL_KEYS_H

#include "result.h"

/* bonnie's tests (wl-bonnie.c), in bonnie++'s order (and its CSV's). */
enum bonnie_test {
	BT_PUTC, /* Sequential Output, Per Chr */
	BT_PUT_BLOCK, /* Sequential Output, Block */
	BT_REWRITE, /* Sequential Output, Rewrite */
	BT_GETC, /* Sequential Input, Per Chr */
	BT_GET_BLOCK, /* Sequential Input, Block */
	BT_SEEKS, /* Random Seeks */
	BT_SEQ_CREATE,
	BT_SEQ_STAT, /* "Read" */
	BT_SEQ_DEL,
	BT_RAN_CREATE,
	BT_RAN_STAT,
	BT_RAN_DEL,
	BT__COUNT,
};

/* Stable keys of the tests (result records), by enum bonnie_test. */
extern const char *const bonnie_keys[BT__COUNT];
/* Their labels without the spec: "Block write" (untranslated). */
extern const char *const bonnie_names[BT__COUNT];

/* compilebench's tests (wl-compilebench.c): one per operation, the key
   naming its phase. */
enum cb_phase {
	CB_INITIAL,
	CB_CREATE,
	CB_PATCH,
	CB_COMPILE,
	CB_CLEAN,
	CB_READ_TREE,
	CB_READ_COMPILED,
	CB_DELETE_TREE,
	CB_DELETE_COMPILED,
	CB_STAT_TREE,
	CB_STAT_COMPILED,
	CB__COUNT,
};

struct cb_phase_info {
	const char *key; /* the test's key: "read_compiled" */
	const char *name; /* compilebench's words: "read compiled tree" */
	enum wl_unit unit; /* MiB/s, or seconds for delete and stat */
};

extern const struct cb_phase_info cb_phases[CB__COUNT];

#endif
