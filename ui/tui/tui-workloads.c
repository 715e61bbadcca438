/*
 * The Workloads screen: the lab's workloads as a list (add by type,
 * rename, delete, reorder) and a form with the lab's repeats, order and
 * cache policy and the selected workload's parameters, generated from its
 * schema (param.h): choices for booleans and enumerations, typed text for
 * numbers, sizes, lists and strings, the schema's default greyed while a
 * parameter is unset, and the parameter's help under the form. Edits go
 * through lab-edit.h; lab_check() messages appear under the field they
 * name. UI thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "measure/workload.h"
#include "tui-form.h"
#include "tui-list.h"
#include "tui-mouse.h"
#include "tui-prompt.h"
#include "tui.h"

enum {
	WF_REPEATS,
	WF_ORDER,
	WF_CACHE,
	WF_NAME,
	WF_TYPE,
	WF_PROBLEMS,
	WF_PARAM = 100
};

enum wprompt { WP_NONE, WP_RENAME, WP_DELETE };

struct wls {
	struct tui_form *form;
	struct tui_list list; /* the workloads, beside the form */
	size_t sel;
	int form_x, form_w, form_h;
	enum wprompt prompt; /* what the open prompt is for */
	struct tui_prompt np;
	bool adding; /* the type menu is open */
	struct tui_popup types;
};

static const struct tui_key wl_keys[] = {
	{ "Up Down j k", N_("select a workload, or a field in the form") },
	{ "Home End g G", N_("the first, the last workload (or field)") },
	{ "Enter Tab l", N_("from the list: edit the parameters") },
	{ "Tab S-Tab", N_("next / previous field") },
	{ "Left Right h l", N_("change a choice (Space too)") },
	{ "Enter", N_("type a value, or choose from a menu") },
	{ "Del u", N_("back to the default (the greyed value)") },
	{ "Esc q", N_("back to the list (Esc cancels typing)") },
	{ "a", N_("add a workload: pick its type") },
	{ "r d", N_("rename, delete the workload") },
	{ "K J", N_("move the workload up, down") },
	{ NULL, NULL },
};

static struct lab_workload *
cur_wl(struct wls *s, const struct tui *t)
{
	if (t->lab == NULL || t->lab->nworkloads == 0)
		return NULL;
	if (s->sel >= t->lab->nworkloads)
		s->sel = t->lab->nworkloads - 1;
	return &t->lab->workloads[s->sel];
}

/* ---------------------------------------------------------------- form */

/* A value as a user types it: no quotes. Caller frees. */
static char *
value_text(const struct param *p, const struct param_value *v)
{
	char *s, *u;
	size_t n;

	if (p->kind == PARAM_STRING && !v->is_auto)
		return xstrdup(v->s != NULL ? v->s : "");
	if (p->kind == PARAM_INT_LIST && v->nlist == 0)
		return xstrdup("");
	s = param_value_format(p, v);
	n = strlen(s);
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		u = xstrndup(s + 1, n - 2);
		free(s);
		return u;
	}
	return s;
}

/*
 * The list twin of number param k: a list param (smallfiles' counts) that
 * stands instead of it (count), each naming the other as its conflict.
 * The form shows them as one field, the number's: a single number sets
 * it, a list sets the twin. -1: none.
 */
static int
list_twin(const struct param *params, size_t k)
{
	const struct param *p = &params[k];
	int j;

	if (p->kind != PARAM_INT || p->conflicts == NULL)
		return -1;
	j = param_index(params, p->conflicts);
	if (j < 0 || params[j].kind != PARAM_INT_LIST ||
	    params[j].conflicts == NULL ||
	    strcmp(params[j].conflicts, p->name) != 0)
		return -1;
	return j;
}

/* Param k is the list twin of another, shown in that one's field. */
static int
twin_of(const struct param *params, size_t k)
{
	for (size_t i = 0; params[i].name != NULL; i++)
		if (list_twin(params, i) == (int)k)
			return (int)i;
	return -1;
}

static void
param_field(struct wls *s, const struct lab_workload *w, size_t k)
{
	const struct param *p = &w->wl->params[k];
	const struct param_value *v = &w->values[k];
	int id = WF_PARAM + (int)k, j = list_twin(w->wl->params, k);
	char *text;

	if (twin_of(w->wl->params, k) >= 0)
		return;
	/* The twin's list, set, is what the one field says. */
	if (j >= 0 && w->values[j].set) {
		text = value_text(&w->wl->params[j], &w->values[j]);
		tui_form_text(s->form, id, p->name, text, NULL, false);
		free(text);
		return;
	}

	if ((p->kind == PARAM_BOOL || p->kind == PARAM_ENUM) && !v->is_auto) {
		const char *const bools[] = { "false", "true" };
		const char *const *vals =
		    p->kind == PARAM_BOOL ? bools : p->values;
		size_t n = 2;

		if (p->kind == PARAM_ENUM)
			for (n = 0; vals[n] != NULL;)
				n++;
		tui_form_choice(s->form, id, p->name, vals, n,
		    v->i >= 0 ? (size_t)v->i : 0, !v->set);
		return;
	}
	text = value_text(p, v);
	tui_form_text(s->form, id, p->name, v->set ? text : NULL,
	    v->set ? NULL : (*text != '\0' ? text : _("none")), !v->set);
	free(text);
}

static void
lab_fields(struct wls *s, const struct tui *t)
{
	const char *const caches[] = { "drop", "keep" };
	const char *const orders[] = { "interleaved", "grouped" };
	const struct lab *lab = t->lab;
	char *rep[24], pc[LAB_PERCENT_LEN];
	size_t n = 0, cur = 0;

	tui_form_heading(s->form, _("Lab"));
	for (int i = 1; i <= 20; i++)
		rep[n++] = xasprintf("%d", i);
	/* A range (from the file) is kept as one more choice: the form
	   picks counts, the file writes ranges. */
	if (lab_repeats_range(lab))
		rep[n++] = xasprintf(_("%lld to %lld, until ±%s"),
		    (long long)lab->repeats_min, (long long)lab->repeats,
		    lab_percent_format(lab->repeats_ci, pc, sizeof pc));
	else if (lab->repeats > 20)
		rep[n++] = xasprintf("%lld", (long long)lab->repeats);
	cur = lab_repeats_range(lab) || lab->repeats > 20
	    ? n - 1
	    : (size_t)(lab->repeats - 1);
	tui_form_choice(s->form, WF_REPEATS, _("repeats"),
	    (const char *const *)rep, n, cur,
	    !lab_isset(t->lab, LAB_L_REPEATS));
	for (size_t i = 0; i < n; i++)
		free(rep[i]);
	tui_form_choice(s->form, WF_ORDER, _("order"), orders, 2, lab->order,
	    !lab_isset(lab, LAB_L_ORDER));
	tui_form_choice(s->form, WF_CACHE, _("cache"), caches, 2, t->lab->cache,
	    !lab_isset(t->lab, LAB_L_CACHE));
}

/* The form field that lab_check's message about field f belongs to. */
static int
field_id(const struct lab_workload *w, const char *f)
{
	char p[LAB_PATH_MAX];

	if (strcmp(f, "repeats") == 0)
		return WF_REPEATS;
	for (size_t k = 0; w != NULL && k < w->nvalues; k++)
		if (strcmp(f,
			lab_workload_path(w, w->wl->params[k].name, p,
			    sizeof p)) == 0) {
			int i = twin_of(w->wl->params, k);

			return WF_PARAM + (i >= 0 ? i : (int)k);
		}
	if (w != NULL &&
	    strcmp(f, lab_workload_path(w, "name", p, sizeof p)) == 0)
		return WF_NAME;
	return -1;
}

static void
attach(struct wls *s, const struct tui *t, const struct lab_workload *w)
{
	struct errlist errs;
	bool heading = false;

	errlist_init(&errs);
	lab_check(t->lab, &errs);
	for (size_t i = 0; i < errs.n; i++) {
		const char *f = errs.v[i].field;
		int id = field_id(w, f);

		if (id < 0 || !tui_form_problem(s->form, id, errs.v[i].msg)) {
			if (strncmp(f, "workloads", 9) != 0 &&
			    strcmp(f, "repeats") != 0)
				continue;
			if (!heading)
				tui_form_heading(s->form, _("Other problems"));
			heading = true;
			tui_form_info(s->form, WF_PROBLEMS, "", errs.v[i].msg);
		}
	}
	errlist_done(&errs);
}

static void
wl_refresh(struct wls *s, struct tui *t)
{
	struct lab_workload *w = cur_wl(s, t);
	char *head;

	tui_form_begin(s->form);
	if (t->lab == NULL)
		return;
	lab_fields(s, t);
	if (w != NULL && w->wl != NULL) {
		head = xasprintf(_("Workload %s"), w->name ? w->name : "?");
		tui_form_heading(s->form, head);
		free(head);
		tui_form_text(s->form, WF_NAME, _("name"), w->name,
		    w->name ? NULL : _("(no name)"), false);
		head = xasprintf("%s: %s", w->wl->name, _(w->wl->summary));
		tui_form_info(s->form, WF_TYPE, _("type"), head);
		free(head);
		for (size_t k = 0; k < w->nvalues; k++)
			param_field(s, w, k);
	}
	attach(s, t, w);
	tui_form_end(s->form, t, s->form_w);
	t->redraw = true;
}

static void
changed(struct wls *s, struct tui *t)
{
	t->dirty = true;
	wl_refresh(s, t);
}

/* ---------------------------------------------------------------- apply */

static int
apply_param(struct wls *s, struct tui *t, enum tui_form_event r,
    const struct tui_form_ev *ev, struct err *e)
{
	struct lab_workload *w = cur_wl(s, t);
	const struct param *p;
	const char *gone = NULL;
	size_t k = (size_t)(ev->id - WF_PARAM);
	int rc, j;

	if (w == NULL || w->wl == NULL || k >= w->nvalues)
		return -1;
	p = &w->wl->params[k];
	j = list_twin(w->wl->params, k);
	if (r == TUI_FORM_RESET) {
		if (j >= 0 &&
		    (rc = lab_edit_param_reset(t->lab, s->sel,
			 w->wl->params[j].name)) < 0)
			return rc;
		return lab_edit_param_reset(t->lab, s->sel, p->name);
	}
	/* Several numbers in the one field: the list twin's. */
	if (j >= 0 && r != TUI_FORM_CHOSE && strpbrk(ev->text, "[, \t") &&
	    ev->text[strspn(ev->text, "[, \t]")] != '\0')
		p = &w->wl->params[j];
	if (r == TUI_FORM_CHOSE)
		rc = lab_edit_param(t->lab, s->sel, p->name,
		    p->kind == PARAM_BOOL ? (ev->choice ? "true" : "false")
					  : p->values[ev->choice],
		    &gone, e);
	else
		rc =
		    lab_edit_param(t->lab, s->sel, p->name, ev->text, &gone, e);
	if (rc == 0 && gone != NULL && r != TUI_FORM_TYPED)
		tui_message(t, false,
		    _("%s is back to its default: it cannot "
		      "be given with %s"),
		    gone, p->name);
	return rc;
}

static int
apply(struct wls *s, struct tui *t, enum tui_form_event r,
    const struct tui_form_ev *ev, struct err *e)
{
	switch (ev->id) {
	case WF_REPEATS:
		if (r == TUI_FORM_RESET)
			return lab_edit_reset(t->lab, LAB_L_REPEATS);
		if (ev->choice >= 20 && lab_repeats_range(t->lab))
			return 0; /* the range as it was */
		return lab_edit_repeats(t->lab,
		    ev->choice < 20 ? (int64_t)ev->choice + 1 : t->lab->repeats,
		    e);
	case WF_ORDER:
		if (r == TUI_FORM_RESET)
			return lab_edit_reset(t->lab, LAB_L_ORDER);
		return lab_edit_order(t->lab, (enum lab_order)ev->choice);
	case WF_CACHE:
		if (r == TUI_FORM_RESET)
			return lab_edit_reset(t->lab, LAB_L_CACHE);
		return lab_edit_cache(t->lab, (enum lab_cache)ev->choice);
	case WF_NAME:
		if (r != TUI_FORM_EDITED && r != TUI_FORM_TYPED)
			return 0;
		return lab_edit_workload_rename(t->lab, s->sel, ev->text, e);
	default:
		return ev->id >= WF_PARAM ? apply_param(s, t, r, ev, e) : 0;
	}
}

/*
 * The text being typed into field ev->id, tried on a copy of the lab:
 * what the setter or lab_check() says about that field goes under it.
 */
static void
wl_live(struct wls *s, struct tui *t, const struct tui_form_ev *ev)
{
	struct lab *real = t->lab;
	struct errlist errs;
	const char *msg = NULL;
	struct err e;

	if (real == NULL)
		return;
	errlist_init(&errs);
	err_clear(&e);
	t->lab = lab_dup(real); /* apply() and cur_wl() read t->lab */
	if (apply(s, t, TUI_FORM_TYPED, ev, &e) < 0) {
		msg = err_isset(&e) ? e.msg : _("that cannot be changed here");
	} else {
		lab_check(t->lab, &errs);
		for (size_t i = 0; i < errs.n && msg == NULL; i++)
			if (field_id(cur_wl(s, t), errs.v[i].field) == ev->id)
				msg = errs.v[i].msg;
	}
	tui_form_live(s->form, ev->id, msg);
	errlist_done(&errs);
	lab_free(t->lab);
	t->lab = real;
}

/* ---------------------------------------------------------------- life */

static void
layout(struct wls *s, const struct tui *t)
{
	s->list.w = t->cols >= 100 ? 26 : 20;
	s->form_x = s->list.w + 1;
	s->form_w = t->cols - s->form_x;
	s->form_h = t->rows - 2 - 2;
	if (s->form_w < 10)
		s->form_w = 10;
}

static void *
wl_init(struct tui *t)
{
	struct wls *s = xcalloc(1, sizeof *s);

	(void)t;
	s->form = tui_form_new();
	return s;
}

static void
wl_free(void *p)
{
	struct wls *s = p;

	tui_form_free(s->form);
	tui_popup_done(&s->types);
	free(s);
}

static void
wl_enter(void *p, struct tui *t)
{
	struct wls *s = p;

	layout(s, t);
	wl_refresh(s, t);
}

/* ---------------------------------------------------------------- draw */

/* A row of the workload list: name (type), or the name alone when it is
   the type (a new workload's), which "smallfiles (smallfiles)" only
   repeated, cut at 80 columns. lab_check() does not mark rows here, its
   messages go under the fields. */
static bool
wl_row(void *arg, const struct tui *t, size_t i, char *buf, size_t len)
{
	const struct lab_workload *wl = &t->lab->workloads[i];
	const char *name = wl->name != NULL ? wl->name : "?";

	(void)arg;
	if (wl->type != NULL && strcmp(name, wl->type) == 0)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s (%s)", name,
		    wl->type != NULL ? wl->type : "?");
	return false;
}

/* The help of the current parameter, under the form. */
static void
draw_help(struct wls *s, struct tui *t, WINDOW *w)
{
	const struct lab_workload *wl = cur_wl(s, t);
	int id = tui_form_current(s->form);
	const struct param *p;
	char line[512];
	int j;

	if (wl == NULL || wl->wl == NULL || id < WF_PARAM ||
	    (size_t)(id - WF_PARAM) >= wl->nvalues)
		return;
	p = &wl->wl->params[id - WF_PARAM];
	snprintf(line, sizeof line, _("%s: %s (default %s)"), p->name,
	    _(p->help), p->def != NULL ? p->def : _("none"));
	j = list_twin(wl->wl->params, (size_t)(id - WF_PARAM));
	if (j >= 0)
		snprintf(line + strlen(line), sizeof line - strlen(line),
		    _("; a list (1000, 10000) is %s: %s"),
		    wl->wl->params[j].name, _(wl->wl->params[j].help));
	wattron(w, tui_attr(t, TUI_PAIR_DIM));
	tui_put(w, s->form_h + 1, s->form_x + 1, s->form_w - 1, line);
	wattroff(w, tui_attr(t, TUI_PAIR_DIM));
}

static void
wl_draw(void *p, struct tui *t, WINDOW *w)
{
	struct wls *s = p;
	size_t n = t->lab != NULL ? t->lab->nworkloads : 0;

	tui_list_draw(&s->list, t, w, getmaxy(w), _("Workloads"), s->sel, n,
	    wl_row, NULL);
	if (n == 0)
		tui_put(w, 1, 0, s->list.w, _("none: a adds one"));
	/* the help first: a menu the form opens may reach over it */
	draw_help(s, t, w);
	tui_form_draw(s->form, t, w, 0, s->form_x + 1, s->form_h, s->form_w - 1,
	    s->list.focus_form && s->prompt == WP_NONE);
	t->foot_keys = tui_form_status(s->form);
	if (s->adding)
		tui_popup_draw(&s->types, t, w);
	if (s->prompt != WP_NONE)
		tui_prompt_draw(&s->np, t, w);
}

/* ---------------------------------------------------------------- keys */

static void
types_open(struct wls *s)
{
	size_t n = 0;
	char **rows;

	while (workload_table[n] != NULL)
		n++;
	rows = xcalloc(n + 1, sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = xasprintf("%-13s %s", workload_table[i]->name,
		    _(workload_table[i]->summary));
	tui_popup_set(&s->types, _("Add a workload"), rows, n, 0);
	s->types.hint = _("Enter add  Esc cancel");
	s->adding = true;
}

static void
types_key(struct wls *s, struct tui *t, int ch)
{
	const struct workload *wl;
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 4], *name;
	struct err e;
	int rc;

	if (tui_popup_nav(&s->types, ch))
		return;
	if (ch == 27 || ch == 'q') {
		s->adding = false;
		return;
	}
	if (ch != '\n' && ch != '\r' && ch != KEY_ENTER)
		return;
	s->adding = false;
	wl = workload_table[s->types.sel];
	name = lab_edit_workload_unique(t->lab, wl->name);
	err_clear(&e);
	rc = lab_edit_workload_add(t->lab, wl->name, name, &e);
	free(name);
	if (rc < 0) {
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
		return;
	}
	s->sel = (size_t)rc;
	s->list.focus_form = true;
	changed(s, t);
	tui_form_select(s->form, WF_NAME);
}

static void
prompt_key(struct wls *s, struct tui *t, int ch)
{
	enum tui_prompt_result r = tui_prompt_key(&s->np, ch);
	enum wprompt pr = s->prompt;
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 4];
	struct err e;

	if (r == TUI_PROMPT_OPEN)
		return;
	s->prompt = WP_NONE;
	if (r == TUI_PROMPT_CANCEL)
		return;
	err_clear(&e);
	if (pr == WP_DELETE) {
		if (lab_edit_workload_delete(t->lab, s->sel) == 0)
			changed(s, t);
	} else if (lab_edit_workload_rename(t->lab, s->sel, s->np.input, &e) <
	    0) {
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
	} else {
		changed(s, t);
	}
}

static enum tui_handled
common_key(struct wls *s, struct tui *t, int ch)
{
	const struct lab_workload *w = cur_wl(s, t);
	size_t to;

	if (t->lab == NULL)
		return TUI_UNHANDLED;
	switch (ch) {
	case 'a':
		types_open(s);
		break;
	case 'r':
		if (w == NULL)
			break;
		tui_prompt_name(&s->np, _("Rename to"), w->name);
		s->prompt = WP_RENAME;
		break;
	case 'd':
		if (w != NULL) {
			char title[128];

			snprintf(title, sizeof title,
			    _("Delete workload %s? y/n"),
			    w->name ? w->name : "?");
			tui_prompt_yes_no(&s->np, title);
			s->prompt = WP_DELETE;
		}
		break;
	case 'K':
	case 'J':
		if (!tui_list_reorder(ch, s->sel, t->lab->nworkloads, &to))
			break;
		lab_edit_workload_move(t->lab, s->sel, to);
		s->sel = to;
		changed(s, t);
		break;
	default:
		return TUI_UNHANDLED;
	}
	t->redraw = true;
	return TUI_HANDLED;
}

static enum tui_handled
form_key(struct wls *s, struct tui *t, int ch)
{
	struct tui_form_ev ev;
	enum tui_form_event r =
	    tui_list_form_key(&s->list, s->form, t, ch, &ev);
	struct err e;

	switch (r) {
	case TUI_FORM_IGNORED:
		return common_key(s, t, ch);
	case TUI_FORM_TYPED:
		wl_live(s, t, &ev);
		return TUI_HANDLED;
	case TUI_FORM_CHOSE:
	case TUI_FORM_EDITED:
	case TUI_FORM_RESET:
		break;
	default:
		return TUI_HANDLED;
	}
	err_clear(&e);
	if (apply(s, t, r, &ev, &e) < 0) {
		tui_list_refused(t, &e);
		wl_refresh(s, t);
	} else {
		changed(s, t);
	}
	return TUI_HANDLED;
}

static enum tui_handled
list_key(struct wls *s, struct tui *t, int ch)
{
	size_t n = t->lab != NULL ? t->lab->nworkloads : 0;

	switch (tui_list_key(ch, s->sel, n, &s->sel)) {
	case TUI_LIST_SELECT:
		wl_refresh(s, t);
		return TUI_HANDLED;
	case TUI_LIST_FORM: /* the lab's fields, with no workload too */
		s->list.focus_form = t->lab != NULL;
		t->redraw = true;
		return TUI_HANDLED;
	default:
		return common_key(s, t, ch);
	}
}

/* A click on a workload selects it; on the selected one, the form takes
   the keys, as Enter gives them. In the form, it picks the field. */
static void
mouse(struct wls *s, struct tui *t)
{
	size_t n = t->lab != NULL ? t->lab->nworkloads : 0, i;
	int y = t->mouse.y - 1;

	if (tui_form_busy(s->form))
		return;
	if (tui_list_click(&s->list, t, n, &i)) {
		s->list.focus_form =
		    !s->list.focus_form && (i == s->sel || tui_mouse_double(t));
		s->sel = i;
		wl_refresh(s, t);
	} else if (t->mouse.x > s->form_x && y >= 0) {
		s->list.focus_form =
		    tui_form_click(s->form, y) || s->list.focus_form;
	}
}

static enum tui_handled
wl_key(void *p, struct tui *t, int ch)
{
	struct wls *s = p;
	int y, x;

	t->redraw = true;
	if (s->prompt != WP_NONE) {
		prompt_key(s, t, ch);
		return TUI_HANDLED;
	}
	if (s->adding) {
		types_key(s, t, ch);
		return TUI_HANDLED;
	}
	if (ch == KEY_MOUSE) {
		mouse(s, t);
		return TUI_HANDLED;
	}
	if (tui_mouse_wheel(t, ch, &y, &x)) /* the pane under the pointer */
		s->list.focus_form = x > s->form_x && t->lab != NULL;
	if (s->list.focus_form)
		return form_key(s, t, ch);
	return list_key(s, t, ch);
}

const struct tui_screen tui_workloads = {
	.name = N_("Workloads"),
	.keys = wl_keys,
	.init = wl_init,
	.free = wl_free,
	.enter = wl_enter,
	.draw = wl_draw,
	.key = wl_key,
	/* TRANSLATORS: status bar entries "key word", two spaces apart;
	   keep the keys and the two spaces. */
	.status = N_("Enter edit  a add  r rename  d delete  Left/Right change "
		     " K/J move  Esc back"),
};
