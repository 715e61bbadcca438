/*
 * The Lab files screen: open a lab (the recent ones, most recent first,
 * and the presets of data/labs; or a path typed with completion), save
 * it, save it under another name, and the "unsaved changes" dialog that
 * quitting or opening another lab raises. A lab that does not load is
 * not opened: its problems are listed as "file:line: field: reason";
 * one that loads but breaks a rule of raidlab.lab(5) opens with its
 * problems listed, so that it can be fixed. Presets are templates: saving
 * one asks for a new path. Recent labs live in
 * $XDG_STATE_HOME/raidlab/recent (~/.local/state/raidlab/recent), one
 * absolute path a line, written atomically. UI thread only.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "tui-files-int.h"
#include "tui-files.h"
#include "tui-mouse.h"
#include "tui.h"

static const struct tui_key files_keys[] = {
	{ "Up Down j k", N_("select a lab") },
	{ "Enter", N_("open the selected lab") },
	{ "o", N_("open a lab file by its path (Tab completes)") },
	{ "s", N_("save the lab (a preset asks for a new path)") },
	{ "w", N_("save the lab as... (a new path)") },
	{ "n", N_("new empty lab (you name it)") },
	{ "N", N_("new lab copying the selected one (you name it)") },
	{ "a", N_("name the lab (its results are saved as NAME-*.json)") },
	{ "e", N_("edit the lab's description") },
	{ "r", N_("read the list again") },
	{ "Esc", N_("close a field or dialog") },
	{ NULL, NULL },
};

static bool
is_preset(const struct files *s, const char *path)
{
	return tui_files_in_dir(path, s->presets);
}

/* Put path first in the recent labs (presets are listed anyway). */
static void
recent_add(struct files *s, struct tui *t, const char *path)
{
	struct err e;

	err_clear(&e);
	if (tui_files_recent_add(path, s->presets, &e) < 0)
		tui_message(t, true, _("cannot keep the recent labs: %s"),
		    e.msg);
}

/* ---------------------------------------------------------------- list */

static void
entries_free(struct files *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].name);
		free(s->v[i].about);
	}
	free(s->v);
	s->v = NULL;
	s->n = s->nrecent = 0;
}

/* Add path, with its lab's name and description read from it. */
static void
entry_add(struct files *s, const char *path, bool preset)
{
	struct files_entry *en;
	struct errlist errs;
	struct lab *lab = NULL;
	const char *base = strrchr(path, '/'), *file = base ? base + 1 : path;
	char b[TUI_FILES_ERRBUF];

	s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
	en = &s->v[s->n++];
	memset(en, 0, sizeof *en);
	en->path = xstrdup(path);
	en->preset = preset;
	errlist_init(&errs);
	if (lab_load(path, &lab, &errs) == 0) {
		en->name = xstrdup(lab->name ? lab->name : file);
		en->about = xstrdup(lab->description ? lab->description : "");
	} else {
		errlist_sort(&errs);
		en->bad = true;
		en->name = xstrdup(file);
		en->about = xstrdup(
		    errs.n ? err_format(&errs.v[0], b, sizeof b) : path);
	}
	lab_free(lab);
	errlist_done(&errs);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
listed(const struct files *s, const char *path)
{
	char *a = tui_files_absolute(path);
	bool found = false;

	for (size_t i = 0; i < s->n && !found; i++) {
		char *b = tui_files_absolute(s->v[i].path);

		found = strcmp(a, b) == 0;
		free(b);
	}
	free(a);
	return found;
}

/* The labs (*.cfg) of dir, by name, but those listed already. */
static void
add_dir(struct files *s, const char *dir, bool preset)
{
	DIR *d = dir != NULL ? opendir(dir) : NULL;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, len;

	while (d != NULL && (de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 5 ||
		    strcmp(de->d_name + len - 4, ".cfg") != 0)
			continue;
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	if (d != NULL)
		closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++)
		if (!listed(s, names[i]))
			entry_add(s, names[i], preset);
	tui_files_strv_free(names, n);
}

static void
entries_build(struct files *s)
{
	size_t n;
	char **recent = tui_files_recent_read(&n);

	entries_free(s);
	for (size_t i = 0; i < n; i++)
		if (access(recent[i], F_OK) == 0)
			entry_add(s, recent[i], false);
	/* The user's own labs join the recent ones (not presets). */
	add_dir(s, s->mine, false);
	s->nrecent = s->n;
	add_dir(s, s->presets, true);
	tui_files_strv_free(recent, n);
	if (s->sel >= s->n)
		s->sel = s->n ? s->n - 1 : 0;
}

/* ---------------------------------------------------------------- problems */

static void
problems_clear(struct files *s)
{
	errlist_done(&s->errs);
	errlist_init(&s->errs);
	free(s->errs_path);
	s->errs_path = NULL;
}

/* Keep the problems found in path (moved out of errs). */
static void
problems_keep(struct files *s, struct errlist *errs, const char *path,
    bool fatal)
{
	problems_clear(s);
	errlist_sort(errs);
	s->errs = *errs;
	errlist_init(errs);
	s->errs_path = xstrdup(path);
	s->errs_fatal = fatal;
}

/* ---------------------------------------------------------------- actions */

/* Replace the lab being edited by the one at path, unless it is invalid
   (then its problems are shown and nothing changes). */
static void
open_now(struct files *s, struct tui *t, const char *path)
{
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	problems_clear(s);
	if (lab_load(path, &lab, &errs) < 0) {
		tui_message(t, true, _("Not opened: %s has problems (listed)"),
		    path);
		if (errs.n == 0)
			errlist_add(&errs, -ENOENT, path, 0, NULL, "%s",
			    _("cannot read the file"));
		problems_keep(s, &errs, path, true);
		errlist_done(&errs);
		return;
	}
	lab_free(t->lab);
	t->lab = lab;
	t->lab_gen++;
	free(t->lab_path);
	t->lab_path = xstrdup(path);
	t->dirty = false;
	t->variant = 0;
	if (lab_check(lab, &errs) < 0) {
		tui_message(t, true,
		    ngettext("Opened %s: it breaks %zu rule (listed)",
			"Opened %s: it breaks %zu rules (listed)",
			(unsigned long)errs.n),
		    path, errs.n);
		problems_keep(s, &errs, path, false);
	} else {
		tui_message(t, false, _("Opened %s"), path);
	}
	errlist_done(&errs);
	recent_add(s, t, path);
	entries_build(s);
}

/* Open path, asking first when the lab has unsaved changes. */
static void
open_lab(struct files *s, struct tui *t, const char *path)
{
	if (t->dirty) {
		free(s->pending);
		s->pending = xstrdup(path);
		s->mode = FILES_MODE_ASK_OPEN;
		return;
	}
	open_now(s, t, path);
}

static void
ask_save_path(struct files *s, struct tui *t)
{
	char cwd[PATH_MAX], *p;

	if (t->lab_path != NULL && !is_preset(s, t->lab_path))
		p = xstrdup(t->lab_path);
	else if (s->mine != NULL)
		/* The user's lab directory, never the source tree. */
		p = xasprintf("%s/%s.cfg", s->mine,
		    t->lab && t->lab->name ? t->lab->name : "lab");
	else
		p = xasprintf("%s/%s.cfg", getcwd(cwd, sizeof cwd) ? cwd : ".",
		    t->lab && t->lab->name ? t->lab->name : "lab");
	tui_path_set(&s->field, p);
	free(p);
	free(s->replace);
	s->replace = NULL;
	s->mode = FILES_MODE_SAVE_PATH;
}

/* What the unsaved-changes dialog wanted done once the lab is saved. */
static void
after_save(struct files *s, struct tui *t)
{
	char *p = s->pending;

	s->pending = NULL;
	if (s->new_after_save) {
		s->new_after_save = false;
		tui_path_set(&s->field, "");
		s->mode = FILES_MODE_NEW_NAME;
	} else if (s->quit_after_save)
		t->quit = true;
	else if (p != NULL)
		open_now(s, t, p);
	free(p);
}

/* mkdir -p of path's directory; a failure shows in lab_save's message. */
static void
make_parents(const char *path)
{
	char *d = xstrdup(path);

	for (char *c = d + 1; *c != '\0'; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		(void)mkdir(d, 0755);
		*c = '/';
	}
	free(d);
}

/* Save to path; true when it was saved. */
static bool
save_to(struct files *s, struct tui *t, const char *path)
{
	struct errlist errs;
	struct err e;
	char b[TUI_FILES_ERRBUF];

	err_clear(&e);
	make_parents(path);
	if (lab_save(t->lab, path, &e) < 0) {
		tui_message(t, true, _("Not saved: %s"),
		    err_format(&e, b, sizeof b));
		return false;
	}
	if (t->lab_path == NULL || strcmp(t->lab_path, path) != 0) {
		free(t->lab_path);
		t->lab_path = xstrdup(path);
		free(t->lab->path);
		t->lab->path = xstrdup(path);
	}
	t->dirty = false;
	errlist_init(&errs);
	problems_clear(s);
	if (lab_check(t->lab, &errs) < 0) {
		tui_message(t, true,
		    ngettext("Saved to %s, but it breaks %zu rule (listed)",
			"Saved to %s, but it breaks %zu rules (listed)",
			(unsigned long)errs.n),
		    path, errs.n);
		problems_keep(s, &errs, path, false);
	} else {
		tui_message(t, false, _("Saved to %s"), path);
	}
	errlist_done(&errs);
	recent_add(s, t, path);
	entries_build(s);
	after_save(s, t);
	return true;
}

/* s: save where the lab came from; a preset or a new lab asks where. */
static void
save(struct files *s, struct tui *t)
{
	if (t->lab_path == NULL || is_preset(s, t->lab_path)) {
		ask_save_path(s, t);
		tui_message(t, false, "%s",
		    t->lab_path == NULL
			? _("The lab has no file yet: where should it go?")
			: _("A preset stays as it is: save the lab under a "
			    "new path"));
		return;
	}
	/* Failed, what the unsaved-changes dialog wanted done after it is
	   off: a later plain save must not quit or make a new lab. (A path
	   asked for keeps it: the user tries another path.) */
	if (!save_to(s, t, t->lab_path)) {
		s->quit_after_save = s->new_after_save = false;
		free(s->pending);
		s->pending = NULL;
	}
}

/* Quitting with unsaved changes asks first: s saves then quits, d
   discards and quits, Esc stays (the loop shows this screen). */
static bool
files_quit(void *p, struct tui *t)
{
	struct files *s = p;

	if (!t->dirty)
		return true;
	s->mode = FILES_MODE_ASK_QUIT;
	t->redraw = true;
	return false;
}

/* ---------------------------------------------------------------- keys */

/* Enter in the save-as field: an existing other file is replaced only
   after a second Enter. */
static void
save_path_enter(struct files *s, struct tui *t)
{
	char *path = paths_expand(s->field.buf);
	struct stat st;

	if (path[0] == '\0') {
		free(path);
		return;
	}
	if (stat(path, &st) == 0 &&
	    (t->lab_path == NULL || strcmp(path, t->lab_path) != 0) &&
	    (s->replace == NULL || strcmp(s->replace, path) != 0)) {
		free(s->replace);
		s->replace = path;
		tui_message(t, true,
		    _("%s exists: Enter again replaces it, Esc keeps it"),
		    path);
		return;
	}
	/* Listing again, unless saving failed or after_save asks more
	   (the new lab's name). */
	s->mode = FILES_MODE_LIST;
	if (!save_to(s, t, path))
		s->mode = FILES_MODE_SAVE_PATH;
	free(path);
}

/* A new lab named name: empty, or a copy of s->new_from. It has no
   file yet, so s asks where (the user's lab directory first). False,
   with the reason said, when the name is not one a lab file takes. */
static bool
new_lab(struct files *s, struct tui *t, const char *name)
{
	struct errlist errs;
	struct lab *lab = NULL;
	struct err e = { 0 };

	errlist_init(&errs);
	if (s->new_from == NULL) {
		lab = lab_new();
		lab_edit_new_defaults(lab);
	} else if (lab_load(s->new_from, &lab, &errs) < 0) {
		tui_message(t, true, _("Not made: %s does not load"),
		    s->new_from);
		errlist_done(&errs);
		return true;
	}
	errlist_done(&errs);
	/* Through lab_edit, so that the name is the lab's own and saved:
	   an empty lab's name was lost on save, leaving a file that does
	   not check. */
	if (lab_edit_name(lab, name, &e) < 0) {
		lab_free(lab);
		tui_message(t, true, "%s", e.msg);
		return false;
	}
	lab_free(t->lab);
	t->lab = lab;
	t->lab_gen++;
	free(t->lab_path);
	t->lab_path = NULL;
	t->dirty = true;
	t->variant = 0;
	tui_message(t, false, _("New lab %s: s saves it"), name);
	return true;
}

/* Enter in the name or description field. */
static void
text_enter(struct files *s, struct tui *t)
{
	const char *v = s->field.buf;
	struct err e = { 0 };

	if (s->mode == FILES_MODE_NEW_NAME) {
		if (!new_lab(s, t, v))
			return;
	} else if (s->mode == FILES_MODE_NAME) {
		if (lab_edit_name(t->lab, v, &e) < 0) {
			tui_message(t, true, "%s", e.msg);
			return;
		}
		t->dirty = true;
	} else {
		lab_edit_about(t->lab, v);
		t->dirty = true;
	}
	free(s->new_from);
	s->new_from = NULL;
	s->mode = FILES_MODE_LIST;
}

/* Ask for a text in the field, starting from v. */
static void
ask_text(struct files *s, struct tui *t, enum files_mode m, const char *v)
{
	/* Asked as opening another lab asks: save, discard or cancel. */
	if (m == FILES_MODE_NEW_NAME && t->dirty) {
		s->mode = FILES_MODE_ASK_NEW;
		return;
	}
	tui_path_set(&s->field, v != NULL ? v : "");
	s->mode = m;
}

static enum tui_handled
field_key(struct files *s, struct tui *t, int ch)
{
	char *path;

	if (ch == KEY_F(1))
		return TUI_UNHANDLED;
	switch (tui_path_key(&s->field, ch)) {
	case TUI_PATH_CANCEL:
		s->mode = FILES_MODE_LIST;
		s->quit_after_save = false;
		s->new_after_save = false;
		free(s->pending);
		s->pending = NULL;
		break;
	case TUI_PATH_ENTER:
		if (s->mode == FILES_MODE_NEW_NAME ||
		    s->mode == FILES_MODE_NAME || s->mode == FILES_MODE_ABOUT) {
			text_enter(s, t);
			break;
		}
		if (s->mode == FILES_MODE_SAVE_PATH) {
			save_path_enter(s, t);
			break;
		}
		path = paths_expand(s->field.buf);
		s->mode = FILES_MODE_LIST;
		if (path[0] != '\0')
			open_lab(s, t, path);
		free(path);
		break;
	case TUI_PATH_EDITING:
		free(s->replace);
		s->replace = NULL;
		break;
	}
	return TUI_HANDLED;
}

/* The unsaved-changes dialog: s saves first, d discards, Esc cancels. */
static enum tui_handled
ask_key(struct files *s, struct tui *t, int ch)
{
	bool quit = s->mode == FILES_MODE_ASK_QUIT;
	bool fresh = s->mode == FILES_MODE_ASK_NEW;

	if (ch == KEY_F(1))
		return TUI_UNHANDLED;
	if (ch == 's' || ch == 'S') {
		/* Saved now (then quit, open or name the new lab), or a path
		   is asked for. */
		s->mode = FILES_MODE_LIST;
		s->quit_after_save = quit;
		s->new_after_save = fresh;
		save(s, t);
	} else if (ch == 'd' || ch == 'D' ||
	    (quit && (ch == 'q' || ch == 'Q'))) {
		s->mode = FILES_MODE_LIST;
		if (quit)
			t->quit = true;
		else if (fresh) { /* the changes go when the name is given */
			tui_path_set(&s->field, "");
			s->mode = FILES_MODE_NEW_NAME;
		} else if (s->pending != NULL)
			open_now(s, t, s->pending);
	} else if (ch == 27 || ch == 'c' || ch == 'C') {
		s->mode = FILES_MODE_LIST;
	}
	if (s->mode == FILES_MODE_LIST) {
		free(s->pending);
		s->pending = NULL;
		s->quit_after_save = false;
		s->new_after_save = false;
	}
	return TUI_HANDLED;
}

/* A click on the list selects the lab under it (not a heading); on the
   selected one, it opens it as Enter does (unsaved changes are asked
   about first). */
static void
click(struct files *s, struct tui *t)
{
	int y = t->mouse.y - 1 - TUI_FILES_LIST_Y;
	size_t r, i;

	if (y < 0 || (size_t)y >= s->shown || s->mode != FILES_MODE_LIST)
		return;
	r = s->top + (size_t)y;
	/* The headings: "Recent labs" (when there are some), "Presets". */
	if ((s->nrecent > 0 && r == 0) || r == s->nrecent + (s->nrecent > 0))
		return;
	i = r - (s->nrecent > 0) - (r > s->nrecent);
	if (i >= s->n)
		return;
	if (i != s->sel && !tui_mouse_double(t)) {
		s->sel = i;
		return;
	}
	s->sel = i;
	open_lab(s, t, s->v[i].path);
}

static enum tui_handled
list_key(struct files *s, struct tui *t, int ch)
{
	size_t page = (size_t)(t->rows > 14 ? t->rows - 14 : 1);

	switch (ch) {
	case KEY_UP:
	case 'k':
		s->sel -= s->sel > 0;
		break;
	case KEY_DOWN:
	case 'j':
		s->sel += s->sel + 1 < s->n;
		break;
	case KEY_PPAGE:
		s->sel = s->sel > page ? s->sel - page : 0;
		break;
	case KEY_NPAGE:
		s->sel = s->sel + page < s->n ? s->sel + page
		    : s->n                    ? s->n - 1
					      : 0;
		break;
	case '\r':
	case '\n':
	case KEY_ENTER:
		if (s->n > 0)
			open_lab(s, t, s->v[s->sel].path);
		break;
	case 'o':
		tui_path_set(&s->field, "");
		s->mode = FILES_MODE_OPEN_PATH;
		break;
	case 's':
		save(s, t);
		break;
	case 'w':
		ask_save_path(s, t);
		break;
	case 'n':
		free(s->new_from);
		s->new_from = NULL;
		ask_text(s, t, FILES_MODE_NEW_NAME, "");
		break;
	case 'N':
		free(s->new_from);
		s->new_from = s->n > 0 ? xstrdup(s->v[s->sel].path) : NULL;
		ask_text(s, t, FILES_MODE_NEW_NAME, "");
		break;
	case 'a':
		ask_text(s, t, FILES_MODE_NAME, t->lab->name);
		break;
	case 'e':
		ask_text(s, t, FILES_MODE_ABOUT, t->lab->description);
		break;
	case 'r':
		entries_build(s);
		break;
	case 27:
		problems_clear(s);
		break;
	case KEY_MOUSE:
		click(s, t);
		break;
	default:
		return TUI_UNHANDLED;
	}
	return TUI_HANDLED;
}

static enum tui_handled
files_key(void *p, struct tui *t, int ch)
{
	struct files *s = p;
	enum tui_handled h;

	switch (s->mode) {
	case FILES_MODE_OPEN_PATH:
	case FILES_MODE_SAVE_PATH:
	case FILES_MODE_NEW_NAME:
	case FILES_MODE_NAME:
	case FILES_MODE_ABOUT:
		h = field_key(s, t, ch);
		break;
	case FILES_MODE_ASK_OPEN:
	case FILES_MODE_ASK_QUIT:
	case FILES_MODE_ASK_NEW:
		h = ask_key(s, t, ch);
		break;
	default:
		h = list_key(s, t, ch);
		break;
	}
	if (h == TUI_HANDLED)
		t->redraw = true;
	return h;
}

/* ---------------------------------------------------------------- screen */

static void *
files_init(struct tui *t)
{
	struct files *s = xcalloc(1, sizeof *s);

	(void)t;
	errlist_init(&s->errs);
	s->presets = paths_presets();
	s->mine = paths_user_labs();
	return s;
}

static void
files_free(void *p)
{
	struct files *s = p;

	entries_free(s);
	problems_clear(s);
	errlist_done(&s->errs);
	tui_path_done(&s->field);
	free(s->pending);
	free(s->replace);
	free(s->presets);
	free(s->mine);
	free(s->new_from);
	free(s);
}

static void
files_enter(void *p, struct tui *t)
{
	struct files *s = p;
	char *cur;

	entries_build(s);
	if (s->entered || t->lab_path == NULL)
		return;
	/* The first time, the lab being edited is the one selected. */
	s->entered = true;
	cur = tui_files_absolute(t->lab_path);
	for (size_t i = 0; i < s->n; i++) {
		char *a = tui_files_absolute(s->v[i].path);

		if (strcmp(a, cur) == 0)
			s->sel = i;
		free(a);
	}
	free(cur);
}

static const struct tui_hotkey files_hotkeys[] = {
	{ KEY_F(7), "F7", 'n',
	    N_("new lab, empty (Lab files' n; N there copies one)"), NULL },
	{ 0, NULL, 0, NULL, NULL },
};

const struct tui_screen tui_files = {
	.name = N_("Lab files"),
	.keys = files_keys,
	.hotkeys = files_hotkeys,
	.quit = files_quit,
	.init = files_init,
	.free = files_free,
	.enter = files_enter,
	.draw = tui_files_draw,
	.key = files_key,
	/* TRANSLATORS: status bar entries "key word", two spaces apart;
	   keep the keys and the two spaces. */
	.status = N_("Enter open  s save  w save as  n new  a name  N copy  e "
		     "describe  o path"),
};
