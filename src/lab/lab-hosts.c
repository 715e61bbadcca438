/*
 * The lab's hosts (lab.h, struct lab_host): reading the `hosts` list and
 * its values, a variant's `hosts` list of names, a host's life (init,
 * done, copy, equality) by its schema lab_host_keys[], and the lookups a
 * plan and the fleet runner make: where a variant runs and what each of
 * its devices is on a host. Nothing here reaches a host. The thread
 * that owns the lab.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strmap.h"
#include "base/xalloc.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

/* ---------------------------------------------------------------- values */

/* A host name (RFC 1123 labels) or an IPv4 or IPv6 address: what ssh
   and fio take as a host, and never an option ("-oProxyCommand=..."). */
static bool
address_ok(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];
	size_t n = strlen(s), label = 0;
	bool digits = true;

	if (inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1)
		return true;
	if (n == 0 || n > 253 || s[n - 1] == '.')
		return false;
	for (const char *p = s; *p != '\0'; p++) {
		if (*p == '.') {
			if (label == 0 || p[-1] == '-')
				return false;
			label = 0;
			continue;
		}
		if (!isalnum((unsigned char)*p) && *p != '-')
			return false;
		if ((*p == '-' && label == 0) || ++label > 63)
			return false;
		digits = digits && isdigit((unsigned char)*p);
	}
	/* "127.0.0.300" is a mistyped address, not a host name */
	return s[n - 1] != '-' && !digits;
}

static bool
load_address(struct lab_ctx *c, const config_setting_t *s, const char *field,
    char **out)
{
	char *text = NULL;

	if (!lab_get_string(c, s, field, &text))
		return false;
	if (text[0] == '\0')
		lab_ctx_error(c, lab_line_of(s), field,
		    _("the address is empty"));
	else if (!address_ok(text))
		lab_ctx_error(c, lab_line_of(s), field,
		    _("'%s' is neither a host name nor an IP address"), text);
	else {
		free(*out);
		*out = text;
		return true;
	}
	free(text);
	return false;
}

bool
lab_load_host_address(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group)
{
	return load_address(c, s, field, &((struct lab_host *)group)->address);
}

/* Every interface: 0.0.0.0, ::, and their other spellings. */
static bool
address_any(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];
	static const unsigned char zero[sizeof buf];

	if (inet_pton(AF_INET, s, buf) == 1)
		return memcmp(buf, zero, 4) == 0;
	if (inet_pton(AF_INET6, s, buf) == 1)
		return memcmp(buf, zero, sizeof buf) == 0;
	return false;
}

bool
lab_load_host_fio_bind(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group)
{
	struct lab_host *h = group;

	if (!load_address(c, s, field, &h->fio_bind))
		return false;
	/* fio's server has no authentication: it listens on one address
	   the lab names, never on every interface. */
	if (address_any(h->fio_bind)) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("'%s' is every interface, and fio's server has no "
		      "authentication: name the one address it may listen on, "
		      "or use fio_tunnel"),
		    h->fio_bind);
		free(h->fio_bind);
		h->fio_bind = NULL;
		return false;
	}
	return true;
}

/* "local" and "all" say where a variant runs: no host may be named so. */
bool
lab_load_host_name(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group)
{
	char **name = &((struct lab_host *)group)->name;

	if (!lab_get_name(c, s, field, name))
		return false;
	if (strcmp(*name, "local") != 0 && strcmp(*name, "all") != 0)
		return true;
	lab_ctx_error(c, lab_line_of(s), field,
	    _("'%s' is reserved: a variant's hosts = \"%s\" means something "
	      "else"),
	    *name, *name);
	free(*name);
	*name = NULL;
	return false;
}

/* A user name as ssh passes it on: no option, no "user@host". */
bool
lab_load_host_user(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group)
{
	char **user = &((struct lab_host *)group)->user, *text = NULL;
	size_t n;

	if (!lab_get_string(c, s, field, &text))
		return false;
	n = strlen(text);
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)text[i]) && text[i] != '.' &&
		    text[i] != '_' && text[i] != '-')
			n = 0;
	if (n == 0 || n > 32 || text[0] == '-') {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("'%s' is not a user name (1 to 32 letters, digits, '.', "
		      "'_' or '-', not starting with '-')"),
		    text);
		free(text);
		return false;
	}
	free(*user);
	*user = text;
	return true;
}

int
lab_disk_pair(const char *s, char **from, const char **to)
{
	const char *eq = strchr(s, '=');
	char *head;

	*from = NULL;
	if (eq == NULL || eq[1] != '/' || eq[2] == '\0')
		return -EINVAL;
	head = xstrndup(s, (size_t)(eq - s));
	if (lab_scratch_index(head) < 0 &&
	    (head[0] != '/' || head[1] == '\0')) {
		free(head);
		return -EINVAL;
	}
	*from = head;
	*to = eq + 1;
	return 0;
}

/* One "FROM=TO" of a host's disks, against those before it (first: the
   list's first entry); the problem said, false when refused. */
static bool
disk_ok(struct lab_ctx *c, int line, const char *field, const char *pair,
    const struct lab_strv *before)
{
	const char *to, *oto;
	char *from, *ofrom;
	bool ok = true;

	if (lab_disk_pair(pair, &from, &to) < 0 ||
	    strncmp(to, "/dev/", 5) != 0 || to[5] == '\0') {
		lab_ctx_error(c, line, field,
		    _("'%s': expected DEVICE=/dev/NAME, DEVICE being scratch:N "
		      "or a device a variant names"),
		    pair);
		free(from);
		return false;
	}
	for (size_t i = 0; ok && i < before->n; i++) {
		(void)lab_disk_pair(before->v[i], &ofrom, &oto);
		if (strcmp(ofrom, from) == 0) {
			lab_ctx_error(c, line, field, _("%s is mapped twice"),
			    from);
			ok = false;
		} else if (strcmp(oto, to) == 0) {
			lab_ctx_error(c, line, field,
			    _("%s is given for %s and %s"), to, ofrom, from);
			ok = false;
		}
		free(ofrom);
	}
	free(from);
	return ok;
}

bool
lab_load_host_disks(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group)
{
	struct lab_strv *disks = &((struct lab_host *)group)->disks;
	struct lab_strv sv = { NULL, 0 }, ok = { NULL, 0 };
	bool good = true;

	if (!lab_get_strv(c, s, field, false, &sv))
		return false;
	for (size_t i = 0; i < sv.n; i++) {
		if (disk_ok(c, lab_line_of(s), field, sv.v[i], &ok))
			lab_strv_push(&ok, sv.v[i]);
		else
			good = false;
	}
	lab_strv_done(&sv);
	if (!good) {
		lab_strv_done(&ok);
		return false;
	}
	lab_strv_done(disks);
	*disks = ok;
	return true;
}

bool
lab_get_names(struct lab_ctx *c, const config_setting_t *s, const char *field,
    struct lab_strv *out)
{
	struct lab_strv sv = { NULL, 0 };
	char why[ERR_MSG_MAX];
	bool ok = true;

	if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		lab_strv_push(&sv, config_setting_get_string(s));
	} else if (!config_setting_is_aggregate(s) ||
	    config_setting_is_group(s)) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected a name or a list of names"));
		return false;
	} else if (!lab_get_strv(c, s, field, false, &sv)) {
		return false;
	}
	for (size_t i = 0; i < sv.n; i++)
		if (lab_name_problem(sv.v[i], why, sizeof why) != NULL) {
			lab_ctx_error(c, lab_line_of(s), field, "%s", why);
			ok = false;
		}
	if (!ok) {
		lab_strv_done(&sv);
		return false;
	}
	lab_strv_done(out);
	*out = sv;
	return true;
}

/* ---------------------------------------------------------------- list */

static void
load_host(struct lab_ctx *c, const config_setting_t *g, struct lab_host *h)
{
	const char *known[LAB_H__COUNT + 1];
	char field[LAB_PATH_MAX], prefix[LAB_PATH_MAX];
	const config_setting_t *s;
	const struct lab_key *k;

	h->line = lab_line_of(g);
	/* the name first: the other keys' messages name the host by it */
	for (k = lab_host_keys; k->name != NULL; k++) {
		if ((s = config_setting_get_member(g, k->name)) == NULL)
			continue;
		lab_host_path(h, k->field, field, sizeof field);
		if (lab_key_load(c, k, s, field, h)) {
			h->lines[k->field] = lab_line_of(s);
			h->set |= 1u << k->field;
		}
	}
	lab_key_names(lab_host_keys, 0, known, LAB_H__COUNT + 1);
	lab_load_unknown_keys(c, g, known,
	    lab_host_path(h, -1, prefix, sizeof prefix));
	h->own = h->set;
}

void
lab_load_hosts(struct lab_ctx *c, const config_setting_t *list, struct lab *lab)
{
	size_t i, j, n = (size_t)config_setting_length(list);
	const config_setting_t *g;
	char field[LAB_PATH_MAX];
	struct strmap names;

	if (!config_setting_is_list(list)) {
		lab_ctx_error(c, lab_line_of(list), "hosts",
		    _("expected a list of groups: %s = ( { ... }, ... );"),
		    "hosts");
		return;
	}
	lab->lines[LAB_L_HOSTS] = lab_line_of(list);
	lab->set |= 1u << LAB_L_HOSTS;
	strmap_init(&names);
	lab->hosts = xcalloc(n + 1, sizeof *lab->hosts);
	for (i = 0; i < n; i++) {
		struct lab_host *h = &lab->hosts[i];

		g = config_setting_get_elem(list, (unsigned)i);
		lab_host_init(h);
		h->index = i;
		lab->nhosts++;
		if (!config_setting_is_group(g)) {
			snprintf(field, sizeof field, "hosts[%zu]", i);
			lab_ctx_error(c, lab_line_of(g), field,
			    _("expected a group"));
			continue;
		}
		load_host(c, g, h);
		if (h->name == NULL || strmap_add(&names, h->name, i, &j))
			continue;
		snprintf(field, sizeof field, "hosts[%zu].name", i);
		lab_ctx_error(c, lab_host_line(h, LAB_H_NAME), field,
		    _("duplicate host name '%s' (first at line %d)"), h->name,
		    lab_host_line(&lab->hosts[j], LAB_H_NAME));
	}
	strmap_done(&names);
}

/* ---------------------------------------------------------------- life */

void
lab_host_init(struct lab_host *h)
{
	memset(h, 0, sizeof *h);
	for (const struct lab_key *k = lab_host_keys; k->name != NULL; k++)
		lab_key_reset(k, h);
}

void
lab_host_done(struct lab_host *h)
{
	for (const struct lab_key *k = lab_host_keys; k->name != NULL; k++)
		lab_key_reset(k, h);
	memset(h, 0, sizeof *h);
}

void
lab_host_copy(struct lab_host *dst, const struct lab_host *src)
{
	*dst = *src;
	for (const struct lab_key *k = lab_host_keys; k->name != NULL; k++)
		lab_key_copy(k, dst, src);
}

bool
lab_host_equal(const struct lab_host *a, const struct lab_host *b)
{
	if (a->set != b->set || a->own != b->own || a->index != b->index)
		return false;
	for (const struct lab_key *k = lab_host_keys; k->name != NULL; k++)
		if (!lab_key_equal(k, a, b))
			return false;
	return true;
}

/* ---------------------------------------------------------------- lookups */

const char *
lab_host_path(const struct lab_host *h, int f, char *buf, size_t len)
{
	char p[LAB_PATH_MAX];

	if (h->name != NULL)
		snprintf(p, sizeof p, "hosts.%s", h->name);
	else
		snprintf(p, sizeof p, "hosts[%zu]", h->index);
	if (f >= 0 && f < LAB_H__COUNT)
		return lab_join(buf, len, p, lab_host_keys[f].name);
	snprintf(buf, len, "%s", p);
	return buf;
}

int
lab_host_line(const struct lab_host *h, enum lab_h_field f)
{
	if ((int)f >= 0 && f < LAB_H__COUNT && (h->set & (1u << f)))
		return h->lines[f];
	return h->line;
}

bool
lab_variant_remote(const struct lab_variant *v)
{
	return v->hosts.n > 0 &&
	    !(v->hosts.n == 1 && strcmp(v->hosts.v[0], "local") == 0);
}

bool
lab_variant_on_host(const struct lab_variant *v, const struct lab_host *h)
{
	if (!lab_variant_remote(v) || h->name == NULL)
		return false;
	for (size_t i = 0; i < v->hosts.n; i++)
		if (strcmp(v->hosts.v[i], "all") == 0 ||
		    strcmp(v->hosts.v[i], h->name) == 0)
			return true;
	return false;
}

const struct lab_host *
lab_host_find(const struct lab *lab, const char *name)
{
	for (size_t i = 0; i < lab->nhosts; i++)
		if (lab->hosts[i].name != NULL &&
		    strcmp(lab->hosts[i].name, name) == 0)
			return &lab->hosts[i];
	return NULL;
}

const char *
lab_host_fio_bind(const struct lab_host *h)
{
	return h->fio_bind != NULL ? h->fio_bind : h->address;
}

const char *
lab_host_device(const struct lab_host *h, const char *dev)
{
	const char *to, *found = NULL;
	char *from;

	for (size_t i = 0; found == NULL && i < h->disks.n; i++) {
		if (lab_disk_pair(h->disks.v[i], &from, &to) < 0)
			continue;
		if (strcmp(from, dev) == 0)
			found = to;
		free(from);
	}
	return found;
}

static void
add_dev(struct lab_strv *out, const char *dev)
{
	if (dev == NULL)
		return;
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i], dev) == 0)
			return;
	lab_strv_push(out, dev);
}

static void
add_array(struct lab_strv *out, const struct lab_array *a)
{
	for (size_t i = 0; i < a->devices.n; i++)
		add_dev(out, a->devices.v[i]);
	for (size_t i = 0; i < a->spares.n; i++)
		add_dev(out, a->spares.v[i]);
	add_dev(out, a->journal);
	for (size_t i = 0; i < a->nlegs; i++)
		add_array(out, &a->legs[i]);
}

void
lab_variant_devices(const struct lab_variant *v, struct lab_strv *out)
{
	char name[32];

	if (lab_variant_isset(v, LAB_V_ARRAY))
		add_array(out, &v->array);
	if (lab_variant_isset(v, LAB_V_FS)) {
		if (v->fs.journal == LAB_JOURNAL_DEVICE)
			add_dev(out, v->fs.journal_device);
		if (v->fs.journal == LAB_JOURNAL_ARRAY &&
		    v->fs.journal_array != NULL)
			add_array(out, v->fs.journal_array);
	}
	/* the members an array takes without naming them */
	for (int i = 0; i < v->scratch_count; i++) {
		snprintf(name, sizeof name, "scratch:%d", i);
		add_dev(out, name);
	}
}
