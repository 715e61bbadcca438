/*
 * libFuzzer target of the result-record reader: any bytes are read as a
 * record file by record_load(), the path `raidlab show` and `raidlab
 * compare` take for a file from anywhere. A record that loads is printed
 * as show prints it (header, runs, CSV) and added to a comparison table
 * whose every cell is formatted, as compare does. Its JSON as saved
 * (record_dumps()) must load again and dump to the same text; a broken
 * round trip abort()s with both texts on stderr. Built and run by
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
#include "base/strbuf.h"
#include "results/compare.h"
#include "results/record.h"
#include "results/show.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input is a file in memory: record_load() opens it by this path,
   as it opens a user's file, with no disk write per input. */
static int memfd = -1;
static char mempath[64];

static void
put_file(const void *data, size_t size)
{
	if (memfd < 0) {
		if ((memfd = memfd_create("fuzz-record", MFD_CLOEXEC)) < 0) {
			perror("fuzz-record: memfd_create");
			abort();
		}
		snprintf(mempath, sizeof mempath, "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0) < 0 ||
	    (size > 0 && pwrite(memfd, data, size, 0) != (ssize_t)size)) {
		perror("fuzz-record: writing the input");
		abort();
	}
}

/* What raidlab show and compare do with a record they could read. */
static void
use(const struct record *rec)
{
	char v[COMPARE_NUM_BUF], p[COMPARE_NUM_BUF];
	const struct compare_cell *cell;
	struct strbuf out;
	struct compare c;
	size_t r, k;

	strbuf_init(&out);
	show_header(rec, &out);
	show_runs(rec, &out);
	show_csv(rec, &out);
	strbuf_done(&out);
	compare_init(&c);
	compare_add(&c, rec, NULL);
	compare_add(&c, rec, "again");
	compare_set_baseline(&c, c.nrows > 0 ? c.nrows - 1 : COMPARE_NONE);
	for (r = 0; r < c.nrows; r++) {
		for (k = 0; k < c.ncols; k++) {
			cell = compare_cell(&c, r, k);
			compare_format_value(cell->mean, c.cols[k].unit, v,
			    sizeof v);
			compare_format_pct(cell->pct, p, sizeof p);
			(void)compare_score(&c, r, k);
		}
	}
	compare_remove_record(&c, 0);
	compare_done(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct record *rec, *again;
	char *saved, *resaved;
	struct err e;

	put_file(data, size);
	err_clear(&e);
	if (record_load(mempath, &rec, &e) < 0)
		return 0;
	use(rec);
	if ((saved = record_dumps(rec)) == NULL)
		abort();
	put_file(saved, strlen(saved));
	if (record_load(mempath, &again, &e) < 0) {
		fprintf(stderr,
		    "fuzz-record: the saved record does not load: "
		    "%s\n--- saved:\n%s\n",
		    e.msg, saved);
		abort();
	}
	if ((resaved = record_dumps(again)) == NULL)
		abort();
	if (strcmp(saved, resaved) != 0) {
		fprintf(stderr,
		    "fuzz-record: the saved record dumps to other text\n"
		    "--- saved:\n%s\n--- saved again:\n%s\n",
		    saved, resaved);
		abort();
	}
	free(resaved);
	record_free(again);
	free(saved);
	record_free(rec);
	return 0;
}
