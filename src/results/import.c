/*
 * The import driver (import.h): the format table, detection, reading
 * the input, renaming the runs, and turning the result into a record;
 * plus the helpers the format parsers share. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "import.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "measure/workload.h"
#include "record.h"

/* Inputs past this are no format's results: refuse rather than read
   them (each format takes at most its own max_bytes). */
#define IMPORT_MAX_BYTES (64u << 20)

const struct import_format *const import_formats[] = {
	&import_fio_json,
	&import_bonnie_csv,
	&import_bonnie_text,
	&import_compilebench,
	NULL,
};

const struct import_format *
import_format_find(const char *name)
{
	for (size_t i = 0; import_formats[i] != NULL; i++)
		if (strcmp(import_formats[i]->name, name) == 0)
			return import_formats[i];
	return NULL;
}

const struct import_format *
import_detect(const char *text)
{
	for (size_t i = 0; import_formats[i] != NULL; i++)
		if (import_formats[i]->detect(text))
			return import_formats[i];
	return NULL;
}

/* The whole file as a string; NULL with e set. */
static char *
read_all(const char *path, struct err *e)
{
	FILE *fp = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (fp == NULL) {
		err_set(e, -errno, path, 0, NULL, _("cannot read: %s"),
		    strerror(errno));
		return NULL;
	}
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + len, 1, cap - len - 1, fp);
		len += got;
	} while (got > 0 && len <= IMPORT_MAX_BYTES);
	if (ferror(fp) || len > IMPORT_MAX_BYTES) {
		err_set(e, ferror(fp) ? -EIO : -EFBIG, path, 0, NULL, "%s",
		    ferror(fp) ? _("read error")
			       : _("too large to be a benchmark's output"));
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		err_set(e, -EINVAL, path, 0, NULL, "%s",
		    _("a binary file, not a benchmark's output"));
		free(buf);
		return NULL;
	}
	return buf;
}

int
import_file(const char *path, const struct import_format *fmt,
    struct import_result **out, struct err *e)
{
	struct import_result *r;
	char *text;
	int rc;

	*out = NULL;
	if ((text = read_all(path, e)) == NULL)
		return e->code;
	if (fmt == NULL && (fmt = import_detect(text)) == NULL) {
		free(text);
		return err_set(e, -EINVAL, path, 0, NULL, "%s",
		    _("not a format raidlab imports (bonnie++ CSV or text, "
		      "fio JSON, compilebench's summary): give -f FORMAT"));
	}
	if (strlen(text) > fmt->max_bytes) {
		rc = err_set(e, -EFBIG, path, 0, NULL,
		    _("%zu bytes: too large for %s (at most %zu MB, far "
		      "more than a real run prints)"),
		    strlen(text), fmt->name, fmt->max_bytes >> 20);
		free(text);
		return rc;
	}
	r = xcalloc(1, sizeof *r);
	rc = fmt->parse(text, path, r, e);
	free(text);
	if (rc == 0 && r->nruns == 0)
		rc = err_set(e, -EINVAL, path, 0, NULL,
		    _("no %s results found"), fmt->name);
	if (rc < 0) {
		import_result_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void
import_result_free(struct import_result *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nruns; i++) {
		struct import_run *run = &r->runs[i];

		free(run->variant);
		free(run->text);
		free(run->hostname);
		free(run->setup);
		param_values_done(run->wl->params, run->values,
		    param_count(run->wl->params));
		free(run->values);
		wl_result_free(run->res);
	}
	for (size_t i = 0; i < r->nmissing; i++)
		free(r->missing[i]);
	free(r->missing);
	free(r->runs);
	free(r->from);
	free(r->tool);
	free(r->tool_version);
	free(r);
}

/* ---------------------------------------------------------------- helpers */

struct import_run *
import_run_add(struct import_result *r, const struct workload *wl,
    const char *variant)
{
	struct import_run *run;
	size_t n = param_count(wl->params);

	r->runs = xreallocarray(r->runs, r->nruns + 1, sizeof *r->runs);
	run = &r->runs[r->nruns++];
	memset(run, 0, sizeof *run);
	run->variant = xstrdup(variant);
	run->repeat = 1;
	run->wl = wl;
	run->values = xcalloc(n + 1, sizeof *run->values);
	param_values_init(wl->params, run->values);
	run->res = wl_result_new(wl->name, wl->name);
	return run;
}

static struct param_value *
value_of(struct import_run *run, const char *name)
{
	int i = param_index(run->wl->params, name);

	/* A parser names its workload's own parameters. */
	if (i < 0)
		fatal(_("import: %s has no parameter %s"), run->wl->name, name);
	return &run->values[i];
}

void
import_set_size(struct import_run *run, const char *name, uint64_t v)
{
	struct param_value *pv = value_of(run, name);

	pv->set = true;
	pv->is_auto = false;
	pv->size = v;
}

void
import_set_int(struct import_run *run, const char *name, int64_t v)
{
	struct param_value *pv = value_of(run, name);

	pv->set = true;
	pv->is_auto = false;
	pv->i = v;
}

void
import_set_unknown(struct import_run *run, const char *name)
{
	struct param_value *pv = value_of(run, name);

	pv->set = false;
	run->unknown |= UINT64_C(1) << (pv - run->values);
}

bool
import_set_enum(struct import_run *run, const char *name, const char *value)
{
	const struct param *p = param_find(run->wl->params, name);

	for (int64_t k = 0; p->values[k] != NULL; k++)
		if (strcmp(p->values[k], value) == 0) {
			import_set_int(run, name, k);
			return true;
		}
	return false;
}

void
import_missing(struct import_result *r, const char *what)
{
	for (size_t i = 0; i < r->nmissing; i++)
		if (strcmp(r->missing[i], what) == 0)
			return;
	r->missing =
	    xreallocarray(r->missing, r->nmissing + 1, sizeof *r->missing);
	r->missing[r->nmissing++] = xstrdup(what);
}

char **
import_lines(const char *text, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	const char *p = text, *end;

	while (*p != '\0') {
		size_t len, q;

		end = strchr(p, '\n');
		len = end ? (size_t)(end - p) : strlen(p);
		/* Doubling: a line at a time is quadratic. */
		if (cnt == cap) {
			cap = cap ? 2 * cap : 64;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[cnt] = xstrndup(p, len);
		if (len > 0 && v[cnt][len - 1] == '\r')
			v[cnt][len - 1] = '\0';
		/* Quoting: "> >> " and the like; a bare ">" line is empty. */
		q = strspn(v[cnt], "> \t");
		if (q > 0 && v[cnt][strspn(v[cnt], " \t")] == '>')
			memmove(v[cnt], v[cnt] + q, strlen(v[cnt] + q) + 1);
		cnt++;
		p = end ? end + 1 : p + len;
	}
	*n = cnt;
	return v;
}

void
import_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* ---------------------------------------------------------------- use */

/* The index of run i's variant among the distinct variants, in order. */
static size_t
variant_index(const struct import_result *r, size_t i, size_t *nvariants)
{
	size_t n = 0, at = 0;

	for (size_t j = 0; j < r->nruns; j++) {
		size_t k;

		for (k = 0; k < j; k++)
			if (strcmp(r->runs[k].variant, r->runs[j].variant) == 0)
				break;
		if (k < j)
			continue;
		if (strcmp(r->runs[j].variant, r->runs[i].variant) == 0)
			at = n;
		n++;
	}
	*nvariants = n;
	return at;
}

int
import_rename(struct import_result *r, const char *names, struct err *e)
{
	char *copy = xstrdup(names), *p, *save = NULL;
	char **v = NULL, **to;
	size_t n = 0, nv = 0;

	for (p = strtok_r(copy, ",", &save); p != NULL;
	     p = strtok_r(NULL, ",", &save)) {
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = p;
	}
	if (r->nruns > 0)
		variant_index(r, 0, &nv);
	if (n != 1 && n != nv) {
		free(v);
		free(copy);
		return err_set(e, -EINVAL, NULL, 0, "-n",
		    _("%zu names for %zu results: give one name per result, "
		      "or one for all"),
		    n, nv);
	}
	/* Names decided first: renaming as we go would merge variants. */
	to = xcalloc(r->nruns + 1, sizeof *to);
	for (size_t i = 0; i < r->nruns; i++) {
		size_t k = variant_index(r, i, &nv);

		if (n == 1 && nv > 1)
			to[i] = xasprintf("%s-%zu", v[0], k + 1);
		else
			to[i] = xstrdup(v[n == 1 ? 0 : k]);
	}
	for (size_t i = 0; i < r->nruns; i++) {
		free(r->runs[i].variant);
		r->runs[i].variant = to[i];
	}
	free(to);
	free(v);
	free(copy);
	return 0;
}

/* The "imported" object of the record. */
static json_t *
imported_json(const struct import_result *r, const char *file)
{
	json_t *m = json_array();

	for (size_t i = 0; i < r->nmissing; i++)
		json_array_append_new(m, jsonx_str(r->missing[i]));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "from",
	    jsonx_str(r->from), "file", jsonx_str(file), "tool",
	    jsonx_str(r->tool), "tool_version",
	    r->tool_version ? jsonx_str(r->tool_version) : json_null(),
	    "missing", m);
}

/* The one host every run names, or NULL. */
static const char *
common_host(const struct import_result *r)
{
	const char *h = r->nruns ? r->runs[0].hostname : NULL;

	for (size_t i = 1; h != NULL && i < r->nruns; i++)
		if (r->runs[i].hostname == NULL ||
		    strcmp(r->runs[i].hostname, h) != 0)
			return NULL;
	return h;
}

/* What the record's generic writer cannot know of an imported run: its
   repeat number, and which parameters are unknown (left out). */
static void
run_fixup(struct record_run *rr, const struct import_run *run)
{
	json_t *params =
	    json_object_get(json_object_get(rr->json, "workload"), "params");

	rr->repeat = run->repeat;
	json_object_set_new(rr->json, "repeat", json_integer(run->repeat));
	for (size_t i = 0; run->wl->params[i].name != NULL && i < 64; i++)
		if (run->unknown & (UINT64_C(1) << i))
			json_object_del(params, run->wl->params[i].name);
}

int
import_record(const struct import_result *r, const char *file,
    struct record **out, struct err *e)
{
	const char *h = common_host(r);
	struct record *rec = record_new_imported("import",
	    h ? json_pack("{s:o}", "hostname", jsonx_str(h)) : NULL,
	    imported_json(r, file));
	int rc = 0;

	for (size_t i = 0; i < r->nruns && rc == 0; i++) {
		const struct import_run *run = &r->runs[i];
		struct lab_workload w;

		memset(&w, 0, sizeof w);
		w.type = xstrdup(run->wl->name);
		w.wl = run->wl;
		w.values = run->values;
		w.nvalues = param_count(run->wl->params);
		rc = record_add_imported_run(rec, run->variant, run->text,
		    run->hostname ? json_pack("{s:o}", "hostname",
					jsonx_str(run->hostname))
				  : NULL,
		    &w, run->res, e);
		free(w.type);
		if (rc == 0)
			run_fixup(&rec->runs[rec->nruns - 1], run);
	}
	if (rc < 0) {
		record_free(rec);
		rec = NULL;
	}
	*out = rec;
	return rc;
}
