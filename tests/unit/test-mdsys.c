/*
 * mdsys against a sysfs tree of the test's own (the host has no md; the
 * real /sys/block/mdN is exercised in the VM test, tests/system/md-vm.sh):
 * the facts raidlab records, the resync wait with its progress and stop,
 * and the kernel name behind /dev/md/NAME; and mdtools: mdadm's version,
 * the lockless bitmap found, and the arrays this machine's md refuses;
 * and mdwatch following a rebuild, read while it runs, as the phase the
 * runner tells (provision-phase.c).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "build/mdsys.h"
#include "build/mdtools.h"
#include "build/mdwatch.h"
#include "build/plan.h"
#include "build/provision.h"
#include "lab/lab.h"
#include "run/labrun.h"

static char root[PATH_MAX];

static void
put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", root, rel);
	f = fopen(p, "w");
	cr_assert_not_null(f, "%s", p);
	fputs(text, f);
	fclose(f);
}

static void
setup(void)
{
	char d[PATH_MAX * 2];

	snprintf(root, sizeof root, "/tmp/raidlab-mdsys.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(d, sizeof d, "%s/block", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127/md", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127/md/bitmap", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/block/md127/queue", root);
	mkdir(d, 0755);
	put("block/md127/md/level", "raid10\n");
	put("block/md127/md/layout", "513\n");
	put("block/md127/md/chunk_size", "65536\n");
	put("block/md127/md/raid_disks", "4\n");
	put("block/md127/md/bitmap/location", "+8\n");
	put("block/md127/queue/optimal_io_size", "262144\n");
	put("block/md127/md/sync_action", "resync\n");
	put("block/md127/md/sync_completed", "1024 / 4096\n");
}

static void
teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(mdsys, .init = setup, .fini = teardown);

Test(mdsys, facts_are_the_sysfs_text)
{
	json_t *f = mdsys_facts(root, "md127");

	cr_expect_str_eq(json_string_value(json_object_get(f, "level")),
	    "raid10");
	cr_expect_str_eq(json_string_value(json_object_get(f, "layout")),
	    "513");
	cr_expect_str_eq(json_string_value(
			     json_object_get(f, "bitmap_location")),
	    "+8");
	cr_expect_str_eq(json_string_value(
			     json_object_get(f, "optimal_io_size")),
	    "262144");
	cr_expect_null(json_object_get(f, "degraded"), "absent: left out");
	json_decref(f);
}

struct wait_ctx {
	int calls;
	unsigned long long done, total;
	bool stop;
};

static void
progress(void *arg, unsigned long long done, unsigned long long total)
{
	struct wait_ctx *c = arg;

	c->done = done;
	c->total = total;
	if (++c->calls == 3) /* the resync ends while we wait */
		put("block/md127/md/sync_action", "idle\n");
}

static bool
stop(void *arg)
{
	return ((struct wait_ctx *)arg)->stop;
}

Test(mdsys, waits_until_idle_reporting_progress)
{
	struct wait_ctx c = { 0 };
	double secs = -1;

	cr_assert_eq(mdsys_wait_sync(root, "md127", 10, progress, stop, &c,
			 &secs),
	    0);
	cr_expect_eq(c.calls, 3);
	cr_expect_eq(c.done, 1024);
	cr_expect_eq(c.total, 4096);
	cr_expect_geq(secs, 0.015, "waited %.3f s", secs);
}

Test(mdsys, a_stop_abandons_the_wait)
{
	struct wait_ctx c = { .stop = true };
	double secs;

	cr_expect_eq(mdsys_wait_sync(root, "md127", 10, NULL, stop, &c, &secs),
	    -EINTR);
}

Test(mdsys, an_idle_array_needs_no_wait_and_a_missing_one_is_an_error)
{
	double secs;

	put("block/md127/md/sync_action", "idle\n");
	cr_expect_eq(mdsys_wait_sync(root, "md127", 10, NULL, NULL, NULL,
			 &secs),
	    0);
	cr_expect_eq(mdsys_wait_sync(root, "md9", 10, NULL, NULL, NULL, &secs),
	    -ENOENT);
}

Test(mdsys, kernel_name_behind_a_link)
{
	char link[PATH_MAX * 2], target[PATH_MAX * 2], name[32];

	snprintf(target, sizeof target, "%s/md127", root);
	put("md127", "");
	snprintf(link, sizeof link, "%s/rl-a", root);
	cr_assert_eq(symlink(target, link), 0);
	cr_assert(mdsys_kernel_name(link, name, sizeof name));
	cr_expect_str_eq(name, "md127");
	cr_expect_not(mdsys_kernel_name("/dev/null", name, sizeof name));
}

/* ---------------------------------------------------------------- mdtools */

/* mdadm --version's own lines, as Debian's releases print them. */
Test(mdtools, reads_mdadm_versions)
{
	static const struct {
		const char *line, *text;
		int v;
	} c[] = {
		{ "mdadm - v4.2 - 2021-12-30 - Debian 4.2-5\n", "4.2", 402 },
		{ "mdadm - v4.4 - 2024-11-07 - Debian 4.4-11\n", "4.4", 404 },
		{ "mdadm - v4.6 - 2025-12-01\n", "4.6", 406 },
		{ "mdadm - v3.4 - 28th January 2016\n", "3.4", 304 },
		{ "mdadm: not found\n", "", 0 },
		{ "", "", 0 },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		cr_expect_eq(mdtools_parse_version(c[i].line, buf, sizeof buf),
		    c[i].v, "%s", c[i].line);
		cr_expect_str_eq(buf, c[i].text, "%s", c[i].line);
	}
}

/* A kernel has the lockless bitmap when an array lists it, or its
   build configuration enables it. */
Test(mdsys, finds_the_lockless_bitmap_in_sysfs_or_the_config)
{
	struct md_tools t;
	char d[PATH_MAX * 2], cfg[PATH_MAX * 2];
	struct utsname u;

	mdtools_probe_at(root, &t);
	cr_expect_not(t.llbitmap);
	put("block/md127/md/bitmap_type", "[bitmap] llbitmap none\n");
	snprintf(d, sizeof d, "%s/sys", root);
	cr_assert_eq(symlink(root, d), 0); /* root/sys/block = root/block */
	mdtools_probe_at(root, &t);
	cr_expect(t.llbitmap);
	unlink(d);
	cr_assert_eq(uname(&u), 0);
	snprintf(d, sizeof d, "%s/boot", root);
	mkdir(d, 0755);
	snprintf(cfg, sizeof cfg, "boot/config-%s", u.release);
	put(cfg, "# CONFIG_MD_LLBITMAP is not set\n");
	mdtools_probe_at(root, &t);
	cr_expect_not(t.llbitmap);
	put(cfg, "CONFIG_MD_BITMAP=y\nCONFIG_MD_LLBITMAP=y\n");
	mdtools_probe_at(root, &t);
	cr_expect(t.llbitmap);
	cr_expect_str_eq(t.kernel, u.release);
}

/* What mdtools_check() refuses of a lab given these tools, one line a
   refusal. */
static char *
refused(const char *variants, int mdadm, bool llbitmap)
{
	char *text = xasprintf("name = \"t\";\nworkloads = ( { type = "
			       "\"fio\"; } );\nvariants = (\n%s\n);\n",
	    variants);
	struct md_tools t = { .mdadm = mdadm, .llbitmap = llbitmap };
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 8];
	struct errlist errs;
	struct lab *lab = NULL;
	struct strbuf out;

	snprintf(t.mdadm_text, sizeof t.mdadm_text, "%d.%d", mdadm / 100,
	    mdadm % 100);
	snprintf(t.kernel, sizeof t.kernel, "6.12.57+deb13-amd64");
	errlist_init(&errs);
	cr_assert_eq(lab_load_string(text, "lab.cfg", &lab, &errs), 0);
	cr_assert_eq(lab_check(lab, &errs), 0, "%s",
	    errs.n ? err_format(&errs.v[0], b, sizeof b) : "");
	cr_expect_eq(mdtools_check(lab, NULL, &t, &errs) < 0, errs.n > 0);
	strbuf_init(&out);
	for (size_t i = 0; i < errs.n; i++)
		strbuf_printf(&out, "%s\n",
		    err_format(&errs.v[i], b, sizeof b));
	errlist_done(&errs);
	lab_free(lab);
	free(text);
	return strbuf_take(&out);
}

#define FILE_BITMAP                                                            \
	"{ name = \"f\"; array = { level = 1;\n"                               \
	"  devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"                          \
	"  bitmap = { file = \"/var/tmp/f.bitmap\"; }; }; }"
#define LOCKLESS                                                               \
	"{ name = \"l\"; array = { level = 10;\n"                              \
	"  devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"                          \
	"  bitmap = \"lockless\"; }; }"

Test(mdtools, refuses_a_bitmap_file_under_mdadm_4_4)
{
	char *got = refused(FILE_BITMAP, 404, false);

	cr_expect_str_eq(got,
	    "lab.cfg:6: variants.f.array.bitmap: mdadm 4.4 has no bitmap "
	    "files (removed in mdadm 4.4): use bitmap = \"internal\", or "
	    "mdadm 4.3 or older\n");
	free(got);
	got = refused(FILE_BITMAP, 402, false);
	cr_expect_str_eq(got, "");
	free(got);
}

Test(mdtools, a_lockless_bitmap_needs_mdadm_4_6_and_the_kernels)
{
	char *got = refused(LOCKLESS, 405, true);

	cr_expect_str_eq(got,
	    "lab.cfg:6: variants.l.array.bitmap: a lockless bitmap needs mdadm "
	    "4.6 or later; this is mdadm 4.5\n");
	free(got);
	got = refused(LOCKLESS, 406, false);
	cr_expect_str_eq(got,
	    "lab.cfg:6: variants.l.array.bitmap: kernel 6.12.57+deb13-amd64 "
	    "has no lockless bitmap (no md/bitmap_type lists llbitmap; it "
	    "needs CONFIG_MD_LLBITMAP, Linux 6.18 or later)\n");
	free(got);
	got = refused(LOCKLESS, 406, true);
	cr_expect_str_eq(got, "");
	free(got);
}

/* Legs and the log's array are md arrays too. */
Test(mdtools, looks_into_legs_and_the_log_array)
{
	char *got =
	    refused("{ name = \"n\"; array = { level = 0; legs = (\n"
		    "  { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
		    "    bitmap = { file = \"/var/tmp/a.bitmap\"; }; },\n"
		    "  { level = 1; devices = [\"/dev/sdd\", \"/dev/sde\"]; } "
		    "); }; }",
		404, false);

	cr_expect(strstr(got, "variants.n.array.legs[0].bitmap: mdadm 4.4") !=
		NULL,
	    "%s", got);
	free(got);
}

/* ---------------------------------------------------------------- mdwatch */

/* As md changes an attribute: all at once (a rename), never a half
   written file the watcher might read. */
static void
swap(const char *rel, const char *text)
{
	char tmp[PATH_MAX * 2], dst[PATH_MAX * 2];

	put("block/md127/md/.tmp", text);
	snprintf(tmp, sizeof tmp, "%s/block/md127/md/.tmp", root);
	snprintf(dst, sizeof dst, "%s/%s", root, rel);
	cr_assert_eq(rename(tmp, dst), 0);
}

/* A rebuild followed from its start until md is idle: the samples as md
   showed them, then complete. The watcher reads while this thread
   writes the attributes, as md would. */
Test(mdsys, a_watch_follows_a_rebuild_to_its_end)
{
	struct timespec ms50 = { 0, 50 * 1000000L };
	struct mdwatch *w;
	json_t *o, *done;

	swap("block/md127/md/sync_action", "recover\n");
	swap("block/md127/md/sync_completed", "100 / 4096\n");
	swap("block/md127/md/sync_speed", "2048\n");
	w = mdwatch_start(root, "md127", 20);
	cr_assert_not_null(w);
	nanosleep(&ms50, NULL);
	swap("block/md127/md/sync_completed", "2048 / 4096\n");
	nanosleep(&ms50, NULL);
	cr_expect_not(mdwatch_done(w));
	swap("block/md127/md/sync_action", "idle\n");
	swap("block/md127/md/sync_completed", "none\n");
	cr_expect(mdwatch_wait(w, 10.0, NULL, NULL));
	o = mdwatch_end(w);
	cr_expect_str_eq(json_string_value(json_object_get(o, "action")),
	    "recover");
	cr_expect(json_is_true(json_object_get(o, "complete")));
	cr_expect_gt(json_real_value(json_object_get(o, "seconds")), 0.09);
	done = json_object_get(json_object_get(o, "samples"), "done");
	cr_expect_geq(json_array_size(done), 2);
	cr_expect_eq(json_integer_value(json_array_get(done, 0)), 100);
	cr_expect_eq(json_integer_value(
			 json_array_get(done, json_array_size(done) - 1)),
	    2048);
	json_decref(o);
}

/* Stopped before md is idle: not complete, and the thread is gone. */
Test(mdsys, a_watch_ends_when_asked)
{
	struct mdwatch *w;
	json_t *o;

	swap("block/md127/md/sync_action", "check\n");
	w = mdwatch_start(root, "md127", 20);
	cr_assert_not_null(w);
	cr_expect_not(mdwatch_wait(w, 0.1, NULL, NULL));
	o = mdwatch_end(w);
	cr_expect_str_eq(json_string_value(json_object_get(o, "action")),
	    "check");
	cr_expect(json_is_false(json_object_get(o, "complete")));
	json_decref(o);
}

/* Read the watch until its newest sample has done sectors (or it is
   finished, when done is 0), for up to 10 s: the watcher reads sysfs
   on its own clock. */
static bool
now_reaches(struct mdwatch *w, unsigned long long done, struct mdwatch_now *n)
{
	struct timespec ms5 = { 0, 5 * 1000000L };

	for (int i = 0; i < 2000; i++) {
		mdwatch_now(w, n);
		if (done > 0 ? n->done == done : n->finished)
			return true;
		nanosleep(&ms5, NULL);
	}
	return false;
}

/* Read from this thread while the watcher runs: each sample whole, as md
   showed it (its sectors and KiB/s in bytes), and the time to idle once
   finished, the record's. */
Test(mdsys, a_watch_is_read_while_it_runs)
{
	struct mdwatch_now n;
	struct mdwatch *w;
	json_t *o;

	swap("block/md127/md/sync_action", "recover\n");
	swap("block/md127/md/sync_completed", "1024 / 4096\n");
	swap("block/md127/md/sync_speed", "2048\n");
	w = mdwatch_start(root, "md127", 20);
	cr_assert_not_null(w);
	cr_assert(now_reaches(w, 1024 * 512, &n));
	cr_expect_str_eq(n.action, "recover");
	cr_expect_eq(n.total, 4096 * 512);
	cr_expect_eq(n.speed, 2048 * 1024);
	cr_expect_not(n.finished);
	swap("block/md127/md/sync_speed", "512\n");
	swap("block/md127/md/sync_completed", "3072 / 4096\n");
	cr_assert(now_reaches(w, 3072 * 512, &n));
	cr_expect_eq(n.speed, 512 * 1024);
	swap("block/md127/md/sync_action", "idle\n");
	swap("block/md127/md/sync_completed", "none\n");
	cr_assert(now_reaches(w, 0, &n));
	cr_expect_str_eq(n.action, "recover");
	cr_expect_eq(n.done, 3072 * 512, "the last sample while busy");
	o = mdwatch_end(w);
	cr_expect_float_eq(n.elapsed,
	    json_real_value(json_object_get(o, "seconds")), 1e-9);
	json_decref(o);
}

/*
 * The phase as the runner tells it: md's sectors and KiB/s as bytes,
 * the percent and the ETA from them, recomputed here from what sysfs
 * says; and the last reading kept once the watch ended.
 */
Test(mdsys, a_phase_reads_as_percent_rate_and_eta)
{
	char phase[] = "rebuild", md[] = "/dev/md/rl-x", loop5[] = "/dev/loop5";
	char *failed[] = { loop5 };
	struct plan_dev devs[4] = { { .role = PLAN_ROLE_MEMBER },
		{ .role = PLAN_ROLE_MEMBER }, { .role = PLAN_ROLE_MEMBER },
		{ .role = PLAN_ROLE_MEMBER } };
	struct plan pl = { .phase = phase,
		.phase_md = md,
		.failed = failed,
		.nfailed = 1,
		.devs = devs,
		.ndevs = 4 };
	struct timespec ms5 = { 0, 5 * 1000000L };
	struct prov_progress pr;
	struct prov p;
	char line[512];
	int i;

	memset(&p, 0, sizeof p);
	p.plan = &pl;
	p.sysroot = root;
	p.build = json_object();
	swap("block/md127/md/sync_action", "recover\n");
	swap("block/md127/md/sync_completed", "10240 / 40960\n");
	swap("block/md127/md/sync_speed", "1024\n");
	p.watch = mdwatch_start(root, "md127", 20);
	cr_assert_not_null(p.watch);
	for (i = 0; i < 2000; i++) {
		cr_assert(prov_phase_progress(&p, &pr));
		if (pr.done > 0)
			break;
		nanosleep(&ms5, NULL);
	}
	cr_expect_str_eq(pr.phase, "rebuild");
	cr_expect_str_eq(pr.dev, "/dev/md/rl-x");
	cr_expect_str_eq(pr.failed, "/dev/loop5");
	cr_expect_eq(pr.nfailed, 1);
	cr_expect_eq(pr.nmembers, 4);
	cr_expect(pr.watched);
	cr_expect_eq(pr.done, 10240ull * 512);
	cr_expect_eq(pr.total, 40960ull * 512);
	cr_expect_eq(pr.rate, 1024ull * 1024);
	/* 30720 sectors left at 1 MiB/s */
	cr_expect_float_eq(prov_progress_eta(&pr), 30720.0 * 512 / 1048576,
	    1e-9);
	labrun_phase_line(&pr, 0, true, line, sizeof line);
	cr_expect(strstr(line, "recover 25% - 1.0 MB/s - ") != NULL, "%s",
	    line);
	cr_expect(strstr(line, " - ETA 0:15") != NULL, "%s", line);

	swap("block/md127/md/sync_action", "idle\n");
	for (i = 0; i < 2000 && !pr.finished; i++) {
		nanosleep(&ms5, NULL);
		prov_phase_progress(&p, &pr);
	}
	cr_assert(pr.finished);
	cr_expect_lt(prov_progress_eta(&pr), 0, "no ETA once finished");
	cr_expect_eq(prov_phase_end(&p, NULL, false), 0);
	cr_assert_null(p.watch);
	cr_assert(prov_phase_progress(&p, &pr));
	cr_expect(pr.finished, "the end kept after the watch");
	cr_expect_float_eq(pr.elapsed,
	    json_real_value(
		json_object_get(json_object_get(json_object_get(p.build,
						    "phase"),
				    "sync"),
		    "seconds")),
	    1e-9);
	json_decref(p.build);
}
