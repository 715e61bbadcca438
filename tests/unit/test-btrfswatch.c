/*
 * btrfswatch's parser against what btrfs-progs 6.2 printed on this
 * host's loop devices (a raid1 of two, 400 MiB written): a scrub just
 * started (no stats yet, no status line), one that finished, one
 * cancelled, and the error counters of a damaged one; and the watch
 * itself, on a stand-in `btrfs` first in PATH that reports a scrub
 * running twice, then finished.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "build/btrfswatch.h"

#define UUID "UUID:             0d49a1b2-52cf-43b1-8368-0c0f423099d3\n"

/* -R --raw right after `btrfs scrub start`. */
static const char started[] = UUID "\tno stats available\n"
				   "\tdata_extents_scrubbed: 0\n"
				   "\tdata_bytes_scrubbed: 0\n"
				   "\ttree_bytes_scrubbed: 0\n"
				   "\tread_errors: 0\n"
				   "\tcsum_errors: 0\n"
				   "\tlast_physical: 0\n";

/* --raw, then -R --raw, of a scrub that finished. */
static const char finished[] =
    UUID "Scrub started:    Fri Dec  4 20:13:42 2026\n"
	 "Status:           finished\n"
	 "Duration:         0:00:10\n"
	 "Total to scrub:   420216832\n"
	 "Rate:             42034790/s\n"
	 "Error summary:    no errors found\n" UUID
	 "Scrub started:    Fri Dec  4 20:13:42 2026\n"
	 "Status:           finished\n"
	 "Duration:         0:00:10\n"
	 "\tdata_extents_scrubbed: 6400\n"
	 "\ttree_extents_scrubbed: 56\n"
	 "\tdata_bytes_scrubbed: 419430400\n"
	 "\ttree_bytes_scrubbed: 917504\n"
	 "\tread_errors: 0\n"
	 "\tcsum_errors: 0\n"
	 "\tverify_errors: 0\n"
	 "\tno_csum: 0\n"
	 "\tcsum_discards: 0\n"
	 "\tsuper_errors: 0\n"
	 "\tmalloc_errors: 0\n"
	 "\tuncorrectable_errors: 0\n"
	 "\tunverified_errors: 0\n"
	 "\tcorrected_errors: 0\n"
	 "\tlast_physical: 482672640\n";

Test(btrfswatch, a_scrub_without_stats_yet_runs)
{
	struct btrfswatch_scrub s;

	cr_assert(btrfswatch_parse_scrub(started, &s));
	cr_expect_str_eq(s.status, "running");
	cr_expect_not(btrfswatch_scrub_ended(&s));
	cr_expect_eq(s.done, 0);
}

Test(btrfswatch, a_finished_scrub_counts_data_and_tree)
{
	struct btrfswatch_scrub s;

	cr_assert(btrfswatch_parse_scrub(finished, &s));
	cr_expect_str_eq(s.status, "finished");
	cr_expect(btrfswatch_scrub_ended(&s));
	cr_expect_eq(s.done, 419430400ULL + 917504ULL);
	cr_expect_eq(s.total, 420216832ULL);
	for (size_t i = 0; i < BTRFSWATCH_NERR; i++)
		cr_expect_eq(s.err[i], 0, "%s", btrfswatch_errors[i]);
}

Test(btrfswatch, a_cancelled_scrub_ended_aborted)
{
	struct btrfswatch_scrub s;

	cr_assert(btrfswatch_parse_scrub(UUID "Status:           aborted\n"
					      "Duration:         0:00:02\n"
					      "Total to scrub:   420216832\n"
					      "Bytes scrubbed:   104857600  "
					      "(24.95%)\n",
	    &s));
	cr_expect_str_eq(s.status, "aborted");
	cr_expect(btrfswatch_scrub_ended(&s));
	cr_expect_eq(s.done, 104857600ULL);
}

Test(btrfswatch, error_counters_by_name)
{
	struct btrfswatch_scrub s;

	cr_assert(btrfswatch_parse_scrub(UUID "Status:           finished\n"
					      "\tcsum_errors: 3\n"
					      "\tno_csum: 7\n"
					      "\tuncorrectable_errors: 1\n"
					      "\tcorrected_errors: 2\n",
	    &s));
	for (size_t i = 0; i < BTRFSWATCH_NERR; i++) {
		const char *n = btrfswatch_errors[i];
		unsigned long long want = strcmp(n, "csum_errors") == 0 ? 3
		    : strcmp(n, "uncorrectable_errors") == 0            ? 1
		    : strcmp(n, "corrected_errors") == 0                ? 2
									: 0;

		cr_expect_eq(s.err[i], want, "%s: %llu", n, s.err[i]);
	}
}

Test(btrfswatch, no_filesystem_named_is_no_status)
{
	struct btrfswatch_scrub s;

	cr_expect_not(
	    btrfswatch_parse_scrub("ERROR: not a btrfs filesystem: /x\n", &s));
	cr_expect_not(btrfswatch_parse_scrub("", &s));
}

/* `btrfs replace status -1` as btrfs-progs 6.2 printed it here. */
Test(btrfswatch, a_replace_running_then_finished)
{
	struct btrfswatch_replace r;

	cr_assert(btrfswatch_parse_replace(
	    "45.2% done, 0 write errs, 0 uncorr. read errs\n", &r));
	cr_expect_str_eq(r.status, "running");
	cr_expect_eq(r.permille, 452);
	cr_assert(btrfswatch_parse_replace("Started on  4.Dec 20:27:33, "
					   "finished on  4.Dec 20:27:33, 2 "
					   "write errs, 7 uncorr. read errs\n",
	    &r));
	cr_expect_str_eq(r.status, "finished");
	cr_expect_eq(r.permille, 1000);
	cr_expect_eq(r.write_errs, 2);
	cr_expect_eq(r.read_errs, 7);
}

Test(btrfswatch, a_replace_cancelled_or_never_started)
{
	struct btrfswatch_replace r;

	cr_assert(btrfswatch_parse_replace(
	    "Started on  4.Dec 20:27:33, canceled on  4.Dec 20:27:35 at "
	    "12.0%, 0 write errs, 0 uncorr. read errs\n",
	    &r));
	cr_expect_str_eq(r.status, "canceled");
	cr_expect_eq(r.permille, 0);
	cr_assert(btrfswatch_parse_replace("Never started\n", &r));
	cr_expect_str_eq(r.status, "never");
	cr_expect_not(btrfswatch_parse_replace("ERROR: not a btrfs\n", &r));
}

/* A stand-in btrfs: "running" for its first two looks (each look runs
   it twice), then the finished scrub above. */
static char dir[64];

static void
fake_btrfs(void)
{
	char *p;
	FILE *f;

	snprintf(dir, sizeof dir, "/tmp/rl-btrfswatch.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	p = xasprintf("%s/btrfs", dir);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fprintf(f,
	    "#!/bin/sh\n"
	    "n=$(cat %s/n 2>/dev/null || echo 0); echo $((n + 1)) >%s/n\n"
	    "if [ \"$n\" -lt 4 ]; then printf '%%s' '%s'; exit 0; fi\n"
	    "printf '%%s' '%s'\n",
	    dir, dir, started, finished);
	fclose(f);
	chmod(p, 0755);
	free(p);
	p = xasprintf("%s:%s", dir, getenv("PATH"));
	setenv("PATH", p, 1);
	free(p);
}

Test(btrfswatch, the_watch_follows_a_scrub_to_its_end)
{
	struct mdwatch *w;
	json_t *o, *s;
	char *cmd;

	fake_btrfs();
	w = btrfswatch_scrub("/run/rl/mnt/1-a", 20);
	cr_assert_not_null(w);
	cr_expect(mdwatch_wait(w, 30.0, NULL, NULL));
	o = mdwatch_end(w);
	s = json_object_get(o, "samples");
	cr_expect_str_eq(json_string_value(json_object_get(o, "action")),
	    "scrub");
	cr_expect(json_is_true(json_object_get(o, "complete")));
	cr_expect_str_eq(json_string_value(json_object_get(o, "status")),
	    "finished");
	cr_expect_str_eq(json_string_value(json_object_get(o, "unit")),
	    "bytes");
	/* two looks running, the last one finished */
	cr_expect_eq(json_array_size(json_object_get(s, "t")), 3);
	cr_expect_eq(json_integer_value(
			 json_array_get(json_object_get(s, "done"), 2)),
	    419430400 + 917504);
	cr_expect_eq(json_integer_value(
			 json_object_get(json_object_get(o, "errors"),
			     "uncorrectable_errors")),
	    0);
	cr_expect_gt(json_real_value(json_object_get(o, "seconds")), 0.0);
	json_decref(o);
	cmd = xasprintf("rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	free(cmd);
}
