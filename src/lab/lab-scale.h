/*
 * Scaling a lab down from the command line, without editing it: a first
 * dry run on real disks, or a CI run that has to end in minutes.
 *   --scale F           the lab's repeats and every size and count a
 *                       workload's data set grows with, times F
 *                       (0 < F <= 1), each with a floor
 *                       (lab_scale_rules[]; repeats: 3); a value already
 *                       under its floor, and a 0 that means "none", stay
 *                       as they are
 *   --set W.KEY=VALUE   one workload parameter, exactly: VALUE in lab-file
 *                       syntax (quotes optional for strings and sizes),
 *                       typed and range-checked as the lab file's would be;
 *                       it replaces a key it conflicts with (count/counts).
 *                       Applied after --scale.
 *   --disk scratch:N=DEV  scratch disk N of every variant is DEV: the
 *                       variants build on real devices instead of loop
 *                       devices over sparse files (the presets name their
 *                       disks "scratch:N")
 * lab_scale_apply() changes the loaded lab in place, before lab_check();
 * what it changed is listed (lab_scale.changes) for plan, check and run,
 * and lab_scale_describe() is the one line a record carries so that a
 * scaled result is never taken for a full one. The thread that owns the
 * lab.
 */
#ifndef RAIDLAB_LAB_SCALE_H
#define RAIDLAB_LAB_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err;
struct errlist;
struct lab;

/* The fewest repeats --scale leaves (a lab with fewer keeps its own):
   under 3 no interval, so no verdict, can be had. */
#define LAB_SCALE_MIN_REPEATS 3

/* The smallest --scale (the largest is 1). */
#define LAB_SCALE_MIN 0.0001

/* A parameter --scale multiplies, and the least it makes of it. */
struct lab_scale_rule {
	const char *type; /* workload type */
	const char *param;
	int64_t floor; /* count, or bytes for a size */
};

/* Every scaled parameter; terminated by { NULL }. */
extern const struct lab_scale_rule lab_scale_rules[];

struct lab_scale_set {
	char *workload; /* name, or type when it has no name */
	char *key;
	char *value; /* as given */
};

struct lab_scale_disk {
	int index; /* scratch:N */
	char *path;
};

struct lab_scale {
	double fraction; /* 0: no --scale */
	struct lab_scale_set *sets;
	size_t nsets;
	struct lab_scale_disk *disks;
	size_t ndisks;
	/* Filled by lab_scale_apply(): "workloads.small.count: 1000 -> 50",
	   in lab order. */
	char **changes;
	size_t nchanges;
};

void lab_scale_init(struct lab_scale *s);
void lab_scale_done(struct lab_scale *s);
/* Forget the changes listed (before applying s to another lab). */
void lab_scale_clear_changes(struct lab_scale *s);
/* Nothing asked. */
bool lab_scale_empty(const struct lab_scale *s);

/* Parse an option's argument into s; 0, or -EINVAL with e saying why
   (the option named, translated). */
int
lab_scale_parse_fraction(struct lab_scale *s, const char *arg, struct err *e);
int lab_scale_add_set(struct lab_scale *s, const char *arg, struct err *e);
int lab_scale_add_disk(struct lab_scale *s, const char *arg, struct err *e);

/*
 * Apply s to lab (loaded, not yet checked): disks first, then --scale,
 * then each --set. Every problem goes to errs as "--set: small.count:
 * reason" (file = the option); returns 0, or -EINVAL with the lab
 * partly changed (the caller drops it).
 */
int lab_scale_apply(struct lab *lab, struct lab_scale *s, struct errlist *errs);

/* The --disk part of lab_scale_apply() (lab-scale-disk.c). */
int lab_scale_disks(struct lab *lab, struct lab_scale *s, struct errlist *errs);

/* "--scale 0.05 --set small.count=10 --disk scratch:0=/dev/vdb" in the
   order given, or NULL when s is empty. Caller frees. */
char *lab_scale_describe(const struct lab_scale *s);

#endif
