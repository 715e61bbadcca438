/*
 * --scale, --set and --disk on a loaded lab (src/lab/lab-scale.c): what the
 * values become, the floors, the messages for bad input, and that the
 * scaled lab is still a valid lab that saves and loads back as it is.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "lab/lab-scale.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "measure/workload.h"

static const char *const LAB_TEXT =
    "name = \"t\";\n"
    "repeats = 10;\n"
    "cache = \"keep\";\n"
    "defaults = { scratch = { count = 4; size = \"1G\"; };\n"
    "  array = { level = \"5\";\n"
    "    devices = [ \"scratch:0\", \"scratch:1\", \"scratch:2\","
    " \"scratch:3\" ]; };\n"
    "  fs = { type = \"ext4\"; }; };\n"
    "variants = ( { name = \"a\"; },\n"
    "  { name = \"b\"; array = { level = \"1\";\n"
    "      devices = [ \"scratch:0\", \"scratch:1\" ]; };\n"
    "    fs = { type = \"xfs\"; journal = { device = \"scratch:3\"; "
    "size = \"64M\"; }; }; } );\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; counts = [1000, 10000];"
    " dirs = 10; },\n"
    "  { name = \"big\"; type = \"bonnie\"; size = \"2G\"; files = 16;"
    " ram = \"1G\"; },\n"
    "  { name = \"tree\"; type = \"untar\"; synthetic_files = 20000;"
    " synthetic_size = \"240M\"; },\n"
    "  { name = \"cb\"; type = \"compilebench\"; initial = 10; runs = 0; },\n"
    "  { name = \"io\"; type = \"fio\"; size = \"1G\"; bs = \"1M\";"
    " runtime = 30; }\n"
    ");\n";

static struct lab *
load(void)
{
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(LAB_TEXT, "t.cfg", &lab, &errs), 0);
	errlist_done(&errs);
	return lab;
}

static const struct param_value *
val(const struct lab *lab, size_t w, const char *name)
{
	return lab_workload_param(&lab->workloads[w], name);
}

/* Apply s to the test lab and check it; the errors' text, joined. */
static int
apply(struct lab *lab, struct lab_scale *s, char *msgs, size_t len)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct errlist errs;
	int rc;

	errlist_init(&errs);
	rc = lab_scale_apply(lab, s, &errs);
	if (rc == 0)
		rc = lab_check(lab, &errs);
	msgs[0] = '\0';
	for (size_t i = 0; i < errs.n; i++) {
		strncat(msgs, err_format(&errs.v[i], b, sizeof b),
		    len - strlen(msgs) - 2);
		strcat(msgs, "\n");
	}
	errlist_done(&errs);
	return rc;
}

Test(lab_scale, scales_sizes_counts_and_repeats_with_floors)
{
	struct lab *lab = load();
	struct lab_scale s;
	char msgs[2048];

	lab_scale_init(&s);
	cr_assert_eq(lab_scale_parse_fraction(&s, "0.01", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), 0, "%s", msgs);
	cr_assert_eq(lab->repeats, 3, "10 x 0.01, but 3 at least");
	/* 1000 x 0.01 = 10 (the floor), 10000 x 0.01 = 100 */
	cr_assert_eq(val(lab, 0, "counts")->nlist, 2);
	cr_assert_eq(val(lab, 0, "counts")->list[0], 10);
	cr_assert_eq(val(lab, 0, "counts")->list[1], 100);
	cr_assert_eq(val(lab, 0, "dirs")->i, 10, "shapes stay");
	cr_assert_not(val(lab, 0, "count")->set, "counts given: count stays");
	/* 2G x 0.01 in whole 8K chunks; 16 x 0.01 -> the floor, 1 */
	cr_assert_eq(val(lab, 1, "size")->size,
	    (uint64_t)(2147483648.0 * 0.01) / 8192 * 8192);
	cr_assert_eq(val(lab, 1, "files")->i, 1);
	cr_assert_eq(val(lab, 1, "ram")->size, 1u << 30, "ram is no size");
	cr_assert_eq(val(lab, 2, "synthetic_files")->i, 200);
	cr_assert_eq(val(lab, 2, "synthetic_size")->size,
	    (uint64_t)(240.0 * 1048576 * 0.01) / 4096 * 4096);
	cr_assert_eq(val(lab, 3, "initial")->i, 1);
	cr_assert_eq(val(lab, 3, "runs")->i, 0, "0 means none: kept");
	cr_assert_eq(val(lab, 4, "size")->size,
	    (uint64_t)(1073741824.0 * 0.01) / 4096 * 4096);
	cr_assert_eq(val(lab, 4, "bs")->size, 1u << 20);
	cr_assert_eq(val(lab, 4, "runtime")->i, 1, "30 s x 0.01: floor 1");
	cr_assert_str_eq(s.changes[0], "repeats: 10 -> 3");
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, keeps_a_bound_that_scaling_would_break)
{
	struct lab *lab = load();
	struct lab_scale s;
	char msgs[2048];

	/* fio bs 1M <= size: 1G x 0.0001 is 104K, so size goes back to 1M */
	lab_scale_init(&s);
	cr_assert_eq(lab_scale_parse_fraction(&s, "0.0001", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), 0, "%s", msgs);
	cr_assert_eq(val(lab, 4, "size")->size, 1u << 20);
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, scaled_lab_saves_and_loads_back_equal)
{
	struct lab *lab = load(), *back = NULL;
	struct errlist errs;
	struct lab_scale s;
	char msgs[2048], *text;

	lab_scale_init(&s);
	cr_assert_eq(lab_scale_parse_fraction(&s, "0.05", NULL), 0);
	cr_assert_eq(lab_scale_add_set(&s, "small.count=7", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=/dev/vdb", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:1=/dev/vdc", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:2=/dev/vdd", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:3=/dev/vde", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), 0, "%s", msgs);
	text = lab_format(lab);
	errlist_init(&errs);
	cr_assert_eq(lab_load_string(text, "again.cfg", &back, &errs), 0, "%s",
	    text);
	cr_assert(lab_equal(lab, back), "%s", text);
	errlist_done(&errs);
	free(text);
	lab_free(back);
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, set_replaces_the_key_it_conflicts_with)
{
	struct lab *lab = load();
	struct lab_scale s;
	char msgs[2048];

	lab_scale_init(&s);
	cr_assert_eq(lab_scale_add_set(&s, "small.count=7", NULL), 0);
	cr_assert_eq(lab_scale_add_set(&s, "big.size=64M", NULL), 0);
	cr_assert_eq(lab_scale_add_set(&s, "io.rw=randwrite", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), 0, "%s", msgs);
	cr_assert_eq(val(lab, 0, "count")->i, 7);
	cr_assert(val(lab, 0, "count")->set);
	cr_assert_not(val(lab, 0, "counts")->set);
	cr_assert_eq(val(lab, 1, "size")->size, 64u << 20);
	cr_assert_eq(val(lab, 1, "files")->i, 16, "the rest stays as it was");
	cr_assert_str_eq(s.changes[0], "workloads.small.count: 1000 -> 7");
	lab_scale_done(&s);
	lab_free(lab);
}

struct bad_set {
	const char *arg, *msg;
};

Test(lab_scale, set_refuses_bad_values_naming_option_and_key)
{
	static const struct bad_set cases[] = {
		{ "small.count=abc",
		    "--set: small.count: expected an integer" },
		{ "small.count=0", "--set: small.count: 0 is out of range" },
		{ "big.sise=1M",
		    "--set: big.sise: unknown key; did you mean "
		    "'size'?" },
		{ "big.size=lots", "--set: big.size: 'lots' is not a size" },
		{ "nope.size=1M", "the lab has no workload named nope" },
		/* not cut to 32 bits (4294967297 was 1) */
		{ "small.count=4294967297",
		    "--set: small.count: 4294967297 is out of range" },
		{ "small.count=-4294967297",
		    "--set: small.count: -4294967297 is out of range" },
		{ "io.runtime=0x100000001",
		    "--set: io.runtime: 4294967297 is out of range" },
		{ "small.count=18446744073709551617",
		    "--set: small.count=18446744073709551617: the number is "
		    "too large" },
		/* text after the value: not half applied */
		{ "small.count=10; dirs = 3",
		    "--set: small.count=10; dirs = 3: text after the value" },
		{ "small.count=10 /* x */",
		    "--set: small.count=10 /* x */: text after the value" },
		{ "small.counts=[10, 20]; dirs = 1",
		    "--set: small.counts=[10, 20]; dirs = 1: text after the "
		    "value" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct lab *lab = load();
		struct lab_scale s;
		char msgs[2048];

		lab_scale_init(&s);
		cr_assert_eq(lab_scale_add_set(&s, cases[i].arg, NULL), 0);
		cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), -EINVAL, "%s",
		    cases[i].arg);
		cr_assert(strstr(msgs, cases[i].msg) != NULL, "%s: %s",
		    cases[i].arg, msgs);
		lab_scale_done(&s);
		lab_free(lab);
	}
}

Test(lab_scale, option_syntax_is_checked)
{
	struct lab_scale s;
	struct err e;

	lab_scale_init(&s);
	cr_assert_eq(lab_scale_parse_fraction(&s, "0", &e), -EINVAL);
	cr_assert_str_eq(e.field, "--scale");
	cr_assert_eq(lab_scale_parse_fraction(&s, "1.5", &e), -EINVAL);
	cr_assert_eq(lab_scale_parse_fraction(&s, "x", &e), -EINVAL);
	cr_assert_eq(lab_scale_parse_fraction(&s, "1", &e), 0);
	cr_assert_eq(lab_scale_add_set(&s, "count=5", &e), -EINVAL);
	cr_assert_str_eq(e.field, "--set");
	cr_assert_eq(lab_scale_add_set(&s, "small.count=", &e), -EINVAL);
	cr_assert_eq(lab_scale_add_disk(&s, "0=/dev/sdb", &e), -EINVAL);
	cr_assert_str_eq(e.field, "--disk");
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=sdb", &e), -EINVAL);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=/dev/sdb", &e), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=/dev/sdc", &e), -EINVAL);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:1=/dev/sdb", &e), -EINVAL);
	lab_scale_done(&s);
}

Test(lab_scale, disks_replace_every_scratch_name)
{
	struct lab *lab = load();
	struct lab_scale s;
	char msgs[2048];

	lab_scale_init(&s);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=/dev/vdb", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:1=/dev/vdc", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:2=/dev/vdd", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:3=/dev/vde", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), 0, "%s", msgs);
	for (size_t i = 0; i < lab->nvariants; i++) {
		cr_assert_not(
		    lab_variant_isset(&lab->variants[i], LAB_V_SCRATCH));
		cr_assert_eq(lab->variants[i].scratch_count, 0);
	}
	cr_assert_str_eq(lab->variants[0].array.devices.v[3], "/dev/vde");
	cr_assert_str_eq(lab->variants[1].array.devices.v[1], "/dev/vdc");
	cr_assert_str_eq(lab->variants[1].fs.journal_device, "/dev/vde");
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, disks_must_cover_every_scratch_disk_used)
{
	struct lab *lab = load();
	struct lab_scale s;
	char msgs[2048];

	lab_scale_init(&s);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=/dev/vdb", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), -EINVAL);
	cr_assert(strstr(msgs,
		      "--disk: variants.a: uses scratch:1, which "
		      "no --disk gives") != NULL,
	    "%s", msgs);
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, disks_leave_a_variant_on_hosts_to_its_hosts)
{
	struct errlist errs;
	struct lab *lab = NULL;
	struct lab_scale s;
	char msgs[2048];

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(
			 "name = \"h\";\n"
			 "hosts = ( { name = \"a\"; address = \"127.0.0.2\";\n"
			 "  disks = [ \"scratch:0=/dev/vdb\" ]; } );\n"
			 "defaults = { scratch = { count = 1; size = \"1G\"; "
			 "};\n"
			 "  array = { engine = \"single\"; }; fs = { type = "
			 "\"ext4\"; }; };\n"
			 "variants = ( { name = \"here\"; },\n"
			 "  { name = \"there\"; hosts = \"a\"; } );\n",
			 "h.cfg", &lab, &errs),
	    0);
	errlist_done(&errs);
	lab_scale_init(&s);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=/dev/sdz", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), 0, "%s", msgs);
	cr_assert_str_eq(lab->variants[0].array.devices.v[0], "/dev/sdz");
	cr_assert_eq(lab->variants[1].scratch_count, 1);
	cr_assert_eq(lab->variants[1].array.devices.n, 0);
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, set_keeps_a_64_bit_number_whole)
{
	struct lab *lab = load();
	struct lab_scale s;
	char msgs[2048];

	lab_scale_init(&s);
	cr_assert_eq(lab_scale_add_set(&s, "big.size=4294967296", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), 0, "%s", msgs);
	cr_assert_eq(val(lab, 1, "size")->size, UINT64_C(4294967296));
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, a_disk_no_variant_uses_is_refused)
{
	struct lab *lab = load();
	struct lab_scale s;
	char msgs[2048];

	lab_scale_init(&s);
	for (int i = 0; i < 4; i++) {
		char arg[64];

		snprintf(arg, sizeof arg, "scratch:%d=/dev/vd%c", i, 'b' + i);
		cr_assert_eq(lab_scale_add_disk(&s, arg, NULL), 0);
	}
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:9=/dev/vdz", NULL), 0);
	cr_assert_eq(apply(lab, &s, msgs, sizeof msgs), -EINVAL);
	cr_assert(strstr(msgs,
		      "--disk: scratch:9=/dev/vdz: no variant of t.cfg uses "
		      "scratch:9 (it uses scratch:0, scratch:1, scratch:2, "
		      "scratch:3)") != NULL,
	    "%s", msgs);
	lab_scale_done(&s);
	lab_free(lab);
}

Test(lab_scale, every_rule_names_a_size_or_count_of_its_workload)
{
	for (const struct lab_scale_rule *r = lab_scale_rules; r->type; r++) {
		const struct workload *wl = workload_find(r->type);
		const struct param *p;

		cr_assert_not_null(wl, "%s", r->type);
		p = param_find(wl->params, r->param);
		cr_assert_not_null(p, "%s.%s", r->type, r->param);
		cr_assert(p->kind == PARAM_INT || p->kind == PARAM_SIZE ||
			p->kind == PARAM_INT_LIST,
		    "%s.%s", r->type, r->param);
		cr_assert_geq(r->floor, p->min, "%s.%s", r->type, r->param);
	}
}

Test(lab_scale, describes_what_was_asked_in_order)
{
	struct lab_scale s;
	char *d;

	lab_scale_init(&s);
	cr_assert_null(lab_scale_describe(&s));
	cr_assert_eq(lab_scale_parse_fraction(&s, "0.05", NULL), 0);
	cr_assert_eq(lab_scale_add_set(&s, "small.count=7", NULL), 0);
	cr_assert_eq(lab_scale_add_disk(&s, "scratch:0=/dev/vdb", NULL), 0);
	d = lab_scale_describe(&s);
	cr_assert_str_eq(d,
	    "--scale 0.05 --set small.count=7 --disk scratch:0=/dev/vdb");
	free(d);
	lab_scale_done(&s);
}

/* A verdict needs an interval, which needs 3 repeats: --scale leaves no
   fewer, keeps a range's goal, and leaves a lab with fewer as it is. */
Test(lab_scale, repeats_keep_a_verdict)
{
	static const char *const texts[] = {
		"repeats = 5;",
		"repeats = { min = 3; max = 5; ci = \"5%\"; };",
		"repeats = 2;",
	};

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		char buf[512];
		struct errlist errs;
		struct lab *lab = NULL;
		struct lab_scale s;
		int64_t before;
		int32_t ci;

		snprintf(buf, sizeof buf,
		    "name = \"r\"; %s\n"
		    "variants = ( { name = \"d\"; directory = \"/tmp/x\"; } "
		    ");\n"
		    "workloads = ( { type = \"smallfiles\"; count = 100; } "
		    ");\n",
		    texts[i]);
		errlist_init(&errs);
		cr_assert_eq(lab_load_string(buf, "r.cfg", &lab, &errs), 0,
		    "%s", buf);
		before = lab->repeats;
		ci = lab->repeats_ci;
		lab_scale_init(&s);
		cr_assert_eq(lab_scale_parse_fraction(&s, "0.0001", NULL), 0);
		cr_assert_eq(lab_scale_apply(lab, &s, &errs), 0);
		cr_assert_eq(lab->repeats, before < 3 ? before : 3, "%s",
		    texts[i]);
		cr_assert_eq(lab->repeats_ci, ci,
		    "%s: the range keeps its goal", texts[i]);
		lab_scale_done(&s);
		errlist_done(&errs);
		lab_free(lab);
	}
}
