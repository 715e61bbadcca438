/*
 * The selectable list on the left of the Compose (variants) and Workloads
 * screens, with a form (tui-form.h) right of it: which one has the keys,
 * the first row shown, the keys that move the selection, a click on a
 * row, and the drawing (a bold title, then a row each: a marker column,
 * '!' where the row has problems, and the row's text; the selected row
 * highlighted, in the selection colour while the list has the keys, bold
 * underlined while the form has them; a divider right of the list). The
 * screen keeps the selection and the rows: the helpers take them as
 * arguments and say what to select. UI thread.
 */
#ifndef RAIDLAB_TUI_LIST_H
#define RAIDLAB_TUI_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "tui-form.h"
#include "tui.h"

struct err;

struct tui_list {
	size_t top; /* the first row shown */
	int w; /* columns, the marker column first; the divider is right */
	bool focus_form; /* the form has the keys, else the list */
};

/* Row i's text into buf (len bytes); true when the row has problems. */
typedef bool (*tui_list_row_fn)(void *arg, const struct tui *t, size_t i,
    char *buf, size_t len);

enum tui_list_key {
	TUI_LIST_OTHER, /* not a list key: the screen's */
	TUI_LIST_SELECT, /* Up Down j k Home End g G: select *to */
	TUI_LIST_FORM, /* Enter Tab l Right: the form takes the keys */
};

/*
 * Draw the list at the top left of w, h rows high with its title: n rows
 * of which sel is selected, scrolled first so that sel shows.
 */
void tui_list_draw(struct tui_list *l, const struct tui *t, WINDOW *w, int h,
    const char *title, size_t sel, size_t n, tui_list_row_fn row, void *arg);

/*
 * A key while the list has the keys. For TUI_LIST_SELECT, *to is the row
 * to select, sel itself where the list ends. TUI_LIST_FORM: the screen
 * sets focus_form when it has a form to offer.
 */
enum tui_list_key tui_list_key(int ch, size_t sel, size_t n, size_t *to);

/* K (up) or J (down): true, with the row's new place in *to, when row
   sel of n can move that way. */
bool tui_list_reorder(int ch, size_t sel, size_t n, size_t *to);

/* The mouse event in t->mouse is a click on row *i of n. */
bool tui_list_click(const struct tui_list *l, const struct tui *t, size_t n,
    size_t *i);

/*
 * A key while the form has the keys, given to form f. Returns its event
 * for the screen to act on, except that Esc or q (TUI_FORM_LEAVE) gives
 * the keys back to the list and a key the form leaves while it is busy
 * (typing, a menu open) is dropped: both come back as TUI_FORM_NONE.
 * TUI_FORM_IGNORED: a key for the screen. Sets t->redraw.
 */
enum tui_form_event tui_list_form_key(struct tui_list *l, struct tui_form *f,
    struct tui *t, int ch, struct tui_form_ev *ev);

/* The screen could not apply the form's event: why, in the status bar. */
void tui_list_refused(struct tui *t, const struct err *e);

#endif
