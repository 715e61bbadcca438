/*
 * The disk inventory as an aligned text table, like lsblk: one line per
 * device, partitions under their disk with tree markers, fitted to a
 * width by truncating the model first, then the reason, then the
 * signature column (and dropping the model and transport columns on
 * very narrow terminals). Builds lines; printing is the caller's, so the
 * CLI prints them and a curses screen can draw them. Display widths
 * follow the current locale (LC_CTYPE). Any thread.
 */
#ifndef RAIDLAB_DISK_TABLE_H
#define RAIDLAB_DISK_TABLE_H

#include <stddef.h>

#include "disk.h"

#define DISK_TABLE_UTF8 0x1 /* "├─" and "…" instead of "|-", "~" */
#define DISK_TABLE_NO_HEADER 0x2

struct disk_table {
	char **lines; /* header first (unless NO_HEADER), no '\n' */
	size_t n;
};

/*
 * Lay out the disks of l that keep(d, arg) accepts (all when keep is
 * NULL) in at most width columns (width 0: no limit). Fills t without
 * reading it: disk_table_done() a table built before.
 */
void disk_table_build(struct disk_table *t, const struct disk_list *l,
    disk_filter_fn keep, void *arg, size_t width, unsigned flags);

void disk_table_done(struct disk_table *t);

/* Columns that s takes on a terminal in the current locale. */
size_t disk_table_width(const char *s);

#endif
