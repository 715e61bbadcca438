/*
 * A fault phase told by the runner (labrun-phase.c): the line a front
 * end shows, exactly, at the widths of a terminal, an 80-column one and
 * narrow ones, and never wider than asked; and a run of a btrfs raid1
 * measured degraded (root: loop devices, mkfs.btrfs) tells its phase
 * once, before its workloads, with the member it failed, and nothing for
 * the healthy variant beside it. md's rebuild read from sysfs is
 * test-mdsys.c's. Part of the test-labrun program (unit-labrun.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "build/provision.h"
#include "disk/disk-table.h"
#include "lab/lab.h"
#include "run/labrun.h"
#include "unit-labrun.h"

/* ---------------------------------------------------------------- line */

/* "·" is one column in a UTF-8 locale, as on the user's terminal. */
static void
utf8(void)
{
	cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
}

TestSuite(phase_line, .init = utf8);

/* md rebuilding onto /dev/loop5, 43% of the way at 12.3 MB/s. */
static struct prov_progress
rebuilding(void)
{
	struct prov_progress pr = {
		.phase = "rebuild",
		.dev = "/dev/md/rl-x",
		.failed = "/dev/loop5",
		.nfailed = 1,
		.nmembers = 4,
		.watched = true,
		.action = "recover",
		.done = 258000000, /* 43% */
		.total = 600000000,
		.rate = 12300000, /* the rest in 27.8 s */
		.elapsed = 21,
	};

	return pr;
}

static struct prov_progress
degraded(void)
{
	struct prov_progress pr = {
		.phase = "degraded",
		.dev = "/dev/md/rl-x",
		.failed = "/dev/loop5",
		.nfailed = 1,
		.nmembers = 4,
	};

	return pr;
}

static struct prov_progress
rebuilt(void)
{
	struct prov_progress pr = rebuilding();

	pr.finished = true;
	pr.elapsed = 49.2;
	return pr;
}

static const char *
line_of(const struct prov_progress *pr, int width, bool ascii)
{
	static char b[512];

	labrun_phase_line(pr, width, ascii, b, sizeof b);
	return b;
}

Test(phase_line, a_rebuild_keeps_its_percent_and_eta_as_it_narrows)
{
	struct prov_progress pr = rebuilding();

	cr_expect_str_eq(line_of(&pr, 0, false),
	    "phase rebuild · /dev/md/rl-x · failed /dev/loop5 · recover 43% "
	    "· 12.3 MB/s · 0:21 elapsed · ETA 0:28");
	cr_expect_str_eq(line_of(&pr, 80, false),
	    "phase rebuild · failed /dev/loop5 · recover 43% · 12.3 MB/s · "
	    "ETA 0:28");
	cr_expect_str_eq(line_of(&pr, 50, false),
	    "phase rebuild · recover 43% · 12.3 MB/s · ETA 0:28");
	cr_expect_str_eq(line_of(&pr, 30, false), "recover 43% · ETA 0:28");
	cr_expect_str_eq(line_of(&pr, 80, true),
	    "phase rebuild - failed /dev/loop5 - recover 43% - 12.3 MB/s - "
	    "ETA 0:28");
}

Test(phase_line, a_degraded_array_says_how_many_members_it_lost)
{
	struct prov_progress pr = degraded();

	cr_expect_str_eq(line_of(&pr, 80, false),
	    "phase degraded (1 of 4 members failed) · /dev/md/rl-x · failed "
	    "/dev/loop5");
	cr_expect_str_eq(line_of(&pr, 50, false),
	    "phase degraded (1 of 4 members failed)");
	cr_expect_str_eq(line_of(&pr, 30, false), "degraded, 1 of 4 failed");
}

Test(phase_line, a_finished_rebuild_says_how_long_it_took)
{
	struct prov_progress pr = rebuilt();

	cr_expect_str_eq(line_of(&pr, 80, false),
	    "rebuild done in 0:49 · /dev/md/rl-x · failed /dev/loop5");
	cr_expect_str_eq(line_of(&pr, 50, false),
	    "rebuild done in 0:49 · failed /dev/loop5");
	cr_expect_str_eq(line_of(&pr, 30, false), "rebuild done in 0:49");
}

/* Before md says what it does, and before it knows how much: the head
   stays, since nothing else names the phase. */
Test(phase_line, a_rebuild_not_seen_yet_keeps_its_name)
{
	struct prov_progress pr = rebuilding();

	pr.action[0] = '\0';
	pr.done = pr.total = pr.rate = 0;
	cr_expect_str_eq(line_of(&pr, 30, false), "rebuild · not started yet");
}

Test(phase_line, never_wider_than_asked)
{
	struct prov_progress v[] = { rebuilding(), degraded(), rebuilt() };

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		for (int w = 1; w <= 120; w++) {
			const char *l = line_of(&v[i], w, false);

			cr_expect_leq(disk_table_width(l), (size_t)w,
			    "%zu at %d: \"%s\"", i, w, l);
			cr_expect_neq(l[0], '\0', "%zu at %d: empty", i, w);
		}
}

/* ---------------------------------------------------------------- run */

static bool
loops_left(const char *dir)
{
	char *cmd =
	    xasprintf("losetup -n -O BACK-FILE -l | grep -qF '%s/'", dir);
	bool left = system(cmd) == 0;

	free(cmd);
	return left;
}

/* The last member path of variant vi's build, as its plan lists them. */
static const char *
last_member(const struct seen *s, int vi)
{
	const char *last = NULL;

	for (size_t i = 0; i < s->nr; i++) {
		json_t *devs, *d;
		size_t k;

		if (s->r[i]->kind != LABRUN_ITEM_BUILD ||
		    s->r[i]->variant != vi)
			continue;
		devs = json_object_get(json_object_get(s->r[i]->build, "plan"),
		    "devices");
		json_array_foreach(devs, k,
		    d) if (strcmp(json_string_value(json_object_get(d, "role")),
			       "member") == 0) last =
		    json_string_value(json_object_get(d, "path"));
	}
	return last;
}

Test(labrun, a_degraded_variant_tells_its_phase_before_its_workloads)
{
	struct labrun_opts o = { .tick_ms = 50 };
	const struct labrun_event *ph = NULL;
	char *tmp, *text, *state;
	struct labrun *lr;
	struct lab *lab;
	struct seen s;
	size_t nph = 0, run = 0;

	if (geteuid() != 0)
		cr_skip_test("needs root for loop devices and mounts");
	if (system("command -v mkfs.btrfs >/dev/null 2>&1") != 0)
		cr_skip_test("mkfs.btrfs not installed");
	tmp = temp_dir();
	state = xasprintf("%s/state", tmp);
	setenv("RAIDLAB_STATE_DIR", state, 1);
	text = xasprintf("name = \"lrp\"; cache = \"keep\";\n"
			 "defaults = { scratch = { count = 2; size = \"256M\"; "
			 "dir = \"%s\"; }; };\n"
			 "variants = (\n"
			 "  { name = \"ok\"; array = { engine = \"btrfs\"; "
			 "level = \"raid1\"; }; },\n"
			 "  { name = \"deg\"; array = { engine = \"btrfs\"; "
			 "level = \"raid1\"; phase = \"degraded\"; }; } );\n"
			 "workloads = ( { type = \"smallfiles\"; counts = "
			 "[50]; } );\n",
	    tmp);
	lab = load(text);
	lr = start(lab, &o);
	drain(lr, &s, 250, NULL, NULL);
	for (size_t i = 0; i < s.nev; i++) {
		if (s.ev[i].type == LABRUN_RUN && s.ev[i].variant == 1 &&
		    run == 0)
			run = i;
		if (s.ev[i].type != LABRUN_PHASE)
			continue;
		cr_expect_eq(s.ev[i].variant, 1, "a phase told for variant %d",
		    s.ev[i].variant);
		ph = &s.ev[i];
		nph++;
		cr_expect(run == 0, "told after the workloads started");
	}
	cr_assert_eq(nph, 1, "%zu phase events", nph);
	cr_expect_str_eq(ph->phase.phase, "degraded");
	cr_expect_not(ph->phase.watched);
	cr_expect_eq(ph->phase.nfailed, 1);
	cr_expect_eq(ph->phase.nmembers, 2);
	cr_assert_not_null(last_member(&s, 1));
	cr_expect_str_eq(ph->phase.failed, last_member(&s, 1));
	cr_expect_str_eq(ph->phase.dev, "");
	cr_expect_gt(run, 0, "the degraded variant's workload never started");
	cr_expect(!loops_left(tmp), "a loop device is left");
	seen_done(&s);
	labrun_free(lr);
	lab_free(lab);
	rm_rf(tmp);
	free(state);
	free(tmp);
	free(text);
}
