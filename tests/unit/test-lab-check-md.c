/*
 * lab_check()'s rules for md's own knobs (lab-check-md.c), each refused
 * with exactly its one message: consistency policies and what each
 * needs, the write journal's mode, the stripe cache's keys, write-mostly
 * members and behind writes; and what is accepted. What this machine's
 * md cannot build is test-mdsys.c's (mdtools). Part of the test-lab-check
 * program (unit-lab-check.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>

#include "unit-lab-check.h"

#define R5 "devices = [\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\"];"
#define R1 "devices = [\"/dev/sdb\", \"/dev/sdc\"];"

static const struct bad_case bad_md[] = {
	{ "ppl_on_raid6",
	    "{ name = \"p\";\n"
	    "  array = { level = 6; devices = [\"/dev/sdb\", \"/dev/sdc\", "
	    "\"/dev/sdd\", \"/dev/sde\"];\n"
	    "    consistency_policy = \"ppl\"; }; }",
	    "lab.cfg:6: variants.p.array.consistency_policy: PPL (partial "
	    "parity log) exists only for RAID5; this is RAID6" },
	{ "ppl_with_a_bitmap",
	    "{ name = \"p\";\n"
	    "  array = { level = 5; " R5 "\n"
	    "    bitmap = \"internal\"; consistency_policy = \"ppl\"; }; }",
	    "lab.cfg:6: variants.p.array.consistency_policy: PPL and a "
	    "write-intent bitmap (bitmap, line 6) are mutually exclusive: md "
	    "keeps one or the other" },
	{ "ppl_with_superblock_0_90",
	    "{ name = \"p\";\n"
	    "  array = { level = 5; " R5 " metadata = \"0.90\";\n"
	    "    consistency_policy = \"ppl\"; }; }",
	    "lab.cfg:6: variants.p.array.consistency_policy: PPL needs "
	    "metadata 1.x; superblock 0.90 (metadata, line 5) has no room for "
	    "it" },
	{ "ppl_with_a_write_journal",
	    "{ name = \"p\";\n"
	    "  array = { level = 5; " R5 " journal = \"/dev/sde\";\n"
	    "    consistency_policy = \"ppl\"; }; }",
	    "lab.cfg:6: variants.p.array.consistency_policy: PPL and a write "
	    "journal (journal, line 5) are mutually exclusive: both close the "
	    "write hole" },
	{ "journal_policy_without_a_journal",
	    "{ name = \"j\";\n"
	    "  array = { level = 5; " R5 "\n"
	    "    consistency_policy = \"journal\"; }; }",
	    "lab.cfg:6: variants.j.array.consistency_policy: policy "
	    "\"journal\" needs a write journal device: set journal (RAID4, "
	    "RAID5 and RAID6 only)" },
	{ "bitmap_policy_without_a_bitmap",
	    "{ name = \"b\";\n"
	    "  array = { level = 1; " R1 "\n"
	    "    consistency_policy = \"bitmap\"; }; }",
	    "lab.cfg:6: variants.b.array.consistency_policy: policy \"bitmap\" "
	    "needs a write-intent bitmap: set bitmap = \"internal\"" },
	{ "resync_policy_with_a_bitmap",
	    "{ name = \"r\";\n"
	    "  array = { level = 1; " R1 " bitmap = \"internal\";\n"
	    "    consistency_policy = \"resync\"; }; }",
	    "lab.cfg:6: variants.r.array.consistency_policy: \"resync\" is "
	    "md's policy without a bitmap; this array has one (bitmap, line "
	    "5), which makes it \"bitmap\"" },
	{ "a_policy_on_raid0",
	    "{ name = \"z\";\n"
	    "  array = { level = 0; " R1 "\n"
	    "    consistency_policy = \"resync\"; }; }",
	    "lab.cfg:6: variants.z.array.consistency_policy: RAID0 has no "
	    "redundancy to keep consistent: it has no consistency policy" },
	{ "journal_mode_without_a_journal",
	    "{ name = \"j\";\n"
	    "  array = { level = 5; " R5 "\n"
	    "    journal_mode = \"write-back\"; }; }",
	    "lab.cfg:6: variants.j.array.journal_mode: journal_mode is the "
	    "write journal's: set journal to a device (RAID4, RAID5 and "
	    "RAID6)" },
	{ "stripe_cache_on_raid10",
	    "{ name = \"s\";\n"
	    "  array = { level = 10; " R1 "\n"
	    "    stripe_cache_size = 1024; }; }",
	    "lab.cfg:6: variants.s.array.stripe_cache_size: stripe_cache_size "
	    "is a setting of md's stripe cache, which only RAID4, RAID5 and "
	    "RAID6 have; this is RAID10" },
	{ "skip_copy_on_raid1",
	    "{ name = \"s\";\n"
	    "  array = { level = 1; " R1 "\n"
	    "    skip_copy = true; }; }",
	    "lab.cfg:6: variants.s.array.skip_copy: skip_copy is a setting of "
	    "md's stripe cache, which only RAID4, RAID5 and RAID6 have; this "
	    "is RAID1" },
	{ "preread_bypass_above_the_default_cache",
	    "{ name = \"s\";\n"
	    "  array = { level = 5; " R5 "\n"
	    "    preread_bypass_threshold = 300; }; }",
	    "lab.cfg:6: variants.s.array.preread_bypass_threshold: 300 is more "
	    "than the stripe cache's 256 stripes: md refuses a threshold "
	    "above it" },
	{ "write_mostly_on_raid5",
	    "{ name = \"w\";\n"
	    "  array = { level = 5; " R5 "\n"
	    "    write_mostly = [\"/dev/sdc\"]; }; }",
	    "lab.cfg:6: variants.w.array.write_mostly: write-mostly members "
	    "are a RAID1 and RAID10 setting (reads go to the other mirrors); "
	    "this is RAID5" },
	{ "write_mostly_not_a_member",
	    "{ name = \"w\";\n"
	    "  array = { level = 1; " R1 "\n"
	    "    write_mostly = [\"/dev/sdx\"]; }; }",
	    "lab.cfg:6: variants.w.array.write_mostly: /dev/sdx is not a "
	    "member of this array (devices)" },
	{ "write_mostly_every_member",
	    "{ name = \"w\";\n"
	    "  array = { level = 1; " R1 "\n"
	    "    write_mostly = [\"/dev/sdb\", \"/dev/sdc\"]; }; }",
	    "lab.cfg:6: variants.w.array.write_mostly: every member is "
	    "write-mostly: reads would have no other member to go to" },
	{ "write_behind_without_a_bitmap",
	    "{ name = \"w\";\n"
	    "  array = { level = 1; " R1 " write_mostly = [\"/dev/sdc\"];\n"
	    "    write_behind = 256; }; }",
	    "lab.cfg:6: variants.w.array.write_behind: write_behind needs a "
	    "write-intent bitmap: md counts the writes that are behind in it" },
	{ "write_behind_without_write_mostly_members",
	    "{ name = \"w\";\n"
	    "  array = { level = 1; " R1 " bitmap = \"internal\";\n"
	    "    write_behind = 256; }; }",
	    "lab.cfg:6: variants.w.array.write_behind: write_behind needs "
	    "write-mostly members (write_mostly): only their writes go "
	    "behind" },
	{ "write_behind_on_raid10",
	    "{ name = \"w\";\n"
	    "  array = { level = 10; " R1 " bitmap = \"internal\";\n"
	    "    write_mostly = [\"/dev/sdc\"]; write_behind = 256; }; }",
	    "lab.cfg:6: variants.w.array.write_behind: behind writes are "
	    "RAID1's; this is RAID10" },
	{ "lockless_bitmap_with_superblock_1_0",
	    "{ name = \"l\";\n"
	    "  array = { level = 1; " R1 " metadata = \"1.0\";\n"
	    "    bitmap = \"lockless\"; }; }",
	    "lab.cfg:6: variants.l.array.bitmap: a lockless bitmap needs "
	    "metadata 1.2 (metadata, line 5)" },
	{ "phase_on_raid0",
	    "{ name = \"z\";\n"
	    "  array = { level = 0; " R1 "\n"
	    "    phase = \"degraded\"; }; }",
	    "lab.cfg:6: variants.z.array.phase: RAID0 has no redundancy: a "
	    "failed member takes the array with it, and there is nothing to "
	    "rebuild or check" },
	{ "failing_more_than_raid5_survives",
	    "{ name = \"f\";\n"
	    "  array = { level = 5; " R5 "\n"
	    "    phase = \"rebuild\"; fail = 2; }; }",
	    "lab.cfg:6: variants.f.array.fail: RAID5 of 3 members survives "
	    "the loss of 1; failing 2 would lose the data" },
	{ "failing_more_than_raid10_n2_keeps",
	    "{ name = \"f\";\n"
	    "  array = { level = 10; devices = [\"/dev/sdb\", \"/dev/sdc\", "
	    "\"/dev/sdd\", \"/dev/sde\"];\n"
	    "    phase = \"degraded\"; fail = 2; }; }",
	    "lab.cfg:6: variants.f.array.fail: RAID10 of 4 members survives "
	    "the loss of 1; failing 2 would lose the data" },
	{ "failing_every_mirror",
	    "{ name = \"f\";\n"
	    "  array = { level = 1; " R1 "\n"
	    "    phase = \"degraded\"; fail = 2; }; }",
	    "lab.cfg:6: variants.f.array.fail: RAID1 of 2 members survives "
	    "the loss of 1; failing 2 would lose the data" },
	{ "degraded_with_a_spare",
	    "{ name = \"s\";\n"
	    "  array = { level = 1; " R1 " spares = [\"/dev/sdd\"];\n"
	    "    phase = \"degraded\"; }; }",
	    "lab.cfg:6: variants.s.array.phase: a spare (spares, line 5) takes "
	    "over at once: md would rebuild onto it, not run degraded" },
	{ "assume_clean_with_raid5_degraded_on_disks",
	    "{ name = \"a\";\n"
	    "  array = { level = 5; " R5 " assume_clean = true;\n"
	    "    phase = \"degraded\"; }; }",
	    "lab.cfg:5: variants.a.array.assume_clean: assume_clean skips "
	    "md's initial sync: on disks not known to be zeros (not scratch), "
	    "RAID5's parity stays as the disks had it, and the member failed "
	    "would read back wrong; drop it, and raidlab waits for the sync" },
	{ "assume_clean_with_a_check_on_disks",
	    "{ name = \"a\";\n"
	    "  array = { level = 1; " R1 " assume_clean = true;\n"
	    "    phase = \"check\"; }; }",
	    "lab.cfg:5: variants.a.array.assume_clean: assume_clean skips "
	    "md's initial sync: on disks not known to be zeros (not scratch), "
	    "the scrub would count every block never written as a mismatch; "
	    "drop it, and raidlab waits for the sync" },
	{ "phase_on_a_nested_array",
	    "{ name = \"n\";\n"
	    "  array = { level = 1; phase = \"check\";\n"
	    "    legs = ( { level = 0; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "},\n"
	    "      { level = 0; devices = [\"/dev/sdd\", \"/dev/sde\"]; } ); "
	    "}; }",
	    "lab.cfg:5: variants.n.array.phase: phases fail and scrub the "
	    "members of a plain md array; a nested array's members are its "
	    "legs" },
	{ "fail_without_a_failing_phase",
	    "{ name = \"f\";\n"
	    "  array = { level = 1; " R1 "\n"
	    "    phase = \"check\"; fail = 1; }; }",
	    "lab.cfg:6: variants.f.array.fail: fail is how many members the "
	    "degraded and rebuild phases fail; this phase is \"check\"" },
	{ "sync_speed_min_above_max",
	    "{ name = \"s\";\n"
	    "  array = { level = 1; " R1 " sync_speed_max = 1000;\n"
	    "    sync_speed_min = 5000; }; }",
	    "lab.cfg:6: variants.s.array.sync_speed_min: 5000 KiB/s is above "
	    "sync_speed_max (1000 KiB/s, line 5)" },
	{ "btrfs_rebuilds_one_member_at_a_time",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1c3\";\n"
	    "    metadata_profile = \"raid1c3\"; devices = [\"/dev/sdb\", "
	    "\"/dev/sdc\", \"/dev/sdd\"];\n"
	    "    phase = \"rebuild\"; fail = 2; }; }",
	    "lab.cfg:7: variants.b.array.fail: btrfs runs one replace at a "
	    "time: the rebuild phase replaces 1 member, not 2" },
	{ "btrfs_rebuild_loses_what_raid1_cannot",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; " R1 "\n"
	    "    phase = \"rebuild\"; fail = 2; }; }",
	    "lab.cfg:6: variants.b.array.fail: btrfs raid1 of 2 devices "
	    "survives the loss of 1; failing 2 would lose the data" },
	{ "btrfs_check_fails_nothing",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; " R1 "\n"
	    "    phase = \"check\"; fail = 1; }; }",
	    "lab.cfg:6: variants.b.array.fail: fail is how many members the "
	    "degraded and rebuild phases fail; this phase is \"check\"" },
	{ "btrfs_healthy_fails_nothing",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; " R1 "\n"
	    "    fail = 1; }; }",
	    "lab.cfg:6: variants.b.array.fail: fail is how many members the "
	    "degraded and rebuild phases fail; this phase is \"healthy\"" },
	{ "btrfs_metadata_survives_less_than_data",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1c3\";\n"
	    "    metadata_profile = \"raid1\"; devices = [\"/dev/sdb\", "
	    "\"/dev/sdc\", \"/dev/sdd\"];\n"
	    "    phase = \"degraded\"; fail = 2; }; }",
	    "lab.cfg:7: variants.b.array.fail: btrfs raid1c3 of 3 devices "
	    "survives the loss of 1; failing 2 would lose the data" },
	{ "md_knob_on_btrfs",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid5\"; " R5 "\n"
	    "    stripe_cache_size = 1024; }; }",
	    "lab.cfg:6: variants.b.array.stripe_cache_size: stripe_cache_size "
	    "is an md setting (md(4)): engine btrfs has none" },
};

ParameterizedTestParameters(lab_check, reports_each_impossible_md_knob)
{
	return bad_cases(bad_md, sizeof bad_md / sizeof bad_md[0], NULL, 0);
}

ParameterizedTest(struct lab_case *c, lab_check,
    reports_each_impossible_md_knob)
{
	expect_one_message(c);
}

/* Every knob where it belongs, in one lab. */
Test(lab_check, accepts_md_knobs_where_md_has_them)
{
	size_t n;
	char *got = run_check(
	    "name = \"t\";\nworkloads = ( { type = \"fio\"; } );\n"
	    "variants = (\n"
	    "{ name = \"ppl\"; array = { level = 5; " R5 "\n"
	    "  consistency_policy = \"ppl\"; stripe_cache_size = 4096;\n"
	    "  group_thread_cnt = 4; skip_copy = true;\n"
	    "  preread_bypass_threshold = 0; }; },\n"
	    "{ name = \"jwb\"; array = { level = 5; " R5 "\n"
	    "  journal = \"/dev/sde\"; journal_mode = \"write-back\";\n"
	    "  consistency_policy = \"journal\"; stripe_cache_size = 2048; "
	    "}; },\n"
	    "{ name = \"wb\"; scratch = { count = 3; size = \"1G\"; };\n"
	    "  array = { level = 1; bitmap = \"internal\";\n"
	    "  write_mostly = [\"scratch:2\"]; write_behind = 4096;\n"
	    "  consistency_policy = \"bitmap\"; }; },\n"
	    "{ name = \"r10\"; array = { level = 10; " R1 "\n"
	    "  write_mostly = [\"/dev/sdc\"]; }; },\n"
	    "{ name = \"r6\"; array = { level = 6; devices = [\"/dev/sdb\", "
	    "\"/dev/sdc\", \"/dev/sdd\", \"/dev/sde\"];\n"
	    "  phase = \"rebuild\"; fail = 2; sync_speed_min = 1000;\n"
	    "  sync_speed_max = 50000; }; },\n"
	    "{ name = \"r1c\"; array = { level = 1; devices = [\"/dev/sdb\", "
	    "\"/dev/sdc\", \"/dev/sdd\"]; phase = \"degraded\"; fail = 2; }; "
	    "},\n"
	    "{ name = \"chk\"; array = { level = 10; " R1 " phase = "
	    "\"check\"; }; },\n"
	    "{ name = \"r1ac\"; array = { level = 1; " R1 " assume_clean = "
	    "true; phase = \"rebuild\"; }; },\n"
	    "{ name = \"r5ac\"; scratch = { count = 3; size = \"1G\"; };\n"
	    "  array = { level = 5; assume_clean = true; phase = \"check\"; "
	    "}; },\n"
	    "{ name = \"r5sc\"; scratch = { count = 3; size = \"1G\"; };\n"
	    "  array = { level = 5; assume_clean = true; phase = "
	    "\"degraded\";\n"
	    "  devices = [\"scratch:0\", \"scratch:1\", \"scratch:2\"]; }; "
	    "},\n"
	    "{ name = \"r10ac\"; array = { level = 10; devices = "
	    "[\"/dev/sdb\", \"/dev/sdc\", \"/dev/sdd\", \"/dev/sde\"]; "
	    "assume_clean = true; phase = \"rebuild\"; }; },\n"
	    "{ name = \"bchk\"; array = { engine = \"btrfs\"; level = "
	    "\"raid1\"; " R1 " phase = \"check\"; }; },\n"
	    "{ name = \"brb\"; array = { engine = \"btrfs\"; level = "
	    "\"raid1\"; " R1 " phase = \"rebuild\"; fail = 1; }; }\n"
	    ");\n",
	    &n);

	cr_expect_eq(n, 0, "refused:\n%s", got);
	free(got);
}
