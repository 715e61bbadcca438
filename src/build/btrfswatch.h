/*
 * btrfs's scrub and replace followed over time, for a fault phase: the
 * ops of an mdwatch (mdwatch.h) that run `btrfs scrub status --raw` and
 * `btrfs scrub status -R --raw`, or `btrfs replace status -1`, on the
 * mount point each interval, and the parsers of their output. A scrub's
 * progress is in bytes: what it read (data and tree) of what the
 * filesystem has allocated, which is all a scrub reads (while it runs,
 * from the kernel's BTRFS_IOC_SCRUB_PROGRESS: btrfs-progs 6.2 has no
 * figure until it ended); a replace's in
 * tenths of a percent, all btrfs-progs says. The watcher thread runs the
 * commands; the parsers are pure and any thread may call them.
 */
#ifndef RAIDLAB_BTRFSWATCH_H
#define RAIDLAB_BTRFSWATCH_H

#include <stdbool.h>

#include "mdwatch.h"

/* The error counters of `btrfs scrub status -R`, in its order. */
#define BTRFSWATCH_NERR 8
extern const char *const btrfswatch_errors[BTRFSWATCH_NERR];

/* One status of a scrub, as parsed. */
struct btrfswatch_scrub {
	bool seen; /* the output named a filesystem (UUID line) */
	char status[16]; /* "finished", "aborted", "interrupted", or
			    "running" (also when btrfs-progs has no stats
			    yet: it prints no status line then) */
	unsigned long long done; /* data and tree bytes scrubbed */
	unsigned long long total; /* "Total to scrub" (allocated bytes) */
	unsigned long long err[BTRFSWATCH_NERR];
};

/* Parse the output of `btrfs scrub status --raw` and/or `-R --raw`
   (either or both, concatenated) into s. False when it names no
   filesystem. */
bool btrfswatch_parse_scrub(const char *text, struct btrfswatch_scrub *s);

/* Whether the scrub has ended (whatever its outcome). */
bool btrfswatch_scrub_ended(const struct btrfswatch_scrub *s);

/* Watch the scrub of the btrfs mounted on mnt every interval_ms, as
   action "scrub"; the record adds {unit "bytes", status, errors {...}},
   and complete is true only for a scrub that finished. NULL when the
   thread cannot start. */
struct mdwatch *btrfswatch_scrub(const char *mnt, unsigned interval_ms);

/* One status of a replace, as `btrfs replace status -1` prints it. */
struct btrfswatch_replace {
	char status[16]; /* "running", "finished", "canceled",
			    "suspended", or "never" (never started) */
	unsigned permille; /* done, in tenths of a percent */
	unsigned long long write_errs, read_errs; /* uncorrectable reads */
};

/* Parse one status line into r; false when it is none of the above. */
bool btrfswatch_parse_replace(const char *text, struct btrfswatch_replace *r);

/* Watch the replace on the btrfs mounted on mnt every interval_ms, as
   action "replace"; the record adds {unit "permille", status, errors
   {write_errors, uncorrectable_read_errors}}, and complete is true only
   for a replace that finished. NULL when the thread cannot start. */
struct mdwatch *btrfswatch_replace(const char *mnt, unsigned interval_ms);

#endif
