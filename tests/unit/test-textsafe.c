/*
 * textsafe: what a terminal would obey (ESC, OSC ... BEL, CSI as the C1
 * byte, DEL, invalid UTF-8) comes out as "\xHH"; printable text, UTF-8
 * included, comes out as it went in.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/textsafe.h"

struct pair {
	const char *in;
	unsigned flags;
	const char *out;
};

/* By index: Criterion may run a test in a new image of the program,
   where a pointer into the parent's table would not hold. */
static const struct pair pairs[] = {
	{ "plain name", 0, "plain name" },
	{ "a\033[2Jb", 0, "a\\x1b[2Jb" },
	{ "\033]0;pwned\007", 0, "\\x1b]0;pwned\\x07" },
	{ "del\177", 0, "del\\x7f" },
	{ "c1 \302\233 csi", 0, "c1 \\xc2\\x9b csi" },
	{ "raw \233 byte", 0, "raw \\x9b byte" },
	{ "caf\303\251 \342\200\224 \360\237\222\276", 0,
	    "caf\303\251 \342\200\224 \360\237\222\276" },
	{ "nbsp \302\240", 0, "nbsp \302\240" },
	{ "overlong \300\257", 0, "overlong \\xc0\\xaf" },
	{ "surrogate \355\240\200", 0, "surrogate \\xed\\xa0\\x80" },
	{ "cut \342\200", 0, "cut \\xe2\\x80" },
	{ "a\nb\tc\r", 0, "a\\x0ab\\x09c\\x0d" },
	{ "a\nb\tc\r", TEXTSAFE_LINES, "a\nb\tc\\x0d" },
	{ "a\nb\tc", TEXTSAFE_NL, "a\nb\\x09c" },
	{ "back\\slash", 0, "back\\slash" },
	{ "", 0, "" },
};

#define NPAIRS (sizeof pairs / sizeof pairs[0])

ParameterizedTestParameters(textsafe, renders)
{
	static size_t idx[NPAIRS];

	for (size_t i = 0; i < NPAIRS; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, NPAIRS);
}

ParameterizedTest(size_t *i, textsafe, renders)
{
	const struct pair *p = &pairs[*i];
	char *s = textsafe_dup(p->in, p->flags);

	cr_assert_str_eq(s, p->out, "input %zu bytes", strlen(p->in));
	cr_assert_eq(textsafe_is_clean(p->in, p->flags),
	    strcmp(p->in, p->out) == 0);
	cr_assert(textsafe_is_clean(s, p->flags), "output is clean");
	free(s);
}

Test(textsafe, appends_after_what_is_there)
{
	struct strbuf b;

	strbuf_init(&b);
	strbuf_add(&b, "label '");
	textsafe_add(&b, "x\033y", 0);
	textsafe_add(&b, NULL, 0);
	strbuf_add(&b, "'");
	cr_assert_str_eq(b.s, "label 'x\\x1by'");
	strbuf_done(&b);
}

Test(textsafe, null_is_empty_and_clean)
{
	char *s = textsafe_dup(NULL, 0);

	cr_assert_str_eq(s, "");
	cr_assert(textsafe_is_clean(NULL, 0));
	free(s);
}

/* No byte a terminal acts on survives, whatever the input. */
Test(textsafe, every_byte_pair_comes_out_clean)
{
	char in[3] = { 0, 0, 0 };

	for (int a = 1; a < 256; a++)
		for (int c = 0; c < 256; c++) {
			char *s;

			in[0] = (char)a;
			in[1] = (char)c;
			s = textsafe_dup(in, TEXTSAFE_LINES);
			for (const unsigned char *p = (unsigned char *)s;
			     *p != '\0'; p++)
				cr_assert(*p >= 0x20 || *p == '\n' ||
					*p == '\t',
				    "byte %02x from %02x %02x", *p, a, c);
			cr_assert(strchr(s, 0x7f) == NULL);
			cr_assert(strstr(s, "\302\233") == NULL);
			free(s);
		}
}
