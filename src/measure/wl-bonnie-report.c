/*
 * bonnie's report: bonnie++'s two-row text table (Sequential Output,
 * Sequential Input and Random Seeks; then Sequential and Random Create),
 * each with its latency row (the longest single operation of each test,
 * as bonnie++ 1.9x prints it), one line per repeat and a mean line, then
 * the CSV lines in bonnie++'s format 1.98 (bon_csv2txt(1) reads them).
 * A test under BONNIE_MIN_TIME shows +++++, a skipped or interrupted one
 * is blank. The parameters come back from the tests' labels ("-s
 * SIZE:CHUNK:SEEKS:SEEKERS", "-n NUM:MAX:MIN:DIRS"). The thread that owns
 * the results.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "result.h"
#include "wl-bonnie.h"

#define FIELD 96

/* One test's three cells: figure, %CP, latency; "" when absent. */
struct cell {
	char val[FIELD], cpu[FIELD], lat[FIELD];
};

/* Up to 4 colon-separated sizes after "(-s " or "(-n " in label. */
static size_t
spec_parse(const char *label, const char *opt, uint64_t *v, size_t max)
{
	char buf[128], *p, *save = NULL;
	const char *s;
	size_t n = 0;

	if (label == NULL || (s = strstr(label, opt)) == NULL)
		return 0;
	snprintf(buf, sizeof buf, "%s", s + strlen(opt));
	buf[strcspn(buf, ")")] = '\0';
	for (p = strtok_r(buf, ":", &save); p != NULL && n < max;
	     p = strtok_r(NULL, ":", &save))
		if (units_parse_size(p, &v[n]) == 0)
			n++;
	return n;
}

/* bonnie++'s latency: microseconds, or ms / s once too wide. */
static void
latency_format(uint64_t ns, char *buf, size_t len)
{
	uint64_t us = ns / 1000;

	if (us < 100000)
		snprintf(buf, len, "%" PRIu64 "us", us);
	else if (us / 1000 < 100000)
		snprintf(buf, len, "%" PRIu64 "ms", us / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "s", us / 1000000);
}

/* The longest operation of a test, the final fsync left out. */
static uint64_t
test_max_latency(const struct wl_test *t)
{
	uint64_t m = 0;
	int op;

	for (op = 0; op < WL_OP__COUNT; op++)
		if (op != WL_OP_FSYNC && t->lat[op].n > 0 && t->lat[op].max > m)
			m = t->lat[op].max;
	return m;
}

static void
cell_of(const struct wl_test *t, struct cell *c)
{
	memset(c, 0, sizeof *c);
	if (t == NULL || t->interrupted)
		return;
	if (test_max_latency(t) > 0)
		latency_format(test_max_latency(t), c->lat, sizeof c->lat);
	if (t->too_fast) {
		snprintf(c->val, sizeof c->val, "+++++");
		snprintf(c->cpu, sizeof c->cpu, "+++");
		return;
	}
	snprintf(c->val, sizeof c->val,
	    t->unit == WL_UNIT_SEEKS_S ? "%.1f" : "%.0f", t->value);
	snprintf(c->cpu, sizeof c->cpu, "%.0f", wl_test_cpu_percent(t));
}

/* The mean of the repeats that have a figure; +++++ if all were fast. */
static void
cell_mean(const struct wl_result *const *res, size_t n, enum bonnie_test bt,
    struct cell *c)
{
	double v = 0, cpu = 0;
	size_t i, got = 0, fast = 0;

	memset(c, 0, sizeof *c);
	for (i = 0; i < n; i++) {
		const struct wl_test *t =
		    wl_result_test(res[i], bonnie_keys[bt]);

		if (t == NULL || t->interrupted)
			continue;
		if (t->too_fast) {
			fast++;
			continue;
		}
		v += t->value;
		cpu += wl_test_cpu_percent(t);
		got++;
	}
	if (got > 0) {
		snprintf(c->val, sizeof c->val,
		    bt == BT_SEEKS ? "%.1f" : "%.0f", v / (double)got);
		snprintf(c->cpu, sizeof c->cpu, "%.0f", cpu / (double)got);
	} else if (fast > 0) {
		snprintf(c->val, sizeof c->val, "+++++");
		snprintf(c->cpu, sizeof c->cpu, "+++");
	}
}

/* The first test of res from..to-1 that has a label, for the specs. */
static const char *
any_label(const struct wl_result *res, enum bonnie_test from,
    enum bonnie_test to)
{
	int k;

	for (k = from; k < (int)to; k++) {
		const struct wl_test *t = wl_result_test(res, bonnie_keys[k]);

		if (t != NULL)
			return t->label;
	}
	return NULL;
}

/* bonnie++'s Size: "2G", "64M". */
static void
size_field(const struct wl_result *res, char *buf, size_t len)
{
	uint64_t v[4];

	buf[0] = '\0';
	if (spec_parse(any_label(res, BT_PUTC, BT_SEQ_CREATE), "(-s ", v, 4) <
	    1)
		return;
	if (v[0] % (1ULL << 30) == 0)
		snprintf(buf, len, "%" PRIu64 "G", v[0] >> 30);
	else
		snprintf(buf, len, "%" PRIu64 "M", v[0] >> 20);
}

/* bonnie++'s files column: "16", or "16:4096:1024/4". */
static void
files_field(const struct wl_result *res, char *buf, size_t len)
{
	uint64_t v[4] = { 0, 0, 0, 0 };
	size_t n;

	buf[0] = '\0';
	n = spec_parse(any_label(res, BT_SEQ_CREATE, BT__COUNT), "(-n ", v, 4);
	if (n < 1)
		return;
	if (n < 4 || (v[1] == 0 && v[3] == 0))
		snprintf(buf, len, "%" PRIu64, v[0]);
	else if (v[1] == 0)
		snprintf(buf, len, "%" PRIu64 "/%" PRIu64, v[0], v[3]);
	else
		snprintf(buf, len,
		    "%" PRIu64 ":%" PRIu64 ":%" PRIu64 "/%" PRIu64, v[0], v[1],
		    v[2], v[3]);
}

/* "name        2G": 19 columns, as bon_csv2txt lays them out. */
static void
row_desc(struct strbuf *out, const char *name, const char *size)
{
	int w = 18 - (int)strlen(size);

	if (w < 0)
		w = 0;
	strbuf_printf(out, "%-*.*s %s", w, w, name, size);
}

static void
row(struct strbuf *out, const char *name, const char *size,
    const struct cell *c, enum bonnie_test from)
{
	int k;

	row_desc(out, name, size);
	for (k = 0; k < 6; k++)
		strbuf_printf(out, " %5s %3s", c[from + k].val,
		    c[from + k].cpu);
	strbuf_add(out, "\n");
}

static void
latency_row(struct strbuf *out, const struct cell *c, enum bonnie_test from)
{
	int k;

	strbuf_printf(out, "%-17s", _("Latency"));
	for (k = 0; k < 6; k++)
		strbuf_printf(out, " %9s", c[from + k].lat);
	strbuf_add(out, "\n");
}

static bool
has_any(const struct wl_result *const *res, size_t n, enum bonnie_test from,
    enum bonnie_test to)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (any_label(res[i], from, to) != NULL)
			return true;
	return false;
}

static void
io_table(const struct wl_result *const *res, size_t n, struct strbuf *out)
{
	struct cell c[BT__COUNT];
	char size[FIELD];
	size_t i;
	int k;

	strbuf_printf(out, "%-20s%s\n", "Version  raidlab",
	    "------Sequential Output------ --Sequential Input- --Random-");
	strbuf_printf(out, "%-20s%s\n", "",
	    "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--");
	strbuf_printf(out, "%-15s%4s %s\n", "Machine", "Size",
	    "K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP");
	for (i = 0; i < n; i++) {
		for (k = 0; k < BT__COUNT; k++)
			cell_of(wl_result_test(res[i], bonnie_keys[k]), &c[k]);
		size_field(res[i], size, sizeof size);
		row(out, res[i]->name, size, c, BT_PUTC);
		latency_row(out, c, BT_PUTC);
	}
	if (n > 1) {
		for (k = BT_PUTC; k <= BT_SEEKS; k++)
			cell_mean(res, n, (enum bonnie_test)k, &c[k]);
		size_field(res[0], size, sizeof size);
		row(out, _("mean"), size, c, BT_PUTC);
	}
}

static void
files_table(const struct wl_result *const *res, size_t n, struct strbuf *out)
{
	struct cell c[BT__COUNT];
	char files[FIELD];
	size_t i;
	int k;

	strbuf_printf(out, "%-20s%s\n", "Version  raidlab",
	    "------Sequential Create------ --------Random Create--------");
	strbuf_printf(out, "%-20s%s\n", "",
	    "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--");
	strbuf_printf(out, "%19s %s\n", "files",
	    " /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP");
	for (i = 0; i < n; i++) {
		for (k = 0; k < BT__COUNT; k++)
			cell_of(wl_result_test(res[i], bonnie_keys[k]), &c[k]);
		files_field(res[i], files, sizeof files);
		row(out, res[i]->name, files, c, BT_SEQ_CREATE);
		latency_row(out, c, BT_SEQ_CREATE);
	}
	if (n > 1) {
		for (k = BT_SEQ_CREATE; k < BT__COUNT; k++)
			cell_mean(res, n, (enum bonnie_test)k, &c[k]);
		files_field(res[0], files, sizeof files);
		row(out, _("mean"), files, c, BT_SEQ_CREATE);
	}
}

/* The CSV name field: no commas. */
static void
csv_name(struct strbuf *out, const char *name)
{
	for (; *name != '\0'; name++)
		strbuf_printf(out, "%c", *name == ',' ? '_' : *name);
}

/* Fields 5-8 (size, chunk, seeks, seekers) and 21-25 (files...). */
static void
csv_params(struct strbuf *out, const struct wl_result *res, bool files)
{
	uint64_t v[4] = { 0, 0, 0, 0 };
	char size[FIELD];
	size_t n;

	if (!files) {
		n = spec_parse(any_label(res, BT_PUTC, BT_SEQ_CREATE), "(-s ",
		    v, 4);
		size_field(res, size, sizeof size);
		strbuf_printf(out, ",%s,", size);
		if (n >= 2 && v[1] != 8192)
			strbuf_printf(out, "%" PRIu64, v[1]);
		if (n >= 4)
			strbuf_printf(out, ",%" PRIu64 ",%" PRIu64, v[2], v[3]);
		else
			strbuf_add(out, ",,");
		return;
	}
	n = spec_parse(any_label(res, BT_SEQ_CREATE, BT__COUNT), "(-n ", v, 4);
	if (n >= 1)
		strbuf_printf(out, ",%" PRIu64, v[0]);
	else
		strbuf_add(out, ",");
	if (n >= 4 && v[1] > 0)
		strbuf_printf(out, ",%" PRIu64 ",%" PRIu64, v[1], v[2]);
	else
		strbuf_add(out, ",,");
	if (n >= 4 && v[3] > 0)
		strbuf_printf(out, ",%" PRIu64, v[3]);
	else
		strbuf_add(out, ",");
	strbuf_add(out, ","); /* file_chunk_size */
}

/* One line in bonnie++'s CSV format 1.98 (bon_csv2html(1)). */
static void
csv_line(struct strbuf *out, const struct wl_result *res)
{
	struct cell c[BT__COUNT];
	int k;

	for (k = 0; k < BT__COUNT; k++)
		cell_of(wl_result_test(res, bonnie_keys[k]), &c[k]);
	strbuf_printf(out, "1.98,raidlab-%s,", PACKAGE_VERSION);
	csv_name(out, res->name);
	strbuf_add(out, ",1,"); /* concurrency, seed */
	csv_params(out, res, false);
	for (k = BT_PUTC; k <= BT_SEEKS; k++)
		strbuf_printf(out, ",%s,%s", c[k].val, c[k].cpu);
	csv_params(out, res, true);
	for (k = BT_SEQ_CREATE; k < BT__COUNT; k++)
		strbuf_printf(out, ",%s,%s", c[k].val, c[k].cpu);
	for (k = 0; k < BT__COUNT; k++)
		strbuf_printf(out, ",%s", c[k].lat);
	strbuf_add(out, "\n");
}

void
bonnie_report(const struct wl_result *const *res, size_t n, struct strbuf *out)
{
	size_t i;

	if (n == 0)
		return;
	if (has_any(res, n, BT_PUTC, BT_SEQ_CREATE))
		io_table(res, n, out);
	if (has_any(res, n, BT_SEQ_CREATE, BT__COUNT))
		files_table(res, n, out);
	for (i = 0; i < n; i++)
		csv_line(out, res[i]);
}
