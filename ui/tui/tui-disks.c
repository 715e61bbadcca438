/*
 * The Disks screen: the inventory as a table (name, size, model, type,
 * signature, verdict with its reason), the highlighted disk's details
 * (partitions, mounts, holders, serial, sector sizes) and a mark on the
 * devices the current variant uses, its role there; m and s put the
 * selected device in or out of the variant's members or spares
 * (lab-edit.h), so an array can be composed from here. Devices that
 * appear, go away or change (a loop device attached, a signature
 * written) show up by themselves: the screen listens to block uevents
 * (disk-watch.h: udev's when a udev daemon runs, the kernel's and
 * inotify on the nodes otherwise) and rescans at the next tick; where no
 * monitor can be made it rescans sysfs (cheap, without probing) every few
 * seconds and probes again only when devices changed. UI thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "disk/disk-table.h"
#include "disk/disk-watch.h"
#include "disk/disk.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "tui.h"

/* Rescan period while the screen is shown (ms). */
#define DISKS_RESCAN_MS 3000
/* Rows of the detail pane. */
#define DISKS_DETAIL 7

struct disks {
	struct disk_list list;
	size_t *row_disk; /* table row (after the header) -> list index */
	struct disk_table table;
	size_t sel, top; /* selected row, first row shown */
	int shown; /* rows the last frame had for the table, for clicks */
	bool all; /* show hidden devices too */
	char *names; /* the device names of the last scan, joined */
	unsigned since_ms;
	int width; /* the table was built for this width */
	struct disk_watch *watch; /* NULL: poll sysfs instead */
	bool stale; /* an event came: rescan when shown */
};

static const struct tui_key disks_keys[] = {
	{ "Up Down j k", N_("select a device") },
	{ "PgUp PgDn", N_("scroll a page") },
	{ "a", N_("show loop, zram and ram devices too") },
	{ "r", N_("rescan now (with probing: new signatures)") },
	{ "m Space", N_("the device in or out of the variant's members") },
	{ "s", N_("the device in or out of the variant's spares") },
	{ "M S J L", N_("marks: member, spare, md journal, fs journal/log") },
	{ NULL, NULL },
};

static bool
keep(const struct disk *d, void *arg)
{
	const struct disks *s = arg;

	return s->all || !disk_is_hidden(d);
}

/* What the cheap rescan compares: every device's name, size and backing
   file (a loop device exists before it is attached). */
static char *
names_of(const struct disk_list *l)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->v[i].name) + 24 +
		    (l->v[i].backing_file ? strlen(l->v[i].backing_file) : 0);
	s = xcalloc(len, 1);
	for (size_t i = 0; i < l->n; i++) {
		const struct disk *d = &l->v[i];

		snprintf(s + strlen(s), len - strlen(s), "%s:%llu:%s ", d->name,
		    (unsigned long long)d->size,
		    d->backing_file ? d->backing_file : "");
	}
	return s;
}

static void
build(struct disks *s, struct tui *t)
{
	size_t n = 0;

	free(s->row_disk);
	s->row_disk = xcalloc(s->list.n + 1, sizeof *s->row_disk);
	for (size_t i = 0; i < s->list.n; i++)
		if (keep(&s->list.v[i], s))
			s->row_disk[n++] = i;
	s->width = t->cols;
	disk_table_done(&s->table);
	/* The table is drawn after the two-column role mark. */
	disk_table_build(&s->table, &s->list, keep, s,
	    (size_t)(t->cols > 2 ? t->cols - 2 : 1),
	    t->ascii ? 0 : DISK_TABLE_UTF8);
	if (s->sel >= n)
		s->sel = n ? n - 1 : 0;
}

static void
scan(struct disks *s, struct tui *t, unsigned flags)
{
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	size_t nrows = s->table.n > 0 ? s->table.n - 1 : 0;
	char *was = NULL;

	/* The selection follows its disk, not its row: a device that comes
	   or goes above it must not move it onto another (where m or s
	   would act). */
	if (s->sel < nrows && s->row_disk != NULL &&
	    s->list.v[s->row_disk[s->sel]].path != NULL)
		was = xstrdup(s->list.v[s->row_disk[s->sel]].path);
	err_clear(&e);
	if (disk_list_scan(&s->list, flags, &e) < 0)
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
	free(s->names);
	s->names = names_of(&s->list);
	if (s->watch != NULL)
		for (size_t i = 0; i < s->list.n; i++)
			if (s->list.v[i].path != NULL)
				disk_watch_node(s->watch, s->list.v[i].path);
	build(s, t);
	nrows = s->table.n > 0 ? s->table.n - 1 : 0;
	for (size_t r = 0; was != NULL && r < nrows; r++)
		if (s->list.v[s->row_disk[r]].path != NULL &&
		    strcmp(s->list.v[s->row_disk[r]].path, was) == 0)
			s->sel = r;
	free(was);
	t->redraw = true;
}

static void *
disks_init(struct tui *t)
{
	struct disks *s = xcalloc(1, sizeof *s);

	disk_list_init(&s->list);
	s->width = t->cols;
	s->watch = disk_watch_new();
	return s;
}

static void
disks_free(void *p)
{
	struct disks *s = p;

	disk_table_done(&s->table);
	disk_list_done(&s->list);
	disk_watch_free(s->watch);
	free(s->row_disk);
	free(s->names);
	free(s);
}

static void
disks_enter(void *p, struct tui *t)
{
	struct disks *s = p;

	if (s->names == NULL || s->stale) {
		s->stale = false;
		scan(s, t, 0);
	} else if (s->width != t->cols)
		build(s, t);
}

static bool
listed(const struct lab_strv *sv, const char *path)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], path) == 0)
			return true;
	return false;
}

/* What the device is in the current variant, marked in the table: M a
   member (of a leg too), S a spare, J the md write journal, L the fs
   journal or log (or a device of its array); ' ' nothing. */
static char
role_in_variant(const struct tui *t, const struct disk *d)
{
	const struct lab_variant *v;
	const struct lab_array *a;

	if (t->lab == NULL || t->variant >= t->lab->nvariants)
		return ' ';
	v = &t->lab->variants[t->variant];
	a = &v->array;
	if (listed(&a->devices, d->path))
		return 'M';
	for (size_t i = 0; i < a->nlegs; i++)
		if (listed(&a->legs[i].devices, d->path))
			return 'M';
	if (listed(&a->spares, d->path))
		return 'S';
	if (a->journal != NULL && strcmp(a->journal, d->path) == 0)
		return 'J';
	if ((v->fs.journal_device != NULL &&
		strcmp(v->fs.journal_device, d->path) == 0) ||
	    (v->fs.journal_array != NULL &&
		listed(&v->fs.journal_array->devices, d->path)))
		return 'L';
	return ' ';
}

/* Any of sv's names a scratch disk. */
static bool
names_scratch(const struct lab_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		if (lab_scratch_index(sv->v[i]) >= 0)
			return true;
	return false;
}

/* The members are scratch disks only: the starting point a new array
   gets (scratch:0 scratch:1), or a list of scratch disks. */
static bool
scratch_members(const struct lab_variant *v)
{
	const struct lab_array *a = &v->array;

	if (a->nlegs > 0)
		return false;
	if (a->devices.n == 0)
		return lab_variant_isset(v, LAB_V_SCRATCH);
	for (size_t i = 0; i < a->devices.n; i++)
		if (lab_scratch_index(a->devices.v[i]) < 0)
			return false;
	return true;
}

/*
 * The first real disk made a member replaces the scratch members, so that
 * m on two disks gives a mirror of those two, not a 4-way one of two
 * sparse files and two disks. The scratch group goes too when nothing
 * else (spares, journals) names a scratch disk. False: not the case.
 */
static bool
replace_scratch(struct tui *t, const char *dev, struct err *e, int *rc)
{
	struct lab_variant *v = &t->lab->variants[t->variant];
	const struct lab_array *a = &v->array;
	const struct lab_array *ja = v->fs.journal_array;

	if (lab_scratch_index(dev) >= 0 || !scratch_members(v))
		return false;
	*rc = lab_edit_devices(t->lab, t->variant, LAB_A_DEVICES, &dev, 1, e);
	if (*rc < 0 || names_scratch(&a->spares) ||
	    (a->journal != NULL && lab_scratch_index(a->journal) >= 0) ||
	    (v->fs.journal_device != NULL &&
		lab_scratch_index(v->fs.journal_device) >= 0) ||
	    (ja != NULL && names_scratch(&ja->devices)))
		return true;
	lab_edit_variant_reset(t->lab, t->variant, LAB_V_SCRATCH_COUNT);
	lab_edit_variant_reset(t->lab, t->variant, LAB_V_SCRATCH_SIZE);
	lab_edit_variant_reset(t->lab, t->variant, LAB_V_SCRATCH_DIR);
	return true;
}

/* m and s: the selected device in or out of the current variant's
   members or spares. A busy device is not added; one with data is, the
   run asks before destroying it. */
static void
toggle(struct disks *s, struct tui *t, enum lab_a_field which)
{
	size_t nrows = s->table.n > 0 ? s->table.n - 1 : 0;
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 4];
	const struct disk *d;
	const char *name;
	struct err e;
	bool now;
	int rc;

	if (s->sel >= nrows)
		return;
	if (t->lab == NULL || t->variant >= t->lab->nvariants) {
		tui_message(t, true, "%s",
		    _("no variant to put it in: add one on the Compose "
		      "screen"));
		return;
	}
	d = &s->list.v[s->row_disk[s->sel]];
	name = t->lab->variants[t->variant].name;
	if (d->verdict == DISK_BUSY && role_in_variant(t, d) == ' ') {
		tui_message(t, true, _("%s is busy: %s"), d->path, d->reason);
		return;
	}
	err_clear(&e);
	if (which == LAB_A_DEVICES && role_in_variant(t, d) == ' ' &&
	    replace_scratch(t, d->path, &e, &rc)) {
		if (rc < 0) {
			tui_message(t, true, "%s", err_format(&e, b, sizeof b));
			return;
		}
		t->dirty = true;
		tui_message(t, false,
		    d->verdict == DISK_HAS_DATA
			? _("%s: a member of %s in place of its scratch disks; "
			    "it has data, which the run destroys only once you "
			    "confirm")
			: _("%s: a member of %s in place of its scratch disks "
			    "(m on another disk adds it)"),
		    d->path, name);
		return;
	}
	if (lab_edit_toggle_device(t->lab, t->variant, d->path, which, &now,
		&e) < 0) {
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
		return;
	}
	t->dirty = true;
	if (!now)
		tui_message(t, false, _("%s is no longer in %s"), d->path,
		    name);
	else if (d->verdict == DISK_HAS_DATA)
		tui_message(t, false,
		    which == LAB_A_SPARES
			? _("%s: a spare of %s; it has data, which the run "
			    "destroys only once you confirm")
			: _("%s: a member of %s; it has data, which the run "
			    "destroys only once you confirm"),
		    d->path, name);
	else
		tui_message(t, false,
		    which == LAB_A_SPARES ? _("%s: a spare of %s")
					  : _("%s: a member of %s"),
		    d->path, name);
}

static enum tui_pair
verdict_pair(const struct disk *d)
{
	return d->verdict == DISK_FREE    ? TUI_PAIR_GOOD
	    : d->verdict == DISK_HAS_DATA ? TUI_PAIR_WARN
					  : TUI_PAIR_BAD;
}

static void
join(char *buf, size_t len, char **v, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		    i ? ", " : "", v[i]);
	if (n == 0)
		snprintf(buf, len, "-");
}

static void
draw_detail(struct tui *t, WINDOW *w, const struct disk *d, int y)
{
	char a[512], b[512], sz[UNITS_BUF];

	wattron(w, A_BOLD);
	snprintf(a, sizeof a, "%s  %s", d->path,
	    units_format_size(d->size, sz, sizeof sz));
	tui_put(w, y++, 0, t->cols, a);
	wattroff(w, A_BOLD);
	snprintf(a, sizeof a, _("model %s, serial %s, %s, sectors %u/%u"),
	    d->model ? d->model : "-", d->serial ? d->serial : "-",
	    d->rotational ? _("rotational") : _("non-rotational"), d->log_sec,
	    d->phy_sec);
	tui_put(w, y++, 2, t->cols - 2, a);
	join(b, sizeof b, d->partitions, d->n_partitions);
	snprintf(a, sizeof a, _("partitions: %s"), b);
	tui_put(w, y++, 2, t->cols - 2, a);
	/* Mount points keep their ends, where they differ. */
	join(b, sizeof b, d->mountpoints, d->n_mountpoints);
	tui_put(w, y, 2, t->cols - 2, _("mounted on: "));
	tui_put_tail(t, w, y++, 2 + tui_width(_("mounted on: ")),
	    t->cols - 2 - tui_width(_("mounted on: ")), b);
	join(b, sizeof b, d->holders, d->n_holders);
	snprintf(a, sizeof a, _("held by: %s"), b);
	tui_put(w, y++, 2, t->cols - 2, a);
	wattron(w, tui_attr(t, verdict_pair(d)));
	snprintf(a, sizeof a, "%s: %s",
	    d->verdict == DISK_FREE           ? _("free")
		: d->verdict == DISK_HAS_DATA ? _("has data")
					      : _("busy"),
	    d->reason[0] ? d->reason : "-");
	tui_put(w, y, 2, t->cols - 2, a);
	wattroff(w, tui_attr(t, verdict_pair(d)));
}

static void
disks_draw(void *p, struct tui *t, WINDOW *w)
{
	struct disks *s = p;
	int rows = getmaxy(w) - DISKS_DETAIL - 1;
	size_t nrows = s->table.n > 0 ? s->table.n - 1 : 0;

	if (rows < 2)
		rows = getmaxy(w) - 1;
	s->shown = rows;
	if (s->sel < s->top)
		s->top = s->sel;
	if (rows > 0 && s->sel >= s->top + (size_t)rows)
		s->top = s->sel - (size_t)rows + 1;
	if (s->table.n > 0) {
		wattron(w, A_BOLD);
		tui_put(w, 0, 2, t->cols - 2, s->table.lines[0]);
		wattroff(w, A_BOLD);
	}
	for (int r = 0; r < rows && s->top + (size_t)r < nrows; r++) {
		size_t row = s->top + (size_t)r;
		const struct disk *d = &s->list.v[s->row_disk[row]];
		int attr = row == s->sel ? tui_attr(t, TUI_PAIR_SEL)
					 : tui_attr(t, verdict_pair(d));

		wattron(w, attr);
		mvwaddch(w, r + 1, 0, (chtype)role_in_variant(t, d));
		waddch(w, ' ');
		tui_put(w, r + 1, 2, t->cols - 2, s->table.lines[row + 1]);
		wattroff(w, attr);
	}
	if (nrows > 0 && getmaxy(w) > DISKS_DETAIL + 3)
		draw_detail(t, w, &s->list.v[s->row_disk[s->sel]],
		    getmaxy(w) - DISKS_DETAIL + 1);
}

static enum tui_handled
disks_key(void *p, struct tui *t, int ch)
{
	struct disks *s = p;
	size_t nrows = s->table.n > 0 ? s->table.n - 1 : 0;
	size_t page = (size_t)(t->rows > 12 ? t->rows - 12 : 1);

	switch (ch) {
	case KEY_UP:
	case 'k':
		if (s->sel > 0)
			s->sel--;
		break;
	case KEY_DOWN:
	case 'j':
		if (s->sel + 1 < nrows)
			s->sel++;
		break;
	case KEY_PPAGE:
		s->sel = s->sel > page ? s->sel - page : 0;
		break;
	case KEY_NPAGE:
		s->sel = s->sel + page < nrows ? s->sel + page
		    : nrows                    ? nrows - 1
					       : 0;
		break;
	case 'a':
		s->all = !s->all;
		build(s, t);
		break;
	case 'r':
		scan(s, t, 0);
		tui_message(t, false, _("%zu devices"), s->list.n);
		break;
	case 'm':
	case ' ':
		toggle(s, t, LAB_A_DEVICES);
		break;
	case 's':
		toggle(s, t, LAB_A_SPARES);
		break;
	case KEY_MOUSE: /* a row of the table, not of the details under it */
		if (t->mouse.y >= 2 && t->mouse.y - 2 < s->shown &&
		    (size_t)(t->mouse.y - 2) + s->top < nrows)
			s->sel = (size_t)(t->mouse.y - 2) + s->top;
		break;
	default:
		return TUI_UNHANDLED;
	}
	t->redraw = true;
	return TUI_HANDLED;
}

/* Devices come and go: a sysfs walk without probing finds out cheaply;
   a full scan follows only when a device appeared, went away, changed
   size or got another backing file. Signatures written meanwhile on a
   known device show after r. */
static void
disks_tick(void *p, struct tui *t, bool current)
{
	struct disks *s = p;
	struct disk_list l;
	struct err e;
	char *names;

	if (s->watch != NULL) {
		if (current && s->stale) {
			s->stale = false;
			scan(s, t, 0);
		}
		return;
	}
	if (!current || (s->since_ms += t->tick_ms) < DISKS_RESCAN_MS)
		return;
	s->since_ms = 0;
	disk_list_init(&l);
	err_clear(&e);
	if (disk_list_enumerate(&l, &e) == 0) {
		disk_list_link(&l); /* the scan's order */
		names = names_of(&l);
		if (s->names == NULL || strcmp(names, s->names) != 0)
			scan(s, t, 0);
		free(names);
	}
	disk_list_done(&l);
}

static int
disks_fd(void *p)
{
	struct disks *s = p;

	return s->watch != NULL ? disk_watch_fd(s->watch) : -1;
}

/* Events come in bursts (a loop attached: several changes): note them,
   the next tick rescans once. */
static void
disks_readable(void *p, struct tui *t)
{
	struct disks *s = p;

	(void)t;
	if (disk_watch_drain(s->watch))
		s->stale = true;
}

const struct tui_screen tui_disks = {
	.name = N_("Disks"),
	.keys = disks_keys,
	.init = disks_init,
	.free = disks_free,
	.enter = disks_enter,
	.draw = disks_draw,
	.key = disks_key,
	.tick = disks_tick,
	.fd = disks_fd,
	.readable = disks_readable,
	/* TRANSLATORS: status bar entries "key word", two spaces apart;
	   keep the keys and the two spaces. */
	.status = N_("m member  s spare  a all  r rescan  Up/Down select"),
};
