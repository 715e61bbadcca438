/*
 * What the fleet controller asks of each host (fleet-run-cmd.c): which
 * hosts run something, each host's `raidlab run --fleet-host` line with
 * the selection, the options passed on and its own confirmations, the
 * refusal of a confirmation that names no host, and the dry run's line
 * per host, which contacts none. Then the runner itself against a fake
 * ssh and a fake host raidlab: the barrier's rounds when a host leaves
 * early, the records' fleet objects, and a host deaf to the end of its
 * stdin killed after the stop's grace.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "fleet/fleet-run-int.h"
#include "lab/lab.h"
#include "unit.h"

#define LAB                                                                    \
	"name = \"f\";\n"                                                      \
	"hosts = (\n"                                                          \
	"  { name = \"h2\"; address = \"127.0.0.2\"; },\n"                     \
	"  { name = \"h3\"; address = \"127.0.0.3\"; port = 2222; "            \
	"user = \"lab\"; },\n"                                                 \
	"  { name = \"h4\"; address = \"127.0.0.4\"; }\n"                      \
	");\n"                                                                 \
	"variants = (\n"                                                       \
	"  { name = \"a\"; hosts = \"all\"; directory = \"/tmp/a-%h\"; },\n"   \
	"  { name = \"b\"; hosts = [ \"h3\" ]; directory = \"/tmp/b\"; },\n"   \
	"  { name = \"here\"; directory = \"/tmp\"; }\n"                       \
	");\n"                                                                 \
	"workloads = ( { name = \"s\"; type = \"smallfiles\"; },\n"            \
	"  { name = \"t\"; type = \"smallfiles\"; } );\n"

static struct lab *
load(void)
{
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(LAB, "f.cfg", &lab, &errs), 0, "%s",
	    errs.n ? errs.v[0].msg : "");
	errlist_done(&errs);
	return lab;
}

static char *
joined(char **v)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; v[i] != NULL; i++)
		len += strlen(v[i]) + 1;
	s = xcalloc(len, 1);
	for (size_t i = 0; v[i] != NULL; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, v[i]);
	}
	return s;
}

Test(fleet_run, hosts_with_a_selected_variant_run)
{
	struct lab *lab = load();
	bool only_b[] = { false, true, false },
	     only_here[] = { false, false, true };

	cr_assert(fleet_run_wanted(lab, NULL));
	cr_assert(fleet_host_wanted(lab, NULL, &lab->hosts[0]));
	cr_assert(fleet_run_wanted(lab, only_b));
	cr_assert_not(fleet_host_wanted(lab, only_b, &lab->hosts[0]));
	cr_assert(fleet_host_wanted(lab, only_b, &lab->hosts[1]));
	cr_assert_not(fleet_run_wanted(lab, only_here));
	lab_free(lab);
}

Test(fleet_run, each_host_gets_its_line)
{
	struct lab *lab = load();
	bool vsel[] = { true, true, false }, wsel[] = { false, true };
	const char *sets[] = { "t.count=10" };
	const char *conf[] = { "h3:/dev/sdb", "h2:scratch:0", "h3:/dev/sdc" };
	struct fleet_opts o = { .variants = vsel,
		.workloads = wsel,
		.repeats = 3,
		.scale = "0.1",
		.sets = sets,
		.nsets = 1,
		.confirmed = conf,
		.nconfirmed = 3 };
	char **v;
	char *s;

	v = fleet_remote_argv(lab, &o, &lab->hosts[1], true, "/tmp/x/f.cfg");
	s = joined(v);
	cr_assert_str_eq(s,
	    "raidlab run --fleet-host h3 --json --barrier -v a -v b -w t "
	    "-r 3 --scale 0.1 --set t.count=10 "
	    "--yes-destroy=/dev/sdb,/dev/sdc /tmp/x/f.cfg");
	free(s);
	fleet_strv_free(v);
	o = (struct fleet_opts){ .confirmed = conf, .nconfirmed = 3 };
	v = fleet_remote_argv(lab, &o, &lab->hosts[0], false, "LAB");
	s = joined(v);
	cr_assert_str_eq(s,
	    "raidlab run --fleet-host h2 --json --yes-destroy=scratch:0 LAB");
	free(s);
	fleet_strv_free(v);
	v = fleet_remote_argv(lab, &o, &lab->hosts[2], false, "LAB");
	s = joined(v);
	cr_assert_str_eq(s, "raidlab run --fleet-host h4 --json LAB");
	free(s);
	fleet_strv_free(v);
	lab_free(lab);
}

Test(fleet_run, a_device_without_its_host_is_refused)
{
	struct lab *lab = load();
	const char *bare[] = { "h2:/dev/sdb", "/dev/sdc" },
		   *empty[] = { "h2:" };
	struct fleet_opts o = { .confirmed = bare, .nconfirmed = 2 };
	struct err e;

	err_clear(&e);
	cr_assert_eq(fleet_confirm_check(lab, &o, &e), -EINVAL);
	cr_assert_str_eq(e.field, "--yes-destroy");
	cr_assert_str_eq(e.msg,
	    "/dev/sdc: the variants run on hosts: name the host whose device "
	    "it is, as HOST:DEV (h2:/dev/sdc)");
	cr_assert_null(fleet_run_dry(lab, &o, &e));
	o = (struct fleet_opts){ .confirmed = empty, .nconfirmed = 1 };
	cr_assert_eq(fleet_confirm_check(lab, &o, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "h2:: no device after the host");
	lab_free(lab);
}

Test(fleet_run, the_dry_run_names_each_host_and_its_ssh_command)
{
	struct lab *lab = load();
	struct fleet_opts o = { .ssh_config = "/etc/fleet.conf" };
	struct err e;
	char *s, *l3;

	err_clear(&e);
	s = fleet_run_dry(lab, &o, &e);
	cr_assert_not_null(s, "%s", e.msg);
	cr_assert(strncmp(s, "h2 (127.0.0.2): ssh -F /etc/fleet.conf ", 39) ==
		0,
	    "%s", s);
	l3 = strstr(s, "\nh3 (127.0.0.3): ");
	cr_assert_not_null(l3, "%s", s);
	/* the lab's port and user, and ssh's own config else */
	cr_assert_not_null(strstr(l3, " -l lab -p 2222 "), "%s", s);
	cr_assert_null(strstr(s, " -p 22 "), "%s", s);
	cr_assert_not_null(strstr(s,
			       "'raidlab run --fleet-host h4 --json LAB'"),
	    "%s", s);
	free(s);
	lab_free(lab);
}

/* ------------------------------------------------ the runner, on fakes */

/*
 * The runner against an `ssh` of the test's own, first in PATH, that
 * runs the remote command line here with sh (the probe, the copy into
 * TMPDIR, the removal and the session alike), and a `raidlab` that
 * speaks the host's side of the protocol: ready, "wait N" before each of
 * two rounds, a live line, a message, done and a record; h3 leaves after
 * round 1; with FAKE_STUBBORN set, a host ignores the end of its stdin.
 */
static const char fake_ssh[] =
    "#!/bin/sh\n"
    "while [ $# -gt 0 ]; do\n"
    "  if [ \"$1\" = -- ]; then exec sh -c \"$3\"; fi\n"
    "  shift\n"
    "done\n"
    "exit 255\n";

static const char fake_raidlab[] =
    "#!/bin/sh\n"
    "case \"$1\" in --version) echo \"raidlab " PACKAGE_VERSION "\"; "
    "exit 0 ;; esac\n"
    "name=$3\n"
    "echo \"@fleet 1 ready $name " PACKAGE_VERSION "\" >&2\n"
    "r=1\n"
    "while [ $r -le 2 ]; do\n"
    "  [ \"$name\" = h3 ] && [ $r = 2 ] && break\n"
    "  echo \"@fleet 1 wait $r\" >&2\n"
    "  if ! read line; then\n"
    "    [ -n \"${FAKE_STUBBORN:-}\" ] || exit 130\n"
    "    echo $$ >\"$TMPDIR/stubborn.pid\"; exec sleep 600\n"
    "  fi\n"
    "  [ \"$line\" = \"go $r\" ] || exit 3\n"
    "  echo \"@fleet 1 live a s $r 1.000 2.000 3.000\" >&2\n"
    "  echo \"hello from $name, round $r\" >&2\n"
    "  r=$((r + 1))\n"
    "done\n"
    "echo \"@fleet 1 done $((r - 1)) 0\" >&2\n"
    "printf '{\"format\":\"raidlab-result\",\"version\":1,"
    "\"fleet\":{\"host\":\"%s\"},\"runs\":[]}\\n' \"$name\"\n";

#define FAKE_LAB                                                               \
	"name = \"f\";\n"                                                      \
	"barrier = true;\n"                                                    \
	"hosts = (\n"                                                          \
	"  { name = \"h2\"; address = \"127.0.0.2\"; },\n"                     \
	"  { name = \"h3\"; address = \"127.0.0.3\"; },\n"                     \
	"  { name = \"h4\"; address = \"127.0.0.4\"; }\n"                      \
	");\n"                                                                 \
	"variants = ( { name = \"a\"; hosts = \"all\"; directory = \"/tmp\"; " \
	"} );\n"                                                               \
	"workloads = ( { name = \"s\"; type = \"smallfiles\"; } );\n"

struct fake {
	char dir[64];
	char *lab_path;
	struct lab *lab;
};

static void
put(const char *dir, const char *name, const char *text, mode_t mode)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
	free(p);
}

static void
fake_init(struct fake *fk, const char *lab_text)
{
	struct errlist errs;
	char *path;

	snprintf(fk->dir, sizeof fk->dir, "/tmp/raidlab-fleet.XXXXXX");
	cr_assert_not_null(mkdtemp(fk->dir));
	put(fk->dir, "ssh", fake_ssh, 0755);
	put(fk->dir, "raidlab", fake_raidlab, 0755);
	put(fk->dir, "f.cfg", lab_text, 0644);
	path = xasprintf("%s:%s", fk->dir, getenv("PATH"));
	setenv("PATH", path, 1);
	free(path);
	setenv("TMPDIR", fk->dir, 1);
	fk->lab_path = xasprintf("%s/f.cfg", fk->dir);
	errlist_init(&errs);
	cr_assert_eq(lab_load(fk->lab_path, &fk->lab, &errs), 0);
	errlist_done(&errs);
}

static void
fake_done(struct fake *fk)
{
	char *cmd = xasprintf("rm -rf '%s'", fk->dir);

	cr_assert_eq(system(cmd), 0);
	free(cmd);
	free(fk->lab_path);
	lab_free(fk->lab);
}

/* Events until FLEET_EV_DONE (bounded: 30 s); each host's last state,
   the rounds released, the messages seen. */
struct seen {
	enum fleet_host_state state[4];
	long rounds[8];
	size_t nrounds;
	bool hello;
	bool done;
};

static void
follow(struct fleet_run *fr, struct seen *s, bool stop_after_round1)
{
	struct fleet_event ev;

	for (int i = 0; i < 3000 && !s->done; i++) {
		struct pollfd p = { fleet_run_fd(fr), POLLIN, 0 };

		poll(&p, 1, 10);
		while (fleet_run_pop(fr, &ev)) {
			if (ev.type == FLEET_EV_STATE)
				s->state[ev.host] = ev.state;
			if (ev.type == FLEET_EV_ROUND && s->nrounds < 8)
				s->rounds[s->nrounds++] = ev.round;
			if (ev.type == FLEET_EV_MESSAGE &&
			    strstr(ev.text, ": hello from ") != NULL)
				s->hello = true;
			s->done |= ev.type == FLEET_EV_DONE;
			if (stop_after_round1 && ev.type == FLEET_EV_ROUND)
				fleet_run_stop(fr);
		}
	}
}

Test(fleet_run, the_barrier_releases_rounds_a_leaving_host_does_not_block)
{
	struct fleet_opts o = { 0 };
	struct fleet_summary sum;
	struct seen s = { 0 };
	struct fleet_run *fr;
	struct fake fk;
	json_t *recs;
	struct err e;

	fake_init(&fk, FAKE_LAB);
	err_clear(&e);
	fr = fleet_run_start(fk.lab, fk.lab_path, &o, &e);
	cr_assert_not_null(fr, "%s", e.msg);
	cr_assert_eq(fleet_run_nhosts(fr), 3);
	follow(fr, &s, false);
	cr_assert(s.done);
	/* h3 left after round 1: round 2 went to the other two */
	cr_assert_eq(s.nrounds, 2);
	cr_assert_eq(s.rounds[0], 1);
	cr_assert_eq(s.rounds[1], 2);
	cr_assert(s.hello);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(s.state[i], FLEET_HOST_DONE, "host %d: %d", i,
		    s.state[i]);
	fleet_run_summary(fr, &sum);
	cr_assert_eq(sum.hosts_ok, 3);
	cr_assert_eq(sum.ran, 5, "ran %ld", sum.ran);
	recs = fleet_run_take_records(fr);
	cr_assert_eq(json_object_size(recs), 3);
	cr_assert_str_eq(json_string_value(json_object_get(
			     json_object_get(json_object_get(recs, "h3"),
				 "fleet"),
			     "address")),
	    "127.0.0.3");
	cr_assert_str_eq(json_string_value(json_object_get(
			     json_object_get(json_object_get(recs, "h4"),
				 "fleet"),
			     "run")),
	    fleet_run_id(fr));
	cr_assert_eq(json_array_size(
			 json_object_get(json_object_get(json_object_get(recs,
							     "h2"),
					     "fleet"),
			     "hosts")),
	    3);
	cr_assert_null(fleet_run_take_records(fr));
	json_decref(recs);
	fleet_run_free(fr);
	fake_done(&fk);
}

/* A process that is gone (or a zombie nobody waits for any more). */
static bool
gone(pid_t pid)
{
	char path[64], st = '?';
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return true;
	if (fscanf(f, "%*d %*s %c", &st) != 1)
		st = '?';
	fclose(f);
	return st == 'Z';
}

Test(fleet_run, a_host_deaf_to_stop_is_killed_after_the_grace)
{
	struct fleet_opts o = { .variants = (const bool[]){ true },
		.stop_grace = 1 };
	struct seen s = { 0 };
	struct fleet_run *fr;
	struct fake fk;
	struct err e;
	char *pidf;
	FILE *f;
	int pid = 0;

	setenv("FAKE_STUBBORN", "1", 1);
	fake_init(&fk, FAKE_LAB);
	err_clear(&e);
	fr = fleet_run_start(fk.lab, fk.lab_path, &o, &e);
	cr_assert_not_null(fr, "%s", e.msg);
	follow(fr, &s, true);
	cr_assert(s.done);
	/* h3's runs ended before the stop (after round 1, as it does) */
	cr_assert_eq(s.state[0], FLEET_HOST_STOPPED);
	cr_assert_eq(s.state[1], FLEET_HOST_DONE);
	cr_assert_eq(s.state[2], FLEET_HOST_STOPPED);
	pidf = xasprintf("%s/stubborn.pid", fk.dir);
	f = fopen(pidf, "r");
	cr_assert_not_null(f, "no host waited deaf to its stdin");
	cr_assert_eq(fscanf(f, "%d", &pid), 1);
	fclose(f);
	for (int i = 0; i < 200 && !gone(pid); i++)
		usleep(10000);
	cr_assert(gone(pid), "the deaf host's raidlab %d still runs", pid);
	free(pidf);
	fleet_run_free(fr);
	unsetenv("FAKE_STUBBORN");
	fake_done(&fk);
}
