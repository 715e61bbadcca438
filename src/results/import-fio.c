/*
 * fio's JSON output (import.h): `fio --output-format=json`, with one job
 * or several, --group_reporting (a job per group) or client/server
 * ("client_stats", a hostname per job; its "All clients" sum is left
 * out: it is no host's). One raidlab fio run per job, its one test keyed
 * by the rw pattern as raidlab's fio workload keys it: the figure is MB/s
 * (10^6 bytes) of both directions, wall the job's runtime, user and sys
 * from usr_cpu and sys_cpu, and each direction's completion latency a
 * histogram: from fio's own bins when the output has them
 * (--output-format=json+: clat_ns.bins, each a latency in ns with its
 * count, added to the bucket of that value, so the counts are fio's
 * exactly), else rebuilt from fio's percentiles (each share of the I/Os
 * at its percentile's value, the rest at the maximum); n, min, max and
 * the sum exact either way. Each run's notes say which. The job's
 * options fill the parameters they name. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "figures/hist.h"
#include "import.h"
#include "measure/result.h"
#include "measure/workload.h"

static bool
fio_detect(const char *text)
{
	const char *p = text + strspn(text, " \t\r\n");

	return *p == '{' && strstr(text, "\"fio version\"") != NULL;
}

/* An option of the job, else of the global section; NULL if neither. */
static const char *
option(const json_t *job, const json_t *global, const char *key)
{
	const char *s = json_string_value(
	    json_object_get(json_object_get(job, "job options"), key));

	return s != NULL ? s : json_string_value(json_object_get(global, key));
}

/* The options raidlab's fio workload has, as far as they parse. */
static void
set_params(struct import_run *run, const json_t *job, const json_t *global)
{
	static const char *const sizes[][2] = { { "bs", "bs" },
		{ "size", "size" } };
	static const char *const ints[][2] = { { "numjobs", "threads" },
		{ "iodepth", "iodepth" }, { "runtime", "runtime" },
		{ "fsync", "fsync" }, { "rwmixread", "rwmixread" } };
	static const char *const bools[][2] = { { "direct", "direct" },
		{ "end_fsync", "end_fsync" }, { "overwrite", "overwrite" } };
	const char *s;
	uint64_t v;
	char *end;
	long long n;

	if ((s = option(job, global, "rw")) != NULL)
		import_set_enum(run, "rw", s);
	if ((s = option(job, global, "ioengine")) != NULL)
		import_set_enum(run, "ioengine", s);
	for (size_t i = 0; i < 2; i++)
		if ((s = option(job, global, sizes[i][0])) != NULL &&
		    units_parse_size(s, &v) == 0)
			import_set_size(run, sizes[i][1], v);
	for (size_t i = 0; i < 5; i++)
		if ((s = option(job, global, ints[i][0])) != NULL &&
		    (n = strtoll(s, &end, 10)) >= 0 && *end == '\0' && end != s)
			import_set_int(run, ints[i][1], n);
	for (size_t i = 0; i < 3; i++)
		if ((s = option(job, global, bools[i][0])) != NULL)
			import_set_int(run, bools[i][1],
			    strcmp(s, "1") == 0 || strcmp(s, "true") == 0);
}

static double
num(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

static uint64_t
u64(const json_t *o, const char *key)
{
	double v = num(o, key);

	/* 2^64 and over does not fit: saturate, as the record does. */
	if (!isfinite(v) || v <= 0)
		return 0;
	return v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;
}

struct pct {
	double p;
	uint64_t v;
};

static int
pct_cmp(const void *a, const void *b)
{
	const struct pct *x = a, *y = b;

	return (x->p > y->p) - (x->p < y->p);
}

/* A bin's latency (its key: decimal ns); false when it is none. */
static bool
bin_value(const char *key, uint64_t *ns)
{
	char *end;

	if (key[0] < '0' || key[0] > '9')
		return false;
	errno = 0;
	*ns = strtoull(key, &end, 10);
	return errno == 0 && *end == '\0';
}

/* The clat_ns bins of json+ into h: each count at its value. Checked
   beforehand (check_bins()). */
static void
bins_hist(json_t *bins, struct hist *h)
{
	const char *key;
	json_t *v;
	uint64_t ns;

	json_object_foreach(bins, key, v)
	{
		if (bin_value(key, &ns) && json_integer_value(v) > 0) {
			hist_add_bucket(h, hist_bucket(ns),
			    (uint64_t)json_integer_value(v));
			h->n += (uint64_t)json_integer_value(v);
		}
	}
}

/* n, min, max and the sum of h from clat's own figures. */
static void
clat_figures(const json_t *clat, struct hist *h, uint64_t n)
{
	double sum = num(clat, "mean") * (double)n;

	h->n = n;
	h->min = u64(clat, "min");
	h->max = u64(clat, "max");
	h->sum = !isfinite(sum) || sum <= 0 ? 0
	    : sum >= 18446744073709551616.0 ? UINT64_MAX
					    : (uint64_t)sum;
}

/* clat_ns of one direction as a histogram (see the top); returns true
   when it came from fio's bins. */
static bool
clat_hist(const json_t *clat, struct hist *h)
{
	json_t *pct = json_object_get(clat, "percentile"), *v;
	json_t *bins = json_object_get(clat, "bins");
	uint64_t n = u64(clat, "N"), placed = 0, c;
	struct pct *ps;
	size_t np = 0;
	double prev = 0;
	const char *key;

	hist_init(h);
	if (json_is_object(bins) && json_object_size(bins) > 0) {
		bins_hist(bins, h);
		clat_figures(clat, h, h->n);
		return true;
	}
	if (n == 0)
		return false;
	ps = xcalloc(json_object_size(pct) + 1, sizeof *ps);
	json_object_foreach(pct, key, v)
	{
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			continue;
		ps[np].p = strtod(key, NULL);
		ps[np++].v = (uint64_t)json_integer_value(v);
	}
	qsort(ps, np, sizeof *ps, pct_cmp);
	for (size_t i = 0; i < np; i++) {
		c = (uint64_t)llround((double)n * (ps[i].p - prev) / 100.0);
		if (c > n - placed)
			c = n - placed;
		hist_add_bucket(h, hist_bucket(ps[i].v), c);
		placed += c;
		prev = ps[i].p;
	}
	free(ps);
	clat_figures(clat, h, n);
	hist_add_bucket(h, hist_bucket(h->max), n - placed);
	return false;
}

/* Where a job's figures are checked, for the message. */
struct where {
	const char *file, *jobs, *name; /* jobs: "jobs" or "client_stats" */
	size_t idx;
};

/*
 * o's key (in direction dir, or NULL) is a number of 0 or more (over 0
 * when positive), or absent unless required: 0, else -EINVAL with e
 * naming the job and the key's path. fio prints none of these negative;
 * such a figure is a damaged file, not a measurement.
 */
static int
check_num(const json_t *o, const char *dir, const char *key, bool positive,
    bool required, const struct where *w, struct err *e)
{
	const json_t *j = json_object_get(o, key);
	double v = json_number_value(j);
	char field[ERR_FIELD_MAX];

	if ((j == NULL && !required) ||
	    (json_is_number(j) && isfinite(v) && (positive ? v > 0 : v >= 0)))
		return 0;
	snprintf(field, sizeof field, "%s[%zu]%s%s.%s", w->jobs, w->idx,
	    dir ? "." : "", dir ? dir : "", key);
	if (!json_is_number(j))
		return err_set(e, -EINVAL, w->file, 0, field,
		    _("job %zu (%s): %s is not a number"), w->idx + 1, w->name,
		    key);
	return err_set(e, -EINVAL, w->file, 0, field,
	    positive ? _("job %zu (%s): %s is %g: it must be over 0")
		     : _("job %zu (%s): %s is %g: it cannot be negative"),
	    w->idx + 1, w->name, key, v);
}

/* The percentile keys of dir's clat_ns are percentages: over 0, at most
   100. A NaN would also leave their sort undefined. */
static int
check_pcts(const json_t *dir, const char *dname, const struct where *w,
    struct err *e)
{
	json_t *clat = json_object_get(dir, "clat_ns");
	json_t *pct = json_object_get(clat, "percentile"), *v;
	char field[ERR_FIELD_MAX];
	const char *key;
	char *end;
	double p;

	json_object_foreach(pct, key, v)
	{
		p = strtod(key, &end);
		(void)v;
		if (end != key && *end == '\0' && p > 0 && p <= 100)
			continue;
		snprintf(field, sizeof field, "%s[%zu].%s.clat_ns.percentile",
		    w->jobs, w->idx, dname);
		return err_set(e, -EINVAL, w->file, 0, field,
		    _("job %zu (%s): '%s' is not a percentile (over 0, at "
		      "most 100)"),
		    w->idx + 1, w->name, key);
	}
	return 0;
}

/*
 * The bins of dir's clat_ns (json+), if any: each key a latency in ns,
 * each count an integer of 0 or more, adding up to N when fio gives N
 * (a histogram whose counts disagree with the I/Os is a damaged file).
 */
static int
check_bins(const json_t *dir, const char *dname, const struct where *w,
    struct err *e)
{
	const json_t *clat = json_object_get(dir, "clat_ns"), *n;
	json_t *bins = json_object_get(clat, "bins");
	char field[ERR_FIELD_MAX];
	uint64_t ns, total = 0;
	const char *key;
	json_t *v;

	if (bins == NULL)
		return 0;
	snprintf(field, sizeof field, "%s[%zu].%s.clat_ns.bins", w->jobs,
	    w->idx, dname);
	if (!json_is_object(bins))
		return err_set(e, -EINVAL, w->file, 0, field,
		    _("job %zu (%s): bins is not an object"), w->idx + 1,
		    w->name);
	json_object_foreach(bins, key, v)
	{
		if (!bin_value(key, &ns))
			return err_set(e, -EINVAL, w->file, 0, field,
			    _("job %zu (%s): bin '%s' is not a latency in "
			      "nanoseconds"),
			    w->idx + 1, w->name, key);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return err_set(e, -EINVAL, w->file, 0, field,
			    _("job %zu (%s): the count of bin %s is not a "
			      "whole number of 0 or more"),
			    w->idx + 1, w->name, key);
		if (total + (uint64_t)json_integer_value(v) < total)
			total = UINT64_MAX;
		else
			total += (uint64_t)json_integer_value(v);
	}
	n = json_object_get(clat, "N");
	if (n != NULL && json_is_number(n) && total != u64(clat, "N"))
		return err_set(e, -EINVAL, w->file, 0, field,
		    _("job %zu (%s): the bins count %llu I/Os, N is %llu"),
		    w->idx + 1, w->name, (unsigned long long)total,
		    (unsigned long long)u64(clat, "N"));
	return 0;
}

/* The figures a job's record is made of are possible ones, and it did
   some I/O. */
static int
check_job(const json_t *job, const json_t *rd, const json_t *wr,
    const struct where *w, struct err *e)
{
	static const char *const dkeys[] = { "io_bytes", "bw_bytes",
		"total_ios", "runtime", NULL };
	const json_t *dirs[2] = { rd, wr };
	static const char *const dnames[2] = { "read", "write" };
	int rc;

	if ((rc = check_num(job, NULL, "job_runtime", true, true, w, e)) < 0 ||
	    (rc = check_num(job, NULL, "usr_cpu", false, false, w, e)) < 0 ||
	    (rc = check_num(job, NULL, "sys_cpu", false, false, w, e)) < 0)
		return rc;
	for (size_t d = 0; d < 2; d++)
		for (size_t k = 0; dkeys[k] != NULL; k++)
			if ((rc = check_num(dirs[d], dnames[d], dkeys[k], false,
				 false, w, e)) < 0)
				return rc;
	for (size_t d = 0; d < 2; d++)
		if ((rc = check_pcts(dirs[d], dnames[d], w, e)) < 0 ||
		    (rc = check_bins(dirs[d], dnames[d], w, e)) < 0)
			return rc;
	if (u64(rd, "io_bytes") == 0 && u64(wr, "io_bytes") == 0 &&
	    u64(rd, "total_ios") == 0 && u64(wr, "total_ios") == 0)
		return err_set(e, -EINVAL, w->file, 0, w->jobs,
		    _("job %zu (%s): no I/O (read and write io_bytes and "
		      "total_ios are 0): nothing to import"),
		    w->idx + 1, w->name);
	return 0;
}

/* The rw key: the job's rw, unless its figures say otherwise (a group
   of read and write jobs). */
static const char *
rw_key(const json_t *job, const json_t *global, bool reads, bool writes)
{
	const char *s = option(job, global, "rw");
	bool r = s && strstr(s, "read") != NULL,
	     w = s && (strstr(s, "write") != NULL || strstr(s, "rw") != NULL);

	if (s != NULL && strstr(s, "rw") != NULL)
		r = w = true;
	if (s != NULL && r == reads && w == writes)
		return s;
	return reads && writes ? "rw" : writes ? "write" : "read";
}

/* Which way the run's latency came, in its notes; false when it was
   rebuilt from percentiles. */
static bool
lat_note(struct import_run *run, const struct wl_test *t, bool rbins,
    bool wbins)
{
	bool any = t->lat[WL_OP_READ].n > 0 || t->lat[WL_OP_WRITE].n > 0;
	bool bins = (rbins || t->lat[WL_OP_READ].n == 0) &&
	    (wbins || t->lat[WL_OP_WRITE].n == 0);

	if (!any)
		return true;
	wl_result_add_note(run->res,
	    bins ? _("latency: fio's own histogram (json+ clat_ns.bins), "
		     "each bin counted at its value")
		 : _("latency: rebuilt from fio's percentiles (each share of "
		     "the I/Os at its percentile, the rest at the maximum); "
		     "fio --output-format=json+ gives the whole histogram"));
	return bins;
}

static int
one_job(struct import_result *r, const json_t *job, const json_t *global,
    const struct where *w, bool *rebuilt, struct err *e)
{
	const json_t *rd = json_object_get(job, "read"),
		     *wr = json_object_get(job, "write");
	const char *name = json_string_value(json_object_get(job, "jobname"));
	const char *host = json_string_value(json_object_get(job, "hostname"));
	uint64_t rb = u64(rd, "io_bytes"), wb = u64(wr, "io_bytes");
	double rt = num(job, "job_runtime");
	struct import_run *run;
	struct wl_test *t;
	struct where at = *w;
	char *label, *variant;
	bool rbins, wbins;
	int rc;

	if (name == NULL || !json_is_object(rd) || !json_is_object(wr) ||
	    !isfinite(rt))
		return err_set(e, -EINVAL, w->file, 0, w->jobs,
		    _("job %zu: no jobname, read, write or job_runtime"),
		    w->idx + 1);
	at.name = name;
	if ((rc = check_job(job, rd, wr, &at, e)) < 0)
		return rc;
	variant = host ? xasprintf("%s/%s", host, name) : xstrdup(name);
	run = import_run_add(r, &wl_fio, variant);
	free(variant);
	set_params(run, job, global);
	if (host != NULL)
		run->hostname = xstrdup(host);
	label = xasprintf("%s (imported from %s)",
	    rw_key(job, global, rb > 0, wb > 0), r->from);
	t = wl_result_add_test(run->res, rw_key(job, global, rb > 0, wb > 0),
	    label, WL_UNIT_MBPS);
	free(label);
	t->wall = rt / 1000.0;
	t->value = (num(rd, "bw_bytes") + num(wr, "bw_bytes")) / 1e6;
	t->user = num(job, "usr_cpu") / 100.0 * t->wall;
	t->sys = num(job, "sys_cpu") / 100.0 * t->wall;
	t->bytes_read = rb;
	t->bytes_written = wb;
	t->ops = u64(rd, "total_ios") + u64(wr, "total_ios");
	rbins = clat_hist(json_object_get(rd, "clat_ns"), &t->lat[WL_OP_READ]);
	wbins = clat_hist(json_object_get(wr, "clat_ns"), &t->lat[WL_OP_WRITE]);
	if (!lat_note(run, t, rbins, wbins))
		*rebuilt = true;
	run->res->wall = t->wall;
	run->text = xasprintf("%s, job %s%s%s", r->from, name,
	    host ? " on " : "", host ? host : "");
	return 0;
}

static int
fio_parse(const char *text, const char *file, struct import_result *r,
    struct err *e)
{
	json_error_t jerr;
	json_t *root = json_loads(text, 0, &jerr), *jobs, *job;
	const json_t *global;
	const char *ver;
	size_t i;
	int rc = 0;
	bool rebuilt = false;

	if (root == NULL)
		return err_set(e, -EINVAL, file, jerr.line > 0 ? jerr.line : 0,
		    NULL, _("column %d: %s"), jerr.column, jerr.text);
	ver = json_string_value(json_object_get(root, "fio version"));
	jobs = json_object_get(root, "client_stats");
	if (jobs == NULL)
		jobs = json_object_get(root, "jobs");
	if (ver == NULL || !json_is_array(jobs)) {
		json_decref(root);
		return err_set(e, -EINVAL, file, 0, "jobs", "%s",
		    _("not fio's JSON output: no \"fio version\" or jobs"));
	}
	global = json_object_get(root, "global options");
	r->tool = xstrdup("fio");
	r->tool_version = xstrdup(ver);
	r->from = xasprintf("%s json%s", ver,
	    json_object_get(root, "client_stats") ? " (client/server)" : "");
	json_array_foreach(jobs, i, job)
	{
		const char *name =
		    json_string_value(json_object_get(job, "jobname"));
		struct where w = { file,
			json_object_get(root, "client_stats") ? "client_stats"
							      : "jobs",
			name, i };

		if (name != NULL && strcmp(name, "All clients") == 0)
			continue;
		if ((rc = one_job(r, job, global, &w, &rebuilt, e)) < 0)
			break;
	}
	json_decref(root);
	/* json+ has the distribution itself */
	if (rebuilt)
		import_missing(r,
		    "latency distribution (rebuilt from percentiles)");
	import_missing(r, "time series");
	import_missing(r, "start and end times");
	return rc;
}

const struct import_format import_fio_json = {
	.name = "fio-json",
	.summary = N_("fio --output-format=json (jobs, groups, "
		      "client/server)"),
	.detect = fio_detect,
	.parse = fio_parse,
	.max_bytes = 12u << 20,
};
