/*
 * The lab model: load, defaults merge, save round trips (every key), the
 * exact load error messages, atomic save, and the preset labs.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "lab-edit.h"
#include "lab.h"
#include "presets.h"
#include "param.h"
#include "strbuf.h"
#include "unit.h"
#include "xalloc.h"

static char *
errs_text(const struct errlist *errs)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX], *out, *t;
	size_t i;

	out = xstrdup("");
	for (i = 0; i < errs->n; i++) {
		t = xasprintf("%s%s\n", out,
		    err_format(&errs->v[i], buf, sizeof buf));
		free(out);
		out = t;
	}
	return out;
}

static struct lab *
must_load_string(const char *text, const char *name)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char *msgs;
	int rc;

	errlist_init(&errs);
	rc = lab_load_string(text, name, &lab, &errs);
	msgs = errs_text(&errs);
	cr_assert_eq(rc, 0, "%s does not load:\n%s\n--- text:\n%s", name, msgs,
	    text);
	free(msgs);
	errlist_done(&errs);
	return lab;
}

static struct lab *
must_load(const char *path)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char *msgs;
	int rc;

	errlist_init(&errs);
	rc = lab_load(path, &lab, &errs);
	msgs = errs_text(&errs);
	cr_assert_eq(rc, 0, "%s does not load:\n%s", path, msgs);
	free(msgs);
	errlist_done(&errs);
	return lab;
}

/*
 * format(lab) loads back to an equal model whose format is the same text:
 * load -> save -> load is a fixed point.
 */
static void
assert_fixed_point(const struct lab *lab, const char *what)
{
	char *t1 = lab_format(lab), *t2;
	struct lab *again = must_load_string(t1, what);

	cr_assert(lab_equal(lab, again), "%s: model changed on reload:\n%s",
	    what, t1);
	t2 = lab_format(again);
	cr_assert_str_eq(t1, t2, "%s: text not a fixed point", what);
	free(t1);
	free(t2);
	lab_free(again);
}

static char *
testdata(const char *rel)
{
	const char *d = getenv("TESTDATA");

	return xasprintf("%s/%s", d != NULL ? d : "tests/data", rel);
}

/* ---------------------------------------------------------------- keys */

struct key_case {
	char *text; /* a whole lab */
	char *needle; /* must appear in the saved text */
};

static void
free_key_cases(struct criterion_test_params *p)
{
	struct key_case *v = p->params;
	size_t i;

	for (i = 0; i < p->length; i++) {
		cr_free(v[i].text);
		cr_free(v[i].needle);
	}
	cr_free(v);
}

enum where { TOP, VARIANT, DEFAULTS, WORKLOAD };

static const struct {
	enum where where;
	const char *snippet;
	const char *needle;
} key_snippets[] = {
	{ TOP, "description = \"a \\\"quoted\\\" text\\n\";",
	    "description = \"a \\\"quoted\\\" text\\n\";" },
	{ TOP, "repeats = 5;", "repeats = 5;" },
	{ TOP, "repeats = { min = 3; max = 10; ci = \"2%\"; };",
	    "repeats = { min = 3; max = 10; ci = \"2%\"; };" },
	/* min and max take their defaults; the percent is normalised */
	{ TOP, "repeats = { ci = \"0.50%\"; };",
	    "repeats = { min = 3; max = 10; ci = \"0.5%\"; };" },
	{ TOP, "repeats = { max = 1000; min = 1000; ci = \"99.999%\"; };",
	    "repeats = { min = 1000; max = 1000; ci = \"99.999%\"; };" },
	{ TOP, "order = \"grouped\";", "order = \"grouped\";" },
	{ TOP, "order = \"interleaved\";", "order = \"interleaved\";" },
	{ TOP, "cv_limit = \"5%\";", "cv_limit = \"5%\";" },
	{ TOP, "cv_limit = \"12.25%\";", "cv_limit = \"12.25%\";" },
	{ TOP, "test = \"log\";", "test = \"log\";" },
	{ TOP, "test = \"welch\";", "test = \"welch\";" },
	{ TOP, "test = \"rank\";", "test = \"rank\";" },
	{ TOP, "equivalence = \"2%\";", "equivalence = \"2%\";" },
	{ TOP, "equivalence = \"0.50%\";", "equivalence = \"0.5%\";" },
	{ TOP, "cache = \"keep\";", "cache = \"keep\";" },
	{ TOP, "cache = \"drop\";", "cache = \"drop\";" },
	{ TOP, "results = \"~/r\";", "results = \"~/r\";" },
	{ VARIANT, "description = \"d\";", "description = \"d\";" },
	{ VARIANT, "directory = \"/mnt/t\";", "directory = \"/mnt/t\";" },
	{ VARIANT, "directory = \"/var/tmp/q-%u\";",
	    "directory = \"/var/tmp/q-%u\";" },
	{ VARIANT, "directory = \"/mnt/100%%\";",
	    "directory = \"/mnt/100%%\";" },
	{ VARIANT, "scratch = { count = 4; };", "count = 4;" },
	{ VARIANT, "scratch = { size = \"1536M\"; };", "size = \"1536M\";" },
	{ VARIANT, "scratch = { size = 1610612736; };", "size = \"1536M\";" },
	{ VARIANT, "scratch = { dir = \"/srv\"; };", "dir = \"/srv\";" },
	{ VARIANT, "scratch = { };", "scratch = {" },
	{ VARIANT, "readahead = \"1M\";", "readahead = \"1M\";" },
	{ VARIANT, "readahead = \"4097\";", "readahead = \"4097\";" },
	{ VARIANT, "array = { };", "array = {" },
	{ VARIANT, "array = { engine = \"md\"; };", "engine = \"md\";" },
	{ VARIANT, "array = { engine = \"btrfs\"; level = \"raid1c3\"; };",
	    "level = \"raid1c3\";" },
	{ VARIANT, "array = { engine = \"single\"; };",
	    "engine = \"single\";" },
	{ VARIANT, "array = { level = 10; };", "level = \"10\";" },
	{ VARIANT, "array = { level = \"raid6\"; };", "level = \"raid6\";" },
	{ VARIANT, "array = { metadata_profile = \"dup\"; };",
	    "metadata_profile = \"dup\";" },
	{ VARIANT, "array = { layout = \"f2\"; };", "layout = \"f2\";" },
	{ VARIANT, "array = { chunk = \"256K\"; };", "chunk = \"256K\";" },
	{ VARIANT, "array = { devices = [ \"/dev/sda1\", \"scratch:2\" ]; };",
	    "devices = [ \"/dev/sda1\", \"scratch:2\" ];" },
	{ VARIANT, "array = { devices = ( \"/dev/sda1\" ); };",
	    "devices = [ \"/dev/sda1\" ];" },
	{ VARIANT, "array = { spares = [ \"scratch:9\" ]; };",
	    "spares = [ \"scratch:9\" ];" },
	{ VARIANT, "array = { metadata = \"0.90\"; };",
	    "metadata = \"0.90\";" },
	{ VARIANT, "array = { metadata = 1.0; };", "metadata = \"1.0\";" },
	{ VARIANT, "array = { metadata = \"1.1\"; };", "metadata = \"1.1\";" },
	{ VARIANT, "array = { bitmap = \"none\"; };", "bitmap = \"none\";" },
	{ VARIANT, "array = { bitmap = \"internal\"; };",
	    "bitmap = \"internal\";" },
	{ VARIANT, "array = { bitmap = { file = \"/b/m\"; }; };",
	    "file = \"/b/m\";" },
	{ VARIANT,
	    "array = { bitmap = { file = \"/b/m\"; chunk = \"64M\"; }; };",
	    "bitmap_chunk = \"64M\";" },
	{ VARIANT, "array = { bitmap_chunk = \"2M\"; };",
	    "bitmap_chunk = \"2M\";" },
	{ VARIANT, "array = { journal = \"scratch:3\"; };",
	    "journal = \"scratch:3\";" },
	{ VARIANT, "array = { assume_clean = true; };",
	    "assume_clean = true;" },
	{ VARIANT, "array = { assume_clean = false; };",
	    "assume_clean = false;" },
	{ VARIANT,
	    "array = { level = \"1\"; legs = ( { level = \"0\"; chunk = "
	    "\"64K\"; "
	    "devices = [ \"scratch:0\" ]; spares = [ \"scratch:5\" ]; layout = "
	    "\"x\"; metadata = \"1.0\"; bitmap = \"internal\"; bitmap_chunk = "
	    "\"1M\"; journal = \"/dev/x\"; assume_clean = true; "
	    "metadata_profile = "
	    "\"raid1\"; }, { level = 0; } ); };",
	    "legs = (" },
	{ VARIANT, "fs = { };", "fs = {" },
	{ VARIANT, "fs = { type = \"ext2\"; };", "type = \"ext2\";" },
	{ VARIANT, "fs = { type = \"ext3\"; };", "type = \"ext3\";" },
	{ VARIANT, "fs = { type = \"ext4\"; };", "type = \"ext4\";" },
	{ VARIANT, "fs = { type = \"xfs\"; };", "type = \"xfs\";" },
	{ VARIANT, "fs = { type = \"btrfs\"; };", "type = \"btrfs\";" },
	{ VARIANT, "fs = { mkfs_options = \"-i size=512\"; };",
	    "mkfs_options = \"-i size=512\";" },
	{ VARIANT, "fs = { journal = \"internal\"; };",
	    "journal = \"internal\";" },
	{ VARIANT, "fs = { journal = { size = \"64M\"; }; };",
	    "size = \"64M\";" },
	{ VARIANT, "fs = { journal = { device = \"/dev/md1\"; }; };",
	    "device = \"/dev/md1\";" },
	{ VARIANT,
	    "fs = { journal = { device = \"scratch:4\"; size = \"64M\"; }; };",
	    "device = \"scratch:4\";" },
	{ VARIANT,
	    "fs = { journal = { array = { level = \"1\"; devices = [ "
	    "\"scratch:4\", \"scratch:5\" ]; assume_clean = true; }; }; };",
	    "array = {" },
	{ VARIANT, "fs = { data = \"ordered\"; };", "data = \"ordered\";" },
	{ VARIANT, "fs = { data = \"writeback\"; };", "data = \"writeback\";" },
	{ VARIANT, "fs = { data = \"journal\"; };", "data = \"journal\";" },
	{ VARIANT, "fs = { geometry = \"auto\"; };", "geometry = \"auto\";" },
	{ VARIANT, "fs = { geometry = \"none\"; };", "geometry = \"none\";" },
	{ VARIANT, "fs = { geometry = { stride = 64; stripe_width = 128; }; };",
	    "stripe_width = 128;" },
	{ VARIANT, "fs = { geometry = { stride = 64; }; };", "stride = 64;" },
	{ VARIANT, "fs = { geometry = { su = \"256K\"; sw = 2; }; };",
	    "su = \"256K\";" },
	{ VARIANT, "fs = { mount_options = \"noatime,commit=600\"; };",
	    "mount_options = \"noatime,commit=600\";" },
	{ DEFAULTS, "directory = \"/mnt/d\";", "directory = \"/mnt/d\";" },
	{ DEFAULTS, "directory = \"/mnt/%u/d\";",
	    "directory = \"/mnt/%u/d\";" },
	{ DEFAULTS, "scratch = { count = 2; size = \"64M\"; dir = \"/d\"; };",
	    "count = 2;" },
	{ DEFAULTS,
	    "array = { engine = \"md\"; level = \"5\"; chunk = \"64K\"; bitmap "
	    "= { "
	    "file = \"/f\"; }; legs = ( { level = \"0\"; } ); };",
	    "file = \"/f\";" },
	{ DEFAULTS,
	    "fs = { type = \"xfs\"; journal = { array = { level = \"1\"; }; "
	    "size = "
	    "\"64M\"; }; geometry = { su = \"64K\"; sw = 3; }; };",
	    "sw = 3;" },
	{ DEFAULTS, "readahead = \"8M\";", "readahead = \"8M\";" },
	{ DEFAULTS, "", "defaults = {" },
	{ WORKLOAD,
	    "type = \"bonnie\"; size = \"2G\"; chunk = \"16K\"; ram = \"1G\"; "
	    "files = 16; max_size = \"4K\"; min_size = \"1K\"; dirs = 8; fsync "
	    "= "
	    "true; direct = false;",
	    "max_size = \"4K\";" },
	{ WORKLOAD, "type = \"bonnie\"; size = \"auto\"; ram = \"auto\";",
	    "ram = \"auto\";" },
	{ WORKLOAD,
	    "type = \"smallfiles\"; count = 10; size = 4096; write_size = "
	    "\"1K\"; "
	    "dirs = 10; fsync = false; sync = true;",
	    "size = \"4K\";" },
	{ WORKLOAD, "type = \"smallfiles\"; counts = [1000, 10000];",
	    "counts = [1000, 10000];" },
	{ WORKLOAD,
	    "type = \"untar\"; tarball = \"/t.tar\"; synthetic_files = 5; "
	    "synthetic_size = \"1M\"; sync = false;",
	    "tarball = \"/t.tar\";" },
	{ WORKLOAD,
	    "type = \"compilebench\"; initial = 3; runs = 4; seed = 5; sync = "
	    "false;",
	    "seed = 5;" },
	{ WORKLOAD,
	    "type = \"fio\"; rw = \"randwrite\"; bs = \"8K\"; size = \"64M\"; "
	    "runtime = 10; threads = 2; iodepth = 16; ioengine = \"io_uring\"; "
	    "direct = true; fsync = 1; end_fsync = true; rwmixread = 30;",
	    "ioengine = \"io_uring\";" },
	{ WORKLOAD, "name = \"w1\"; type = \"fio\";", "name = \"w1\";" },
};

static char *
key_lab_text(enum where where, const char *snippet)
{
	switch (where) {
	case TOP:
		return xasprintf("name = \"k\";\n%s\nvariants = ( "
				 "{ name = \"v\"; } );\n",
		    snippet);
	case VARIANT:
		return xasprintf("name = \"k\";\nvariants = ( { name = \"v\";\n"
				 "%s\n}, { } );\n",
		    snippet);
	case DEFAULTS:
		return xasprintf("name = \"k\";\ndefaults = {\n%s\n};\n"
				 "variants = ( { name = \"v\"; }, { name = "
				 "\"w\"; "
				 "array = { }; fs = { }; scratch = { }; } );\n",
		    snippet);
	case WORKLOAD:
		return xasprintf("name = \"k\";\nworkloads = ( {\n%s\n} );\n",
		    snippet);
	}
	return NULL;
}

ParameterizedTestParameters(lab, every_key_round_trips)
{
	size_t i, n = sizeof key_snippets / sizeof key_snippets[0];
	struct key_case *v = cr_malloc(n * sizeof *v);
	char *t;

	for (i = 0; i < n; i++) {
		t = key_lab_text(key_snippets[i].where,
		    key_snippets[i].snippet);
		v[i].text = unit_strdup(t);
		v[i].needle = unit_strdup(key_snippets[i].needle);
		free(t);
	}
	return cr_make_param_array(struct key_case, v, n, free_key_cases);
}

ParameterizedTest(struct key_case *c, lab, every_key_round_trips)
{
	struct lab *lab = must_load_string(c->text, "key.cfg");
	char *text = lab_format(lab);

	cr_assert(strstr(text, c->needle) != NULL, "saved text lacks '%s':\n%s",
	    c->needle, text);
	free(text);
	assert_fixed_point(lab, "key.cfg");
	lab_free(lab);
}

Test(lab, full_fixture_round_trips)
{
	char *path = testdata("labs/full.cfg");
	struct lab *lab = must_load(path);

	cr_assert_eq(lab->nvariants, 6);
	cr_assert_eq(lab->nworkloads, 8);
	assert_fixed_point(lab, path);
	lab_free(lab);
	free(path);
}

Test(lab, full_fixture_passes_check)
{
	char *path = testdata("labs/full.cfg"), *msgs;
	struct lab *lab = must_load(path);
	struct errlist errs;

	errlist_init(&errs);
	lab_check(lab, &errs);
	msgs = errs_text(&errs);
	cr_assert_eq(errs.n, 0, "%s", msgs);
	free(msgs);
	errlist_done(&errs);
	lab_free(lab);
	free(path);
}

Test(lab, dup_is_equal_and_shares_nothing)
{
	char *path = testdata("labs/full.cfg");
	struct lab *lab = must_load(path), *copy = lab_dup(lab);
	char *before = lab_format(lab), *after;
	struct lab_variant *v;

	cr_assert(lab_equal(lab, copy));
	after = lab_format(copy);
	cr_assert_str_eq(before, after);
	free(after);
	cr_assert_str_eq(copy->path, path);
	cr_assert_eq(lab_variant_line(&copy->variants[2], LAB_V_NAME),
	    lab_variant_line(&lab->variants[2], LAB_V_NAME));
	cr_assert_neq(lab_variant_line(&copy->variants[2], LAB_V_NAME), 0);

	/* Changing the copy, legs and log array included, leaves the
	   original as it was. */
	v = &copy->variants[3];
	cr_assert_gt(v->array.nlegs, 0, "full.cfg's 4th variant has legs");
	v->array.legs[0].chunk *= 2;
	free(v->name);
	v->name = xstrdup("renamed");
	cr_assert_not_null(copy->variants[2].fs.journal_array);
	copy->variants[2].fs.journal_array->devices.v[0][0] = 'X';
	cr_assert_not(lab_equal(lab, copy));
	after = lab_format(lab);
	cr_assert_str_eq(before, after);
	free(after);

	/* The copy outlives the original (ASan sees any shared pointer). */
	lab_free(lab);
	after = lab_format(copy);
	cr_assert(strstr(after, "renamed") != NULL);
	free(after);
	lab_free(copy);
	free(before);
	free(path);
}

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
	/* directory expansions: %u and %% only */
	{ "variants = ( { name = \"a\";\n  directory = \"/v/q-%x\"; } );\n",
	    "t.cfg:2: variants.a.directory: /v/q-%x: '%x' is not an "
	    "expansion: %u is the user's name, %% a %\n" },
	{ "variants = ( { name = \"a\"; directory = \"/v/%\"; } );\n",
	    "t.cfg:1: variants.a.directory: /v/%: a % at the end: %u is the "
	    "user's name, %% a %\n" },
	{ "defaults = {\n directory = \"/v/%U\"; };\n",
	    "t.cfg:2: defaults.directory: /v/%U: '%U' is not an expansion: "
	    "%u is the user's name, %% a %\n" },
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
	    "none, "
	    "internal\n" },
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

/* ---------------------------------------------------------------- save */

static char *
tmpdir(void)
{
	char *d = xstrdup("/tmp/raidlab-test-lab.XXXXXX");

	cr_assert_not_null(mkdtemp(d));
	return d;
}

static size_t
count_entries(const char *dir)
{
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir(dir);

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = xcalloc(1, 65536);

	cr_assert_not_null(fp);
	cr_assert(fread(buf, 1, 65535, fp) < 65535);
	fclose(fp);
	return buf;
}

static void
write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void
remove_tree(const char *dir, const char *file)
{
	char *p = xasprintf("%s/%s", dir, file);

	unlink(p);
	rmdir(dir);
	free(p);
}

Test(lab, save_replaces_the_file_and_leaves_no_temp)
{
	char *dir = tmpdir(), *path = xasprintf("%s/lab.cfg", dir), *text;
	char *fixture = testdata("labs/full.cfg"), *fmt;
	struct lab *lab = must_load(fixture), *again;
	struct err e;

	write_text(path, "old\n");
	err_clear(&e);
	cr_assert_eq(lab_save(lab, path, &e), 0, "%s", e.msg);
	cr_assert_eq(count_entries(dir), 1);
	again = must_load(path);
	cr_assert(lab_equal(lab, again));
	text = slurp(path);
	fmt = lab_format(lab);
	cr_assert_str_eq(text, fmt);
	free(fmt);
	free(text);
	lab_free(again);
	lab_free(lab);
	remove_tree(dir, "lab.cfg");
	free(fixture);
	free(path);
	free(dir);
}

Test(lab, failed_save_keeps_the_old_file)
{
	char *dir = tmpdir(), *path = xasprintf("%s/lab.cfg", dir), *text;
	char *fixture = testdata("labs/full.cfg");
	struct lab *lab = must_load(fixture);
	struct rlimit rl = { 64, 64 };
	struct err e;

	write_text(path, "name = \"old\";\n");
	/* Root ignores permissions, not the file size limit. */
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	err_clear(&e);
	cr_assert_eq(lab_save(lab, path, &e), -EFBIG);
	cr_assert_str_eq(e.file, path);
	cr_assert(strstr(e.msg, "cannot write") != NULL, "%s", e.msg);
	cr_assert_eq(count_entries(dir), 1);
	text = slurp(path);
	cr_assert_str_eq(text, "name = \"old\";\n");
	free(text);
	lab_free(lab);
	remove_tree(dir, "lab.cfg");
	free(fixture);
	free(path);
	free(dir);
}

Test(lab, save_into_unwritable_dir_fails_with_message)
{
	char *dir = tmpdir(), *path = xasprintf("%s/lab.cfg", dir), *text;
	struct lab *lab = lab_new();
	struct err e;

	if (geteuid() == 0) {
		remove_tree(dir, "lab.cfg");
		free(path);
		free(dir);
		lab_free(lab);
		cr_skip_test("root writes into read-only directories");
	}
	write_text(path, "name = \"old\";\n");
	cr_assert_eq(chmod(dir, 0555), 0);
	err_clear(&e);
	cr_assert_eq(lab_save(lab, path, &e), -EACCES);
	cr_assert(strstr(e.msg, "cannot create a temporary file") != NULL, "%s",
	    e.msg);
	chmod(dir, 0755);
	text = slurp(path);
	cr_assert_str_eq(text, "name = \"old\";\n");
	free(text);
	lab_free(lab);
	remove_tree(dir, "lab.cfg");
	free(path);
	free(dir);
}

/* ---------------------------------------------------------------- presets */

Test(lab, every_preset_loads_checks_and_round_trips)
{
	const char *d = getenv("RAIDLAB_DATADIR");
	char *dir = xasprintf("%s/labs", d != NULL ? d : "data"), *path, *msgs;
	struct errlist errs;
	struct dirent *e;
	struct lab *lab;
	size_t n = 0, len;
	DIR *dp = opendir(dir);

	cr_assert_not_null(dp, "%s", dir);
	while ((e = readdir(dp)) != NULL) {
		len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 4, ".cfg") != 0)
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		lab = must_load(path);
		errlist_init(&errs);
		lab_check(lab, &errs);
		msgs = errs_text(&errs);
		cr_assert_eq(errs.n, 0, "%s does not pass check:\n%s", path,
		    msgs);
		free(msgs);
		errlist_done(&errs);
		cr_assert_gt(lab->nvariants, 0, "%s", path);
		cr_assert_gt(lab->nworkloads, 0, "%s", path);
		assert_fixed_point(lab, path);
		lab_free(lab);
		free(path);
		n++;
	}
	closedir(dp);
	cr_assert_geq(n, 5, "only %zu presets in %s", n, dir);
	free(dir);
}

/* The user's labs: an absolute XDG_CONFIG_HOME, else ~/.config (a
   relative XDG_CONFIG_HOME is ignored, as the XDG spec says); no home,
   no directory. */
Test(lab, user_lab_dir_follows_xdg_config_home)
{
	char *d;

	setenv("HOME", "/home/ann", 1);
	setenv("XDG_CONFIG_HOME", "/tmp/cfg", 1);
	d = presets_user_dir();
	cr_assert_str_eq(d, "/tmp/cfg/raidlab/labs");
	free(d);
	setenv("XDG_CONFIG_HOME", "rel", 1);
	d = presets_user_dir();
	cr_assert_str_eq(d, "/home/ann/.config/raidlab/labs");
	free(d);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	cr_assert_null(presets_user_dir());
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

/* ---------------------------------------------------------------- names */

/* text with every "@" replaced by n bytes of c; caller frees. */
static char *
with_run(const char *text, size_t n, char c)
{
	char *run = xmalloc(n + 1), *out = xstrdup(""), *t;
	const char *p;

	memset(run, c, n);
	run[n] = '\0';
	for (p = text; *p != '\0'; p++) {
		t = *p == '@' ? xasprintf("%s%s", out, run)
			      : xasprintf("%s%c", out, *p);
		free(out);
		out = t;
	}
	free(run);
	return out;
}

/* What the loader says about text: every message, one a line. */
static char *
load_msgs(const char *text)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char *got;

	errlist_init(&errs);
	lab_load_string(text, "t.cfg", &lab, &errs);
	got = errs_text(&errs);
	lab_free(lab);
	errlist_done(&errs);
	return got;
}

/* A name becomes a file or directory name (a mount point, the results
   file, a scratch file): 64 bytes load, 65 do not, for the lab, a
   variant and a workload, each with its line and field. The issue's
   300-character variant name is refused at load, before any run. */
Test(lab, names_longer_than_64_bytes_are_refused_at_load)
{
	static const char text[] = "name = \"@\";\n"
				   "variants = ( { name = \"@\";\n"
				   "  directory = \"/tmp\"; } );\n"
				   "workloads = (\n"
				   "  { name = \"@\"; type = \"fio\"; } );\n";
	char *ok = with_run(text, 64, 'n'), *bad = with_run(text, 65, 'n');
	char *got;
	struct lab *lab = must_load_string(ok, "t.cfg");

	cr_assert_eq(strlen(lab->name), 64);
	cr_assert_eq(strlen(lab->variants[0].name), 64);
	cr_assert_eq(strlen(lab->workloads[0].name), 64);
	lab_free(lab);
	got = load_msgs(bad);
	cr_assert_str_eq(got,
	    "t.cfg:1: name: 'nnnnnnnnnnnnnnnnnnnnnnnn...' is 65 bytes long: a "
	    "name has at most 64 (it becomes part of file and directory "
	    "names)\n"
	    "t.cfg:2: variants[0].name: 'nnnnnnnnnnnnnnnnnnnnnnnn...' is 65 "
	    "bytes long: a name has at most 64 (it becomes part of file and "
	    "directory names)\n"
	    "t.cfg:5: workloads[0].name: 'nnnnnnnnnnnnnnnnnnnnnnnn...' is 65 "
	    "bytes long: a name has at most 64 (it becomes part of file and "
	    "directory names)\n");
	free(got);
	free(ok);
	free(bad);
	ok = with_run("name = \"x\";\nvariants = ( { name = \"@\"; directory "
		      "= \"/tmp\"; } );\n",
	    300, 'v');
	got = load_msgs(ok);
	cr_assert_str_eq(got,
	    "t.cfg:2: variants[0].name: 'vvvvvvvvvvvvvvvvvvvvvvvv...' is 300 "
	    "bytes long: a name has at most 64 (it becomes part of file and "
	    "directory names)\n");
	free(got);
	free(ok);
}

/* "." and ".." would be the directory itself or its parent as a mount
   point, a leading '-' reads as an option, a leading '.' hides the
   results file; a letter not in ASCII means other bytes in another
   locale. A '_' may lead, and what every shipped lab uses still loads. */
Test(lab, names_that_misbehave_as_file_names_are_refused)
{
	static const struct {
		const char *name, *want;
	} cases[] = {
		{ "..",
		    "'..' is not a valid name: it must start with a "
		    "letter, a digit or '_'" },
		{ ".",
		    "'.' is not a valid name: it must start with a letter, "
		    "a digit or '_'" },
		{ ".hidden",
		    "'.hidden' is not a valid name: it must start "
		    "with a letter, a digit or '_'" },
		{ "-v",
		    "'-v' is not a valid name: it must start with a "
		    "letter, a digit or '_'" },
		{ "caf\xc3\xa9",
		    "'caf\xc3\xa9' is not a valid name: use "
		    "letters, digits, '.', '_' and '-'" },
		{ "a/b",
		    "'a/b' is not a valid name: use letters, digits, '.', "
		    "'_' and '-'" },
		{ "",
		    "'' is not a valid name: use letters, digits, '.', '_' "
		    "and '-'" },
	};
	char *text, *got, *want;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		text = xasprintf("name = \"%s\";\n", cases[i].name);
		want = xasprintf("t.cfg:1: name: %s\n", cases[i].want);
		got = load_msgs(text);
		cr_expect_str_eq(got, want, "name %s", cases[i].name);
		free(got);
		free(want);
		free(text);
	}
	got = load_msgs("name = \"_a-1.b_\";\n");
	cr_expect_str_eq(got, "");
	free(got);
}

/* Duplicates among 20000 workloads and 20000 variants are still found,
   each with its own line and the line of the first use. (How long it
   takes is bench/lab-check.sh's business, not a unit test's.) */
Test(lab, duplicates_in_a_big_lab_are_found_with_their_lines)
{
	enum { N = 20000 };
	struct strbuf b;
	char *got;

	/* Variant i on line 3 + i, workload i on line N + 5 + i. */
	strbuf_init(&b);
	strbuf_add(&b, "name = \"big\";\nvariants = (\n");
	for (int i = 0; i < N; i++)
		strbuf_printf(&b, "{ name = \"v%d\"; directory = \"/d\"; }%s\n",
		    i == 12345       ? 7
			: i == N - 1 ? 0
				     : i,
		    i + 1 < N ? "," : "");
	strbuf_add(&b, ");\nworkloads = (\n");
	for (int i = 0; i < N; i++)
		strbuf_printf(&b, "{ name = \"w%d\"; type = \"fio\"; }%s\n",
		    i == 12345       ? 7
			: i == N - 1 ? 0
				     : i,
		    i + 1 < N ? "," : "");
	strbuf_add(&b, ");\n");
	got = load_msgs(b.s);
	cr_assert_str_eq(got,
	    "t.cfg:12348: variants[12345].name: duplicate variant name 'v7' "
	    "(first at line 10)\n"
	    "t.cfg:20002: variants[19999].name: duplicate variant name 'v0' "
	    "(first at line 3)\n"
	    "t.cfg:32350: workloads[12345].name: duplicate workload name "
	    "'w7' (first at line 20012)\n"
	    "t.cfg:40004: workloads[19999].name: duplicate workload name "
	    "'w0' (first at line 20005)\n");
	free(got);
	strbuf_done(&b);
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
