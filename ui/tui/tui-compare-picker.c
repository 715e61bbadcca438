/*
 * Drawing the Compare screen's picker of record files (tui-compare.h):
 * each file's creation time, lab, status, runs and variants, the ones
 * already added dimmed, and the path being typed. UI thread only.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/i18n.h"
#include "results/compare.h"
#include "tui-compare.h"
#include "tui-files.h"
#include "tui.h"

static void
picker_row(struct cmp *s, struct tui *t, WINDOW *w, int y, size_t i)
{
	const struct compare_file *f = &s->files.v[i];
	const char *base = strrchr(f->path, '/');
	bool added = compare_has_path(&s->c, f->path);
	char when[32] = "-", b[1024];
	struct tm tm;
	int a;

	base = base ? base + 1 : f->path;
	if (f->created != 0 && localtime_r(&f->created, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
	if (f->ok)
		snprintf(b, sizeof b, "%s %-16s  %-18s %-11s %5zu %8zu  %s%s",
		    s->marked[i] ? "[x]" : "[ ]", when, f->lab ? f->lab : "?",
		    f->status ? f->status : "?", f->nruns, f->nvariants, base,
		    added ? _(" (added)") : "");
	else
		snprintf(b, sizeof b, "    %-16s  %s: %s", "-", base,
		    f->error ? f->error : "?");
	a = i == s->psel      ? tui_attr(t, TUI_PAIR_SEL)
	    : !f->ok || added ? tui_attr(t, TUI_PAIR_DIM)
			      : (int)A_NORMAL;
	wattron(w, a);
	mvwhline(w, y, 0, ' ', t->cols);
	tui_put(w, y, 0, t->cols, b);
	wattroff(w, a);
}

void
cmp_draw_picker(struct cmp *s, struct tui *t, WINDOW *w)
{
	int h = getmaxy(w), rows = h - 4 - (s->typing ? 1 : 0);
	char b[1024];

	snprintf(b, sizeof b, _("Add results from %s"), s->dir ? s->dir : "");
	wattron(w, A_BOLD);
	tui_put(w, 0, 0, t->cols, b);
	wattroff(w, A_BOLD);
	wattron(w, tui_attr(t, TUI_PAIR_DIM));
	tui_put(w, 1, 0, t->cols,
	    _("space marks, Enter adds the marked or the selected file, p "
	      "types a path, Esc closes"));
	wattroff(w, tui_attr(t, TUI_PAIR_DIM));
	snprintf(b, sizeof b, "    %-16s  %-18s %-11s %5s %8s  %s",
	    _("Created"), _("Lab"), _("Status"), _("Runs"), _("Variants"),
	    _("File"));
	wattron(w, A_BOLD);
	tui_put(w, 3, 0, t->cols, b);
	wattroff(w, A_BOLD);
	if (s->files.n == 0)
		tui_put(w, 4, 4, t->cols - 4, _("No record files here."));
	if (rows < 1)
		rows = 1;
	s->prows = rows;
	if (s->psel < s->ptop)
		s->ptop = s->psel;
	if (s->psel >= s->ptop + (size_t)rows)
		s->ptop = s->psel - (size_t)rows + 1;
	for (int r = 0; r < rows && s->ptop + (size_t)r < s->files.n; r++)
		picker_row(s, t, w, CMP_PICKER_Y + r, s->ptop + (size_t)r);
	if (s->typing)
		tui_path_draw(&s->field, w, h - 1, t->cols,
		    _("Directory or record file: "));
}
