/*
 * Popup lists for the interactive lab's forms and pickers, boxes, and the
 * line wrapping the forms and previews share: see tui-form.h. A popup is
 * drawn centered over the window it is given, on top of what the screen
 * drew there. UI thread only.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/xalloc.h"
#include "tui-form.h"
#include "tui.h"

size_t
tui_wrap(const char *s, int width)
{
	mbstate_t st;
	size_t i = 0, brk = 0, len = strlen(s);
	int used = 0;

	memset(&st, 0, sizeof st);
	while (i < len) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + i, len - i, &st);
		int cw;

		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof st);
			k = 1;
			cw = 1;
		} else if ((cw = wcwidth(wc)) < 0) {
			cw = 1;
		}
		if (used + cw > width)
			return brk > 0 ? brk : (i > 0 ? i : k);
		if (s[i] == ' ')
			brk = i + 1;
		used += cw;
		i += k;
	}
	return len;
}

/* ---------------------------------------------------------------- popup */

void
tui_popup_set(struct tui_popup *p, const char *title, char **rows, size_t n,
    size_t sel)
{
	tui_popup_done(p);
	p->title = xstrdup(title != NULL ? title : "");
	p->rows = rows;
	p->n = n;
	p->sel = sel < n ? sel : 0;
	p->top = 0;
	p->anchor_y = -1;
	p->anchor_x = 0;
}

void
tui_popup_done(struct tui_popup *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->rows[i]);
	free(p->rows);
	free(p->title);
	memset(p, 0, sizeof *p);
}

bool
tui_popup_nav(struct tui_popup *p, int ch)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (p->sel > 0)
			p->sel--;
		return true;
	case KEY_DOWN:
	case 'j':
		if (p->sel + 1 < p->n)
			p->sel++;
		return true;
	case KEY_PPAGE:
		p->sel = p->sel > 10 ? p->sel - 10 : 0;
		return true;
	case KEY_NPAGE:
		p->sel = p->sel + 10 < p->n ? p->sel + 10
		    : p->n > 0              ? p->n - 1
					    : 0;
		return true;
	case KEY_HOME:
		p->sel = 0;
		return true;
	case KEY_END:
		p->sel = p->n > 0 ? p->n - 1 : 0;
		return true;
	default:
		return false;
	}
}

bool
tui_popup_click(const struct tui_popup *p, int y, int x, size_t *i)
{
	if (y < p->at_y || y >= p->at_y + p->at_n || x < p->at_x ||
	    x >= p->at_x + p->at_w || p->top + (size_t)(y - p->at_y) >= p->n)
		return false;
	*i = p->top + (size_t)(y - p->at_y);
	return true;
}

void
tui_frame(const struct tui *t, WINDOW *w, int y, int x, int h, int wd)
{
	WINDOW *b = derwin(w, h, wd, y, x);

	if (b == NULL)
		return;
	tui_box(t, b);
	delwin(b);
}

void
tui_popup_draw(struct tui_popup *p, const struct tui *t, WINDOW *w)
{
	int mh = getmaxy(w), mw = getmaxx(w), wd = 24, h, y0, x0, rows, by, bx;

	for (size_t i = 0; i < p->n; i++)
		if ((int)strlen(p->rows[i]) + 6 > wd)
			wd = (int)strlen(p->rows[i]) + 6;
	if (p->hint != NULL && (int)strlen(p->hint) + 4 > wd)
		wd = (int)strlen(p->hint) + 4;
	wd = wd < mw - 2 ? wd : mw - 2;
	h = (int)p->n + 2 + (p->hint != NULL);
	h = h < mh - 1 ? h : mh - 1;
	rows = h - 2 - (p->hint != NULL);
	p->at_n = 0;
	if (rows < 1 || wd < 8)
		return;
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + (size_t)rows)
		p->top = p->sel - (size_t)rows + 1;
	y0 = (mh - h) / 2;
	x0 = (mw - wd) / 2;
	if (p->anchor_y >= 0) {
		/* under the field, or above it, or as near as fits */
		y0 = p->anchor_y + 1 + h <= mh ? p->anchor_y + 1
		    : p->anchor_y - h >= 0     ? p->anchor_y - h
					       : mh - h;
		x0 = p->anchor_x + wd <= mw ? p->anchor_x : mw - wd;
		if (x0 < 0)
			x0 = 0;
	}
	/* Where a click lands is counted in the body's rows and the
	   screen's columns (tui_mouse_click), not in w's: w may be a pane. */
	getbegyx(w, by, bx);
	p->at_y = by - 1 + y0 + 1;
	p->at_x = bx + x0 + 1;
	p->at_w = wd - 2;
	p->at_n = rows;
	for (int r = 0; r < h; r++)
		mvwhline(w, y0 + r, x0, ' ', wd);
	tui_frame(t, w, y0, x0, h, wd);
	wattron(w, A_BOLD);
	tui_put(w, y0, x0 + 2, wd - 4, p->title);
	wattroff(w, A_BOLD);
	for (int r = 0; r < rows && p->top + (size_t)r < p->n; r++) {
		size_t i = p->top + (size_t)r;

		if (i == p->sel)
			wattron(w, tui_attr(t, TUI_PAIR_SEL));
		mvwhline(w, y0 + 1 + r, x0 + 1, ' ', wd - 2);
		tui_put(w, y0 + 1 + r, x0 + 2, wd - 4, p->rows[i]);
		if (i == p->sel)
			wattroff(w, tui_attr(t, TUI_PAIR_SEL));
	}
	if (p->hint != NULL) {
		wattron(w, tui_attr(t, TUI_PAIR_DIM));
		tui_put(w, y0 + h - 2, x0 + 2, wd - 4, p->hint);
		wattroff(w, tui_attr(t, TUI_PAIR_DIM));
	}
}
