/*
 * The "rounds" object of a result record (record.h): how a run repeated,
 * and why its rounds stopped. The thread that owns the record, or any
 * thread for a document nobody changes.
 */
#include "config.h"

#include <jansson.h>

#include "figures/stats.h"
#include "record.h"

void
record_set_rounds(struct record *rec, json_t *rounds)
{
	json_object_set(rec->root, "rounds", rounds);
}

void
record_set_stability(struct record *rec, json_t *stability)
{
	json_object_set_new(rec->root, "stability", stability);
}

const json_t *
record_rounds(const json_t *root)
{
	const json_t *r = json_object_get(root, "rounds");

	return json_is_object(r) ? r : NULL;
}

double
record_cv_limit(const json_t *root)
{
	const json_t *v = json_object_get(record_rounds(root), "cv_limit");
	double f = json_number_value(v);

	/* A damaged or hand-edited limit must not mark everything. */
	return json_is_number(v) && f > 0 && f < 1 ? f : RECORD_CV_LIMIT;
}

int
record_test(const json_t *root)
{
	const char *s =
	    json_string_value(json_object_get(record_rounds(root), "test"));
	enum stats_test t;

	return s != NULL && stats_test_parse(s, &t) == 0 ? (int)t
							 : STATS_TEST_LOG;
}

double
record_equivalence(const json_t *root)
{
	const json_t *v = json_object_get(record_rounds(root), "equivalence");
	double f = json_number_value(v);

	return json_is_number(v) && f > 0 && f < 1 ? f : RECORD_MARGIN;
}

const char *
record_order(const json_t *root)
{
	const char *s =
	    json_string_value(json_object_get(record_rounds(root), "order"));

	return s != NULL ? s : "grouped";
}

const char *
record_rounds_why(const json_t *root)
{
	return json_string_value(json_object_get(record_rounds(root), "why"));
}
