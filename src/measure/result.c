/*
 * Results of a workload run: see result.h. The thread that owns them.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "figures/plot.h"
#include "result.h"

struct wl_result *
wl_result_new(const char *workload, const char *name)
{
	struct wl_result *r = xcalloc(1, sizeof *r);

	r->workload = xstrdup(workload);
	r->name = xstrdup(name ? name : workload);
	series_init(&r->series, 1);
	return r;
}

void
wl_result_free(struct wl_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ntests; i++) {
		free(r->tests[i].key);
		free(r->tests[i].label);
		for (unsigned k = 0; k < WL_OP__COUNT; k++)
			hist_done(&r->tests[i].lat[k]);
	}
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->tests);
	free(r->notes);
	free(r->workload);
	free(r->name);
	free(r->error);
	series_done(&r->series);
	free(r);
}

struct wl_test *
wl_result_add_test(struct wl_result *r, const char *key, const char *label,
    enum wl_unit unit)
{
	struct wl_test *t;
	unsigned i;

	r->tests = xreallocarray(r->tests, r->ntests + 1, sizeof *r->tests);
	t = &r->tests[r->ntests++];
	memset(t, 0, sizeof *t);
	t->key = xstrdup(key);
	t->label = xstrdup(label);
	t->unit = unit;
	for (i = 0; i < WL_OP__COUNT; i++)
		hist_init(&t->lat[i]);
	return t;
}

void
wl_result_add_note(struct wl_result *r, const char *text)
{
	r->notes = xreallocarray(r->notes, r->nnotes + 1, sizeof *r->notes);
	r->notes[r->nnotes++] = xstrdup(text);
}

const struct wl_test *
wl_result_test(const struct wl_result *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ntests; i++)
		if (strcmp(r->tests[i].key, key) == 0)
			return &r->tests[i];
	return NULL;
}

double
wl_test_cpu_percent(const struct wl_test *t)
{
	return t->wall > 0 ? (t->user + t->sys) / t->wall * 100.0 : 0.0;
}

double
wl_test_rate(const struct wl_test *t, enum wl_unit unit)
{
	double bytes = (double)(t->bytes_read + t->bytes_written);

	if (unit == WL_UNIT_SECONDS)
		return t->wall;
	if (t->wall <= 0)
		return 0.0;
	switch (unit) {
	case WL_UNIT_KBPS:
		return bytes / 1024.0 / t->wall;
	case WL_UNIT_MBPS:
		return bytes / 1e6 / t->wall;
	case WL_UNIT_MIBPS:
		return bytes / 1048576.0 / t->wall;
	case WL_UNIT_FILES_S:
		return (double)t->files / t->wall;
	case WL_UNIT_SEEKS_S:
	case WL_UNIT_IOPS:
		return (double)t->ops / t->wall;
	default:
		return 0.0;
	}
}

const char *
wl_unit_name(enum wl_unit u)
{
	static const char *const names[] = {
		[WL_UNIT_KBPS] = N_("K/sec"),
		[WL_UNIT_MBPS] = N_("MB/s"),
		[WL_UNIT_FILES_S] = N_("files/s"),
		[WL_UNIT_SEEKS_S] = N_("seeks/s"),
		[WL_UNIT_IOPS] = N_("IOPS"),
		[WL_UNIT_SECONDS] = N_("seconds"),
		[WL_UNIT_MIBPS] = N_("MiB/s"),
		[WL_UNIT_USEC] = N_("µs"),
		/* TRANSLATORS: the unit of a ratio: "2.00 x". */
		[WL_UNIT_RATIO] = N_("x"),
	};

	/* µ is not ASCII: "us" where the terminal cannot show it. */
	if (u == WL_UNIT_USEC && !plot_utf8_locale())
		return "us";
	return (unsigned)u < WL_UNIT__COUNT ? _(names[u]) : "?";
}

static const char *const unit_keys[] = {
	[WL_UNIT_KBPS] = "kbps",
	[WL_UNIT_MBPS] = "mbps",
	[WL_UNIT_FILES_S] = "files_per_s",
	[WL_UNIT_SEEKS_S] = "seeks_per_s",
	[WL_UNIT_IOPS] = "iops",
	[WL_UNIT_SECONDS] = "seconds",
	[WL_UNIT_MIBPS] = "mibps",
	[WL_UNIT_USEC] = "usec",
	[WL_UNIT_RATIO] = "ratio",
};

const char *
wl_unit_key(enum wl_unit u)
{
	return (unsigned)u < WL_UNIT__COUNT ? unit_keys[u] : "?";
}

int
wl_unit_parse(const char *key)
{
	int i;

	for (i = 0; i < WL_UNIT__COUNT; i++)
		if (strcmp(unit_keys[i], key) == 0)
			return i;
	return -1;
}

static const char *const op_names[] = {
	[WL_OP_READ] = "read",
	[WL_OP_WRITE] = "write",
	[WL_OP_CREATE] = "create",
	[WL_OP_STAT] = "stat",
	[WL_OP_DELETE] = "delete",
	[WL_OP_SEEK] = "seek",
	[WL_OP_FSYNC] = "fsync",
};

const char *
wl_op_name(enum wl_op op)
{
	return (unsigned)op < WL_OP__COUNT ? op_names[op] : "?";
}

int
wl_op_parse(const char *name)
{
	int i;

	for (i = 0; i < WL_OP__COUNT; i++)
		if (strcmp(op_names[i], name) == 0)
			return i;
	return -1;
}

static const char *const status_names[] = {
	[WL_OK] = "ok",
	[WL_FAILED] = "failed",
	[WL_INTERRUPTED] = "interrupted",
};

const char *
wl_status_name(enum wl_status s)
{
	return (unsigned)s <= WL_INTERRUPTED ? status_names[s] : "?";
}

int
wl_status_parse(const char *name)
{
	int i;

	for (i = 0; i <= WL_INTERRUPTED; i++)
		if (strcmp(status_names[i], name) == 0)
			return i;
	return -1;
}
