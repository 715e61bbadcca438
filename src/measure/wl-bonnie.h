/*
 * Internal to the bonnie workload (wl-bonnie*.c): its settings, resolved
 * from the parameters by prepare, and the two halves of the run (its
 * tests and their keys are wl-keys.h's). Driver thread, except where a
 * worker reads struct bonnie (read-only while the workers run).
 */
#ifndef RAIDLAB_WL_BONNIE_H
#define RAIDLAB_WL_BONNIE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wl-keys.h"

struct strbuf;
struct wl_result;
struct wl_run;

/*
 * bonnie++(8): a test that took less than this is shown as +++++ (the
 * rate cannot be computed accurately).
 */
#define BONNIE_MIN_TIME 0.5

/* bonnie++'s names: 7 digits and 0 to 12 random alphanumerics. */
#define BONNIE_DIGITS 7
#define BONNIE_RANDCHARS 12
#define BONNIE_NAME_MAX (BONNIE_DIGITS + BONNIE_RANDCHARS + 1)

struct bonnie {
	uint64_t size; /* bytes of the I/O file, a chunk multiple */
	uint64_t chunk;
	uint64_t char_size; /* bytes of the per-char tests; 0: skip */
	uint64_t ram; /* as assumed (-r) */
	uint64_t seeks;
	unsigned seekers;
	uint64_t files; /* files of the file tests (NUM x 1024) */
	uint64_t max_size, min_size;
	uint64_t dirs; /* 0: files in the top directory */
	bool fsync, direct;
	char *path; /* the I/O file, for messages */
	char *top; /* the file tests' directory, for messages */
	/* Their names in the run's directory (wl_run.dirfd): made and
	   opened there, never by path. */
	char *path_name, *top_name;
	char *spec_s; /* "-s SIZE:CHUNK", for the labels */
	char *spec_n; /* "-n NUM:MAX:MIN:DIRS" */
};

/* The I/O tests (wl-bonnie-io.c): 0 or a negative errno. */
int bonnie_io_run(struct wl_run *r, struct bonnie *b);
/* The file tests (wl-bonnie-files.c): 0 or a negative errno. */
int bonnie_files_run(struct wl_run *r, struct bonnie *b);

/* "Block write (-s 2G:8K)": label of test t (untranslated). */
char *bonnie_label(const struct bonnie *b, enum bonnie_test t);

/* bonnie++'s text table and CSV lines of n repeats (wl-bonnie-report.c). */
void
bonnie_report(const struct wl_result *const *res, size_t n, struct strbuf *out);

#endif
