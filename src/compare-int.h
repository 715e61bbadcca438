/*
 * Internal to the comparison (compare*.c): the cell and label pieces of
 * compare.c that compare-lat.c builds the latency columns with, and the
 * latency rounds compare.c gathers while it adds a run. The thread that
 * owns the table.
 */
#ifndef RAIDLAB_COMPARE_INT_H
#define RAIDLAB_COMPARE_INT_H

#include <stddef.h>

#include "compare.h"
#include "result.h"

/* compare.c: an empty cell; a figure of a kind (enum fig_kind) with its
   tests' duration pushed onto it. */
void compare_cell_init(struct compare_cell *cell);
void compare_cell_add(struct compare_cell *cell, double v, double wall,
    unsigned char kind);

/*
 * compare-lat.c: one run's latency, gathered as compare.c's add_run()
 * gathers its figures: every test of column col and kind merged by
 * operation (compilebench has several tests under one key), then one
 * round per column of the best kind present pushed onto the row's rate
 * cells (none for a failed run, none without samples).
 */
struct compare_lat_acc;
struct compare_lat_acc *compare_lat_acc_new(size_t ncols);
void compare_lat_acc_take(struct compare_lat_acc *a, size_t col, int kind,
    const struct wl_test *t);
void compare_lat_acc_push(const struct compare_lat_acc *a,
    struct compare_row *row, enum wl_status status);
void compare_lat_acc_free(struct compare_lat_acc *a);

/* compare-lat.c: the latency columns of c (it has none), each after its
   rate column, their cells filled from the rate cells' rounds. */
void compare_lat_build(struct compare *c);

#endif
