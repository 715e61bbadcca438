/*
 * Allocation that never returns NULL, and fatal(). On failure fatal() runs
 * the hook a front end registered (the TUI restores the terminal) before it
 * prints and exits. Safe from any thread; the hook is set once at startup.
 */
#ifndef RAIDLAB_XALLOC_H
#define RAIDLAB_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

typedef void (*fatal_hook_fn)(void);

/* Register the function fatal() calls before printing (NULL for none). */
void xalloc_set_fatal_hook(fatal_hook_fn hook);

/* Print "raidlab: MESSAGE" to stderr and exit(1). */
_Noreturn void
fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grow an array of n elements of size to at least want elements. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
/* xstrdup(s), or NULL when s is NULL. */
char *xstrdup_null(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *
xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
