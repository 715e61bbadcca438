/*
 * Internal to the Compare screen (tui-compare.c: state, keys, the picker
 * of record files; tui-compare-draw.c: the table with the verdict column,
 * the bar chart of the selected column, the answer and the marks of the
 * selected cell, the picker). UI thread only.
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

/* y: the screen's text to a file beside the first record and, by OSC 52,
   to the terminal's clipboard (tui-compare-copy.c). */
void tui_compare_copy(struct cmp *s, struct tui *t);

#endif
