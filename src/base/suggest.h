/*
 * "Did you mean": the known word nearest to a misspelt one, by edit
 * distance, only when it is close enough to be a likely typo. Pure
 * functions, any thread.
 */
#ifndef RAIDLAB_SUGGEST_H
#define RAIDLAB_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance with transpositions counted as one edit. */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate (of n; or up to a NULL entry when n is (size_t)-1) nearest
 * to word, or NULL when none is within a third of the word's length
 * (at least 1, at most 3 edits).
 */
const char *
suggest_nearest(const char *word, const char *const *cands, size_t n);

#endif
