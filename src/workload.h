/*
 * Workload types: one const struct workload per type (wl-*.c), listed in
 * workload_table[] (workload.c). For now a type is its name and its
 * parameter schema, so that lab files are typed; the engine adds how to
 * run it. Read-only data, any thread.
 */
#ifndef RAIDLAB_WORKLOAD_H
#define RAIDLAB_WORKLOAD_H

#include <stddef.h>

#include "param.h"

struct workload {
	const char *name; /* the lab file's `type` */
	const char *summary; /* N_(), one line */
	const struct param *params; /* terminated by { NULL } */
};

extern const struct workload wl_bonnie;
extern const struct workload wl_smallfiles;
extern const struct workload wl_untar;
extern const struct workload wl_compilebench;
extern const struct workload wl_fio;

/* Every workload type, NULL-terminated, in the order help lists them. */
extern const struct workload *const workload_table[];

/* The type named name, or NULL. */
const struct workload *workload_find(const char *name);

#endif
