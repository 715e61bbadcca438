/*
 * What the Lab files screen (tui-files.c) offers the rest of the
 * interactive lab: the one-line path field (tui-files-path.c) that its
 * open and save dialogs and the Compare screen's picker type paths into.
 * UI thread only.
 */
#ifndef RAIDLAB_TUI_FILES_H
#define RAIDLAB_TUI_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "tui.h"

/* ---------------------------------------------------------------- field */

/*
 * A one-line text field for a path: typing inserts at the cursor,
 * Left/Right/Home/End (C-a, C-e) move, Backspace/Delete erase, C-u
 * clears, Tab completes a file name (the longest common prefix of the
 * names that match; a directory gets its '/'). Zero it to start.
 */
struct tui_path {
	char *buf; /* NUL-terminated once set */
	size_t len, cap, cur; /* bytes; cur is on a character boundary */
};

enum tui_path_done {
	TUI_PATH_EDITING,
	TUI_PATH_ENTER,
	TUI_PATH_CANCEL, /* Esc */
};

void tui_path_set(struct tui_path *f, const char *s);
void tui_path_done(struct tui_path *f);
/* A key; Enter and Esc end the editing (the caller decides what next). */
enum tui_path_done tui_path_key(struct tui_path *f, int ch);
/*
 * Draw "PROMPT text" at y in w across width columns, the cursor as a
 * reverse-video cell; a long text scrolls to keep the cursor in view.
 */
void tui_path_draw(const struct tui_path *f, WINDOW *w, int y, int width,
    const char *prompt);

#endif
