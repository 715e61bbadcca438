/*
 * Sizes as sysadmins type them. Suffixes are binary, as mdadm, mkfs and
 * lsblk read them: K = 1024, M = 1024^2, ... up to E; "KiB", "KB" and "k"
 * mean the same. Pure functions, any thread.
 */
#ifndef RAIDLAB_UNITS_H
#define RAIDLAB_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define UNITS_BUF 32

/*
 * Parse "4096", "64K", "1.5G", "2 GiB". A fraction must come out to a
 * whole number of bytes. Returns 0, -EINVAL (not a size) or -ERANGE.
 */
int units_parse_size(const char *s, uint64_t *out);

/* Human form, as lsblk prints it: "512B", "4K", "1.5G", "931.5G". */
const char *units_format_size(uint64_t bytes, char *buf, size_t len);

/*
 * Exact form that parses back to the same number: the largest suffix that
 * divides the value ("64K", "1536M", "4097"). For files raidlab writes.
 */
const char *units_format_exact(uint64_t bytes, char *buf, size_t len);

/* Seconds as a clock reads them, rounded: "0:21", "1:02:03" (0 below 0). */
const char *units_format_clock(double seconds, char *buf, size_t len);

#endif
