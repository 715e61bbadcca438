/*
 * A synthetic kernel-like source tree: the list of directories, files
 * (relative path, size, mode) and links of something sized like a Linux
 * 2.6.20 tree (~20k files, ~240 MB: arch/ARCH/..., drivers/SUB/SUB/...,
 * include/linux, fs/FS) and shaped like a measured real one (Debian's
 * linux-source-6.1: its file-size and per-directory distributions, its
 * shares of empty files, executables, symlinks and directories 10 deep;
 * src/measure/tree.c states the figures and the ranges tests hold them to),
 * plus the lists derived from it that compilebench needs: the files a build
 * adds (objects) and the files a patch changes.
 *
 * Deterministic: the same spec gives a byte-identical list on every
 * machine (a pure integer PRNG, no floating point, no locale, no libc
 * rand), so results made on two hosts used the same data set.
 *
 * File contents are all the same byte (TREE_FILL_BYTE), as compilebench
 * writes them: they compress trivially, which matters on compressing or
 * deduplicating filesystems (btrfs compress=, zfs); say so when comparing.
 *
 * Threads: tree_generate/objects/patch/free/digest from any thread (the
 * driver, in prepare: they allocate); tree_create() and
 * tree_write_file() from a worker thread of wl_parallel() (no allocation,
 * counting through the worker's counters).
 */
#ifndef RAIDLAB_TREE_H
#define RAIDLAB_TREE_H

#include <stddef.h>
#include <stdint.h>

struct wl_worker;

/*
 * The generator's version: bumped whenever the same spec would give a
 * different list. Caches of generated data name it.
 */
#define TREE_VERSION 4
/* Linux 2.6.20: about 20k files, 240 MB (the seeds' tarball). */
#define TREE_DEFAULT_SEED 2620
#define TREE_DEFAULT_FILES 20000
#define TREE_DEFAULT_BYTES (240ULL * 1024 * 1024)
/* A patch between two releases changes this share of the files, in 1/1000. */
#define TREE_PATCH_PERMILLE 30
/* The byte every file is filled with. */
#define TREE_FILL_BYTE 'a'
/* No relative path in a tree is longer (including the NUL). */
#define TREE_PATH_MAX 256
/* tree_file.src of an object not compiled from one file (built-in.o...). */
#define TREE_NO_SRC UINT32_MAX

/*
 * What to generate. files: the number of regular files (>= 1); bytes: the
 * total of their sizes (the sizes are scaled to hit it exactly). A few
 * files are empty (tree_spec_empty_files()), every other one has at least
 * a byte: bytes >= tree_spec_min_bytes(). Directories come from the
 * shape; links from the file count (tree_spec_symlinks(),
 * tree_spec_hardlinks()).
 */
struct tree_spec {
	uint64_t seed;
	uint32_t files;
	uint64_t bytes;
};

/*
 * A directory: its path relative to the tree's root, no leading or
 * trailing '/'. dirs[] is ordered so that a parent comes before its
 * children (mkdir in order works); parent is the index of the parent in
 * dirs[], or TREE_NO_SRC for a top-level directory.
 */
struct tree_dir {
	const char *path; /* owned by the tree */
	uint32_t parent;
	uint32_t mode; /* permission bits: 0755 */
	uint16_t depth; /* 1 for a top-level directory */
};

/* The closed forms of a spec's counts (the generator makes exactly these). */
uint32_t tree_spec_empty_files(const struct tree_spec *spec);
uint32_t tree_spec_symlinks(const struct tree_spec *spec);
uint32_t tree_spec_hardlinks(const struct tree_spec *spec);
/* The least bytes a spec may ask for: one per non-empty file. */
uint64_t tree_spec_min_bytes(const struct tree_spec *spec);

/*
 * A regular file. dir: index of its directory in the dirs[] of the tree
 * the list belongs to (for tree_objects() and tree_patch() lists: of the
 * source tree, whose dirs they share). src: for an object, the index in
 * the source tree's files[] of the .c or .S it was compiled from
 * (TREE_NO_SRC for .cmd files, built-in.o, vmlinux and friends); for a
 * patch entry, the index of the changed file in the source tree
 * (TREE_NO_SRC for a new file); for a generated tree, its own index.
 */
struct tree_file {
	const char *path; /* owned by the tree */
	uint64_t size; /* bytes; a patch entry's: the new size */
	uint32_t mode; /* 0644; 0755 for scripts */
	uint32_t dir;
	uint32_t src;
};

enum tree_link_type {
	TREE_SYMLINK = 1,
	TREE_HARDLINK = 2,
};

/*
 * A symbolic or hard link, kept apart from files[] so that the users of
 * regular files (compilebench's objects, patch, create, read) never see
 * one. path: a name no file or directory has. target: a symlink's
 * contents, relative to its directory ("../../lib/sort.c"), always naming
 * an entry of the tree (never an ancestor of the link); a hard link's:
 * the path of files[file] (as tar stores it). file: the regular file a
 * link names (TREE_NO_SRC for a symlink to a directory); tdir: the
 * directory a symlink names (else TREE_NO_SRC). A hard link's file sits
 * in a directory at or before the link's, so a tar listing writes the
 * file first.
 */
struct tree_link {
	const char *path; /* owned by the tree */
	const char *target; /* owned by the tree */
	uint32_t dir;
	uint32_t file;
	uint32_t tdir;
	uint8_t type; /* enum tree_link_type */
};

/*
 * A list. Files are in directory order (all the files of dirs[0], then
 * dirs[1]...), as tar lists a tree; so are links (a directory's links
 * after its files). bytes: the sum of files[].size (links add none).
 * Lists from tree_objects() and tree_patch() have ndirs == 0, dirs ==
 * NULL and no links: their files live in the source tree's directories.
 */
struct tree {
	struct tree_dir *dirs;
	size_t ndirs;
	struct tree_file *files;
	size_t nfiles;
	struct tree_link *links;
	size_t nlinks;
	uint64_t bytes;
	char *strings; /* private: the arena of the paths */
	size_t strings_len, strings_cap;
};

/* The default spec: 2.6.20-sized, TREE_DEFAULT_SEED. */
void tree_spec_default(struct tree_spec *spec);

/*
 * Fill t (overwritten; tree_free() it) with the tree of spec. Returns 0,
 * or -EINVAL when spec->files is 0 or spec->bytes <
 * tree_spec_min_bytes(spec).
 */
int tree_generate(const struct tree_spec *spec, struct tree *t);

/*
 * The files a build of src adds, in the proportions of compilebench's
 * 2.6.20 build (3263 files of 713696760 bytes for 21280 sources of
 * 233176153 bytes): exactly nfiles * 3263 / 21280 files (rounded down;
 * so compilebench's count for its file count, and its random sequence)
 * weighing bytes * 713696760 / 233176153 (exactly, unless the compiled
 * objects of an odd tree leave the link outputs no room; then more),
 * unless the tree is too small for the build's fixed files (the link
 * outputs and their .cmd, the compiled sources'). They are: an eighth
 * of the .c (whole directories, one architecture) compiled, each to a
 * .o beside it (src: the .c's index) and a .NAME.o.cmd; a built-in.o
 * and its .cmd in each directory holding objects (the sum of what it
 * links); a module object per 12 objects of a directory; generated
 * headers in include/linux; and at the top vmlinux, its two temporaries
 * and the other link outputs (a third of the bytes; the boot images in
 * arch/x86_64/boot when the tree has it). An object whose source or
 * whose headers (9 in 10 include a changed one) differ in size differs
 * in size. Deterministic in src. Fills out (overwritten; tree_free()
 * it). Returns 0.
 */
int tree_objects(const struct tree *src, struct tree *out);

/*
 * A patch to the next release, with the proportions of compilebench's
 * 2.6.20 -> 2.6.21: permille/1000 of src's file count (at least one; 0 =
 * TREE_PATCH_PERMILLE), chosen by seed. Nine in ten are existing files,
 * the larger ones likelier, with new sizes (half within 1%, a few grow or
 * shrink by a third); one in ten is a new file (src TREE_NO_SRC) beside
 * an existing one, named "STEM_newN.EXT". In tree order. Fills out
 * (overwritten; tree_free() it). Returns 0, -EINVAL when permille > 1000.
 */
int tree_patch(const struct tree *src, uint64_t seed, unsigned permille,
    struct tree *out);

/* Free what a tree holds and zero it. NULL or a zeroed tree: no-op. */
void tree_free(struct tree *t);

/*
 * A 64-bit digest (FNV-1a) of the list: every path, size and mode in
 * order, then every link's type, path and target. Equal digests: the same data
 * set (tests pin it as a golden value).
 */
uint64_t tree_digest(const struct tree *t);

/* The size of the largest file of t (to size buffers); 0 when empty. */
uint64_t tree_max_size(const struct tree *t);

/*
 * Fill buf with TREE_FILL_BYTE: the buffer tree_write_file() and
 * tree_create() write from. Do it before the workers start.
 */
void tree_fill(void *buf, size_t len);

/*
 * Worker thread: create (O_CREAT|O_TRUNC) root/f->path and write
 * f->size bytes from buf (filled by tree_fill()) in writes of at most
 * buflen bytes, counting each write with wl_count_write() and the file
 * with wl_count_files(w, 1); latencies go to WL_OP_CREATE and
 * WL_OP_WRITE. rootfd: a directory fd for the tree's root (openat).
 * root: its path, only for error messages. Returns 0, -EINTR when the
 * run is stopping, or wl_fail()'s error ("write ROOT/PATH: No space left
 * on device").
 */
int tree_write_file(struct wl_worker *w, int rootfd, const char *root,
    const struct tree_file *f, const void *buf, size_t buflen);

/*
 * Worker thread: create the whole tree t under the existing directory
 * open as rootfd (root names it in messages; the caller closes it),
 * every directory of t->dirs in order (mkdir; an existing one is
 * fine; each counted with wl_count_ops(w, 1)), then every file with
 * tree_write_file(). Links are not made: this is compilebench's create,
 * and compilebench makes only directories and regular files of its data
 * set (the empty files and executable modes are regular files, and are
 * made); untar's tarball has the links. Checks for a stop between files. Works
 * for a list without dirs (objects) when the source tree's directories exist.
 * Returns 0, -EINTR or wl_fail()'s error.
 */
int tree_create(struct wl_worker *w, const struct tree *t, int rootfd,
    const char *root, const void *buf, size_t buflen);

#endif
