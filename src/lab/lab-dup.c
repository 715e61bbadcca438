/*
 * Deep copies of the lab model: a whole lab (file name, lines and set/own
 * masks included, so that messages about the copy still read
 * "LAB:LINE: field") and single variants. The lab runner works on its
 * own copy; the interactive lab checks a typed value on a copy before
 * it is confirmed.
 */
#include "config.h"

#include <stdlib.h>

#include "base/xalloc.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"
#include "measure/param.h"
#include "measure/workload.h"

void
lab_variant_copy(struct lab_variant *dst, const struct lab_variant *src)
{
	*dst = *src;
	for (const struct lab_key *k = lab_variant_keys; k->name; k++)
		lab_key_copy(k, dst, src);
	dst->directory = xstrdup_null(src->directory);
	dst->directory_text = xstrdup_null(src->directory_text);
	lab_array_copy(&dst->array, &src->array);
	lab_fs_copy(&dst->fs, &src->fs);
}

static void
workload_copy(struct lab_workload *dst, const struct lab_workload *src)
{
	*dst = *src;
	dst->name = xstrdup_null(src->name);
	dst->type = xstrdup_null(src->type);
	dst->values = NULL;
	if (src->values != NULL && src->wl != NULL) {
		size_t n = param_count(src->wl->params);

		dst->values = xcalloc(n + 1, sizeof *dst->values);
		param_values_copy(src->wl->params, dst->values, src->values);
	}
}

struct lab *
lab_dup(const struct lab *lab)
{
	struct lab *c = xcalloc(1, sizeof *c);

	*c = *lab;
	for (const struct lab_key *k = lab_keys; k->name != NULL; k++)
		lab_key_copy(k, c, lab);
	c->path = xstrdup_null(lab->path);
	if (lab->defaults != NULL) {
		c->defaults = xmalloc(sizeof *c->defaults);
		lab_variant_copy(c->defaults, lab->defaults);
	}
	c->variants = xcalloc(lab->nvariants + 1, sizeof *c->variants);
	for (size_t i = 0; i < lab->nvariants; i++)
		lab_variant_copy(&c->variants[i], &lab->variants[i]);
	c->hosts = xcalloc(lab->nhosts + 1, sizeof *c->hosts);
	for (size_t i = 0; i < lab->nhosts; i++)
		lab_host_copy(&c->hosts[i], &lab->hosts[i]);
	c->workloads = xcalloc(lab->nworkloads + 1, sizeof *c->workloads);
	for (size_t i = 0; i < lab->nworkloads; i++)
		workload_copy(&c->workloads[i], &lab->workloads[i]);
	return c;
}
