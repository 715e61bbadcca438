/*
 * libFuzzer target of `raidlab import`: any bytes are read as an input
 * file by import_file(), once with the format detected from the contents
 * and once as each of the four formats (bonnie++ CSV and text, fio JSON,
 * compilebench's summary), as -f FORMAT forces it. An input that imports
 * is renamed, made a record and saved; the record's text must load again
 * as a record (show and compare read what import writes): one that does
 * not abort()s with the text on stderr. Built and run by
 * tests/fuzz/run.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/err.h"
#include "results/import.h"
#include "results/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input is a file in memory, opened by path as a user's file is. */
static int memfd = -1;
static char mempath[64];

static void
put_file(const void *data, size_t size)
{
	if (memfd < 0) {
		if ((memfd = memfd_create("fuzz-import", MFD_CLOEXEC)) < 0) {
			perror("fuzz-import: memfd_create");
			abort();
		}
		snprintf(mempath, sizeof mempath, "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0) < 0 ||
	    (size > 0 && pwrite(memfd, data, size, 0) != (ssize_t)size)) {
		perror("fuzz-import: writing the input");
		abort();
	}
}

/* What raidlab import does with a result it could read; the record it
   writes must load. The input file is rewritten: call last. */
static void
use(struct import_result *r)
{
	struct record *rec, *again;
	struct err e;
	char *text;

	err_clear(&e);
	(void)import_rename(r, "fuzz", &e);
	err_clear(&e);
	if (import_record(r, "input", &rec, &e) < 0)
		return;
	if ((text = record_dumps(rec)) == NULL)
		abort();
	put_file(text, strlen(text));
	err_clear(&e);
	if (record_load(mempath, &again, &e) < 0) {
		fprintf(stderr,
		    "fuzz-import: the imported record does not load: %s: %s\n"
		    "--- record:\n%s\n",
		    e.field, e.msg, text);
		abort();
	}
	record_free(again);
	record_free(rec);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_result *r;
	struct err e;

	for (size_t i = 0; i == 0 || import_formats[i - 1] != NULL; i++) {
		/* i == 0: detected; then each format forced. */
		const struct import_format *fmt =
		    i ? import_formats[i - 1] : NULL;

		put_file(data, size);
		err_clear(&e);
		if (import_file(mempath, fmt, &r, &e) < 0)
			continue;
		use(r);
		import_result_free(r);
	}
	return 0;
}
