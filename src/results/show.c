/*
 * Result records as text tables: see show.h. Builds text only; the
 * thread that owns the record.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "compare.h"
#include "figures/stats.h"
#include "measure/result.h"
#include "measure/workload.h"
#include "record.h"
#include "show.h"

#define SCRATCH_LABEL N_("scratch: functional, not representative")

/* ---------------------------------------------------------------- generic */

/* The operation with most samples in t, or -1 when none has any. */
static int
dominant_op(const struct wl_test *t)
{
	uint64_t best = 0;
	int op, found = -1;

	for (op = 0; op < WL_OP__COUNT; op++)
		if (t->lat[op].n > best) {
			best = t->lat[op].n;
			found = op;
		}
	return found;
}

static void
fmt_value(char *buf, size_t len, double v, enum wl_unit u)
{
	if (u == WL_UNIT_SECONDS || fabs(v) < 100)
		snprintf(buf, len, "%.2f", v);
	else if (fabs(v) < 10000)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

/* "  12.345 create", or "-" without latency samples. */
static void
fmt_p99(char *buf, size_t len, const struct hist *h, int op)
{
	if (op < 0 || h->n == 0)
		snprintf(buf, len, "%8s", "-");
	else
		snprintf(buf, len, "%8.3f %s",
		    (double)hist_quantile(h, 0.99) / 1e6,
		    wl_op_name((enum wl_op)op));
}

static void
generic_row(struct strbuf *out, const char *label, const struct wl_test *t)
{
	char v[32], val[64], p99[48];
	int op = dominant_op(t);

	if (t->too_fast)
		snprintf(v, sizeof v, "+++++");
	else
		fmt_value(v, sizeof v, t->value, t->unit);
	snprintf(val, sizeof val, "%s %s", v, wl_unit_name(t->unit));
	fmt_p99(p99, sizeof p99, op >= 0 ? &t->lat[op] : NULL, op);
	strbuf_printf(out, "%-30s %20s %9.2f %5.0f %s%s", label, val, t->wall,
	    wl_test_cpu_percent(t), p99,
	    t->interrupted ? _(" [interrupted]") : "");
	if (t->stalled > 0)
		strbuf_printf(out, _(" [stalled %.1f s]"), t->stalled);
	strbuf_add(out, "\n");
}

/* The sample's mean and sd (stats.h); 0 for no figure, as the table
   prints it. */
static void
mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	struct stats_desc d;

	stats_describe(x, n, STATS_CONF, &d);
	*mean = n ? d.mean : 0;
	*sd = n ? d.sd : 0;
}

/* The rows of one test across n repeats and the mean ± stddev row. */
static void
generic_repeats(struct strbuf *out, const struct wl_result *const *res,
    size_t n, const struct wl_test *first)
{
	double *val = xcalloc(n, sizeof *val), *wall = xcalloc(n, sizeof *wall);
	double *cpu = xcalloc(n, sizeof *cpu), m[3], sd[3];
	struct hist *all = xmalloc(sizeof *all);
	char label[64], v[32], s[32], buf[96], p99[48];
	int op = dominant_op(first);
	size_t i, got = 0;

	hist_init(all);
	strbuf_printf(out, "%s\n", first->label);
	for (i = 0; i < n; i++) {
		const struct wl_test *t = wl_result_test(res[i], first->key);

		if (t == NULL)
			continue;
		snprintf(label, sizeof label, _("  run %zu"), i + 1);
		generic_row(out, label, t);
		val[got] = t->value;
		wall[got] = t->wall;
		cpu[got++] = wl_test_cpu_percent(t);
		if (op >= 0)
			hist_merge(all, &t->lat[op]);
	}
	mean_sd(val, got, &m[0], &sd[0]);
	mean_sd(wall, got, &m[1], &sd[1]);
	mean_sd(cpu, got, &m[2], &sd[2]);
	fmt_value(v, sizeof v, m[0], first->unit);
	fmt_value(s, sizeof s, sd[0], first->unit);
	snprintf(buf, sizeof buf, "%s ± %s %s", v, s,
	    wl_unit_name(first->unit));
	fmt_p99(p99, sizeof p99, all, op);
	snprintf(label, sizeof label, _("  mean of %zu ± stddev"), got);
	strbuf_printf(out, "%-30s %21s %9.2f %5.0f %s\n", label, buf, m[1],
	    m[2], p99);
	free(val);
	free(wall);
	free(cpu);
	hist_done(all);
	free(all);
}

void
show_generic(const struct wl_result *const *res, size_t n, struct strbuf *out)
{
	const struct wl_result *first = n ? res[0] : NULL;
	size_t k;

	if (first == NULL || first->ntests == 0)
		return;
	strbuf_printf(out, "%-30s %20s %9s %5s %8s\n", _("Test"), _("Value"),
	    _("Wall s"), _("%CPU"), _("p99 ms"));
	for (k = 0; k < first->ntests; k++) {
		if (n == 1)
			generic_row(out, first->tests[k].label,
			    &first->tests[k]);
		else
			generic_repeats(out, res, n, &first->tests[k]);
	}
}

/* ---------------------------------------------------------------- header */

static const char *
str_or(const json_t *o, const char *key, const char *def)
{
	const char *s = record_get_str(o, key);

	return s != NULL ? s : def;
}

/*
 * The host's facts; what the record lacks (an import knows at most the
 * host's name) is said to be unknown, never shown as "?" or 0 cores.
 */
static void
host_lines(const json_t *host, struct strbuf *out)
{
	const char *unknown = _("unknown");
	const char *kernel = record_get_str(host, "kernel");
	char ram[UNITS_BUF];
	uint64_t bytes;
	int cores = 0;

	if (kernel != NULL)
		strbuf_printf(out, _("Host %s: Linux %s (%s)\n"),
		    str_or(host, "hostname", unknown), kernel,
		    str_or(host, "arch", unknown));
	else
		strbuf_printf(out, _("Host %s: system unknown\n"),
		    str_or(host, "hostname", unknown));
	if (!record_get_u64(host, "ram_bytes", &bytes))
		snprintf(ram, sizeof ram, "%s", unknown);
	else
		units_format_size(bytes, ram, sizeof ram);
	if (record_get_int(host, "cores", &cores) && cores > 0)
		strbuf_printf(out,
		    ngettext("CPU: %s, %d core; RAM %s\n",
			"CPU: %s, %d cores; RAM %s\n", (unsigned long)cores),
		    str_or(host, "cpu_model", unknown), cores, ram);
	else
		strbuf_printf(out, _("CPU: %s, cores unknown; RAM %s\n"),
		    str_or(host, "cpu_model", unknown), ram);
}

void
show_header(const struct record *rec, struct strbuf *out)
{
	const json_t *host = json_object_get(rec->root, "host");
	const json_t *lab = json_object_get(rec->root, "lab");
	const json_t *now = json_object_get(rec->root, "in_progress");
	const char *why = record_get_str(rec->root, "interrupted_reason");
	const char *st = record_status(rec->root);
	int repeat = 0;

	strbuf_printf(out, _("Lab %s, created %s, status %s\n"),
	    str_or(lab, "name", "?"), str_or(rec->root, "created", "?"),
	    st ? st : "?");
	if (why != NULL)
		strbuf_printf(out, "%s\n", why);
	if (record_scaled(rec->root) != NULL)
		strbuf_printf(out, _("Scaled down (%s): not a full result\n"),
		    record_scaled(rec->root));
	if (json_is_object(now)) {
		record_get_int(now, "repeat", &repeat);
		strbuf_printf(out,
		    st != NULL && strcmp(st, "running") == 0
			? _("Running: %s on %s, repeat %d, since %s\n")
			: _("It stopped during %s on %s, repeat %d, started "
			    "%s; that run has no result\n"),
		    str_or(now, "workload", "?"), str_or(now, "variant", "?"),
		    repeat, str_or(now, "start", "?"));
	}
	if (rec->path != NULL)
		strbuf_printf(out, _("Record: %s\n"), rec->path);
	host_lines(host, out);
	strbuf_printf(out, _("raidlab %s\n"),
	    str_or(rec->root, "raidlab_version", "?"));
}

/* ---------------------------------------------------------------- runs */

/* "md0 (md, 3G), loop0 (loop, 1G, /var/tmp/x.img)". */
static void
devices_text(struct strbuf *out, const json_t *devs)
{
	const json_t *d;
	char sz[UNITS_BUF];
	uint64_t size;
	size_t i;

	for (i = 0; i < json_array_size(devs); i++) {
		d = json_array_get(devs, i);
		const char *model = record_get_str(d, "model");
		const char *back = record_get_str(d, "backing_file");

		if (!record_get_u64(d, "size", &size))
			size = 0;
		strbuf_printf(out, "%s%s (%s, %s", i ? ", " : "",
		    str_or(d, "name", "?"), str_or(d, "type", "?"),
		    units_format_size(size, sz, sizeof sz));
		if (model != NULL)
			strbuf_printf(out, ", %s", model);
		if (back != NULL)
			strbuf_printf(out, ", %s", back);
		strbuf_add(out, ")");
	}
}

static void
variant_header(struct strbuf *out, const struct record_run *r)
{
	const json_t *v = json_object_get(r->json, "variant");
	const char *text = record_get_str(v, "text");
	size_t len = text ? strcspn(text, ";") : 0;

	strbuf_printf(out, _("\n== Variant %s (%s)"), r->variant,
	    str_or(v, "kind", "?"));
	if (r->scratch)
		strbuf_printf(out, " -- %s", _(SCRATCH_LABEL));
	strbuf_add(out, " ==\n");
	if (len > 0)
		strbuf_printf(out, "%.*s\n", (int)len, text);
}

/* The target line of a variant, from its first run that has one. */
static void
target_line(struct strbuf *out, const struct record *rec, const char *variant)
{
	const json_t *t = NULL, *devs;
	size_t i;

	for (i = 0; i < rec->nruns && t == NULL; i++)
		if (strcmp(rec->runs[i].variant, variant) == 0)
			t = json_object_get(rec->runs[i].json, "target");
	if (!json_is_object(t))
		return;
	strbuf_printf(out, _("Target %s: %s on %s, mounted on %s (%s)\n"),
	    str_or(t, "path", "?"), str_or(t, "fstype", "?"),
	    str_or(t, "source", "?"), str_or(t, "mount_point", "?"),
	    str_or(t, "mount_options", ""));
	devs = json_object_get(t, "devices");
	if (json_array_size(devs) > 0) {
		strbuf_add(out, _("Devices: "));
		devices_text(out, devs);
		strbuf_add(out, "\n");
	}
}

/* A line of its own, when there is one; t freed. */
static void
text_line(struct strbuf *out, char *t)
{
	if (t != NULL)
		strbuf_printf(out, "%s\n", t);
	free(t);
}

/* How an array variant was built, from the record's builds[]. */
static void
build_lines(struct strbuf *out, const struct record *rec, const char *variant)
{
	const json_t *builds = json_object_get(rec->root, "builds"), *b, *w;
	const char *geo, *err;
	size_t i, k;

	json_array_foreach(builds, i, b)
	{
		if (strcmp(str_or(b, "variant", ""), variant) != 0)
			continue;
		geo = record_get_str(json_object_get(b, "plan"), "geometry");
		if (geo != NULL)
			strbuf_printf(out, _("Geometry: %s\n"), geo);
		json_array_foreach(json_object_get(b, "resync"), k, w)
		{
			double secs =
			    json_number_value(json_object_get(w, "seconds"));

			strbuf_printf(out,
			    _("Initial resync of %s: %s after "
			      "%.1f s\n"),
			    str_or(w, "device", "?"), str_or(w, "status", "?"),
			    secs);
		}
		if (json_is_true(json_object_get(b, "assume_clean")))
			strbuf_add(out,
			    _("assume_clean: no initial resync "
			      "(redundancy not in sync until "
			      "written)\n"));
		text_line(out, record_build_md_text(b));
		text_line(out, record_queues_text(json_object_get(b, "facts")));
		text_line(out, record_build_phase_text(b));
		if ((err = record_get_str(b, "error")) != NULL)
			strbuf_printf(out, _("Build failed: %s\n"), err);
		if ((err = record_get_str(b, "teardown_error")) != NULL)
			strbuf_printf(out, _("Teardown failed: %s\n"), err);
		return;
	}
}

static bool
same_run(const struct record_run *r, const char *variant, const char *wl)
{
	return strcmp(r->variant, variant) == 0 &&
	    (wl == NULL || strcmp(r->workload, wl) == 0);
}

/* Notes (once each), failures, interruptions and skips of a workload. */
static void
workload_notes(struct strbuf *out, const struct record *rec, const char *v,
    const char *wl)
{
	size_t i, j, k;

	for (i = 0; i < rec->nruns; i++) {
		const struct record_run *r = &rec->runs[i];

		if (!same_run(r, v, wl))
			continue;
		if (r->skipped != NULL)
			strbuf_printf(out, _("skipped: %s\n"), r->skipped);
		if (r->res == NULL)
			continue;
		if (r->res->status == WL_FAILED)
			strbuf_printf(out, _("run %d failed: %s\n"), r->repeat,
			    r->res->error ? r->res->error : "?");
		else if (r->res->status == WL_INTERRUPTED)
			strbuf_printf(out, _("run %d was interrupted\n"),
			    r->repeat);
		for (k = 0; k < r->res->nnotes; k++) {
			bool seen = false;

			/* The same note in an earlier repeat was printed. */
			for (j = 0; j < i && !seen; j++) {
				const struct wl_result *p = rec->runs[j].res;
				size_t m;

				if (p == NULL ||
				    !same_run(&rec->runs[j], v, wl))
					continue;
				for (m = 0; m < p->nnotes && !seen; m++)
					seen = strcmp(p->notes[m],
						   r->res->notes[k]) == 0;
			}
			if (!seen)
				strbuf_printf(out, _("note: %s\n"),
				    r->res->notes[k]);
		}
	}
}

/*
 * bonnie++'s tables and CSV name each row by its machine (-m), and
 * bon_csv2html tells rows apart by it: the variant, "@host" when the
 * record knows the host, stands there instead of the workload's name.
 * Shallow copies: only the name differs.
 */
static void
bonnie_as_machine(const struct wl_result **res, size_t n, const char *v,
    const struct record *rec, const struct workload *wl, struct strbuf *out)
{
	const char *host = json_string_value(
	    json_object_get(json_object_get(rec->root, "host"), "hostname"));
	char *machine = host != NULL ? xasprintf("%s@%s", v, host) : xstrdup(v);
	struct wl_result *c = xcalloc(n, sizeof *c);
	const struct wl_result **p = xcalloc(n, sizeof *p);

	for (size_t i = 0; i < n; i++) {
		c[i] = *res[i];
		c[i].name = machine;
		p[i] = &c[i];
	}
	if (wl != NULL && wl->report != NULL)
		wl->report(p, n, out);
	else
		show_generic(p, n, out);
	free(p);
	free(c);
	free(machine);
}

/* The figures of one workload on one variant. */
static void
workload_report(struct strbuf *out, const struct record *rec, const char *v,
    const struct record_run *first)
{
	const struct wl_result **res = xcalloc(rec->nruns, sizeof *res);
	const struct workload *wl = workload_find(first->type);
	size_t i, n = 0, runs = 0;

	for (i = 0; i < rec->nruns; i++) {
		const struct record_run *r = &rec->runs[i];

		if (!same_run(r, v, first->workload))
			continue;
		runs++;
		/* A failed run's figures are partial: listed, not averaged. */
		if (r->res != NULL && r->res->status != WL_FAILED)
			res[n++] = r->res;
	}
	strbuf_printf(out, "\n");
	if (strcmp(first->workload, first->type) != 0)
		strbuf_printf(out, _("-- %s (%s)"), first->workload,
		    first->type);
	else
		strbuf_printf(out, "-- %s", first->type);
	strbuf_printf(out,
	    ngettext(", %zu run --\n", ", %zu runs --\n", (unsigned long)runs),
	    runs);
	if (n > 0 && strcmp(first->type, "bonnie") == 0)
		bonnie_as_machine(res, n, v, rec, wl, out);
	else if (n > 0) {
		if (wl != NULL && wl->report != NULL)
			wl->report(res, n, out);
		else
			show_generic(res, n, out);
	}
	workload_notes(out, rec, v, first->workload);
	free(res);
}

/* Whether runs[i] is the first one of its (variant, workload) pair. */
static bool
first_of(const struct record *rec, size_t i, bool by_workload)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (same_run(&rec->runs[j], rec->runs[i].variant,
			by_workload ? rec->runs[i].workload : NULL))
			return false;
	return true;
}

void
show_runs(const struct record *rec, struct strbuf *out)
{
	size_t i, k;

	for (i = 0; i < rec->nruns; i++) {
		const char *v = rec->runs[i].variant;

		if (!first_of(rec, i, false))
			continue;
		variant_header(out, &rec->runs[i]);
		target_line(out, rec, v);
		build_lines(out, rec, v);
		for (k = i; k < rec->nruns; k++)
			if (strcmp(rec->runs[k].variant, v) == 0 &&
			    first_of(rec, k, true))
				workload_report(out, rec, v, &rec->runs[k]);
	}
	if (rec->nruns == 0)
		strbuf_add(out, _("No runs recorded.\n"));
	else
		show_stability(rec, out);
}

/* One line of show_stability(): "  a  small 100 files: 1234.5 files/s,
   95% CI 1200.1 to 1268.9, CV 2.1%, n 5". */
static void
stability_line(const struct compare *c, size_t i, size_t k, struct strbuf *out)
{
	const struct compare_cell *x = compare_cell(c, i, k);
	const struct compare_col *col = &c->cols[k];
	char m[COMPARE_NUM_BUF], lo[COMPARE_NUM_BUF], hi[COMPARE_NUM_BUF];
	char *marks;

	strbuf_printf(out, "  %s  %s %s: ", c->rows[i].variant, col->workload,
	    _(col->title));
	compare_format_value(x->mean, col->unit, m, sizeof m);
	if (x->too_fast)
		strbuf_printf(out, _("+++++ (too fast to measure), n %zu\n"),
		    x->n);
	else if (x->n < 2)
		strbuf_printf(out, _("%s %s, n 1: no interval\n"), m,
		    wl_unit_name(col->unit));
	else
		strbuf_printf(out,
		    _("%s %s, 95%% CI %s to %s, CV %.1f%%, n %zu\n"), m,
		    wl_unit_name(col->unit),
		    compare_format_value(x->d.ci_lo, col->unit, lo, sizeof lo),
		    compare_format_value(x->d.ci_hi, col->unit, hi, sizeof hi),
		    x->d.cv * 100, x->n);
	marks = compare_marks_text(c, i, k);
	if (marks[0] != '\0')
		strbuf_printf(out, "    ! %s\n", marks);
	free(marks);
}

void
show_stability(const struct record *rec, struct strbuf *out)
{
	struct compare c;
	bool any = false;

	compare_init(&c);
	compare_add(&c, rec, "");
	for (size_t i = 0; i < c.nrows; i++)
		for (size_t k = 0; k < c.ncols; k++) {
			if (compare_cell(&c, i, k)->n == 0)
				continue;
			if (!any)
				strbuf_printf(out, "\n%s\n",
				    /* xgettext:no-c-format */
				    _("Repeats: the mean, its 95% confidence "
				      "interval (! why a sample is unstable)"));
			any = true;
			stability_line(&c, i, k, out);
		}
	compare_done(&c);
}

/* ---------------------------------------------------------------- CSV */

static void
csv_field(struct strbuf *out, const char *s, bool last)
{
	const char *p;

	if (s == NULL)
		s = "";
	if (strpbrk(s, ",\"\n") == NULL) {
		strbuf_add(out, s);
	} else {
		strbuf_add(out, "\"");
		for (p = s; *p != '\0'; p++)
			if (*p == '"')
				strbuf_add(out, "\"\"");
			else
				strbuf_printf(out, "%c", *p);
		strbuf_add(out, "\"");
	}
	strbuf_add(out, last ? "\n" : ",");
}

static void
csv_run_head(struct strbuf *out, const struct record_run *r, const char *status)
{
	char rep[16];

	snprintf(rep, sizeof rep, "%d", r->repeat);
	csv_field(out, r->variant, false);
	csv_field(out, r->scratch ? "true" : "false", false);
	csv_field(out, r->workload, false);
	csv_field(out, r->type, false);
	csv_field(out, rep, false);
	csv_field(out, status, false);
}

static void
csv_test(struct strbuf *out, const struct wl_test *t)
{
	int op = dominant_op(t);
	char p99[32] = "";

	csv_field(out, t->key, false);
	csv_field(out, t->label, false);
	csv_field(out, wl_unit_key(t->unit), false);
	if (op >= 0)
		snprintf(p99, sizeof p99, "%.6f",
		    (double)hist_quantile(&t->lat[op], 0.99) / 1e6);
	strbuf_printf(out,
	    "%.9g,%.9g,%.9g,%.9g,%.2f,%llu,%llu,%llu,%llu,%s,%s,%s,", t->value,
	    t->wall, t->user, t->sys, wl_test_cpu_percent(t),
	    (unsigned long long)t->bytes_read,
	    (unsigned long long)t->bytes_written, (unsigned long long)t->files,
	    (unsigned long long)t->ops, p99, t->too_fast ? "true" : "false",
	    t->interrupted ? "true" : "false");
}

void
show_csv(const struct record *rec, struct strbuf *out)
{
	size_t i, k;

	strbuf_add(out,
	    "variant,scratch,workload,type,repeat,status,test,label,unit,"
	    "value,wall,user,sys,cpu_percent,bytes_read,bytes_written,files,"
	    "ops,p99_ms,too_fast,interrupted,error\n");
	for (i = 0; i < rec->nruns; i++) {
		const struct record_run *r = &rec->runs[i];
		const char *st =
		    r->res ? wl_status_name(r->res->status) : "skipped";
		const char *why = r->res ? r->res->error : r->skipped;

		for (k = 0; r->res != NULL && k < r->res->ntests; k++) {
			csv_run_head(out, r, st);
			csv_test(out, &r->res->tests[k]);
			csv_field(out, why, true);
		}
		if (r->res != NULL && r->res->ntests > 0)
			continue;
		csv_run_head(out, r, st);
		strbuf_add(out, ",,,,,,,,,,,,,,,");
		csv_field(out, why, true);
	}
}
