/*
 * A growing string, for text the core builds and a front end prints
 * (report tables, plans). Owned by one thread.
 */
#ifndef RAIDLAB_STRBUF_H
#define RAIDLAB_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *s; /* always NUL-terminated once initialised */
	size_t len, cap;
};

void strbuf_init(struct strbuf *b);
void strbuf_done(struct strbuf *b);
void strbuf_add(struct strbuf *b, const char *s);
void strbuf_printf(struct strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Hand over the string (the caller frees it); b is left empty and owns
   nothing, so strbuf_done() is optional and appending starts afresh. */
char *strbuf_take(struct strbuf *b);

#endif
