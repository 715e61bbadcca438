/*
 * Internal to the report (share*.c): the pieces share.c calls to gather
 * the provenance, and the text helpers the plain-text and Markdown
 * renderers share. The thread that owns the records.
 */
#ifndef RAIDLAB_SHARE_INT_H
#define RAIDLAB_SHARE_INT_H

#include <stddef.h>

#include <jansson.h>

struct share;
struct share_variant;
struct strbuf;

/* Append s (taken) to the vector v of n strings. */
void share_strv_push(char ***v, size_t *n, char *s);

/* share-facts.c: the md and queue settings a build's facts read back
   (mdadm --detail's and sysfs's md values, readahead, the filesystem's
   geometry as dumpe2fs and xfs_info say it, the mount in effect). */
void share_settings(struct share_variant *v, json_t *facts);
/* share-facts.c: the caveats of s, as sentences. */
void share_caveats(struct share *s);

/*
 * share-text.c: text wrapped to width at spaces, the first line after
 * first (already in out, its length first_len), the others indented by
 * indent; a word longer than a line is split. ASCII only: control
 * characters as "\xHH" (textsafe.h), "±" becomes "+-", other non-ASCII
 * characters "?".
 */
void share_wrap(struct strbuf *out, const char *text, size_t first_len,
    size_t indent, size_t width);
#endif
