/*
 * Helpers shared by the files of the record module (record.c,
 * record-result.c, record-host.c, record-target.c): JSON values that
 * survive odd input (bytes that are not UTF-8, 64-bit counters, NaN) and
 * their readers. Not part of the public contract. Any thread.
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

/*
 * Readers for a member of object o. They return false (leaving *out
 * alone) when the member is absent or has the wrong type; a null double
 * reads as NaN.
 */
bool rec_get_u64(const json_t *o, const char *key, uint64_t *out);
bool rec_get_int(const json_t *o, const char *key, int *out);
bool rec_get_dbl(const json_t *o, const char *key, double *out);
bool rec_get_bool(const json_t *o, const char *key, bool *out);
bool rec_get_time(const json_t *o, const char *key, struct timespec *out);
/* The member's string, or NULL (borrowed from o). */
const char *rec_get_str(const json_t *o, const char *key);

/* A JSON value that is a uint64 (integer or decimal string). */
bool rec_u64_value(const json_t *j, uint64_t *out);

#endif
