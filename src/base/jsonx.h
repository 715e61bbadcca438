/*
 * Small jansson helpers shared by the modules that write JSON (the disk
 * inventory, result records). Any thread.
 */
#ifndef RAIDLAB_JSONX_H
#define RAIDLAB_JSONX_H

#include <jansson.h>

/*
 * A JSON string for s, or null when s is NULL. Text that is not valid
 * UTF-8 (a model string from odd firmware) keeps its ASCII and has every
 * other byte replaced by '?', rather than being lost.
 */
json_t *jsonx_str(const char *s);

/*
 * A JSON string for s (a command's output), or null when s is NULL:
 * valid UTF-8 as it is, and each byte that is not part of a valid
 * sequence written as the four characters \xNN (its hex value), so that
 * what a program printed in another encoding is kept, not dropped.
 */
json_t *jsonx_str_bytes(const char *s);

#endif
