/*
 * raidlab compare's CSV (ui/cli/cli.h): --csv, one line per cell, each
 * naming its row's host; --fleet-csv, the verdicts over the hosts
 * (src/results/compare-fleet.h), one line per host and one combined line
 * per test and variant. RFC 4180 quoting, full precision, NaN empty.
 * Main thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/textsafe.h"
#include "cli.h"
#include "results/compare-fleet.h"
#include "results/compare.h"

/* A CSV field: quoted, with its quotes doubled, when it needs it. */
static void
csv_field(const char *text)
{
	/* A name from a record may carry escape sequences. */
	char *t = textsafe_dup(text, 0);

	if (strpbrk(t, ",\"") == NULL) {
		fputs(t, stdout);
		free(t);
		return;
	}
	putchar('"');
	for (const char *s = t; *s != '\0'; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
	free(t);
}

static void
csv_num(double v)
{
	if (!isnan(v))
		printf("%.17g", v);
}

/* The statistics columns of a CSV line, the row's host, and the
   line's end. */
static void
csv_stats(const struct compare *c, size_t i, size_t k)
{
	const struct compare_cell *x = compare_cell(c, i, k);
	const double v[] = { x->d.cv, x->d.median, x->d.min, x->d.max,
		x->d.ci_lo, x->d.ci_hi, x->ch.pct_lo, x->ch.pct_hi, x->ch.p,
		x->q };
	char *marks = compare_marks_keys(x->marks);
	const char *why = x->n == 0 ? cli_row_why(c, i) : NULL;

	for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) {
		putchar(',');
		csv_num(v[j]);
	}
	printf(",%s,%s,", compare_verdict_key(x->verdict), marks);
	csv_field(why ? why : "");
	/* a latency column's percentile and operation */
	if (c->cols[k].lat_q > 0)
		printf(",%g,%s", c->cols[k].lat_q,
		    wl_op_name((enum wl_op)c->cols[k].lat_op));
	else
		printf(",,");
	putchar(',');
	csv_field(c->rows[i].host ? c->rows[i].host : "");
	putchar('\n');
	free(marks);
}

void
cli_compare_csv(const struct compare *c)
{
	puts("workload,key,label,unit,variant,record,n,mean,sd,pct,best,"
	     "failed,too_fast,interrupted,cv,median,min,max,ci_lo,ci_hi,"
	     "pct_lo,pct_hi,p,q,verdict,marks,why,quantile,op,host");
	for (size_t k = 0; k < c->ncols; k++) {
		const struct compare_col *col = &c->cols[k];

		for (size_t i = 0; i < c->nrows; i++) {
			const struct compare_cell *x = compare_cell(c, i, k);

			csv_field(col->workload);
			putchar(',');
			csv_field(col->key);
			putchar(',');
			csv_field(col->label);
			printf(",%s,", wl_unit_key(col->unit));
			csv_field(c->rows[i].variant);
			printf(",%zu,%zu,", c->rows[i].record + 1, x->n);
			csv_num(x->mean);
			putchar(',');
			csv_num(x->sd);
			putchar(',');
			csv_num(x->pct);
			printf(",%d,%zu,%d,%d", col->best == i, x->failed,
			    x->too_fast, x->interrupted);
			csv_stats(c, i, k);
		}
	}
}

/* The columns a test and variant's lines begin with. */
static void
fleet_lead(const struct compare *c, const struct compare_fleet_item *it)
{
	const struct compare_col *col = &c->cols[it->col];

	csv_field(col->workload);
	putchar(',');
	csv_field(col->key);
	putchar(',');
	csv_field(col->label);
	printf(",%s,", wl_unit_key(col->unit));
	csv_field(it->variant);
	putchar(',');
	csv_field(it->base);
	putchar(',');
}

/* The figures every line has, from change to conf. */
static void
fleet_figures(const double *v, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		putchar(',');
		csv_num(v[j]);
	}
}

static void
fleet_host_line(const struct compare *c, const struct compare_fleet *f,
    const struct compare_fleet_item *it, const struct compare_fleet_host *x)
{
	const double v[] = { x->ch.pct, x->ch.pct_lo, x->ch.pct_hi, x->ch.p,
		x->q, x->eq_lo, x->eq_hi, f->host_conf };

	fleet_lead(c, it);
	csv_field(x->host);
	printf(",,%zu,%zu", compare_cell(c, x->row, it->col)->n,
	    compare_cell(c, x->base, it->col)->n);
	fleet_figures(v, sizeof v / sizeof v[0]);
	printf(",%s,,,,,,,,\n", compare_verdict_key(x->verdict));
}

static void
fleet_combined_line(const struct compare *c, const struct compare_fleet *f,
    const struct compare_fleet_item *it)
{
	const double v[] = { it->pct, it->lo, it->hi, it->m.p, it->q, it->eq_lo,
		it->eq_hi, f->conf };
	const double d[] = { it->m.i2, it->spread_lo, it->spread_hi };

	fleet_lead(c, it);
	printf(",%zu,,", it->used);
	fleet_figures(v, sizeof v / sizeof v[0]);
	printf(",%s", compare_verdict_key(it->verdict));
	fleet_figures(d, sizeof d / sizeof d[0]);
	printf(",%zu,%zu,%zu,%zu,%zu\n", it->better, it->worse, it->same,
	    it->unsure, it->other);
}

/* Each test and variant: its hosts' lines, then the combined one (no
   host); only the header when the records come from one host. */
void
cli_compare_fleet_csv(const struct compare *c)
{
	struct compare_fleet f;

	puts("workload,key,label,unit,variant,baseline,host,hosts,n,n_base,"
	     "change,pct_lo,pct_hi,p,q,eq_lo,eq_hi,conf,verdict,i2,"
	     "spread_lo,spread_hi,better,worse,same,unsure,other");
	compare_fleet_build(&f, c);
	for (size_t i = 0; i < f.nitems; i++) {
		const struct compare_fleet_item *it = &f.items[i];

		for (size_t h = 0; h < it->nhosts; h++)
			fleet_host_line(c, &f, it, &it->hosts[h]);
		fleet_combined_line(c, &f, it);
	}
	compare_fleet_done(&f);
}
