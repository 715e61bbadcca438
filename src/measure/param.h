/*
 * Workload parameter schemas: a NULL-named-terminated array of struct
 * param per workload type (wl-*.c) describes each key a workload entry of
 * a lab file may hold: its kind, default, range and help. param_load()
 * types one libconfig workload group against a schema. Pure data and
 * functions; the thread that owns the lab.
 */
#ifndef RAIDLAB_PARAM_H
#define RAIDLAB_PARAM_H

#include <libconfig.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct errlist;

enum param_kind {
	PARAM_INT, /* integer */
	PARAM_SIZE, /* bytes: "64K" or an integer */
	PARAM_BOOL,
	PARAM_STRING,
	PARAM_ENUM, /* one of values[] (a string) */
	PARAM_INT_LIST, /* [1000, 10000]; elements in min..max */
};

/* param.flags */
#define PARAM_AUTO 0x1 /* also takes the string "auto" (is_auto) */

struct param {
	const char *name;
	enum param_kind kind;
	const char *def; /* default in lab-file syntax ("8K", "16",
			    "true", "auto", "[1000]"); NULL: none */
	int64_t min, max; /* int, size, list elements; max 0: no max */
	const char *const *values; /* PARAM_ENUM: NULL-terminated */
	unsigned flags;
	const char *conflicts; /* a param that may not be set with this one */
	const char *help; /* N_(), one line */
};

/* Param `param` (int or size) may not exceed param `at_most`, defaults
   counted: checked by lab_check(), so before anything runs. */
struct param_bound {
	const char *param, *at_most;
};

struct param_value {
	bool set; /* written in the lab file */
	bool is_auto; /* PARAM_AUTO and the value is "auto" */
	int line; /* line of the key when set */
	int64_t i; /* PARAM_INT, PARAM_BOOL (0/1), PARAM_ENUM
		      (index in values[]) */
	uint64_t size; /* PARAM_SIZE */
	char *s; /* PARAM_STRING; NULL when none */
	int64_t *list; /* PARAM_INT_LIST */
	size_t nlist;
};

/* Number of entries before the terminating { NULL }. */
size_t param_count(const struct param *params);
/* The entry named name, or NULL. */
const struct param *param_find(const struct param *params, const char *name);
/* Index of name in params, or -1. */
int param_index(const struct param *params, const char *name);

/*
 * Fill vals[param_count(params)] with the defaults (set = false). The
 * defaults in the tables are checked by the unit tests, so this cannot
 * fail.
 */
void param_values_init(const struct param *params, struct param_value *vals);
void param_values_done(const struct param *params, struct param_value *vals,
    size_t n);
/* Deep copy of n values. */
void param_values_copy(const struct param *params, struct param_value *dst,
    const struct param_value *src);
bool param_value_equal(const struct param *p, const struct param_value *a,
    const struct param_value *b);

/*
 * Type the members of a libconfig group against params into vals (already
 * initialised): wrong types, out-of-range values, bad sizes, values not
 * in the list, unknown keys (nearest known key suggested; keys listed in
 * skip, NULL-terminated, are the caller's), and two conflicting params.
 * Messages go to errs as "file:line: PREFIX.key: reason". Returns the
 * number of problems found.
 */
int param_load(const struct param *params, const config_setting_t *group,
    const char *const *skip, struct param_value *vals, const char *file,
    const char *prefix, struct errlist *errs);

/*
 * The value in lab-file syntax ("\"4K\"", "16", "true", "[1000, 10000]"),
 * as param_load() reads it back. Caller frees.
 */
char *param_value_format(const struct param *p, const struct param_value *v);

/* s as a libconfig string literal, quotes and escapes included. */
char *param_quote(const char *s);

/* Human name of a kind: "integer", "size", ... (translated). */
const char *param_kind_name(enum param_kind kind);

#endif
