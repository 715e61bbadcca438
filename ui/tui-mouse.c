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
#define MOUSE_LEFT                                                             \
	(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED |          \
	    BUTTON1_TRIPLE_CLICKED)
/* Double clicks too: ncurses makes one event of two quick clicks, and
   drops it unless asked for. */
#define MOUSE_MASK (MOUSE_LEFT | BUTTON4_PRESSED | BUTTON5_PRESSED)

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
	const MEVENT *prev = &t->mouse_prev;
	int tab;

	/* A press whose release came later than the click interval (a busy
	   machine, a slow link) was reported alone; ncurses can still pair
	   the late release with it into a click. That is the same click, not
	   a second one on the row, which would give the form the keys. */
	if ((b & BUTTON1_CLICKED) && (prev->bstate & BUTTON1_PRESSED) &&
	    !(prev->bstate & BUTTON1_CLICKED) && prev->x == t->mouse.x &&
	    prev->y == t->mouse.y)
		return true;
	if (b & BUTTON4_PRESSED) {
		*ch = KEY_UP;
		return false;
	}
	if (b & BUTTON5_PRESSED) {
		*ch = KEY_DOWN;
		return false;
	}
	if (t->mouse.y == 0 && (b & MOUSE_LEFT) &&
	    (tab = tab_at(t, t->mouse.x)) >= 0) {
		tui_show(t, (size_t)tab);
		return true;
	}
	*ch = KEY_MOUSE;
	return false;
}

bool
tui_mouse_wheel(const struct tui *t, int ch, int *y, int *x)
{
	mmask_t b = t->mouse.bstate;

	if (!(ch == KEY_UP && (b & BUTTON4_PRESSED)) &&
	    !(ch == KEY_DOWN && (b & BUTTON5_PRESSED)))
		return false;
	*y = t->mouse.y - 1;
	*x = t->mouse.x;
	return true;
}

bool
tui_mouse_click(const struct tui *t, int *y, int *x)
{
	if (!(t->mouse.bstate & MOUSE_LEFT))
		return false;
	*y = t->mouse.y - 1;
	*x = t->mouse.x;
	return true;
}

bool
tui_mouse_double(const struct tui *t)
{
	return (t->mouse.bstate &
		   (BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED)) != 0;
}
