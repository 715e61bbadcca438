/*
 * The schema of a variant's own keys (the defaults group's too) and of
 * the lab's top-level keys (lab-schema.h). The thread that owns the lab.
 */
#include "config.h"

#include <stddef.h>

#include "base/i18n.h"
#include "figures/stats.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

#define VOFF(m) offsetof(struct lab_variant, m)
#define LOFF(m) offsetof(struct lab, m)

/* A variant key applies to any variant; its groups' keys say more. */
#define ALL 1u

/* In enum lab_v_field order: lab_variant_schema() indexes it. */
const struct lab_key lab_variant_keys[] = {
	{ "name", LAB_KEY_NAME, LAB_V_NAME, VOFF(name), .where = ALL,
	    .flags = LAB_KEY_NOT_DEFAULTS, .label = N_("name") },
	{ "description", LAB_KEY_STRING, LAB_V_DESCRIPTION, VOFF(description),
	    .where = ALL, .flags = LAB_KEY_NOT_DEFAULTS,
	    .label = N_("description") },
	/* Expanded, and kept as written when that differs. */
	{ "directory", LAB_KEY_SPECIAL, LAB_V_DIRECTORY, .where = ALL,
	    .label = N_("directory") },
	/* The group: its keys are taken from defaults one by one. */
	{ "scratch", LAB_KEY_SPECIAL, LAB_V_SCRATCH, .where = ALL,
	    .label = N_("scratch disks") },
	{ "scratch.count", LAB_KEY_INT, LAB_V_SCRATCH_COUNT,
	    VOFF(scratch_count), .min = 1, .max = 64, .where = ALL,
	    .label = N_("scratch disks") },
	{ "scratch.size", LAB_KEY_SIZE, LAB_V_SCRATCH_SIZE, VOFF(scratch_size),
	    .where = ALL, .label = N_("scratch size") },
	{ "scratch.dir", LAB_KEY_STRING, LAB_V_SCRATCH_DIR, VOFF(scratch_dir),
	    .where = ALL, .label = N_("scratch dir") },
	{ "array", LAB_KEY_SPECIAL, LAB_V_ARRAY, .where = ALL,
	    .label = N_("array") },
	{ "fs", LAB_KEY_SPECIAL, LAB_V_FS, .where = ALL,
	    .label = N_("filesystem") },
	{ "readahead", LAB_KEY_SIZE, LAB_V_READAHEAD, VOFF(readahead),
	    .where = ALL, .label = N_("readahead") },
	/* A name the kernel knows; whether each member offers it is the
	   machine's business, checked when the variant is built. */
	{ "scheduler", LAB_KEY_STRING, LAB_V_SCHEDULER, VOFF(scheduler),
	    .where = ALL, .label = N_("I/O scheduler") },
	/* The block layer raises less than 4 to 4 and refuses more than
	   2048 (MAX_SCHED_RQ) even with a scheduler. */
	{ "nr_requests", LAB_KEY_INT, LAB_V_NR_REQUESTS, VOFF(nr_requests),
	    .min = 4, .max = 2048, .where = ALL, .label = N_("queue depth") },
	/* "local", "all" or host names; which names are hosts is
	   lab_check()'s (lab-check-hosts.c). */
	{ "hosts", LAB_KEY_NAMES, LAB_V_HOSTS, VOFF(hosts), .where = ALL,
	    .label = N_("hosts") },
	{ NULL },
};

/* In enum lab_l_field order: lab_schema() indexes it. */
const struct lab_key lab_keys[] = {
	{ "name", LAB_KEY_NAME, LAB_L_NAME, LOFF(name), .where = ALL,
	    .label = N_("name") },
	{ "description", LAB_KEY_STRING, LAB_L_DESCRIPTION, LOFF(description),
	    .where = ALL, .label = N_("description") },
	/* A count, or a range with a goal (lab-rounds.c). */
	{ "repeats", LAB_KEY_SPECIAL, LAB_L_REPEATS, .where = ALL,
	    .label = N_("repeats") },
	{ "order", LAB_KEY_ENUM, LAB_L_ORDER, LOFF(order),
	    .names = lab_order_names, .dflt = LAB_ORDER_INTERLEAVED,
	    .where = ALL, .label = N_("order") },
	{ "cv_limit", LAB_KEY_PERCENT, LAB_L_CV_LIMIT, LOFF(cv_limit),
	    .dflt = LAB_CV_LIMIT_DEFAULT, .where = ALL,
	    .label = N_("cv limit") },
	{ "test", LAB_KEY_ENUM, LAB_L_TEST, LOFF(test), .names = lab_test_names,
	    .dflt = STATS_TEST_LOG, .where = ALL, .label = N_("test") },
	{ "equivalence", LAB_KEY_PERCENT, LAB_L_EQUIVALENCE, LOFF(equivalence),
	    .dflt = LAB_EQUIVALENCE_DEFAULT, .where = ALL,
	    .label = N_("equivalence") },
	{ "cache", LAB_KEY_ENUM, LAB_L_CACHE, LOFF(cache),
	    .names = lab_cache_names, .dflt = LAB_CACHE_DROP, .where = ALL,
	    .label = N_("cache") },
	/* As written ("~/x"): expanded where it is used. */
	{ "results", LAB_KEY_STRING, LAB_L_RESULTS, LOFF(results), .where = ALL,
	    .label = N_("results") },
	/* Meaningful with host-placed variants only: lab_check() says so. */
	{ "barrier", LAB_KEY_BOOL, LAB_L_BARRIER, LOFF(barrier), .where = ALL,
	    .label = N_("barrier") },
	/* A list of groups of lab_host_keys[] (lab-hosts.c). */
	{ "hosts", LAB_KEY_SPECIAL, LAB_L_HOSTS, .where = ALL,
	    .label = N_("hosts") },
	{ "defaults", LAB_KEY_SPECIAL, LAB_L_DEFAULTS, .where = ALL,
	    .label = N_("defaults") },
	{ "variants", LAB_KEY_SPECIAL, LAB_L_VARIANTS, .where = ALL,
	    .label = N_("variants") },
	{ "workloads", LAB_KEY_SPECIAL, LAB_L_WORKLOADS, .where = ALL,
	    .label = N_("workloads") },
	{ NULL },
};

#define HOFF(m) offsetof(struct lab_host, m)

/* In enum lab_h_field order: lab_host_schema() indexes it. Whether name
   and address are given, and what the disks name, is lab_check()'s. */
const struct lab_key lab_host_keys[] = {
	{ "name", LAB_KEY_NAME, LAB_H_NAME, HOFF(name), .where = ALL,
	    .load = lab_load_host_name, .label = N_("name") },
	/* Handed to ssh and fio as an argument: a host name or an IP
	   address, never anything an option parser could take. */
	{ "address", LAB_KEY_STRING, LAB_H_ADDRESS, HOFF(address), .where = ALL,
	    .load = lab_load_host_address, .label = N_("address") },
	{ "user", LAB_KEY_STRING, LAB_H_USER, HOFF(user), .where = ALL,
	    .load = lab_load_host_user, .label = N_("ssh user") },
	{ "port", LAB_KEY_INT, LAB_H_PORT, HOFF(port), .min = 1, .max = 65535,
	    .dflt = LAB_HOST_PORT_DEFAULT, .where = ALL,
	    .label = N_("ssh port") },
	{ "fio_port", LAB_KEY_INT, LAB_H_FIO_PORT, HOFF(fio_port), .min = 1,
	    .max = 65535, .dflt = LAB_HOST_FIO_PORT_DEFAULT, .where = ALL,
	    .label = N_("fio server port") },
	/* fio's server has no authentication: it listens where it is
	   told, so the default is the one address the lab names. */
	{ "fio_bind", LAB_KEY_STRING, LAB_H_FIO_BIND, HOFF(fio_bind),
	    .where = ALL, .load = lab_load_host_fio_bind,
	    .label = N_("fio server address") },
	/* "FROM=TO" strings: libconfig's setting names cannot hold the ':'
	   and '/' of "scratch:0" or "/dev/sdb". */
	{ "disks", LAB_KEY_DEVICES, LAB_H_DISKS, HOFF(disks), .where = ALL,
	    .load = lab_load_host_disks, .label = N_("disks") },
	{ NULL },
};

const struct lab_key *
lab_host_schema(enum lab_h_field f)
{
	if ((int)f < 0 || f >= LAB_H__COUNT)
		return NULL;
	return &lab_host_keys[f];
}

const struct lab_key *
lab_variant_schema(enum lab_v_field f)
{
	if ((int)f < 0 || f >= LAB_V__COUNT)
		return NULL;
	return &lab_variant_keys[f];
}

const struct lab_key *
lab_schema(enum lab_l_field f)
{
	if ((int)f < 0 || f >= LAB_L__COUNT)
		return NULL;
	return &lab_keys[f];
}
