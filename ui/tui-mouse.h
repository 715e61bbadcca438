/*
 * The mouse in the TUI: a click on a tab shows its screen, the wheel
 * scrolls as Up/Down do, and clicks on rows reach the screens as
 * KEY_MOUSE (t->mouse). M turns reporting off and on: off, the terminal
 * has its own text selection back. UI thread.
 */
#ifndef RAIDLAB_TUI_MOUSE_H
#define RAIDLAB_TUI_MOUSE_H

#include "tui.h"

/* Reporting on (at start) or off. */
void tui_mouse_set(struct tui *t, bool on);

/*
 * A KEY_MOUSE already read into t->mouse: true when it was handled here
 * (a tab clicked); else *ch is what the screen gets: KEY_UP or KEY_DOWN
 * for the wheel, KEY_MOUSE for the rest.
 */
bool tui_mouse_event(struct tui *t, int *ch);

#endif
