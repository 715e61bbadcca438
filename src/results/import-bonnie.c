/*
 * bonnie++'s CSV lines (import.h), in both layouts bon_csv2txt(1) reads:
 * 1.0x (name, size, then the six I/O pairs of figure and %CP, the file
 * count and the six file pairs) and 1.9x/2.0x (format version, bonnie++
 * version, name, concurrency, seed, size, chunk, seeks, seekers, the I/O
 * pairs, files, max and min size, directories, file chunk, the file
 * pairs, then the twelve latencies). Also what the text importer shares:
 * cells, specs, and a row made into tests of a bonnie run. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "figures/hist.h"
#include "import-bonnie.h"
#include "import.h"
#include "measure/result.h"
#include "measure/workload.h"

/* ---------------------------------------------------------------- cells */

/* A number with nothing after it but suffix characters in ok. */
static bool
number(const char *s, double *v, char *suffix)
{
	char *end;

	*suffix = '\0';
	if (s[0] == '\0' || strchr("0123456789.", s[0]) == NULL)
		return false;
	*v = strtod(s, &end);
	if (*end != '\0' && end[1] == '\0' && strchr("kKmMgG", *end)) {
		*suffix = (char)(*end | 0x20);
		end++;
	}
	return end != s && *end == '\0' && isfinite(*v) && *v >= 0;
}

int
import_bcell_parse(const char *val, const char *cpu, double k_mul,
    struct import_bcell *c)
{
	char suf;
	double mul = 1;

	memset(c, 0, sizeof *c);
	c->cpu = NAN;
	c->value = NAN;
	if (val[0] == '\0')
		return cpu[0] == '\0' ? 0 : -EINVAL;
	c->set = true;
	if (strcmp(val, "+++++") == 0) {
		c->fast = true;
		return strcmp(cpu, "+++") == 0 || cpu[0] == '\0' ? 0 : -EINVAL;
	}
	if (!number(val, &c->value, &suf))
		return -EINVAL;
	/* bonnie++ 2.0 shortens wide figures: "1355k", "98.2m". */
	if (suf == 'k')
		mul = k_mul;
	else if (suf == 'm')
		mul = k_mul * (k_mul == 1 ? 1024 : 1000);
	else if (suf == 'g')
		mul = k_mul * (k_mul == 1 ? 1048576 : 1e6);
	c->value *= mul;
	if (!isfinite(c->value))
		return -EINVAL;
	if (cpu[0] == '\0' || strcmp(cpu, "+++") == 0)
		return 0;
	return number(cpu, &c->cpu, &suf) && suf == '\0' ? 0 : -EINVAL;
}

int
import_blat_parse(const char *s, uint64_t *ns)
{
	char *end;
	double v;

	*ns = 0;
	if (s[0] == '\0')
		return 0;
	v = strtod(s, &end);
	if (end == s || v < 0 || !isfinite(v))
		return -EINVAL;
	if (strcmp(end, "us") == 0)
		v = v * 1e3 + 0.5;
	else if (strcmp(end, "ms") == 0)
		v = v * 1e6 + 0.5;
	else if (strcmp(end, "s") == 0)
		v = v * 1e9 + 0.5;
	else
		return -EINVAL;
	/* 2^64 ns and over has no integer (converting it is undefined),
	   and 584 years is no latency. */
	if (v >= 18446744073709551616.0)
		return -ERANGE;
	*ns = (uint64_t)v;
	return 0;
}

/* A bonnie++ size: "2G", "8k"; a bare number is in unit bytes. */
static int
bsize(const char *s, uint64_t unit, uint64_t *out)
{
	char *end;
	unsigned long long n;

	if (s[0] == '\0' || s[0] == '-')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (*end == '\0' && end != s) {
		/* A size that wraps would be recorded as a small one. */
		if (errno == ERANGE || n > UINT64_MAX / unit)
			return -ERANGE;
		*out = n * unit;
		return 0;
	}
	return units_parse_size(s, out);
}

static int
bint(const char *s, int64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	return end != s && *end == '\0' && *out >= 0 ? 0 : -EINVAL;
}

int
import_bspec_s(const char *s, struct import_bspec *sp)
{
	char *copy = xstrdup(s), *f[4] = { NULL }, *p = copy;
	int rc = 0, n = 0;

	while (n < 4 && p != NULL) {
		f[n++] = p;
		if ((p = strchr(p, ':')) != NULL)
			*p++ = '\0';
	}
	if (p != NULL)
		rc = -EINVAL;
	else if ((rc = bsize(f[0], 1 << 20, &sp->size)) == 0)
		sp->has_size = true;
	if (rc == 0 && n > 1 && f[1][0] != '\0') {
		rc = bsize(f[1], 1, &sp->chunk);
		sp->has_chunk = rc == 0;
	}
	if (rc == 0 && n > 2 && f[2][0] != '\0') {
		rc = bint(f[2], &sp->seeks);
		sp->has_seeks = rc == 0;
	}
	if (rc == 0 && n > 3 && f[3][0] != '\0') {
		rc = bint(f[3], &sp->seekers);
		sp->has_seekers = rc == 0;
	}
	free(copy);
	return rc;
}

int
import_bspec_n(const char *s, struct import_bspec *sp)
{
	char *copy = xstrdup(s), *p, *dirs;
	char *f[3] = { NULL };
	int rc = 0, n = 0;

	/* NUM:MAX:MIN/DIRS:CHUNK: the file chunk is not raidlab's. */
	if ((dirs = strchr(copy, '/')) != NULL) {
		*dirs++ = '\0';
		if ((p = strchr(dirs, ':')) != NULL)
			*p = '\0';
	}
	for (p = copy; n < 3 && p != NULL; n++) {
		f[n] = p;
		if ((p = strchr(p, ':')) != NULL)
			*p++ = '\0';
	}
	if (p != NULL)
		rc = -EINVAL;
	else
		rc = bint(f[0], &sp->files);
	sp->has_files = rc == 0;
	if (rc == 0 && n > 1 && f[1][0] != '\0')
		sp->has_max = (rc = bsize(f[1], 1, &sp->max_size)) == 0;
	if (rc == 0 && n > 2 && f[2][0] != '\0')
		sp->has_min = (rc = bsize(f[2], 1, &sp->min_size)) == 0;
	if (rc == 0 && dirs != NULL && dirs[0] != '\0')
		sp->has_dirs = (rc = bint(dirs, &sp->dirs)) == 0;
	free(copy);
	return rc;
}

/* ---------------------------------------------------------------- tests */

struct import_run *
import_bonnie_run(struct import_result *r, const char *name,
    enum bonnie_test from, int line)
{
	const char *p = from < BT_SEQ_CREATE ? "size" : "files";
	int k = param_index(wl_bonnie.params, p);

	for (size_t i = 0; i < r->nruns; i++)
		if (strcmp(r->runs[i].variant, name) == 0 &&
		    !r->runs[i].values[k].set)
			return &r->runs[i];
	(void)line;
	return import_run_add(r, &wl_bonnie, name);
}

static enum wl_op
test_op(enum bonnie_test t)
{
	switch (t) {
	case BT_PUTC:
	case BT_PUT_BLOCK:
	case BT_REWRITE:
		return WL_OP_WRITE;
	case BT_GETC:
	case BT_GET_BLOCK:
		return WL_OP_READ;
	case BT_SEEKS:
		return WL_OP_SEEK;
	case BT_SEQ_CREATE:
	case BT_RAN_CREATE:
		return WL_OP_CREATE;
	case BT_SEQ_STAT:
	case BT_RAN_STAT:
		return WL_OP_STAT;
	default:
		return WL_OP_DELETE;
	}
}

static enum wl_unit
test_unit(enum bonnie_test t)
{
	return t < BT_SEEKS ? WL_UNIT_KBPS
	    : t == BT_SEEKS ? WL_UNIT_SEEKS_S
			    : WL_UNIT_FILES_S;
}

void
import_bonnie_store(struct import_result *r, struct import_run *run,
    const struct import_bspec *sp, const struct import_bcell *cells,
    enum bonnie_test from, enum bonnie_test to)
{
	struct wl_test *t;

	if (sp->v1) {
		if (!sp->has_chunk)
			import_set_unknown(run, "chunk");
		import_set_unknown(run, "seeks");
		import_set_unknown(run, "seekers");
		import_set_unknown(run, "char_size");
	}
	if (from == BT_PUTC) {
		import_set_size(run, "size", sp->size);
		if (sp->has_chunk)
			import_set_size(run, "chunk", sp->chunk);
		if (sp->has_seeks && !sp->v1)
			import_set_int(run, "seeks", sp->seeks);
		if (sp->has_seekers && !sp->v1)
			import_set_int(run, "seekers", sp->seekers);
	} else {
		import_set_int(run, "files", sp->files);
		if (sp->has_max)
			import_set_size(run, "max_size", sp->max_size);
		if (sp->has_min)
			import_set_size(run, "min_size", sp->min_size);
		if (sp->has_dirs)
			import_set_int(run, "dirs", sp->dirs);
	}
	for (int b = from; b < (int)to; b++) {
		const struct import_bcell *c = &cells[b];

		if (!c->set)
			continue;
		t = wl_result_add_test(run->res, bonnie_keys[b],
		    bonnie_names[b], test_unit((enum bonnie_test)b));
		t->too_fast = c->fast;
		t->value = c->fast ? NAN : c->value;
		/* %CP = (user + sys) / wall: a nominal second of wall. */
		t->wall = c->fast ? NAN : 1.0;
		t->user = isfinite(c->cpu) ? c->cpu / 100.0 : NAN;
		t->sys = isfinite(c->cpu) ? 0 : NAN;
		if (c->lat_ns > 0)
			hist_add(&t->lat[test_op((enum bonnie_test)b)],
			    c->lat_ns);
		if (c->fast)
			import_missing(r,
			    "+++++ figures (too fast to measure)");
	}
}

static bool
known(const struct import_run *run, const char *name)
{
	int i = param_index(run->wl->params, name);

	return !(run->unknown & (UINT64_C(1) << i));
}

/* "-s SIZE:CHUNK:SEEKS:SEEKERS" as wl-bonnie.c writes it, cut before
   the first unknown field (the report reads the fields by place). */
static char *
spec_s(const struct import_run *run)
{
	const struct param *ps = wl_bonnie.params;
	const struct param_value *v = run->values;
	char a[UNITS_BUF], b[UNITS_BUF];

	units_format_exact(workload_value(ps, v, "size")->size, a, sizeof a);
	if (!known(run, "chunk"))
		return xasprintf("-s %s", a);
	units_format_exact(workload_value(ps, v, "chunk")->size, b, sizeof b);
	if (!known(run, "seeks") || !known(run, "seekers"))
		return xasprintf("-s %s:%s", a, b);
	return xasprintf("-s %s:%s:%lld:%lld", a, b,
	    (long long)workload_value(ps, v, "seeks")->i,
	    (long long)workload_value(ps, v, "seekers")->i);
}

/* The "(-s ...)" / "(-n ...)" label specs wl-bonnie.c writes; 1.0x's
   per-char tests say their method, which is not 2.0x's. */
static void
relabel(struct import_run *run)
{
	const struct param *ps = wl_bonnie.params;
	const struct param_value *v = run->values;
	char a[UNITS_BUF], b[UNITS_BUF];
	char *s = spec_s(run), *n;
	bool stdio = !known(run, "char_size");

	n = xasprintf("-n %lld:%s:%s:%lld",
	    (long long)workload_value(ps, v, "files")->i,
	    units_format_exact(workload_value(ps, v, "max_size")->size, a,
		sizeof a),
	    units_format_exact(workload_value(ps, v, "min_size")->size, b,
		sizeof b),
	    (long long)workload_value(ps, v, "dirs")->i);
	for (size_t i = 0; i < run->res->ntests; i++) {
		struct wl_test *t = &run->res->tests[i];
		int k;

		for (k = 0; k < BT__COUNT; k++)
			if (strcmp(t->key, bonnie_keys[k]) == 0)
				break;
		free(t->label);
		t->label = xasprintf("%s%s (%s)", bonnie_names[k],
		    stdio && (k == BT_PUTC || k == BT_GETC) ? ", stdio" : "",
		    k < BT_SEQ_CREATE ? s : n);
	}
	free(s);
	free(n);
}

/* The parameters no row stated, for missing. */
static void
unstated(struct import_result *r)
{
	static const char *const names[] = { "size", "chunk", "ram",
		"char_size", "seeks", "seekers", "files", "max_size",
		"min_size", "dirs", "fsync", "direct", NULL };

	for (size_t k = 0; names[k] != NULL; k++) {
		int i = param_index(wl_bonnie.params, names[k]);
		bool set = false;

		for (size_t j = 0; j < r->nruns && !set; j++)
			set = r->runs[j].values[i].set;
		if (!set) {
			char *m = xasprintf("param %s", names[k]);

			import_missing(r, m);
			free(m);
		}
	}
}

/* Whether runs i and j of one machine are repeats of one setup. */
static bool
same_setup(const struct import_result *r, size_t i, size_t j)
{
	const struct import_run *a = &r->runs[i], *b = &r->runs[j];

	return i == j ||
	    (a->setup != NULL && b->setup != NULL &&
		strcmp(a->setup, b->setup) == 0);
}

/* Run i's group (setup) among its machine's, from 1, with how many
   groups the machine has; *nth and *size: its place in the group. */
static size_t
group_of(const struct import_result *r, size_t i, size_t *ngroups, size_t *nth,
    size_t *size)
{
	size_t g = 0, n = 0;

	*nth = *size = 0;
	for (size_t j = 0; j < r->nruns; j++) {
		size_t k;

		if (strcmp(r->runs[j].hostname, r->runs[i].hostname) != 0)
			continue;
		for (k = 0; k < j; k++)
			if (strcmp(r->runs[k].hostname, r->runs[j].hostname) ==
				0 &&
			    same_setup(r, k, j))
				break;
		if (k == j) { /* the first run of its group */
			n++;
			if (same_setup(r, i, j))
				g = n;
		}
		if (same_setup(r, i, j)) {
			(*size)++;
			*nth += j <= i;
		}
	}
	*ngroups = n;
	return g;
}

/* Name, repeat number and source line of run i. */
static void
name_run(struct import_result *r, size_t i)
{
	struct import_run *run = &r->runs[i];
	size_t ngroups, nth, size, g = group_of(r, i, &ngroups, &nth, &size);

	run->repeat = (int)nth;
	if (ngroups > 1) {
		free(run->variant);
		run->variant = xasprintf("%s-%zu", run->hostname, g);
	}
	if (size > 1)
		run->text =
		    xasprintf("%s, machine %s: %zu lines of one version and "
			      "settings "
			      "(bonnie++ -x), the repeats of one variant",
			r->from, run->hostname, size);
	else if (ngroups > 1)
		run->text = xasprintf("%s, machine %s (table %zu of %zu)",
		    r->from, run->hostname, g, ngroups);
	else
		run->text = xasprintf("%s, machine %s", r->from, run->hostname);
}

void
import_bonnie_finish(struct import_result *r, bool latency)
{
	bool stdio = false;

	/* bonnie++'s machine name: the host it ran on, as far as it says. */
	for (size_t i = 0; i < r->nruns; i++)
		r->runs[i].hostname = xstrdup(r->runs[i].variant);
	for (size_t i = 0; i < r->nruns; i++) {
		relabel(&r->runs[i]);
		r->runs[i].res->wall = NAN;
		name_run(r, i);
		stdio = stdio || !known(&r->runs[i], "char_size");
	}
	if (stdio)
		import_missing(r,
		    "per-char tests as 2.0x runs them (1.0x: stdio "
		    "putc/getc over the whole file, kept apart)");
	import_missing(r, "user/sys split (user = %CP x wall / 100)");
	import_missing(r, "wall (a nominal 1 s per test)");
	import_missing(r, "start and end times");
	import_missing(r, "time series");
	import_missing(r, "bytes and files counted");
	import_missing(r,
	    latency ? "latency distribution (the maximum only)" : "latency");
	unstated(r);
}

/* ---------------------------------------------------------------- CSV */

/* Split a CSV line at commas, keeping empty fields. */
static size_t
split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (n < max) {
		f[n++] = p;
		if ((p = strchr(p, ',')) == NULL)
			break;
		*p++ = '\0';
	}
	return p == NULL ? n : max + 1;
}

/* 1.9x and later: "1.98,2.00a,name,...". */
static bool
new_layout(char *const *f)
{
	return strncmp(f[0], "1.9", 3) == 0 &&
	    strspn(f[0], "0123456789.") == strlen(f[0]);
}

#define CSV_MAX 64

static bool
csv_line(const char *line)
{
	char *copy = xstrdup(line), *f[CSV_MAX + 1];
	size_t n = split(copy, f, CSV_MAX);
	bool ok = (n >= 27 && n <= 29 && !new_layout(f)) ||
	    (n >= 38 && n <= 50 && new_layout(f));

	free(copy);
	return ok;
}

static bool
csv_detect(const char *text)
{
	size_t n;
	char **lines = import_lines(text, &n);
	bool ok = false;

	for (size_t i = 0; i < n && !ok; i++)
		if (strncmp(lines[i], "name,", 5) != 0 && lines[i][0] != '\0')
			ok = csv_line(lines[i]);
	import_lines_free(lines, n);
	return ok;
}

static const char *const csv_names[BT__COUNT] = {
	"putc",
	"put_block",
	"rewrite",
	"getc",
	"get_block",
	"seeks",
	"seq_create",
	"seq_stat",
	"seq_del",
	"ran_create",
	"ran_stat",
	"ran_del",
};

/* The cells at io (6 I/O pairs) and fl (6 file pairs); lat: 12 latencies
   or -1. */
static int
csv_cells(char **f, size_t n, size_t io, size_t fl, long lat,
    struct import_bcell *c, const char *file, int line, struct err *e)
{
	int rc;

	for (int b = 0; b < BT__COUNT; b++) {
		size_t at = (b < BT_SEQ_CREATE ? io : fl) +
		    2 * (size_t)(b < BT_SEQ_CREATE ? b : b - BT_SEQ_CREATE);

		if (import_bcell_parse(f[at], f[at + 1],
			b < BT_SEEKS ? 1 : 1000, &c[b]) < 0)
			return err_set(e, -EINVAL, file, line, csv_names[b],
			    _("not a bonnie++ figure and %%CP: '%s,%s'"), f[at],
			    f[at + 1]);
		if (lat >= 0 && (size_t)lat + (size_t)b < n &&
		    (rc = import_blat_parse(f[lat + b], &c[b].lat_ns)) < 0)
			return err_set(e, -EINVAL, file, line, csv_names[b],
			    rc == -ERANGE
				? _("a bonnie++ latency out of range: '%s'")
				: _("not a bonnie++ latency: '%s'"),
			    f[lat + b]);
	}
	return 0;
}

static bool
blank(char **f, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (f[i][0] != '\0')
			return false;
	return true;
}

/*
 * A line's tests into a run of its own (a CSV line is a whole bonnie++
 * run), with its setup: the fields that say how it ran, as printed.
 * Empty I/O columns and an empty file size are bonnie++ -s 0.
 */
static void
csv_store(struct import_result *r, char **f, bool nl,
    const struct import_bspec *sp, const struct import_bcell *c)
{
	size_t io = nl ? 9 : 2, fl = nl ? 26 : 15;
	const char *size = f[nl ? 5 : 1];
	struct import_run *run;

	if (blank(f, io, io + 12) && blank(f, fl, fl + 12))
		return;
	run = import_run_add(r, &wl_bonnie, f[nl ? 2 : 0]);
	if (nl)
		run->setup = xasprintf("%s,%s,%s:%s:%s:%s,%s:%s:%s/%s", f[1],
		    f[3], f[5], f[6], f[7], f[8], f[21], f[22], f[23], f[24]);
	else
		run->setup = xasprintf("1.0x,%s,%s", f[1], f[14]);
	if (!blank(f, io, io + 12))
		import_bonnie_store(r, run, sp, c, BT_PUTC, BT_SEQ_CREATE);
	else if (size[0] == '\0')
		import_set_size(run, "size", 0);
	if (!blank(f, fl, fl + 12))
		import_bonnie_store(r, run, sp, c, BT_SEQ_CREATE, BT__COUNT);
}

/* One data line into r. */
static int
csv_row(struct import_result *r, char *line, const char *file, int ln,
    struct err *e)
{
	char *f[CSV_MAX + 1], spec[256];
	size_t n = split(line, f, CSV_MAX);
	struct import_bcell c[BT__COUNT];
	struct import_bspec sp;
	bool nl = n >= 38 && new_layout(f);
	size_t io = nl ? 9 : 2, fl = nl ? 26 : 15, nf = nl ? 21 : 14;
	int rc;

	if (!((nl && n <= 50) || (!nl && n >= 27 && n <= 29)))
		return err_set(e, -EINVAL, file, ln, NULL,
		    _("%zu fields: bonnie++ CSV has 27 (1.0x) or 38 to 50 "
		      "(1.9x, 2.0x)"),
		    n > CSV_MAX ? n - 1 : n);
	if (r->from == NULL) {
		r->tool = xstrdup("bonnie++");
		r->tool_version = nl ? xstrdup(f[1]) : NULL;
		r->from = nl ? xasprintf("bonnie++ %s CSV %s", f[1], f[0])
			     : xstrdup("bonnie++ 1.0x CSV");
	}
	if ((rc = csv_cells(f, n, io, fl, nl && n > 38 ? 38 : -1, c, file, ln,
		 e)) < 0)
		return rc;
	memset(&sp, 0, sizeof sp);
	if (nl)
		snprintf(spec, sizeof spec, "%s:%s:%s:%s", f[5], f[6], f[7],
		    f[8]);
	else
		snprintf(spec, sizeof spec, "%s", f[1]);
	if (!blank(f, io, io + 12) && (rc = import_bspec_s(spec, &sp)) < 0)
		return err_set(e, -EINVAL, file, ln, nl ? "file_size" : "size",
		    rc == -ERANGE ? _("a bonnie++ size out of range: '%s'")
				  : _("not a bonnie++ size: '%s'"),
		    spec);
	if (nl)
		snprintf(spec, sizeof spec, "%s:%s:%s/%s", f[nf], f[nf + 1],
		    f[nf + 2], f[nf + 3]);
	else
		snprintf(spec, sizeof spec, "%s", f[nf]);
	if (!blank(f, fl, fl + 12) && (rc = import_bspec_n(spec, &sp)) < 0)
		return err_set(e, -EINVAL, file, ln, "num_files",
		    rc == -ERANGE ? _("a bonnie++ file count out of range: "
				      "'%s'")
				  : _("not a bonnie++ file count: '%s'"),
		    f[nf]);
	sp.v1 = !nl;
	csv_store(r, f, nl, &sp, c);
	return 0;
}

static int
csv_parse(const char *text, const char *file, struct import_result *r,
    struct err *e)
{
	size_t n;
	char **lines = import_lines(text, &n);
	bool latency = false;
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		if (lines[i][strspn(lines[i], " \t")] == '\0' ||
		    strncmp(lines[i], "name,", 5) == 0 ||
		    strncmp(lines[i], "format_version,", 15) == 0)
			continue;
		latency |= strchr(lines[i], 'u') != NULL &&
		    strstr(lines[i], "us") != NULL;
		rc = csv_row(r, lines[i], file, (int)i + 1, e);
	}
	import_lines_free(lines, n);
	if (rc == 0)
		import_bonnie_finish(r, latency);
	return rc;
}

const struct import_format import_bonnie_csv = {
	.name = "bonnie-csv",
	.summary = N_("bonnie++ CSV lines (1.0x, 1.9x and 2.0x layouts)"),
	.detect = csv_detect,
	.parse = csv_parse,
	.max_bytes = 4u << 20,
};
