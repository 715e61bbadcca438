/*
 * The table of workload types: see workload.h. Read-only, any thread.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "workload.h"

const struct workload *const workload_table[] = {
	&wl_bonnie,
	&wl_smallfiles,
	&wl_untar,
	&wl_compilebench,
	&wl_fio,
	NULL,
};

const struct workload *
workload_find(const char *name)
{
	const struct workload *const *w;

	for (w = workload_table; *w != NULL; w++)
		if (strcmp((*w)->name, name) == 0)
			return *w;
	return NULL;
}

uint64_t
workload_blocks(uint64_t size)
{
	uint64_t r = size % WORKLOAD_BLOCK;

	return r == 0 || size > UINT64_MAX - WORKLOAD_BLOCK
	    ? size
	    : size + WORKLOAD_BLOCK - r;
}

uint64_t
workload_dataset(const struct workload *wl, const struct param_value *v,
    bool keep)
{
	return wl != NULL && wl->dataset != NULL && v != NULL
	    ? wl->dataset(v, keep)
	    : 0;
}

const struct param_value *
workload_value(const struct param *params, const struct param_value *v,
    const char *name)
{
	int i = param_index(params, name);

	if (i < 0)
		fatal(_("no parameter %s"), name);
	return &v[i];
}

uint64_t
workload_ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}
