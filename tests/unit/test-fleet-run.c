/*
 * What the fleet controller asks of each host (fleet-run-cmd.c): which
 * hosts run something, each host's `raidlab run --fleet-host` line with
 * the selection, the options passed on and its own confirmations, the
 * refusal of a confirmation that names no host, and the dry run's line
 * per host, which contacts none.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
