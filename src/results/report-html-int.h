/*
 * Internal to the HTML report (report-html*.c): the page's table of
 * contents, the figure frame every chart sits in (the chart, and beside
 * it its table), and which runs feed a comparison row. The thread that
 * owns the records.
 */
#ifndef RAIDLAB_REPORT_HTML_INT_H
#define RAIDLAB_REPORT_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

struct record_run;
struct report;
struct strbuf;

/* The sections written, for the page's contents. */
#define HTML_TOC_MAX 12
struct html_toc {
	const char *id[HTML_TOC_MAX];
	char *title[HTML_TOC_MAX];
	size_t n;
};

/* A section heading, listed in toc. */
void html_h2(struct strbuf *out, struct html_toc *toc, const char *id,
    const char *title);
/* s escaped (svg_escape()). */
void html_text(struct strbuf *out, const char *s);
/* "<tag>s</tag>" with s escaped; tag may carry attributes. */
void html_elem(struct strbuf *out, const char *tag, const char *s);

/* A figure with its table beside: open the frame and the figure; after
   the chart, html_fig_side() closes the figure with its caption and
   opens the side; html_fig_close() ends the frame. */
void html_fig_open(struct strbuf *out);
void html_fig_side(struct strbuf *out, const char *caption);
void html_fig_close(struct strbuf *out);

/* run is one of the repeats behind row and the workload of column col:
   the row's record, variant, workload name and parameters. */
bool report_html_run_of(const struct report *s, size_t row, size_t col,
    const struct record_run *run);
/* The columns that open a workload (each workload name and parameters
   once, in column order) into first; returns how many. first holds
   s->cmp.ncols entries. */
size_t report_html_workloads(const struct report *s, size_t *first);

/* report-html-answer.c: the answer the page leads with, and the class
   that colours a verdict ("v-better", "v-worse", "v-same", "v-unsure",
   "v-other"), in the answer and the tables alike. */
void report_html_answer(const struct report *s, struct html_toc *toc,
    struct strbuf *out);
const char *html_verdict_class(enum compare_verdict v);
/* report-html-fleet.c: with records of several hosts, the combined
   answers over the hosts and each host's change and verdict; nothing
   otherwise. */
void report_html_fleet(const struct report *s, struct html_toc *toc,
    struct strbuf *out);
/* report-html-series.c: the time series of every workload, variants
   overlaid, and each variant's member disks' activity. */
void report_html_series(const struct report *s, struct html_toc *toc,
    struct strbuf *out);
/* report-html-lat.c: the latency percentiles of the tests that have
   them. */
void report_html_latency(const struct report *s, struct html_toc *toc,
    struct strbuf *out);
/* report-html-prov.c: where the figures came from. */
void report_html_provenance(const struct report *s, struct html_toc *toc,
    struct strbuf *out);

#endif
