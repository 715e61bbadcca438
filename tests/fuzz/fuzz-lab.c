/*
 * libFuzzer target of the lab loader: any bytes are loaded as lab text
 * (lab_load_string(), libconfig and the project's own checks), a lab that
 * loads is checked (lab_check()), written back (lab_format(), what
 * lab_save() writes) and loaded again. The second load must succeed, give
 * an equal model, and format to the same text: the fixed point lab.h
 * promises. lab_dup() must give an equal model too. A broken promise
 * abort()s with both texts on stderr. Built and run by tests/fuzz/run.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
print_errs(const struct errlist *errs)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX];
	size_t i;

	for (i = 0; i < errs->n; i++)
		fprintf(stderr, "%s\n",
		    err_format(&errs->v[i], buf, sizeof buf));
}

static void
fail(const char *what, const char *text, const char *saved,
    const struct errlist *errs)
{
	fprintf(stderr, "fuzz-lab: %s\n--- input:\n%s\n--- saved:\n%s\n", what,
	    text, saved);
	print_errs(errs);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab *lab, *again, *copy;
	struct errlist errs;
	char *text, *saved, *resaved;

	/* libconfig reads a C string: the input up to its first NUL. */
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	errlist_init(&errs);
	if (lab_load_string(text, "fuzz.cfg", &lab, &errs) != 0) {
		errlist_done(&errs);
		free(text);
		return 0;
	}
	/* Check errors are expected; they must only not crash or leak. */
	(void)lab_check(lab, &errs);
	errlist_done(&errs);
	errlist_init(&errs);
	saved = lab_format(lab);
	if (lab_load_string(saved, "saved.cfg", &again, &errs) != 0)
		fail("the saved lab does not load", text, saved, &errs);
	if (!lab_equal(lab, again))
		fail("the saved lab loads to a different model", text, saved,
		    &errs);
	resaved = lab_format(again);
	if (strcmp(saved, resaved) != 0)
		fail("saving the reloaded lab gives other text", saved, resaved,
		    &errs);
	copy = lab_dup(lab);
	if (!lab_equal(lab, copy))
		fail("lab_dup() is not equal to its original", text, saved,
		    &errs);
	lab_free(copy);
	free(resaved);
	lab_free(again);
	free(saved);
	lab_free(lab);
	errlist_done(&errs);
	free(text);
	return 0;
}
