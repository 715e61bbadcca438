/*
 * struct err and struct errlist: see err.h. Any thread.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "xalloc.h"

static void
copy_str(char *dst, size_t len, const char *src)
{
	if (src == NULL)
		src = "";
	snprintf(dst, len, "%s", src);
}

static void
err_vset(struct err *e, int code, const char *file, int line, const char *field,
    const char *fmt, va_list ap)
{
	e->code = code;
	e->line = line;
	copy_str(e->file, sizeof e->file, file);
	copy_str(e->field, sizeof e->field, field);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

void
err_clear(struct err *e)
{
	memset(e, 0, sizeof *e);
}

bool
err_isset(const struct err *e)
{
	return e->code != 0 || e->msg[0] != '\0';
}

int
err_set(struct err *e, int code, const char *file, int line, const char *field,
    const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return code;
	va_start(ap, fmt);
	err_vset(e, code, file, line, field, fmt, ap);
	va_end(ap);
	return code;
}

int
err_setf(struct err *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return code;
	va_start(ap, fmt);
	err_vset(e, code, NULL, 0, NULL, fmt, ap);
	va_end(ap);
	return code;
}

static void appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Append to buf at *off, stopping quietly when buf is full. */
static void
appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off = *off + (size_t)n < len ? *off + (size_t)n : len - 1;
}

const char *
err_format(const struct err *e, char *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (e->file[0] != '\0' && e->line > 0)
		appendf(buf, len, &off, "%s:%d: ", e->file, e->line);
	else if (e->file[0] != '\0')
		appendf(buf, len, &off, "%s: ", e->file);
	if (e->field[0] != '\0')
		appendf(buf, len, &off, "%s: ", e->field);
	appendf(buf, len, &off, "%s", e->msg);
	return buf;
}

void
errlist_init(struct errlist *l)
{
	l->v = NULL;
	l->n = 0;
	l->cap = 0;
}

void
errlist_done(struct errlist *l)
{
	free(l->v);
	errlist_init(l);
}

void
errlist_push(struct errlist *l, const struct err *e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = *e;
}

int
errlist_add(struct errlist *l, int code, const char *file, int line,
    const char *field, const char *fmt, ...)
{
	struct err e;
	va_list ap;

	va_start(ap, fmt);
	err_vset(&e, code, file, line, field, fmt, ap);
	va_end(ap);
	errlist_push(l, &e);
	return code;
}

static int
err_cmp(const struct err *a, const struct err *b)
{
	int c = strcmp(a->file, b->file);

	if (c != 0)
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

/* qsort() of pointers into the list: ties keep the list's order (the
   pointers' order), so the sort is stable. */
static int
ptr_cmp(const void *x, const void *y)
{
	const struct err *a = *(const struct err *const *)x;
	const struct err *b = *(const struct err *const *)y;
	int c = err_cmp(a, b);

	return c != 0 ? c : (a > b) - (a < b);
}

void
errlist_sort(struct errlist *l)
{
	const struct err **order;
	struct err t;
	size_t i, j, k, *to;

	/* n log n comparisons on pointers, then each entry moved once along
	   the cycles of the permutation: a check of a lab of 100 000
	   workloads can report as many problems. */
	if (l->n < 2)
		return;
	order = xcalloc(l->n, sizeof *order);
	for (i = 0; i < l->n; i++)
		order[i] = &l->v[i];
	qsort(order, l->n, sizeof *order, ptr_cmp);
	/* to[i]: the position the entry now at i goes to. */
	to = xcalloc(l->n, sizeof *to);
	for (i = 0; i < l->n; i++)
		to[(size_t)(order[i] - l->v)] = i;
	free(order);
	for (i = 0; i < l->n; i++) {
		while ((j = to[i]) != i) {
			t = l->v[j];
			l->v[j] = l->v[i];
			l->v[i] = t;
			k = to[j];
			to[j] = j;
			to[i] = k;
		}
	}
	free(to);
}
