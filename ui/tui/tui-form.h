/*
 * Forms for the interactive lab's screens, on the ncurses form library.
 * A screen describes its fields as items: a heading, a choice among known
 * values, typed text, a button (Enter asks the screen, which opens a
 * picker), or read-only information; each with a label, its value,
 * whether the value is a default (greyed) and the problems found with it
 * (shown under it). The form lays the items out on a pad as tall as they
 * need and shows the part around the current field in the window it is
 * drawn in; it moves between fields (Tab, Shift-Tab, arrows, j/k), edits
 * text (Enter starts, Enter confirms, Esc cancels), cycles choices
 * (Left/Right, h/l, Space) or offers them in a popup menu (Enter), and
 * reports what the user did as an event for the screen to apply to the
 * model. The screen rebuilds the items after every change; the current
 * field follows its id. While text is typed, every change is reported
 * too, so that the screen can check the value before it is confirmed
 * and say what is wrong with it under the field (tui_form_live()).
 *
 * Also a popup list (struct tui_popup) that the form's menus and the
 * screens' pickers share. UI thread only.
 */
#ifndef RAIDLAB_TUI_FORM_H
#define RAIDLAB_TUI_FORM_H

#include <stdbool.h>
#include <stddef.h>

#include <curses.h>

struct tui;
struct tui_form;

enum tui_form_event {
	TUI_FORM_NONE, /* the form used the key (moved, typed) */
	TUI_FORM_IGNORED, /* not a form key: the screen's to handle */
	TUI_FORM_CHOSE, /* ev->id, ev->choice: a choice changed */
	TUI_FORM_EDITED, /* ev->id, ev->text: text confirmed */
	TUI_FORM_PRESSED, /* ev->id: Enter on a button */
	TUI_FORM_RESET, /* ev->id: Delete or u: back to the default */
	TUI_FORM_LEAVE, /* Esc or q: the screen takes the focus back */
	TUI_FORM_TYPED, /* ev->id, ev->text: the text being typed changed */
	TUI_FORM_CANCELLED, /* ev->id: Esc while typing, the value is kept */
};

#define TUI_FORM_TEXT_MAX 256

struct tui_form_ev {
	int id;
	size_t choice;
	char text[TUI_FORM_TEXT_MAX];
};

struct tui_form *tui_form_new(void);
void tui_form_free(struct tui_form *f);

/* Start describing the items anew (the current field's id is kept). */
void tui_form_begin(struct tui_form *f);
void tui_form_heading(struct tui_form *f, const char *text);
/* One of choices[0..n-1], cur selected; dim: a default, greyed. */
void tui_form_choice(struct tui_form *f, int id, const char *label,
    const char *const *choices, size_t n, size_t cur, bool dim);
/* Typed text: editing starts from value (NULL: empty); shown (NULL:
   value) is what the field says meanwhile, a default's text say. */
void tui_form_text(struct tui_form *f, int id, const char *label,
    const char *value, const char *shown, bool dim);
void tui_form_button(struct tui_form *f, int id, const char *label,
    const char *value, bool dim);
/* Read-only: not a stop for Tab; wrapped over as many rows as needed. */
void
tui_form_info(struct tui_form *f, int id, const char *label, const char *value);
/* A problem with the field id (shown under it); false: no such field. */
bool tui_form_problem(struct tui_form *f, int id, const char *msg);
/* Lay the items out width columns wide and post the form. */
void tui_form_end(struct tui_form *f, const struct tui *t, int width);

/* While field id is typed: msg (NULL: none) replaces its problems until
   typing ends. The text is copied. */
void tui_form_live(struct tui_form *f, int id, const char *msg);

/* A key for the form; fills ev for the events that carry data. */
enum tui_form_event
tui_form_key(struct tui_form *f, int ch, struct tui_form_ev *ev);
/* A click at row y of the area last drawn: that field becomes current. */
bool tui_form_click(struct tui_form *f, int y);
/*
 * Draw the form into the h x wd area of w at (y, x); focus highlights
 * the current field. An open menu is drawn over the whole of w.
 */
void tui_form_draw(struct tui_form *f, const struct tui *t, WINDOW *w, int y,
    int x, int h, int wd, bool focus);
/* Text is being edited or a menu is open: every key is the form's. */
bool tui_form_busy(const struct tui_form *f);
/* The current field's id, or -1. */
int tui_form_current(const struct tui_form *f);
/* Make field id current; false when there is none. */
bool tui_form_select(struct tui_form *f, int id);
/* Open the text editor on field id, pre-filled with text (NULL: the
   field's value). */
bool tui_form_edit(struct tui_form *f, int id, const char *text);

/* The status bar's entries (N_()) while a text is typed or a menu is
   open: the keys that edit it; NULL otherwise (the screen's own). */
const char *tui_form_status(const struct tui_form *f);
/* Where the current field's value was last drawn (tui_form_draw's w):
   a picker opened from it goes there. */
void tui_form_field_at(const struct tui_form *f, int *y, int *x);

/* ---------------------------------------------------------------- popup */

struct tui_popup {
	char *title;
	char **rows; /* owned */
	size_t n;
	size_t sel, top;
	const char *hint; /* bottom line (translated), may be NULL */
	/* the field it belongs to (its value's row and column in the
	   window drawn in): it opens under it, or over it when there is no
	   room below; anchor_y < 0 (tui_popup_set's): centred */
	int anchor_y, anchor_x;
	int at_y, at_x, at_w,
	    at_n; /* where the last draw put row top, in the body's rows and
		     the screen's columns (tui_mouse_click's): clicks */
};

/* Take rows (n strings, owned from now on); sel is selected. */
void tui_popup_set(struct tui_popup *p, const char *title, char **rows,
    size_t n, size_t sel);
void tui_popup_done(struct tui_popup *p);
/* Up, Down, j, k, PgUp, PgDn, Home, End: true when the key moved. */
bool tui_popup_nav(struct tui_popup *p, int ch);
/* At its anchor (or centred) in w, fitted into w, boxed (ASCII frame
   with t->ascii). */
void tui_popup_draw(struct tui_popup *p, const struct tui *t, WINDOW *w);
/* (y, x) of the window it was drawn in is on row *i of the popup. */
bool tui_popup_click(const struct tui_popup *p, int y, int x, size_t *i);

/* Bytes of s that fit in width display columns, broken after a blank
   when there is one (at least one character). */
size_t tui_wrap(const char *s, int width);

/* A box around the h x wd area at (y, x) of w (tui_box()). */
void tui_frame(const struct tui *t, WINDOW *w, int y, int x, int h, int wd);

#endif
