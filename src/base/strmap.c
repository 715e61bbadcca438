/*
 * String-to-index map: see strmap.h. FNV-1a hashes, linear probing, the
 * table doubled when it is half full. The owner's thread.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "xalloc.h"

void
strmap_init(struct strmap *m)
{
	m->keys = NULL;
	m->vals = NULL;
	m->n = m->cap = 0;
}

void
strmap_done(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	strmap_init(m);
}

static uint64_t
hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot of key, or the empty slot where it would go. */
static size_t
slot(const struct strmap *m, const char *key)
{
	size_t i = (size_t)hash(key) & (m->cap - 1);

	while (m->keys[i] != NULL && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void
grow(struct strmap *m)
{
	struct strmap big = { NULL, NULL, 0, m->cap ? 2 * m->cap : 16 };

	big.keys = xcalloc(big.cap, sizeof *big.keys);
	big.vals = xcalloc(big.cap, sizeof *big.vals);
	for (size_t i = 0; i < m->cap; i++) {
		size_t k;

		if (m->keys[i] == NULL)
			continue;
		k = slot(&big, m->keys[i]);
		big.keys[k] = m->keys[i];
		big.vals[k] = m->vals[i];
		big.n++;
	}
	free(m->keys);
	free(m->vals);
	*m = big;
}

bool
strmap_add(struct strmap *m, const char *key, size_t val, size_t *old)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		grow(m);
	i = slot(m, key);
	if (m->keys[i] != NULL) {
		if (old != NULL)
			*old = m->vals[i];
		return false;
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return true;
}

bool
strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	size_t i;

	if (m->cap == 0)
		return false;
	i = slot(m, key);
	if (m->keys[i] == NULL)
		return false;
	*val = m->vals[i];
	return true;
}
