/*
 * The Compose screen's device picker: the variant's scratch disks and the
 * disks of the inventory (sysfs and usage, no probing), each marked as a
 * member, a spare, a device of the journal's own array, or unused; Space
 * cycles the mark, Enter writes the member and spare lists (or, opened
 * from the journal array field, that array's devices) back through
 * lab-edit.h. The same candidates feed the journal and log device
 * choices. UI thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "disk/disk.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "tui-compose.h"
#include "tui-mouse.h"
#include "tui.h"

void
compose_cands_done(struct compose *s)
{
	for (size_t i = 0; i < s->ncands; i++) {
		free(s->cands[i].dev);
		free(s->cands[i].about);
	}
	free(s->cands);
	s->cands = NULL;
	s->ncands = 0;
}

static struct cand *
cand_find(struct compose *s, const char *dev)
{
	for (size_t i = 0; i < s->ncands; i++)
		if (strcmp(s->cands[i].dev, dev) == 0)
			return &s->cands[i];
	return NULL;
}

static struct cand *
cand_add(struct compose *s, const char *dev, char *about, bool busy)
{
	struct cand *c = cand_find(s, dev);

	if (c != NULL) {
		free(about);
		return c;
	}
	s->cands = xreallocarray(s->cands, s->ncands + 1, sizeof *s->cands);
	c = &s->cands[s->ncands++];
	c->dev = xstrdup(dev);
	c->about = about;
	c->busy = busy;
	c->state = ' ';
	c->implicit = false;
	return c;
}

static void
mark(struct compose *s, const char *dev, char state)
{
	struct cand *c;

	if (dev == NULL)
		return;
	c = cand_add(s, dev, xstrdup(_("named in the lab")), false);
	c->state = state;
}

/* The inventory's disks with the Disks screen's verdicts (a probed scan:
   without it every unused disk read as "has data"). */
static void
inventory(struct compose *s)
{
	char b[UNITS_BUF];

	for (size_t i = 0; i < s->disks.n; i++) {
		const struct disk *d = &s->disks.v[i];

		if (disk_is_hidden(d) || d->type == DISK_TYPE_ROM)
			continue;
		units_format_size(d->size, b, sizeof b);
		cand_add(s, d->path,
		    d->verdict == DISK_FREE
			? xasprintf(_("%s free"), b)
			: xasprintf(d->verdict == DISK_HAS_DATA
				  ? _("%s has data: %s")
				  : _("%s busy: %s"),
			      b, d->reason),
		    d->verdict == DISK_BUSY);
	}
}

/* Busy disks are not offered; one the variant names stays, marked, so
   that it can be taken out. */
static void
drop_busy(struct compose *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ncands; i++) {
		if (s->cands[i].busy && s->cands[i].state == ' ') {
			free(s->cands[i].dev);
			free(s->cands[i].about);
			continue;
		}
		s->cands[n++] = s->cands[i];
	}
	s->ncands = n;
}

void
compose_cands(struct compose *s, const struct lab_variant *v, bool inv)
{
	const struct lab_array *a = &v->array;
	char b[UNITS_BUF];
	bool implicit;

	compose_cands_done(s);
	for (long long i = 0; lab_variant_isset(v, LAB_V_SCRATCH) &&
	     i < (long long)v->scratch_count;
	     i++) {
		char dev[32];

		snprintf(dev, sizeof dev, "scratch:%lld", i);
		cand_add(s, dev,
		    xasprintf(_("scratch disk, %s"),
			units_format_size(v->scratch_size, b, sizeof b)),
		    false);
	}
	if (inv)
		inventory(s);
	for (size_t i = 0; i < a->devices.n; i++)
		mark(s, a->devices.v[i], 'M');
	for (size_t i = 0; i < a->nlegs; i++) /* split again on Enter */
		for (size_t k = 0; k < a->legs[i].devices.n; k++)
			mark(s, a->legs[i].devices.v[k], 'M');
	for (size_t i = 0; i < a->spares.n; i++)
		mark(s, a->spares.v[i], 'S');
	mark(s, a->journal, 'J');
	if (v->fs.journal == LAB_JOURNAL_DEVICE)
		mark(s, v->fs.journal_device, 'J');
	if (v->fs.journal == LAB_JOURNAL_ARRAY && v->fs.journal_array != NULL)
		for (size_t i = 0; i < v->fs.journal_array->devices.n; i++)
			mark(s, v->fs.journal_array->devices.v[i], 'L');
	/* No device list: every scratch disk named nowhere else. */
	implicit = !lab_array_isset(a, LAB_A_DEVICES) && a->nlegs == 0;
	for (size_t i = 0; implicit && i < s->ncands; i++)
		if (lab_scratch_index(s->cands[i].dev) >= 0 &&
		    s->cands[i].state == ' ') {
			s->cands[i].state = 'M';
			s->cands[i].implicit = true;
		}
	drop_busy(s);
}

/* ---------------------------------------------------------------- picker */

static void
pick_rows(struct compose *s, const struct tui *t)
{
	char **rows = xcalloc(s->ncands + 1, sizeof *rows);
	size_t sel = s->pick.sel;

	for (size_t i = 0; i < s->ncands; i++)
		rows[i] = xasprintf("[%c] %-12s %s", s->cands[i].state,
		    s->cands[i].dev, s->cands[i].about);
	tui_popup_set(&s->pick,
	    s->pick_log ? _("Devices of the journal's array")
			: _("Members and spares"),
	    rows, s->ncands, sel);
	s->pick.hint = t->cols < 60 ? _("Space mark  Enter apply")
	    : s->pick_log ? _("Space log/none  Enter apply  Esc cancel")
			  : _("Space member/spare/none  Enter apply  Esc "
			      "cancel");
}

void
compose_pick_open(struct compose *s, struct tui *t, bool log)
{
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];

	if (t->lab == NULL || t->variant >= t->lab->nvariants)
		return;
	err_clear(&e);
	disk_list_done(&s->disks);
	/* Probed, as the Disks screen scans: the same verdicts. */
	if (disk_list_scan(&s->disks, 0, &e) < 0)
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
	s->scanned = true;
	compose_cands(s, &t->lab->variants[t->variant], true);
	if (s->ncands == 0) {
		tui_message(t, true, "%s",
		    _("no devices: choose a number of scratch disks first"));
		return;
	}
	s->pick.sel = 0;
	s->pick_log = log;
	pick_rows(s, t);
	s->picking = true;
	s->pick_changed = false;
}

/* The member and spare lists from the marks. */
static bool
pick_apply(struct compose *s, struct tui *t)
{
	const struct lab_variant *v = &t->lab->variants[t->variant];
	const char **m = xcalloc(s->ncands + 1, sizeof *m);
	const char **sp = xcalloc(s->ncands + 1, sizeof *sp);
	size_t nm = 0, ns = 0;
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 4];
	struct err e;
	int rc;

	/* M marks the members, or L the journal array's devices. */
	for (size_t i = 0; i < s->ncands; i++) {
		if (s->cands[i].state == (s->pick_log ? 'L' : 'M'))
			m[nm++] = s->cands[i].dev;
		else if (s->cands[i].state == 'S')
			sp[ns++] = s->cands[i].dev;
	}
	err_clear(&e);
	if (s->pick_log) {
		rc = lab_edit_journal_array(t->lab, t->variant,
		    v->fs.journal_array != NULL ? v->fs.journal_array->md_level
						: LAB_MD_LEVEL_1,
		    m, nm, &e);
	} else {
		rc = lab_edit_devices(t->lab, t->variant, LAB_A_DEVICES, m, nm,
		    &e);
		if (rc == 0)
			rc = lab_edit_devices(t->lab, t->variant, LAB_A_SPARES,
			    sp, ns, &e);
	}
	if (rc < 0)
		tui_message(t, true, "%s", err_format(&e, b, sizeof b));
	free(m);
	free(sp);
	return rc == 0;
}

/* For the journal's array: unused (or an implicit member) <-> log. */
static void
log_mark(struct compose *s, struct tui *t, struct cand *c)
{
	if (c->state == 'L') {
		c->state = c->implicit ? 'M' : ' ';
	} else if (c->state == ' ' || c->implicit) {
		if (c->busy) {
			tui_message(t, true, _("%s is busy: %s"), c->dev,
			    c->about);
			return;
		}
		c->state = 'L';
	} else {
		tui_message(t, true,
		    _("%s is a member, a spare or the md journal: change "
		      "that field first"),
		    c->dev);
		return;
	}
	s->pick_changed = true;
	pick_rows(s, t);
}

/* Space: unused -> member -> spare (where spares exist) -> unused. */
static void
pick_mark(struct compose *s, struct tui *t, int ch)
{
	struct cand *c = &s->cands[s->pick.sel];
	const struct lab_variant *v = &t->lab->variants[t->variant];
	bool spares = lab_edit_array_applies(&v->array, LAB_A_SPARES);
	char next;

	if (s->pick_log) {
		log_mark(s, t, c);
		return;
	}
	if (c->state == 'J' || c->state == 'L') {
		tui_message(t, true, _("%s is a journal: change that field"),
		    c->dev);
		return;
	}
	if (ch == 'm')
		next = 'M';
	else if (ch == 's')
		next = 'S';
	else if (ch == '-')
		next = ' ';
	else
		next = c->state == ' ' ? 'M' : c->state == 'M' ? 'S' : ' ';
	if (next == 'S' && !spares)
		next = ch == 's' ? c->state : ' ';
	if (next != ' ' && c->busy) {
		tui_message(t, true, _("%s is busy: %s"), c->dev, c->about);
		return;
	}
	c->state = next;
	s->pick_changed = true;
	pick_rows(s, t);
}

bool
compose_pick_key(struct compose *s, struct tui *t, int ch)
{
	if (tui_popup_nav(&s->pick, ch))
		return false;
	switch (ch) {
	case ' ':
	case 'm':
	case 's':
	case '-':
		if (s->pick.sel < s->ncands)
			pick_mark(s, t, ch);
		return false;
	case '\n':
	case '\r':
	case KEY_ENTER:
		s->picking = false;
		return s->pick_changed && pick_apply(s, t);
	case 27:
	case 'q':
		s->picking = false;
		return false;
	default:
		return false;
	}
}

int
compose_pick_click(struct compose *s, const struct tui *t)
{
	int y, x;
	size_t i;

	if (!tui_mouse_click(t, &y, &x) || !tui_popup_click(&s->pick, y, x, &i))
		return 0;
	if (i == s->pick.sel || tui_mouse_double(t)) {
		s->pick.sel = i;
		return ' ';
	}
	s->pick.sel = i;
	return 0;
}
