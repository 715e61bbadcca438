/*
 * lab_check(): every cross-field rule, as a user meets it. Each bad lab is
 * lab text written to lab.cfg in a fresh directory, loaded with lab_load()
 * (which must accept it) and checked; the check must report exactly one
 * problem, with the exact "file:line: field: reason" text. Good labs,
 * including the shipped presets, must pass untouched. Here: the rules of
 * the lab and its variants (lab-check), paths and names, and the helpers
 * of the test-lab-check program (unit-lab-check.h); the rules of an array
 * and of a filesystem are in test-lab-check-array.c and
 * test-lab-check-fs.c.
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
#include "lab/lab.h"
#include "unit-lab-check.h"
#include "unit.h"

/* Variants: their target, the roles of their devices, the sizes mkfs
   can handle (lab-check.c). */
static const struct bad_case bad[] = {
	{ "external_journal_device_is_a_member",
	    "{ name = \"e\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"ext4\";\n"
	    "    journal = { device = \"/dev/sdc\"; }; }; }",
	    "lab.cfg:7: variants.e.fs.journal.device: /dev/sdc is already used "
	    "in array.devices (line 5): a device can have only one role" },
	{ "write_journal_device_is_a_spare",
	    "{ name = \"r5\";\n"
	    "  array = { level = 5;\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"];\n"
	    "    spares = [\"/dev/sde\"];\n"
	    "    journal = \"/dev/sde\"; }; }",
	    "lab.cfg:8: variants.r5.array.journal: /dev/sde is already used in "
	    "array.spares (line 7): a device can have only one role" },
	{ "same_device_twice",
	    "{ name = \"m\";\n"
	    "  array = { level = 1;\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdb\"]; }; }",
	    "lab.cfg:6: variants.m.array.devices: /dev/sdb is already used in "
	    "array.devices (line 6): a device can have only one role" },
	{ "device_outside_dev",
	    "{ name = \"m\";\n"
	    "  array = { level = 1;\n"
	    "    devices = [\"/dev/sdb\", \"/tmp/disk.img\"]; }; }",
	    "lab.cfg:6: variants.m.array.devices: /tmp/disk.img is not a "
	    "device: give a path under /dev or scratch:N" },
	{ "scratch_7_with_count_4",
	    "{ name = \"s\";\n"
	    "  scratch = { count = 4; size = \"1G\"; };\n"
	    "  array = { level = 1;\n"
	    "    devices = [\"scratch:0\", \"scratch:7\"]; }; }",
	    "lab.cfg:7: variants.s.array.devices: scratch:7 is out of range: "
	    "scratch.count is 4 (line 5), so scratch:0 to scratch:3 exist" },
	{ "scratch_device_without_scratch_group",
	    "{ name = \"s\";\n"
	    "  array = { level = 1;\n"
	    "    devices = [\"scratch:0\", \"/dev/sdb\"]; }; }",
	    "lab.cfg:6: variants.s.array.devices: scratch:0 names a scratch "
	    "disk, but the variant has no scratch group" },
	{ "directory_and_array",
	    "{ name = \"d\";\n"
	    "  directory = \"/mnt/test\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; "
	    "}",
	    "lab.cfg:5: variants.d.directory: a variant has one target: this "
	    "directory or the array on line 6, not both" },
	{ "directory_not_absolute",
	    "{ name = \"d\"; directory = \"mnt/test\"; }",
	    "lab.cfg:4: variants.d.directory: mnt/test is not an absolute "
	    "path" },
	{ "directory_with_fs",
	    "{ name = \"d\"; directory = \"/mnt/test\";\n"
	    "  fs = { type = \"xfs\"; }; }",
	    "lab.cfg:5: variants.d.fs: a directory variant builds no "
	    "filesystem: the directory's own is tested, fs has no effect" },
	{ "no_target", "{ name = \"n\"; readahead = \"1M\"; }",
	    "lab.cfg:4: variants.n: no target: give directory (an existing "
	    "directory to test) or array (devices to build on)" },
	{ "readahead_not_a_multiple_of_512",
	    "{ name = \"r\"; directory = \"/mnt/test\";\n"
	    "  readahead = 1000; }",
	    "lab.cfg:5: variants.r.readahead: readahead must be a positive "
	    "multiple of 512 bytes (blockdev --setra counts 512-byte "
	    "sectors)" },
	{ "scheduler_not_a_kernel_name",
	    "{ name = \"q\"; array = { engine = \"single\";\n"
	    "    devices = [\"/dev/sdb\"]; };\n"
	    "  scheduler = \"Deadline IO\"; }",
	    "lab.cfg:6: variants.q.scheduler: 'Deadline IO' is not an I/O "
	    "scheduler's name (the kernel's names: none, mq-deadline, bfq, "
	    "kyber)" },
	{ "scheduler_on_a_directory_variant",
	    "{ name = \"d\"; directory = \"/mnt/test\";\n"
	    "  scheduler = \"none\"; }",
	    "lab.cfg:5: variants.d.scheduler: a directory variant builds "
	    "nothing: its members' queues are not raidlab's to set" },
	{ "nr_requests_on_a_directory_variant",
	    "{ name = \"d\"; directory = \"/mnt/test\";\n"
	    "  nr_requests = 64; }",
	    "lab.cfg:5: variants.d.nr_requests: a directory variant builds "
	    "nothing: its members' queues are not raidlab's to set" },
	{ "xfs_on_too_small_scratch_disks",
	    "{ name = \"x\";\n"
	    "  scratch = { count = 2;\n"
	    "    size = \"200M\"; };\n"
	    "  array = { level = 1; }; fs = { type = \"xfs\"; }; }",
	    "lab.cfg:6: variants.x.scratch.size: the array holds 200M on "
	    "scratch disks of 200M, but xfs needs at least 300M (xfsprogs "
	    "6.1)" },
	{ "btrfs_raid1_on_120m_scratch_disks",
	    "{ name = \"b\";\n"
	    "  scratch = { count = 2;\n"
	    "    size = \"120M\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; };\n"
	    "  fs = { type = \"btrfs\"; }; }",
	    "lab.cfg:6: variants.b.scratch.size: scratch disks of 120M are too "
	    "small for btrfs data raid1, metadata raid1: mkfs.btrfs 6.2 needs "
	    "125M per device" },
};

/* Whole labs (no PRE/POST): lab-level rules. */
static const struct bad_case bad_lab[] = {
	{ "no_variants",
	    "name = \"t\";\nworkloads = ( { type = \"fio\"; } );\n",
	    "lab.cfg: variants: the lab has no variants: add at least one "
	    "storage set-up to test" },
	{ "results_relative",
	    "name = \"t\";\nresults = \"out/res\";\n"
	    "variants = ( { name = \"d\"; directory = \"/mnt\"; } );\n",
	    "lab.cfg:2: results: out/res is neither an absolute path nor "
	    "under ~/" },
	{ "no_name",
	    "variants = ( { name = \"d\"; directory = \"/mnt\"; } );\n",
	    "lab.cfg: name: the lab has no name: add name = \"...\" (letters, "
	    "digits, '.', '_' and '-')" },
	/* a parameter bounded by another: refused before the run would */
	{ "bonnie_min_over_max",
	    "name = \"t\";\n"
	    "variants = ( { name = \"d\"; directory = \"/mnt\"; } );\n"
	    "workloads = ( { type = \"bonnie\"; max_size = \"1K\";\n"
	    "  min_size = \"8K\"; } );\n",
	    "lab.cfg:4: workloads[0].min_size: min_size = \"8K\" is more than "
	    "max_size = \"1K\"" },
	{ "bonnie_min_over_default_max",
	    "name = \"t\";\n"
	    "variants = ( { name = \"d\"; directory = \"/mnt\"; } );\n"
	    "workloads = ( { name = \"b\"; type = \"bonnie\"; min_size = "
	    "\"8K\"; } );\n",
	    "lab.cfg:3: workloads.b.min_size: min_size = \"8K\" is more than "
	    "max_size = \"0\" (its default)" },
	{ "fio_bs_over_size",
	    "name = \"t\";\n"
	    "variants = ( { name = \"d\"; directory = \"/mnt\"; } );\n"
	    "workloads = ( { type = \"fio\"; size = \"64K\";\n"
	    "  bs = \"1M\"; } );\n",
	    "lab.cfg:4: workloads[0].bs: bs = \"1M\" is more than size = "
	    "\"64K\"" },
	{ "compilebench_files_over_size",
	    "name = \"t\";\n"
	    "variants = ( { name = \"d\"; directory = \"/mnt\"; } );\n"
	    "workloads = ( { type = \"compilebench\"; files = 10;\n"
	    "  size = \"5\"; } );\n",
	    "lab.cfg:3: workloads[0].files: files = 10 is more than size = "
	    "\"5\"" },
	/* scratch disks are sparse files: they need a size, in sectors */
	{ "scratch_no_size",
	    "name = \"t\";\n"
	    "variants = ( { name = \"m\"; array = { level = 1; };\n"
	    "  scratch = { count = 2; }; } );\n",
	    "lab.cfg:3: variants.m.scratch: scratch has no size: add size = "
	    "\"1G\" (each scratch disk is a sparse file of that size)" },
	{ "scratch_size_not_sectors",
	    "name = \"t\";\n"
	    "variants = ( { name = \"m\"; array = { level = 1; };\n"
	    "  scratch = { count = 2; size = \"1000\"; }; } );\n",
	    "lab.cfg:3: variants.m.scratch.size: 1000 bytes is not a whole "
	    "number of 512-byte sectors" },
};

/* Legitimate, if unusual, set-ups: none may be refused. */
static const char *const good[] = {
	/* md allows a 2-disk RAID10 n2; ext4 on RAID0 is fine. */
	"{ name = \"r10\"; array = { level = 10; layout = \"n2\"; "
	"devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	"{ name = \"r0\"; array = { level = 0; chunk = \"64K\"; "
	"devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; fs = { type = \"ext4\"; "
	"geometry = { stride = 16; stripe_width = 32; }; }; }",
	/* RAID0 chunks need not be powers of two; RAID0 zone layouts. */
	"{ name = \"r0\"; array = { level = 0; chunk = \"12K\"; "
	"layout = \"alternate\"; devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	/* RAID6 -6 layout; write journal on RAID5 with no bitmap. */
	"{ name = \"r6\"; array = { level = 6; layout = \"left-symmetric-6\"; "
	"devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\", "
	"\"/dev/sde\"]; }; }",
	"{ name = \"r5\"; array = { level = 5; journal = \"scratch:3\"; "
	"chunk = \"256K\"; }; scratch = { count = 4; size = \"1G\"; }; }",
	/* RAID0+1 over scratch disks, xfs with an external log (scratch). */
	"{ name = \"r01\"; scratch = { count = 5; size = \"512M\"; }; "
	"array = { level = 1; legs = ( { level = 0; chunk = \"64K\"; "
	"devices = [\"scratch:0\", \"scratch:1\"]; }, { level = 0; "
	"devices = [\"scratch:2\", \"scratch:3\"]; } ); }; "
	"fs = { type = \"xfs\"; journal = { device = \"scratch:4\"; "
	"size = \"64M\"; }; geometry = { su = \"64K\"; sw = 2; }; "
	"mount_options = \"noatime\"; }; readahead = \"1M\"; }",
	/* btrfs raid10 on 2 devices: mkfs.btrfs 6.2 accepts it. */
	"{ name = \"b10\"; array = { engine = \"btrfs\"; level = \"raid10\"; "
	"metadata_profile = \"raid10\"; devices = [\"/dev/sdb\", "
	"\"/dev/sdc\"]; }; fs = { type = \"btrfs\"; }; }",
	/* btrfs single on one 110M scratch disk (mkfs minimum 109M). */
	"{ name = \"b1\"; scratch = { count = 1; size = \"110M\"; }; "
	"array = { engine = \"btrfs\"; }; }",
	/* btrfs on md, ext3 with data=journal and an external journal. */
	"{ name = \"bm\"; array = { level = 1; devices = [\"/dev/sdb\", "
	"\"/dev/sdc\"]; bitmap = { file = \"/var/tmp/bm.bitmap\"; "
	"chunk = \"64M\"; }; }; fs = { type = \"btrfs\"; }; }",
	"{ name = \"e3\"; array = { level = 1; devices = [\"/dev/sdb\", "
	"\"/dev/sdc\"]; }; fs = { type = \"ext3\"; data = \"journal\"; "
	"journal = { device = \"/dev/sdd\"; }; "
	"mount_options = \"noatime,commit=600\"; }; }",
	/* A plain directory. */
	"{ name = \"dir\"; directory = \"/srv/test\"; readahead = \"128K\"; }",
};

/*
 * Keys in defaults that do not apply to some variants are not errors
 * there: a variant cannot unset a default.
 */
static const char good_defaults[] =
    "name = \"t\";\n"
    "workloads = ( { type = \"fio\"; } );\n"
    "defaults = { scratch = { count = 4; size = \"1G\"; };\n"
    "  array = { chunk = \"64K\"; bitmap = \"internal\"; "
    "metadata = \"1.0\"; };\n"
    "  fs = { type = \"ext4\"; data = \"writeback\"; }; };\n"
    "variants = (\n"
    "  { name = \"r5\"; array = { level = 5; }; },\n"
    "  { name = \"r1\"; array = { level = 1; }; },\n"
    "  { name = \"b\"; array = { engine = \"btrfs\"; level = \"raid1\"; }; "
    "fs = { type = \"btrfs\"; }; },\n"
    "  { name = \"x\"; array = { level = 6; };\n"
    "    fs = { type = \"xfs\"; }; },\n"
    "  { name = \"d\"; directory = \"/srv/test\"; }\n"
    ");\n";

static void
free_cases(struct criterion_test_params *p)
{
	struct lab_case *v = p->params;
	size_t i;

	for (i = 0; i < p->length; i++) {
		cr_free(v[i].name);
		cr_free(v[i].text);
		cr_free(v[i].want);
	}
	cr_free(v);
}

static struct lab_case *
new_cases(size_t n)
{
	return cr_malloc(n * sizeof(struct lab_case));
}

static void
set_case(struct lab_case *c, const char *name, const char *pre,
    const char *text, const char *post, const char *want)
{
	size_t n = strlen(pre) + strlen(text) + strlen(post) + 1;

	c->name = unit_strdup(name);
	c->text = cr_malloc(n);
	snprintf(c->text, n, "%s%s%s", pre, text, post);
	c->want = unit_strdup(want);
}

/*
 * Write text to lab.cfg in a new directory (the current one for the rest
 * of this test process), load and check it; return every message, one a
 * line, or "LOAD FAILED: ..." when the loader refused the text.
 */
char *
run_check(const char *text, size_t *nmsg)
{
	char dir[] = "/tmp/raidlab-check.XXXXXX";
	char line[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 8];
	struct errlist l;
	struct lab *lab = NULL;
	char *out = calloc(1, 1);
	size_t i, len = 0;
	FILE *f;
	int rc;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
	f = fopen("lab.cfg", "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	errlist_init(&l);
	rc = lab_load("lab.cfg", &lab, &l);
	if (rc == 0)
		lab_check(lab, &l);
	for (i = 0; i < l.n; i++) {
		err_format(&l.v[i], line, sizeof line);
		out = realloc(out, len + strlen(line) + 16);
		cr_assert_not_null(out);
		len += (size_t)sprintf(out + len, "%s%s\n",
		    rc == 0 ? "" : "LOAD FAILED: ", line);
	}
	*nmsg = l.n;
	lab_free(lab);
	errlist_done(&l);
	unlink("lab.cfg");
	rmdir(dir);
	return out;
}

struct criterion_test_params
bad_cases(const struct bad_case *b, size_t nb, const struct bad_case *whole,
    size_t nw)
{
	struct lab_case *v = new_cases(nb + nw);
	size_t i;

	for (i = 0; i < nb; i++)
		set_case(&v[i], b[i].name, PRE, b[i].text, POST, b[i].want);
	for (i = 0; i < nw; i++)
		set_case(&v[nb + i], whole[i].name, "", whole[i].text, "",
		    whole[i].want);
	return cr_make_param_array(struct lab_case, v, nb + nw, free_cases);
}

void
expect_one_message(const struct lab_case *c)
{
	size_t n;
	char *got = run_check(c->text, &n);
	char *want = malloc(strlen(c->want) + 2);

	sprintf(want, "%s\n", c->want);
	cr_expect_str_eq(got, want, "%s: got\n%swant\n%s", c->name, got, want);
	cr_expect_eq(n, 1, "%s: %zu messages", c->name, n);
	free(want);
	free(got);
}

ParameterizedTestParameters(lab_check, reports_each_impossible_setup)
{
	return bad_cases(bad, sizeof bad / sizeof bad[0], bad_lab,
	    sizeof bad_lab / sizeof bad_lab[0]);
}

ParameterizedTest(struct lab_case *c, lab_check, reports_each_impossible_setup)
{
	expect_one_message(c);
}

ParameterizedTestParameters(lab_check, accepts_legitimate_setups)
{
	size_t n = sizeof good / sizeof good[0];
	struct lab_case *v = new_cases(n + 1);
	size_t i;
	char name[32];

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "good[%zu]", i);
		set_case(&v[i], name, PRE, good[i], POST, "");
	}
	set_case(&v[n], "defaults", "", good_defaults, "", "");
	return cr_make_param_array(struct lab_case, v, n + 1, free_cases);
}

ParameterizedTest(struct lab_case *c, lab_check, accepts_legitimate_setups)
{
	size_t n;
	char *got = run_check(c->text, &n);

	cr_expect_eq(n, 0, "%s: refused:\n%s", c->name, got);
	free(got);
}

/* Every shipped preset loads and passes the check. */
Test(lab_check, accepts_every_preset)
{
	const char *top = getenv("top_srcdir");
	char dir[1024], path[2048];
	struct dirent *e;
	struct errlist l;
	struct lab *lab;
	char b[2048];
	size_t i, seen = 0;
	DIR *d;

	snprintf(dir, sizeof dir, "%s/data/labs", top != NULL ? top : ".");
	d = opendir(dir);
	if (d == NULL)
		cr_skip_test("no presets at %s", dir);
	while ((e = readdir(d)) != NULL) {
		size_t k = strlen(e->d_name);

		if (k < 5 || strcmp(e->d_name + k - 4, ".cfg") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		errlist_init(&l);
		lab = NULL;
		if (lab_load(path, &lab, &l) == 0)
			lab_check(lab, &l);
		for (i = 0; i < l.n; i++)
			cr_expect_fail("%s", err_format(&l.v[i], b, sizeof b));
		lab_free(lab);
		errlist_done(&l);
		seen++;
	}
	closedir(d);
	cr_expect_gt(seen, 0, "no .cfg in %s", dir);
}

/* All problems of one lab come out in one pass. */
Test(lab_check, reports_every_problem_in_one_pass)
{
	size_t n;
	char *got = run_check(PRE
	    "{ name = \"a\"; array = { level = 6; layout = \"f2\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdb\"]; }; },\n"
	    "{ name = \"b\"; directory = \"rel\"; }" POST,
	    &n);

	cr_expect_str_eq(got,
	    "lab.cfg:5: variants.a.array.devices: /dev/sdb is already used "
	    "in array.devices (line 5): a device can have only one role\n"
	    "lab.cfg:5: variants.a.array.devices: RAID6 needs at least 4 "
	    "devices, got 2 (2 for P and Q parity plus at least 2 for data)\n"
	    "lab.cfg:4: variants.a.array.layout: f2 is a RAID10 layout "
	    "(near/far/offset copies); RAID6 takes left-symmetric, "
	    "left-asymmetric, right-symmetric, right-asymmetric, parity-first "
	    "or parity-last\n"
	    "lab.cfg:6: variants.b.directory: rel is not an absolute path\n",
	    "got\n%s", got);
	free(got);
}

/* ---------------------------------------------------------------- paths */

/* An absolute path of exactly len bytes, components of at most 200. */
static char *
path_of(size_t len)
{
	char *p = malloc(len + 1);

	cr_assert_not_null(p);
	for (size_t i = 0; i < len; i++)
		p[i] = i % 200 == 0 ? '/' : 'a';
	p[len] = '\0';
	return p;
}

/* text with its "@" replaced by path; caller frees. */
static char *
lab_with(const char *text, const char *path)
{
	const char *at = strchr(text, '@');
	size_t n = strlen(text) + strlen(path);
	char *out = malloc(n);

	cr_assert_not_null(at);
	cr_assert_not_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, path, at + 1);
	return out;
}

/* The messages for text with path in it, or "" when it passes. */
static char *
check_with(const char *text, const char *path)
{
	char *lab = lab_with(text, path), *got;
	size_t n;

	got = run_check(lab, &n);
	free(lab);
	return got;
}

/* A directory raidlab makes files in (directory, scratch.dir, results)
   leaves room for a file name under PATH_MAX; a bitmap file may use all
   of PATH_MAX - 1; no component is longer than NAME_MAX. A run would
   fail at mkdir or open only after wiping the members. */
Test(lab_check, paths_longer_than_the_system_takes_are_refused)
{
	static const char dir[] = "name = \"t\";\n"
				  "variants = ( { name = \"d\";\n"
				  "  directory = \"@\"; } );\n";
	static const char scratch[] =
	    "name = \"t\";\n"
	    "variants = ( { name = \"m\"; array = { level = 1; };\n"
	    "  scratch = { count = 2; size = \"1G\"; dir = \"@\"; }; } );\n";
	static const char bitmap[] =
	    "name = \"t\";\n"
	    "variants = ( { name = \"m\"; scratch = { count = 2; size = "
	    "\"1G\"; };\n"
	    "  array = { level = 1; bitmap = { file = \"@\"; }; }; } );\n";
	static const char results[] =
	    "name = \"t\";\nresults = \"@\";\n"
	    "variants = ( { name = \"d\"; directory = \"/mnt\"; } );\n";
	char *p, *got, name[300], comp[256];

	p = path_of(3839);
	got = check_with(dir, p);
	cr_expect_str_eq(got, "");
	free(got);
	free(p);
	p = path_of(3840);
	got = check_with(dir, p);
	cr_expect_str_eq(got,
	    "lab.cfg:3: variants.d.directory: the path is 3840 bytes long: a "
	    "directory raidlab makes files in has at most 3839 (PATH_MAX is "
	    "4096, less room for a file name)\n");
	free(got);
	got = check_with(results, p);
	cr_expect_str_eq(got,
	    "lab.cfg:2: results: the path is 3840 bytes long: a directory "
	    "raidlab makes files in has at most 3839 (PATH_MAX is 4096, less "
	    "room for a file name)\n");
	free(got);
	free(p);

	memset(comp, 'c', sizeof comp);
	snprintf(name, sizeof name, "/var/tmp/%.255s", comp);
	got = check_with(scratch, name);
	cr_expect_str_eq(got, "");
	free(got);
	snprintf(name, sizeof name, "/var/tmp/%.256s/x", comp);
	got = check_with(scratch, name);
	cr_expect_str_eq(got,
	    "lab.cfg:3: variants.m.scratch.dir: 'cccccccccccccccccccccccc...' "
	    "is a path component of 256 bytes: a file or directory name has "
	    "at most 255 (NAME_MAX)\n");
	free(got);

	p = path_of(4095);
	got = check_with(bitmap, p);
	cr_expect_str_eq(got, "");
	free(got);
	free(p);
	p = path_of(4096);
	got = check_with(bitmap, p);
	cr_expect_str_eq(got,
	    "lab.cfg:3: variants.m.array.bitmap.file: the path is 4096 bytes "
	    "long: at most 4095 (PATH_MAX is 4096)\n");
	free(got);
	free(p);
}

/* ---------------------------------------------------------------- names */

/* Names made equal after the load (as an editor can) among 20000
   variants and workloads: each duplicate with the line of the first. */
Test(lab_check, duplicates_in_a_big_lab_are_found_with_their_lines)
{
	enum { N = 20000 };
	char line[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 8];
	char dir[] = "/tmp/raidlab-check.XXXXXX";
	struct errlist l;
	struct lab *lab = NULL;
	char *text, *got = calloc(1, 1);
	size_t cap = (size_t)N * 100 + 100, len = 0;
	FILE *f;

	/* Variant i on line 3 + i, workload i on line N + 5 + i. */
	text = malloc(cap);
	cr_assert_not_null(text);
	len += (size_t)sprintf(text, "name = \"big\";\nvariants = (\n");
	for (int i = 0; i < N; i++)
		len += (size_t)sprintf(text + len,
		    "{ name = \"v%d\"; directory = \"/d\"; }%s\n", i,
		    i + 1 < N ? "," : "");
	len += (size_t)sprintf(text + len, ");\nworkloads = (\n");
	for (int i = 0; i < N; i++)
		len += (size_t)sprintf(text + len,
		    "{ name = \"w%d\"; type = \"fio\"; }%s\n", i,
		    i + 1 < N ? "," : "");
	sprintf(text + len, ");\n");
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
	f = fopen("big.cfg", "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	free(text);
	errlist_init(&l);
	cr_assert_eq(lab_load("big.cfg", &lab, &l), 0);
	unlink("big.cfg");
	rmdir(dir);
	free(lab->variants[12345].name);
	lab->variants[12345].name = strdup("v7");
	free(lab->workloads[N - 1].name);
	lab->workloads[N - 1].name = strdup("w0");
	cr_assert_lt(lab_check(lab, &l), 0);
	errlist_sort(&l);
	for (size_t i = 0; i < l.n; i++) {
		err_format(&l.v[i], line, sizeof line);
		got = realloc(got, strlen(got) + strlen(line) + 2);
		cr_assert_not_null(got);
		strcat(strcat(got, line), "\n");
	}
	cr_expect_str_eq(got,
	    "big.cfg:12348: variants.v7.name: variant name v7 is already used "
	    "on line 10\n"
	    "big.cfg:40004: workloads.w0.name: workload name w0 is already "
	    "used on line 20005\n");
	free(got);
	lab_free(lab);
	errlist_done(&l);
}
