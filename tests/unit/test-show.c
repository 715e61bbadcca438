/*
 * A record's text tables (show): variants, workloads and labels;
 * CSV; the generic table's mean and stddev over repeats. Part of the
 * test-record program (unit-record.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "results/record.h"
#include "results/show.h"
#include "unit-record.h"

/* ---------------------------------------------------------------- tables */

Test(record, show_has_variants_workloads_and_labels)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	struct wl_result *res = sample_result();
	struct strbuf b;

	res->status = WL_OK;
	record_add_run(rec, &lab->variants[0], "/var/tmp", &lab->workloads[0],
	    1, res, NULL);
	res->status = WL_FAILED;
	free(res->error);
	res->error = xstrdup("write /x: No space left on device");
	record_add_run(rec, &lab->variants[0], "/var/tmp", &lab->workloads[0],
	    2, res, NULL);
	record_add_run(rec, &lab->variants[1], NULL, &lab->workloads[0], 1,
	    NULL, "needs the provisioning step");
	strbuf_init(&b);
	show_header(rec, &b);
	show_runs(rec, &b);
	cr_assert(strstr(b.s, "Lab reclab") != NULL, "%s", b.s);
	cr_assert(strstr(b.s, "== Variant plain (directory) ==") != NULL, "%s",
	    b.s);
	cr_assert(strstr(b.s, "-- small (smallfiles), 2 runs --") != NULL, "%s",
	    b.s);
	cr_assert(strstr(b.s, "run 2 failed: write /x: No space left") != NULL,
	    "%s", b.s);
	cr_assert(strstr(b.s, "note: data set fits in RAM\n") != NULL);
	cr_assert(strstr(strstr(b.s, "note: data set") + 1, "note: data set") ==
		NULL,
	    "a note repeated by each run is printed once");
	cr_assert(strstr(b.s, "scratch: functional, not representative") !=
		NULL,
	    "%s", b.s);
	cr_assert(strstr(b.s, "skipped: needs the provisioning step") != NULL);
	strbuf_done(&b);

	strbuf_init(&b);
	show_csv(rec, &b);
	cr_assert(strncmp(b.s, "variant,scratch,workload,", 25) == 0);
	cr_assert(strstr(b.s,
		      "\nplain,false,small,smallfiles,1,ok,files_100,"
		      "100 files,files_per_s,") != NULL,
	    "%s", b.s);
	cr_assert(strstr(b.s,
		      "\nmirror,true,small,smallfiles,1,skipped,"
		      ",,,,,,,,,,,,,,,needs the provisioning step\n") != NULL,
	    "%s", b.s);
	strbuf_done(&b);
	record_free(rec);
	wl_result_free(res);
	lab_free(lab);
}

Test(record, generic_table_has_mean_and_stddev_of_repeats)
{
	struct wl_result *a = sample_result(), *c = sample_result();
	const struct wl_result *v[2] = { a, c };
	struct strbuf b;

	a->tests[1].value = 100;
	c->tests[1].value = 300;
	strbuf_init(&b);
	show_generic(v, 2, &b);
	cr_assert(strstr(b.s, "p99 ms") != NULL, "%s", b.s);
	cr_assert(strstr(b.s, "  run 2") != NULL, "%s", b.s);
	cr_assert(strstr(b.s, "200.0 ± 141.4 K/sec") != NULL, "%s", b.s);
	strbuf_done(&b);
	strbuf_init(&b);
	show_generic(v, 1, &b);
	cr_assert(strstr(b.s, "+++++ files/s") != NULL, "too fast: %s", b.s);
	cr_assert(strstr(b.s, "[interrupted]") != NULL, "%s", b.s);
	strbuf_done(&b);
	wl_result_free(a);
	wl_result_free(c);
}
