/*
 * The Compose screen: the lab's variants as a list (add, clone, rename,
 * delete, reorder), the current one (t->variant) as a form
 * (tui-compose-fields.c), and the plan it would build, previewed live:
 * the exact commands on placeholder scratch disks, or the problems
 * lab_check() finds, which also appear under the fields they name. The
 * plan sits right of the form on a wide terminal and below it on a
 * narrow one. Every change re-checks the lab, rebuilds the form and the
 * preview, and marks the lab unsaved. UI thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "disk/disk.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "tui-compose.h"
#include "tui-form.h"
#include "tui-mouse.h"
#include "tui.h"

static const struct tui_key compose_keys[] = {
	{ "Up Down j k", N_("select a variant, or a field in the form") },
	{ "Home End g G", N_("the first, the last variant (or field)") },
	{ "Enter Tab l", N_("from the list: edit the variant's fields") },
	{ "Tab S-Tab", N_("next / previous field") },
	{ "Left Right h l", N_("change a choice (Space too)") },
	{ "Enter", N_("type text, choose from a menu, pick devices") },
	{ "Del u", N_("back to the default (the greyed value)") },
	{ "Esc q", N_("back to the variant list (Esc cancels typing)") },
	{ "a c r d", N_("add, clone, rename, delete a variant") },
	{ "K J", N_("move the variant up, down") },
	{ "PgUp PgDn", N_("scroll the plan") },
	{ "Space m s x", N_("in the picker: member, spare, unused") },
	{ NULL, NULL },
};

/* ---------------------------------------------------------------- refresh */

/* field is prefix or a key inside it. */
static bool
under(const char *field, const char *prefix)
{
	size_t k = strlen(prefix);

	return strncmp(field, prefix, k) == 0 &&
	    (field[k] == '\0' || field[k] == '.');
}

/* lab_check's messages about variant v into mine; true when any. */
static bool
problems_of(const struct lab_variant *v, const struct errlist *all,
    struct errlist *mine)
{
	char prefix[LAB_PATH_MAX];
	bool any = false;

	lab_variant_path(v, -1, prefix, sizeof prefix);
	for (size_t i = 0; i < all->n; i++) {
		if (!under(all->v[i].field, prefix))
			continue;
		any = true;
		if (mine != NULL)
			errlist_push(mine, &all->v[i]);
	}
	return any;
}

static void
attach(struct compose *s, struct tui *t, const struct errlist *mine)
{
	bool heading = false;

	for (size_t i = 0; i < mine->n; i++) {
		int id = compose_field_of(s, t, mine->v[i].field);

		if (id >= 0 && tui_form_problem(s->form, id, mine->v[i].msg))
			continue;
		if (!heading)
			tui_form_heading(s->form, _("Other problems"));
		heading = true;
		tui_form_info(s->form, CF_PROBLEMS, "", mine->v[i].msg);
	}
}

void
compose_refresh(struct compose *s, struct tui *t)
{
	struct errlist all, mine;
	const struct lab_variant *v = NULL;

	compose_plan_clear(s);
	tui_form_begin(s->form);
	if (t->lab != NULL && t->lab->nvariants > 0) {
		if (t->variant >= t->lab->nvariants)
			t->variant = t->lab->nvariants - 1;
		v = &t->lab->variants[t->variant];
	}
	free(s->bad);
	s->nbad = t->lab != NULL ? t->lab->nvariants : 0;
	s->bad = xcalloc(s->nbad + 1, sizeof *s->bad);
	if (v == NULL) {
		compose_plan_add(s, _("# no variants yet: press a to add one"));
		tui_form_end(s->form, t, s->form_w);
		s->list.focus_form = false;
		return;
	}
	errlist_init(&all);
	errlist_init(&mine);
	lab_check(t->lab, &all);
	for (size_t i = 0; i < s->nbad; i++)
		s->bad[i] = problems_of(&t->lab->variants[i], &all, NULL);
	problems_of(v, &all, &mine);
	compose_plan_build(s, v, &mine);
	compose_fields(s, t);
	attach(s, t, &mine);
	tui_form_end(s->form, t, s->form_w);
	errlist_done(&mine);
	errlist_done(&all);
	t->redraw = true;
}

/*
 * The text being typed into field ev->id, tried on a copy of the lab:
 * what the setter or lab_check() says about that field goes under it,
 * and the plan preview shows what the text would build.
 */
static void
compose_live(struct compose *s, struct tui *t, const struct tui_form_ev *ev)
{
	struct lab *real = t->lab, *copy;
	struct errlist all, mine;
	const char *msg = NULL;
	struct err e;

	if (real == NULL || t->variant >= real->nvariants)
		return;
	copy = lab_dup(real);
	errlist_init(&all);
	errlist_init(&mine);
	err_clear(&e);
	t->lab = copy; /* the setters and the field paths read t->lab */
	if (compose_apply(s, t, TUI_FORM_EDITED, ev, &e) < 0) {
		if (!err_isset(&e))
			err_set(&e, -EINVAL, NULL, 0, NULL, "%s",
			    _("that cannot be changed here"));
		errlist_push(&mine, &e); /* no plan for a value not taken */
		msg = e.msg;
	} else {
		lab_check(copy, &all);
		problems_of(&copy->variants[t->variant], &all, &mine);
		for (size_t i = 0; i < mine.n && msg == NULL; i++)
			if (compose_field_of(s, t, mine.v[i].field) == ev->id)
				msg = mine.v[i].msg;
	}
	compose_plan_clear(s);
	compose_plan_build(s, &copy->variants[t->variant], &mine);
	t->lab = real;
	tui_form_live(s->form, ev->id, msg);
	errlist_done(&mine);
	errlist_done(&all);
	lab_free(copy);
}

void
compose_changed(struct compose *s, struct tui *t)
{
	t->dirty = true;
	t->redraw = true;
	compose_refresh(s, t);
}

/* ---------------------------------------------------------------- layout */

static void
layout(struct compose *s, const struct tui *t)
{
	int h = t->rows - 2, w = t->cols;

	s->wide = w >= 120;
	s->list.w = w >= 100 ? 22 : 18;
	s->form_x = s->list.w + 1;
	if (s->wide) {
		s->form_w = (w - s->list.w) / 2;
		s->form_w = s->form_w > 64 ? 64 : s->form_w;
		s->plan_x = s->form_x + s->form_w + 1;
		s->plan_w = w - s->plan_x;
		s->plan_y = 0;
		s->plan_h = h;
		s->form_h = h;
	} else {
		s->plan_h = h * 2 / 5 < 4 ? 4 : h * 2 / 5;
		s->plan_y = h - s->plan_h;
		s->plan_x = 0;
		s->plan_w = w;
		s->form_w = w - s->form_x;
		s->form_h = s->plan_y;
	}
	if (s->form_w < 10)
		s->form_w = 10;
}

static void *
compose_init(struct tui *t)
{
	struct compose *s = xcalloc(1, sizeof *s);

	(void)t;
	s->form = tui_form_new();
	disk_list_init(&s->disks);
	return s;
}

static void
compose_free(void *p)
{
	struct compose *s = p;

	tui_form_free(s->form);
	compose_plan_clear(s);
	compose_cands_done(s);
	disk_list_done(&s->disks);
	tui_popup_done(&s->pick);
	free(s->bad);
	free(s);
}

static void
compose_enter(void *p, struct tui *t)
{
	struct compose *s = p;
	struct err e;

	if (!s->scanned) {
		err_clear(&e);
		disk_list_scan(&s->disks, 0,
		    &e); /* the Disks screen's verdicts */
		s->scanned = true;
	}
	/* The picker's marks would not survive the rebuild. */
	s->picking = false;
	layout(s, t);
	compose_refresh(s, t);
}

/* ---------------------------------------------------------------- draw */

static void
draw_vline(const struct tui *t, WINDOW *w, int y, int x, int n)
{
	if (n <= 0)
		return;
	if (t->ascii)
		mvwvline(w, y, x, '|', n);
	else
		mvwvline(w, y, x, ACS_VLINE, n);
}

static void
draw_hline(const struct tui *t, WINDOW *w, int y, int x, int n)
{
	if (t->ascii)
		mvwhline(w, y, x, '-', n);
	else
		mvwhline(w, y, x, ACS_HLINE, n);
}

/* A row of the variant list: a blank after the marker, then the name. */
static bool
variant_row(void *arg, const struct tui *t, size_t i, char *buf, size_t len)
{
	const struct compose *s = arg;
	const char *name = t->lab->variants[i].name;

	snprintf(buf, len, " %s", name != NULL ? name : "?");
	return i < s->nbad && s->bad[i];
}

static int
line_attr(const struct tui *t, const char *line)
{
	const char *p = line + strspn(line, " ");

	if (line[0] == '!')
		return tui_attr(t, TUI_PAIR_BAD);
	return *p == '#' ? tui_attr(t, TUI_PAIR_DIM) : (int)A_NORMAL;
}

/* The plan, wrapped to the pane, from wrapped line plan_top on. */
static void
draw_plan(struct compose *s, struct tui *t, WINDOW *w)
{
	int y0 = s->plan_y + 1, rows = s->plan_h - 1, width = s->plan_w - 1;
	int x = s->plan_x + (s->wide ? 1 : 0), row = 0, skip;

	if (s->wide) {
		draw_vline(t, w, 0, s->plan_x, s->plan_h);
		x = s->plan_x + 2;
		width = s->plan_w - 2;
	} else {
		draw_hline(t, w, s->plan_y, 0, s->plan_w);
	}
	wattron(w, A_BOLD);
	tui_put(w, s->plan_y, x, width, _(" Plan (PgUp/PgDn) "));
	wattroff(w, A_BOLD);
	skip = (int)s->plan_top;
	s->plan_more = false;
	for (size_t i = 0; i < s->nplan; i++) {
		const char *p = s->plan[i];
		int a = line_attr(t, p), ind = 0;

		do {
			size_t k = tui_wrap(p, width - ind);

			if (skip > 0) {
				skip--;
			} else if (row < rows) {
				char *piece = xstrndup(p, k);

				wattron(w, a);
				tui_put(w, y0 + row++, x + ind, width - ind,
				    piece);
				wattroff(w, a);
				free(piece);
			} else {
				s->plan_more = true;
			}
			p += k;
			ind = 4;
		} while (*p != '\0');
	}
	if (row == 0 && s->plan_top > 0)
		s->plan_top = 0, t->redraw = true;
}

static void
compose_draw(void *p, struct tui *t, WINDOW *w)
{
	struct compose *s = p;
	int top = s->wide ? s->plan_h : s->plan_y;

	tui_list_draw(&s->list, t, w, top, _("Variants"), t->variant,
	    t->lab != NULL ? t->lab->nvariants : 0, variant_row, s);
	/* the plan first: a menu the form opens may reach over it */
	draw_plan(s, t, w);
	if (t->lab != NULL && t->variant < t->lab->nvariants)
		tui_form_draw(s->form, t, w, 0, s->form_x, s->form_h, s->form_w,
		    s->list.focus_form && s->prompt == PROMPT_NONE);
	t->foot_keys = tui_form_status(s->form);
	if (s->picking) {
		/* at the field it was opened from */
		tui_form_field_at(s->form, &s->pick.anchor_y,
		    &s->pick.anchor_x);
		tui_popup_draw(&s->pick, t, w);
		t->foot_keys = N_("Space mark  Enter apply  Esc cancel");
	}
	if (s->prompt != PROMPT_NONE)
		tui_prompt_draw(&s->np, t, w);
}

/* ---------------------------------------------------------------- prompt */

static void
prompt_open(struct compose *s, struct tui *t, enum prompt pr)
{
	const struct lab_variant *v = t->lab && t->variant < t->lab->nvariants
	    ? &t->lab->variants[t->variant]
	    : NULL;
	char *name = NULL, *base;

	if (t->lab == NULL || (pr != PROMPT_ADD && v == NULL))
		return;
	if (pr == PROMPT_ADD) {
		name = lab_edit_variant_unique(t->lab, "variant");
	} else if (pr == PROMPT_CLONE) {
		base = xasprintf("%s-copy", v->name ? v->name : "variant");
		name = lab_edit_variant_unique(t->lab, base);
		free(base);
	} else if (pr == PROMPT_RENAME) {
		name = xstrdup(v->name ? v->name : "");
	}
	if (pr == PROMPT_DELETE) {
		char title[128];

		snprintf(title, sizeof title, _("Delete variant %s? y/n"),
		    v->name ? v->name : "?");
		tui_prompt_yes_no(&s->np, title);
	} else {
		tui_prompt_name(&s->np,
		    pr == PROMPT_ADD         ? _("New variant")
			: pr == PROMPT_CLONE ? _("Clone as")
					     : _("Rename to"),
		    name);
	}
	free(name);
	s->prompt = pr;
}

static void
prompt_done(struct compose *s, struct tui *t)
{
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 4];
	enum prompt pr = s->prompt;
	struct err e;
	int rc = 0;

	s->prompt = PROMPT_NONE;
	err_clear(&e);
	if (pr == PROMPT_ADD) {
		rc = lab_edit_variant_add(t->lab, s->np.input, &e);
		if (rc >= 0) {
			t->variant = (size_t)rc;
			compose_starting_point(t, t->variant);
			s->list.focus_form = true;
			tui_form_select(s->form, CF_ENGINE);
		}
	} else if (pr == PROMPT_CLONE) {
		rc =
		    lab_edit_variant_clone(t->lab, t->variant, s->np.input, &e);
		if (rc >= 0)
			t->variant = (size_t)rc;
	} else if (pr == PROMPT_RENAME) {
		rc = lab_edit_variant_rename(t->lab, t->variant, s->np.input,
		    &e);
	} else if (pr == PROMPT_DELETE) {
		rc = lab_edit_variant_delete(t->lab, t->variant);
		if (t->variant > 0 && t->variant >= t->lab->nvariants)
			t->variant--;
	}
	if (rc < 0) {
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
		return;
	}
	compose_changed(s, t);
}

static void
prompt_key(struct compose *s, struct tui *t, int ch)
{
	enum tui_prompt_result r = tui_prompt_key(&s->np, ch);

	t->redraw = true;
	if (r == TUI_PROMPT_ACCEPT)
		prompt_done(s, t);
	else if (r == TUI_PROMPT_CANCEL)
		s->prompt = PROMPT_NONE;
}

/* ---------------------------------------------------------------- keys */

/* K or J: the current variant one up or down. */
static void
move_variant(struct compose *s, struct tui *t, int ch)
{
	size_t to;

	if (t->lab == NULL ||
	    !tui_list_reorder(ch, t->variant, t->lab->nvariants, &to))
		return;
	lab_edit_variant_move(t->lab, t->variant, to);
	t->variant = to;
	compose_changed(s, t);
}

/* Keys of both panes. */
static enum tui_handled
common_key(struct compose *s, struct tui *t, int ch)
{
	int page = s->plan_h > 3 ? s->plan_h - 2 : 1;

	switch (ch) {
	case 'a':
		prompt_open(s, t, PROMPT_ADD);
		break;
	case 'c':
		prompt_open(s, t, PROMPT_CLONE);
		break;
	case 'r':
		prompt_open(s, t, PROMPT_RENAME);
		break;
	case 'd':
		prompt_open(s, t, PROMPT_DELETE);
		break;
	case 'K':
	case 'J':
		move_variant(s, t, ch);
		break;
	case KEY_PPAGE:
		s->plan_top =
		    s->plan_top > (size_t)page ? s->plan_top - page : 0;
		break;
	case KEY_NPAGE:
		s->plan_top += (size_t)page;
		break;
	default:
		return TUI_UNHANDLED;
	}
	t->redraw = true;
	return TUI_HANDLED;
}

static void
select_variant(struct compose *s, struct tui *t, size_t i)
{
	if (t->lab == NULL || i >= t->lab->nvariants || i == t->variant)
		return;
	t->variant = i;
	s->plan_top = 0;
	compose_refresh(s, t);
}

static enum tui_handled
list_key(struct compose *s, struct tui *t, int ch)
{
	size_t n = t->lab != NULL ? t->lab->nvariants : 0, to;

	switch (tui_list_key(ch, t->variant, n, &to)) {
	case TUI_LIST_SELECT:
		select_variant(s, t, to);
		break;
	case TUI_LIST_FORM:
		s->list.focus_form = n > 0;
		break;
	default:
		return common_key(s, t, ch);
	}
	t->redraw = true;
	return TUI_HANDLED;
}

static enum tui_handled
form_key(struct compose *s, struct tui *t, int ch)
{
	struct tui_form_ev ev;
	enum tui_form_event r =
	    tui_list_form_key(&s->list, s->form, t, ch, &ev);
	struct err e;

	switch (r) {
	case TUI_FORM_IGNORED:
		return common_key(s, t, ch);
	case TUI_FORM_NONE:
		return TUI_HANDLED;
	case TUI_FORM_TYPED:
		compose_live(s, t, &ev);
		return TUI_HANDLED;
	case TUI_FORM_CANCELLED: /* the preview showed the typed text */
		compose_refresh(s, t);
		return TUI_HANDLED;
	case TUI_FORM_PRESSED:
		if (ev.id == CF_DEVICES || ev.id == CF_SPARES ||
		    ev.id == CF_FSJOURNAL_ARRAY)
			compose_pick_open(s, t, ev.id == CF_FSJOURNAL_ARRAY);
		return TUI_HANDLED;
	default:
		break;
	}
	err_clear(&e);
	if (compose_apply(s, t, (int)r, &ev, &e) < 0) {
		tui_list_refused(t, &e);
		compose_refresh(s, t);
	} else {
		compose_changed(s, t);
	}
	return TUI_HANDLED;
}

/* A click on the variants selects one; on the selected one, the form
   takes the keys, as Enter gives them. */
static enum tui_handled
mouse(struct compose *s, struct tui *t)
{
	int y = t->mouse.y - 1, x = t->mouse.x;
	int top = s->wide ? s->plan_h : s->plan_y;
	size_t n = t->lab != NULL ? t->lab->nvariants : 0, i;

	if (y < 0 || y >= top || s->prompt != PROMPT_NONE || s->picking ||
	    tui_form_busy(s->form))
		return TUI_HANDLED;
	if (x < s->list.w) {
		bool hit = tui_list_click(&s->list, t, n, &i);
		bool again = hit && !s->list.focus_form &&
		    (i == t->variant || tui_mouse_double(t));

		if (hit)
			select_variant(s, t, i);
		s->list.focus_form = again;
	} else if (x >= s->form_x && x < s->form_x + s->form_w) {
		s->list.focus_form =
		    tui_form_click(s->form, y) || s->list.focus_form;
	}
	t->redraw = true;
	return TUI_HANDLED;
}

/* The wheel over the plan scrolls it, a line at a time while there is
   more; over the variants or the form, that pane takes the keys (true:
   the wheel was the plan's). */
static bool
wheel(struct compose *s, struct tui *t, int ch)
{
	int y, x;
	bool plan = false;

	if (!tui_mouse_wheel(t, ch, &y, &x) || tui_form_busy(s->form))
		return false;
	if (s->wide)
		plan = x >= s->plan_x;
	else
		plan = y >= s->plan_y;
	if (plan) {
		if (ch == KEY_DOWN && s->plan_more)
			s->plan_top++;
		else if (ch == KEY_UP && s->plan_top > 0)
			s->plan_top--;
		t->redraw = true;
		return true;
	}
	s->list.focus_form =
	    x >= s->form_x && t->lab != NULL && t->variant < t->lab->nvariants;
	return false;
}

static enum tui_handled
compose_key(void *p, struct tui *t, int ch)
{
	struct compose *s = p;

	if (s->prompt != PROMPT_NONE) {
		prompt_key(s, t, ch);
		return TUI_HANDLED;
	}
	if (s->picking) {
		if (ch == KEY_MOUSE)
			ch = compose_pick_click(s, t);
		if (compose_pick_key(s, t, ch))
			compose_changed(s, t);
		t->redraw = true;
		return TUI_HANDLED;
	}
	if (ch == KEY_MOUSE)
		return mouse(s, t);
	if (wheel(s, t, ch))
		return TUI_HANDLED;
	if (s->list.focus_form)
		return form_key(s, t, ch);
	return list_key(s, t, ch);
}

const struct tui_screen tui_compose = {
	.name = N_("Compose"),
	.keys = compose_keys,
	.init = compose_init,
	.free = compose_free,
	.enter = compose_enter,
	.draw = compose_draw,
	.key = compose_key,
	/* TRANSLATORS: status bar entries "key word", two spaces apart;
	   keep the keys and the two spaces. */
	.status = N_("Enter edit  a add  c clone  r rename  d delete  "
		     "Left/Right change  K/J move  Esc back"),
};
