/*
 * lab_check() rules for one array (lab-check-array), as a user meets them:
 * md levels against member counts, layouts, chunks, spares, bitmaps,
 * write journals, superblocks and nested legs; btrfs profiles; single
 * devices. Each case must be refused with exactly its one message (see
 * test-lab-check.c). Part of the test-lab-check program
 * (unit-lab-check.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "unit-lab-check.h"

/* Variants, between PRE and POST. */
static const struct bad_case bad_array[] = {
	{ "raid5_with_2_devices",
	    "{ name = \"r5\";\n"
	    "  array = { level = 5;\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:6: variants.r5.array.devices: RAID5 needs at least 3 "
	    "devices, got 2 (with 2 the parity is a copy of the data: use "
	    "RAID1)" },
	{ "raid6_with_3_devices",
	    "{ name = \"r6\";\n"
	    "  array = { level = 6;\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"]; }; }",
	    "lab.cfg:6: variants.r6.array.devices: RAID6 needs at least 4 "
	    "devices, got 3 (2 for P and Q parity plus at least 2 for data)" },
	{ "raid1_with_scratch_count_1",
	    "{ name = \"m\";\n"
	    "  scratch = { count = 1; size = \"1G\"; };\n"
	    "  array = { level = 1; }; }",
	    "lab.cfg:5: variants.m.scratch.count: RAID1 needs at least 2 "
	    "devices, got 1 (one device mirrors nothing)" },
	{ "raid10_n3_with_2_devices",
	    "{ name = \"r10\";\n"
	    "  array = { level = 10; layout = \"n3\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:6: variants.r10.array.devices: RAID10 layout n3 keeps 3 "
	    "copies: it needs at least 3 devices, got 2" },
	{ "bitmap_with_write_journal",
	    "{ name = \"bj\";\n"
	    "  array = { level = 5; devices = [\"/dev/sdb\", \"/dev/sdc\", "
	    "\"/dev/sdd\"];\n"
	    "    bitmap = \"internal\";\n"
	    "    journal = \"/dev/sde\"; }; }",
	    "lab.cfg:6: variants.bj.array.bitmap: a write-intent bitmap and a "
	    "write journal (journal, line 7) are mutually exclusive: md keeps "
	    "one or the other" },
	{ "write_journal_on_raid0",
	    "{ name = \"j0\";\n"
	    "  array = { level = 0; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
	    "    journal = \"/dev/sde\"; }; }",
	    "lab.cfg:6: variants.j0.array.journal: a write journal exists only "
	    "for RAID4, RAID5 and RAID6 (it closes the parity write hole); "
	    "RAID0 has no parity" },
	{ "write_journal_on_raid1",
	    "{ name = \"j1\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
	    "    journal = \"/dev/sde\"; }; }",
	    "lab.cfg:6: variants.j1.array.journal: a write journal exists only "
	    "for RAID4, RAID5 and RAID6 (it closes the parity write hole); "
	    "RAID1 has no parity" },
	{ "write_journal_on_raid10",
	    "{ name = \"j10\";\n"
	    "  array = { level = 10; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
	    "    journal = \"/dev/sde\"; }; }",
	    "lab.cfg:6: variants.j10.array.journal: a write journal exists "
	    "only for RAID4, RAID5 and RAID6 (it closes the parity write "
	    "hole); RAID10 has no parity" },
	{ "write_journal_with_superblock_0_90",
	    "{ name = \"j\";\n"
	    "  array = { level = 5; metadata = \"0.90\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"];\n"
	    "    journal = \"/dev/sde\"; }; }",
	    "lab.cfg:7: variants.j.array.journal: superblock 0.90 (metadata, "
	    "line 5) cannot record a write journal: use metadata 1.0, 1.1 or "
	    "1.2" },
	{ "layout_f2_on_raid5",
	    "{ name = \"r5\";\n"
	    "  array = { level = 5; layout = \"f2\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"]; }; }",
	    "lab.cfg:5: variants.r5.array.layout: f2 is a RAID10 layout "
	    "(near/far/offset copies); RAID5 takes left-symmetric, "
	    "left-asymmetric, right-symmetric, right-asymmetric, parity-first "
	    "or parity-last" },
	{ "raid6_layout_on_raid5",
	    "{ name = \"r5\";\n"
	    "  array = { level = 5; layout = \"left-symmetric-6\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"]; }; }",
	    "lab.cfg:5: variants.r5.array.layout: left-symmetric-6 is a RAID6 "
	    "layout (Q parity on the last device); RAID5 takes it without the "
	    "-6" },
	{ "layout_on_raid1",
	    "{ name = \"m\";\n"
	    "  array = { level = 1; layout = \"left-symmetric\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:5: variants.m.array.layout: RAID1 has no layout (layouts "
	    "exist for RAID0 zones, RAID5, RAID6 and RAID10)" },
	{ "raid10_layout_with_1_copy",
	    "{ name = \"r10\";\n"
	    "  array = { level = 10; layout = \"x2\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:5: variants.r10.array.layout: RAID10 layout x2 does not "
	    "exist: use n, f or o followed by the number of copies (2 or "
	    "more), as in n2, f2, o3" },
	{ "chunk_not_a_power_of_two",
	    "{ name = \"r5\";\n"
	    "  array = { level = 5; chunk = \"12K\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"]; }; }",
	    "lab.cfg:5: variants.r5.array.chunk: chunk 12K is not a power of "
	    "two, which RAID5 requires (4K, 8K, ..., 64K, 512K)" },
	{ "chunk_2k",
	    "{ name = \"r0\";\n"
	    "  array = { level = 0; chunk = \"2K\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:5: variants.r0.array.chunk: chunk 2K is too small: md "
	    "chunks are at least 4K" },
	{ "chunk_on_raid1",
	    "{ name = \"m\";\n"
	    "  array = { level = 1; chunk = \"64K\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:5: variants.m.array.chunk: RAID1 has no chunk: a mirror "
	    "does not stripe" },
	{ "chunk_on_btrfs",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; chunk = "
	    "\"64K\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; };\n"
	    "  fs = { type = \"btrfs\"; }; }",
	    "lab.cfg:5: variants.b.array.chunk: chunk is an md setting (mdadm "
	    "--chunk): engine btrfs has none" },
	{ "spares_on_raid0",
	    "{ name = \"r0\";\n"
	    "  array = { level = 0; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
	    "    spares = [\"/dev/sdd\"]; }; }",
	    "lab.cfg:6: variants.r0.array.spares: RAID0 cannot use spares: "
	    "with no redundancy there is nothing to rebuild onto them" },
	{ "bitmap_on_raid0",
	    "{ name = \"r0\";\n"
	    "  array = { level = 0; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
	    "    bitmap = \"internal\"; }; }",
	    "lab.cfg:6: variants.r0.array.bitmap: RAID0 has no redundancy to "
	    "resync: a write-intent bitmap means nothing there (use bitmap = "
	    "\"none\")" },
	{ "bitmap_chunk_not_a_power_of_two",
	    "{ name = \"r1\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
	    "    bitmap = { file = \"/var/tmp/r1.bitmap\"; chunk = \"3M\"; }; "
	    "}; }",
	    "lab.cfg:6: variants.r1.array.bitmap_chunk: bitmap chunk 3M must "
	    "be a power of two of at least 1K (mdadm counts it in K)" },
	{ "metadata_profile_on_md",
	    "{ name = \"r1\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"];\n"
	    "    metadata_profile = \"raid1\"; }; }",
	    "lab.cfg:6: variants.r1.array.metadata_profile: metadata_profile "
	    "is "
	    "a btrfs setting (mkfs.btrfs -m); for the md superblock version "
	    "use "
	    "metadata" },
	{ "btrfs_raid1c3_with_2_devices",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1c3\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:6: variants.b.array.devices: btrfs raid1c3 needs at least "
	    "3 devices, got 2" },
	{ "btrfs_metadata_raid1c4_with_3_devices",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\";\n"
	    "    metadata_profile = \"raid1c4\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"]; }; }",
	    "lab.cfg:6: variants.b.array.metadata_profile: btrfs metadata "
	    "profile raid1c4 needs at least 4 devices, got 3" },
	{ "single_engine_with_2_devices",
	    "{ name = \"s\";\n"
	    "  array = { engine = \"single\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:6: variants.s.array.devices: engine single uses exactly "
	    "one device, got 2" },
	{ "nested_array_with_outer_raid5",
	    "{ name = \"n\";\n"
	    "  array = { level = 5;\n"
	    "    legs = ( { level = 1;\n"
	    "        devices = [\"/dev/sdb\", \"/dev/sdc\"]; },\n"
	    "      { level = 1; devices = [\"/dev/sdd\", \"/dev/sde\"]; },\n"
	    "      { level = 1; devices = [\"/dev/sdf\", \"/dev/sdg\"]; } );"
	    " }; }",
	    "lab.cfg:5: variants.n.array.level: a nested array is RAID1 over "
	    "its legs (RAID0+1) or RAID0 over them (RAID1+0): level must be 0 "
	    "or 1, not 5" },
	{ "nested_array_with_1_leg",
	    "{ name = \"n\";\n"
	    "  array = { level = 1;\n"
	    "    legs = ( { level = 0; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "}"
	    " ); }; }",
	    "lab.cfg:6: variants.n.array.legs: a nested array needs at least 2 "
	    "legs, got 1" },
	{ "leg_raid5_with_2_devices",
	    "{ name = \"n\";\n"
	    "  array = { level = 1;\n"
	    "    legs = ( { level = 0; devices = [\"/dev/sdb\", "
	    "\"/dev/sdc\"]; },\n"
	    "      { level = 5; devices = [\"/dev/sdd\", \"/dev/sde\"]; } );"
	    " }; }",
	    "lab.cfg:7: variants.n.array.legs[1].devices: RAID5 needs at least "
	    "3 devices, got 2 (with 2 the parity is a copy of the data: use "
	    "RAID1)" },
};

ParameterizedTestParameters(lab_check, reports_each_impossible_array)
{
	return bad_cases(bad_array, sizeof bad_array / sizeof bad_array[0],
	    NULL, 0);
}

ParameterizedTest(struct lab_case *c, lab_check, reports_each_impossible_array)
{
	expect_one_message(c);
}
