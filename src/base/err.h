/*
 * Error context carried out of the core: a negative errno for the caller's
 * logic, and for the human the file, line and field it is about plus a
 * translated sentence. The core never prints; front ends format a struct
 * err with err_format(). A struct errlist collects every problem found in
 * one pass (a lab file with five mistakes reports five). Any thread, but a
 * given object belongs to one thread.
 */
#ifndef RAIDLAB_ERR_H
#define RAIDLAB_ERR_H

#include <stdbool.h>
#include <stddef.h>

#define ERR_FILE_MAX 1024
#define ERR_FIELD_MAX 128
#define ERR_MSG_MAX 512

struct err {
	int code; /* negative errno, 0 when none */
	int line; /* 1-based; 0 when not known */
	char file[ERR_FILE_MAX]; /* "" when not about a file */
	char field[ERR_FIELD_MAX]; /* "variant.array.level"; "" if none */
	char msg[ERR_MSG_MAX]; /* translated sentence, no newline */
};

void err_clear(struct err *e);
bool err_isset(const struct err *e);

/*
 * Fill e (which may be NULL) and return code, so that a caller can write
 * "return err_set(e, -EINVAL, ...)". file and field may be NULL.
 */
int
err_set(struct err *e, int code, const char *file, int line, const char *field,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Plain form for errors with no file: err_set(e, code, NULL, 0, NULL, ...). */
int err_setf(struct err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * "file:line: field: message", leaving out the parts that are unset.
 * Returns buf.
 */
const char *err_format(const struct err *e, char *buf, size_t len);

struct errlist {
	struct err *v;
	size_t n;
	size_t cap;
};

void errlist_init(struct errlist *l);
void errlist_done(struct errlist *l);
/* Append a copy of e. */
void errlist_push(struct errlist *l, const struct err *e);
/* Append a new entry built like err_set(); returns code. */
int errlist_add(struct errlist *l, int code, const char *file, int line,
    const char *field, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/*
 * Order entries by file, then line, keeping the order of entries on the
 * same line (a reader goes through a file top to bottom).
 */
void errlist_sort(struct errlist *l);

#endif
