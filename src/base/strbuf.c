/*
 * Growing string: see strbuf.h. The owner's thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

void
strbuf_init(struct strbuf *b)
{
	b->cap = 64;
	b->len = 0;
	b->s = xmalloc(b->cap);
	b->s[0] = '\0';
}

void
strbuf_done(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

static void
reserve(struct strbuf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	if (b->cap == 0)
		b->cap = 64; /* after strbuf_take(): empty, released */
	while (b->len + more + 1 > b->cap)
		b->cap *= 2;
	b->s = xrealloc(b->s, b->cap);
}

void
strbuf_add(struct strbuf *b, const char *s)
{
	size_t n = strlen(s);

	reserve(b, n);
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

void
strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n <= 0)
		return;
	reserve(b, (size_t)n);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *
strbuf_take(struct strbuf *b)
{
	char *s = b->s;

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}
