/*
 * Loading a lab (lab-load, lab-read, lab-merge, lab-include, lab-expand):
 * typed values with their lines, leg paths, defaults merged key by key,
 * the level read for the merged engine, workload parameters with their
 * schema's defaults; the exact load error messages, all in one pass;
 * integers too big and @include refused with their lines; %u and %h in
 * a directory expanded for the run while the text is kept. Part of the
 * test-lab program (unit-lab.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "unit-lab.h"
#include "unit.h"

/* ---------------------------------------------------------------- model */

Test(lab, loads_typed_values_and_lines)
{
	struct lab *lab = must_load_string(
	    "name = \"m\";\n"
	    "variants = (\n"
	    "  { name = \"r5\";\n"
	    "    array = { level = 5; chunk = \"64K\";\n"
	    "      devices = [ \"scratch:0\", \"scratch:1\" ]; };\n"
	    "    fs = { type = \"xfs\"; geometry = { su = \"64K\"; sw = 3; }; "
	    "};\n"
	    "  },\n"
	    "  { fs = { data = \"journal\"; }; }\n"
	    ");\n",
	    "m.cfg");
	const struct lab_variant *v = &lab->variants[0];
	char buf[LAB_PATH_MAX];

	cr_assert_str_eq(lab->path, "m.cfg");
	cr_assert_eq(v->array.engine, LAB_ENGINE_MD);
	cr_assert(!lab_array_isset(&v->array, LAB_A_ENGINE));
	cr_assert_eq(v->array.md_level, LAB_MD_LEVEL_5);
	cr_assert_eq(v->array.chunk, 65536);
	cr_assert_eq(v->array.devices.n, 2);
	cr_assert_eq(lab_array_line(&v->array, LAB_A_CHUNK), 4);
	cr_assert_eq(lab_array_line(&v->array, LAB_A_DEVICES), 5);
	cr_assert_eq(v->fs.geometry, LAB_GEOMETRY_XFS);
	cr_assert_eq(v->fs.su, 65536);
	cr_assert_eq(v->fs.sw, 3);
	cr_assert_eq(lab_fs_line(&v->fs, LAB_F_GEOMETRY_SW), 6);
	cr_assert_str_eq(lab_array_path(v, &v->array, LAB_A_LEVEL, buf,
			     sizeof buf),
	    "variants.r5.array.level");
	cr_assert_str_eq(lab_fs_path(&lab->variants[1], LAB_F_DATA, buf,
			     sizeof buf),
	    "variants[1].fs.data");
	cr_assert_str_eq(lab_variant_path(v, -1, buf, sizeof buf),
	    "variants.r5");
	/* Unset: the documented default, the entry's line. */
	cr_assert_eq(v->array.bitmap, LAB_BITMAP_NONE);
	cr_assert_eq(lab_array_line(&v->array, LAB_A_BITMAP), 4);
	cr_assert_eq(lab->repeats, 1);
	cr_assert_eq(lab->cache, LAB_CACHE_DROP);
	lab_free(lab);
}

Test(lab, leg_paths_name_the_leg)
{
	struct lab *lab = must_load_string(
	    "variants = ( { name = \"r01\"; array = { level = \"1\";\n"
	    "  legs = ( { level = \"0\"; },\n"
	    "           { level = \"0\"; chunk = \"64K\"; } ); }; } );\n",
	    "l.cfg");
	const struct lab_variant *v = &lab->variants[0];
	char buf[LAB_PATH_MAX];

	cr_assert_eq(v->array.nlegs, 2);
	cr_assert_eq(v->array.legs[1].md_level, LAB_MD_LEVEL_0);
	cr_assert_eq(lab_array_line(&v->array.legs[1], LAB_A_CHUNK), 3);
	cr_assert_str_eq(lab_array_path(v, &v->array.legs[1], LAB_A_CHUNK, buf,
			     sizeof buf),
	    "variants.r01.array.legs[1].chunk");
	lab_free(lab);
}

Test(lab, defaults_merge_key_by_key_and_save_as_written)
{
	struct lab *lab = must_load_string(
	    "name = \"d\";\n"
	    "defaults = {\n"
	    "  array = { level = \"5\"; chunk = \"64K\"; bitmap = "
	    "\"internal\"; };\n"
	    "  fs = { type = \"xfs\"; journal = { device = \"/dev/md1\"; }; "
	    "};\n"
	    "};\n"
	    "variants = (\n"
	    "  { name = \"a\"; array = { chunk = \"128K\"; }; },\n"
	    "  { name = \"b\"; fs = { journal = \"internal\"; }; }\n"
	    ");\n",
	    "d.cfg");
	const struct lab_variant *a = &lab->variants[0], *b = &lab->variants[1];
	char *text;

	cr_assert_eq(a->array.md_level, LAB_MD_LEVEL_5);
	cr_assert(lab_array_inherited(&a->array, LAB_A_LEVEL));
	cr_assert_eq(lab_array_line(&a->array, LAB_A_LEVEL), 3);
	cr_assert_eq(a->array.chunk, 131072);
	cr_assert(!lab_array_inherited(&a->array, LAB_A_CHUNK));
	cr_assert_eq(a->array.bitmap, LAB_BITMAP_INTERNAL);
	cr_assert(lab_variant_inherited(a, LAB_V_FS));
	cr_assert_eq(a->fs.journal, LAB_JOURNAL_DEVICE);
	cr_assert_str_eq(a->fs.journal_device, "/dev/md1");
	/* The journal is one unit: "internal" drops the inherited device. */
	cr_assert_eq(b->fs.journal, LAB_JOURNAL_INTERNAL);
	cr_assert_null(b->fs.journal_device);
	cr_assert_eq(b->fs.type, LAB_FS_XFS);
	cr_assert_eq(b->array.chunk, 65536);

	text = lab_format(lab);
	cr_assert(strstr(text, "chunk = \"128K\";") != NULL, "%s", text);
	/* Inherited keys are not copied into the variants. */
	cr_assert(strstr(strstr(text, "variants = ("), "level") == NULL, "%s",
	    text);
	cr_assert(strstr(strstr(text, "variants = ("), "/dev/md1") == NULL,
	    "%s", text);
	free(text);
	assert_fixed_point(lab, "d.cfg");
	lab_free(lab);
}

Test(lab, level_is_read_for_the_merged_engine)
{
	struct lab *lab = must_load_string(
	    "defaults = { array = { level = \"raid10\"; }; };\n"
	    "variants = ( { name = \"md\"; },\n"
	    "  { name = \"btr\"; array = { engine = \"btrfs\"; }; } );\n",
	    "e.cfg");

	cr_assert_eq(lab->variants[0].array.md_level, LAB_MD_LEVEL_10);
	cr_assert_eq(lab->variants[1].array.profile, LAB_PROFILE_RAID10);
	lab_free(lab);
}

Test(lab, new_lab_formats_and_loads)
{
	struct lab *lab = lab_new();
	char *text = lab_format(lab);
	struct lab *again = must_load_string(text, "new.cfg");

	cr_assert(lab_equal(lab, again));
	free(text);
	lab_free(again);
	lab_free(lab);
	lab_free(NULL);
}

Test(lab, workload_params_take_schema_defaults)
{
	struct lab *lab = must_load_string("workloads = ( { name = \"b\"; type "
					   "= \"bonnie\"; files = 4; } );\n",
	    "w.cfg");
	const struct lab_workload *w = &lab->workloads[0];
	const struct param_value *pv;
	char buf[LAB_PATH_MAX];

	pv = lab_workload_param(w, "chunk");
	cr_assert(!pv->set);
	cr_assert_eq(pv->size, 8192);
	pv = lab_workload_param(w, "size");
	cr_assert(pv->is_auto);
	pv = lab_workload_param(w, "files");
	cr_assert(pv->set);
	cr_assert_eq(pv->i, 4);
	cr_assert_eq(lab_workload_param_line(w, "files"), 1);
	cr_assert_null(lab_workload_param(w, "nope"));
	cr_assert_str_eq(lab_workload_path(w, "files", buf, sizeof buf),
	    "workloads.b.files");
	lab_free(lab);
}

/* ---------------------------------------------------------------- errors */

struct err_case {
	char *text;
	char *want; /* every message, one per line */
};

static void
free_err_cases(struct criterion_test_params *p)
{
	struct err_case *v = p->params;
	size_t i;

	for (i = 0; i < p->length; i++) {
		cr_free(v[i].text);
		cr_free(v[i].want);
	}
	cr_free(v);
}

static const struct {
	const char *text;
	const char *want;
} err_cases[] = {
	/* the rounds: repeats, order, cv_limit */
	{ "repeats = 0;\n", "t.cfg:1: repeats: 0 is out of range (1..1000)\n" },
	{ "repeats = \"5\";\n",
	    "t.cfg:1: repeats: expected a number of rounds, or a range such "
	    "as { min = 3; max = 10; ci = \"2%\"; }\n" },
	{ "repeats = { min = 3;\n max = 10; };\n",
	    "t.cfg:1: repeats: a range of repeats needs its goal, such as ci "
	    "= \"2%\": rounds are added until the 95% confidence interval of "
	    "each mean is that narrow (for a fixed number, write repeats = "
	    "N;)\n" },
	{ "repeats = {\n min = 0; ci = \"2%\"; };\n",
	    "t.cfg:2: repeats.min: 0 is out of range (3..1000)\n" },
	{ "repeats = { min = 2; ci = \"2%\"; };\n",
	    "t.cfg:1: repeats.min: 2 is out of range (3..1000)\n" },
	{ "repeats = { max = 1001; ci = \"2%\"; };\n",
	    "t.cfg:1: repeats.max: 1001 is out of range (3..1000)\n" },
	{ "repeats = { min = 6; max = 5; ci = \"2%\"; };\n",
	    "t.cfg:1: repeats: min = 6 is more than max = 5\n" },
	/* max defaults to 10 */
	{ "repeats = { min = 11; ci = \"2%\"; };\n",
	    "t.cfg:1: repeats: min = 11 is more than max = 10\n" },
	{ "repeats = { ci = \"2%\"; sd = 1; };\n",
	    "t.cfg:1: repeats.sd: unknown key\n" },
	{ "repeats = { ci = \"0%\"; };\n",
	    "t.cfg:1: repeats.ci: 0%: must be more than 0% and less than "
	    "100%\n" },
	{ "repeats = { ci = \"100%\"; };\n",
	    "t.cfg:1: repeats.ci: 100%: must be more than 0% and less than "
	    "100%\n" },
	{ "repeats = { ci = \"2\"; };\n",
	    "t.cfg:1: repeats.ci: 2 is not a percent such as \"2%\" or "
	    "\"0.5%\" (at most three decimals)\n" },
	{ "repeats = { ci = \"0.0001%\"; };\n",
	    "t.cfg:1: repeats.ci: 0.0001% is not a percent such as \"2%\" or "
	    "\"0.5%\" (at most three decimals)\n" },
	{ "repeats = { ci = 2; };\n",
	    "t.cfg:1: repeats.ci: expected a percent in quotes, such as "
	    "\"2%\" or \"0.5%\"\n" },
	{ "order = \"random\";\n",
	    "t.cfg:1: order: 'random' is not one of: interleaved, grouped\n" },
	{ "\ncv_limit = \"-1%\";\n",
	    "t.cfg:2: cv_limit: -1% is not a percent such as \"2%\" or "
	    "\"0.5%\" (at most three decimals)\n" },
	/* how compare judges: test, equivalence */
	{ "\ntest = \"ttest\";\n",
	    "t.cfg:2: test: 'ttest' is not one of: log, welch, rank\n" },
	{ "test = 1;\n", "t.cfg:1: test: expected a string\n" },
	{ "\n\nequivalence = \"0%\";\n",
	    "t.cfg:3: equivalence: 0%: must be more than 0% and less than "
	    "100%\n" },
	{ "equivalence = \"2\";\n",
	    "t.cfg:1: equivalence: 2 is not a percent such as \"2%\" or "
	    "\"0.5%\" (at most three decimals)\n" },
	{ "equivalence = 2;\n",
	    "t.cfg:1: equivalence: expected a percent in quotes, such as "
	    "\"2%\" or \"0.5%\"\n" },
	/* syntax */
	{ "name = \"x\";\nvariants = ( { name = \"a\" } ;\n",
	    "t.cfg:2: syntax error\n" },
	{ "name = \"x\";\nname = \"y\";\n",
	    "t.cfg:2: syntax error: duplicate setting name\n" },
	/* directory expansions: %u, %h and %% only */
	{ "variants = ( { name = \"a\";\n  directory = \"/v/q-%x\"; } );\n",
	    "t.cfg:2: variants.a.directory: /v/q-%x: '%x' is not an "
	    "expansion: %u is the user's name, %h the host's, %% a %\n" },
	{ "variants = ( { name = \"a\"; directory = \"/v/%\"; } );\n",
	    "t.cfg:1: variants.a.directory: /v/%: a % at the end: %u is the "
	    "user's name, %h the host's, %% a %\n" },
	{ "defaults = {\n directory = \"/v/%U\"; };\n",
	    "t.cfg:2: defaults.directory: /v/%U: '%U' is not an expansion: "
	    "%u is the user's name, %h the host's, %% a %\n" },
	{ "variants = ( { name = \"a\"; directory = \"/v/%H\"; } );\n",
	    "t.cfg:1: variants.a.directory: /v/%H: '%H' is not an expansion: "
	    "%u is the user's name, %h the host's, %% a %\n" },
	/* wrong types */
	{ "name = \"x\";\nrepeats = \"3\";\n",
	    "t.cfg:2: repeats: expected a number of rounds, or a range such "
	    "as { min = 3; max = 10; ci = \"2%\"; }\n" },
	{ "variants = ( { name = \"a\";\n  array = { assume_clean = 1; }; } "
	  ");\n",
	    "t.cfg:2: variants.a.array.assume_clean: expected true or "
	    "false\n" },
	{ "variants = ( { name = \"a\"; array = \"md\"; } );\n",
	    "t.cfg:1: variants.a.array: expected a group\n" },
	{ "variants = { name = \"a\"; };\n",
	    "t.cfg:1: variants: expected a list of groups: variants = ( { ... "
	    "}, "
	    "... );\n" },
	{ "variants = ( { array = { devices = \"/dev/sda\"; }; } );\n",
	    "t.cfg:1: variants[0].array.devices: expected a list of "
	    "strings\n" },
	{ "variants = ( { array = { level = true; }; } );\n",
	    "t.cfg:1: variants[0].array.level: expected a string or an "
	    "integer\n" },
	{ "repeats = 0;\n", "t.cfg:1: repeats: 0 is out of range (1..1000)\n" },
	/* unknown keys */
	{ "name = \"x\";\nvariants = (\n  { name = \"r5\";\n    array = { "
	  "chunck = "
	  "\"64K\"; }; } );\n",
	    "t.cfg:4: variants.r5.array.chunck: unknown key; did you mean "
	    "'chunk'?\n" },
	{ "nmae = \"x\";\n",
	    "t.cfg:1: nmae: unknown key; did you mean 'name'?\n" },
	{ "colour = \"x\";\n", "t.cfg:1: colour: unknown key\n" },
	{ "defaults = { name = \"x\"; };\n",
	    "t.cfg:1: defaults.name: unknown key\n" },
	{ "variants = ( { fs = { jornal = \"internal\"; }; } );\n",
	    "t.cfg:1: variants[0].fs.jornal: unknown key; did you mean "
	    "'journal'?\n" },
	{ "variants = ( { array = { legs = ( { engine = \"md\"; } ); }; } );\n",
	    "t.cfg:1: variants[0].array.legs[0].engine: unknown key\n" },
	/* the member queue's depth: what the block layer takes */
	{ "variants = ( { name = \"a\";\n nr_requests = 2; } );\n",
	    "t.cfg:2: variants.a.nr_requests: 2 is out of range (4..2048)\n" },
	{ "variants = ( { name = \"a\";\n nr_requests = 4096; } );\n",
	    "t.cfg:2: variants.a.nr_requests: 4096 is out of range "
	    "(4..2048)\n" },
	{ "variants = ( { name = \"a\";\n nr_requests = \"64\"; } );\n",
	    "t.cfg:2: variants.a.nr_requests: expected an integer\n" },
	{ "variants = ( { name = \"a\";\n scheduler = 3; } );\n",
	    "t.cfg:2: variants.a.scheduler: expected a string\n" },
	/* sizes */
	{ "variants = ( { name = \"a\";\n readahead = \"12Q\"; } );\n",
	    "t.cfg:2: variants.a.readahead: '12Q' is not a size (like 4K, 64M, "
	    "2G)\n" },
	{ "variants = ( { array = { chunk = -4; }; } );\n",
	    "t.cfg:1: variants[0].array.chunk: a size cannot be negative\n" },
	/* enum values */
	{ "variants = ( { name = \"a\"; fs = { type = \"zfs\"; }; } );\n",
	    "t.cfg:1: variants.a.fs.type: 'zfs' is not one of: ext2, ext3, "
	    "ext4, "
	    "xfs, btrfs\n" },
	{ "cache = \"flush\";\n",
	    "t.cfg:1: cache: 'flush' is not one of: drop, keep\n" },
	{ "variants = ( { name = \"a\"; array = { level = \"3\"; }; } );\n",
	    "t.cfg:1: variants.a.array.level: '3' is not an md level (0, 1, 4, "
	    "5, "
	    "6, 10)\n" },
	{ "variants = ( { name = \"a\"; array = { engine = \"btrfs\"; level = "
	  "\"5\"; }; } );\n",
	    "t.cfg:1: variants.a.array.level: '5' is not a btrfs profile "
	    "(single, "
	    "dup, raid0, raid1, raid1c3, raid1c4, raid10, raid5, raid6)\n" },
	{ "variants = ( { array = { bitmap = \"external\"; }; } );\n",
	    "t.cfg:1: variants[0].array.bitmap: 'external' is not one of: "
	    "none, internal, lockless\n" },
	{ "variants = ( { array = { metadata = 2.0; }; } );\n",
	    "t.cfg:1: variants[0].array.metadata: '2' is not one of: 1.2, "
	    "0.90, "
	    "1.0, 1.1\n" },
	{ "variants = ( { fs = { geometry = { stride = 1; su = \"64K\"; }; }; "
	  "} "
	  ");\n",
	    "t.cfg:1: variants[0].fs.geometry: give stride/stripe_width (ext) "
	    "or "
	    "su/sw (xfs), not both\n" },
	{ "variants = ( { fs = { journal = { device = \"/d\"; array = { }; }; "
	  "}; } "
	  ");\n",
	    "t.cfg:1: variants[0].fs.journal.array: give a device or an array, "
	    "not "
	    "both\n" },
	{ "variants = ( { fs = { journal = \"external\"; }; } );\n",
	    "t.cfg:1: variants[0].fs.journal: expected \"internal\" or a group "
	    "{ "
	    "device = \"...\"; } or { array = { ... }; }\n" },
	{ "variants = ( { array = { bitmap = { chunk = \"64M\"; }; }; } );\n",
	    "t.cfg:1: variants[0].array.bitmap.file: missing: the bitmap group "
	    "names the bitmap file\n" },
	{ "variants = ( { array = { bitmap = { file = \"/b\"; chunk = \"1M\"; "
	  "};\n "
	  "bitmap_chunk = \"1M\"; }; } );\n",
	    "t.cfg:2: variants[0].array.bitmap_chunk: set twice: here and as "
	    "chunk "
	    "in the bitmap group\n" },
	{ "variants = ( { array = { devices = [ \"sda\", \"scratch:x\" ]; }; } "
	  ");\n",
	    "t.cfg:1: variants[0].array.devices: 'sda' is neither a device "
	    "path "
	    "nor scratch:N\n"
	    "t.cfg:1: variants[0].array.devices: 'scratch:x' is neither a "
	    "device "
	    "path nor scratch:N\n" },
	/* names */
	{ "variants = (\n  { name = \"a\"; },\n  { name = \"a\"; }\n);\n",
	    "t.cfg:3: variants[1].name: duplicate variant name 'a' (first at "
	    "line "
	    "2)\n" },
	{ "workloads = (\n { name = \"w\"; type = \"fio\"; },\n { name = "
	  "\"w\"; "
	  "type = \"fio\"; } );\n",
	    "t.cfg:3: workloads[1].name: duplicate workload name 'w' (first at "
	    "line 2)\n" },
	{ "name = \"my lab\";\n",
	    "t.cfg:1: name: 'my lab' is not a valid name: use letters, digits, "
	    "'.', '_' and '-'\n" },
	/* workloads */
	{ "workloads = ( { type = \"bonie\"; } );\n",
	    "t.cfg:1: workloads[0].type: unknown workload type 'bonie'; did "
	    "you "
	    "mean 'bonnie'?\n" },
	{ "workloads = ( { name = \"n\"; } );\n",
	    "t.cfg:1: workloads.n.type: missing; the workload type is one of: "
	    "bonnie, smallfiles, untar, compilebench, fio\n" },
	{ "workloads = ( { name = \"b\"; type = \"bonnie\";\n fils = 16; } "
	  ");\n",
	    "t.cfg:2: workloads.b.fils: unknown key; did you mean 'files'?\n" },
	{ "workloads = ( { type = \"fio\"; rwmixread = 101; } );\n",
	    "t.cfg:1: workloads[0].rwmixread: 101 is out of range (0..100)\n" },
	{ "workloads = ( { type = \"fio\"; rw = \"random\"; } );\n",
	    "t.cfg:1: workloads[0].rw: 'random' is not one of: read, write, "
	    "randread, randwrite, randrw, rw\n" },
	{ "workloads = ( { type = \"fio\"; bs = \"4X\"; } );\n",
	    "t.cfg:1: workloads[0].bs: '4X' is not a size (like 4K, 64M, "
	    "2G)\n" },
	{ "workloads = ( { type = \"smallfiles\"; count = 5;\n counts = [1, "
	  "2]; } "
	  ");\n",
	    "t.cfg:2: workloads[0].counts: cannot be set together with "
	    "'count'\n" },
};

ParameterizedTestParameters(lab, reports_load_errors_exactly)
{
	size_t i, n = sizeof err_cases / sizeof err_cases[0];
	struct err_case *v = cr_malloc(n * sizeof *v);

	for (i = 0; i < n; i++) {
		v[i].text = unit_strdup(err_cases[i].text);
		v[i].want = unit_strdup(err_cases[i].want);
	}
	return cr_make_param_array(struct err_case, v, n, free_err_cases);
}

ParameterizedTest(struct err_case *c, lab, reports_load_errors_exactly)
{
	struct errlist errs;
	struct lab *lab = (struct lab *)1;
	char *got;
	int rc;

	errlist_init(&errs);
	rc = lab_load_string(c->text, "t.cfg", &lab, &errs);
	got = errs_text(&errs);
	cr_assert_eq(rc, -EINVAL, "rc %d for:\n%s", rc, c->text);
	cr_assert_null(lab);
	cr_assert_str_eq(got, c->want, "for:\n%s", c->text);
	free(got);
	errlist_done(&errs);
}

Test(lab, collects_every_error_in_one_pass)
{
	struct errlist errs;
	struct lab *lab;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string("nmae = 1;\nrepeats = \"x\";\n"
				     "variants = ( { fs = { type = 3; data = "
				     "\"x\"; }; } );\n"
				     "workloads = ( { type = \"x\"; } );\n",
			 "t.cfg", &lab, &errs),
	    -EINVAL);
	cr_assert_eq(errs.n, 5);
	errlist_done(&errs);
}

Test(lab, unreadable_file_names_the_file)
{
	struct errlist errs;
	struct lab *lab;
	char buf[ERR_FILE_MAX + ERR_MSG_MAX];

	errlist_init(&errs);
	cr_assert_eq(lab_load("/nonexistent/x.cfg", &lab, &errs), -ENOENT);
	cr_assert_eq(errs.n, 1);
	cr_assert_str_eq(err_format(&errs.v[0], buf, sizeof buf),
	    "/nonexistent/x.cfg: cannot read: No such file or directory");
	errlist_done(&errs);
}

/* libconfig reads an integer without L as 32 bits and keeps the low ones
   (4294967297 loads as 1): refused with its line, not wrapped. Strings,
   comments and L-suffixed numbers are left alone. */
Test(lab, integers_too_big_are_refused_not_wrapped)
{
	struct lab *lab = NULL;
	struct errlist errs;

	errlist_init(&errs);
	cr_assert_neq(lab_load_string("name = \"x\"; # 99999999999\n"
				      "description = \"12345678901\";\n"
				      "repeats = 4294967297;\n"
				      "variants = ( { name = \"d\"; directory "
				      "= "
				      "\"/tmp\"; } );\n",
			  "lab.cfg", &lab, &errs),
	    0);
	cr_assert_null(lab);
	cr_assert_eq(errs.n, 1);
	cr_assert_eq(errs.v[0].line, 3);
	cr_assert(strstr(errs.v[0].msg, "4294967297 is too big") != NULL, "%s",
	    errs.v[0].msg);
	errlist_done(&errs);
	errlist_init(&errs);
	cr_assert_eq(lab_load_string("name = \"x\"; repeats = 1000;\n"
				     "variants = ( { name = \"d\"; directory = "
				     "\"/tmp\"; } );\n"
				     "workloads = ( { type = \"bonnie\"; size "
				     "= "
				     "5000000000L; } );\n",
			 "lab.cfg", &lab, &errs),
	    0, "%s", errs.n ? errs.v[0].msg : "");
	lab_free(lab);
	errlist_done(&errs);
}

/* A lab is one file: libconfig would read the file an @include names
   (here one that holds valid settings, so the lab would load), from any
   path. Refused with the line and the file named; an @include in a
   comment or a string is only text. */
Test(lab, include_is_refused_with_its_line)
{
	char *dir = tmpdir(), *part = xasprintf("%s/part.cfg", dir);
	char *path = xasprintf("%s/lab.cfg", dir), *text, *want;
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX];
	struct lab *lab = NULL;
	struct errlist errs;

	write_text(part, "repeats = 3;\n");
	text = xasprintf("name = \"x\"; # @include \"a\"\n"
			 "description = \"\n@include \\\"b\\\"\";\n"
			 "/* @include \"c\" */\n"
			 "@include \"%s\"\n"
			 "variants = ( { name = \"d\"; directory = \"/tmp\"; } "
			 ");\n",
	    part);
	write_text(path, text);
	errlist_init(&errs);
	cr_assert_eq(lab_load(path, &lab, &errs), -EINVAL);
	cr_assert_null(lab);
	cr_assert_eq(errs.n, 1, "%zu errors", errs.n);
	want = xasprintf("%s:5: @include: not allowed: a lab is one "
			 "self-contained file (copy what \"%s\" holds into "
			 "this one)",
	    path, part);
	cr_assert_str_eq(err_format(&errs.v[0], buf, sizeof buf), want);
	errlist_done(&errs);
	errlist_init(&errs);
	cr_assert_eq(lab_load_string(text, "lab.cfg", &lab, &errs), -EINVAL);
	cr_assert_eq(errs.n, 1);
	cr_assert_eq(errs.v[0].line, 5);
	cr_assert_str_eq(errs.v[0].field, "@include");
	errlist_done(&errs);
	free(want);
	free(text);
	unlink(part);
	remove_tree(dir, "lab.cfg");
	free(part);
	free(path);
	free(dir);
}

/* %h in a directory is this machine's host name up to its first '.',
   or the fleet host's that lab_expand_set_host() names (raidlab run
   --fleet-host); the text keeps %h. */
Test(lab, directory_expands_the_host)
{
	char host[256] = "", want[512];
	struct lab *lab;

	cr_assert_eq(gethostname(host, sizeof host - 1), 0);
	host[strcspn(host, ".")] = '\0';
	cr_assert_neq(host[0], '\0');
	lab = must_load_string("name = \"x\";\n"
			       "variants = ( { name = \"a\"; directory = "
			       "\"/v/d-%h/%u-%%h\"; } );\n",
	    "t.cfg");
	snprintf(want, sizeof want, "/v/d-%s/", host);
	cr_assert_eq(strncmp(lab->variants[0].directory, want, strlen(want)), 0,
	    "%s", lab->variants[0].directory);
	cr_assert(strstr(lab->variants[0].directory, "-%h") != NULL,
	    "%%%% stays a %%: %s", lab->variants[0].directory);
	cr_assert_str_eq(lab->variants[0].directory_text, "/v/d-%h/%u-%%h");
	lab_free(lab);

	lab_expand_set_host("h2");
	lab = must_load_string("name = \"x\";\n"
			       "variants = ( { name = \"a\"; directory = "
			       "\"/v/d-%h\"; } );\n",
	    "t.cfg");
	lab_expand_set_host(NULL);
	cr_assert_str_eq(lab->variants[0].directory, "/v/d-h2");
	lab_free(lab);
	lab = must_load_string("name = \"x\";\n"
			       "variants = ( { name = \"a\"; directory = "
			       "\"/v/d-%h\"; } );\n",
	    "t.cfg");
	snprintf(want, sizeof want, "/v/d-%s", host);
	cr_assert_str_eq(lab->variants[0].directory, want,
	    "this machine's again");
	lab_free(lab);
}

/* %u in a directory is the user raidlab runs as, by effective uid (not
   $USER, which setpriv and su may leave as another's); %% a %. The run
   uses the expansion, the file keeps the text, an inherited directory
   and a copy keep both, and an edit expands what is typed. */
Test(lab, directory_expands_the_user_and_keeps_the_text)
{
	struct passwd *pw = getpwuid(geteuid());
	struct lab *lab, *copy;
	char want[512], *text;
	struct err e;

	cr_assert_not_null(pw);
	setenv("USER", "somebody-else", 1);
	lab = must_load_string("name = \"x\";\n"
			       "defaults = { directory = \"/v/d-%u\"; };\n"
			       "variants = ( { name = \"a\"; directory = "
			       "\"/v/q-%u/100%%\"; }, { name = \"b\"; } );\n",
	    "t.cfg");
	snprintf(want, sizeof want, "/v/q-%s/100%%", pw->pw_name);
	cr_assert_str_eq(lab->variants[0].directory, want);
	snprintf(want, sizeof want, "/v/d-%s", pw->pw_name);
	cr_assert_str_eq(lab->variants[1].directory, want, "inherited");
	text = lab_format(lab);
	cr_assert(strstr(text, "directory = \"/v/q-%u/100%%\";") != NULL, "%s",
	    text);
	free(text);
	copy = lab_dup(lab);
	cr_assert(lab_equal(lab, copy));
	lab_free(copy);
	err_clear(&e);
	cr_assert_eq(lab_edit_target(lab, 1, LAB_V_DIRECTORY, "/w/%u", &e), 0,
	    "%s", e.msg);
	snprintf(want, sizeof want, "/w/%s", pw->pw_name);
	cr_assert_str_eq(lab->variants[1].directory, want);
	cr_assert_str_eq(lab->variants[1].directory_text, "/w/%u");
	cr_assert_lt(lab_edit_target(lab, 1, LAB_V_DIRECTORY, "/w/%d", &e), 0);
	cr_assert(strstr(e.msg, "'%d' is not an expansion") != NULL, "%s",
	    e.msg);
	cr_assert_str_eq(lab->variants[1].directory, want, "unchanged");
	assert_fixed_point(lab, "t.cfg");
	lab_free(lab);
}
