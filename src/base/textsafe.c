/*
 * Safe text: see textsafe.h. Any thread.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "strbuf.h"
#include "textsafe.h"
#include "xalloc.h"

/*
 * The length of the valid UTF-8 sequence at s that is not a control
 * character, or 0: s[0] is to be escaped. Overlong forms, surrogates,
 * code points past U+10FFFF and the C1 controls (U+0080..U+009F, which
 * a terminal obeys like ESC [) are refused.
 */
static size_t
printable_len(const unsigned char *s, unsigned flags)
{
	unsigned cp;
	size_t n, i;

	if (s[0] < 0x80) {
		if (s[0] == '\n')
			return (flags & TEXTSAFE_NL) ? 1 : 0;
		if (s[0] == '\t')
			return (flags & TEXTSAFE_TAB) ? 1 : 0;
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f)
		return 0;
	return n;
}

void
textsafe_add(struct strbuf *b, const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;

	if (s == NULL)
		return;
	while (*p != '\0') {
		size_t n = 0;

		/* The longest run that needs nothing, added at once. */
		while (p[n] != '\0') {
			size_t k = printable_len(p + n, flags);

			if (k == 0)
				break;
			n += k;
		}
		if (n > 0) {
			strbuf_printf(b, "%.*s", (int)n, (const char *)p);
			p += n;
			continue;
		}
		strbuf_printf(b, "\\x%02x", *p++);
	}
}

char *
textsafe_dup(const char *s, unsigned flags)
{
	struct strbuf b;

	strbuf_init(&b);
	textsafe_add(&b, s, flags);
	return strbuf_take(&b);
}

bool
textsafe_is_clean(const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;

	if (s == NULL)
		return true;
	while (*p != '\0') {
		size_t k = printable_len(p, flags);

		if (k == 0)
			return false;
		p += k;
	}
	return true;
}
