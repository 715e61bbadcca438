/*
 * Helpers of the lab_check() tests, shared by the files of one test
 * program: test-lab-check.c (where they live), test-lab-check-array.c
 * and test-lab-check-fs.c.
 */
#ifndef RAIDLAB_UNIT_LAB_CHECK_H
#define RAIDLAB_UNIT_LAB_CHECK_H

#include <criterion/parameterized.h>
#include <stddef.h>

/* Lines 1-3 of every lab; a case's text starts on line 4. */
#define PRE                                                                    \
	"name = \"t\";\nworkloads = ( { type = \"fio\"; } );\nvariants = (\n"
#define POST "\n);\n"

struct lab_case {
	char *name;
	char *text; /* the variants, between PRE and POST */
	char *want; /* the one message; NULL: no message */
};

/* A lab the check must refuse with exactly one message, want. */
struct bad_case {
	const char *name, *text, *want;
};

/* The cases of b (variants, between PRE and POST) and whole (whole
   labs), as a ParameterizedTestParameters returns them. */
struct criterion_test_params bad_cases(const struct bad_case *b, size_t nb,
    const struct bad_case *whole, size_t nw);
/* c's text, written to lab.cfg in a new directory, loads and the check
   says exactly c->want. */
void expect_one_message(const struct lab_case *c);
/* What lab_check() says of a whole lab's text, a message a line; the
   number of messages in *nmsg. Caller frees. */
char *run_check(const char *text, size_t *nmsg);

#endif
