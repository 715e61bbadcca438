/*
 * The Compare screen: variants x workload tests as a table (compare.h:
 * mean ±stddev over repeats, the best of each column marked, a colour
 * scale), the verdict of each row against the baseline row on the
 * selected test in the reports' three words (better or worse with the
 * change and its interval, the same within the margin, can't tell; and
 * the stability marks), by the test t chooses, the answer in sentences
 * with the row over all tests and how it was judged, a bar chart of the
 * selected column, and a picker that adds result records from the
 * results directory (or any directory or file typed). Every record added
 * while a lab is open stays, each its own rows (another lab opened or
 * made starts on its own records); a test run with other parameters
 * is its own column, kept apart. The default baseline is compare.c's.
 * Keys and state here, drawing in tui-compare-draw.c. UI thread only.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "results/compare.h"
#include "results/record.h"
#include "results/report.h"
#include "tui-compare.h"
#include "tui-files.h"
#include "tui-mouse.h"
#include "tui.h"

#define ERRBUF (ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16)

static const struct tui_key cmp_keys[] = {
	{ "Up Down j k", N_("select a row (a variant of a record)") },
	{ "Left Right h l",
	    N_("select a test: its verdicts, bar chart and answer are "
	       "shown") },
	{ "b", N_("make the selected row the baseline of the verdicts") },
	{ "a", N_("add results: pick record files") },
	{ "Del D", N_("remove the selected row's record") },
	{ "y",
	    N_("copy the screen's text: to the terminal's clipboard "
	       "(OSC 52) and a file beside the first record") },
	{ "v",
	    N_("cells: mean ±stddev, mean % (against the baseline), "
	       "mean") },
	{ "t",
	    N_("the test the verdicts rest on: log (Welch on logarithms), "
	       "welch, rank (Mann-Whitney); the lab's by default") },
	{ "L",
	    N_("tail latency columns on or off: p50, p99 and p99.9 of each "
	       "test's main operation, one figure per repeat, judged like "
	       "the rest (few-samples: too few operations, not judged)") },
	{ "w W",
	    N_("write the report beside the results: w as text for a "
	       "mail, W as HTML with charts (raidlab report)") },
	{ "g",
	    N_("records of several hosts: rows grouped by host (each "
	       "host's variants together) or by variant (each variant's "
	       "hosts together); below, the selected cell's verdict over "
	       "the hosts") },
	{ "Picker:", N_("space marks, Enter adds, p types a path") },
	{ "Verdict",
	    N_("against B, after the correction for the comparisons made: "
	       "better or worse (in colour) with the change and the "
	       "half-width of its interval; same ±2%: the same within the "
	       "lab's margin; can't tell (dim), with the interval; n<3: "
	       "too few repeats to tell") },
	{ "Below",
	    N_("the selected cell's answer with q (the adjusted p), the "
	       "smallest change its repeats could show, the repeats that "
	       "would settle it, the row over all tests, how it was "
	       "judged") },
	{ "cv trend...", N_("stability marks: the lines below say why") },
	{ "*", N_("the best in its column, where proven (+++++: too fast)") },
	{ "~", N_("scratch disks: functional, not representative") },
	{ "!",
	    N_("after a figure: only stopped runs had one, never judged; "
	       "after a verdict: a side's repeats are unstable") },
	{ "≠",
	    N_("the test ran with other parameters in another column: "
	       "kept apart, never compared") },
	{ NULL, NULL },
};

size_t
cmp_record_number(const struct cmp *s, size_t record)
{
	size_t n = 1;

	/* Records present with a smaller index come first. */
	for (size_t r = 0; r < record; r++)
		for (size_t i = 0; i < s->c.nrows; i++)
			if (s->c.rows[i].record == r) {
				n++;
				break;
			}
	return n;
}

/* ---------------------------------------------------------------- adding */

/* Add the record at path; false (with a message) when it cannot be. */
static bool
add_file(struct cmp *s, struct tui *t, const char *path)
{
	struct record *rec = NULL;
	struct err e;
	char b[ERRBUF];
	size_t n;

	if (compare_has_path(&s->c, path)) {
		tui_message(t, false, _("%s is in the comparison already"),
		    path);
		return false;
	}
	err_clear(&e);
	if (record_load(path, &rec, &e) < 0) {
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
		return false;
	}
	n = compare_add(&s->c, rec, NULL);
	record_free(rec);
	if (n == 0) {
		tui_message(t, true, _("%s has no runs"), path);
		return false;
	}
	tui_message(t, false,
	    ngettext("Added %zu row from %s", "Added %zu rows from %s",
		(unsigned long)n),
	    n, path);
	return true;
}

static void
picker_scan(struct cmp *s, struct tui *t)
{
	struct err e;
	char b[ERRBUF];

	compare_files_done(&s->files);
	free(s->marked);
	s->marked = NULL;
	err_clear(&e);
	if (compare_files_scan(&s->files, s->dir, &e) < 0)
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
	s->marked = xcalloc(s->files.n + 1, sizeof *s->marked);
	s->psel = s->ptop = 0;
}

static void
picker_open(struct cmp *s, struct tui *t, const char *dir)
{
	free(s->dir);
	s->dir = dir ? xstrdup(dir) : record_results_dir(t->lab);
	s->picking = true;
	s->typing = false;
	picker_scan(s, t);
}

/* Enter: the marked files, or the selected one. */
static void
picker_add(struct cmp *s, struct tui *t)
{
	size_t added = 0, marked = 0;

	/* Oldest first (the list is newest first): the first row, the
	   baseline, is then the earliest run. */
	for (size_t i = s->files.n; i-- > 0;)
		if (s->marked[i]) {
			marked++;
			added += add_file(s, t, s->files.v[i].path);
		}
	if (marked == 0 && s->files.n > 0)
		added += add_file(s, t, s->files.v[s->psel].path);
	if (marked > 1)
		tui_message(t, added < marked,
		    _("Added %zu of %zu record files"), added, marked);
	if (added > 0)
		s->picking = false;
}

/* A typed path: a directory is listed, a file added. */
static void
typed_path(struct cmp *s, struct tui *t)
{
	struct stat st;

	s->typing = false;
	if (s->field.buf == NULL || s->field.buf[0] == '\0')
		return;
	if (stat(s->field.buf, &st) == 0 && S_ISDIR(st.st_mode))
		picker_open(s, t, s->field.buf);
	else if (add_file(s, t, s->field.buf))
		s->picking = false;
}

/* ---------------------------------------------------------------- keys */

static void
step(size_t *v, size_t n, int by)
{
	if (n == 0) {
		*v = 0;
		return;
	}
	if (by < 0)
		*v = *v >= (size_t)-by ? *v - (size_t)-by : 0;
	else
		*v = *v + (size_t)by < n ? *v + (size_t)by : n - 1;
}

/* A click on a record file selects it; on the selected one, it adds
   the marked files or this one, as Enter does. */
static void
picker_click(struct cmp *s, struct tui *t)
{
	int y = t->mouse.y - 1 - CMP_PICKER_Y;
	size_t i;

	if (y < 0 || y >= s->prows || s->ptop + (size_t)y >= s->files.n)
		return;
	i = s->ptop + (size_t)y;
	if (i != s->psel && !tui_mouse_double(t)) {
		s->psel = i;
		return;
	}
	s->psel = i;
	picker_add(s, t);
}

static enum tui_handled
picker_key(struct cmp *s, struct tui *t, int ch)
{
	int page = t->rows > 10 ? t->rows - 10 : 1;

	if (s->typing) {
		if (ch == KEY_F(1))
			return TUI_UNHANDLED;
		switch (tui_path_key(&s->field, ch)) {
		case TUI_PATH_ENTER:
			typed_path(s, t);
			break;
		case TUI_PATH_CANCEL:
			s->typing = false;
			break;
		default:
			break;
		}
		return TUI_HANDLED;
	}
	switch (ch) {
	case KEY_UP:
	case 'k':
		step(&s->psel, s->files.n, -1);
		break;
	case KEY_DOWN:
	case 'j':
		step(&s->psel, s->files.n, 1);
		break;
	case KEY_PPAGE:
		step(&s->psel, s->files.n, -page);
		break;
	case KEY_NPAGE:
		step(&s->psel, s->files.n, page);
		break;
	case ' ':
		if (s->files.n > 0) {
			s->marked[s->psel] = !s->marked[s->psel];
			step(&s->psel, s->files.n, 1);
		}
		break;
	case '\r':
	case '\n':
	case KEY_ENTER:
		picker_add(s, t);
		break;
	case 'p':
	case 'o':
	case '/':
		tui_path_set(&s->field, s->dir ? s->dir : "");
		if (s->field.len > 0 && s->field.buf[s->field.len - 1] != '/')
			tui_path_key(&s->field, '/');
		s->typing = true;
		break;
	case 'r':
		picker_scan(s, t);
		break;
	case 27:
	case 'q':
		s->picking = false;
		break;
	case KEY_MOUSE:
		picker_click(s, t);
		break;
	default:
		return TUI_UNHANDLED;
	}
	return TUI_HANDLED;
}

/* A click in the table selects the cell under it. */
static void
table_click(struct cmp *s, struct tui *t)
{
	int y = t->mouse.y - 1 - s->table_y, x = t->mouse.x;

	if (y >= 0 && y < s->table_rows && s->top + (size_t)y < s->c.nrows)
		s->row = cmp_row_at(s, s->top + (size_t)y);
	for (size_t i = 0; i + 1 < s->ncol_x; i++)
		if (x >= s->col_x[i] && x < s->col_x[i + 1])
			s->col = s->left + i;
}

static void
remove_row_record(struct cmp *s, struct tui *t)
{
	const struct compare_row *r;
	char *what;

	if (s->c.nrows == 0)
		return;
	r = &s->c.rows[s->row];
	what = xstrdup(r->path ? r->path : r->source);
	compare_remove_record(&s->c, r->record);
	tui_message(t, false, _("Removed the results of %s"), what);
	free(what);
	if (s->row >= s->c.nrows)
		s->row = s->c.nrows ? s->c.nrows - 1 : 0;
	if (s->col >= s->c.ncols)
		s->col = s->c.ncols ? s->c.ncols - 1 : 0;
}

/* The rate column of column k, counted among the rate columns. */
static size_t
rate_ordinal(const struct compare *c, size_t k)
{
	size_t n = 0;

	if (k < c->ncols && c->cols[k].lat_q > 0)
		k = c->cols[k].lat_of;
	for (size_t j = 0; j < k && j < c->ncols; j++)
		n += c->cols[j].lat_q == 0;
	return n;
}

/* t: the latency columns in or out, the same test kept selected. */
static void
toggle_latency(struct cmp *s, struct tui *t)
{
	size_t want = rate_ordinal(&s->c, s->col), before = s->c.ncols;

	compare_set_latency(&s->c, !s->c.latency);
	s->col = 0;
	for (size_t k = 0, n = 0; k < s->c.ncols; k++)
		if (s->c.cols[k].lat_q == 0 && n++ == want) {
			s->col = k;
			break;
		}
	if (!s->c.latency)
		tui_message(t, false, "%s",
		    _("Latency columns hidden (L shows them)"));
	else if (s->c.ncols == before)
		tui_message(t, false, "%s",
		    _("No test here has latency samples"));
	else
		tui_message(t, false, "%s",
		    _("Latency columns: p50, p99, p99.9 of each test's main "
		      "operation, a figure per repeat (L hides them)"));
}

/* The report judges as the screen does: by the test chosen with t. */
static void
method(const struct cmp *s, struct report *sh)
{
	if (s->c.method_chosen)
		compare_set_method(&sh->cmp, s->c.test, s->c.margin);
}

/*
 * The report of what the table shows (report.h), as raidlab report would
 * write it from the same files with the same baseline, beside the first
 * record. Rows without a file (none yet) cannot be reloaded: said.
 */
static void
write_report(struct cmp *s, struct tui *t, enum report_format f)
{
	struct record **recs = xcalloc(s->c.nrecords + 1, sizeof *recs);
	const char *base = s->c.baseline != COMPARE_NONE
	    ? s->c.rows[s->c.baseline].variant
	    : NULL;
	size_t n = 0, nofile = 0;
	struct report sh = { 0 }; /* report_done() on it when a load failed */
	char b[ERRBUF], *path = NULL;
	struct err e;

	err_clear(&e);
	for (size_t r = 0; r < s->c.nrecords; r++)
		for (size_t i = 0; i < s->c.nrows; i++) {
			if (s->c.rows[i].record != r)
				continue;
			if (s->c.rows[i].path == NULL)
				nofile++;
			else if (record_load(s->c.rows[i].path, &recs[n], &e) ==
			    0)
				n++;
			break;
		}
	if (e.code != 0)
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
	else if (report_init(&sh, recs, n, base) < 0)
		tui_message(t, true, "%s",
		    nofile > 0 ? _("the results have no file yet: nothing to "
				   "report")
			       : _("nothing to report: no figures"));
	else {
		method(s, &sh);
		path = report_default_path(&sh, f, ".");
		if (report_save(&sh, f, path, &e) < 0)
			tui_message(t, true, "%s", err_format(&e, b, sizeof b));
		else
			tui_message(t, false, _("Report written to %s"), path);
	}
	report_done(&sh);
	for (size_t i = 0; i < n; i++)
		record_free(recs[i]);
	free(recs);
	free(path);
}

/* Up and Down move through the rows as shown. */
static void
step_row(struct cmp *s, int by)
{
	size_t pos;

	cmp_order_update(s);
	pos = cmp_pos_of(s, s->row);
	step(&pos, s->c.nrows, by);
	s->row = cmp_row_at(s, pos);
}

static enum tui_handled
table_key(struct cmp *s, struct tui *t, int ch)
{
	int page = t->rows > 14 ? (t->rows - 14) / 2 : 1;

	switch (ch) {
	case KEY_UP:
	case 'k':
		step_row(s, -1);
		break;
	case KEY_DOWN:
	case 'j':
		step_row(s, 1);
		break;
	case KEY_LEFT:
	case 'h':
		step(&s->col, s->c.ncols, -1);
		break;
	case KEY_RIGHT:
	case 'l':
		step(&s->col, s->c.ncols, 1);
		break;
	case KEY_PPAGE:
		step_row(s, -page);
		break;
	case KEY_NPAGE:
		step_row(s, page);
		break;
	case 'g':
		cmp_toggle_group(s, t);
		break;
	case KEY_HOME:
		s->col = 0;
		break;
	case KEY_END:
		step(&s->col, s->c.ncols, (int)s->c.ncols);
		break;
	case 'b':
		if (s->row < s->c.nrows) {
			compare_set_baseline(&s->c, s->row);
			tui_message(t, false, _("Baseline: %s"),
			    s->c.rows[s->row].variant);
		}
		break;
	case 'a':
		picker_open(s, t, NULL);
		break;
	case 'D': /* not x: x stops a run on the Run screen */
	case KEY_DC:
		remove_row_record(s, t);
		break;
	case 'v':
		s->view = (enum cmp_view)((s->view + 1) % CMP_VIEW__COUNT);
		break;
	case 't':
		compare_set_method(&s->c,
		    (enum stats_test)((s->c.test + 1) % STATS_TEST__COUNT),
		    s->c.margin);
		tui_message(t, false, _("Verdicts by the %s test"),
		    stats_test_key(s->c.test));
		break;
	case 'L':
		toggle_latency(s, t);
		break;
	case 'w':
	case 'W':
		write_report(s, t, ch == 'w' ? REPORT_TEXT : REPORT_HTML);
		break;
	case 'y':
		tui_compare_copy(s, t);
		break;
	case KEY_MOUSE:
		table_click(s, t);
		break;
	default:
		return TUI_UNHANDLED;
	}
	return TUI_HANDLED;
}

static enum tui_handled
cmp_key(void *p, struct tui *t, int ch)
{
	struct cmp *s = p;
	enum tui_handled h =
	    s->picking ? picker_key(s, t, ch) : table_key(s, t, ch);

	if (h == TUI_HANDLED)
		t->redraw = true;
	return h;
}

/* ---------------------------------------------------------------- screen */

static void *
cmp_init(struct tui *t)
{
	struct cmp *s = xcalloc(1, sizeof *s);

	compare_init(&s->c);
	s->gen = t->lab_gen;
	return s;
}

static void
cmp_free(void *p)
{
	struct cmp *s = p;

	compare_done(&s->c);
	compare_files_done(&s->files);
	plot_grid_done(&s->bars);
	tui_path_done(&s->field);
	free(s->order);
	free(s->marked);
	free(s->dir);
	free(s->offered);
	free(s);
}

static void
cmp_draw(void *p, struct tui *t, WINDOW *w)
{
	struct cmp *s = p;

	if (s->picking)
		cmp_draw_picker(s, t, w);
	else
		cmp_draw_table(s, t, w);
}

/* Another lab was opened or made: the last one's rows go, or its record
   would stay the baseline of the new lab's variants. */
static void
lab_changed(struct cmp *s, struct tui *t)
{
	if (s->gen == t->lab_gen)
		return;
	s->gen = t->lab_gen;
	compare_done(&s->c);
	compare_init(&s->c);
	s->row = s->col = s->top = s->left = 0;
	s->picking = s->typing = false;
	free(s->offered);
	s->offered = NULL;
}

/* The Run screen's last record when it finished for this lab, not for
   the one before. */
static const char *
own_record(const struct tui *t)
{
	return t->last_record_gen == t->lab_gen ? t->last_record : NULL;
}

/* A lab reopened (no run yet since): its newest earlier record (its
   lab's name, a finished run) joins an empty comparison, once per lab; the note
   says how many more the picker lists. */
static void
add_earlier(struct cmp *s, struct tui *t)
{
	struct compare_files l = { 0 };
	struct err e;
	char *dir, *key;
	size_t n = 0, first = 0;

	if (t->lab == NULL || t->lab->name == NULL || s->c.nrows > 0 ||
	    own_record(t) != NULL)
		return;
	key = xasprintf("%s\n%s", t->lab->name, t->lab_path ? t->lab_path : "");
	if (s->offered != NULL && strcmp(s->offered, key) == 0) {
		free(key);
		return;
	}
	free(s->offered);
	s->offered = key;
	dir = record_results_dir(t->lab);
	err_clear(&e);
	if (compare_files_scan(&l, dir, &e) == 0)
		for (size_t i = 0; i < l.n; i++)
			if (l.v[i].ok && l.v[i].nruns > 0 && l.v[i].lab &&
			    strcmp(l.v[i].lab, t->lab->name) == 0 && n++ == 0)
				first = i;
	if (n > 0 && add_file(s, t, l.v[first].path))
		tui_message(t, false,
		    ngettext("Lab %s: its latest results (%s); "
			     "%zu result file in all, a adds more",
			"Lab %s: its latest results (%s); "
			"%zu result files in all, a adds more",
			(unsigned long)n),
		    t->lab->name, l.v[first].path, n);
	compare_files_done(&l);
	free(dir);
}

/* A lab of its own: the run just finished on the Run screen joins the
   comparison (a fleet run's records, one path a line, each); else a
   reopened lab's earlier results. */
static void
cmp_enter(void *p, struct tui *t)
{
	struct cmp *s = p;
	const char *last;
	char *copy, *line, *save = NULL;

	lab_changed(s, t);
	add_earlier(s, t);
	if ((last = own_record(t)) == NULL)
		return;
	copy = xstrdup(last);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (!compare_has_path(&s->c, line))
			add_file(s, t, line);
	free(copy);
}

const struct tui_screen tui_compare = {
	.name = N_("Compare"),
	.keys = cmp_keys,
	.init = cmp_init,
	.free = cmp_free,
	.enter = cmp_enter,
	.draw = cmp_draw,
	.key = cmp_key,
	/* TRANSLATORS: status bar entries "key word", two spaces apart;
	   keep the keys and the two spaces. */
	.status = N_("a add  b baseline  Del remove  v view  y copy  w/W "
		     "report  Left/Right test  t method  L latency"),
};
