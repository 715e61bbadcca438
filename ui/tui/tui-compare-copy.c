/*
 * The Compare screen's copy key: the screen's text as shown (the table,
 * the bars, the answer), trailing blanks cut, into a file beside the
 * first record and, by OSC 52, into the terminal's clipboard where the
 * terminal takes it (xterm, kitty, tmux with set-clipboard). UI thread.
 */
#include "config.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "tui-compare.h"

/* Row y of w as UTF-8 text without its trailing blanks. */
static void
row_text(WINDOW *w, int y, struct strbuf *out)
{
	wchar_t wl[1024];
	char mb[4096];
	int n = mvwinnwstr(w, y, 0, wl, (int)(sizeof wl / sizeof *wl) - 1);
	size_t len;

	if (n == ERR)
		n = 0;
	wl[n] = L'\0';
	while (n > 0 && wl[n - 1] == L' ')
		wl[--n] = L'\0';
	len = wcstombs(mb, wl, sizeof mb - 1);
	if (len == (size_t)-1)
		len = 0;
	mb[len] = '\0';
	strbuf_add(out, mb);
	strbuf_add(out, "\n");
}

static char *
base64(const char *s, size_t n)
{
	static const char a[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *o = xmalloc((n + 2) / 3 * 4 + 1), *p = o;

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)s[i] << 16;

		if (i + 1 < n)
			v |= (unsigned char)s[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)s[i + 2];
		*p++ = a[v >> 18 & 63];
		*p++ = a[v >> 12 & 63];
		*p++ = i + 1 < n ? a[v >> 6 & 63] : '=';
		*p++ = i + 2 < n ? a[v & 63] : '=';
	}
	*p = '\0';
	return o;
}

void
tui_compare_copy(struct cmp *s, struct tui *t)
{
	const char *first = s->c.nrows > 0 ? s->c.rows[0].path : NULL;
	char *dir = xstrdup(first != NULL ? first : "./x"), *path, *b64;
	char stamp[32], b[ERR_MSG_MAX + ERR_FILE_MAX + 32];
	int rows = getmaxy(t->body);
	struct strbuf out;
	time_t now = time(NULL);
	struct tm tm;
	struct err e;

	strbuf_init(&out);
	for (int y = 0; y < rows; y++)
		row_text(t->body, y, &out);
	/* no blank lines at the end */
	while (out.len > 1 && out.s[out.len - 1] == '\n' &&
	    out.s[out.len - 2] == '\n')
		out.s[--out.len] = '\0';
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	path = xasprintf("%s/compare-%s.txt", dirname(dir), stamp);
	err_clear(&e);
	if (afile_write(path, out.s, out.len, &e) < 0) {
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
	} else {
		/* OSC 52: c = the clipboard; a terminal without it ignores
		   the sequence */
		b64 = base64(out.s, out.len);
		printf("\033]52;c;%s\a", b64);
		fflush(stdout);
		free(b64);
		tui_message(t, false,
		    _("Copied: the clipboard (OSC 52) and %s"), path);
	}
	free(path);
	free(dir);
	strbuf_done(&out);
}
