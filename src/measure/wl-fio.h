/*
 * Internal to the fio workload (wl-fio.c: schema, layout, run, report;
 * wl-fio-io.c: offsets and the psync worker; wl-fio-aio.c: the libaio
 * and io_uring workers). The driver thread fills struct fio_job before
 * wl_parallel(); workers only read it and own their struct fio_file.
 */
#ifndef RAIDLAB_WL_FIO_H
#define RAIDLAB_WL_FIO_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "result.h"

/* Indexes in the schema's rw and ioengine lists. */
enum fio_rw {
	FIO_READ,
	FIO_WRITE,
	FIO_RANDREAD,
	FIO_RANDWRITE,
	FIO_RANDRW,
	FIO_RW,
};

enum fio_engine {
	FIO_PSYNC,
	FIO_LIBAIO,
	FIO_IO_URING,
};

/*
 * fio's random map without its memory: a permutation of the blocks
 * 0..n-1, one per pass, so that a pass touches every block exactly once
 * (fio's default, norandommap off). The permutation is a full-period
 * LCG modulo the next power of two, scrambled by a bijection on those
 * bits, skipping values >= n. Each pass draws new constants.
 */
struct fio_rmap {
	uint64_t n, mask;
	unsigned shift; /* of the scrambler: half the bits */
	uint64_t x, mul, inc; /* LCG state and constants */
	uint64_t left; /* blocks still to visit in this pass */
};

void fio_rmap_init(struct fio_rmap *m, uint64_t n, uint64_t *seed);
/* The next block; a new pass (new order) starts after n blocks. */
uint64_t fio_rmap_next(struct fio_rmap *m, uint64_t *seed);

/* One job's file and its buffers (iodepth of bs, aligned for O_DIRECT). */
struct fio_file {
	char *path; /* for messages */
	char name[32]; /* in the run's directory (wl_run.dirfd) */
	int fd;
	unsigned char *buf;
};

struct fio_job {
	enum fio_rw rw;
	enum fio_engine engine;
	uint64_t bs, size; /* size: per job file */
	uint64_t nblocks; /* size / bs */
	unsigned threads, iodepth, rwmixread;
	bool direct, end_fsync, overwrite, keep;
	bool random, reads, writes;
	uint64_t fsync_every; /* 0: never */
	uint64_t runtime_ns; /* 0: one pass of size per job */
	uint64_t deadline_ns; /* wl_now_ns() when a timed job ends */
	struct fio_file *files; /* threads of them */
};

/* Where a worker is in its job. */
struct fio_cursor {
	uint64_t seq[2]; /* next sequential block, per direction */
	struct fio_rmap map;
	uint64_t issued; /* I/Os handed out */
	uint64_t writes; /* writes completed, for fsync=N */
	uint64_t seed;
};

/* An I/O to do. */
struct fio_io {
	bool write;
	uint64_t off;
};

void
fio_cursor_init(const struct fio_job *j, struct fio_cursor *c, uint64_t seed);
/*
 * The next I/O of the job: false when it is over (size done; the caller
 * checks the runtime and the stop flag).
 */
bool fio_next(const struct fio_job *j, struct fio_cursor *c, struct fio_io *io);

/*
 * Test seam: when set, every worker calls it after each completed I/O
 * (from its own thread, so it must be thread-safe). start is the
 * wl_now_ns() the I/O was issued at; a psync worker checks its runtime
 * against that same reading. NULL in the program.
 */
typedef void (*fio_trace_fn)(unsigned job, bool write, uint64_t off,
    uint64_t len, uint64_t start);
extern fio_trace_fn fio_trace;

/* Workers (w->arg is the struct fio_job). */
int fio_psync_worker(struct wl_worker *w);
int fio_aio_worker(struct wl_worker *w);
/* Whether raidlab was built with the engine. */
bool fio_engine_available(enum fio_engine e);

/* Shared by the workers: fsync for fsync=N / end_fsync, timed. */
int fio_do_fsync(struct wl_worker *w, const struct fio_file *f);
/* A completed I/O begun at start: latency, counters, trace. */
void fio_account(struct wl_worker *w, const struct fio_job *j,
    const struct fio_io *io, uint64_t start);
/* Fail with a message naming the I/O; n is what the call returned. */
int fio_io_fail(struct wl_worker *w, const struct fio_job *j,
    const struct fio_file *f, const struct fio_io *io, long n, int err);

/* One direction of a test, as fio prints it. */
struct fio_dir_figs {
	uint64_t ios, bytes;
	double iops, mbps, mibps; /* MB/s = 10^6 B/s, MiB/s */
	uint64_t p50, p90, p99, p999, max; /* completion latency, ns */
	double mean; /* ns */
};

/* The figures of op (WL_OP_READ or WL_OP_WRITE) in test t. */
void fio_dir_figures(const struct wl_test *t, enum wl_op op,
    struct fio_dir_figs *out);

#endif
