/*
 * The phase columns of the comparison: how long the rebuild or scrub of
 * a variant's fault phase took (provision.h: build "phase" "sync"
 * seconds, from the step that started it until the array was idle), one
 * figure per build, so per round, with the interval, marks and verdicts
 * of every column (seconds: lower is better). A rebuild that did not
 * finish (a stopped run) is a stopped figure, one never seen running is
 * none; a failed build is counted, not averaged. The column's workload is
 * PHASE_WORKLOAD, which no lab workload can be named (a name has no space), and
 * the overall summary leaves it out: it answers the workloads' speed. The
 * thread that owns the table.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "compare-int.h"
#include "record.h"

#define PHASE_WORKLOAD "array phase"
#define PHASE_TYPE "phase"

/* The row of variant in record recno, or COMPARE_NONE. */
static size_t
row_of(const struct compare *c, size_t recno, const char *variant)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].record == recno &&
		    strcmp(c->rows[i].variant, variant) == 0)
			return i;
	return COMPARE_NONE;
}

/* The column of phase, added when new: one for md and btrfs alike
   (md's recovery against btrfs's replace is the question a RAID10
   against a btrfs raid10 asks), the label engine-neutral. Labels are
   untranslated, as every column's. */
static size_t
col_of(struct compare *c, const char *phase)
{
	struct record_run run = { 0 };
	struct wl_test t = { 0 };
	char key[64], label[128], wl[] = PHASE_WORKLOAD, type[] = PHASE_TYPE;
	bool scrub = strcmp(phase, "check") == 0;

	snprintf(key, sizeof key, "%s_s", phase);
	snprintf(label, sizeof label, "%s",
	    scrub ? "Scrub time (start to idle)"
		  : "Rebuild time (start to idle)");
	run.workload = wl;
	run.type = type;
	t.key = key;
	t.label = label;
	t.unit = WL_UNIT_SECONDS;
	return compare_col_get(c, &run, "null", &t);
}

void
compare_phase_add(struct compare *c, const struct record *rec, size_t recno)
{
	const json_t *b;
	size_t i;

	json_array_foreach(json_object_get(rec->root, "builds"), i, b)
	{
		const json_t *ph = json_object_get(b, "phase");
		const json_t *sync = json_object_get(ph, "sync");
		const char *variant = record_get_str(b, "variant");
		const char *name = record_get_str(ph, "name");
		const char *action = record_get_str(sync, "action");
		const char *status = record_get_str(b, "status");
		double s = json_number_value(json_object_get(sync, "seconds"));
		size_t row, k;

		if (variant == NULL || name == NULL ||
		    (strcmp(name, "rebuild") != 0 &&
			strcmp(name, "check") != 0) ||
		    (row = row_of(c, recno, variant)) == COMPARE_NONE)
			continue;
		/* a build that failed is counted, even before its phase */
		if (status != NULL && strcmp(status, "failed") == 0) {
			k = col_of(c, name);
			c->rows[row].cells[k].failed++;
			continue;
		}
		/* not seen running: its seconds are no length */
		if (sync == NULL ||
		    json_is_false(json_object_get(sync, "seen")) ||
		    action == NULL || action[0] == '\0')
			continue;
		k = col_of(c, name);
		if (s > 0)
			/* the duration is the figure and its test's length:
			   a rebuild under COMPARE_SHORT_S is marked too
			   short to trust */
			compare_cell_add(&c->rows[row].cells[k], s, s,
			    json_is_true(json_object_get(sync, "complete"))
				? FIG_REAL
				: FIG_STOPPED);
	}
}

bool
compare_col_is_phase(const struct compare *c, size_t k)
{
	return strcmp(c->cols[k].type, PHASE_TYPE) == 0;
}
