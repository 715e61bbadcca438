/*
 * Arrays in a run (labrun-build; root): the precheck refuses what the
 * guards refuse and nothing runs; the check lists what a confirmation must
 * name and touches nothing; a scratch btrfs raid1 variant is built,
 * measured, torn down and its build handed over. Part of the test-labrun
 * program (unit-labrun.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "lab/lab.h"
#include "measure/engine.h"
#include "measure/result.h"
#include "results/record.h"
#include "run/labrun.h"
#include "unit-labrun.h"

/* ---------------------------------------------------------------- arrays */

static bool
has_msg(const struct labrun_check *c, const char *part)
{
	for (size_t i = 0; i < c->nmsgs; i++)
		if (strstr(c->msgs[i].text, part) != NULL)
			return true;
	return false;
}

Test(labrun, precheck_refuses_and_nothing_runs)
{
	static const char text[] =
	    "name = \"g\";\n"
	    "variants = ( { name = \"g1\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; devices = "
	    "[\"/dev/null\", \"/dev/zero\"]; }; } );\n"
	    "workloads = ( { type = \"smallfiles\"; counts = [10]; } );\n";
	struct lab *lab = load(text);
	struct labrun_opts o = { 0 };
	struct labrun_check c;
	struct labrun_summary sum;
	struct labrun *lr;
	struct seen s;
	bool refusal = false;

	/* as another user, "building arrays needs root" comes first */
	if (geteuid() != 0) {
		lab_free(lab);
		cr_skip_test("the device guards run as root only");
	}
	cr_assert_eq(labrun_check(lab, &o, &c), -EPERM);
	cr_assert_eq(c.rc, -EPERM);
	cr_assert(has_msg(&c,
	    "test.cfg:3: variants.g1.array.devices: /dev/null: not a "
	    "block device"));
	cr_assert(has_msg(&c, "refused: nothing was changed"));
	cr_assert_not_null(strstr(c.plans, "mkfs.btrfs"), "%s", c.plans);
	cr_assert_eq(c.ndestroy, 0);
	labrun_check_done(&c);

	lr = start(lab, &o);
	drain(lr, &s, 50, NULL, NULL);
	for (size_t i = 0; i < s.nev; i++) {
		cr_assert_neq(s.ev[i].type, LABRUN_VARIANT);
		cr_assert_neq(s.ev[i].type, LABRUN_RUN);
		if (s.ev[i].type == LABRUN_ERROR &&
		    strstr(s.ev[i].text, "/dev/zero: not a block device"))
			refusal = true;
	}
	cr_assert(refusal, "the refusal is told");
	cr_assert_eq(s.nr, 0);
	labrun_summary(lr, &sum);
	cr_assert(sum.refused && sum.done);
	cr_assert_eq(sum.failed, 1);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
}

/* losetup -f --show over a new sparse file of size MiB in dir. */
static char *
new_loop(const char *dir, int i, int mib)
{
	char *cmd = xasprintf("truncate -s %dM '%s/d%d.img' && "
			      "losetup -f --show '%s/d%d.img'",
	    mib, dir, i, dir, i);
	char line[256] = "";
	FILE *p = popen(cmd, "r");

	cr_assert_not_null(p);
	if (fgets(line, sizeof line, p) == NULL)
		line[0] = '\0';
	pclose(p);
	free(cmd);
	line[strcspn(line, "\n")] = '\0';
	return strncmp(line, "/dev/loop", 9) == 0 ? xstrdup(line) : NULL;
}

static void
drop_loop(char *dev)
{
	char *cmd;

	if (dev == NULL)
		return;
	cmd = xasprintf("losetup -d %s", dev);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	free(dev);
}

Test(labrun, check_lists_what_a_confirmation_must_name)
{
	char *tmp, *a = NULL, *b = NULL, *text, *cmd;
	struct labrun_opts o = { 0 };
	struct labrun_check c, c2;
	struct lab *lab;

	if (geteuid() != 0)
		cr_skip_test("needs root for loop devices");
	if (system("command -v mkfs.ext4 >/dev/null 2>&1") != 0)
		cr_skip_test("mkfs.ext4 not installed");
	tmp = temp_dir();
	a = new_loop(tmp, 0, 64);
	b = new_loop(tmp, 1, 64);
	if (a == NULL || b == NULL) {
		drop_loop(a);
		drop_loop(b);
		rm_rf(tmp);
		free(tmp);
		cr_skip_test("no loop device available");
	}
	cmd = xasprintf("mkfs.ext4 -q -F -L lrdata %s >/dev/null 2>&1", a);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	text = xasprintf("name = \"c\";\n"
			 "variants = ( { name = \"c1\";\n"
			 "  array = { engine = \"btrfs\"; level = \"raid1\"; "
			 "devices = [\"%s\", \"%s\"]; }; } );\n"
			 "workloads = ( { type = \"smallfiles\"; } );\n",
	    a, b);
	lab = load(text);
	cr_assert_eq(labrun_check(lab, &o, &c), -EPERM);
	cr_assert_eq(c.ndestroy, 1);
	cr_assert_str_eq(c.destroy[0], a);
	cr_assert_not_null(strstr(c.destroy_text, "ext4"), "%s",
	    c.destroy_text);
	/* Confirmed as listed, the check passes and nothing was touched. */
	o.confirmed = (const char *const *)c.destroy;
	o.nconfirmed = c.ndestroy;
	cr_assert_eq(labrun_check(lab, &o, &c2), 0, "%s",
	    c2.nmsgs ? c2.msgs[0].text : "");
	cr_assert_eq(c2.ndestroy, 1);
	cmd = xasprintf("blkid -p -s LABEL -o value %s | grep -qx lrdata", a);
	cr_assert_eq(system(cmd), 0, "the data is still there");
	free(cmd);
	labrun_check_done(&c2);
	labrun_check_done(&c);
	lab_free(lab);
	drop_loop(a);
	drop_loop(b);
	rm_rf(tmp);
	free(tmp);
	free(text);
}

/* Loop devices still attached over a file of dir. */
static bool
loops_over(const char *dir)
{
	char *cmd =
	    xasprintf("losetup -n -O BACK-FILE -l | grep -qF '%s/'", dir);
	int rc = system(cmd);

	free(cmd);
	return rc == 0;
}

static const char *
build_status(const json_t *b)
{
	return json_string_value(json_object_get(b, "status"));
}

/* The build told as it went: mkfs.btrfs as a step, the scratch label as
   a note, loop devices as the members; no error. */
static void
assert_build_told(const struct seen *s)
{
	bool step = false, scratch_note = false, loops = false;

	for (size_t i = 0; i < s->nev; i++) {
		step |= s->ev[i].type == LABRUN_STEP && s->ev[i].workload < 0 &&
		    strncmp(s->ev[i].text, "mkfs.btrfs", 10) == 0;
		scratch_note |= s->ev[i].type == LABRUN_NOTE &&
		    strstr(s->ev[i].text, "lrb1: scratch:") != NULL;
		cr_assert_neq(s->ev[i].type, LABRUN_ERROR, "%s", s->ev[i].text);
	}
	cr_assert(step, "mkfs.btrfs is told as a step");
	cr_assert(scratch_note, "the scratch label is told");
	for (size_t i = 0; i < s->ndevs; i++)
		loops |= strncmp(s->devs[i], "loop", 4) == 0;
	cr_assert(loops, "the members are loop devices (%zu devices)",
	    s->ndevs);
}

/* Handed over: a snapshot once built, the run, the final build after
   teardown. */
static void
assert_build_items(const struct seen *s)
{
	const struct labrun_result *first, *run, *last;

	cr_assert_eq(s->nr, 3);
	first = s->r[0];
	run = s->r[1];
	last = s->r[2];
	cr_assert_eq(first->kind, LABRUN_ITEM_BUILD);
	cr_assert(!first->final);
	cr_assert_str_eq(build_status(first->build), "built");
	cr_assert_eq(run->kind, LABRUN_ITEM_RUN);
	cr_assert_eq(run->res->status, WL_OK);
	cr_assert_str_eq(json_string_value(
			     json_object_get(run->target, "fstype")),
	    "btrfs");
	cr_assert_eq(last->kind, LABRUN_ITEM_BUILD);
	cr_assert(last->final);
	cr_assert_eq(last->build_index, 0);
	cr_assert_str_eq(build_status(last->build), "ok");
	cr_assert_gt(json_array_size(json_object_get(last->build, "teardown")),
	    0);
}

Test(labrun, scratch_btrfs_raid1_is_built_measured_and_torn_down)
{
	char *tmp, *text, *state, *res;
	struct labrun_opts o = { .tick_ms = 50, .record = true };
	struct labrun_summary sum;
	struct record *rec;
	struct labrun *lr;
	struct lab *lab;
	struct seen s;
	json_t *builds;

	if (geteuid() != 0)
		cr_skip_test("needs root for loop devices and mounts");
	if (system("command -v mkfs.btrfs >/dev/null 2>&1") != 0)
		cr_skip_test("mkfs.btrfs not installed");
	tmp = temp_dir();
	state = xasprintf("%s/state", tmp);
	res = xasprintf("%s/res", tmp);
	o.results = res;
	setenv("RAIDLAB_STATE_DIR", state, 1);
	text = xasprintf(
	    "name = \"lrb\"; cache = \"keep\";\n"
	    "variants = ( { name = \"lrb1\"; scratch = { count = 2; "
	    "size = \"256M\"; dir = \"%s\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; }; } );\n"
	    "workloads = ( { type = \"smallfiles\"; counts = [50]; } );\n",
	    tmp);
	lab = load(text);
	lr = start(lab, &o);
	drain(lr, &s, 250, NULL, NULL);
	assert_build_told(&s);
	assert_build_items(&s);

	/* The runner's record: one build (the final one), one run. */
	rec = taken_record(lr, res);
	builds = json_object_get(rec->root, "builds");
	cr_assert_eq(json_array_size(builds), 1);
	cr_assert_str_eq(build_status(json_array_get(builds, 0)), "ok");
	cr_assert_eq(rec->nruns, 1);

	labrun_summary(lr, &sum);
	cr_assert_eq(sum.failed, 0);
	cr_assert_eq(sum.ran, 1);
	cr_assert(!loops_over(tmp), "a loop device is left");
	record_free(rec);
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(state);
	free(res);
	free(tmp);
	free(text);
}
