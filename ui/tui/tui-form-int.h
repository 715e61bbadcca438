/*
 * The form's inside, shared by tui-form.c (items, layout, state, drawing)
 * and tui-form-keys.c (keys, text editing, menus). Not for screens: they
 * see tui-form.h only. UI thread only.
 */
#ifndef RAIDLAB_TUI_FORM_INT_H
#define RAIDLAB_TUI_FORM_INT_H

#include <form.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "tui-form.h"

enum tui_form_kind { K_HEADING, K_CHOICE, K_TEXT, K_BUTTON, K_INFO };

struct tui_form_item {
	int id;
	enum tui_form_kind kind;
	char *label;
	char *value;
	char *edit; /* K_TEXT: what editing starts from */
	char **choices;
	size_t n, cur;
	bool dim;
	char **msgs;
	size_t nmsgs;
	FIELD *field; /* the value field (NULL for a heading) */
	int row, rows; /* on the pad, problems included */
};

struct tui_form {
	struct tui_form_item *v;
	size_t n;
	FIELD **fields;
	size_t nfields;
	FORM *form;
	WINDOW *pad;
	int width, height, top, label_w;
	int cur_id, live_id; /* live_id: the field live is about, or -1 */
	char *live; /* what is wrong with the text being typed, or NULL */
	bool editing, menu_open, ascii;
	bool fresh; /* editing a prefilled text untouched: the first
		       printable key replaces it, a movement key keeps it */
	int at_y, at_x; /* where the current field's value was last drawn */
	int attr_dim, attr_bad;
	struct tui_popup menu;
	char saved[TUI_FORM_TEXT_MAX];
	mbstate_t mb; /* a multibyte character typed so far, byte by byte */
};

#define LABEL_MAX 17

/* The item of the current field, or NULL. */
struct tui_form_item *tui_form_item_current(const struct tui_form *f);
/* The field's text without its trailing blanks, cut to len - 1 bytes at
   a character boundary. */
void tui_form_field_text(FIELD *fd, char *buf, size_t len);

#endif
