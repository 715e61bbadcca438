/*
 * Nearest-word suggestions: see suggest.h. Any thread.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "xalloc.h"

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* Optimal string alignment distance, three rolling rows. */
size_t
suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	size_t *prev2, *prev, *cur, *t;

	prev2 = xcalloc(lb + 1, sizeof *prev2);
	prev = xcalloc(lb + 1, sizeof *prev);
	cur = xcalloc(lb + 1, sizeof *cur);
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
			    prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

const char *
suggest_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t i, d, best = (size_t)-1, limit = strlen(word) / 3;
	const char *found = NULL;

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	for (i = 0; i < n && cands[i] != NULL; i++) {
		d = suggest_distance(word, cands[i]);
		if (d <= limit && d < best) {
			best = d;
			found = cands[i];
		}
	}
	return found;
}
