/*
 * Result records: building one during `raidlab run` (host, lab, one run
 * object per variant x workload x repeat), saving it atomically into the
 * results directory, and reading it back for `raidlab show`. See
 * record.h for the format. The thread that owns the record (the UI
 * thread).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/paths.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "measure/workload.h"
#include "record-int.h"
#include "record.h"

/* The label results from scratch variants carry everywhere. */
#define SCRATCH_LABEL N_("scratch: functional, not representative")

/* ---------------------------------------------------------------- new */

static json_t *
lab_json(const struct lab *lab)
{
	json_t *o = json_object();
	char *path = lab->path ? realpath(lab->path, NULL) : NULL;
	char *text = lab_format(lab);

	json_object_set_new(o, "name", jsonx_str(lab->name));
	json_object_set_new(o, "path", jsonx_str(path ? path : lab->path));
	json_object_set_new(o, "text", jsonx_str(text));
	free(path);
	free(text);
	return o;
}

/* A record whose root holds what every record starts with: the format,
   raidlab's version and the time it was made. */
static struct record *
record_begin(void)
{
	struct record *rec = xcalloc(1, sizeof *rec);
	char created[32];
	struct tm tm;

	rec->created = time(NULL);
	gmtime_r(&rec->created, &tm);
	strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
	rec->root = json_object();
	json_object_set_new(rec->root, "format", json_string(RECORD_FORMAT));
	json_object_set_new(rec->root, "version", json_integer(RECORD_VERSION));
	json_object_set_new(rec->root, "raidlab_version",
	    json_string(PACKAGE_VERSION));
	json_object_set_new(rec->root, "created", json_string(created));
	return rec;
}

struct record *
record_new(const struct lab *lab)
{
	struct record *rec = record_begin();

	json_object_set_new(rec->root, "host", record_host_json());
	json_object_set_new(rec->root, "writer", record_writer_json());
	json_object_set_new(rec->root, "lab", lab_json(lab));
	json_object_set_new(rec->root, "status", json_string("running"));
	json_object_set_new(rec->root, "runs", json_array());
	return rec;
}

static void
run_done(struct record_run *r)
{
	free(r->variant);
	free(r->skipped);
	free(r->type);
	free(r->workload);
	wl_result_free(r->res);
}

void
record_free(struct record *rec)
{
	size_t i;

	if (rec == NULL)
		return;
	for (i = 0; i < rec->nruns; i++)
		run_done(&rec->runs[i]);
	free(rec->runs);
	free(rec->path);
	json_decref(rec->root);
	free(rec);
}

void
record_set_scaled(struct record *rec, const char *how)
{
	json_t *lab = json_object_get(rec->root, "lab");

	if (how != NULL && json_is_object(lab))
		json_object_set_new(lab, "scaled", json_string(how));
}

void
record_set_fleet_host(struct record *rec, const char *host)
{
	if (host != NULL)
		json_object_set_new(rec->root, "fleet",
		    json_pack("{s:s}", "host", host));
}

const char *
record_scaled(const json_t *root)
{
	return json_string_value(
	    json_object_get(json_object_get(root, "lab"), "scaled"));
}

void
record_set_status(struct record *rec, const char *status)
{
	json_object_set_new(rec->root, "status", json_string(status));
}

void
record_set_in_progress(struct record *rec, const char *variant,
    const char *workload, int repeat)
{
	struct timespec now;

	if (variant == NULL) {
		json_object_del(rec->root, "in_progress");
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	json_object_set_new(rec->root, "in_progress",
	    json_pack("{s:o, s:o, s:i, s:o}", "variant", jsonx_str(variant),
		"workload", jsonx_str(workload), "repeat", repeat, "start",
		rec_jtime(&now)));
}

const char *
record_status(const json_t *root)
{
	const char *s = record_get_str(root, "status");

	if (s != NULL && strcmp(s, "running") == 0 &&
	    !record_writer_alive(json_object_get(root, "writer")))
		return "interrupted";
	return s;
}

/* A "running" record nobody writes any more is an interrupted one. */
static void
mark_orphan(json_t *root)
{
	const json_t *w = json_object_get(root, "writer");
	const char *s = record_get_str(root, "status");
	char why[256];
	int pid = 0;

	if (s == NULL || strcmp(s, "running") != 0 || record_writer_alive(w))
		return;
	json_object_set_new(root, "status", json_string("interrupted"));
	if (record_get_int(w, "pid", &pid))
		snprintf(why, sizeof why,
		    _("raidlab (pid %d) ended without finishing this record: "
		      "killed, or the machine stopped"),
		    pid);
	else
		snprintf(why, sizeof why, "%s",
		    _("the raidlab that wrote this record ended without "
		      "finishing it"));
	json_object_set_new(root, "interrupted_reason", jsonx_str(why));
}

void
record_add_build(struct record *rec, json_t *build)
{
	record_set_build(rec, (size_t)-1, build);
}

void
record_set_build(struct record *rec, size_t i, json_t *build)
{
	json_t *a = json_object_get(rec->root, "builds");

	if (!json_is_array(a)) {
		a = json_array();
		json_object_set_new(rec->root, "builds", a);
	}
	if (i < json_array_size(a))
		json_array_set(a, i, build);
	else
		json_array_append(a, build);
}

void
record_add_hook(struct record *rec, json_t *hook)
{
	json_t *a = json_object_get(rec->root, "hooks");

	if (!json_is_array(a)) {
		a = json_array();
		json_object_set_new(rec->root, "hooks", a);
	}
	json_array_append(a, hook);
}

void
record_set_run_target(struct record *rec, json_t *target)
{
	if (rec->nruns > 0 && target != NULL)
		json_object_set(rec->runs[rec->nruns - 1].json, "target",
		    target);
}

/* ---------------------------------------------------------------- runs */

/* The variant uses scratch disks (loop devices over files on one disk). */
static bool
variant_scratch(const struct lab_variant *v)
{
	return v->directory == NULL && v->scratch_count > 0;
}

static void
add_strv(struct strbuf *b, const struct lab_strv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		strbuf_printf(b, "%s%s", i ? " " : "", v->v[i]);
}

/* The array part of a variant's one-line description. */
static void
array_text(struct strbuf *b, const struct lab_array *a)
{
	char sz[UNITS_BUF];

	switch (a->engine) {
	case LAB_ENGINE_BTRFS:
		strbuf_printf(b, "btrfs %s", lab_profile_name(a->profile));
		break;
	case LAB_ENGINE_SINGLE:
		strbuf_add(b, "single");
		break;
	default:
		strbuf_printf(b, "md raid%s", lab_md_level_name(a->md_level));
		if (a->layout != NULL)
			strbuf_printf(b, " layout %s", a->layout);
		if (a->chunk > 0)
			strbuf_printf(b, " chunk %s",
			    units_format_exact(a->chunk, sz, sizeof sz));
		break;
	}
	if (a->nlegs > 0)
		strbuf_printf(b, " over %zu legs", a->nlegs);
	if (a->devices.n > 0) {
		strbuf_add(b, " [");
		add_strv(b, &a->devices);
		strbuf_add(b, "]");
	}
}

/*
 * "directory /x" or "md raid5 chunk 64K [...], ext4 (noatime)", with the
 * scratch label last ("; scratch: ...") for a scratch variant.
 */
static char *
variant_text(const struct lab_variant *v)
{
	struct strbuf b;
	char *text;

	strbuf_init(&b);
	if (v->directory != NULL) {
		strbuf_printf(&b, "directory %s", v->directory);
	} else {
		array_text(&b, &v->array);
		if (v->scratch_count > 0 && v->array.devices.n == 0)
			strbuf_printf(&b, " [%lld scratch disks]",
			    (long long)v->scratch_count);
		if (lab_variant_isset(v, LAB_V_FS)) {
			strbuf_printf(&b, ", %s", lab_fs_type_name(v->fs.type));
			if (v->fs.mount_options != NULL)
				strbuf_printf(&b, " (%s)", v->fs.mount_options);
		}
	}
	if (variant_scratch(v))
		strbuf_printf(&b, "; %s", SCRATCH_LABEL);
	text = strbuf_take(&b);
	strbuf_done(&b);
	return text;
}

static json_t *
variant_json(const struct lab_variant *v)
{
	json_t *o = json_object();
	char path[LAB_PATH_MAX];
	const char *name =
	    v->name ? v->name : lab_variant_path(v, -1, path, sizeof path);
	char *text = variant_text(v);

	json_object_set_new(o, "name", jsonx_str(name));
	json_object_set_new(o, "kind",
	    json_string(v->directory != NULL ? "directory" : "array"));
	json_object_set_new(o, "scratch", json_boolean(variant_scratch(v)));
	if (v->description != NULL)
		json_object_set_new(o, "description",
		    jsonx_str(v->description));
	json_object_set_new(o, "text", jsonx_str(text));
	free(text);
	return o;
}

/* One parameter value as a typed JSON value. */
static json_t *
param_json(const struct param *p, const struct param_value *v)
{
	char sz[UNITS_BUF];
	json_t *a;
	size_t i;

	if (v->is_auto)
		return json_string("auto");
	switch (p->kind) {
	case PARAM_INT:
		return json_integer(v->i);
	case PARAM_SIZE:
		return json_string(units_format_exact(v->size, sz, sizeof sz));
	case PARAM_BOOL:
		return json_boolean(v->i != 0);
	case PARAM_STRING:
		return jsonx_str(v->s);
	case PARAM_ENUM:
		return v->i >= 0 && p->values != NULL
		    ? json_string(p->values[v->i])
		    : json_null();
	case PARAM_INT_LIST:
		a = json_array();
		for (i = 0; i < v->nlist; i++)
			json_array_append_new(a, json_integer(v->list[i]));
		return a;
	}
	return json_null();
}

/*
 * A default that does not apply: the parameter was not written and one
 * it excludes was ("count" when "counts" is given).
 */
static bool
param_excluded(const struct lab_workload *w, size_t i)
{
	const struct param *ps = w->wl->params, *p = &ps[i];
	size_t k;
	int j;

	if (w->values[i].set)
		return false;
	if (p->conflicts != NULL && (j = param_index(ps, p->conflicts)) >= 0 &&
	    (size_t)j < w->nvalues && w->values[j].set)
		return true;
	for (k = 0; k < w->nvalues && ps[k].name != NULL; k++)
		if (ps[k].conflicts != NULL &&
		    strcmp(ps[k].conflicts, p->name) == 0 && w->values[k].set)
			return true;
	return false;
}

static json_t *
workload_json(const struct lab_workload *w)
{
	json_t *o = json_object(), *params = json_object();
	size_t i;

	json_object_set_new(o, "type", jsonx_str(w->type));
	json_object_set_new(o, "name", jsonx_str(lab_workload_name(w)));
	/* Every parameter's effective value, defaults included. */
	for (i = 0;
	     w->wl != NULL && w->wl->params[i].name != NULL && i < w->nvalues;
	     i++)
		if (!param_excluded(w, i))
			json_object_set_new(params, w->wl->params[i].name,
			    param_json(&w->wl->params[i], &w->values[i]));
	json_object_set_new(o, "params", params);
	return o;
}

/* Fill r from the run object o; false (with e) when its result is bad. */
static bool
run_from_json(struct record_run *r, json_t *o, struct err *e)
{
	const json_t *v = json_object_get(o, "variant");
	const json_t *w = json_object_get(o, "workload");
	const char *s;

	memset(r, 0, sizeof *r);
	r->json = o;
	r->variant = xstrdup((s = record_get_str(v, "name")) ? s : "?");
	record_get_bool(v, "scratch", &r->scratch);
	r->type = xstrdup((s = record_get_str(w, "type")) ? s : "?");
	r->workload = xstrdup((s = record_get_str(w, "name")) ? s : r->type);
	if (!record_get_int(o, "repeat", &r->repeat))
		r->repeat = 1;
	if ((s = record_get_str(o, "skipped")) != NULL)
		r->skipped = xstrdup(s);
	if (json_object_get(o, "status") == NULL)
		return true;
	r->res = record_result_from_json(o, e);
	return r->res != NULL;
}

static struct record_run *
runs_push(struct record *rec)
{
	rec->runs = xreallocarray(rec->runs, rec->nruns + 1, sizeof *rec->runs);
	return &rec->runs[rec->nruns++];
}

void
record_add_run(struct record *rec, const struct lab_variant *v,
    const char *target, const struct lab_workload *w, int repeat,
    const struct wl_result *res, const char *skipped)
{
	json_t *run = json_object(), *rj;
	void *it;
	const char *key;
	struct err e;

	json_object_set_new(run, "variant", variant_json(v));
	json_object_set_new(run, "target",
	    target ? record_target_json(target) : json_null());
	json_object_set_new(run, "workload", workload_json(w));
	json_object_set_new(run, "repeat", json_integer(repeat));
	if (skipped != NULL)
		json_object_set_new(run, "skipped", jsonx_str(skipped));
	if (res != NULL) {
		rj = record_result_to_json(res);
		for (it = json_object_iter(rj); it != NULL;
		     it = json_object_iter_next(rj, it)) {
			key = json_object_iter_key(it);
			if (json_object_get(run, key) == NULL)
				json_object_set(run, key,
				    json_object_iter_value(it));
		}
		json_decref(rj);
	}
	json_array_append_new(json_object_get(rec->root, "runs"), run);
	if (!run_from_json(runs_push(rec), run, &e)) {
		/* Cannot happen: the JSON was just made from res. */
		wl_result_free(rec->runs[rec->nruns - 1].res);
		rec->runs[rec->nruns - 1].res = NULL;
	}
}

/* ---------------------------------------------------------------- imported */

struct record *
record_new_imported(const char *name, json_t *host, json_t *imported)
{
	struct record *rec = record_begin();

	/* Measured elsewhere: this machine's facts would be false. */
	json_object_set_new(rec->root, "host", host ? host : json_object());
	json_object_set_new(rec->root, "lab",
	    json_pack("{s:o, s:n, s:n}", "name", jsonx_str(name), "path",
		"text"));
	json_object_set_new(rec->root, "imported", imported);
	json_object_set_new(rec->root, "status", json_string("ok"));
	json_object_set_new(rec->root, "runs", json_array());
	return rec;
}

int
record_add_imported_run(struct record *rec, const char *variant,
    const char *text, json_t *host, const struct lab_workload *w,
    const struct wl_result *res, struct err *e)
{
	json_t *run = json_object(), *rj;
	void *it;
	const char *key;

	json_object_set_new(run, "variant",
	    json_pack("{s:o, s:s, s:b, s:o}", "name", jsonx_str(variant),
		"kind", "imported", "scratch", 0, "text", jsonx_str(text)));
	json_object_set_new(run, "target", json_null());
	if (host != NULL)
		json_object_set_new(run, "host", host);
	json_object_set_new(run, "workload", workload_json(w));
	json_object_set_new(run, "repeat", json_integer(1));
	rj = record_result_to_json(res);
	for (it = json_object_iter(rj); it != NULL;
	     it = json_object_iter_next(rj, it)) {
		key = json_object_iter_key(it);
		if (json_object_get(run, key) == NULL)
			json_object_set(run, key, json_object_iter_value(it));
	}
	json_decref(rj);
	json_array_append_new(json_object_get(rec->root, "runs"), run);
	if (!run_from_json(runs_push(rec), run, e))
		return -EINVAL;
	return 0;
}

/* ---------------------------------------------------------------- save */

void
record_stamp(time_t t, char *buf, size_t len)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y%m%d-%H%M%S", &tm);
}

char *
record_reserve_path(const char *dir, const char *base)
{
	char *path = xasprintf("%s/%s.json", dir, base);
	int n, fd;

	for (n = 2; (fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			 0644)) < 0 &&
	     errno == EEXIST;
	     n++) {
		free(path);
		path = xasprintf("%s/%s-%d.json", dir, base, n);
	}
	if (fd >= 0)
		close(fd);
	return path;
}

/* dir/LAB-YYYYMMDD-HHMMSS.json (record_reserve_path()). */
static char *
new_path(const struct record *rec, const char *dir)
{
	const char *lab =
	    record_get_str(json_object_get(rec->root, "lab"), "name");
	char stamp[32], *base, *path;

	record_stamp(rec->created, stamp, sizeof stamp);
	base = xasprintf("%s-%s", lab ? lab : "lab", stamp);
	path = record_reserve_path(dir, base);
	free(base);
	return path;
}

int
record_save(struct record *rec, const char *dir, struct err *e)
{
	char *text;
	int rc;

	bool fresh = rec->path == NULL;

	if (fresh) {
		if ((rc = afile_mkdirs(dir, 0755)) < 0)
			return err_set(e, rc, dir, 0, NULL,
			    _("cannot create the results directory: %s"),
			    strerror(-rc));
		rec->path = new_path(rec, dir);
	}
	if ((text = record_dumps(rec)) == NULL)
		rc = err_set(e, -ENOMEM, rec->path, 0, NULL, "%s",
		    _("cannot encode the record as JSON"));
	else
		rc = afile_write(rec->path, text, strlen(text), e);
	free(text);
	if (rc < 0 && fresh) {
		/* Give back the name new_path() reserved. */
		unlink(rec->path);
		free(rec->path);
		rec->path = NULL;
	}
	return rc;
}

/*
 * Put arrays that hold only numbers (and null, and such arrays) on one
 * line: latency buckets and series would otherwise take a line per
 * number. In place; the text stays equivalent JSON.
 */
/* The end of the array at s ('[') when it holds only numbers, null and
 * such arrays, else NULL. */
static const char *
numeric_array_end(const char *s)
{
	int depth = 0;

	for (; *s != '\0' && strchr("[]0123456789.eE+-nul, \n", *s); s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']' && --depth == 0)
			return s;
	}
	return NULL;
}

static void
compact_arrays(char *s)
{
	char *w = s, *r = s;
	const char *end;
	bool in_str = false;

	while (*r != '\0') {
		if (in_str) {
			if (*r == '\\' && r[1] != '\0')
				*w++ = *r++;
			else if (*r == '"')
				in_str = false;
			*w++ = *r++;
			continue;
		}
		if (*r == '"')
			in_str = true;
		if (*r != '[' || (end = numeric_array_end(r)) == NULL) {
			*w++ = *r++;
			continue;
		}
		/* In place: the space after a comma takes a blank's place. */
		for (; r <= end; r++) {
			if (*r == ' ' || *r == '\n')
				continue;
			*w++ = *r;
			if (*r == ',' && (r[1] == ' ' || r[1] == '\n'))
				*w++ = ' ';
		}
	}
	*w = '\0';
}

char *
record_dumps(const struct record *rec)
{
	char *text = json_dumps(rec->root, JSON_INDENT(1)), *out;

	if (text == NULL)
		return NULL;
	compact_arrays(text);
	out = xasprintf("%s\n", text);
	free(text);
	return out;
}

/* ---------------------------------------------------------------- load */

time_t
record_parse_time(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof tm);
	if (s == NULL ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
		&tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

/* The document is a record this raidlab can read. */
static int
check_format(const json_t *root, const char *path, struct err *e)
{
	const char *fmt = record_get_str(root, "format");
	int version;

	if (!json_is_object(root) || fmt == NULL ||
	    strcmp(fmt, RECORD_FORMAT) != 0)
		return err_set(e, -EINVAL, path, 0, NULL, "%s",
		    _("not a raidlab result record"));
	if (!record_get_int(root, "version", &version) || version < 1)
		return err_set(e, -EINVAL, path, 0, NULL, "%s",
		    _("raidlab result record without a valid version"));
	if (version > RECORD_VERSION)
		return err_set(e, -EINVAL, path, 0, NULL,
		    _("record format version %d is newer than this raidlab "
		      "reads (%d): upgrade raidlab"),
		    version, RECORD_VERSION);
	if (!json_is_array(json_object_get(root, "runs")))
		return err_set(e, -EINVAL, path, 0, NULL, "%s",
		    _("malformed record: no runs"));
	return 0;
}

static int
load_runs(struct record *rec, const char *path, struct err *e)
{
	json_t *runs = json_object_get(rec->root, "runs"), *o;
	struct err re;
	char msg[ERR_MSG_MAX];
	size_t i;

	for (i = 0; i < json_array_size(runs); i++) {
		o = json_array_get(runs, i);
		err_clear(&re);
		if (!json_is_object(o) ||
		    !run_from_json(runs_push(rec), o, &re)) {
			snprintf(msg, sizeof msg, "%s", re.msg);
			return err_set(e, -EINVAL, path, 0, NULL,
			    _("run %zu: %s"), i + 1,
			    msg[0] ? msg : _("not an object"));
		}
	}
	return 0;
}

int
record_load(const char *path, struct record **out, struct err *e)
{
	struct record *rec;
	json_error_t jerr;
	json_t *root;
	FILE *fp;
	int rc;

	*out = NULL;
	if ((fp = fopen(path, "re")) == NULL)
		return err_set(e, -errno, path, 0, NULL, _("cannot read: %s"),
		    strerror(errno));
	root = json_loadf(fp, 0, &jerr);
	fclose(fp);
	if (root == NULL)
		return err_set(e, -EINVAL, path, jerr.line > 0 ? jerr.line : 0,
		    NULL, _("column %d: %s"), jerr.column, jerr.text);
	if ((rc = check_format(root, path, e)) < 0) {
		json_decref(root);
		return rc;
	}
	mark_orphan(root);
	rec = xcalloc(1, sizeof *rec);
	rec->root = root;
	rec->path = xstrdup(path);
	rec->created = record_parse_time(record_get_str(root, "created"));
	if ((rc = load_runs(rec, path, e)) < 0) {
		record_free(rec);
		return rc;
	}
	*out = rec;
	return 0;
}

/* ---------------------------------------------------------------- where */

char *
record_results_dir(const struct lab *lab)
{
	char *d;

	if (lab != NULL && lab->results != NULL)
		return paths_expand(lab->results);
	d = paths_xdg("XDG_DATA_HOME", ".local/share", "results");
	/* No home at all: the root directory's. */
	return d != NULL ? d : xstrdup("/.local/share/raidlab/results");
}
