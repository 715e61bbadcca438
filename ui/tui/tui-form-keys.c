/*
 * The form's keys: moving between fields, cycling choices and their
 * popup menu, and editing text, where every change is reported
 * (TUI_FORM_TYPED) and the bytes of a multibyte character are put
 * together for form_driver_w(). See tui-form.h. UI thread only.
 */
#include "config.h"

#include <form.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "tui-form-int.h"
#include "tui-form.h"

/*
 * A byte of a multibyte character (wgetch gives them one by one): true
 * when it was one, *wc set once the character is whole. The form library
 * takes wide characters through form_driver_w() only.
 */
static bool
mb_byte(struct tui_form *f, int ch, wchar_t *wc, bool *whole)
{
	char c = (char)ch;
	size_t r;

	*whole = false;
	if (ch < 0x80 || ch > 0xff) {
		memset(&f->mb, 0, sizeof f->mb);
		return false;
	}
	r = mbrtowc(wc, &c, 1, &f->mb);
	if (r == (size_t)-2)
		return true; /* more bytes to come */
	if (r == (size_t)-1) {
		memset(&f->mb, 0, sizeof f->mb);
		return true; /* not text in this locale: dropped */
	}
	*whole = iswprint((wint_t)*wc) != 0;
	return true;
}

/* The text of field it changed: the event with the text so far. */
static enum tui_form_event
typed(struct tui_form *f, struct tui_form_item *it, struct tui_form_ev *ev)
{
	/* The field's buffer catches up with the window only on
	   validation, which keeps the cursor where it is. */
	form_driver(f->form, REQ_VALIDATION);
	tui_form_field_text(it->field, ev->text, sizeof ev->text);
	ev->id = it->id;
	return TUI_FORM_TYPED;
}

/* The prefilled text is no longer selected: any key but a printable one
   (the caller's to clear it first) keeps it for editing. */
static void
unselect(struct tui_form *f, struct tui_form_item *it, bool clear)
{
	if (!f->fresh)
		return;
	f->fresh = false;
	if (clear)
		form_driver(f->form, REQ_CLR_FIELD);
	set_field_fore(it->field, A_UNDERLINE);
	set_field_back(it->field, A_UNDERLINE);
}

static enum tui_form_event
edit_key(struct tui_form *f, int ch, struct tui_form_ev *ev)
{
	struct tui_form_item *it = tui_form_item_current(f);
	int req = -1;
	bool whole;
	wchar_t wc;

	if (mb_byte(f, ch, &wc, &whole)) {
		if (!whole)
			return TUI_FORM_NONE;
		unselect(f, it, true);
		if (form_driver_w(f->form, OK, wc) != E_OK)
			return TUI_FORM_NONE;
		return typed(f, it, ev);
	}
	unselect(f, it, ch >= 32 && ch < 127);

	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
	case '\t':
		form_driver(f->form, REQ_VALIDATION);
		tui_form_field_text(it->field, ev->text, sizeof ev->text);
		ev->id = it->id;
		f->editing = false;
		tui_form_live(f, -1, NULL);
		return TUI_FORM_EDITED;
	case 27:
		set_field_buffer(it->field, 0, f->saved);
		ev->id = it->id;
		f->editing = false;
		tui_form_live(f, -1, NULL);
		return TUI_FORM_CANCELLED;
	case KEY_LEFT:
		req = REQ_PREV_CHAR;
		break;
	case KEY_RIGHT:
		req = REQ_NEXT_CHAR;
		break;
	case KEY_HOME:
	case 1: /* ^A */
		req = REQ_BEG_FIELD;
		break;
	case KEY_END:
	case 5: /* ^E */
		req = REQ_END_FIELD;
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		req = REQ_DEL_PREV;
		break;
	case KEY_DC:
		req = REQ_DEL_CHAR;
		break;
	case 21: /* ^U */
		req = REQ_CLR_FIELD;
		break;
	case 11: /* ^K */
		req = REQ_CLR_EOF;
		break;
	default:
		if (ch >= 32 && ch < 127)
			req = ch;
		break;
	}
	if (req < 0 || form_driver(f->form, req) != E_OK)
		return TUI_FORM_NONE;
	if (req == REQ_PREV_CHAR || req == REQ_NEXT_CHAR ||
	    req == REQ_BEG_FIELD || req == REQ_END_FIELD)
		return TUI_FORM_NONE;
	return typed(f, it, ev);
}

static enum tui_form_event
menu_key(struct tui_form *f, int ch, struct tui_form_ev *ev)
{
	struct tui_form_item *it = tui_form_item_current(f);

	if (tui_popup_nav(&f->menu, ch))
		return TUI_FORM_NONE;
	if (ch == 27 || ch == 'q') {
		f->menu_open = false;
		return TUI_FORM_NONE;
	}
	if (ch != '\n' && ch != '\r' && ch != KEY_ENTER && ch != ' ')
		return TUI_FORM_NONE;
	f->menu_open = false;
	if (it == NULL || f->menu.sel == it->cur)
		return TUI_FORM_NONE;
	ev->id = it->id;
	ev->choice = f->menu.sel;
	return TUI_FORM_CHOSE;
}

static void
open_menu(struct tui_form *f, struct tui_form_item *it)
{
	char **rows = xcalloc(it->n + 1, sizeof *rows);

	for (size_t i = 0; i < it->n; i++)
		rows[i] = xstrdup(it->choices[i]);
	tui_popup_set(&f->menu, it->label, rows, it->n, it->cur);
	f->menu.hint = _("Enter choose  Esc cancel");
	f->menu_open = true;
}

/* Enter, Left/Right/Space on the current item. */
static enum tui_form_event
act(struct tui_form *f, struct tui_form_item *it, int ch,
    struct tui_form_ev *ev)
{
	bool enter = ch == '\n' || ch == '\r' || ch == KEY_ENTER;

	ev->id = it->id;
	if (it->kind == K_TEXT && enter) {
		tui_form_edit(f, it->id, NULL);
		return TUI_FORM_NONE;
	}
	if (it->kind == K_BUTTON)
		return enter || ch == ' ' ? TUI_FORM_PRESSED : TUI_FORM_NONE;
	if (it->kind != K_CHOICE || it->n == 0)
		return TUI_FORM_NONE;
	if (enter) {
		open_menu(f, it);
		return TUI_FORM_NONE;
	}
	if (ch == KEY_LEFT || ch == 'h')
		ev->choice = it->cur > 0 ? it->cur - 1 : it->n - 1;
	else
		ev->choice = it->cur + 1 < it->n ? it->cur + 1 : 0;
	return ev->choice != it->cur ? TUI_FORM_CHOSE : TUI_FORM_NONE;
}

enum tui_form_event
tui_form_key(struct tui_form *f, int ch, struct tui_form_ev *ev)
{
	struct tui_form_item *it = tui_form_item_current(f);

	memset(ev, 0, sizeof *ev);
	ev->id = -1;
	if (f->form == NULL || it == NULL)
		return ch == 27 || ch == 'q' ? TUI_FORM_LEAVE
					     : TUI_FORM_IGNORED;
	if (f->editing)
		return edit_key(f, ch, ev);
	if (f->menu_open)
		return menu_key(f, ch, ev);
	switch (ch) {
	case '\t':
	case KEY_DOWN:
	case 'j':
		form_driver(f->form, REQ_NEXT_FIELD);
		break;
	case KEY_BTAB:
	case KEY_UP:
	case 'k':
		form_driver(f->form, REQ_PREV_FIELD);
		break;
	case KEY_HOME:
	case 'g':
		form_driver(f->form, REQ_FIRST_FIELD);
		break;
	case KEY_END:
	case 'G':
		form_driver(f->form, REQ_LAST_FIELD);
		break;
	case KEY_DC:
	case 'u':
		ev->id = it->id;
		return it->kind == K_INFO ? TUI_FORM_NONE : TUI_FORM_RESET;
	case 27:
	case 'q':
		return TUI_FORM_LEAVE;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case KEY_LEFT:
	case KEY_RIGHT:
	case 'h':
	case 'l':
	case ' ':
		return act(f, it, ch, ev);
	default:
		return TUI_FORM_IGNORED;
	}
	f->cur_id = tui_form_current(f);
	return TUI_FORM_NONE;
}

bool
tui_form_click(struct tui_form *f, int y)
{
	int row = f->top + y;

	for (size_t i = 0; i < f->n; i++) {
		struct tui_form_item *it = &f->v[i];

		if (it->field != NULL && row >= it->row &&
		    row < it->row + it->rows)
			return tui_form_select(f, it->id);
	}
	return false;
}
