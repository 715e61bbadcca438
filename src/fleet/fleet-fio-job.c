/*
 * The pure parts of running fio workloads through fio's client/server
 * (fleet-fio.h): the job file a host gets, fio's version line, and fio's
 * client-mode JSON read back per host, with the all-hosts figures summed
 * here rather than taken from fio's "All clients". Any thread.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "fleet-fio.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "measure/result.h"
#include "measure/workload.h"
#include "results/import.h"

bool
fleet_fio_workload(const struct lab_workload *w)
{
	const struct param_value *pv = lab_workload_param(w, "fio_server");

	return w->wl == &wl_fio && pv != NULL && pv->i != 0;
}

/* Expand the piece [p, p + n) of a directory as written. */
static bool
expand_piece(struct strbuf *b, const char *p, size_t n)
{
	char *piece = xstrndup(p, n), *x, why[256];

	x = lab_expand_directory(piece, why, sizeof why);
	free(piece);
	if (x == NULL)
		return false;
	strbuf_add(b, x);
	free(x);
	return true;
}

/*
 * The directory as written, with each %h (not %%h) the host's name and
 * the rest expanded by lab_expand_directory(). lab_load() expanded %h to
 * this machine's name; the pieces between the %h are expanded here so
 * that lab_expand_set_host(), a process-wide setting, is not needed.
 */
char *
fleet_fio_directory(const struct lab_variant *v, const char *host)
{
	const char *text = v->directory_text, *p, *from;
	struct strbuf b;

	if (text == NULL || strstr(text, "%h") == NULL)
		return xstrdup(v->directory ? v->directory : "");
	strbuf_init(&b);
	for (p = from = text; *p != '\0'; p++) {
		if (p[0] != '%' || p[1] == '\0')
			continue;
		if (p[1] == 'h') {
			if (!expand_piece(&b, from, (size_t)(p - from)))
				break;
			strbuf_add(&b, host);
			from = p + 2;
		}
		p++;
	}
	if (*p == '\0' && expand_piece(&b, from, strlen(from)))
		return strbuf_take(&b);
	strbuf_done(&b);
	return xstrdup(v->directory ? v->directory : "");
}

static int64_t
pint(const struct lab_workload *w, const char *name)
{
	const struct param_value *pv = lab_workload_param(w, name);

	return pv != NULL ? pv->i : 0;
}

/* An enum parameter's value name. */
static const char *
penum(const struct lab_workload *w, const char *name)
{
	const struct param *p = param_find(w->wl->params, name);

	return p->values[pint(w, name)];
}

static const char *
psize(const struct lab_workload *w, const char *name, char *buf, size_t len)
{
	const struct param_value *pv = lab_workload_param(w, name);

	return units_format_exact(pv != NULL ? pv->size : 0, buf, len);
}

/*
 * Everything in the job section (not [global]): client mode merges every
 * host's global options into one object, but each client_stats entry
 * keeps its own "job options". fio's own meanings are the ones raidlab's
 * fio workload mirrors (wl-fio.c); group_reporting makes numjobs one
 * entry per host; unlink removes the files unless keep.
 */
char *
fleet_fio_job_text(const struct lab_workload *w, const char *host,
    const char *dir)
{
	struct strbuf b;
	char bs[UNITS_BUF], size[UNITS_BUF];
	int64_t runtime = pint(w, "runtime");

	strbuf_init(&b);
	strbuf_printf(&b,
	    "; raidlab: workload %s on host %s, through fio's client/server\n"
	    "[%s]\n"
	    "directory=%s\n"
	    "unique_filename=0\n"
	    "rw=%s\n"
	    "bs=%s\n"
	    "size=%s\n"
	    "numjobs=%" PRId64 "\n"
	    "iodepth=%" PRId64 "\n"
	    "ioengine=%s\n"
	    "direct=%d\n"
	    "fsync=%" PRId64 "\n"
	    "end_fsync=%d\n"
	    "rwmixread=%" PRId64 "\n"
	    "overwrite=%d\n"
	    "unlink=%d\n"
	    "group_reporting=1\n",
	    lab_workload_name(w), host, host, dir, penum(w, "rw"),
	    psize(w, "bs", bs, sizeof bs), psize(w, "size", size, sizeof size),
	    pint(w, "threads"), pint(w, "iodepth"), penum(w, "ioengine"),
	    pint(w, "direct") != 0, pint(w, "fsync"), pint(w, "end_fsync") != 0,
	    pint(w, "rwmixread"), pint(w, "overwrite") != 0,
	    pint(w, "keep") == 0);
	if (runtime > 0)
		strbuf_printf(&b, "runtime=%" PRId64 "\ntime_based=1\n",
		    runtime);
	return strbuf_take(&b);
}

bool
fleet_fio_version(const char *output, char *buf, size_t len)
{
	size_t n;

	output += strspn(output, " \t\r\n");
	n = strcspn(output, " \t\r\n");
	if (n < 5 || strncmp(output, "fio-", 4) != 0 || n >= len)
		return false;
	memcpy(buf, output, n);
	buf[n] = '\0';
	return true;
}

static double
num(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : 0;
}

static double
p99(const json_t *dir)
{
	const json_t *pct =
	    json_object_get(json_object_get(json_object_get(dir, "clat_ns"),
				"percentile"),
		"99.000000");

	return json_is_number(pct) ? json_number_value(pct) : 0;
}

static const json_t *
entry_of(const json_t *stats, const char *host)
{
	size_t i;
	const json_t *job;

	json_array_foreach(stats, i, job)
	{
		const char *name =
		    json_string_value(json_object_get(job, "jobname"));

		if (name != NULL && strcmp(name, host) == 0)
			return job;
	}
	return NULL;
}

/* One host's entry as a raidlab result, through the fio importer: the
   same figures `raidlab import` gives fio's JSON. */
static int
entry_result(const json_t *job, const char *ver, const char *file,
    struct wl_result **res, struct err *e)
{
	json_t *doc =
	    json_pack("{s:s, s:[O]}", "fio version", ver, "jobs", job);
	char *text = json_dumps(doc, JSON_COMPACT);
	struct import_result *ir = xcalloc(1, sizeof *ir);
	int rc;

	json_decref(doc);
	rc = import_fio_json.parse(text, file, ir, e);
	free(text);
	if (rc == 0 && ir->nruns == 1) {
		*res = ir->runs[0].res;
		ir->runs[0].res = NULL;
	} else if (rc == 0) {
		rc = err_set(e, -EINVAL, file, 0, "client_stats", "%s",
		    _("fio's entry did not read as one job"));
	}
	import_result_free(ir);
	return rc;
}

static void
free_results(struct wl_result **res, size_t n)
{
	for (size_t i = 0; res != NULL && i < n; i++) {
		wl_result_free(res[i]);
		res[i] = NULL;
	}
}

int
fleet_fio_parse(const char *json, const char *file, const char *const *hosts,
    size_t n, struct fleet_fio_figs *figs, struct wl_result **res,
    char *fio_version, size_t vlen, struct err *e)
{
	json_error_t jerr;
	json_t *root;
	const json_t *stats, *job;
	const char *ver, *p = json;
	int rc = 0;

	/* fio puts its own messages before the JSON in the same file (a
	   server that went away, a job's warning): skip to the document. */
	while (*p != '{' && (p = strchr(p, '\n')) != NULL)
		p++;
	root = json_loads(p != NULL ? p : json, 0, &jerr);
	if (root == NULL)
		return err_set(e, -EINVAL, file, jerr.line > 0 ? jerr.line : 0,
		    NULL, _("fio's output is not JSON: column %d: %s"),
		    jerr.column, jerr.text);
	ver = json_string_value(json_object_get(root, "fio version"));
	stats = json_object_get(root, "client_stats");
	if (ver == NULL || !json_is_array(stats)) {
		json_decref(root);
		return err_set(e, -EINVAL, file, 0, "client_stats", "%s",
		    _("not fio's client/server JSON: no \"fio version\" or "
		      "client_stats"));
	}
	if (fio_version != NULL)
		snprintf(fio_version, vlen, "%s", ver);
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (res != NULL)
			res[i] = NULL;
		if ((job = entry_of(stats, hosts[i])) == NULL) {
			rc = err_set(e, -EINVAL, file, 0, "client_stats",
			    _("%s: no job of that name in fio's output "
			      "(the host's server did not report)"),
			    hosts[i]);
			break;
		}
		figs[i].read_bw = num(json_object_get(job, "read"), "bw_bytes");
		figs[i].write_bw =
		    num(json_object_get(job, "write"), "bw_bytes");
		figs[i].read_iops = num(json_object_get(job, "read"), "iops");
		figs[i].write_iops = num(json_object_get(job, "write"), "iops");
		figs[i].read_p99 = p99(json_object_get(job, "read"));
		figs[i].write_p99 = p99(json_object_get(job, "write"));
		if (res != NULL)
			rc = entry_result(job, ver, file, &res[i], e);
	}
	if (rc < 0)
		free_results(res, n);
	json_decref(root);
	return rc;
}

json_t *
fleet_fio_round_json(int round, const char *raw, const char *const *hosts,
    const struct fleet_fio_figs *figs, size_t n)
{
	json_t *hs = json_array();
	struct fleet_fio_figs sum = { 0, 0, 0, 0, 0, 0 };

	for (size_t i = 0; i < n; i++) {
		const struct fleet_fio_figs *f = &figs[i];

		json_array_append_new(hs,
		    json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f}", "host",
			hosts[i], "read_bw_bytes", f->read_bw, "write_bw_bytes",
			f->write_bw, "read_iops", f->read_iops, "write_iops",
			f->write_iops, "read_p99_ns", f->read_p99,
			"write_p99_ns", f->write_p99));
		sum.read_bw += f->read_bw;
		sum.write_bw += f->write_bw;
		sum.read_iops += f->read_iops;
		sum.write_iops += f->write_iops;
		sum.read_p99 = fmax(sum.read_p99, f->read_p99);
		sum.write_p99 = fmax(sum.write_p99, f->write_p99);
	}
	return json_pack("{s:i, s:o, s:o, s:{s:f, s:f, s:f, s:f, s:f, s:f}, "
			 "s:s, s:{s:f, s:f, s:s}}",
	    "round", round, "raw", raw ? json_string(raw) : json_null(),
	    "hosts", hs, "sum", "read_bw_bytes", sum.read_bw, "write_bw_bytes",
	    sum.write_bw, "bw_bytes", sum.read_bw + sum.write_bw, "read_iops",
	    sum.read_iops, "write_iops", sum.write_iops, "iops",
	    sum.read_iops + sum.write_iops, "latency",
	    "none for all hosts: percentiles of different hosts cannot be "
	    "added or averaged; each host's are in its runs",
	    "max_host_p99_ns", "read", sum.read_p99, "write", sum.write_p99,
	    "meaning",
	    "the highest of the hosts' own 99th percentiles of completion "
	    "latency, not a percentile of all hosts' I/Os");
}
