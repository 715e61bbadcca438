/*
 * The lab model: what a lab file (raidlab.lab(5), libconfig syntax) says,
 * as typed C values. A lab has variants (the storage set-ups to compare)
 * and workloads (what to run on each). lab_load() parses a file, checks
 * types, allowed values and unknown keys and merges the `defaults` group
 * into every variant; lab_check() (lab-check.c) then applies the
 * cross-field rules. lab_format()/lab_save() write the lab back.
 *
 * Defaults and round trips: every struct below holds the *merged* values
 * (what the plan builds), plus two bit masks over its field enum:
 * `set` (the field has a value, from the entry itself or from defaults)
 * and `own` (the entry wrote it itself). Unset fields hold the documented
 * default value, so code may read them directly; use lab_*_isset() where
 * "not given" matters. lab_format() writes the defaults group and, for each
 * variant, only the fields it owns, so load -> save -> load is a fixed
 * point (comments and key order of the original are not kept).
 *
 * Source lines: every field remembers the line it came from (a field
 * inherited from defaults has the line of the defaults key), so messages
 * read "file:line: field: reason". lab_*_line() returns the field's line,
 * or the line of the enclosing group when the field is unset; the
 * lab_*_path() helpers build the field names ("variants.r5.array.level",
 * "variants[2].fs.type" for an entry without a name).
 *
 * Ownership: a struct lab owns all its strings and arrays. Not thread-safe:
 * the thread that loads a lab (the UI thread) owns it.
 */
#ifndef RAIDLAB_LAB_H
#define RAIDLAB_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err;
struct errlist;
struct param_value;
struct workload;

/* Longest field path built by the lab_*_path() helpers (= ERR_FIELD_MAX). */
#define LAB_PATH_MAX 128

/* ---------------------------------------------------------------- enums */
/* Each enum has a string table in lab.c: lab_*_name() / lab_*_parse(). */

enum lab_cache { /* lab "cache": between runs */
	LAB_CACHE_DROP, /* default: drop page cache (root) */
	LAB_CACHE_KEEP,
};

enum lab_order { /* lab "order": how the rounds of repeats go */
	LAB_ORDER_INTERLEAVED, /* default: round 1 of every variant, then
				  round 2, ...: drift falls on all alike */
	LAB_ORDER_GROUPED, /* variant after variant, each repeated */
};

enum lab_engine { /* array "engine" */
	LAB_ENGINE_MD, /* default when an array is given */
	LAB_ENGINE_BTRFS, /* btrfs multi-device: level = profile */
	LAB_ENGINE_SINGLE, /* one device, no RAID */
};

enum lab_md_level { /* array "level", md engine and legs */
	LAB_MD_LEVEL_0,
	LAB_MD_LEVEL_1,
	LAB_MD_LEVEL_4,
	LAB_MD_LEVEL_5,
	LAB_MD_LEVEL_6,
	LAB_MD_LEVEL_10,
};

enum lab_profile { /* btrfs "level" (-d), "metadata_profile" (-m) */
	LAB_PROFILE_SINGLE,
	LAB_PROFILE_DUP,
	LAB_PROFILE_RAID0,
	LAB_PROFILE_RAID1,
	LAB_PROFILE_RAID1C3,
	LAB_PROFILE_RAID1C4,
	LAB_PROFILE_RAID10,
	LAB_PROFILE_RAID5,
	LAB_PROFILE_RAID6,
};

enum lab_md_metadata { /* array "metadata": superblock version */
	LAB_MD_METADATA_1_2, /* default (mdadm's) */
	LAB_MD_METADATA_0_90,
	LAB_MD_METADATA_1_0,
	LAB_MD_METADATA_1_1,
};

enum lab_bitmap { /* array "bitmap" */
	LAB_BITMAP_NONE, /* default: raidlab always passes --bitmap= */
	LAB_BITMAP_INTERNAL,
	LAB_BITMAP_LOCKLESS, /* llbitmap: Linux 6.18+, mdadm 4.6+ */
	LAB_BITMAP_FILE, /* bitmap = { file = "..."; }; mdadm < 4.4 */
};

enum lab_consistency { /* array "consistency_policy" (md's names) */
	LAB_CONSISTENCY_RESYNC,
	LAB_CONSISTENCY_BITMAP,
	LAB_CONSISTENCY_JOURNAL,
	LAB_CONSISTENCY_PPL,
};

enum lab_phase { /* array "phase": the array's state while measured */
	LAB_PHASE_HEALTHY, /* default: as built */
	LAB_PHASE_DEGRADED, /* `fail` members failed and removed */
	LAB_PHASE_REBUILD, /* ... and added back: md rebuilds meanwhile */
	LAB_PHASE_CHECK, /* a scrub (md/sync_action check) meanwhile */
};

enum lab_journal_mode { /* array "journal_mode": md/journal_mode */
	LAB_JOURNAL_MODE_WRITE_THROUGH,
	LAB_JOURNAL_MODE_WRITE_BACK,
};

enum lab_fs_type { /* fs "type" */
	LAB_FS_EXT2,
	LAB_FS_EXT3,
	LAB_FS_EXT4,
	LAB_FS_XFS,
	LAB_FS_BTRFS,
};

enum lab_fs_journal { /* fs "journal": ext3/4 journal, xfs log */
	LAB_JOURNAL_INTERNAL, /* default; also journal = "internal" */
	LAB_JOURNAL_DEVICE, /* journal = { device = "..."; } */
	LAB_JOURNAL_ARRAY, /* journal = { array = { ... }; } */
};

enum lab_data_mode { /* fs "data": ext3/ext4 data= */
	LAB_DATA_ORDERED, /* default (the kernel's) */
	LAB_DATA_WRITEBACK,
	LAB_DATA_JOURNAL,
};

enum lab_geometry { /* fs "geometry" */
	LAB_GEOMETRY_AUTO, /* default: let mkfs read the array */
	LAB_GEOMETRY_NONE, /* tell mkfs nothing (ext: no -E; xfs: -d noalign) */
	LAB_GEOMETRY_EXT, /* { stride = N; stripe_width = N; } blocks */
	LAB_GEOMETRY_XFS, /* { su = "256K"; sw = N; } */
};

/* ---------------------------------------------------------------- model */

/* A list of strings: device names. */
struct lab_strv {
	char **v;
	size_t n;
};

/* Fields of struct lab_array, for lines[], set/own and lab_array_*(). */
enum lab_a_field {
	LAB_A_ENGINE,
	LAB_A_LEVEL,
	LAB_A_METADATA_PROFILE,
	LAB_A_LAYOUT,
	LAB_A_CHUNK,
	LAB_A_DEVICES,
	LAB_A_SPARES,
	LAB_A_METADATA,
	LAB_A_BITMAP, /* mode and file: merged from defaults as one */
	LAB_A_BITMAP_FILE, /* line of bitmap.file; set iff bitmap is FILE */
	LAB_A_BITMAP_CHUNK, /* bitmap_chunk, or chunk inside the bitmap group */
	LAB_A_JOURNAL,
	LAB_A_ASSUME_CLEAN,
	LAB_A_CONSISTENCY,
	LAB_A_JOURNAL_MODE,
	LAB_A_STRIPE_CACHE,
	LAB_A_GROUP_THREADS,
	LAB_A_SKIP_COPY,
	LAB_A_PREREAD_BYPASS,
	LAB_A_WRITE_MOSTLY,
	LAB_A_WRITE_BEHIND,
	LAB_A_SYNC_SPEED_MIN,
	LAB_A_SYNC_SPEED_MAX,
	LAB_A_PHASE,
	LAB_A_FAIL,
	LAB_A_LEGS, /* merged from defaults as one list */
	LAB_A__COUNT,
};

/*
 * An array: the variant's `array`, a leg of a nested array (`legs`, always
 * md), or an external journal/log built as an array (fs.journal.array).
 */
struct lab_array {
	enum lab_engine engine;
	enum lab_md_level md_level; /* engine md (legs too) */
	enum lab_profile profile; /* engine btrfs: data profile (-d) */
	enum lab_profile metadata_profile; /* btrfs -m; unset: mkfs decides */
	char *layout; /* md layout as written ("f2"); NULL */
	uint64_t chunk; /* bytes; 0 when unset */
	struct lab_strv devices; /* "/dev/sdb1" or "scratch:N" (0-based) */
	struct lab_strv spares;
	enum lab_md_metadata metadata;
	enum lab_bitmap bitmap;
	char *bitmap_file; /* LAB_BITMAP_FILE: path of the file */
	uint64_t bitmap_chunk; /* bytes; 0 when unset */
	char *journal; /* md write journal device; NULL */
	bool assume_clean;
	/* md's own knobs (md(4)); each unset one is left as md has it,
	   and recorded as found */
	enum lab_consistency consistency; /* --consistency-policy */
	enum lab_journal_mode journal_mode; /* md/journal_mode */
	int64_t stripe_cache; /* md/stripe_cache_size, in stripes */
	int64_t group_threads; /* md/group_thread_cnt */
	bool skip_copy; /* md/skip_copy */
	int64_t preread_bypass; /* md/preread_bypass_threshold */
	struct lab_strv write_mostly; /* members given --write-mostly */
	int64_t write_behind; /* --write-behind: outstanding writes */
	int64_t sync_speed_min, sync_speed_max; /* KiB/s, md/sync_speed_* */
	/* What the workloads meet (md): the array as built, degraded,
	   rebuilding or scrubbing; fail: how many of the last members are
	   failed for degraded and rebuild */
	enum lab_phase phase;
	int64_t fail;
	struct lab_array *legs; /* nested: RAID over md legs */
	size_t nlegs;

	char *level_text; /* level as written, normalized ("5") */
	char where[48]; /* path inside the variant: "array",
			   "array.legs[1]", "fs.journal.array" */
	int line; /* line of the group */
	int lines[LAB_A__COUNT];
	uint32_t set, own; /* bit (1u << LAB_A_x) */
};

enum lab_f_field {
	LAB_F_TYPE,
	LAB_F_MKFS_OPTIONS,
	LAB_F_JOURNAL, /* mode, device, array, size: merged as one */
	LAB_F_JOURNAL_DEVICE, /* lines of the keys inside the group */
	LAB_F_JOURNAL_ARRAY,
	LAB_F_JOURNAL_SIZE,
	LAB_F_DATA,
	LAB_F_GEOMETRY, /* mode and numbers: merged as one */
	LAB_F_GEOMETRY_STRIDE, /* lines of the keys inside the group */
	LAB_F_GEOMETRY_STRIPE_WIDTH,
	LAB_F_GEOMETRY_SU,
	LAB_F_GEOMETRY_SW,
	LAB_F_MOUNT_OPTIONS,
	LAB_F__COUNT,
};

struct lab_fs {
	enum lab_fs_type type;
	char *mkfs_options; /* appended verbatim, split on blanks */
	enum lab_fs_journal journal;
	char *journal_device; /* LAB_JOURNAL_DEVICE: path or scratch:N */
	struct lab_array *journal_array; /* LAB_JOURNAL_ARRAY */
	uint64_t journal_size; /* bytes; 0: mkfs decides */
	enum lab_data_mode data;
	enum lab_geometry geometry;
	int64_t stride, stripe_width; /* LAB_GEOMETRY_EXT, in fs blocks */
	uint64_t su; /* LAB_GEOMETRY_XFS: bytes */
	int64_t sw;
	char *mount_options; /* "noatime,commit=600"; NULL */

	int line;
	int lines[LAB_F__COUNT];
	uint32_t set, own;

	/* Not in the file: the type engine btrfs replaced, so that going
	   back to md or single in an editor gives it back (lab-edit). */
	bool type_by_engine, type_was_own;
	enum lab_fs_type type_was;
};

enum lab_v_field {
	LAB_V_NAME,
	LAB_V_DESCRIPTION,
	LAB_V_DIRECTORY,
	LAB_V_SCRATCH, /* the group (count/size/dir merged by key) */
	LAB_V_SCRATCH_COUNT,
	LAB_V_SCRATCH_SIZE,
	LAB_V_SCRATCH_DIR,
	LAB_V_ARRAY, /* the group is present (merged by key) */
	LAB_V_FS, /* the group is present (merged by key) */
	LAB_V_READAHEAD,
	LAB_V_SCHEDULER,
	LAB_V_NR_REQUESTS,
	LAB_V_HOSTS,
	LAB_V__COUNT,
};

/*
 * One storage set-up. Exactly one target kind should be given (checked by
 * lab_check): `directory`, or an `array` (on devices and/or scratch disks).
 * The defaults group of a lab is a struct lab_variant too (own == set).
 */
struct lab_variant {
	char *name; /* NULL when not given */
	char *description;
	char *directory; /* existing directory: nothing is built;
			    expanded (lab_expand_directory) */
	char *directory_text; /* as written ("/var/tmp/q-%u") when that
				 differs from directory; else NULL */
	int64_t scratch_count; /* scratch disks: loop devices over */
	uint64_t scratch_size; /*   sparse files of this size */
	char *scratch_dir; /*   in this directory (default below) */
	struct lab_array array; /* valid when isset(LAB_V_ARRAY) */
	struct lab_fs fs; /* valid when isset(LAB_V_FS) */
	uint64_t readahead; /* bytes; 0 when unset */
	/* Each member disk's queue/scheduler and queue/nr_requests; unset:
	   left as found. The scheduler is checked against what each member
	   offers when the variant is planned for real, not at load. */
	char *scheduler;
	int64_t nr_requests;
	/* Where it runs, as written: empty or "local" (this machine),
	   "all" (every host of the lab), or names of hosts. */
	struct lab_strv hosts;

	size_t index; /* position in variants (for paths) */
	bool is_defaults; /* this is lab->defaults ("defaults.x") */
	int line; /* line of the entry */
	int lines[LAB_V__COUNT];
	uint32_t set, own;
};

/* Default scratch directory when scratch.dir is not given. */
#define LAB_SCRATCH_DIR_DEFAULT "/var/tmp"

enum lab_w_field {
	LAB_W_NAME,
	LAB_W_TYPE,
	LAB_W__COUNT,
};

/*
 * A workload entry: its type names a struct workload (workload.h) whose
 * parameter schema typed the other keys. values[i] belongs to
 * wl->params[i]; unset values hold the schema default (see param.h).
 */
struct lab_workload {
	char *name; /* NULL when not given */
	char *type; /* as written */
	const struct workload *wl; /* never NULL in a loaded lab */
	struct param_value *values;
	size_t nvalues;

	size_t index;
	int line;
	int lines[LAB_W__COUNT];
	uint32_t set, own; /* own == set */
};

enum lab_h_field {
	LAB_H_NAME,
	LAB_H_ADDRESS,
	LAB_H_USER,
	LAB_H_PORT,
	LAB_H_FIO_PORT,
	LAB_H_FIO_BIND,
	LAB_H_FIO_TUNNEL,
	LAB_H_DISKS,
	LAB_H__COUNT,
};

/*
 * A host of a fleet (the lab's `hosts` list): a machine a variant may
 * run on, reached by ssh and by fio's client/server. Nothing here runs
 * remotely; lab_check() validates it and `raidlab plan` shows it.
 */
struct lab_host {
	char *name; /* required: lab_name_ok(), not "local" or "all" */
	char *address; /* required: a host name or an IP address */
	char *user; /* ssh user; NULL: ssh's own choice */
	int64_t port; /* ssh port, default 22 */
	int64_t fio_port; /* fio --server port, default 8765 */
	char *fio_bind; /* fio --server's address; NULL: address */
	/* reach fio --server through `ssh -L` to the host's
	   127.0.0.1:fio_port instead of a bound TCP port */
	bool fio_tunnel;
	/* "FROM=TO": the lab's device FROM ("scratch:N" or a path a
	   variant names) is TO (a /dev path) on this host */
	struct lab_strv disks;

	size_t index; /* position in hosts (for paths) */
	int line;
	int lines[LAB_H__COUNT];
	uint32_t set, own; /* own == set */
};

#define LAB_HOST_PORT_DEFAULT 22
#define LAB_HOST_FIO_PORT_DEFAULT 8765

enum lab_l_field {
	LAB_L_NAME,
	LAB_L_DESCRIPTION,
	LAB_L_REPEATS,
	LAB_L_ORDER,
	LAB_L_CV_LIMIT,
	LAB_L_TEST,
	LAB_L_EQUIVALENCE,
	LAB_L_CACHE,
	LAB_L_RESULTS,
	LAB_L_BARRIER,
	LAB_L_HOSTS,
	LAB_L_DEFAULTS,
	LAB_L_VARIANTS,
	LAB_L_WORKLOADS,
	LAB_L__COUNT,
};

struct lab {
	char *path; /* file it was loaded from; NULL if new */
	char *name; /* required by lab_check */
	char *description;
	/* repeats = N: exactly N rounds. repeats = { min; max; ci; }: rounds
	   until each mean's 95% CI half-width is within ci of it, at least
	   min, at most max; then repeats is the max. */
	int64_t repeats; /* default 1 */
	int64_t repeats_min; /* the range's min; 0 when repeats is fixed */
	int32_t repeats_ci; /* the range's goal in thousandths of a percent
			       (2000: +-2%); 0: repeats is fixed */
	enum lab_order order; /* default interleaved */
	int32_t cv_limit; /* thousandths of a percent; default 5000 (5%) */
	/* How compare judges this lab's records (compare.h): the test
	   (enum stats_test: "log" by default) and the equivalence margin
	   in thousandths of a percent (default 2000: +-2%). */
	int test;
	int32_t equivalence;
	enum lab_cache cache; /* default drop */
	char *results; /* as written ("~/x"); NULL: default */
	/* A fleet's rounds start together on every host (fleet-run.h);
	   default false. Only with variants placed on hosts. */
	bool barrier;
	struct lab_host *hosts; /* the fleet; none: everything is local */
	size_t nhosts;
	struct lab_variant *defaults; /* as written; NULL when absent */
	struct lab_variant *variants; /* merged with defaults */
	size_t nvariants;
	struct lab_workload *workloads;
	size_t nworkloads;

	int lines[LAB_L__COUNT];
	uint32_t set, own; /* own == set */
};

/* ---------------------------------------------------------------- API */

/* An empty lab (no variants, no workloads, defaults applied). */
struct lab *lab_new(void);
/* Free a lab and everything in it; NULL is a no-op. */
void lab_free(struct lab *lab);
/* A deep copy: lab_equal() to lab, sharing nothing with it. */
struct lab *lab_dup(const struct lab *lab);

/*
 * Read path: libconfig syntax (an @include is refused: a lab is one file,
 * lab-include.h), types, allowed values, unknown keys (with
 * the nearest known key suggested), sizes, device names ("/..." or
 * "scratch:N"), names (lab_name_ok()), duplicate variant and workload
 * names, workload types and their parameters against the schema
 * (including two params that exclude each other); then merge defaults
 * and interpret `level` for the merged engine (md level or btrfs
 * profile). Everything else (required keys, one target kind per variant,
 * what each engine/level/fs accepts, ...) is lab_check()'s.
 * Every problem found is appended to errs as "file:line: field: reason".
 * Returns 0 with *out set, or a negative errno (-ENOENT, -EACCES: file
 * unreadable; -EINVAL: errors were appended) with *out = NULL.
 */
int lab_load(const char *path, struct lab **out, struct errlist *errs);

/*
 * As lab_load() on text already in memory; name is used in messages and
 * becomes lab->path (may be NULL: "<string>").
 */
int lab_load_string(const char *text, const char *name, struct lab **out,
    struct errlist *errs);

/*
 * Cross-field validation (src/lab/lab-check.c): the rules raidlab.lab(5)
 * lists. Appends every problem to errs; returns 0 when there is none,
 * -EINVAL otherwise.
 */
int lab_check(const struct lab *lab, struct errlist *errs);

/*
 * The lab as normalized libconfig text: fixed key order, sizes in exact
 * units ("64K"), defaults group and each variant's own keys only (see
 * above). Caller frees.
 */
char *lab_format(const struct lab *lab);

/* lab_format() written to path atomically (afile_write). */
int lab_save(const struct lab *lab, const char *path, struct err *e);

/*
 * Same content (values and which fields are set/owned), ignoring source
 * lines and path: the round-trip test, and "modified?" in the editor.
 */
bool lab_equal(const struct lab *a, const struct lab *b);

/* ---------------------------------------------------------------- fields */

bool lab_isset(const struct lab *lab, enum lab_l_field f);
int lab_line(const struct lab *lab, enum lab_l_field f); /* 0 unset */
/* Top-level key name: "repeats". */
const char *lab_key(enum lab_l_field f);

bool lab_variant_isset(const struct lab_variant *v, enum lab_v_field f);
/* Set by the defaults group, not by the variant itself. */
bool lab_variant_inherited(const struct lab_variant *v, enum lab_v_field f);
/* The field's line, or the entry's line when unset. */
int lab_variant_line(const struct lab_variant *v, enum lab_v_field f);
/* Key relative to the variant: "scratch.count", "readahead". */
const char *lab_variant_key(enum lab_v_field f);

bool lab_array_isset(const struct lab_array *a, enum lab_a_field f);
bool lab_array_inherited(const struct lab_array *a, enum lab_a_field f);
int lab_array_line(const struct lab_array *a, enum lab_a_field f);
const char *lab_array_key(enum lab_a_field f); /* "bitmap.file" */
/* A nested array whose legs do not all share leg 0's level
   (LAB_A_LEVEL), chunk (LAB_A_CHUNK) or device count (LAB_A_DEVICES). */
bool lab_legs_differ(const struct lab_array *a, enum lab_a_field f);

bool lab_fs_isset(const struct lab_fs *fs, enum lab_f_field f);
bool lab_fs_inherited(const struct lab_fs *fs, enum lab_f_field f);
int lab_fs_line(const struct lab_fs *fs, enum lab_f_field f);
const char *lab_fs_key(enum lab_f_field f); /* "geometry.stride" */

int lab_workload_line(const struct lab_workload *w, enum lab_w_field f);
/* The value of the parameter named name, or NULL (not in the schema). */
const struct param_value *
lab_workload_param(const struct lab_workload *w, const char *name);
/* Line of parameter name when set, else the entry's line. */
int lab_workload_param_line(const struct lab_workload *w, const char *name);

/*
 * Field paths for messages; each returns buf (LAB_PATH_MAX is enough).
 *   lab_variant_path(v, LAB_V_READAHEAD)   "variants.r5.readahead"
 *   lab_array_path(v, &v->array, LAB_A_CHUNK)  "variants.r5.array.chunk"
 *     (a leg: "variants.r01.array.legs[0].chunk")
 *   lab_fs_path(v, LAB_F_DATA)             "variants[2].fs.data"
 *   lab_workload_path(w, "size")           "workloads.big.size"
 * f = -1 (or param NULL) gives the entry itself: "variants.r5".
 */
const char *
lab_variant_path(const struct lab_variant *v, int f, char *buf, size_t len);
const char *lab_array_path(const struct lab_variant *v,
    const struct lab_array *a, int f, char *buf, size_t len);
const char *
lab_fs_path(const struct lab_variant *v, int f, char *buf, size_t len);
const char *lab_workload_path(const struct lab_workload *w, const char *param,
    char *buf, size_t len);

/*
 * A variant's directory as written, expanded: %u is the name of the user
 * raidlab runs as (the effective uid's, from the password database; the
 * uid in decimal when it has none), %h the host's (lab_expand_set_host()'s
 * name, else this machine's host name up to its first '.'), %% a %. The
 * result is the caller's; NULL, with the reason (translated) in why, for
 * any other %.
 */
char *lab_expand_directory(const char *text, char *why, size_t len);
/* %h is name from now on (a fleet host's, `raidlab run --fleet-host`);
   NULL: this machine's again. Before any other thread loads a lab. */
void lab_expand_set_host(const char *name);

/*
 * Names (of the lab, variants and workloads) become parts of file and
 * directory names (mount points, results, scratch files, a workload's
 * directory): 1 to LAB_NAME_MAX bytes of ASCII letters, digits, '.', '_'
 * and '-', not starting with '.' or '-' (no ".", "..", hidden file or
 * option).
 */
#define LAB_NAME_MAX 64
bool lab_name_ok(const char *s);
/* Why s is not a valid name: a translated reason written to buf, for
   "file:line: field: reason"; NULL when s is valid. */
const char *lab_name_problem(const char *s, char *buf, size_t len);

/* "scratch:N" -> N (>= 0); anything else -> -1. */
int lab_scratch_index(const char *dev);
/* Scratch disk idx is named in the variant other than as a member of
   the top array (a spare, a journal, a device of the journal's array). */
bool lab_scratch_named(const struct lab_variant *v, int idx);
/* The scratch disks left as the top array's implicit members. */
size_t lab_scratch_implicit(const struct lab_variant *v);

/* lab-devmap.c: a variant's devices renamed where they stand. */

/* The new name of dev, or NULL (or dev's own name) to keep it. */
typedef const char *lab_devmap_fn(void *arg, const char *dev);
/* Every device v names, each through map: its array's members, spares,
   write-mostly members and journal, through every leg, and its
   filesystem's external journal device or journal array. */
void
lab_variant_map_devices(struct lab_variant *v, lab_devmap_fn *map, void *arg);
/* The scratch disks the top array takes without naming them, named as
   its members ("scratch:N", in index order), as the provisioner would
   take them. */
void lab_scratch_name_implicit(struct lab_variant *v);
/* v has no scratch disks of its own any more (all mapped elsewhere). */
void lab_scratch_drop(struct lab_variant *v);

/* ---------------------------------------------------------------- hosts */
/* lab-hosts.c. A variant's placement is checked by lab_check(). */

/* v runs on hosts of the fleet, not on this machine. */
bool lab_variant_remote(const struct lab_variant *v);
/* v runs on host h (an entry of lab->hosts). */
bool lab_variant_on_host(const struct lab_variant *v, const struct lab_host *h);
/* The host named name, or NULL. */
const struct lab_host *lab_host_find(const struct lab *lab, const char *name);
/* fio --server's address on h: fio_bind, else the address. */
const char *lab_host_fio_bind(const struct lab_host *h);
/* What dev ("scratch:N" or a path) is on h: the mapping's target, or
   NULL when h does not map it (it stays as the variant names it). */
const char *lab_host_device(const struct lab_host *h, const char *dev);
/* Every device v names, once each, in the order named; scratch disks
   as "scratch:N", the implicit members too. Appended to out. */
void lab_variant_devices(const struct lab_variant *v, struct lab_strv *out);
/* "hosts.a.port", "hosts[1].name" (f = -1: the entry); returns buf. */
const char *
lab_host_path(const struct lab_host *h, int f, char *buf, size_t len);
int lab_host_line(const struct lab_host *h, enum lab_h_field f);
/*
 * "FROM=TO" split: FROM a device a lab names (scratch:N or a path), TO
 * an absolute path. 0 with *from (the caller's) and *to (inside s); or
 * -EINVAL with *from NULL. raidlab's --disk and a host's disks share it.
 */
int lab_disk_pair(const char *s, char **from, const char **to);
/*
 * Make host name's share of a checked lab this machine's
 * (lab-host-local.c; `raidlab run --fleet-host`): on[i] (room for
 * nvariants) says whether variants[i] is placed on the host; each such
 * variant becomes local (hosts = "local") with the host's disks mapped
 * as --disk maps them: a mapped scratch disk is the host's device, the
 * ones it does not map stay scratch disks, numbered again from 0; a
 * mapped path is the host's. The host's own entry is left as it is, so
 * the lab is not checked again. 0; -ENOENT when the lab has no such
 * host; -EINVAL with errs saying why (a mapped scratch disk among
 * members listed beside implicit ones), the lab partly changed.
 */
int lab_host_localize(struct lab *lab, const char *name, bool *on,
    struct errlist *errs);

/* ---------------------------------------------------------------- rounds */

/* The default cv_limit, and the percent limits (thousandths) of ci and
   cv_limit: more than 0%, less than 100%. */
#define LAB_CV_LIMIT_DEFAULT 5000
/* The default equivalence margin (compare.h's COMPARE_MARGIN_DEFAULT). */
#define LAB_EQUIVALENCE_DEFAULT 2000
#define LAB_PERCENT_MAX 100000
/* The defaults of a repeats group without min or max. */
#define LAB_REPEATS_MIN_DEFAULT 3
#define LAB_REPEATS_MAX_DEFAULT 10

/* repeats is a range with a goal, not a fixed count. */
bool lab_repeats_range(const struct lab *lab);
/* "2%", "0.5%", "0.125%": thousandths of a percent as a lab writes them;
   returns buf (LAB_PERCENT_LEN is enough). */
#define LAB_PERCENT_LEN 24
const char *lab_percent_format(int32_t milli, char *buf, size_t len);
/* "2%" -> 2000: digits, at most three decimals, a % sign; -EINVAL for
   anything else, -ERANGE outside (0%, 100%). */
int lab_percent_parse(const char *s, int32_t *milli);

/* ---------------------------------------------------------------- names */
/* Names as lab files spell them; parse returns 0 or -EINVAL. */

const char *lab_order_name(enum lab_order o);
int lab_order_parse(const char *s, enum lab_order *out);
const char *lab_cache_name(enum lab_cache c);
int lab_cache_parse(const char *s, enum lab_cache *out);
/* The test key: "log", "welch", "rank" (enum stats_test's order). */
const char *lab_test_name(int t);
int lab_test_parse(const char *s, int *out);
const char *lab_engine_name(enum lab_engine e);
int lab_engine_parse(const char *s, enum lab_engine *out);
const char *lab_md_level_name(enum lab_md_level l); /* "5" */
int lab_md_level_parse(const char *s, enum lab_md_level *out);
int lab_md_level_number(enum lab_md_level l); /* 5 */
/* Copies of a RAID10 layout ("n2", "f3", "o2"); 2 for NULL (md's near
   2); 0 if malformed. */
unsigned lab_raid10_copies(const char *layout);
const char *lab_profile_name(enum lab_profile p); /* "raid1c3" */
/* The copies of each byte a btrfs profile keeps (1 single and raid0, 2
   dup, raid1 and raid10, 3, 4); 0 for raid5 and raid6, which keep
   lab_profile_parity() members' worth of parity per stripe instead. */
unsigned lab_profile_copies(enum lab_profile p);
unsigned lab_profile_parity(enum lab_profile p); /* 1 raid5, 2 raid6 */
int lab_profile_parse(const char *s, enum lab_profile *out);
const char *lab_md_metadata_name(enum lab_md_metadata m); /* "1.2" */
int lab_md_metadata_parse(const char *s, enum lab_md_metadata *out);
const char *lab_bitmap_name(enum lab_bitmap b); /* "file" for FILE */
int lab_bitmap_parse(const char *s, enum lab_bitmap *out); /* not file */
const char *lab_consistency_name(enum lab_consistency c); /* "ppl" */
int lab_consistency_parse(const char *s, enum lab_consistency *out);
const char *lab_journal_mode_name(enum lab_journal_mode m);
const char *lab_phase_name(enum lab_phase p); /* "rebuild" */
int lab_phase_parse(const char *s, enum lab_phase *out);
int lab_journal_mode_parse(const char *s, enum lab_journal_mode *out);
const char *lab_fs_type_name(enum lab_fs_type t);
int lab_fs_type_parse(const char *s, enum lab_fs_type *out);
const char *lab_data_mode_name(enum lab_data_mode d);
int lab_data_mode_parse(const char *s, enum lab_data_mode *out);
const char *lab_geometry_name(enum lab_geometry g); /* "ext" / "xfs" */
int lab_geometry_parse(const char *s, enum lab_geometry *out); /* auto|none */
/* A workload's name in messages and records: its name, else its type. */
const char *lab_workload_name(const struct lab_workload *w);

#endif
