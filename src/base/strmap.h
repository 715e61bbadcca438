/*
 * A map from strings to indices, for lookups by name that must stay
 * linear over a whole lab (duplicate variant and workload names among
 * 100 000 entries): open addressing, the keys borrowed from the caller,
 * who keeps them alive and unchanged while the map is used. Owned by one
 * thread.
 */
#ifndef RAIDLAB_STRMAP_H
#define RAIDLAB_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap {
	const char **keys; /* NULL: an empty slot */
	size_t *vals;
	size_t n, cap; /* cap: 0 or a power of two */
};

void strmap_init(struct strmap *m);
void strmap_done(struct strmap *m);

/*
 * Map key to val unless key is there already: then nothing changes,
 * *old (when not NULL) gets the value it has, and the result is false.
 * True when key was added.
 */
bool strmap_add(struct strmap *m, const char *key, size_t val, size_t *old);

/* The value of key in *val; false when key is not there. */
bool strmap_get(const struct strmap *m, const char *key, size_t *val);

#endif
