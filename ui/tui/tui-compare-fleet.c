/*
 * The Compare screen with records of several hosts (tui-compare.h): the
 * order the table shows the rows in, grouped by host (each host's
 * variants together, the hosts in the order their records came, the
 * variants in the order they first came) or by variant (each variant's
 * hosts together), g switching; and the fleet
 * verdict of the selected cell (compare-fleet.h): the variant's change
 * over the hosts, the host as a block, and the selected host's own.
 * With one host the order is the rows'. UI thread only.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "results/compare-fleet.h"
#include "results/compare.h"
#include "tui-compare.h"
#include "tui.h"

bool
cmp_fleet(const struct cmp *s)
{
	return compare_host_count(&s->c) > 1;
}

/* The index of the first row with row i's host (or variant): the group
   keys, in the order the rows came. */
static size_t
first_host(const struct compare *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (c->rows[j].host != NULL && c->rows[i].host != NULL &&
		    strcmp(c->rows[j].host, c->rows[i].host) == 0)
			return j;
	return i;
}

static size_t
first_variant(const struct compare *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(c->rows[j].variant, c->rows[i].variant) == 0)
			return j;
	return i;
}

/* Row a shows before row b: by host, then by variant, or the other way
   round; each host lists its variants in the same order. hk and vk:
   each row's group keys. */
static bool
before(const struct cmp *s, const size_t *hk, const size_t *vk, size_t a,
    size_t b)
{
	if (s->by_variant && vk[a] != vk[b])
		return vk[a] < vk[b];
	if (hk[a] != hk[b])
		return hk[a] < hk[b];
	return vk[a] != vk[b] ? vk[a] < vk[b] : a < b;
}

void
cmp_order_update(struct cmp *s)
{
	size_t n = s->c.nrows;
	size_t *hk = xcalloc(n + 1, sizeof *hk),
	       *vk = xcalloc(n + 1, sizeof *vk);
	bool fleet = cmp_fleet(s);

	free(s->order);
	s->order = xcalloc(n + 1, sizeof *s->order);
	s->norder = n;
	for (size_t i = 0; fleet && i < n; i++) {
		hk[i] = first_host(&s->c, i);
		vk[i] = first_variant(&s->c, i);
	}
	/* insertion sort: a few hundred rows at most, and stable */
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		while (
		    fleet && j > 0 && before(s, hk, vk, i, s->order[j - 1])) {
			s->order[j] = s->order[j - 1];
			j--;
		}
		s->order[j] = i;
	}
	free(hk);
	free(vk);
}

size_t
cmp_row_at(const struct cmp *s, size_t pos)
{
	return pos < s->norder ? s->order[pos] : pos;
}

size_t
cmp_pos_of(const struct cmp *s, size_t row)
{
	for (size_t p = 0; p < s->norder; p++)
		if (s->order[p] == row)
			return p;
	return row;
}

void
cmp_toggle_group(struct cmp *s, struct tui *t)
{
	if (!cmp_fleet(s)) {
		tui_message(t, false, "%s",
		    _("The records come from one host: nothing to group"));
		return;
	}
	s->by_variant = !s->by_variant;
	cmp_order_update(s);
	tui_message(t, false, "%s",
	    s->by_variant ? _("Rows by variant: each variant's hosts together "
			      "(g: by host)")
			  : _("Rows by host: each host's variants together "
			      "(g: by variant)"));
}

/* The fleet item of the selected cell's test and variant, or -1. */
static long
item_of(const struct compare_fleet *f, const struct cmp *s)
{
	const char *v = s->c.rows[s->row].variant;

	for (size_t i = 0; i < f->nitems; i++)
		if (f->items[i].col == s->col &&
		    strcmp(f->items[i].variant, v) == 0)
			return (long)i;
	return -1;
}

char *
cmp_fleet_para(const struct cmp *s, char **host_line)
{
	struct compare_fleet f;
	const struct compare_row *r;
	char *a = NULL;
	long i;

	*host_line = NULL;
	if (!cmp_fleet(s) || s->row >= s->c.nrows || s->col >= s->c.ncols)
		return NULL;
	r = &s->c.rows[s->row];
	compare_fleet_build(&f, &s->c);
	i = item_of(&f, s);
	if (i >= 0) {
		char *ans = compare_fleet_answer(&f, &s->c, (size_t)i);
		const struct compare_fleet_item *it = &f.items[i];

		a = xasprintf(ngettext("Over %zu host: %s",
				  "Over %zu hosts: %s",
				  (unsigned long)it->nhosts),
		    it->nhosts, ans);
		free(ans);
		for (size_t h = 0; h < it->nhosts; h++)
			if (it->hosts[h].row == s->row) {
				char *x = compare_fleet_host_text(&f, &s->c,
				    (size_t)i, h);

				*host_line =
				    xasprintf(_("On this host: %s"), x);
				free(x);
			}
	} else if (s->c.baseline != COMPARE_NONE &&
	    strcmp(r->variant, s->c.rows[s->c.baseline].variant) == 0) {
		a = xasprintf(_("Over the hosts: %s is the baseline on every "
				"host"),
		    r->variant);
	} else if (f.nitems > 0 || s->c.baseline != COMPARE_NONE) {
		a = xasprintf(_("Over the hosts: %s has no fleet verdict on "
				"this test (fewer than 2 hosts have it and "
				"the baseline)"),
		    r->variant);
	}
	compare_fleet_done(&f);
	return a;
}
