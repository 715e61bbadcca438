/*
 * Internal to lab_check(): the state of one validation pass and the
 * helpers shared by its files (lab-check.c: the lab, variants, device
 * roles and sizes; lab-check-array.c: md, btrfs and single arrays;
 * lab-check-fs.c: filesystems). Not for use outside them. The thread that
 * owns the lab.
 */
#ifndef RAIDLAB_LAB_CHECK_H
#define RAIDLAB_LAB_CHECK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab.h"

#define KIB 1024ULL
#define MIB (1024ULL * 1024)
#define TIB (1024ULL * 1024 * 1024 * 1024)

/* Smallest devices mkfs accepts (measured on Debian 12, loop devices). */
#define XFS_MIN_DATA (300 * MIB) /* xfsprogs 6.1 */
#define XFS_MIN_LOG (64 * MIB)
#define BTRFS_MIN_DEV (109 * MIB) /* btrfs-progs 6.2, one device */
#define BTRFS_MIN_DEV_RAID (125 * MIB) /* data and metadata not single */

/* One lab_check() pass: where to report, and how many were reported. */
struct lab_chk {
	const struct lab *lab;
	struct errlist *errs;
	size_t nerr;
};

/* Where an array sits in its variant. */
enum lab_chk_role {
	LAB_CHK_TOP, /* the variant's array */
	LAB_CHK_LEG, /* a leg of a nested array */
	LAB_CHK_JOURNAL, /* fs.journal.array */
};

#define PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Report a problem at a line and field, or at a field of v, a or v->fs. */
void lab_chk_add(struct lab_chk *c, int line, const char *field,
    const char *fmt, ...) PRINTF(4, 5);
void lab_chk_variant(struct lab_chk *c, const struct lab_variant *v,
    enum lab_v_field f, const char *fmt, ...) PRINTF(4, 5);
void lab_chk_array(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, enum lab_a_field f, const char *fmt, ...)
    PRINTF(5, 6);
void lab_chk_fs(struct lab_chk *c, const struct lab_variant *v,
    enum lab_f_field f, const char *fmt, ...) PRINTF(4, 5);

/* The entry wrote the field itself (not inherited from defaults). */
bool lab_chk_array_own(const struct lab_array *a, enum lab_a_field f);
bool lab_chk_fs_own(const struct lab_fs *fs, enum lab_f_field f);

/*
 * A path the kernel will take: at most PATH_MAX - 1 bytes, or for a
 * directory raidlab makes files in (dir) LAB_CHK_DIR_MAX, so that a
 * file name of NAME_MAX bytes still fits under it; every component at
 * most NAME_MAX bytes. Reports at line and field and returns false when
 * not.
 */
#define LAB_CHK_DIR_MAX (PATH_MAX - 2 - NAME_MAX)
bool lab_chk_path(struct lab_chk *c, int line, const char *field,
    const char *path, bool dir);

bool lab_chk_pow2(uint64_t x);
/* units_format_exact() into buf of UNITS_BUF bytes. */
const char *lab_chk_size(uint64_t bytes, char *buf);

/* Members of a (legs, devices, or `implicit` scratch disks when < 0 is
 * not given), and the usable bytes of n members of member bytes (0 when
 * there is no simple formula). */
size_t lab_chk_members(const struct lab_array *a, long implicit);
uint64_t lab_chk_capacity(const struct lab_array *a, size_t n, uint64_t member);

/* Rules of one array (lab-check-array.c) and of a variant's fs. */
void lab_chk_check_array(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, enum lab_chk_role role, long implicit);
void lab_chk_check_fs(struct lab_chk *c, const struct lab_variant *v);
/* md's own knobs and phases (lab-check-md.c): an md array of n
   members; the same keys on another engine (btrfs has a degraded
   phase). */
void lab_chk_md_knobs(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n);
void lab_chk_md_knobs_not_md(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n);

/* The hosts and where each variant runs (lab-check-hosts.c). */
void lab_chk_hosts(struct lab_chk *c);

#endif
