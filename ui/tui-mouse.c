/*
 * Mouse reporting and the clicks the frame handles itself. See
 * tui-mouse.h. UI thread.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui-mouse.h"

/* Presses, not only clicks: tmux and some terminals send a release so
   late that ncurses never makes a click of the pair. */
#define MOUSE_MASK                                                             \
	(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED)

void
tui_mouse_set(struct tui *t, bool on)
{
	t->mouse_on = on;
	mousemask(on ? MOUSE_MASK : 0, NULL);
}

/* The tab under column x of the header, as draw_head() lays them out;
   -1 when none. */
static int
tab_at(const struct tui *t, int x)
{
	int left = 0;

	for (size_t i = 0; tui_screens[i] != NULL && left < t->cols; i++) {
		char tab[64];
		int w = tui_tab_label(i, tab, sizeof tab);

		if (x >= left && x < left + w)
			return (int)i;
		left += w;
	}
	return -1;
}

bool
tui_mouse_event(struct tui *t, int *ch)
{
	mmask_t b = t->mouse.bstate;
	int tab;

	if (b & BUTTON4_PRESSED) {
		*ch = KEY_UP;
		return false;
	}
	if (b & BUTTON5_PRESSED) {
		*ch = KEY_DOWN;
		return false;
	}
	if (t->mouse.y == 0 && (b & (BUTTON1_CLICKED | BUTTON1_PRESSED)) &&
	    (tab = tab_at(t, t->mouse.x)) >= 0) {
		tui_show(t, (size_t)tab);
		return true;
	}
	*ch = KEY_MOUSE;
	return false;
}
