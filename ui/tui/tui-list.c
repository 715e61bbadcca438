/*
 * The list beside a form of the Compose and Workloads screens: see
 * tui-list.h. UI thread.
 */
#include "config.h"

#include "base/err.h"
#include "base/i18n.h"
#include "tui-form.h"
#include "tui-list.h"
#include "tui.h"

void
tui_list_draw(struct tui_list *l, const struct tui *t, WINDOW *w, int h,
    const char *title, size_t sel, size_t n, tui_list_row_fn row, void *arg)
{
	int rows = h - 1;

	wattron(w, A_BOLD);
	tui_put(w, 0, 0, l->w, title);
	wattroff(w, A_BOLD);
	if (sel < l->top)
		l->top = sel;
	if (rows > 0 && sel >= l->top + (size_t)rows)
		l->top = sel - (size_t)rows + 1;
	for (int r = 0; r < rows && l->top + (size_t)r < n; r++) {
		size_t i = l->top + (size_t)r;
		int a = i != sel    ? (int)A_NORMAL
		    : l->focus_form ? (int)(A_BOLD | A_UNDERLINE)
				    : tui_attr(t, TUI_PAIR_SEL);
		char line[96];
		bool bad = row(arg, t, i, line, sizeof line);

		wattron(w, a);
		mvwhline(w, r + 1, 0, ' ', l->w);
		if (bad)
			mvwaddch(w, r + 1, 0, '!');
		tui_put_mid(t, w, r + 1, 1, l->w - 1, line, 0);
		wattroff(w, a);
		if (bad) { /* chgat takes the colour pair apart from attrs */
			int ba = tui_attr(t, TUI_PAIR_BAD);

			mvwchgat(w, r + 1, 0, 1,
			    (attr_t)((ba | a) & (int)(A_ATTRIBUTES & ~A_COLOR)),
			    (short)PAIR_NUMBER(ba), NULL);
		}
	}
	if (h <= 0)
		return;
	if (t->ascii)
		mvwvline(w, 0, l->w, '|', h);
	else
		mvwvline(w, 0, l->w, ACS_VLINE, h);
}

enum tui_list_key
tui_list_key(int ch, size_t sel, size_t n, size_t *to)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		*to = sel > 0 ? sel - 1 : sel;
		return TUI_LIST_SELECT;
	case KEY_DOWN:
	case 'j':
		*to = sel + 1 < n ? sel + 1 : sel;
		return TUI_LIST_SELECT;
	case KEY_HOME:
	case 'g':
		*to = 0;
		return TUI_LIST_SELECT;
	case KEY_END:
	case 'G':
		*to = n > 0 ? n - 1 : sel;
		return TUI_LIST_SELECT;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case KEY_RIGHT:
	case 'l':
	case '\t':
		return TUI_LIST_FORM;
	default:
		return TUI_LIST_OTHER;
	}
}

bool
tui_list_reorder(int ch, size_t sel, size_t n, size_t *to)
{
	if (sel >= n || (ch != 'K' && ch != 'J'))
		return false;
	if (ch == 'K' ? sel == 0 : sel + 1 >= n)
		return false;
	*to = ch == 'K' ? sel - 1 : sel + 1;
	return true;
}

bool
tui_list_click(const struct tui_list *l, const struct tui *t, size_t n,
    size_t *i)
{
	int y = t->mouse.y - 1; /* the body starts under the header */

	if (t->mouse.x >= l->w || y < 1 || l->top + (size_t)(y - 1) >= n)
		return false;
	*i = l->top + (size_t)(y - 1);
	return true;
}

enum tui_form_event
tui_list_form_key(struct tui_list *l, struct tui_form *f, struct tui *t, int ch,
    struct tui_form_ev *ev)
{
	bool busy = tui_form_busy(f);
	enum tui_form_event r = tui_form_key(f, ch, ev);

	t->redraw = true;
	if (r == TUI_FORM_IGNORED && busy)
		return TUI_FORM_NONE;
	if (r == TUI_FORM_LEAVE) {
		l->focus_form = false;
		return TUI_FORM_NONE;
	}
	return r;
}

void
tui_list_refused(struct tui *t, const struct err *e)
{
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 4];

	tui_message(t, true, "%s",
	    err_isset(e) ? err_format(e, b, sizeof b)
			 : _("that cannot be changed here"));
}
