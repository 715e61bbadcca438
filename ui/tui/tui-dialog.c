/*
 * A text shown whole: word wrapping (tui_wrap_lines) and the dialog box that
 * shows a refusal or the run log over the screen, scrolled when it does
 * not fit, closed by a key. See tui.h. UI thread only.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "tui.h"

/* The widest box: longer lines read badly on a wide terminal. */
#define DIALOG_MAX_W 100

/* One line of s from its start: where it ends, and where the next one
   starts. */
static void
wrap_one(const char *s, int width, const char **end, const char **next)
{
	const char *p = s, *blank = NULL;
	int used = 0;

	while (*p != '\0' && *p != '\n') {
		int cw;
		size_t n = tui_char(p, &cw);

		if (used + cw > width)
			break;
		if (*p == ' ')
			blank = p;
		used += cw;
		p += n;
	}
	*end = *next = p;
	if (*p == '\n') {
		*next = p + 1;
	} else if (*p == ' ') {
		*next = p + 1; /* the blank the line ends at is not drawn */
	} else if (*p != '\0' && blank != NULL && blank > s) {
		*end = blank;
		*next = blank + 1;
	} else if (*p != '\0' && p == s) {
		/* a character wider than the line: alone, clipped */
		int cw;

		*end = *next = p + tui_char(p, &cw);
	}
}

size_t
tui_wrap_lines(const char *s, int width, struct tui_line *v, size_t max)
{
	size_t n = 0;

	if (width < 1)
		width = 1;
	for (;;) {
		const char *end, *next;

		wrap_one(s, width, &end, &next);
		if (n < max) {
			v[n].s = s;
			v[n].len = (size_t)(end - s);
		}
		n++;
		if (*next == '\0')
			return n;
		s = next;
	}
}

void
tui_put_line(WINDOW *w, int y, int x, int width, const struct tui_line *l)
{
	char buf[1024];
	size_t len = l->len < sizeof buf ? l->len : sizeof buf - 1;

	memcpy(buf, l->s, len);
	buf[len] = '\0';
	tui_put(w, y, x, width, buf);
}

void
tui_dialog(struct tui *t, bool bad, const char *title, const char *text)
{
	free(t->dialog);
	t->dialog = xstrdup(text);
	snprintf(t->dialog_title, sizeof t->dialog_title, "%s", title);
	t->dialog_bad = bad;
	t->dialog_top = 0;
	t->dialog_max = 0;
	t->redraw = true;
}

/* The box's width: the text's widest line, between 40 columns and the
   screen's (or DIALOG_MAX_W). */
static int
dialog_width(const struct tui *t)
{
	int w = 40,
	    cap = t->cols - 4 < DIALOG_MAX_W ? t->cols - 4 : DIALOG_MAX_W;

	for (const char *s = t->dialog; *s != '\0';) {
		int used = 0, cw;

		while (*s != '\0' && *s != '\n') {
			s += tui_char(s, &cw);
			used += cw;
		}
		if (used + 4 > w)
			w = used + 4;
		s += *s == '\n';
	}
	return w < cap ? w : cap;
}

void
tui_dialog_draw(struct tui *t)
{
	int w = dialog_width(t), h, rows;
	struct tui_line *v;
	size_t n;
	char hint[96];
	WINDOW *win;

	if (w < 12 || t->rows < 5)
		return;
	n = tui_wrap_lines(t->dialog, w - 4, NULL, 0);
	v = xcalloc(n, sizeof *v);
	tui_wrap_lines(t->dialog, w - 4, v, n);
	h = (int)n + 2 < t->rows - 2 ? (int)n + 2 : t->rows - 2;
	rows = h - 2;
	t->dialog_max = (int)n - rows > 0 ? (int)n - rows : 0;
	if (t->dialog_top > t->dialog_max)
		t->dialog_top = t->dialog_max;
	win = newwin(h, w, (t->rows - h) / 2, (t->cols - w) / 2);
	if (win == NULL) {
		free(v);
		return;
	}
	wattron(win, t->dialog_bad ? tui_attr(t, TUI_PAIR_BAD) : 0);
	tui_box(t, win);
	wattron(win, A_BOLD);
	tui_put(win, 0, 2, w - 4, t->dialog_title);
	wattroff(win, A_BOLD);
	wattroff(win, t->dialog_bad ? tui_attr(t, TUI_PAIR_BAD) : 0);
	for (int r = 0; r < rows; r++)
		tui_put_line(win, 1 + r, 2, w - 4, &v[t->dialog_top + r]);
	snprintf(hint, sizeof hint, " %s ",
	    t->dialog_max == 0                  ? _("any key: close")
		: t->dialog_top < t->dialog_max ? _("Down/PgDn: more")
						: _("Up/PgUp: back"));
	tui_put(win, h - 1, w - 2 - tui_width(hint), tui_width(hint), hint);
	wnoutrefresh(win);
	delwin(win);
	free(v);
}

void
tui_dialog_key(struct tui *t, int ch)
{
	t->redraw = true;
	/* A scroll key scrolls a text that does not fit; the rest close. */
	if (t->dialog_max == 0 ||
	    !tui_box_scroll(t, ch, t->dialog_max, &t->dialog_top)) {
		free(t->dialog);
		t->dialog = NULL;
	}
}
