/*
 * The mouse in the TUI: a click on a tab shows its screen, the wheel
 * scrolls as Up/Down do (t->mouse says where, for screens of two panes),
 * and clicks on rows reach the screens as KEY_MOUSE (t->mouse): a second
 * click on the selected row, or a double click, is that screen's Enter
 * where Enter changes nothing on disk. M turns reporting off and on: off,
 * the terminal has its own text selection back. UI thread.
 */
#ifndef RAIDLAB_TUI_MOUSE_H
#define RAIDLAB_TUI_MOUSE_H

#include "tui.h"

/* Reporting on (at start) or off. */
void tui_mouse_set(struct tui *t, bool on);

/*
 * wgetch() returned KEY_MOUSE: its event into t->mouse. False when there
 * is nothing to act on: the mouse is off, or the event is the release of
 * a press reported alone (the release came later than ncurses' click
 * interval), which was the click; so a slow click counts once, and the
 * click after it counts too. A release with no press before it (ncurses
 * lost the press: a key came at once after the click) is a click.
 */
bool tui_mouse_read(struct tui *t);

/*
 * A KEY_MOUSE read into t->mouse: true when it was handled here (a tab
 * clicked); else *ch is what the screen gets: KEY_UP or KEY_DOWN for the
 * wheel, KEY_MOUSE for a left click (a click, a press whose release came
 * late, a double or triple click).
 */
bool tui_mouse_event(struct tui *t, int *ch);

/*
 * ch (KEY_UP or KEY_DOWN) came from the wheel: true, with the pointer's
 * row in the body (the header is row -1) in *y and its column in *x, so
 * that a screen of two panes scrolls the one under the pointer. False
 * for a key typed (t->mouse then holds no wheel).
 */
bool tui_mouse_wheel(const struct tui *t, int ch, int *y, int *x);

/* A click (not the wheel) is in t->mouse: its body row and column. */
bool tui_mouse_click(const struct tui *t, int *y, int *x);

/*
 * The click in t->mouse was a double one (two quick clicks reach the
 * screen as one event): the screen does at once what a second click on
 * the selected row does.
 */
bool tui_mouse_double(const struct tui *t);

#endif
