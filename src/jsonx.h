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

#endif
