/*
 * Drawing the Lab files screen: the lab being edited (name, file,
 * variants and workloads), the list of recent labs and presets, the
 * problems of the last lab opened or saved, the path field and the
 * unsaved-changes dialog. See tui-files-int.h. UI thread only.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "lab/lab.h"
#include "results/record.h"
#include "tui-files-int.h"
#include "tui-files.h"
#include "tui.h"

/* The list's name column: as wide as the longest name, within these. */
#define NAME_MIN 12
#define NAME_MAX 40

/* "variants: a, b; workloads: small, bonnie"; "none" for an empty list,
   which otherwise read "variants:; workloads:". */
static void
names_line(const struct lab *lab, char *b, size_t len)
{
	size_t n;

	snprintf(b, len, "%s", _("variants:"));
	for (size_t i = 0; i < lab->nvariants && (n = strlen(b)) < len; i++)
		snprintf(b + n, len - n, "%s %s", i ? "," : "",
		    lab->variants[i].name ? lab->variants[i].name : "?");
	n = strlen(b);
	if (lab->nvariants == 0)
		snprintf(b + n, len - n, " %s", _("none"));
	n = strlen(b);
	snprintf(b + n, len - n, "; %s", _("workloads:"));
	for (size_t i = 0; i < lab->nworkloads && (n = strlen(b)) < len; i++)
		snprintf(b + n, len - n, "%s %s", i ? "," : "",
		    lab->workloads[i].name ? lab->workloads[i].name
					   : lab->workloads[i].type);
	n = strlen(b);
	if (lab->nworkloads == 0)
		snprintf(b + n, len - n, " %s", _("none"));
}

/* "File: PATH  (a preset...)": a long path loses its start, so that its
   file name and the note stay in view. */
static void
draw_file(struct tui *t, WINDOW *w, struct files *s)
{
	const char *label = _("File: ");
	const char *note = tui_files_in_dir(t->lab_path, s->presets)
	    ? _("  (a preset: s saves a copy)")
	    : "";
	int lw = tui_width(label), nw = tui_width(note);
	int pw = t->cols - 2 - lw - nw, shown;
	char *path;

	tui_put(w, 1, 2, t->cols - 2, label);
	if (t->lab_path == NULL) {
		tui_put(w, 1, 2 + lw, t->cols - 2 - lw, _("(not saved yet)"));
		return;
	}
	if (pw < 16) /* too narrow for both: the path comes first */
		pw = t->cols - 2 - lw, nw = 0;
	path = tui_files_absolute(t->lab_path);
	tui_put_tail(t, w, 1, 2 + lw, pw, path);
	shown = tui_width(path) < pw ? tui_width(path) : pw;
	if (nw > 0)
		tui_put(w, 1, 2 + lw + shown, nw, note);
	free(path);
}

static void
draw_lab(struct tui *t, WINDOW *w, struct files *s)
{
	const struct lab *lab = t->lab;
	char b[1024], v[64], wl[64], rep[96];
	char *res;

	wattron(w, A_BOLD);
	snprintf(b, sizeof b, _("Lab %s%s"),
	    lab && lab->name ? lab->name : _("(unnamed)"),
	    t->dirty ? _("  [unsaved changes]") : "");
	tui_put(w, 0, 0, t->cols, b);
	wattroff(w, A_BOLD);
	/* The description the e key edits, where the user sees it took. */
	if (lab != NULL && lab->description != NULL &&
	    tui_width(b) + 2 < t->cols)
		tui_put_end(t, w, 0, tui_width(b) + 2,
		    t->cols - tui_width(b) - 2, lab->description);
	draw_file(t, w, s);
	if (lab == NULL)
		return;
	res = record_results_dir(lab);
	snprintf(v, sizeof v,
	    ngettext("%zu variant", "%zu variants", lab->nvariants),
	    lab->nvariants);
	snprintf(wl, sizeof wl,
	    ngettext("%zu workload", "%zu workloads", lab->nworkloads),
	    lab->nworkloads);
	if (lab_repeats_range(lab)) {
		char pc[LAB_PERCENT_LEN];

		snprintf(rep, sizeof rep, _("%lld to %lld repeats until ±%s"),
		    (long long)lab->repeats_min, (long long)lab->repeats,
		    lab_percent_format(lab->repeats_ci, pc, sizeof pc));
	} else {
		snprintf(rep, sizeof rep,
		    ngettext("%lld repeat", "%lld repeats",
			(unsigned long)lab->repeats),
		    (long long)lab->repeats);
	}
	snprintf(b, sizeof b, _("%s, %s, %s; results in %s"), v, wl, rep, res);
	free(res);
	tui_put(w, 3, 2, t->cols - 2, b);
	names_line(lab, b, sizeof b);
	tui_put(w, 2, 2, t->cols - 2, b);
}

/* The row (of the list with its headings) where entry i is drawn. */
static size_t
entry_row(const struct files *s, size_t i)
{
	return i + (s->nrecent > 0) + (i >= s->nrecent);
}

static bool
same_file(const char *a, const char *b)
{
	char *x, *y;
	bool same;

	if (a == NULL || b == NULL)
		return false;
	x = tui_files_absolute(a);
	y = tui_files_absolute(b);
	same = strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

static void
draw_entry(struct files *s, struct tui *t, WINDOW *w, int y, size_t i, int nw)
{
	const struct files_entry *en = &s->v[i];
	int attr = i == s->sel ? tui_attr(t, TUI_PAIR_SEL)
	    : en->bad          ? tui_attr(t, TUI_PAIR_BAD)
			       : (int)A_NORMAL;
	int x = 4 + nw + 2;
	char b[1024];

	snprintf(b, sizeof b, "%s%s", en->bad ? _("does not load: ") : "",
	    en->preset || en->bad ? en->about : en->path);
	wattron(w, attr);
	mvwhline(w, y, 2, ' ', t->cols - 2);
	tui_put(w, y, 2, 2, same_file(en->path, t->lab_path) ? "*" : " ");
	/* names sharing a prefix (seed-00N-...) stay apart */
	tui_put_mid(t, w, y, 4, nw, en->name, 0);
	/* A recent lab's path keeps its end, where the file name is. */
	if (t->cols > x && (en->preset || en->bad))
		tui_put_end(t, w, y, x, t->cols - x, b);
	else if (t->cols > x)
		tui_put_tail(t, w, y, x, t->cols - x, b);
	wattroff(w, attr);
}

/* The name column's width: the longest name, but at most a third of the
   screen so that the description or path stays readable. */
static int
name_width(const struct files *s, const struct tui *t)
{
	int nw = NAME_MIN, cap = t->cols / 3;

	for (size_t i = 0; i < s->n; i++) {
		int w = s->v[i].name ? tui_width(s->v[i].name) : 0;

		if (w > nw)
			nw = w;
	}
	if (nw > NAME_MAX)
		nw = NAME_MAX;
	return nw > cap && cap >= NAME_MIN ? cap : nw;
}

/* Recent labs, then presets, from row y0 to y1 (exclusive). */
static void
draw_list(struct files *s, struct tui *t, WINDOW *w, int y0, int y1)
{
	size_t rows = (size_t)(y1 > y0 ? y1 - y0 : 0);
	size_t total = s->n + (s->nrecent > 0) + 1, sel = entry_row(s, s->sel);
	int nw = name_width(s, t);

	wattron(w, A_BOLD);
	tui_put(w, y0 - 1, 0, t->cols,
	    _("Open a lab: Enter opens the selected one, o types a path"));
	wattroff(w, A_BOLD);
	s->shown = rows;
	if (rows == 0)
		return;
	if (sel < s->top + 1)
		s->top = sel > 0 ? sel - 1 : 0;
	if (sel >= s->top + rows)
		s->top = sel - rows + 1;
	for (size_t r = s->top; r < total && r < s->top + rows; r++) {
		int y = y0 + (int)(r - s->top);
		size_t i;

		if (s->nrecent > 0 && r == 0) {
			wattron(w, tui_attr(t, TUI_PAIR_DIM));
			tui_put(w, y, 1, t->cols - 1, _("Recent labs"));
			wattroff(w, tui_attr(t, TUI_PAIR_DIM));
			continue;
		}
		if (r == s->nrecent + (s->nrecent > 0)) {
			wattron(w, tui_attr(t, TUI_PAIR_DIM));
			tui_put(w, y, 1, t->cols - 1,
			    s->n > s->nrecent ? _("Presets")
					      : _("Presets: none found"));
			wattroff(w, tui_attr(t, TUI_PAIR_DIM));
			continue;
		}
		i = r - (s->nrecent > 0) - (r > s->nrecent);
		if (i < s->n)
			draw_entry(s, t, w, y, i, nw);
	}
}

static const char *
field_label(const struct files *s)
{
	switch (s->mode) {
	case FILES_MODE_SAVE_PATH:
		return _("Save as: ");
	case FILES_MODE_NEW_NAME:
		return s->new_from != NULL ? _("New lab (a copy), its name: ")
					   : _("New empty lab, its name: ");
	case FILES_MODE_NAME:
		return _("Lab name: ");
	case FILES_MODE_ABOUT:
		return _("Description: ");
	default:
		return _("Open: ");
	}
}

/* The problems of the last lab opened or saved, from row y. */
static void
draw_problems(struct files *s, struct tui *t, WINDOW *w, int y, int rows)
{
	char b[TUI_FILES_ERRBUF + 64];
	int attr = tui_attr(t, s->errs_fatal ? TUI_PAIR_BAD : TUI_PAIR_WARN);

	wattron(w, attr | A_BOLD);
	snprintf(b, sizeof b,
	    s->errs_fatal ? _("Not opened, %s does not load (Esc hides this):")
			  : _("%s breaks these rules (Esc hides this):"),
	    s->errs_path);
	tui_put(w, y++, 0, t->cols, b);
	wattroff(w, attr | A_BOLD);
	for (size_t i = 0; i < s->errs.n && i + 1 < (size_t)rows; i++) {
		struct err e = s->errs.v[i];
		const char *base = strrchr(e.file, '/');

		/* The heading names the file: its lines say "quick.cfg:9:",
		   so that a deep path does not push the reason off screen. */
		if (base != NULL && s->errs_path != NULL &&
		    strcmp(e.file, s->errs_path) == 0)
			memmove(e.file, base + 1, strlen(base + 1) + 1);
		tui_put(w, y++, 2, t->cols - 2, err_format(&e, b, sizeof b));
	}
}

static void
draw_box(struct tui *t, WINDOW *w, int y, int x, int h, int wd)
{
	chtype hl = t->ascii ? '-' : ACS_HLINE, vl = t->ascii ? '|' : ACS_VLINE;

	for (int r = y; r < y + h; r++)
		mvwhline(w, r, x, ' ', wd);
	mvwhline(w, y, x + 1, hl, wd - 2);
	mvwhline(w, y + h - 1, x + 1, hl, wd - 2);
	mvwvline(w, y + 1, x, vl, h - 2);
	mvwvline(w, y + 1, x + wd - 1, vl, h - 2);
	mvwaddch(w, y, x, t->ascii ? '+' : ACS_ULCORNER);
	mvwaddch(w, y, x + wd - 1, t->ascii ? '+' : ACS_URCORNER);
	mvwaddch(w, y + h - 1, x, t->ascii ? '+' : ACS_LLCORNER);
	mvwaddch(w, y + h - 1, x + wd - 1, t->ascii ? '+' : ACS_LRCORNER);
}

static void
draw_ask(struct files *s, struct tui *t, WINDOW *w)
{
	bool quit = s->mode == FILES_MODE_ASK_QUIT;
	bool fresh = s->mode == FILES_MODE_ASK_NEW;
	const char *base = s->pending ? strrchr(s->pending, '/') : NULL;
	char what[512], save[512];
	int wd, h = 7, y, x;

	snprintf(what, sizeof what,
	    _("The lab %s has changes that are not saved."),
	    t->lab && t->lab->name ? t->lab->name : "");
	if (quit)
		snprintf(save, sizeof save, "%s", _("s  save them, then quit"));
	else if (fresh)
		snprintf(save, sizeof save, "%s",
		    _("s  save them, then make the new lab"));
	else
		snprintf(save, sizeof save, _("s  save them, then open %s"),
		    base ? base + 1 : "");
	/* wide enough for its lines (a long lab name), up to the screen */
	wd = (int)(strlen(what) > strlen(save) ? strlen(what) : strlen(save)) +
	    4;
	wd = wd < 66 ? 66 : wd > t->cols - 4 ? t->cols - 4 : wd;
	y = (getmaxy(w) - h) / 2;
	x = (t->cols - wd) / 2;
	if (y < 0 || wd < 20)
		return;
	draw_box(t, w, y, x, h, wd);
	wattron(w, A_BOLD);
	tui_put(w, y, x + 2, wd - 4, _(" Unsaved changes "));
	wattroff(w, A_BOLD);
	tui_put(w, y + 1, x + 2, wd - 4, what);
	tui_put(w, y + 3, x + 2, wd - 4, save);
	tui_put(w, y + 4, x + 2, wd - 4,
	    quit        ? _("d  discard them and quit (q too)")
		: fresh ? _("d  discard them and make the new lab")
			: _("d  discard them and open the other lab"));
	tui_put(w, y + 5, x + 2, wd - 4, _("Esc  cancel"));
}

void
tui_files_draw(void *p, struct tui *t, WINDOW *w)
{
	struct files *s = p;
	int h = getmaxy(w),
	    field = s->mode != FILES_MODE_LIST &&
	    s->mode != FILES_MODE_ASK_OPEN && s->mode != FILES_MODE_ASK_QUIT &&
	    s->mode != FILES_MODE_ASK_NEW;
	int probs = 0, end;

	draw_lab(t, w, s);
	if (s->errs_path != NULL)
		probs = (int)s->errs.n + 1 < h / 3 + 1 ? (int)s->errs.n + 1
						       : h / 3 + 1;
	end = h - probs - field - (probs > 0);
	draw_list(s, t, w, TUI_FILES_LIST_Y, end);
	if (probs > 0)
		draw_problems(s, t, w, end + 1, probs);
	if (field)
		tui_path_draw(&s->field, w, h - 1, t->cols, field_label(s));
	if (s->mode == FILES_MODE_ASK_OPEN || s->mode == FILES_MODE_ASK_QUIT ||
	    s->mode == FILES_MODE_ASK_NEW)
		draw_ask(s, t, w);
}
