/*
 * Room for a lab's workloads, checked before anything is built or
 * measured (the runner's precheck, `raidlab run --dry-run`, the TUI
 * before it starts, `raidlab check` as warnings) and again just before
 * each variant's target is made.
 *
 * The data set is the most the selected workloads have on one target at
 * once: each workload's estimate (workload.h, dataset), a run's files
 * going when it ends, so the largest run counts, except that runs whose
 * files are kept (`keep`, the run's --keep) stay and add up, every repeat.
 *
 * The rules, per variant:
 *  - a directory variant (and --target): its filesystem (that of the
 *    nearest directory that exists) must have the data set free, else
 *    the variant is refused;
 *  - an array on scratch disks only (no legs): the array must hold the
 *    data set (members x scratch.size over the copies the level keeps),
 *    else refused;
 *  - scratch disks: the scratch directory's filesystem must have room
 *    for what the workloads write on them (the data set times the copies
 *    the level keeps, for the share of the members that are scratch
 *    disks), else refused; and when it has less free than the disks'
 *    full size (scratch.count x scratch.size), a warning: the sparse
 *    files could outgrow it (an initial resync alone may fill them), and
 *    the scratch filesystem would then fail (and the run with it).
 * Free space is statvfs's f_bavail (f_bfree for root, who may use the
 * reserved blocks). Metadata, journals and mkfs's structures come on top
 * of the estimates. Any thread.
 */
#ifndef RAIDLAB_SPACE_H
#define RAIDLAB_SPACE_H

#include <stdbool.h>
#include <stdint.h>

struct err;
struct errlist;
struct lab;
struct lab_variant;

enum space_verdict {
	SPACE_OK,
	SPACE_WARN, /* it fits, but see the message */
	SPACE_REFUSE, /* it cannot fit: the variant is refused */
};

/*
 * The data set of lab's selected workloads (wsel[i] for workloads[i];
 * NULL: all) repeated repeats times (0: the lab's), with keep for every
 * run (`--keep`) or as each workload says.
 */
uint64_t space_dataset(const struct lab *lab, const bool *wsel, int64_t repeats,
    bool keep);

/*
 * Variant v of the lab file file against a data set of need bytes (the
 * rules above); e gets the message, with file, line and field, for a
 * warning or a refusal. Facts that cannot be read pass.
 */
enum space_verdict space_variant(const struct lab_variant *v, const char *file,
    uint64_t need, struct err *e);

/*
 * A directory (--target, a directory variant) against need bytes, after
 * checking that this user may make the run's directory there and that
 * no other user can change it or a directory above it (dirtrust.h).
 */
enum space_verdict
space_directory(const char *dir, uint64_t need, struct err *e);

/*
 * Every selected variant of lab (vsel NULL: all), or with target only
 * that directory: refusals appended to errs, warnings to notes. Returns
 * 0, or -ENOSPC when one was refused.
 */
int space_check(const struct lab *lab, const bool *vsel, const bool *wsel,
    int64_t repeats, bool keep, const char *target, struct errlist *errs,
    struct errlist *notes);

#endif
