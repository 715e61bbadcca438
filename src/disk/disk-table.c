/*
 * Disk inventory table layout: see disk-table.h. Any thread (display
 * widths depend on the process locale).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/textsafe.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "disk-table.h"

enum {
	C_NAME,
	C_SIZE,
	C_TYPE,
	C_MODEL,
	C_TRAN,
	C_ROTA,
	C_FSTYPE,
	C_VERDICT,
	C_REASON,
	NCOL
};

/* Column headers are fixed tokens, as in lsblk, not translated. */
static const char *const headers[NCOL] = {
	"NAME",
	"SIZE",
	"TYPE",
	"MODEL",
	"TRAN",
	"ROTA",
	"FSTYPE",
	"VERDICT",
	"REASON",
};

/* Shrink steps, in order, before columns are dropped: the model goes
 * first, but every column keeps something readable as long as it can. */
static const struct {
	int col;
	size_t min;
} shrink[] = {
	{ C_MODEL, 12 },
	{ C_REASON, 30 },
	{ C_FSTYPE, 8 },
	{ C_MODEL, 5 },
	{ C_REASON, 12 },
	{ C_FSTYPE, 4 },
};

struct row {
	char *cell[NCOL];
	bool path; /* the model cell is a path: keep its tail */
};

/* Bytes and columns of the character at s; bad bytes are one of each. */
static size_t
next_char(const char *s, mbstate_t *st, size_t *cols)
{
	wchar_t wc;
	size_t n = mbrtowc(&wc, s, strlen(s), st);
	int w;

	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		memset(st, 0, sizeof *st);
		*cols = 1;
		return 1;
	}
	w = wcwidth(wc);
	*cols = w < 0 ? 1 : (size_t)w;
	return n;
}

size_t
disk_table_width(const char *s)
{
	mbstate_t st;
	size_t w = 0, c;

	memset(&st, 0, sizeof st);
	while (*s != '\0') {
		s += next_char(s, &st, &c);
		w += c;
	}
	return w;
}

/* s in at most w columns: its head (or tail) and an ellipsis. */
static char *
fit(const char *s, size_t w, bool keep_tail, const char *ell)
{
	size_t total = disk_table_width(s), used = 0, c, n;
	const char *p = s;
	mbstate_t st;

	if (total <= w)
		return xstrdup(s);
	if (w == 0)
		return xstrdup("");
	memset(&st, 0, sizeof st);
	if (keep_tail) {
		while (*p != '\0' && total - used > w - 1) {
			p += next_char(p, &st, &c);
			used += c;
		}
		return xasprintf("%s%s", ell, p);
	}
	while (*p != '\0') {
		n = next_char(p, &st, &c);
		if (used + c > w - 1)
			break;
		p += n;
		used += c;
	}
	return xasprintf("%.*s%s", (int)(p - s), s, ell);
}

/* Is d the last partition of its parent among the rows shown? */
static bool
last_child(const struct disk_list *l, size_t i, disk_filter_fn keep, void *arg)
{
	size_t j;

	for (j = i + 1; j < l->n; j++)
		if (l->v[j].parent != NULL &&
		    strcmp(l->v[j].parent, l->v[i].parent) == 0 &&
		    (keep == NULL || keep(&l->v[j], arg)))
			return false;
	return true;
}

static bool
parent_shown(const struct disk_list *l, const struct disk *d,
    disk_filter_fn keep, void *arg)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, d->parent) == 0)
			return keep == NULL || keep(&l->v[i], arg);
	return false;
}

static void
fill_row(struct row *r, const struct disk *d, const char *marker)
{
	char b[UNITS_BUF];
	const char *model =
	    d->type == DISK_TYPE_LOOP ? d->backing_file : d->model;
	const char *fs = d->fstype ? d->fstype : d->pttype;
	bool part = d->parent != NULL;

	/* Unprobed, a mounted device still has mountinfo's type. */
	if (d->probe != DISK_PROBE_OK)
		fs = d->mount_fstype ? d->mount_fstype : "?";
	r->cell[C_NAME] = xasprintf("%s%s", marker, d->name);
	r->cell[C_SIZE] = xstrdup(units_format_size(d->size, b, sizeof b));
	r->cell[C_TYPE] = xstrdup(disk_type_name(d->type));
	r->cell[C_MODEL] = xstrdup(!part && model ? model : "");
	r->path = d->type == DISK_TYPE_LOOP;
	r->cell[C_TRAN] = xstrdup(!part && d->transport ? d->transport : "");
	r->cell[C_ROTA] = xstrdup(part ? "" : d->rotational ? "rot" : "ssd");
	r->cell[C_FSTYPE] = xstrdup(fs ? fs : "");
	r->cell[C_VERDICT] = xstrdup(disk_verdict_name(d->verdict));
	r->cell[C_REASON] = xstrdup(d->reason);
	/* A model, a backing file or a mount point in a reason comes from
	   outside and is measured as it will be shown. */
	for (size_t c = 0; c < NCOL; c++)
		if (!textsafe_is_clean(r->cell[c], 0)) {
			char *t = textsafe_dup(r->cell[c], 0);

			free(r->cell[c]);
			r->cell[c] = t;
		}
}

static size_t
total_width(const size_t *w)
{
	size_t c, sum = 0, cols = 0;

	for (c = 0; c < NCOL; c++)
		if (w[c] > 0) {
			sum += w[c];
			cols++;
		}
	return cols ? sum + cols - 1 : 0;
}

/* Column widths: natural, then shrunk and dropped to fit width. */
static void
layout(size_t *w, const size_t *nat, size_t width)
{
	static const int drop[] = { C_MODEL, C_TRAN, C_ROTA };
	size_t i, t, ns = sizeof shrink / sizeof shrink[0];

	memcpy(w, nat, NCOL * sizeof *w);
	for (i = 0; i < ns && width && (t = total_width(w)) > width; i++) {
		size_t c = (size_t)shrink[i].col, min = shrink[i].min;

		if (w[c] > min)
			w[c] -= t - width < w[c] - min ? t - width : w[c] - min;
	}
	for (i = 0; i < 3 && width && total_width(w) > width; i++)
		w[drop[i]] = 0;
	/* Room freed by dropping goes back to the reason. */
	t = total_width(w);
	if (width && t < width && w[C_REASON] < nat[C_REASON])
		w[C_REASON] += width - t < nat[C_REASON] - w[C_REASON]
		    ? width - t
		    : nat[C_REASON] - w[C_REASON];
}

static char *
format_row(char *const *cell, bool path, const size_t *w, unsigned flags)
{
	const char *ell = flags & DISK_TABLE_UTF8 ? "\u2026" : "~";
	size_t c, last = 0, len = 0, cap = 256;
	char *line = xmalloc(cap);

	for (c = 0; c < NCOL; c++)
		if (w[c] > 0)
			last = c;
	line[0] = '\0';
	for (c = 0; c < NCOL; c++) {
		char *s;
		size_t sw, pad, need;

		if (w[c] == 0)
			continue;
		s = fit(cell[c], w[c], path && c == C_MODEL, ell);
		sw = disk_table_width(s);
		pad = c == last ? 0 : w[c] - sw;
		need = len + strlen(s) + pad + 2;
		if (need > cap)
			line = xrealloc(line, cap = 2 * need);
		if (c == C_SIZE)
			len += (size_t)sprintf(line + len, "%*s%s", (int)pad,
			    "", s);
		else
			len += (size_t)sprintf(line + len, "%s%*s", s, (int)pad,
			    "");
		if (c != last)
			line[len++] = ' ';
		line[len] = '\0';
		free(s);
	}
	return line;
}

void
disk_table_build(struct disk_table *t, const struct disk_list *l,
    disk_filter_fn keep, void *arg, size_t width, unsigned flags)
{
	bool utf8 = flags & DISK_TABLE_UTF8;
	struct row *rows = xcalloc(l->n + 1, sizeof *rows);
	size_t nat[NCOL], w[NCOL], n = 0, i, c;

	memset(t, 0, sizeof *t);
	for (i = 0; i < l->n; i++) {
		const struct disk *d = &l->v[i];
		const char *marker = "";

		if (keep != NULL && !keep(d, arg))
			continue;
		if (d->parent != NULL && parent_shown(l, d, keep, arg)) {
			bool last = last_child(l, i, keep, arg);

			marker = utf8 ? (last ? "\u2514\u2500" : "\u251c\u2500")
				      : (last ? "`-" : "|-");
		}
		fill_row(&rows[n++], d, marker);
	}
	for (c = 0; c < NCOL; c++) {
		nat[c] = disk_table_width(headers[c]);
		for (i = 0; i < n; i++) {
			size_t cw = disk_table_width(rows[i].cell[c]);

			nat[c] = cw > nat[c] ? cw : nat[c];
		}
	}
	layout(w, nat, width);
	t->lines = xcalloc(n + 1, sizeof *t->lines);
	if (!(flags & DISK_TABLE_NO_HEADER)) {
		struct row h;

		for (c = 0; c < NCOL; c++)
			h.cell[c] = xstrdup(headers[c]);
		t->lines[t->n++] = format_row(h.cell, false, w, flags);
		for (c = 0; c < NCOL; c++)
			free(h.cell[c]);
	}
	for (i = 0; i < n; i++) {
		t->lines[t->n++] =
		    format_row(rows[i].cell, rows[i].path, w, flags);
		for (c = 0; c < NCOL; c++)
			free(rows[i].cell[c]);
	}
	free(rows);
}

void
disk_table_done(struct disk_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->lines[i]);
	free(t->lines);
	memset(t, 0, sizeof *t);
}
