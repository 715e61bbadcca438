/*
 * Internal to the Compare screen (tui-compare.c: state, keys, adding
 * record files; tui-compare-draw.c: the table with the verdict column,
 * the bar chart of the selected column, the answer and the marks of the
 * selected cell; tui-compare-picker.c: the picker of record files;
 * tui-compare-fleet.c: the rows' order by host or by variant and the
 * fleet verdict, with records of several hosts). UI thread only.
 */
#ifndef RAIDLAB_TUI_COMPARE_H
#define RAIDLAB_TUI_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "figures/plot.h"
#include "results/compare.h"
#include "tui-files.h"
#include "tui.h"

/* Data columns the table can show side by side (the screen's width
   decides how many really fit). */
#define CMP_MAX_VISIBLE 32

/* What a cell shows. */
enum cmp_view {
	CMP_VIEW_FULL, /* mean ±stddev (the verdict column has the change) */
	CMP_VIEW_PCT, /* mean and % against the baseline, every column */
	CMP_VIEW_MEAN, /* mean only */
	CMP_VIEW__COUNT,
};

struct cmp {
	struct compare c;
	size_t row, col; /* the selected cell */
	size_t top, left; /* first row and first data column shown */
	enum cmp_view view;
	/* the rows in the order shown (cmp_order_update()): positions, as
	   top is, map to rows, as row is */
	size_t *order, norder;
	bool by_variant; /* a fleet's rows grouped by variant, not host */
	struct plot_grid bars;
	/* where the last frame put things, for mouse clicks */
	int table_y, table_rows; /* body row of the first table row */
	int col_x[CMP_MAX_VISIBLE + 1]; /* x of each shown column, and end */
	size_t ncol_x;
	/* the picker of record files */
	bool picking, typing;
	char *dir; /* listed directory */
	struct compare_files files;
	bool *marked;
	size_t psel, ptop;
	int prows; /* record files the last frame had room for */
	struct tui_path field;
	char *offered; /* the lab whose earlier results were offered */
	unsigned long gen; /* the tui's lab_gen the rows are of */
};

/* Body row of the picker's first record file. */
#define CMP_PICKER_Y 4

/* The table with its header, the bar chart and the detail lines. */
void cmp_draw_table(struct cmp *s, struct tui *t, WINDOW *w);
/* The picker (instead of the table). */
void cmp_draw_picker(struct cmp *s, struct tui *t, WINDOW *w);

/* How the picker and the table number a record: 1, 2... in order among
   the records still shown. */
size_t cmp_record_number(const struct cmp *s, size_t record);

/* tui-compare-fleet.c. The records come from more than one host. */
bool cmp_fleet(const struct cmp *s);
/* The order of the rows again (after rows came or went, or g). */
void cmp_order_update(struct cmp *s);
/* The row shown at position pos, and the position of row. */
size_t cmp_row_at(const struct cmp *s, size_t pos);
size_t cmp_pos_of(const struct cmp *s, size_t row);
/* g: group a fleet's rows by variant or by host (said). */
void cmp_toggle_group(struct cmp *s, struct tui *t);
/* The selected cell's verdict over the hosts ("Over 3 hosts: v2: 12.0%
   faster than v1 over 3 hosts (...), consistently on 3 of 3 hosts"),
   and into *host_line the selected host's own ("On this host: h2
   +12.1% (...)  faster"); NULL without a fleet. Caller frees both. */
char *cmp_fleet_para(const struct cmp *s, char **host_line);

/* y: the screen's text to a file beside the first record and, by OSC 52,
   to the terminal's clipboard (tui-compare-copy.c). */
void tui_compare_copy(struct cmp *s, struct tui *t);

#endif
