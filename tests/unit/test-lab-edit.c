/*
 * Editing a lab (lab-edit.h), the model side of the interactive lab's
 * forms: every setter's value survives lab_format -> lab_load_string
 * (lab_equal), set fields become the entry's own and "reset" hands them
 * back to the defaults group, lab_check sees each change, and the
 * variant list can be added to, cloned, renamed, reordered and cut; the
 * lab's own keys. The helpers of the test-lab-edit program
 * (unit-lab-edit.h) live here; arrays, filesystems and workloads are in
 * test-lab-edit-arrays.c, test-lab-edit-fs.c and test-lab-edit-wl.c.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "errtext.h"
#include "measure/workload.h"
#include "unit-lab-edit.h"

const char base_lab[] =
    "name = \"edit\";\n"
    "defaults = {\n"
    "  scratch = { count = 4; size = \"1G\"; };\n"
    "  array = { level = \"5\"; chunk = \"128K\"; };\n"
    "  fs = { type = \"ext4\"; mount_options = \"noatime\"; };\n"
    "  readahead = \"256K\";\n"
    "};\n"
    "variants = (\n"
    "  { name = \"r5\"; array = { engine = \"md\"; }; },\n"
    "  { name = \"r10\"; array = { level = \"10\"; layout = \"f2\"; };\n"
    "    fs = { data = \"writeback\"; }; },\n"
    "  { name = \"bt\"; array = { engine = \"btrfs\"; level = \"raid1\"; };\n"
    "    fs = { type = \"btrfs\"; }; },\n"
    "  { name = \"dir\"; directory = \"/var/tmp/x\"; }\n"
    ");\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; count = 100; }\n"
    ");\n";

struct lab *
load(const char *text)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char *msgs;
	int rc;

	errlist_init(&errs);
	rc = lab_load_string(text, "edit.lab", &lab, &errs);
	msgs = errs_text(&errs);
	cr_assert_eq(rc, 0, "does not load:\n%s\n--- text:\n%s", msgs, text);
	free(msgs);
	errlist_done(&errs);
	return lab;
}

/* Save and load again: the same lab comes back. The copy is returned. */
struct lab *
roundtrip(const struct lab *lab)
{
	char *text = lab_format(lab);
	struct lab *back = load(text);

	cr_assert(lab_equal(lab, back),
	    "the lab changed through save and load:\n%s", text);
	free(text);
	return back;
}

/* The messages lab_check has for the field path or inside it, joined;
   caller frees. */
char *
check_msgs(const struct lab *lab, const char *field)
{
	struct errlist errs;
	char *out = xstrdup(""), *t;

	errlist_init(&errs);
	lab_check(lab, &errs);
	for (size_t i = 0; i < errs.n; i++) {
		size_t k = strlen(field);

		if (strncmp(errs.v[i].field, field, k) != 0 ||
		    (errs.v[i].field[k] != '\0' && errs.v[i].field[k] != '.'))
			continue;
		t = xasprintf("%s%s\n", out, errs.v[i].msg);
		free(out);
		out = t;
	}
	errlist_done(&errs);
	return out;
}

bool
a_own(const struct lab_variant *v, enum lab_a_field f)
{
	return lab_array_isset(&v->array, f) &&
	    !lab_array_inherited(&v->array, f);
}

bool
f_own(const struct lab_variant *v, enum lab_f_field f)
{
	return lab_fs_isset(&v->fs, f) && !lab_fs_inherited(&v->fs, f);
}

/* ---------------------------------------------------------------- loads */

Test(lab_edit, base_lab_round_trips_untouched)
{
	struct lab *lab = load(base_lab);
	struct lab *back = roundtrip(lab);

	lab_free(back);
	lab_free(lab);
}

/* ---------------------------------------------------------------- defaults */

Test(lab_edit, set_owns_and_reset_inherits_again)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R5];

	cr_assert(lab_variant_inherited(v, LAB_V_READAHEAD));
	cr_assert_eq(lab_edit_readahead(lab, R5, 1 << 20), 0);
	cr_assert(!lab_variant_inherited(v, LAB_V_READAHEAD));
	cr_assert_eq(v->readahead, 1 << 20);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R5].readahead, 1 << 20);
	lab_free(back);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_READAHEAD), 0);
	cr_assert(lab_variant_inherited(v, LAB_V_READAHEAD));
	cr_assert_eq(v->readahead, 256 * 1024);
	/* Array keys: chunk inherited, set, reset. */
	cr_assert(lab_array_inherited(&v->array, LAB_A_CHUNK));
	cr_assert_eq(lab_edit_chunk(lab, R5, 64 * 1024), 0);
	cr_assert(a_own(v, LAB_A_CHUNK));
	cr_assert_eq(lab_edit_array_reset(lab, R5, LAB_A_CHUNK), 0);
	cr_assert(lab_array_inherited(&v->array, LAB_A_CHUNK));
	cr_assert_eq(v->array.chunk, 128 * 1024);
	/* The level too: reset takes "5" from defaults again. */
	cr_assert_eq(lab_edit_md_level(lab, R5, LAB_MD_LEVEL_6), 0);
	cr_assert_eq(lab_edit_array_reset(lab, R5, LAB_A_LEVEL), 0);
	cr_assert_eq(v->array.md_level, LAB_MD_LEVEL_5);
	cr_assert(lab_array_inherited(&v->array, LAB_A_LEVEL));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, scratch_keys_own_the_group_and_reset_returns_it)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R5];

	cr_assert_eq(lab_edit_scratch_count(lab, R5, 6, NULL), 0);
	cr_assert_eq(lab_edit_scratch_size(lab, R5, 2ULL << 30), 0);
	cr_assert_eq(lab_edit_scratch_dir(lab, R5, "/srv/scratch", NULL), 0);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R5].scratch_count, 6);
	cr_assert_eq(back->variants[R5].scratch_size, 2ULL << 30);
	cr_assert_str_eq(back->variants[R5].scratch_dir, "/srv/scratch");
	lab_free(back);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_SCRATCH_COUNT), 0);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_SCRATCH_SIZE), 0);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_SCRATCH_DIR), 0);
	cr_assert_eq(v->scratch_count, 4);
	cr_assert(lab_variant_inherited(v, LAB_V_SCRATCH));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, reset_without_defaults_gives_the_documented_default)
{
	struct lab *lab = load("name = \"x\";\n"
			       "variants = ( { name = \"a\"; scratch = { "
			       "count = 2; size = \"1G\"; };\n"
			       "  array = { level = 1; metadata = \"1.0\"; }; "
			       "} );\n"),
		   *back;

	cr_assert_eq(lab_edit_array_reset(lab, 0, LAB_A_METADATA), 0);
	cr_assert_eq(lab->variants[0].array.metadata, LAB_MD_METADATA_1_2);
	cr_assert(!lab_array_isset(&lab->variants[0].array, LAB_A_METADATA));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* ---------------------------------------------------------------- check */

Test(lab_edit, lab_check_sees_raid6_on_three_disks)
{
	struct lab *lab = load(base_lab);
	char *msgs;

	cr_assert_eq(lab_edit_scratch_count(lab, R5, 3, NULL), 0);
	msgs = check_msgs(lab, "variants.r5.scratch.count");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	cr_assert_eq(lab_edit_md_level(lab, R5, LAB_MD_LEVEL_6), 0);
	msgs = check_msgs(lab, "variants.r5.scratch.count");
	cr_assert(strstr(msgs, "RAID6 needs at least 4 devices, got 3") != NULL,
	    "%s", msgs);
	free(msgs);
	cr_assert_eq(lab_edit_scratch_count(lab, R5, 4, NULL), 0);
	msgs = check_msgs(lab, "variants.r5.scratch.count");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	lab_free(lab);
}

Test(lab_edit, lab_check_sees_a_bad_layout_and_its_fix)
{
	struct lab *lab = load(base_lab);
	char *msgs;

	cr_assert_eq(lab_edit_layout(lab, R5, "f2", NULL), 0);
	msgs = check_msgs(lab, "variants.r5.array.layout");
	cr_assert(strstr(msgs, "f2 is a RAID10 layout") != NULL, "%s", msgs);
	free(msgs);
	cr_assert_eq(lab_edit_md_level(lab, R5, LAB_MD_LEVEL_10), 0);
	msgs = check_msgs(lab, "variants.r5.array.layout");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	lab_free(lab);
}

/* ---------------------------------------------------------------- variants */

Test(lab_edit, add_takes_defaults_and_round_trips)
{
	struct lab *lab = load(base_lab), *back;
	char *name = lab_edit_variant_unique(lab, "r5");
	int i;

	cr_assert_str_eq(name, "r5-2");
	i = lab_edit_variant_add(lab, name, NULL);
	cr_assert_eq(i, 4);
	cr_assert_eq(lab->variants[i].scratch_count, 4);
	cr_assert_eq(lab->variants[i].array.md_level, LAB_MD_LEVEL_5);
	cr_assert(lab_variant_inherited(&lab->variants[i], LAB_V_ARRAY));
	cr_assert_eq(lab_edit_engine(lab, (size_t)i, LAB_ENGINE_BTRFS), 0);
	cr_assert_eq(lab_edit_profile(lab, (size_t)i, LAB_PROFILE_RAID10), 0);
	back = roundtrip(lab);
	cr_assert_str_eq(back->variants[4].name, "r5-2");
	cr_assert_eq(back->variants[4].array.profile, LAB_PROFILE_RAID10);
	lab_free(back);
	free(name);
	lab_free(lab);
}

Test(lab_edit, add_refuses_bad_and_taken_names)
{
	struct lab *lab = load(base_lab);
	struct err e;

	err_clear(&e);
	cr_assert_lt(lab_edit_variant_add(lab, "r5", &e), 0);
	cr_assert(strstr(e.msg, "already used") != NULL, "%s", e.msg);
	cr_assert_lt(lab_edit_variant_add(lab, "a b", &e), 0);
	cr_assert_lt(lab_edit_variant_rename(lab, R5, "r10", &e), 0);
	cr_assert_eq(lab->nvariants, 4);
	lab_free(lab);
}

Test(lab_edit, clone_rename_move_delete)
{
	struct lab *lab = load(base_lab), *back;

	cr_assert_eq(lab_edit_variant_clone(lab, R10, "r10-copy", NULL), 2);
	cr_assert_str_eq(lab->variants[2].array.layout, "f2");
	cr_assert_eq(lab->variants[3].index, 3);
	back = roundtrip(lab);
	cr_assert_str_eq(back->variants[2].name, "r10-copy");
	lab_free(back);
	cr_assert_eq(lab_edit_variant_rename(lab, 2, "r10-n2", NULL), 0);
	cr_assert_eq(lab_edit_layout(lab, 2, "n2", NULL), 0);
	cr_assert_str_eq(lab->variants[R10].array.layout, "f2");
	cr_assert_eq(lab_edit_variant_move(lab, 2, 0), 0);
	cr_assert_str_eq(lab->variants[0].name, "r10-n2");
	cr_assert_str_eq(lab->variants[1].name, "r5");
	cr_assert_eq(lab_edit_variant_move(lab, 0, 4), 0);
	cr_assert_str_eq(lab->variants[4].name, "r10-n2");
	cr_assert_str_eq(lab->variants[0].name, "r5");
	back = roundtrip(lab);
	lab_free(back);
	cr_assert_eq(lab_edit_variant_delete(lab, 0), 0);
	cr_assert_eq(lab->nvariants, 4);
	cr_assert_str_eq(lab->variants[0].name, "r10");
	cr_assert_eq(lab->variants[0].index, 0);
	back = roundtrip(lab);
	lab_free(back);
	while (lab->nvariants > 0)
		cr_assert_eq(lab_edit_variant_delete(lab, 0), 0);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, target_directory_and_back)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R10];
	char *msgs;

	cr_assert_eq(lab_edit_target(lab, R10, LAB_V_DIRECTORY, "/srv/t", NULL),
	    0);
	cr_assert(!(v->own & (1u << LAB_V_ARRAY)));
	cr_assert_str_eq(v->directory, "/srv/t");
	msgs = check_msgs(lab, "variants.r10.directory");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	back = roundtrip(lab);
	lab_free(back);
	cr_assert_eq(lab_edit_target(lab, DIR, LAB_V_ARRAY, NULL, NULL), 0);
	cr_assert_null(lab->variants[DIR].directory);
	cr_assert(lab_variant_isset(&lab->variants[DIR], LAB_V_ARRAY));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, new_lab_from_nothing_round_trips)
{
	struct lab *lab = lab_new(), *back;
	char *msgs;

	cr_assert_eq(lab_edit_name(lab, "fresh", NULL), 0);
	cr_assert_eq(lab_edit_variant_add(lab, "b10", NULL), 0);
	cr_assert_eq(lab_edit_scratch_count(lab, 0, 4, NULL), 0);
	cr_assert_eq(lab_edit_scratch_size(lab, 0, 1ULL << 30), 0);
	cr_assert_eq(lab_edit_engine(lab, 0, LAB_ENGINE_BTRFS), 0);
	cr_assert_eq(lab_edit_profile(lab, 0, LAB_PROFILE_RAID10), 0);
	msgs = check_msgs(lab, "variants.b10");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[0].array.engine, LAB_ENGINE_BTRFS);
	lab_free(back);
	lab_free(lab);
}

/* ---------------------------------------------------------------- lab */

/* An empty lab (the TUI's new lab) keeps the name and description it is
   given: they were once set without being the lab's own, and lost. */
Test(lab_edit, new_lab_keeps_its_name_and_description)
{
	struct lab *lab = lab_new(), *back;

	cr_assert_eq(lab_edit_name(lab, "walk", NULL), 0);
	cr_assert_eq(lab_edit_about(lab, "two btrfs profiles"), 0);
	back = roundtrip(lab);
	cr_assert_str_eq(back->name, "walk");
	cr_assert_str_eq(back->description, "two btrfs profiles");
	lab_free(back);
	cr_assert_eq(lab_edit_about(lab, ""), 0);
	cr_assert_null(lab->description);
	cr_assert(!lab_isset(lab, LAB_L_DESCRIPTION));
	back = roundtrip(lab);
	cr_assert_null(back->description);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, repeats_and_cache)
{
	struct lab *lab = load(base_lab), *back;
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_repeats(lab, 0, &e), -EINVAL);
	cr_assert_str_eq(e.field, "repeats");
	cr_assert_eq(lab_edit_repeats(lab, 5, NULL), 0);
	cr_assert_eq(lab_edit_cache(lab, LAB_CACHE_KEEP), 0);
	back = roundtrip(lab);
	cr_assert_eq(back->repeats, 5);
	cr_assert_eq(back->cache, LAB_CACHE_KEEP);
	lab_free(back);
	cr_assert_eq(lab_edit_reset(lab, LAB_L_REPEATS), 0);
	cr_assert_eq(lab->repeats, 1);
	cr_assert(!lab_isset(lab, LAB_L_REPEATS));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}
