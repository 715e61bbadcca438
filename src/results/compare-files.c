/*
 * The record files of a results directory, for the pickers of the
 * Compare screen: each one's lab, creation time, status and how many runs
 * and variants, read from its JSON without loading its results. See
 * compare.h. Any thread.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "compare.h"
#include "record.h"

static const char *
json_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void
file_done(struct compare_file *f)
{
	free(f->path);
	free(f->lab);
	free(f->status);
	free(f->error);
	free(f->fleet_run);
	free(f->fleet_host);
}

void
compare_files_done(struct compare_files *l)
{
	for (size_t i = 0; i < l->n; i++)
		file_done(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static size_t
count_variants(const json_t *runs)
{
	size_t n = 0, i, j;

	for (i = 0; i < json_array_size(runs); i++) {
		const char *v =
		    json_str(json_object_get(json_array_get(runs, i),
				 "variant"),
			"name");
		bool seen = v == NULL;

		for (j = 0; j < i && !seen; j++) {
			const char *w =
			    json_str(json_object_get(json_array_get(runs, j),
					 "variant"),
				"name");

			seen = w != NULL && strcmp(v, w) == 0;
		}
		n += !seen;
	}
	return n;
}

/* What the picker shows of one file: read the JSON, not the results. */
static void
file_read(struct compare_file *f)
{
	json_error_t jerr;
	json_t *root = json_load_file(f->path, 0, &jerr);
	const char *fmt, *s;

	if (root == NULL) {
		f->error = xasprintf(_("line %d: %s"), jerr.line, jerr.text);
		return;
	}
	fmt = json_str(root, "format");
	if (fmt == NULL || strcmp(fmt, RECORD_FORMAT) != 0) {
		f->error = xstrdup(_("not a raidlab result record"));
	} else {
		f->ok = true;
		if ((s = json_str(json_object_get(root, "lab"), "name")))
			f->lab = xstrdup(s);
		if ((s = record_status(root)) != NULL)
			f->status = xstrdup(s);
		f->created = record_parse_time(json_str(root, "created"));
		f->nruns = json_array_size(json_object_get(root, "runs"));
		f->nvariants = count_variants(json_object_get(root, "runs"));
		if ((s = json_str(json_object_get(root, "fleet"), "run")))
			f->fleet_run = xstrdup(s);
		if ((s = json_str(json_object_get(root, "fleet"), "host")))
			f->fleet_host = xstrdup(s);
	}
	json_decref(root);
}

static int
file_cmp(const void *a, const void *b)
{
	const struct compare_file *x = a, *y = b;

	if (x->created != y->created)
		return x->created < y->created ? 1 : -1;
	return -strcmp(x->path, y->path);
}

static bool
is_json_file(const char *dir, const char *name)
{
	size_t len = strlen(name);
	struct stat st;
	char *p;
	bool ok;

	if (len <= 5 || strcmp(name + len - 5, ".json") != 0 || name[0] == '.')
		return false;
	p = xasprintf("%s/%s", dir, name);
	ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

int
compare_files_scan(struct compare_files *l, const char *dir, struct err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	l->v = NULL;
	l->n = 0;
	if (d == NULL)
		return errno == ENOENT
		    ? 0
		    : err_set(e, -errno, dir, 0, NULL, _("cannot list: %s"),
			  strerror(errno));
	while ((de = readdir(d)) != NULL) {
		struct compare_file *f;

		if (!is_json_file(dir, de->d_name))
			continue;
		l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
		f = &l->v[l->n++];
		memset(f, 0, sizeof *f);
		f->path = xasprintf("%s/%s", dir, de->d_name);
		file_read(f);
	}
	closedir(d);
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, file_cmp);
	return 0;
}

const struct compare_file *
compare_files_latest(const struct compare_files *l, const char *lab)
{
	/* The list is newest first. */
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].ok && l->v[i].nruns > 0 && l->v[i].lab != NULL &&
		    strcmp(l->v[i].lab, lab) == 0)
			return &l->v[i];
	return NULL;
}

static int
path_cmp(const void *a, const void *b)
{
	const struct compare_file *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

const struct compare_file **
compare_files_run(const struct compare_files *l, const struct compare_file *f,
    size_t *n)
{
	const struct compare_file **v = xcalloc(l->n + 1, sizeof *v);

	*n = 0;
	if (f->fleet_run == NULL) {
		v[(*n)++] = f;
		return v;
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].ok && l->v[i].fleet_run != NULL &&
		    strcmp(l->v[i].fleet_run, f->fleet_run) == 0)
			v[(*n)++] = &l->v[i];
	/* By name, so by host: the same first host (the baseline's) however
	   the hosts finished. */
	qsort(v, *n, sizeof *v, path_cmp);
	return v;
}
