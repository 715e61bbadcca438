/*
 * Test helpers for workloads: run a workload in-process through the real
 * engine on a real target, and make targets (a directory, a tmpfs of a
 * given size, an ext4 filesystem on a loop device over a sparse file).
 * Targets that need root skip the test (cr_skip_test) when not root.
 * Loop devices are allocated with losetup -f and released by
 * wltest_target_free(), which also unmounts.
 */
#ifndef RAIDLAB_TEST_WLTEST_H
#define RAIDLAB_TEST_WLTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/evq.h"
#include "lab/lab.h"
#include "measure/engine.h"
#include "measure/param.h"
#include "measure/result.h"
#include "measure/workload.h"

/*
 * Parse workload parameters written as in a lab file ("count = 10; size =
 * \"4K\";") against wl's schema; any problem fails the test.
 */
struct param_value *wltest_params(const struct workload *wl, const char *cfg);
void wltest_params_free(const struct workload *wl, struct param_value *v);

/*
 * Called in the test's thread for every event while the run goes on, and
 * with ev == NULL every 50 ms without one (to look at the target).
 */
typedef void (*wltest_event_fn)(struct engine *eng, const struct evq_event *ev,
    void *arg);

/*
 * Run wl with params cfg in target to the end and return its result
 * (free with wl_result_free). keep comes from the "keep" parameter.
 * fn (may be NULL) sees every event; a test can check files mid-run or
 * call engine_stop() there. Fails the test after timeout_s seconds.
 */
struct wl_result *
wltest_run(const struct workload *wl, const char *cfg, const char *target,
    enum lab_cache cache, wltest_event_fn fn, void *arg, double timeout_s);

/* For wltest_run(): stop the run once the counters pass either bound. */
struct wltest_stop {
	uint64_t bytes_written; /* 0: no bound */
	uint64_t files;
};

void
wltest_stop_when(struct engine *eng, const struct evq_event *ev, void *arg);

/* The directory of the run in progress under target ("" if none yet). */
const char *wltest_run_dir(const char *target, char *buf, size_t len);

struct wltest_target {
	char *dir; /* mount point or plain directory */
	char *loop; /* loop device, or NULL */
	char *image; /* its backing file, or NULL */
	bool mounted;
};

/* A fresh directory under /var/tmp (the root filesystem). */
void wltest_target_dir(struct wltest_target *t);
/* A tmpfs of size bytes (root, else the test is skipped). */
void wltest_target_tmpfs(struct wltest_target *t, uint64_t size);
/* ext4 on a loop device of size bytes (root, else skipped). */
void wltest_target_ext4(struct wltest_target *t, uint64_t size);
/* Unmount, detach exactly the loop device made, remove everything. */
void wltest_target_free(struct wltest_target *t);

/* Regular files below dir (recursively), and their total size. */
size_t wltest_count_files(const char *dir, uint64_t *bytes);
/* True when dir holds nothing. */
bool wltest_dir_empty(const char *dir);
/* Run argv (no shell); 0 when it exited 0. Output discarded. */
int wltest_cmd(const char *const *argv);

/*
 * A cache of the test's own for synthetic tarballs (XDG_CACHE_HOME, a
 * new directory under /var/tmp), and its removal: Criterion .init and
 * .fini. wltest_cache_dir: its path while it exists.
 */
extern char wltest_cache_dir[64];
void wltest_cache_setup(void);
void wltest_cache_teardown(void);
/* Remove path and all under it (never following a symlink), quietly. */
void wltest_rm_rf(const char *path);

/*
 * Append a member to the archive a is writing, asserting it went in:
 * type AE_IFREG (or 0) with data, AE_IFDIR, AE_IFLNK to link, or
 * WLTEST_TAR_HARD, a hard link to link. Modes 0644 (dirs 0755), mtime
 * 10^9.
 */
#define WLTEST_TAR_HARD ((mode_t)1)
struct archive;
void wltest_tar_add(struct archive *a, const char *name, mode_t type,
    const char *link, const char *data);

#endif
