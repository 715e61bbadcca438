/*
 * A variant's devices renamed where they stand (lab.h): what `--disk`
 * (lab-scale-disk.c) and a fleet host's `disks` (lab-host-local.c) do to
 * a variant, each with its own idea of the new name. The thread that
 * owns the lab.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "lab-load.h"
#include "lab.h"

#define SCRATCH_BITS                                                           \
	((1u << LAB_V_SCRATCH) | (1u << LAB_V_SCRATCH_COUNT) |                 \
	    (1u << LAB_V_SCRATCH_SIZE) | (1u << LAB_V_SCRATCH_DIR))

static void
map_str(char **dev, lab_devmap_fn *map, void *arg)
{
	const char *to;

	if (*dev == NULL || (to = map(arg, *dev)) == NULL ||
	    strcmp(to, *dev) == 0)
		return;
	free(*dev);
	*dev = xstrdup(to);
}

static void
map_strv(struct lab_strv *sv, lab_devmap_fn *map, void *arg)
{
	for (size_t i = 0; i < sv->n; i++)
		map_str(&sv->v[i], map, arg);
}

static void
map_array(struct lab_array *a, lab_devmap_fn *map, void *arg)
{
	map_strv(&a->devices, map, arg);
	map_strv(&a->spares, map, arg);
	map_strv(&a->write_mostly, map, arg);
	map_str(&a->journal, map, arg);
	for (size_t i = 0; i < a->nlegs; i++)
		map_array(&a->legs[i], map, arg);
}

void
lab_variant_map_devices(struct lab_variant *v, lab_devmap_fn *map, void *arg)
{
	map_array(&v->array, map, arg);
	if (v->fs.journal == LAB_JOURNAL_DEVICE)
		map_str(&v->fs.journal_device, map, arg);
	if (v->fs.journal == LAB_JOURNAL_ARRAY && v->fs.journal_array)
		map_array(v->fs.journal_array, map, arg);
}

void
lab_scratch_name_implicit(struct lab_variant *v)
{
	struct lab_array *a = &v->array;

	for (int i = 0; i < v->scratch_count; i++) {
		char name[32];

		if (lab_scratch_named(v, i))
			continue;
		snprintf(name, sizeof name, "scratch:%d", i);
		lab_strv_push(&a->devices, name);
	}
	a->set |= 1u << LAB_A_DEVICES;
	a->own |= 1u << LAB_A_DEVICES;
}

void
lab_scratch_drop(struct lab_variant *v)
{
	v->scratch_count = 0;
	v->scratch_size = 0;
	free(v->scratch_dir);
	v->scratch_dir = NULL;
	v->set &= ~SCRATCH_BITS;
	v->own &= ~SCRATCH_BITS;
}
