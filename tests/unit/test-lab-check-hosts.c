/*
 * lab_check()'s rules on the fleet (lab-check-hosts.c), as a user meets
 * them: a host without a name or an address, a variant placed on a host
 * the lab does not have, "all" or "local" in a list, a name twice, a
 * mapping of a device no variant uses; each with its exact "file:line:
 * field: reason", all of them in one pass. A lab with hosts and no
 * variant on them is fine.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "unit-lab-check.h"

#define TOP                                                                    \
	"name = \"t\";\n"                                                      \
	"workloads = ( { type = \"smallfiles\"; } );\n"                        \
	"hosts = (\n"                                                          \
	"  { name = \"a\"; address = \"127.0.0.2\"; port = 2222; },\n"         \
	"  { name = \"b\"; address = \"127.0.0.3\"; }\n"                       \
	");\n"

static void
expect(const char *text, const char *want, size_t n)
{
	size_t got_n;
	char *got = run_check(text, &got_n);

	cr_assert_str_eq(got, want, "for:\n%s\ngot:\n%s", text, got);
	cr_assert_eq(got_n, n);
	free(got);
}

Test(lab_check_hosts, hosts_without_variants_on_them_are_fine)
{
	expect(TOP "variants = ( { name = \"v\"; scratch = { count = 1; "
		   "size = \"1G\"; };\n"
		   "  array = { engine = \"single\"; }; fs = { type = "
		   "\"ext4\"; }; } );\n",
	    "", 0);
}

Test(lab_check_hosts, placements_that_name_hosts_are_fine)
{
	expect(TOP "defaults = { directory = \"/tmp\"; };\n"
		   "variants = ( { name = \"v\"; hosts = \"all\"; },\n"
		   "  { name = \"w\"; hosts = [ \"b\", \"a\" ]; },\n"
		   "  { name = \"x\"; hosts = \"local\"; } );\n",
	    "", 0);
}

Test(lab_check_hosts, a_host_needs_a_name_and_an_address)
{
	expect("name = \"t\";\n"
	       "hosts = ( { port = 22; },\n"
	       "  { name = \"n\"; } );\n"
	       "workloads = ( { type = \"smallfiles\"; } );\n"
	       "variants = ( { name = \"v\"; directory = \"/tmp\"; } );\n",
	    "lab.cfg:2: hosts[0].name: missing; each host needs a name\n"
	    "lab.cfg:2: hosts[0].address: missing: a host name or an IP "
	    "address\n"
	    "lab.cfg:3: hosts.n.address: missing: a host name or an IP "
	    "address\n",
	    3);
}

Test(lab_check_hosts, placement_names_only_hosts_of_the_lab)
{
	expect(TOP "defaults = { directory = \"/tmp\"; };\n"
		   "variants = ( { name = \"v\"; hosts = [ \"a\", \"c\" ]; "
		   "} );\n",
	    "lab.cfg:8: variants.v.hosts: no host named 'c' (the hosts are: "
	    "a, b)\n",
	    1);
}

Test(lab_check_hosts, all_or_a_name_needs_a_hosts_list)
{
	expect("name = \"t\";\n"
	       "variants = ( { name = \"v\"; directory = \"/tmp\";\n"
	       "  hosts = \"all\"; },\n"
	       "  { name = \"w\"; directory = \"/tmp\"; hosts = \"a\"; } );\n",
	    "lab.cfg:3: variants.v.hosts: \"all\" hosts, but the lab has no "
	    "hosts list\n"
	    "lab.cfg:4: variants.w.hosts: no host named 'a': the lab has no "
	    "hosts list\n",
	    2);
}

Test(lab_check_hosts, all_and_local_stand_alone_and_names_once)
{
	expect(TOP "defaults = { directory = \"/tmp\"; };\n"
		   "variants = ( { name = \"v\"; hosts = [ \"all\", \"a\" ]; "
		   "},\n"
		   "  { name = \"w\"; hosts = [ \"b\", \"local\" ]; },\n"
		   "  { name = \"x\"; hosts = [ \"b\", \"b\" ]; } );\n",
	    "lab.cfg:8: variants.v.hosts: \"all\" stands alone, not in a list "
	    "of hosts\n"
	    "lab.cfg:9: variants.w.hosts: \"local\" stands alone, not in a "
	    "list of hosts\n"
	    "lab.cfg:10: variants.x.hosts: 'b' is named twice\n",
	    3);
}

Test(lab_check_hosts, a_bad_default_placement_is_said_once_at_defaults)
{
	expect(TOP "defaults = { directory = \"/tmp\"; hosts = \"c\"; };\n"
		   "variants = ( { name = \"v\"; }, { name = \"w\"; } );\n",
	    "lab.cfg:7: defaults.hosts: no host named 'c' (the hosts are: a, "
	    "b)\n",
	    1);
}

Test(lab_check_hosts, a_mapping_of_a_device_no_variant_uses_is_refused)
{
	expect("name = \"t\";\n"
	       "workloads = ( { type = \"smallfiles\"; } );\n"
	       "hosts = ( { name = \"a\"; address = \"127.0.0.2\";\n"
	       "  disks = [ \"scratch:0=/dev/vdb\", \"scratch:1=/dev/vdc\" "
	       "]; } );\n"
	       "variants = ( { name = \"v\"; hosts = \"all\";\n"
	       "  scratch = { count = 1; size = \"1G\"; };\n"
	       "  array = { engine = \"single\"; }; fs = { type = "
	       "\"ext4\"; }; } );\n",
	    "lab.cfg:4: hosts.a.disks: scratch:1=/dev/vdc: no variant uses "
	    "scratch:1\n",
	    1);
}

Test(lab_check_hosts, a_named_disk_may_be_mapped)
{
	expect("name = \"t\";\n"
	       "workloads = ( { type = \"smallfiles\"; } );\n"
	       "hosts = ( { name = \"a\"; address = \"h.example\";\n"
	       "  disks = [ \"/dev/sdb=/dev/vdb\", \"/dev/sdc=/dev/vdc\" ]; "
	       "} );\n"
	       "variants = ( { name = \"v\"; hosts = \"a\";\n"
	       "  array = { level = 1; devices = [ \"/dev/sdb\", \"/dev/sdc\" "
	       "]; };\n"
	       "  fs = { type = \"ext4\"; }; } );\n",
	    "", 0);
}

Test(lab_check_hosts, a_barrier_needs_a_variant_on_hosts)
{
	expect(TOP "barrier = true;\n"
		   "variants = ( { name = \"v\"; directory = \"/tmp\"; } );\n",
	    "lab.cfg:7: barrier: a barrier starts the rounds of hosts "
	    "together, but no variant runs on hosts\n",
	    1);
	expect(TOP "barrier = true;\n"
		   "variants = ( { name = \"v\"; directory = \"/tmp\"; "
		   "hosts = \"all\"; } );\n",
	    "", 0);
}
