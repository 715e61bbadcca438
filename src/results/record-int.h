/*
 * Helpers shared by the files of the record module (record.c,
 * record-result.c, record-host.c, record-target.c): JSON values that
 * survive odd input (bytes that are not UTF-8, 64-bit counters, NaN).
 * Not part of the public contract; the readers of such values are
 * (record.h). Any thread.
 */
#ifndef RAIDLAB_RECORD_INT_H
#define RAIDLAB_RECORD_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

/* An integer, or a decimal string above INT64_MAX (saturated sums). */
json_t *rec_ju64(uint64_t v);
/* A real, or null when v is not finite (JSON has no NaN). */
json_t *rec_jdbl(double v);
/* "2024-05-01T12:00:00.123456789Z" (UTC, nanoseconds: exact). */
json_t *rec_jtime(const struct timespec *ts);

/* A JSON value that is a uint64 (integer or decimal string). */
bool rec_u64_value(const json_t *j, uint64_t *out);

#endif
