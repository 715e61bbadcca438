/*
 * The lab model's keys: every key survives save and load (a fixed
 * point), the full fixture round trips and passes the check, a copy is
 * equal and shares nothing; every preset loads, checks and round trips.
 * The helpers of the test-lab program (unit-lab.h) live here; loading,
 * saving and names are in test-lab-load.c, test-lab-save.c and
 * test-lab-name.c.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "unit-lab.h"
#include "unit.h"

struct lab *
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

struct lab *
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
void
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

char *
testdata(const char *rel)
{
	const char *d = getenv("TESTDATA");

	return xasprintf("%s/%s", d != NULL ? d : "tests/data", rel);
}

char *
tmpdir(void)
{
	char *d = xstrdup("/tmp/raidlab-test-lab.XXXXXX");

	cr_assert_not_null(mkdtemp(d));
	return d;
}

void
write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

void
remove_tree(const char *dir, const char *file)
{
	char *p = xasprintf("%s/%s", dir, file);

	unlink(p);
	rmdir(dir);
	free(p);
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
	{ VARIANT, "scheduler = \"mq-deadline\";",
	    "scheduler = \"mq-deadline\";" },
	{ VARIANT, "nr_requests = 64;", "nr_requests = 64;" },
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
	{ DEFAULTS, "scheduler = \"bfq\";", "scheduler = \"bfq\";" },
	{ DEFAULTS, "nr_requests = 256;", "nr_requests = 256;" },
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
