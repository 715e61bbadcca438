/*
 * Result records: the JSON file one `raidlab run` writes into the results
 * directory, with everything needed to trust and compare its figures
 * later: raidlab's version, the host (kernel, CPU, cores, RAM), the lab
 * as loaded, and for every run (variant x workload x repeat) the variant,
 * the target (path, filesystem, mount options, the devices under it and
 * their models), the workload's parameters, start and end, status, notes,
 * per-test figures with %CPU and latency histograms, and the sampled time
 * series. The file is rewritten (atomically) after every run, so a killed
 * `raidlab run` leaves the runs it finished. record_load() reads one back
 * for `raidlab show` and comparisons. The thread that owns the record.
 *
 * Format (version 1), top level:
 *   format "raidlab-result", version 1, raidlab_version, created (ISO 8601
 *   UTC), host {hostname, kernel, kernel_build, arch, cpu_model, cores,
 *   ram_bytes}, writer {pid, start_ticks, boot_id} (the process writing
 *   it: its pid, its start in clock ticks since boot, /proc's boot_id),
 *   lab {name, path, text (lab_format()), scaled (the --scale, --set
 *   and --disk it ran with, lab-scale.h; absent for a full run)}, status ("ok",
 * "failed", "interrupted", "running"), in_progress {variant, workload, repeat,
 *   start} (while a workload runs), runs [...], builds [...] (one per
 *   array variant build: see provision.h), hooks [...] (`run --hook` on a
 *   directory variant: {variant, target, program, status, output}; an
 *   array variant's is its build's "hook"), rounds {...} (below),
 *   fleet {host} (`raidlab run --fleet-host`: the fleet host whose
 *   share it is; compare's host, compare-fleet.h), stability [...]
 *   (written when the run ends: compare.h's
 *   compare_stability_json(), one object per variant and test with n,
 *   mean, sd, cv, median, min, max, ci_lo, ci_hi, marks, marks_text;
 *   derived, never read back).
 * rounds: how the run repeated (absent in records older than it):
 *   order ("interleaved" | "grouped"), min, max (the rounds asked for;
 *   both N for repeats = N), ci_goal (the goal as a fraction of the mean,
 *   0.02 for +-2%; null for a fixed count), cv_limit (a fraction: the
 *   CV above which a variant's repeats are unstable), test ("log" |
 *   "welch" | "rank": the lab's test for compare's verdicts),
 *   equivalence (a fraction: the lab's margin, 0.02 for +-2%; both
 *   absent in older records: compare's defaults), done (rounds run:
 *   interleaved, every variant's; grouped, the most any pair ran),
 *   stopped ("goal" | "max" | "fixed" | "interrupted" | "failed"; null
 *   while running), why (one sentence in words), pairs [{variant,
 *   workload, done, stopped, why}] (each selected variant x workload).
 * A "running" record whose writer is gone (killed, the machine stopped)
 * reads back as "interrupted", with interrupted_reason saying so.
 * A run:
 *   variant {name, kind ("directory" | "array"), scratch (bool), text},
 *   target {path, fstype, source, mount_point, mount_options, devices
 *   [{name, path, model, vendor, serial, size, rotational, transport}]},
 *   workload {type, name, params {key: value as in the lab file}}, repeat
 *   (1-based), skipped (string reason, when the run could not happen), and
 *   the result: status, error, notes [], start, end, wall, tick, tests
 *   [{key, label, unit, value, wall, user, sys, cpu_percent, bytes_read,
 *   bytes_written, files, ops, too_fast, interrupted, latency {op: {n,
 *   mean_ns, min_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns, sum_ns,
 *   buckets [[index, count], ...]}}}], series {dropped, merged, t [],
 *   dt [], bytes_read [], bytes_written [], files [], ops [], members
 *   [{name, role, read_bytes [], write_bytes [], busy []}]}.
 * series: one value per sample in each array. A sample spans merged
 * ticks (1, 2, 4...: a long run's samples merge in pairs so that the
 * series covers the whole run, series.h), the newest possibly fewer;
 * t is its end in seconds since the run started, dt its length (the
 * newest's t is the run's end), the counters what happened during it.
 * dropped counts samples older raidlabs lost when full (0 now; merged
 * absent: 1). members: the target's block devices (sysfs kernel names;
 * role "array" for an md device, "member" for a device it or a dm
 * device is made of, "device" for a plain one; none for tmpfs), aligned
 * with t: read_bytes and write_bytes moved during each sample (sectors
 * x 512, as the kernel counts them: including metadata, journal and
 * writeback of earlier samples), busy the fraction of the sample's dt
 * the device had I/O in flight (io_ticks, 0..1; null when unknown).
 * Older records have no members.
 * Details: a device also has type ("disk", "part", "loop", "md", "dm")
 * and, for a loop, backing_file; devices [] for tmpfs/overlay. params
 * hold integers, booleans, strings (enums by name, "auto"), sizes in
 * exact lab syntax ("4K"), lists as arrays. A skipped run has no result
 * fields. start/end are "YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ" (exact); a
 * histogram with n = 0 is left out; a uint64 above INT64_MAX (a saturated
 * sum) is a decimal string; a non-finite double is null. cpu_percent,
 * mean_ns and the percentiles are derived (ignored when reading).
 * Imported records (`raidlab import`: another tool's results) have
 * lab {name, path null, text null}, no writer, host with only what the
 * input says (often {}), variants of kind "imported", target null, a
 * run "host" {hostname} when the input names one per run, and
 * imported {from ("bonnie++ 1.01b text", "fio-3.33 json"), file (the
 * input's path), tool ("bonnie++", "fio", "compilebench"), tool_version
 * (null when the input does not say), missing ["latency", "wall", ...]
 * (what the input lacks that a raidlab run records, and what was
 * guessed to fill it: see import.h)}.
 */
#ifndef RAIDLAB_RECORD_H
#define RAIDLAB_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "measure/result.h"

struct err;
struct lab;
struct lab_variant;
struct lab_workload;

#define RECORD_FORMAT "raidlab-result"
#define RECORD_VERSION 1

/*
 * One run as read back from a record (record_load()), or as appended by
 * record_add_run() (its result rebuilt from the JSON just stored, so a
 * live record reports exactly what its file will say).
 */
struct record_run {
	char *variant; /* variant name */
	char *skipped; /* why it did not run, or NULL */
	bool scratch; /* members share one disk: not representative */
	int repeat;
	struct wl_result *res; /* NULL when skipped */
	json_t *json; /* the run's object (borrowed from record) */
	char *type; /* the workload's type: "bonnie" */
	char *workload; /* the lab's workload name, or the type */
};

struct record {
	json_t *root; /* the whole document, owned */
	char *path; /* where it is saved, or NULL */
	struct record_run *runs; /* filled by record_load() and
				    record_add_run() */
	size_t nruns;
	time_t created; /* record_new(), or "created" when loaded */
};

/* A new record for a run of lab (host facts and the lab text filled). */
struct record *record_new(const struct lab *lab);
void record_free(struct record *rec);

/*
 * Append one run. target may be NULL for a skipped run (skipped then says
 * why); res may be NULL likewise. params are the workload entry's values.
 */
void record_add_run(struct record *rec, const struct lab_variant *v,
    const char *target, const struct lab_workload *w, int repeat,
    const struct wl_result *res, const char *skipped);

/*
 * A record of results measured elsewhere (`raidlab import`): no lab text
 * and no writer, status "ok", lab.name = name, host as the input told it
 * (NULL: an empty object, unknown) and the top-level "imported" object;
 * both references are taken.
 */
struct record *
record_new_imported(const char *name, json_t *host, json_t *imported);
/*
 * Append one imported run: variant {name, kind "imported", text}, the
 * workload's effective params from w, host (taken; NULL: none) and res.
 * -EINVAL (with e) when res does not read back.
 */
int record_add_imported_run(struct record *rec, const char *variant,
    const char *text, json_t *host, const struct lab_workload *w,
    const struct wl_result *res, struct err *e);

/*
 * Append an array variant's build (provision.h: plan, steps, resync,
 * facts, teardown, status) to "builds". The record keeps a reference:
 * the provisioner goes on filling the object, and every save writes it
 * as it stands.
 */
void record_add_build(struct record *rec, json_t *build);
/* builds[i] is build from now on (a reference kept); appended when i is
   past the end. */
void record_set_build(struct record *rec, size_t i, json_t *build);
/* The last run's target facts, as record_target_json() gave them in the
   thread that ran it (a reference kept). */
void record_set_run_target(struct record *rec, json_t *target);

/* The record says it ran scaled down: lab.scaled = how (NULL: nothing). */
void record_set_scaled(struct record *rec, const char *how);
/* The record is a fleet host's share: fleet = {host} (NULL: nothing). */
void record_set_fleet_host(struct record *rec, const char *host);
/* lab.scaled of a record document, or NULL for a full run. */
const char *record_scaled(const json_t *root);

/* Append to "hooks" (a reference kept): a directory variant's hook
   result {variant, target, program, status, output}. */
void record_add_hook(struct record *rec, json_t *hook);

/* Set the top-level "rounds" object (a reference kept: see above). */
void record_set_rounds(struct record *rec, json_t *rounds);
/* A record document's "rounds", or NULL (an older record). */
const json_t *record_rounds(const json_t *root);
/* Its cv_limit as a fraction; RECORD_CV_LIMIT when absent. */
#define RECORD_CV_LIMIT 0.05
double record_cv_limit(const json_t *root);
/* Its test (enum stats_test), STATS_TEST_LOG when absent or unknown. */
int record_test(const json_t *root);
/* Its equivalence margin as a fraction (0.02 for +-2%); RECORD_MARGIN
   when absent or out of range. */
#define RECORD_MARGIN 0.02
double record_equivalence(const json_t *root);
/* Its order; "grouped" when absent: older records ran grouped. */
const char *record_order(const json_t *root);
/* Why its rounds stopped, or NULL (absent, or still running). */
const char *record_rounds_why(const json_t *root);
/* Set the top-level "stability": what the repeats say
   (compare_stability_json()); the reference is taken. Derived: readers
   recompute it, raidlab never reads it back. */
void record_set_stability(struct record *rec, json_t *stability);

/* Set the top-level status ("running" until the end). */
void record_set_status(struct record *rec, const char *status);

/* Say which workload run is in progress (variant NULL: none is). */
void record_set_in_progress(struct record *rec, const char *variant,
    const char *workload, int repeat);

/*
 * The status to believe of a record's document: its "status", except
 * that a "running" one whose writer is not alive any more (see
 * record_writer_alive()) is "interrupted". Borrowed.
 */
const char *record_status(const json_t *root);

/*
 * Save atomically. The first save picks dir/LAB-YYYYMMDD-HHMMSS.json
 * (creating dir and its parents); later saves rewrite the same file.
 */
int record_save(struct record *rec, const char *dir, struct err *e);

/* "YYYYMMDD-HHMMSS" of t in local time, as record files are named. */
void record_stamp(time_t t, char *buf, size_t len);

/*
 * dir/BASE.json, or BASE-2.json, -3... when that exists: made empty with
 * O_EXCL, so that two writers starting in the same second never pick the
 * same name (the record is then written over it). Caller frees. A local
 * run's BASE is LAB-STAMP; a fleet host's LAB-STAMP-HOST.
 */
char *record_reserve_path(const char *dir, const char *base);

/*
 * The document as record_save() writes it: indented by one, arrays of
 * numbers on one line, a final newline. Caller frees; NULL only when
 * jansson cannot encode (out of memory).
 */
char *record_dumps(const struct record *rec);

/*
 * Read a record file; every run's result is rebuilt into runs[]. A
 * "running" record whose writer is gone is marked "interrupted" (with
 * interrupted_reason) in the document read. Errors name the file (and
 * for malformed JSON the line, column in the message); -EINVAL for a file
 * that is not a record or is of a newer version.
 */
int record_load(const char *path, struct record **out, struct err *e);

/* A record's "created" ("2024-05-01T12:00:00Z", UTC) as a time_t; 0
   when unreadable. */
time_t record_parse_time(const char *s);

/* A result as JSON, and back (the inverse for every field saved). */
json_t *record_result_to_json(const struct wl_result *res);
struct wl_result *record_result_from_json(const json_t *o, struct err *e);

/* The host facts object, and the target facts object for a directory. */
json_t *record_host_json(void);
json_t *record_target_json(const char *dir);

/* The writer facts of the calling process, and whether the process a
   writer object names still runs: the same boot, pid and start time. */
json_t *record_writer_json(void);
bool record_writer_alive(const json_t *writer);

/*
 * Readers for a member of object o of a record's document, as the format
 * above writes it (a uint64 above INT64_MAX as a decimal string, a
 * non-finite double as null, times to the nanosecond). They return false
 * (leaving *out alone) when the member is absent or has the wrong type;
 * a null double reads as NaN.
 */
bool record_get_u64(const json_t *o, const char *key, uint64_t *out);
bool record_get_int(const json_t *o, const char *key, int *out);
bool record_get_dbl(const json_t *o, const char *key, double *out);
bool record_get_bool(const json_t *o, const char *key, bool *out);
bool record_get_time(const json_t *o, const char *key, struct timespec *out);
/* The member's string, or NULL (borrowed from o). */
const char *record_get_str(const json_t *o, const char *key);

/* A build's md line ("md: mdadm 4.2, kernel 6.1.0; /dev/md/rl-a
   stripe_cache_size=4096 ...") and its phase line ("phase rebuild;
   failed: /dev/vde; md recover 5.6 s; mismatch_cnt 0 after"), or NULL
   when it has none (record-build.c). Caller frees. */
char *record_build_md_text(const json_t *build);
/* Its first part alone, from facts.md_tools: "md: mdadm 4.2, kernel
   6.1.0". */
char *record_md_tools_text(const json_t *tools);
char *record_build_phase_text(const json_t *build);
/* The members' queues of a build's facts (facts.queues), members that read
   alike grouped: "members: scheduler none, nr_requests 128, rotational
   0, write cache write back, read_ahead_kb 128", or with differing
   members "members: /dev/sdb, /dev/sdc: scheduler mq-deadline, ...;
   /dev/sdd: ..."; NULL when it has none. Caller frees. */
char *record_queues_text(const json_t *facts);

/*
 * The results directory: lab->results with a leading ~ expanded, or
 * $XDG_DATA_HOME/raidlab/results, or ~/.local/share/raidlab/results.
 * Caller frees.
 */
char *record_results_dir(const struct lab *lab);

/*
 * Whether a record can be saved into the results directory dir: created
 * when missing (mkdir -p), then a temporary file created and removed in
 * it (record-dir.c). 0, or a negative errno with e naming dir.
 */
int record_results_check(const char *dir, struct err *e);

#endif
