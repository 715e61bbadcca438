/*
 * Forms on the ncurses form library: see tui-form.h. Their keys are in
 * tui-form-keys.c, the popup lists in tui-form-popup.c. Each item becomes
 * a label field and a value field (inactive fields for headings,
 * information and problems), laid out on a pad that the form is posted on;
 * drawing copies the rows around the current field into the screen's
 * window, so a form may be taller than the terminal. The cursor stays
 * hidden: while text is edited the character under the form's cursor is
 * drawn reversed, and the screen's verdict on the text so far takes the
 * rows under the field, in place of the problems found with the value
 * before: the form is laid out again around it, the text and the cursor
 * kept, so that no other row is hidden. UI thread only.
 */
#include "config.h"

#include <form.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "tui-form-int.h"
#include "tui-form.h"
#include "tui.h"

/* ---------------------------------------------------------------- items */

struct tui_form *
tui_form_new(void)
{
	struct tui_form *f = xcalloc(1, sizeof *f);

	f->cur_id = -1;
	f->live_id = -1;
	return f;
}

static void
unpost(struct tui_form *f)
{
	if (f->form != NULL) {
		unpost_form(f->form);
		free_form(f->form);
		f->form = NULL;
	}
	for (size_t i = 0; i < f->nfields; i++)
		free_field(f->fields[i]);
	free(f->fields);
	f->fields = NULL;
	f->nfields = 0;
	if (f->pad != NULL)
		delwin(f->pad);
	f->pad = NULL;
}

static void
items_done(struct tui_form *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct tui_form_item *it = &f->v[i];

		free(it->label);
		free(it->value);
		free(it->edit);
		for (size_t k = 0; k < it->n; k++)
			free(it->choices[k]);
		free(it->choices);
		for (size_t k = 0; k < it->nmsgs; k++)
			free(it->msgs[k]);
		free(it->msgs);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

void
tui_form_free(struct tui_form *f)
{
	if (f == NULL)
		return;
	unpost(f);
	items_done(f);
	tui_popup_done(&f->menu);
	free(f->live);
	free(f);
}

void
tui_form_begin(struct tui_form *f)
{
	unpost(f);
	items_done(f);
	f->editing = false;
	f->menu_open = false;
	tui_form_live(f, -1, NULL);
	tui_popup_done(&f->menu);
}

static struct tui_form_item *
add(struct tui_form *f, int id, enum tui_form_kind k, const char *label,
    const char *value, bool dim)
{
	struct tui_form_item *it;

	f->v = xreallocarray(f->v, f->n + 1, sizeof *f->v);
	it = &f->v[f->n++];
	memset(it, 0, sizeof *it);
	it->id = id;
	it->kind = k;
	it->label = xstrdup(label != NULL ? label : "");
	it->value = xstrdup(value != NULL ? value : "");
	it->dim = dim;
	return it;
}

void
tui_form_heading(struct tui_form *f, const char *text)
{
	add(f, -1, K_HEADING, text, NULL, false);
}

void
tui_form_choice(struct tui_form *f, int id, const char *label,
    const char *const *choices, size_t n, size_t cur, bool dim)
{
	struct tui_form_item *it = add(f, id, K_CHOICE, label, NULL, dim);

	it->choices = xcalloc(n + 1, sizeof *it->choices);
	for (size_t i = 0; i < n; i++)
		it->choices[i] = xstrdup(choices[i]);
	it->n = n;
	it->cur = cur < n ? cur : 0;
}

void
tui_form_text(struct tui_form *f, int id, const char *label, const char *value,
    const char *shown, bool dim)
{
	struct tui_form_item *it =
	    add(f, id, K_TEXT, label, shown != NULL ? shown : value, dim);

	it->edit = xstrdup(value != NULL ? value : "");
}

void
tui_form_button(struct tui_form *f, int id, const char *label,
    const char *value, bool dim)
{
	add(f, id, K_BUTTON, label, value, dim);
}

void
tui_form_info(struct tui_form *f, int id, const char *label, const char *value)
{
	add(f, id, K_INFO, label, value, true);
}

static struct tui_form_item *
find(struct tui_form *f, int id)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].id == id && f->v[i].kind != K_HEADING)
			return &f->v[i];
	return NULL;
}

bool
tui_form_problem(struct tui_form *f, int id, const char *msg)
{
	struct tui_form_item *it = find(f, id);

	if (it == NULL)
		return false;
	it->msgs = xreallocarray(it->msgs, it->nmsgs + 1, sizeof *it->msgs);
	it->msgs[it->nmsgs++] = xstrdup(msg);
	return true;
}

/* ---------------------------------------------------------------- layout */

static FIELD *
static_field(struct tui_form *f, int row, int col, int width, const char *text,
    int attr)
{
	FIELD *fd = new_field(1, width > 0 ? width : 1, row, col, 0, 0);

	if (fd == NULL)
		return NULL;
	field_opts_off(fd, O_ACTIVE | O_EDIT | O_AUTOSKIP);
	set_field_buffer(fd, 0, text);
	set_field_fore(fd, (chtype)attr);
	set_field_back(fd, (chtype)attr);
	f->fields = xreallocarray(f->fields, f->nfields + 2, sizeof *f->fields);
	f->fields[f->nfields++] = fd;
	f->fields[f->nfields] = NULL;
	return fd;
}

/* Wrapped text, a field per line, from row on, the lines after the first
   indented by hang; returns the rows used. */
static int
static_lines(struct tui_form *f, int row, int col, int width, const char *s,
    int attr, int hang)
{
	int n = 0;

	while (*s != '\0') {
		int in = n > 0 ? hang : 0;
		size_t k = tui_wrap(s, width - in);
		char *line = xstrndup(s, k);

		static_field(f, row + n++, col + in, width - in, line, attr);
		free(line);
		s += k;
		while (*s == ' ')
			s++;
	}
	return n;
}

/* The value as drawn in w columns. A text too long is cut in the middle
   (a path keeps its start and its last directory): the form's field
   would show its head alone, with nothing to say that it goes on.
   Editing starts from the whole text (it->edit), never from this. */
static char *
shown_value(const struct tui_form *f, const struct tui_form_item *it, int w)
{
	if (it->kind == K_TEXT && tui_width(it->value) > w) {
		const struct tui look = { .ascii = f->ascii };
		char b[TUI_FORM_TEXT_MAX + 8];

		tui_cut_mid(&look, it->value, 0, w, b, sizeof b);
		return xstrdup(b);
	}
	if (it->kind != K_CHOICE)
		return xstrdup(it->value);
	return xasprintf(f->ascii ? "< %s >" : "\u2039 %s \u203a",
	    it->n > 0 ? it->choices[it->cur] : "");
}

/* The value field of it at row; returns the rows it takes. */
static int
value_field(struct tui_form *f, struct tui_form_item *it, int row, int col,
    int w)
{
	char *text;
	FIELD *fd;

	if (it->kind == K_INFO) {
		int rows =
		    static_lines(f, row, col, w, it->value, f->attr_dim, 0);

		it->field = NULL;
		return rows > 0 ? rows : 1;
	}
	fd = new_field(1, w, row, col, 0, 0);
	if (fd == NULL)
		return 1;
	field_opts_off(fd, O_AUTOSKIP | O_BLANK);
	if (it->kind == K_TEXT) {
		field_opts_off(fd, O_STATIC);
		set_max_field(fd, TUI_FORM_TEXT_MAX - 1);
	} else {
		field_opts_off(fd, O_EDIT);
	}
	text = shown_value(f, it, w);
	set_field_buffer(fd, 0, text);
	free(text);
	set_field_userptr(fd, it);
	set_field_fore(fd, (chtype)(it->dim ? f->attr_dim : (int)A_NORMAL));
	set_field_back(fd, (chtype)(it->dim ? f->attr_dim : (int)A_NORMAL));
	f->fields = xreallocarray(f->fields, f->nfields + 2, sizeof *f->fields);
	f->fields[f->nfields++] = fd;
	f->fields[f->nfields] = NULL;
	it->field = fd;
	return 1;
}

/* Rows of every item; returns the total. */
static int
place(struct tui_form *f, int width)
{
	int lw = width >= 50 ? LABEL_MAX : width / 3, row = 0;
	int vw = width - lw - 1;
	bool live;

	f->label_w = lw;
	for (size_t i = 0; i < f->n; i++) {
		struct tui_form_item *it = &f->v[i];

		it->row = row;
		if (it->kind == K_HEADING) {
			if (row > 0)
				it->row = ++row;
			static_field(f, it->row, 0, width, it->label, A_BOLD);
			it->rows = 1;
			row++;
			continue;
		}
		live = f->editing && it->id == f->live_id;
		static_field(f, row, 0, lw, it->label,
		    (live ? f->live != NULL : it->nmsgs > 0) ? f->attr_bad
							     : (int)A_NORMAL);
		row += value_field(f, it, row, lw + 1, vw);
		if (live && f->live != NULL)
			row += static_lines(f, row, lw + 1, vw, f->live,
			    f->attr_bad, 2);
		for (size_t k = 0; k < it->nmsgs && !live; k++) {
			char *m = xasprintf("! %s", it->msgs[k]);

			row +=
			    static_lines(f, row, lw + 1, vw, m, f->attr_bad, 2);
			free(m);
		}
		it->rows = row - it->row;
	}
	return row;
}

static bool
has_active(const struct tui_form *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].field != NULL)
			return true;
	return false;
}

/* The field to stand on when field id went away: the next id up. */
static struct tui_form_item *
near(struct tui_form *f, int id)
{
	struct tui_form_item *best = NULL;

	for (size_t i = 0; i < f->n; i++) {
		struct tui_form_item *it = &f->v[i];

		if (it->field != NULL && it->id > id &&
		    (best == NULL || it->id < best->id))
			best = it;
	}
	return best;
}

/* Lay the items out on a new pad and post the form on it. */
static void
build(struct tui_form *f)
{
	struct tui_form_item *it;

	unpost(f);
	f->height = place(f, f->width);
	if (f->height < 1 || !has_active(f))
		return;
	f->pad = newpad(f->height, f->width);
	f->form = new_form(f->fields);
	if (f->pad == NULL || f->form == NULL) {
		unpost(f);
		return;
	}
	set_form_win(f->form, f->pad);
	set_form_sub(f->form, f->pad);
	if (post_form(f->form) != E_OK) {
		unpost(f);
		return;
	}
	if ((it = find(f, f->cur_id)) == NULL || it->field == NULL)
		it = near(f, f->cur_id);
	if (it != NULL)
		set_current_field(f->form, it->field);
	f->cur_id = tui_form_current(f);
}

void
tui_form_end(struct tui_form *f, const struct tui *t, int width)
{
	f->ascii = t->ascii;
	f->attr_dim = tui_attr(t, TUI_PAIR_DIM);
	f->attr_bad = tui_attr(t, TUI_PAIR_BAD);
	f->width = width < 8 ? 8 : width;
	build(f);
}

/* ---------------------------------------------------------------- state */

struct tui_form_item *
tui_form_item_current(const struct tui_form *f)
{
	FIELD *fd;

	if (f->form == NULL || (fd = current_field(f->form)) == NULL)
		return NULL;
	return field_userptr(fd);
}

int
tui_form_current(const struct tui_form *f)
{
	struct tui_form_item *it = tui_form_item_current(f);

	return it != NULL ? it->id : f->cur_id;
}

bool
tui_form_busy(const struct tui_form *f)
{
	return f->editing || f->menu_open;
}

bool
tui_form_select(struct tui_form *f, int id)
{
	struct tui_form_item *it = find(f, id);

	f->cur_id = id;
	if (it == NULL || it->field == NULL || f->form == NULL)
		return false;
	set_current_field(f->form, it->field);
	return true;
}

void
tui_form_field_text(FIELD *fd, char *buf, size_t len)
{
	const char *s = field_buffer(fd, 0);
	size_t n = s != NULL ? strlen(s) : 0;

	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n >= len) { /* cut before a UTF-8 continuation byte, not in it */
		n = len - 1;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, s != NULL ? s : "", n);
	buf[n] = '\0';
}

bool
tui_form_edit(struct tui_form *f, int id, const char *text)
{
	struct tui_form_item *it;

	if (!tui_form_select(f, id) ||
	    (it = tui_form_item_current(f)) == NULL || it->kind != K_TEXT)
		return false;
	tui_form_field_text(it->field, f->saved, sizeof f->saved);
	memset(&f->mb, 0, sizeof f->mb);
	set_field_buffer(it->field, 0, text != NULL ? text : it->edit);
	/* Selected, as most form UIs do: typing replaces it. */
	f->fresh = *(text != NULL ? text : it->edit) != '\0';
	set_field_fore(it->field, f->fresh ? A_REVERSE : A_UNDERLINE);
	set_field_back(it->field, f->fresh ? A_REVERSE : A_UNDERLINE);
	f->editing = true;
	form_driver(f->form, REQ_END_FIELD);
	return true;
}

/*
 * Lay the form out again for the message under the field being typed:
 * the text, the cursor's place in it (counted in characters, as the
 * form's requests move) and the editing go over to the new fields.
 */
static void
relayout(struct tui_form *f)
{
	struct tui_form_item *it = tui_form_item_current(f);
	char text[TUI_FORM_TEXT_MAX];
	int pos = 0;

	if (!f->editing || it == NULL || it->kind != K_TEXT) {
		build(f);
		return;
	}
	form_driver(f->form, REQ_VALIDATION);
	tui_form_field_text(it->field, text, sizeof text);
	while (pos < TUI_FORM_TEXT_MAX &&
	    form_driver(f->form, REQ_PREV_CHAR) == E_OK)
		pos++;
	f->cur_id = it->id;
	build(f);
	if ((it = tui_form_item_current(f)) == NULL || it->id != f->cur_id) {
		f->editing = false;
		return;
	}
	set_field_buffer(it->field, 0, text);
	set_field_fore(it->field, A_UNDERLINE);
	set_field_back(it->field, A_UNDERLINE);
	form_driver(f->form, REQ_BEG_FIELD);
	while (pos-- > 0)
		form_driver(f->form, REQ_NEXT_CHAR);
}

void
tui_form_live(struct tui_form *f, int id, const char *msg)
{
	bool same = id == f->live_id &&
	    (msg == NULL ? f->live == NULL
			 : f->live != NULL && strcmp(f->live + 2, msg) == 0);

	if (same)
		return;
	free(f->live);
	f->live = msg != NULL ? xasprintf("! %s", msg) : NULL;
	f->live_id = id;
	if (f->form != NULL)
		relayout(f);
}

/* ---------------------------------------------------------------- draw */

/* Highlight the current field (reversed; underlined while edited). */
static void
highlight(struct tui_form *f, bool focus)
{
	struct tui_form_item *cur = tui_form_item_current(f);

	for (size_t i = 0; i < f->n; i++) {
		struct tui_form_item *it = &f->v[i];
		int a = it->dim ? f->attr_dim : (int)A_NORMAL;

		if (it->field == NULL)
			continue;
		if (it == cur && focus)
			a = f->editing ? A_UNDERLINE : A_REVERSE;
		if ((int)field_back(it->field) != a) {
			set_field_fore(it->field, (chtype)a);
			set_field_back(it->field, (chtype)a);
		}
	}
}

static void
scroll_to(struct tui_form *f, int h)
{
	struct tui_form_item *it = tui_form_item_current(f);
	int first, last;

	if (it == NULL)
		return;
	first = it->row;
	last = it->row + it->rows - 1;
	/* Show the heading above the first field of a section. */
	if (it > f->v && it[-1].kind == K_HEADING)
		first = it[-1].row;
	if (first < f->top)
		f->top = first;
	if (last >= f->top + h)
		f->top = last - h + 1;
	if (f->top > f->height - h)
		f->top = f->height - h;
	if (f->top < 0)
		f->top = 0;
}

void
tui_form_draw(struct tui_form *f, const struct tui *t, WINDOW *w, int y, int x,
    int h, int wd, bool focus)
{
	int rows, cols, cy, cx;
	struct tui_form_item *it;

	if (f->form == NULL || h < 1 || wd < 1)
		return;
	highlight(f, focus);
	scroll_to(f, h);
	rows = f->height - f->top < h ? f->height - f->top : h;
	cols = f->width < wd ? f->width : wd;
	copywin(f->pad, w, f->top, 0, y, x, y + rows - 1, x + cols - 1, FALSE);
	if (f->editing) {
		pos_form_cursor(f->form);
		getyx(f->pad, cy, cx);
		if (cy >= f->top && cy < f->top + rows && cx < cols)
			mvwchgat(w, y + cy - f->top, x + cx, 1, A_REVERSE, 0,
			    NULL);
	}
	if (f->top > 0)
		mvwaddstr(w, y, x + cols - 1, t->ascii ? "^" : "\u25b4");
	if (f->top + h < f->height)
		mvwaddstr(w, y + rows - 1, x + cols - 1,
		    t->ascii ? "v" : "\u25be");
	if ((it = tui_form_item_current(f)) != NULL) {
		f->at_y = y + it->row - f->top;
		f->at_x = x + f->label_w + 1;
	}
	if (f->menu_open) {
		f->menu.anchor_y = f->at_y;
		f->menu.anchor_x = f->at_x;
		tui_popup_draw(&f->menu, t, w);
	}
}

const char *
tui_form_status(const struct tui_form *f)
{
	if (f->editing && f->fresh)
		return N_("typing replaces  Left/Right edit  Enter ok  "
			  "Esc cancel");
	if (f->editing)
		return N_("Enter ok  Esc cancel  Left/Right move  Home/End  "
			  "^U clear  ^K clear to end");
	if (f->menu_open)
		return N_("Enter choose  Esc cancel  Up/Down select");
	return NULL;
}

void
tui_form_field_at(const struct tui_form *f, int *y, int *x)
{
	*y = f->at_y;
	*x = f->at_x;
}
