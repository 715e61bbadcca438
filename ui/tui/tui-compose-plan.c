/*
 * The Compose screen's plan preview: the commands plan_build() gives for
 * the current variant on placeholder scratch disks (plan_format()), or
 * the problems lab_check() has with it, as lines for the plan pane; and
 * the stripe geometry "auto" computes, shown in the form and used as the
 * starting values of a geometry given by hand. UI thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "build/geom.h"
#include "build/plan.h"
#include "lab/lab.h"
#include "tui-compose.h"

void
compose_plan_clear(struct compose *s)
{
	for (size_t i = 0; i < s->nplan; i++)
		free(s->plan[i]);
	free(s->plan);
	s->plan = NULL;
	s->nplan = 0;
	free(s->geometry);
	s->geometry = NULL;
	s->geom_ok = false;
}

void
compose_plan_add(struct compose *s, const char *line)
{
	s->plan = xreallocarray(s->plan, s->nplan + 1, sizeof *s->plan);
	s->plan[s->nplan++] = xstrdup(line);
}

static void
plan_text(struct compose *s, const char *text)
{
	const char *p = text, *nl;

	while (*p != '\0') {
		char *line;

		nl = strchr(p, '\n');
		line = nl ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		compose_plan_add(s, line);
		free(line);
		p = nl ? nl + 1 : p + strlen(p);
	}
}

unsigned
compose_members(const struct lab_variant *v)
{
	const struct lab_array *a = &v->array;

	if (a->nlegs > 0)
		return (unsigned)a->nlegs;
	if (lab_array_isset(a, LAB_A_DEVICES))
		return (unsigned)a->devices.n;
	if (!lab_variant_isset(v, LAB_V_SCRATCH))
		return 0;
	/* the plan's own count: a journal array's disks are not members */
	return (unsigned)lab_scratch_implicit(v);
}

/* The stripe geometry auto computes, for the form and "by hand". */
static void
geometry(struct compose *s, const struct lab_variant *v, const char *text)
{
	struct geom g;
	uint64_t stride, width;

	if (!geom_of(&v->array, compose_members(v), &g))
		return;
	s->geom_ok = geom_ext(&g, 4096, &stride, &width);
	s->stride = stride;
	s->stripe_width = width;
	s->su = g.chunk;
	s->sw = g.data_disks;
	if (text == NULL)
		s->geometry = xstrdup(g.rule);
}

void
compose_plan_build(struct compose *s, const struct lab_variant *v,
    const struct errlist *mine)
{
	struct plan_env env = { .state_dir = getenv("RAIDLAB_STATE_DIR") };
	struct plan *p = NULL;
	struct strbuf b;
	struct err e;
	char *line;

	if (v->directory != NULL && !lab_variant_isset(v, LAB_V_ARRAY)) {
		line = xasprintf(_("# variant %s: the directory %s, tested as "
				   "it is: nothing to build"),
		    v->name ? v->name : "?", v->directory);
		compose_plan_add(s, line);
		free(line);
		return;
	}
	if (mine->n > 0) {
		compose_plan_add(s, _("# no plan until these are solved:"));
		for (size_t i = 0; i < mine->n; i++) {
			line = mine->v[i].field[0] != '\0'
			    ? xasprintf("! %s: %s", mine->v[i].field,
				  mine->v[i].msg)
			    : xasprintf("! %s", mine->v[i].msg);
			compose_plan_add(s, line);
			free(line);
		}
		geometry(s, v, NULL);
		return;
	}
	err_clear(&e);
	if (plan_build(v, &env, &p, &e) < 0) {
		line = xasprintf("! %s", e.msg);
		compose_plan_add(s, line);
		free(line);
		return;
	}
	strbuf_init(&b);
	plan_format(p, &b);
	plan_text(s, b.s);
	strbuf_done(&b);
	if (p->geometry != NULL)
		s->geometry = xstrdup(p->geometry);
	geometry(s, v, p->geometry);
	plan_free(p);
}
