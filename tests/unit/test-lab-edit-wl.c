/*
 * Workloads in the editor (lab-edit-wl): every workload type can be
 * added, parameters of each kind survive save and load, a list replaces
 * the parameter it conflicts with, bad parameters say why, and the list
 * can be renamed, reordered and cut, under the loader's rule for names.
 * Part of the test-lab-edit program (unit-lab-edit.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "measure/workload.h"
#include "unit-lab-edit.h"

/* ---------------------------------------------------------------- workloads */

static const struct param_value *
pv(const struct lab *lab, size_t wi, const char *name)
{
	return lab_workload_param(&lab->workloads[wi], name);
}

Test(lab_edit, every_workload_type_can_be_added)
{
	struct lab *lab = load(base_lab), *back;

	for (size_t i = 0; workload_table[i] != NULL; i++) {
		char *name =
		    lab_edit_workload_unique(lab, workload_table[i]->name);

		cr_assert_geq(lab_edit_workload_add(lab,
				  workload_table[i]->name, name, NULL),
		    0);
		free(name);
	}
	back = roundtrip(lab);
	cr_assert_str_eq(back->workloads[1].name, "bonnie");
	lab_free(back);
	cr_assert_lt(lab_edit_workload_add(lab, "nope", "n", NULL), 0);
	lab_free(lab);
}

Test(lab_edit, params_of_each_kind_round_trip)
{
	struct lab *lab = load(base_lab), *back;
	int f = lab_edit_workload_add(lab, "fio", "f", NULL);
	int b = lab_edit_workload_add(lab, "bonnie", "b", NULL);
	int u = lab_edit_workload_add(lab, "untar", "u", NULL);

	cr_assert_eq(lab_edit_param(lab, (size_t)f, "rw", "randwrite", NULL,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "bs", "64K", NULL, NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "threads", " 8 ", NULL,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "direct", "yes", NULL,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)b, "size", "auto", NULL, NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)u, "tarball",
			 "/srv/linux 2.6.tar", NULL, NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, 0, "dirs", "20", NULL, NULL), 0);
	back = roundtrip(lab);
	cr_assert_eq(pv(back, (size_t)f, "bs")->size, 64 * 1024);
	cr_assert_eq(pv(back, (size_t)f, "threads")->i, 8);
	cr_assert_eq(pv(back, (size_t)f, "direct")->i, 1);
	cr_assert(pv(back, (size_t)b, "size")->is_auto);
	cr_assert(pv(back, (size_t)b, "size")->set);
	cr_assert_str_eq(pv(back, (size_t)u, "tarball")->s,
	    "/srv/linux 2.6.tar");
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, a_list_replaces_its_conflicting_param)
{
	struct lab *lab = load(base_lab), *back;
	const char *gone = NULL;

	cr_assert(pv(lab, 0, "count")->set);
	cr_assert_eq(lab_edit_param(lab, 0, "counts", "[100, 1000]", &gone,
			 NULL),
	    0);
	cr_assert_str_eq(gone, "count");
	cr_assert(!pv(lab, 0, "count")->set);
	cr_assert_eq(pv(lab, 0, "count")->i, 1000); /* the default again */
	back = roundtrip(lab);
	cr_assert_eq(pv(back, 0, "counts")->nlist, 2);
	cr_assert_eq(pv(back, 0, "counts")->list[1], 1000);
	lab_free(back);
	cr_assert_eq(lab_edit_param_reset(lab, 0, "counts"), 0);
	cr_assert(!pv(lab, 0, "counts")->set);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, bad_params_say_why)
{
	struct lab *lab = load(base_lab);
	int f = lab_edit_workload_add(lab, "fio", "f", NULL);
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_param(lab, 0, "count", "0", NULL, &e), -EINVAL);
	cr_assert_str_eq(e.field, "workloads.small.count");
	cr_assert(strstr(e.msg, "out of range") != NULL, "%s", e.msg);
	cr_assert_eq(lab_edit_param(lab, 0, "size", "big", NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "is not a size") != NULL, "%s", e.msg);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "rw", "sideways", NULL, &e),
	    -EINVAL);
	cr_assert(strstr(e.msg, "is not one of") != NULL, "%s", e.msg);
	cr_assert_eq(lab_edit_param(lab, 0, "fsync", "maybe", NULL, &e),
	    -EINVAL);
	cr_assert_eq(lab_edit_param(lab, 0, "counts", " , ", NULL, &e),
	    -EINVAL);
	cr_assert_eq(lab_edit_param(lab, 0, "nope", "1", NULL, &e), -EINVAL);
	/* The old value stays. */
	cr_assert_eq(pv(lab, 0, "count")->i, 100);
	lab_free(lab);
}

Test(lab_edit, workload_list_rename_move_delete)
{
	struct lab *lab = load(base_lab), *back;

	cr_assert_eq(lab_edit_workload_add(lab, "untar", "u", NULL), 1);
	cr_assert_eq(lab_edit_workload_rename(lab, 1, "kernel", NULL), 0);
	cr_assert_lt(lab_edit_workload_rename(lab, 1, "small", NULL), 0);
	cr_assert_eq(lab_edit_workload_move(lab, 1, 0), 0);
	cr_assert_str_eq(lab->workloads[0].name, "kernel");
	cr_assert_eq(lab->workloads[1].index, 1);
	back = roundtrip(lab);
	lab_free(back);
	cr_assert_eq(lab_edit_workload_delete(lab, 0), 0);
	cr_assert_eq(lab->nworkloads, 1);
	cr_assert_eq(lab_edit_workload_delete(lab, 0), 0);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* The Compose and Workloads screens name things through these: the rule
   of the loader (at most 64 bytes, no leading '.' or '-'), said as the
   loader says it, and the names they suggest stay within it. */
Test(lab_edit, names_follow_the_loader_rule)
{
	struct lab *lab = load(base_lab), *back;
	char n64[65], n65[66], *name;
	struct err e;

	memset(n64, 'x', 64);
	n64[64] = '\0';
	memset(n65, 'y', 65);
	n65[65] = '\0';
	err_clear(&e);
	cr_assert_lt(lab_edit_variant_rename(lab, R5, n65, &e), 0);
	cr_assert_str_eq(e.msg,
	    "'yyyyyyyyyyyyyyyyyyyyyyyy...' is 65 bytes long: a name has at "
	    "most 64 (it becomes part of file and directory names)");
	cr_assert_lt(lab_edit_variant_add(lab, "..", &e), 0);
	cr_assert(strstr(e.msg, "must start with a letter") != NULL, "%s",
	    e.msg);
	cr_assert_lt(lab_edit_workload_rename(lab, 0, n65, &e), 0);
	cr_assert_lt(lab_edit_workload_add(lab, "fio", "-x", &e), 0);
	cr_assert_lt(lab_edit_name(lab, n65, &e), 0);
	cr_assert_str_eq(lab->variants[R5].name, "r5");
	cr_assert_eq(lab_edit_variant_rename(lab, R5, n64, &e), 0, "%s", e.msg);
	cr_assert_eq(lab_edit_workload_rename(lab, 0, n64, &e), 0, "%s", e.msg);
	cr_assert_eq(lab_edit_name(lab, n64, &e), 0, "%s", e.msg);
	/* A clone of the 64-byte name: cut to make room for "-2". */
	name = lab_edit_variant_unique(lab, n64);
	cr_assert_eq(strlen(name), 64);
	cr_assert_str_eq(name + 60, "xx-2");
	cr_assert_eq(lab_edit_variant_clone(lab, R5, name, &e), 1, "%s", e.msg);
	free(name);
	name = lab_edit_workload_unique(lab, n64);
	cr_assert_eq(strlen(name), 64);
	cr_assert(lab_name_ok(name), "%s", name);
	free(name);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}
