/*
 * Text that is safe to show: a byte string from outside (a filesystem
 * label, a disk model, an imported job name, a lab's description, a
 * record's host) rendered so that a terminal or a text file shows it and
 * does not obey it. Control characters (C0, DEL, the C1 range
 * U+0080..U+009F) and bytes that are not valid UTF-8 become "\xHH", one
 * per byte, as lsblk shows them; printable UTF-8 and backslashes stay as
 * they are. Any thread (pure functions).
 */
#ifndef RAIDLAB_TEXTSAFE_H
#define RAIDLAB_TEXTSAFE_H

#include <stdbool.h>

struct strbuf;

enum {
	TEXTSAFE_NL = 1 << 0, /* keep '\n': the text is a layout of lines */
	TEXTSAFE_TAB = 1 << 1, /* keep '\t' */
	TEXTSAFE_LINES = TEXTSAFE_NL | TEXTSAFE_TAB,
};

/* Append s, rendered safe under flags, to b (s NULL: nothing). */
void textsafe_add(struct strbuf *b, const char *s, unsigned flags);

/* s rendered safe under flags (NULL gives ""). Caller frees. */
char *textsafe_dup(const char *s, unsigned flags);

/* Whether s needs no rendering under flags (NULL is clean). */
bool textsafe_is_clean(const char *s, unsigned flags);

#endif
