/*
 * What the fleet controller asks of each host: which hosts have a
 * selected variant, the `raidlab run --fleet-host` command line each gets
 * (its own confirmations among them), and the dry run that shows those
 * lines without contacting a host. Pure functions of their arguments;
 * any thread.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "fleet-run-int.h"
#include "lab/lab.h"

bool
fleet_host_wanted(const struct lab *lab, const bool *sel,
    const struct lab_host *h)
{
	for (size_t i = 0; i < lab->nvariants; i++)
		if ((sel == NULL || sel[i]) &&
		    lab_variant_remote(&lab->variants[i]) &&
		    lab_variant_on_host(&lab->variants[i], h))
			return true;
	return false;
}

bool
fleet_run_wanted(const struct lab *lab, const bool *sel)
{
	for (size_t i = 0; i < lab->nhosts; i++)
		if (fleet_host_wanted(lab, sel, &lab->hosts[i]))
			return true;
	return false;
}

void
fleet_ssh_host(const struct lab_host *lh, const char *config,
    struct ssh_host *out)
{
	memset(out, 0, sizeof *out);
	out->name = lh->name;
	out->address = lh->address;
	/* Only what the lab says: ssh's own configuration (a Port, a User
	   for the host) applies otherwise. */
	out->user = lh->user;
	out->port = lh->set & (1u << LAB_H_PORT) ? (int)lh->port : 0;
	out->config = config;
}

/* The host part of a "HOST:DEV" confirmation that names a host of lab,
   as its length; 0 when it names none. */
static size_t
confirm_host(const struct lab *lab, const char *c, const struct lab_host **h)
{
	const char *colon = strchr(c, ':');

	*h = NULL;
	if (colon == NULL)
		return 0;
	for (size_t i = 0; i < lab->nhosts; i++) {
		const char *n = lab->hosts[i].name;

		if (n != NULL && strlen(n) == (size_t)(colon - c) &&
		    strncmp(n, c, (size_t)(colon - c)) == 0) {
			*h = &lab->hosts[i];
			return (size_t)(colon - c);
		}
	}
	return 0;
}

int
fleet_confirm_check(const struct lab *lab, const struct fleet_opts *o,
    struct err *e)
{
	const struct lab_host *h;

	for (size_t i = 0; i < o->nconfirmed; i++) {
		const char *c = o->confirmed[i];
		size_t n = confirm_host(lab, c, &h);

		if (n > 0 && c[n + 1] != '\0')
			continue;
		if (n > 0)
			return err_set(e, -EINVAL, NULL, 0, "--yes-destroy",
			    _("%s: no device after the host"), c);
		return err_set(e, -EINVAL, NULL, 0, "--yes-destroy",
		    _("%s: the variants run on hosts: name the host whose "
		      "device it is, as HOST:DEV (%s:%s)"),
		    c, lab->nhosts > 0 ? lab->hosts[0].name : "h1", c);
	}
	return 0;
}

static void
push(char ***v, size_t *n, char *s)
{
	*v = xreallocarray(*v, *n + 2, sizeof **v);
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* --yes-destroy=DEV,... for h: its own confirmations without the host;
   NULL when it has none. */
static char *
host_confirmed(const struct lab *lab, const struct fleet_opts *o,
    const struct lab_host *h)
{
	const struct lab_host *ch;
	struct strbuf b;

	strbuf_init(&b);
	for (size_t i = 0; i < o->nconfirmed; i++) {
		size_t n = confirm_host(lab, o->confirmed[i], &ch);

		if (n > 0 && ch == h)
			strbuf_printf(&b, "%s%s",
			    b.len ? "," : "--yes-destroy=",
			    o->confirmed[i] + n + 1);
	}
	if (b.len == 0) {
		strbuf_done(&b);
		return NULL;
	}
	return strbuf_take(&b);
}

char **
fleet_remote_argv(const struct lab *lab, const struct fleet_opts *o,
    const struct lab_host *h, bool barrier, const char *lab_arg)
{
	char **v = NULL, *c;
	size_t n = 0;

	push(&v, &n, xstrdup("raidlab"));
	push(&v, &n, xstrdup("run"));
	push(&v, &n, xstrdup("--fleet-host"));
	push(&v, &n, xstrdup(h->name));
	push(&v, &n, xstrdup("--json"));
	if (barrier)
		push(&v, &n, xstrdup("--barrier"));
	/* A selection is passed as names; without one the host runs
	   every variant placed on it. */
	for (size_t i = 0; o->variants != NULL && i < lab->nvariants; i++) {
		const struct lab_variant *lv = &lab->variants[i];

		if (o->variants[i] && lab_variant_remote(lv) &&
		    lab_variant_on_host(lv, h)) {
			push(&v, &n, xstrdup("-v"));
			push(&v, &n, xstrdup(lv->name));
		}
	}
	for (size_t i = 0; o->workloads != NULL && i < lab->nworkloads; i++)
		if (o->workloads[i]) {
			push(&v, &n, xstrdup("-w"));
			push(&v, &n,
			    xstrdup(lab_workload_name(&lab->workloads[i])));
		}
	if (o->repeats > 0) {
		push(&v, &n, xstrdup("-r"));
		push(&v, &n, xasprintf("%lld", (long long)o->repeats));
	}
	if (o->scale != NULL) {
		push(&v, &n, xstrdup("--scale"));
		push(&v, &n, xstrdup(o->scale));
	}
	for (size_t i = 0; i < o->nsets; i++) {
		push(&v, &n, xstrdup("--set"));
		push(&v, &n, xstrdup(o->sets[i]));
	}
	if ((c = host_confirmed(lab, o, h)) != NULL)
		push(&v, &n, c);
	push(&v, &n, xstrdup(lab_arg));
	return v;
}

void
fleet_strv_free(char **v)
{
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

char *
fleet_run_dry(const struct lab *lab, const struct fleet_opts *o, struct err *e)
{
	bool barrier = o->barrier || lab->barrier;
	struct strbuf b;

	if (fleet_confirm_check(lab, o, e) < 0)
		return NULL;
	strbuf_init(&b);
	for (size_t i = 0; i < lab->nhosts; i++) {
		const struct lab_host *h = &lab->hosts[i];
		struct ssh_host sh;
		char **remote, **argv, *line;

		if (!fleet_host_wanted(lab, o->variants, h))
			continue;
		fleet_ssh_host(h, o->ssh_config, &sh);
		remote = fleet_remote_argv(lab, o, h, barrier, "LAB");
		argv = ssh_argv(&sh, (const char *const *)remote);
		line = exec_argv_string((const char *const *)argv);
		strbuf_printf(&b, "%s (%s): %s\n", h->name, h->address, line);
		free(line);
		ssh_argv_free(argv);
		fleet_strv_free(remote);
	}
	return strbuf_take(&b);
}
