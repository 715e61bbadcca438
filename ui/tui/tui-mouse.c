/*
 * Mouse reporting and the clicks the frame handles itself. See
 * tui-mouse.h. UI thread.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui-mouse.h"

/* Presses, not only clicks: a release that comes later than ncurses'
   click interval (a busy machine, a slow link) leaves the press reported
   alone, and that press is the click. */
#define MOUSE_LEFT                                                             \
	(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED |          \
	    BUTTON1_TRIPLE_CLICKED)
/* What the TUI acts on. Double clicks too: ncurses makes one event of
   two quick clicks, and drops it unless asked for. */
#define MOUSE_ACTS (MOUSE_LEFT | BUTTON4_PRESSED | BUTTON5_PRESSED)
/* Releases too (tui_mouse_read()): unasked, ncurses holds a late release
   back and hands it out only with the next key or click. */
#define MOUSE_MASK (MOUSE_ACTS | BUTTON1_RELEASED)

void
tui_mouse_set(struct tui *t, bool on)
{
	t->mouse_on = on;
	t->mouse_down = false;
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

/*
 * ncurses reports a release alone in two cases. The press came alone
 * before it (the release came later than the click interval): that press
 * was the click. Or a key came within the interval after a click, and
 * ncurses hands out the click's last report unparsed: the release, its
 * press lost; that release is the click. A click that follows a press
 * reported alone is the next one, however soon: ncurses pairs a release
 * only with a press read just before it.
 */
bool
tui_mouse_read(struct tui *t)
{
	mmask_t b;
	bool down = t->mouse_down;

	if (getmouse(&t->mouse) != OK || !t->mouse_on)
		return false;
	b = t->mouse.bstate;
	if (b & MOUSE_LEFT) {
		t->mouse_down = (b & MOUSE_LEFT) == BUTTON1_PRESSED;
		return true;
	}
	if (b & BUTTON1_RELEASED) {
		t->mouse_down = false;
		t->mouse.bstate = BUTTON1_CLICKED;
		return !down;
	}
	return (b & MOUSE_ACTS) != 0;
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
