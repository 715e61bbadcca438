/*
 * The table of workload types: see workload.h. Read-only, any thread.
 */
#include "config.h"

#include <string.h>

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
