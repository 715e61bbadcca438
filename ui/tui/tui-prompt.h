/*
 * The small dialog the list screens (Compose's variants, Workloads) open
 * to name something (new, clone, rename: a lab name, [A-Za-z0-9._-]) or
 * to confirm a deletion with y/n. The screen keeps what the prompt is for
 * and acts when tui_prompt_key() says it was accepted. UI thread.
 */
#ifndef RAIDLAB_TUI_PROMPT_H
#define RAIDLAB_TUI_PROMPT_H

#include <stdbool.h>

#include "lab/lab.h"
#include "tui.h"

struct tui_prompt {
	bool yes_no; /* a y/n question, no input */
	char title[128];
	char input[LAB_NAME_MAX + 1]; /* up to a name's longest */
	bool fresh; /* input is the initial name, untouched: shown selected,
		       the first name character replaces it */
};

enum tui_prompt_result {
	TUI_PROMPT_OPEN, /* still typing */
	TUI_PROMPT_ACCEPT, /* Enter (or y): act on input */
	TUI_PROMPT_CANCEL, /* Esc (or anything but y) */
};

/* Ask for a name, starting from initial (may be NULL), selected: a
   typed character replaces it, Backspace or an arrow keeps it to edit. */
void
tui_prompt_name(struct tui_prompt *p, const char *title, const char *initial);
/* Ask a y/n question. */
void tui_prompt_yes_no(struct tui_prompt *p, const char *title);
/* A key while the prompt is open. */
enum tui_prompt_result tui_prompt_key(struct tui_prompt *p, int ch);
/* Draw it centred over w. */
void tui_prompt_draw(const struct tui_prompt *p, struct tui *t, WINDOW *w);

#endif
