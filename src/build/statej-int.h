/*
 * Inside the state journal: a journal file as read back, and the helpers
 * the writer (statej.c) and the cleanup (statej-clean.c) share. Any
 * thread; a struct statej_file belongs to one thread.
 */
#ifndef RAIDLAB_STATEJ_INT_H
#define RAIDLAB_STATEJ_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "statej.h"

#define STATEJ_VERSION 2
/* A journal larger than this is not read (it cannot be one of ours). */
#define STATEJ_READ_MAX (16 * 1024 * 1024)

struct statej_obj {
	int id;
	enum statej_kind kind;
	char *name;
	char *device; /* statej_named(), or NULL */
	json_t *undo; /* CMDS: array of argv arrays (a reference) */
	char *product, *own_prefix; /* CMDS: see struct statej_cmds */
	json_t *pre, *post; /* CMDS: identities (references), or NULL;
			       SYSFS: pre, the device's */
	json_t *restore; /* SYSFS: [[ATTR, VALUE]...] (a reference) */
	uint64_t fdev, ino; /* LOOP: the backing file's identity, or 0;
			       FILE, DIR: statej_identify()'s */
	int64_t btime; /* FILE, DIR: birth time in ns, 0 when unknown */
	bool ident; /* FILE, DIR: statej_identify() recorded fdev, ino */
	bool created; /* statej_created() or statej_named() */
	bool live; /* not released */
};

struct statej_file {
	pid_t pid; /* from the open line, else from the file name */
	uint64_t start; /* process start time, 0 when not recorded */
	char *exe; /* the writer's /proc/self/exe, or NULL */
	struct statej_obj *v; /* in the order they were added */
	size_t n;
	size_t bad; /* lines that did not parse (a torn last one...) */
};

/* Read and parse the journal at path; 0 or a negative errno (e filled). */
int statej_read(const char *path, struct statej_file *f, struct err *e);
/* The same from fd, open on path (path names it in messages and gives the
   pid when the journal has no open line). fd's offset moves. */
int
statej_read_fd(int fd, const char *path, struct statej_file *f, struct err *e);

/*
 * The birth time in ns of name relative to dfd (statx flags as for
 * fstatat: AT_EMPTY_PATH with "" for dfd itself), 0 when the filesystem
 * keeps none.
 */
int64_t statej_btime(int dfd, const char *name, int flags);

/*
 * Check that the state journal open at fd is a regular file owned by the
 * caller with no access for group or others: 0, or -EPERM with e filled
 * (path, owner, mode).
 */
int statej_check_journal(int fd, const char *path, struct err *e);
void statej_file_done(struct statej_file *f);
size_t statej_file_live(const struct statej_file *f);

/* "file", "dir", "loop", "cmds", "sysfs"; and back (-1 when unknown). */
const char *statej_kind_name(enum statej_kind k);
int statej_kind_parse(const char *s);

/* Start time of pid (field 22 of /proc/PID/stat), 0 when unknown. */
uint64_t statej_proc_start(pid_t pid);
/* The state letter of pid (field 3), or 0 when it does not exist. */
char statej_proc_state(pid_t pid);

/*
 * Append o as one line ("time" added) to the journal open at fd, and
 * fsync. o is consumed. 0 or a negative errno (e filled with path).
 */
int statej_append(int fd, const char *path, json_t *o, struct err *e);

#endif
