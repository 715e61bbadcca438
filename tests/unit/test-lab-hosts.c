/*
 * The lab's hosts (lab-hosts.c) as lab_load() reads them: values, lines
 * and defaults; a variant's placement, taken from defaults; a round trip
 * through lab_format(); copies and equality; the devices a host maps;
 * a host's share made local (lab-host-local.c) and what it refuses;
 * and every value lab_load() refuses, with its exact "file:line: field:
 * reason". The rules across fields are in test-lab-check-hosts.c.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab-schema.h"
#include "lab/lab.h"
#include "unit-lab.h"
#include "unit.h"

#define HOSTS                                                                  \
	"name = \"f\";\n"                                                      \
	"hosts = (\n"                                                          \
	"  { name = \"a\"; address = \"127.0.0.2\"; user = \"lab-1\";\n"       \
	"    port = 2222; fio_port = 8766; fio_bind = \"127.0.0.12\";\n"       \
	"    disks = [ \"scratch:0=/dev/vdb\", \"/dev/sdb=/dev/vdc\" ]; },\n"  \
	"  { name = \"b\"; address = \"node-b.example\"; }\n"                  \
	");\n"

Test(lab_hosts, schema_lines_up_with_the_field_enum)
{
	for (int f = 0; f < LAB_H__COUNT; f++) {
		cr_assert_eq(lab_host_keys[f].field, f);
		cr_assert_eq(lab_host_schema((enum lab_h_field)f),
		    &lab_host_keys[f]);
	}
	cr_assert_null(lab_host_keys[LAB_H__COUNT].name);
	cr_assert_null(lab_host_schema(LAB_H__COUNT));
	cr_assert_eq(lab_variant_keys[LAB_V_HOSTS].kind, LAB_KEY_NAMES);
}

Test(lab_hosts, loads_values_lines_and_defaults)
{
	struct lab *lab = must_load_string(HOSTS
	    "variants = ( { name = \"d\"; directory = \"/tmp\"; } );\n",
	    "f.cfg");
	const struct lab_host *a = &lab->hosts[0], *b = &lab->hosts[1];
	char buf[LAB_PATH_MAX];

	cr_assert_eq(lab->nhosts, 2);
	cr_assert_str_eq(a->name, "a");
	cr_assert_str_eq(a->address, "127.0.0.2");
	cr_assert_str_eq(a->user, "lab-1");
	cr_assert_eq(a->port, 2222);
	cr_assert_eq(a->fio_port, 8766);
	cr_assert_str_eq(lab_host_fio_bind(a), "127.0.0.12");
	cr_assert_eq(a->disks.n, 2);
	cr_assert_eq(lab_host_line(a, LAB_H_PORT), 4);
	cr_assert_eq(lab_host_line(a, LAB_H_DISKS), 5);
	cr_assert_str_eq(lab_host_path(a, LAB_H_FIO_PORT, buf, sizeof buf),
	    "hosts.a.fio_port");
	/* what a host does not say */
	cr_assert_null(b->user);
	cr_assert_eq(b->port, 22);
	cr_assert_eq(b->fio_port, 8765);
	cr_assert_null(b->fio_bind);
	cr_assert_str_eq(lab_host_fio_bind(b), "node-b.example");
	cr_assert_eq(b->disks.n, 0);
	cr_assert_eq(lab_host_line(b, LAB_H_PORT), 6);
	/* a variant that does not say runs here */
	cr_assert(!lab_variant_remote(&lab->variants[0]));
	cr_assert(!lab_variant_on_host(&lab->variants[0], a));
	assert_fixed_point(lab, "hosts");
	lab_free(lab);
}

Test(lab_hosts, placement_all_names_local_and_from_defaults)
{
	struct lab *lab = must_load_string(HOSTS
	    "defaults = { hosts = \"all\"; };\n"
	    "variants = (\n"
	    "  { name = \"every\"; directory = \"/tmp\"; },\n"
	    "  { name = \"one\"; hosts = [ \"b\" ]; directory = \"/tmp\"; },\n"
	    "  { name = \"here\"; hosts = \"local\"; directory = \"/tmp\"; }\n"
	    ");\n",
	    "f.cfg");
	const struct lab_variant *v = lab->variants;
	const struct lab_host *a = lab_host_find(lab, "a");
	const struct lab_host *b = lab_host_find(lab, "b");

	cr_assert_not_null(a);
	cr_assert_not_null(b);
	cr_assert_null(lab_host_find(lab, "c"));
	cr_assert(lab_variant_inherited(&v[0], LAB_V_HOSTS));
	cr_assert(
	    lab_variant_on_host(&v[0], a) && lab_variant_on_host(&v[0], b));
	cr_assert(
	    !lab_variant_on_host(&v[1], a) && lab_variant_on_host(&v[1], b));
	cr_assert(!lab_variant_remote(&v[2]));
	cr_assert(!lab_variant_on_host(&v[2], a));
	assert_fixed_point(lab, "placement");
	lab_free(lab);
}

Test(lab_hosts, copies_and_equality_see_every_host_key)
{
	struct lab *lab = must_load_string(HOSTS, "f.cfg");
	struct lab *c = lab_dup(lab);

	cr_assert(lab_equal(lab, c));
	cr_assert_neq(c->hosts[0].disks.v, lab->hosts[0].disks.v);
	c->hosts[1].port = 23;
	cr_assert(!lab_equal(lab, c));
	lab_free(c);
	c = lab_dup(lab);
	free(c->hosts[0].disks.v[1]);
	c->hosts[0].disks.v[1] = xstrdup("/dev/sdb=/dev/vdd");
	cr_assert(!lab_equal(lab, c));
	lab_free(c);
	lab_free(lab);
}

Test(lab_hosts, maps_a_variants_devices_per_host)
{
	struct lab *lab = must_load_string(HOSTS
	    "variants = ( { name = \"r1\"; hosts = \"all\";\n"
	    "  scratch = { count = 2; size = \"1G\"; };\n"
	    "  array = { level = 1; spares = [ \"/dev/sdb\" ]; }; } );\n",
	    "f.cfg");
	struct lab_strv devs = { NULL, 0 };

	lab_variant_devices(&lab->variants[0], &devs);
	cr_assert_eq(devs.n, 3);
	cr_assert_str_eq(devs.v[0], "/dev/sdb");
	cr_assert_str_eq(devs.v[1], "scratch:0");
	cr_assert_str_eq(devs.v[2], "scratch:1");
	cr_assert_str_eq(lab_host_device(&lab->hosts[0], "scratch:0"),
	    "/dev/vdb");
	cr_assert_str_eq(lab_host_device(&lab->hosts[0], "/dev/sdb"),
	    "/dev/vdc");
	cr_assert_null(lab_host_device(&lab->hosts[0], "scratch:1"));
	cr_assert_null(lab_host_device(&lab->hosts[1], "scratch:0"));
	for (size_t i = 0; i < devs.n; i++)
		free(devs.v[i]);
	free(devs.v);
	lab_free(lab);
}

Test(lab_hosts, fixture_with_three_loopback_hosts_is_a_fixed_point)
{
	char *path = testdata("labs/hosts.cfg");
	struct lab *lab = must_load(path);

	cr_assert_eq(lab->nhosts, 3);
	cr_assert_str_eq(lab->hosts[2].address, "127.0.0.4");
	assert_fixed_point(lab, "hosts.cfg");
	lab_free(lab);
	free(path);
}

Test(lab_hosts, disk_pairs_are_split_as_disk_takes_them)
{
	const char *to = NULL;
	char *from;

	cr_assert_eq(lab_disk_pair("scratch:3=/dev/sdc", &from, &to), 0);
	cr_assert_str_eq(from, "scratch:3");
	cr_assert_str_eq(to, "/dev/sdc");
	free(from);
	cr_assert_eq(lab_disk_pair("/dev/sdb=/dev/vdb", &from, &to), 0);
	cr_assert_str_eq(from, "/dev/sdb");
	free(from);
	cr_assert_eq(lab_disk_pair("scratch:x=/dev/sdc", &from, &to), -EINVAL);
	cr_assert_null(from);
	cr_assert_eq(lab_disk_pair("sdb=/dev/sdc", &from, &to), -EINVAL);
	cr_assert_eq(lab_disk_pair("scratch:0=sdc", &from, &to), -EINVAL);
	cr_assert_eq(lab_disk_pair("scratch:0=/", &from, &to), -EINVAL);
	cr_assert_eq(lab_disk_pair("scratch:0", &from, &to), -EINVAL);
}

/* ---------------------------------------------------------------- refusals */

struct host_case {
	char *text; /* the hosts list's entries, from line 2 */
	char *want; /* every message, one per line */
};

static void
free_host_cases(struct criterion_test_params *p)
{
	struct host_case *v = p->params;

	for (size_t i = 0; i < p->length; i++) {
		cr_free(v[i].text);
		cr_free(v[i].want);
	}
	cr_free(v);
}

static const struct {
	const char *text, *want;
} host_cases[] = {
	{ "{ name = \"a\"; address = \"127.0.0.2\"; port = 0; }",
	    "t.cfg:2: hosts.a.port: 0 is out of range (1..65535)\n" },
	{ "{ name = \"a\"; address = \"127.0.0.2\"; port = \"22\"; }",
	    "t.cfg:2: hosts.a.port: expected an integer\n" },
	{ "{ name = \"a\"; address = \"127.0.0.2\"; fio_port = 65536; }",
	    "t.cfg:2: hosts.a.fio_port: 65536 is out of range (1..65535)\n" },
	{ "{ name = \"a\"; address = \"\"; }",
	    "t.cfg:2: hosts.a.address: the address is empty\n" },
	{ "{ name = \"a\"; address = \"-oProxyCommand=sh\"; }",
	    "t.cfg:2: hosts.a.address: '-oProxyCommand=sh' is neither a host "
	    "name nor an IP address\n" },
	{ "{ name = \"a\"; address = \"127.0.0.300\"; }",
	    "t.cfg:2: hosts.a.address: '127.0.0.300' is neither a host name "
	    "nor an IP address\n" },
	{ "{ name = \"a\"; address = \"a b\"; }",
	    "t.cfg:2: hosts.a.address: 'a b' is neither a host name nor an IP "
	    "address\n" },
	{ "{ name = \"a\"; address = \"::1\"; fio_bind = \"x_y\"; }",
	    "t.cfg:2: hosts.a.fio_bind: 'x_y' is neither a host name nor an IP "
	    "address\n" },
	{ "{ name = \"a\"; address = \"h\"; user = \"-l\"; }",
	    "t.cfg:2: hosts.a.user: '-l' is not a user name (1 to 32 letters, "
	    "digits, '.', '_' or '-', not starting with '-')\n" },
	{ "{ name = \"a\"; address = \"h\"; user = \"u@h\"; }",
	    "t.cfg:2: hosts.a.user: 'u@h' is not a user name (1 to 32 "
	    "letters, digits, '.', '_' or '-', not starting with '-')\n" },
	{ "{ name = \"a/b\"; address = \"h\"; }",
	    "t.cfg:2: hosts[0].name: 'a/b' is not a valid name: use letters, "
	    "digits, '.', '_' and '-'\n" },
	{ "{ name = \"all\"; address = \"h\"; }",
	    "t.cfg:2: hosts[0].name: 'all' is reserved: a variant's hosts = "
	    "\"all\" means something else\n" },
	{ "{ name = \"local\"; address = \"h\"; }",
	    "t.cfg:2: hosts[0].name: 'local' is reserved: a variant's hosts = "
	    "\"local\" means something else\n" },
	{ "{ name = \"a\"; address = \"h\"; },\n{ name = \"a\"; address = "
	  "\"g\"; }",
	    "t.cfg:3: hosts[1].name: duplicate host name 'a' (first at line "
	    "2)\n" },
	{ "{ name = \"a\"; address = \"h\"; disks = [ \"scratch:0=sdc\" ]; }",
	    "t.cfg:2: hosts.a.disks: 'scratch:0=sdc': expected "
	    "DEVICE=/dev/NAME, DEVICE being scratch:N or a device a variant "
	    "names\n" },
	{ "{ name = \"a\"; address = \"h\"; disks = [ \"scratch:0=/tmp/x\" "
	  "]; }",
	    "t.cfg:2: hosts.a.disks: 'scratch:0=/tmp/x': expected "
	    "DEVICE=/dev/NAME, DEVICE being scratch:N or a device a variant "
	    "names\n" },
	{ "{ name = \"a\"; address = \"h\";\n disks = [ "
	  "\"scratch:0=/dev/sdc\", "
	  "\"scratch:0=/dev/sdd\" ]; }",
	    "t.cfg:3: hosts.a.disks: scratch:0 is mapped twice\n" },
	{ "{ name = \"a\"; address = \"h\";\n disks = [ "
	  "\"scratch:0=/dev/sdc\", "
	  "\"/dev/sdb=/dev/sdc\" ]; }",
	    "t.cfg:3: hosts.a.disks: /dev/sdc is given for scratch:0 and "
	    "/dev/sdb\n" },
	{ "{ name = \"a\"; address = \"h\"; disks = { x = 1; }; }",
	    "t.cfg:2: hosts.a.disks: expected a list of strings\n" },
	{ "{ name = \"a\"; address = \"h\"; ssh_port = 22; }",
	    "t.cfg:2: hosts.a.ssh_port: unknown key\n" },
	{ "{ name = \"a\"; address = \"h\"; fio_prot = 1; }",
	    "t.cfg:2: hosts.a.fio_prot: unknown key; did you mean "
	    "'fio_port'?\n" },
	/* libconfig gives a scalar in a list the line after it */
	{ "\"a\"", "t.cfg:3: hosts[0]: expected a group\n" },
};

ParameterizedTestParameters(lab_hosts, refuses_each_bad_value_exactly)
{
	size_t n = sizeof host_cases / sizeof host_cases[0];
	struct host_case *v = cr_malloc(n * sizeof *v);

	for (size_t i = 0; i < n; i++) {
		char *t = xasprintf("name = \"t\"; hosts = (\n%s\n);\n",
		    host_cases[i].text);

		v[i].text = unit_strdup(t);
		v[i].want = unit_strdup(host_cases[i].want);
		free(t);
	}
	return cr_make_param_array(struct host_case, v, n, free_host_cases);
}

ParameterizedTest(struct host_case *c, lab_hosts,
    refuses_each_bad_value_exactly)
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

Test(lab_hosts, placement_is_a_name_or_a_list_of_names)
{
	struct errlist errs;
	struct lab *lab;
	char *got;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string("variants = ( { hosts = 5; } );\n",
			 "t.cfg", &lab, &errs),
	    -EINVAL);
	cr_assert_eq(lab_load_string("variants = ( {\n hosts = [ \"a\", "
				     "\"b c\" ]; } );\n",
			 "t.cfg", &lab, &errs),
	    -EINVAL);
	got = errs_text(&errs);
	cr_assert_str_eq(got,
	    "t.cfg:1: variants[0].hosts: expected a name or a list of names\n"
	    "t.cfg:2: variants[0].hosts: 'b c' is not a valid name: use "
	    "letters, digits, '.', '_' and '-'\n");
	free(got);
	errlist_done(&errs);
}

#define FLEET                                                                  \
	"name = \"f\";\n"                                                      \
	"hosts = (\n"                                                          \
	"  { name = \"a\"; address = \"127.0.0.2\"; disks = [\n"               \
	"    \"scratch:0=/dev/vdb\", \"scratch:1=/dev/vdc\",\n"                \
	"    \"/dev/sdb=/dev/vdd\" ]; },\n"                                    \
	"  { name = \"b\"; address = \"127.0.0.3\";\n"                         \
	"    disks = [ \"scratch:1=/dev/vde\" ]; },\n"                         \
	"  { name = \"c\"; address = \"127.0.0.4\"; }\n"                       \
	");\n"                                                                 \
	"variants = (\n"                                                       \
	"  { name = \"r1\"; hosts = \"all\";\n"                                \
	"    scratch = { count = 2; size = \"1G\"; }; array = { level = 1; "   \
	"}; "                                                                  \
	"},\n"                                                                 \
	"  { name = \"p\"; hosts = [ \"a\", \"c\" ];\n"                        \
	"    array = { level = 1; devices = [ \"/dev/sdb\", \"/dev/sdc\" ]; "  \
	"}; },\n"                                                              \
	"  { name = \"here\"; directory = \"/tmp\"; }\n"                       \
	");\n"

/* lab_host_localize(name) on a fresh load of FLEET: 0 expected. */
static struct lab *
localized(const char *name, bool *on)
{
	struct lab *lab = must_load_string(FLEET, "f.cfg");
	struct errlist errs;

	errlist_init(&errs);
	cr_assert_eq(lab_host_localize(lab, name, on, &errs), 0, "%s", name);
	cr_assert_eq(errs.n, 0);
	errlist_done(&errs);
	return lab;
}

static void
assert_devices(const struct lab_variant *v, const char *a, const char *b)
{
	cr_assert_eq(v->array.devices.n, 2, "%s: %zu devices", v->name,
	    v->array.devices.n);
	cr_assert_str_eq(v->array.devices.v[0], a, "%s", v->name);
	cr_assert_str_eq(v->array.devices.v[1], b, "%s", v->name);
}

/* raidlab run --fleet-host: a host's variants become local with its
   disks; a scratch disk it maps is its device, the ones it does not
   stay scratch disks, numbered from 0 again; a path it maps is its
   path; the other variants are left as they were. */
Test(lab_hosts, a_hosts_share_is_made_local_with_its_disks)
{
	bool on[4];
	struct lab *lab = localized("a", on);

	cr_assert(on[0] && on[1] && !on[2]);
	assert_devices(&lab->variants[0], "/dev/vdb", "/dev/vdc");
	cr_assert_eq(lab->variants[0].scratch_count, 0, "no scratch left");
	cr_assert_not(lab_variant_remote(&lab->variants[0]));
	cr_assert_str_eq(lab->variants[0].hosts.v[0], "local");
	assert_devices(&lab->variants[1], "/dev/vdd", "/dev/sdc");
	cr_assert_not(lab_variant_remote(&lab->variants[1]));
	cr_assert_str_eq(lab->variants[2].directory, "/tmp");
	lab_free(lab);

	lab = localized("b", on);
	cr_assert(on[0] && !on[1] && !on[2]);
	assert_devices(&lab->variants[0], "scratch:0", "/dev/vde");
	cr_assert_eq(lab->variants[0].scratch_count, 1, "one loop device");
	cr_assert(lab_variant_remote(&lab->variants[1]), "p is not b's");
	assert_devices(&lab->variants[1], "/dev/sdb", "/dev/sdc");
	lab_free(lab);

	lab = localized("c", on);
	cr_assert(on[0] && on[1] && !on[2]);
	cr_assert_eq(lab->variants[0].array.devices.n, 0, "still implicit");
	cr_assert_eq(lab->variants[0].scratch_count, 2);
	assert_devices(&lab->variants[1], "/dev/sdb", "/dev/sdc");
	cr_assert_not(lab_variant_remote(&lab->variants[0]));
	lab_free(lab);
}

Test(lab_hosts, no_such_host_and_unmappable_scratch_are_refused)
{
	struct lab *lab = must_load_string(FLEET, "f.cfg");
	struct errlist errs;
	bool on[4];
	char *msgs;

	errlist_init(&errs);
	cr_assert_eq(lab_host_localize(lab, "zz", on, &errs), -ENOENT);
	lab_free(lab);
	/* one member listed, the other taken from the scratch disks: the
	   one a host maps cannot be told apart */
	lab =
	    must_load_string("name = \"f\";\n"
			     "hosts = ( { name = \"a\"; address = "
			     "\"127.0.0.2\";\n"
			     "  disks = [ \"scratch:0=/dev/vdb\" ]; } );\n"
			     "variants = ( { name = \"m\"; hosts = \"a\";\n"
			     "  scratch = { count = 1; size = \"1G\"; };\n"
			     "  array = { level = 1; devices = [ \"/dev/sdb\" "
			     "]; }; } );\n",
		"g.cfg");
	cr_assert_eq(lab_host_localize(lab, "a", on, &errs), -EINVAL);
	msgs = errs_text(&errs);
	cr_assert_str_eq(msgs,
	    "g.cfg:3: hosts.a.disks: variant m lists some members and takes "
	    "the others from its scratch disks: name them all to map its "
	    "scratch disks on this host\n");
	free(msgs);
	errlist_done(&errs);
	lab_free(lab);
}
