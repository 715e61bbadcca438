/*
 * Helpers shared by the Criterion unit tests.
 *
 * Criterion runs each test in a fresh process image (BoxFort re-executes
 * the binary), so the parameters of a ParameterizedTest must live in its
 * shared arena: an array from cr_malloc() whose strings come from
 * unit_strdup(), freed by a cleanup function. Pointers to static strings
 * would point nowhere in the child.
 */
#ifndef RAIDLAB_TEST_UNIT_H
#define RAIDLAB_TEST_UNIT_H

#include <criterion/alloc.h>
#include <string.h>

static inline char *
unit_strdup(const char *s)
{
	size_t n;
	char *p;

	if (s == NULL)
		return NULL;
	n = strlen(s) + 1;
	p = cr_malloc(n);
	memcpy(p, s, n);
	return p;
}

#endif
