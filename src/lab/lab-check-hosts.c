/*
 * lab_check()'s rules on the fleet (lab-check.h): every host has a name
 * and an address; every variant's `hosts` names hosts of the lab, or is
 * "local" or "all" alone; every device a host maps is one a variant
 * uses, so that a typo (scratch:4 for scratch:3) cannot leave the disk
 * meant unmapped, as `--disk` refuses it. The thread that owns the lab.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "lab-check.h"
#include "lab-load.h"
#include "lab.h"

/* "a, b, c": the hosts' names, for a message. */
static void
host_names(const struct lab *lab, struct strbuf *b)
{
	for (size_t i = 0; i < lab->nhosts; i++)
		if (lab->hosts[i].name != NULL)
			strbuf_printf(b, "%s%s", b->len ? ", " : "",
			    lab->hosts[i].name);
}

static void
check_name(struct lab_chk *c, const struct lab_variant *v, const char *name)
{
	const struct lab *lab = c->lab;
	struct strbuf b;

	if (strcmp(name, "all") == 0 && lab->nhosts == 0) {
		lab_chk_variant(c, v, LAB_V_HOSTS,
		    _("\"all\" hosts, but the lab has no hosts list"));
		return;
	}
	if (strcmp(name, "all") == 0 || lab_host_find(lab, name) != NULL)
		return;
	strbuf_init(&b);
	host_names(lab, &b);
	if (b.len > 0)
		lab_chk_variant(c, v, LAB_V_HOSTS,
		    _("no host named '%s' (the hosts are: %s)"), name, b.s);
	else
		lab_chk_variant(c, v, LAB_V_HOSTS,
		    _("no host named '%s': the lab has no hosts list"), name);
	strbuf_done(&b);
}

/* A variant's hosts (or the defaults group's): checked where written. */
static void
check_placement(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_strv *hs = &v->hosts;

	if (!lab_variant_isset(v, LAB_V_HOSTS) ||
	    (!v->is_defaults && lab_variant_inherited(v, LAB_V_HOSTS)))
		return;
	for (size_t i = 0; i < hs->n; i++) {
		bool word = strcmp(hs->v[i], "local") == 0 ||
		    strcmp(hs->v[i], "all") == 0;

		if (word && hs->n > 1) {
			lab_chk_variant(c, v, LAB_V_HOSTS,
			    _("\"%s\" stands alone, not in a list of hosts"),
			    hs->v[i]);
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(hs->v[j], hs->v[i]) == 0)
				lab_chk_variant(c, v, LAB_V_HOSTS,
				    _("'%s' is named twice"), hs->v[i]);
		if (strcmp(hs->v[i], "local") != 0)
			check_name(c, v, hs->v[i]);
	}
}

static bool
any_remote(const struct lab *lab)
{
	for (size_t i = 0; i < lab->nvariants; i++)
		if (lab_variant_remote(&lab->variants[i]))
			return true;
	return false;
}

/* Each of h's mappings names a device some variant uses. */
static void
check_disks(struct lab_chk *c, const struct lab_host *h,
    const struct lab_strv *used)
{
	char field[LAB_PATH_MAX], *from;
	const char *to;
	bool found;

	lab_host_path(h, LAB_H_DISKS, field, sizeof field);
	for (size_t i = 0; i < h->disks.n; i++) {
		if (lab_disk_pair(h->disks.v[i], &from, &to) < 0)
			continue;
		found = false;
		for (size_t j = 0; j < used->n; j++)
			found = found || strcmp(used->v[j], from) == 0;
		if (!found)
			lab_chk_add(c, lab_host_line(h, LAB_H_DISKS), field,
			    _("%s: no variant uses %s"), h->disks.v[i], from);
		free(from);
	}
}

void
lab_chk_hosts(struct lab_chk *c)
{
	const struct lab *lab = c->lab;
	struct lab_strv used = { NULL, 0 };
	char field[LAB_PATH_MAX];

	for (size_t i = 0; i < lab->nvariants; i++)
		lab_variant_devices(&lab->variants[i], &used);
	for (size_t i = 0; i < lab->nhosts; i++) {
		const struct lab_host *h = &lab->hosts[i];

		if (h->name == NULL && !(h->set & (1u << LAB_H_NAME)))
			lab_chk_add(c, h->line,
			    lab_host_path(h, LAB_H_NAME, field, sizeof field),
			    _("missing; each host needs a name"));
		if (h->address == NULL && !(h->set & (1u << LAB_H_ADDRESS)))
			lab_chk_add(c, h->line,
			    lab_host_path(h, LAB_H_ADDRESS, field,
				sizeof field),
			    _("missing: a host name or an IP address"));
		check_disks(c, h, &used);
	}
	lab_strv_done(&used);
	if (lab->barrier && !any_remote(lab))
		lab_chk_add(c, lab->lines[LAB_L_BARRIER], "barrier",
		    _("a barrier starts the rounds of hosts together, but no "
		      "variant runs on hosts"));
	if (lab->defaults != NULL)
		check_placement(c, lab->defaults);
	for (size_t i = 0; i < lab->nvariants; i++)
		check_placement(c, &lab->variants[i]);
}
