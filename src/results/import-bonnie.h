/*
 * Internal to the bonnie++ importers (import-bonnie*.c): one table row's
 * cells and settings, parsed from CSV fields or text tokens, and how a
 * row becomes the tests of a raidlab bonnie run. Any thread.
 */
#ifndef RAIDLAB_IMPORT_BONNIE_H
#define RAIDLAB_IMPORT_BONNIE_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/wl-keys.h"

struct import_result;
struct import_run;

/* One test's figures: blank (not run), +++++ (too fast) or a rate. */
struct import_bcell {
	bool set; /* the test ran */
	bool fast; /* +++++ */
	double value; /* K/sec, /sec */
	double cpu; /* %CP; NaN when +++ or blank */
	uint64_t lat_ns; /* its Latency, 0 when not given */
};

/* A row's settings as the input states them; has_* when it does. */
struct import_bspec {
	uint64_t size, chunk, max_size, min_size;
	int64_t seeks, seekers, files, dirs;
	bool has_size, has_chunk, has_seeks, has_seekers;
	bool has_files, has_max, has_min, has_dirs;
	/* bonnie++ 1.0x: its per-char tests are stdio putc/getc over the
	   whole file, and it prints neither seeks, seekers nor (unless set)
	   the chunk: those are unknown, never 2.0x's defaults. */
	bool v1;
};

/* A figure: "5970", "109.1", "1355k", "12.5m", "+++++", "+++", "".
   k_mul: what a "k" suffix multiplies by (1 for K/sec, 1000 for /sec). */
int import_bcell_parse(const char *val, const char *cpu, double k_mul,
    struct import_bcell *c);
/* A latency: "30519us", "12ms", "3s", "" (0). */
int import_blat_parse(const char *s, uint64_t *ns);
/* "2G", "2G:8k", "64M:8k:8192:5" (a size without unit is in MiB). */
int import_bspec_s(const char *s, struct import_bspec *sp);
/* "16", "16:100:10", "16:100:10/10", "16:100:10/10:4k". */
int import_bspec_n(const char *s, struct import_bspec *sp);

/*
 * The run a row named name belongs to: the first one of that name still
 * without the tests from..to-1 (bonnie++ prints the file tests of a
 * machine in a second table), else a new one.
 */
struct import_run *import_bonnie_run(struct import_result *r, const char *name,
    enum bonnie_test from, int line);
/* Store cells[from..to-1] and the settings of sp into run. */
void import_bonnie_store(struct import_result *r, struct import_run *run,
    const struct import_bspec *sp, const struct import_bcell *cells,
    enum bonnie_test from, enum bonnie_test to);
/*
 * After parsing: runs of one machine name with the same setup (CSV lines
 * of bonnie++ -x) made repeats of one variant, other repeated names made
 * distinct (-1, -2, ...), the specs put into every label, missing filled.
 */
void import_bonnie_finish(struct import_result *r, bool latency);

#endif
