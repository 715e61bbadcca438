/*
 * The fleet comparison (compare-fleet.h): a record's host, rows named by
 * host, each host's own verdict of a variant against the baseline
 * variant there, their combination (hand-worked: each host's figures are
 * a / r, a, a r against b / r, b, b r, so its log-ratio is ln(b / a),
 * its se ln r sqrt(2 / 3) on 4 df), the counts and the sentences. One
 * host is no fleet.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmptest.h"
#include "results/compare-fleet.h"
#include "results/compare.h"
#include "results/record.h"

#define CLOSE(got, want, tol)                                                  \
	cr_assert(fabs((got) - (want)) <= (tol), "%s = %.12g, not %.12g",      \
	    #got, (double)(got), (double)(want))

#define NHOST 4

struct fleet {
	struct lab *lab;
	struct record *rec[NHOST];
	size_t n;
	struct compare c;
	struct compare_fleet f;
};

/* A host's record: slow a / r, a, a r; fast those times ratio (n
   repeats each, 3 or 2). */
static void
host_add(struct fleet *t, const char *host, double ratio, double r, size_t n)
{
	const double a[] = { 100 / r, 100, 100 * r };
	double b[3];
	struct record *rec = record_new(t->lab);

	for (size_t i = 0; i < 3; i++)
		b[i] = a[i] * ratio;
	cmptest_add_vals(rec, t->lab, V_SLOW, a, n, 2.0);
	cmptest_add_vals(rec, t->lab, V_FAST, b, n, 2.0);
	json_object_set_new(json_object_get(rec->root, "host"), "hostname",
	    json_string(host));
	compare_add(&t->c, rec, NULL);
	t->rec[t->n++] = rec;
}

static void
fleet_open(struct fleet *t)
{
	memset(t, 0, sizeof *t);
	t->lab = cmptest_lab();
	compare_init(&t->c);
}

static void
fleet_close(struct fleet *t)
{
	compare_fleet_done(&t->f);
	compare_done(&t->c);
	for (size_t i = 0; i < t->n; i++)
		record_free(t->rec[i]);
	lab_free(t->lab);
}

Test(compare_fleet, a_record_host_is_its_fleet_host_else_its_hostname)
{
	json_t *r = json_pack("{s:{s:s}}", "host", "hostname", "vm");

	cr_assert_str_eq(compare_record_host(r), "vm");
	json_object_set_new(r, "fleet", json_pack("{s:s}", "host", "db-3"));
	cr_assert_str_eq(compare_record_host(r), "db-3");
	json_object_set_new(r, "fleet", json_null());
	cr_assert_str_eq(compare_record_host(r), "vm");
	json_object_del(r, "host");
	cr_assert_null(compare_record_host(r));
	json_decref(r);
}

Test(compare_fleet, one_host_is_no_fleet)
{
	struct fleet t;

	fleet_open(&t);
	host_add(&t, "vm", 1.10, 1.01, 3);
	host_add(&t, "vm", 1.12, 1.01, 3);
	cr_assert_eq(compare_host_count(&t.c), 1);
	cr_assert_not(compare_by_host(&t.c));
	compare_fleet_build(&t.f, &t.c);
	cr_assert_eq(t.f.nitems, 0);
	fleet_close(&t);
}

/*
 * Ratios 1.10, 1.12, 1.14 with r 1.01: log-ratios 0.0953102, 0.1133287,
 * 0.1310283, each se 0.0081244 on 4 df. Mean 0.1132224: +11.988%. Their
 * sd 0.0178594 over sqrt 3 is 0.0103111 on 2 df, t 4.302653: 95% CI
 * +7.128% to +17.068%, wider than the within-host one (0.0046906 on 12
 * df); p 0.00819. Every host proves its own change (t about 12 on 4 df).
 */
Test(compare_fleet, faster_on_every_host_is_said_consistently)
{
	struct fleet t;
	const struct compare_fleet_item *it;
	char *a;

	fleet_open(&t);
	host_add(&t, "h1", 1.10, 1.01, 3);
	host_add(&t, "h2", 1.12, 1.01, 3);
	host_add(&t, "h3", 1.14, 1.01, 3);
	cr_assert(compare_by_host(&t.c));
	compare_fleet_build(&t.f, &t.c);
	cr_assert_eq(t.f.nhosts, 3);
	cr_assert_eq(t.f.nitems, 1);
	it = &t.f.items[0];
	cr_assert_str_eq(it->variant, "fast");
	cr_assert_str_eq(it->base, "slow");
	cr_assert_eq(it->nhosts, 3);
	cr_assert_eq(it->used, 3);
	CLOSE(it->hosts[0].ch.diff, 0.0953101798043, 1e-10);
	CLOSE(it->hosts[0].ch.se, 0.00812441, 1e-8);
	CLOSE(it->pct, 11.988094, 1e-5);
	CLOSE(it->lo, 7.128351, 1e-5);
	CLOSE(it->hi, 17.068293, 1e-5);
	CLOSE(it->m.p, 0.00819181, 1e-7);
	cr_assert(it->m.between);
	CLOSE(t.f.conf, 0.95, 1e-15);
	cr_assert_eq(it->verdict, COMPARE_V_BETTER);
	cr_assert_eq(it->better, 3);
	a = compare_fleet_answer(&t.f, &t.c, 0);
	cr_assert_str_eq(a,
	    "fast: 12.0% faster than slow over 3 hosts (95% CI 7.1% to 17.1%; "
	    "p = 0.008), consistently on 3 of 3 hosts; its size differs "
	    "between hosts: I^2 79%, their changes +10.0% to +14.0%");
	free(a);
	a = compare_answer(&t.c, 3, 0);
	/* the table's rows are named by host */
	cr_assert(strncmp(a, "fast@h2: ", 9) == 0, "%s", a);
	cr_assert(strstr(a, "than slow@h1 ") != NULL, "%s", a);
	free(a);
	fleet_close(&t);
}

/*
 * Ratios 1.12, 1, 1 with r 1.001: the first host is faster, the others
 * the same within 2% (90% CI -0.17% to +0.17%). Log-ratios 0.1133287, 0,
 * 0: mean +3.850%; se 0.0377762 on 2 df, p 0.423: can't tell, 95% CI
 * -11.729% to +22.179%. I^2 99.98%: the hosts disagree.
 */
Test(compare_fleet, faster_on_one_host_and_the_same_on_two)
{
	struct fleet t;
	const struct compare_fleet_item *it;
	char *a;

	fleet_open(&t);
	host_add(&t, "h1", 1.12, 1.001, 3);
	host_add(&t, "h2", 1.0, 1.001, 3);
	host_add(&t, "h3", 1.0, 1.001, 3);
	compare_fleet_build(&t.f, &t.c);
	it = &t.f.items[0];
	cr_assert_eq(it->hosts[0].verdict, COMPARE_V_BETTER);
	cr_assert_eq(it->hosts[1].verdict, COMPARE_V_SAME);
	cr_assert_eq(it->hosts[2].verdict, COMPARE_V_SAME);
	CLOSE(it->hosts[1].eq_lo, -0.1738263, 1e-6);
	cr_assert_eq(it->verdict, COMPARE_V_UNSURE);
	CLOSE(it->pct, 3.849882, 1e-5);
	CLOSE(it->lo, -11.729283, 1e-5);
	CLOSE(it->hi, 22.178661, 1e-5);
	CLOSE(it->m.p, 0.42265, 1e-5);
	CLOSE(it->m.i2, 99.9844, 1e-3);
	a = compare_fleet_answer(&t.f, &t.c, 0);
	cr_assert_str_eq(a,
	    "fast: can't tell against slow over 3 hosts: the 95% CI spans "
	    "-11.7% to +22.2% (+3.8%; p = 0.423); faster on 1 of 3 hosts, "
	    "the same on 2; the hosts disagree: I^2 100%, their changes "
	    "+0.0% to +12.0%");
	free(a);
	fleet_close(&t);
}

/*
 * Ratio 1.05 on every host with r 1.05: no spread between hosts, but each
 * host's own se is 0.039837; the combination keeps it (0.0229999 on 12
 * df): 95% CI -0.132% to +10.396%, p 0.0554, can't tell, where the spread
 * alone would have claimed certainty.
 */
Test(compare_fleet, hosts_agreeing_by_chance_prove_nothing_more)
{
	struct fleet t;
	const struct compare_fleet_item *it;

	fleet_open(&t);
	host_add(&t, "h1", 1.05, 1.05, 3);
	host_add(&t, "h2", 1.05, 1.05, 3);
	host_add(&t, "h3", 1.05, 1.05, 3);
	compare_fleet_build(&t.f, &t.c);
	it = &t.f.items[0];
	cr_assert_not(it->m.between);
	CLOSE(it->lo, -0.132145, 1e-5);
	CLOSE(it->hi, 10.395882, 1e-5);
	CLOSE(it->m.p, 0.0554046, 1e-6);
	cr_assert_eq(it->verdict, COMPARE_V_UNSURE);
	cr_assert_eq(it->unsure, 3);
	fleet_close(&t);
}

/* A host with 2 repeats a side is counted, never combined. */
Test(compare_fleet, a_host_with_too_few_repeats_is_left_out_and_said)
{
	struct fleet t;
	const struct compare_fleet_item *it;
	char *a;

	fleet_open(&t);
	host_add(&t, "h1", 1.10, 1.01, 3);
	host_add(&t, "h2", 1.12, 1.01, 3);
	host_add(&t, "h3", 1.14, 1.01, 2);
	compare_fleet_build(&t.f, &t.c);
	it = &t.f.items[0];
	cr_assert_eq(it->nhosts, 3);
	cr_assert_eq(it->used, 2);
	cr_assert_eq(it->hosts[2].verdict, COMPARE_V_FEW);
	cr_assert_eq(it->other, 1);
	a = compare_fleet_answer(&t.f, &t.c, 0);
	cr_assert(strstr(a, "over 2 hosts") != NULL, "%s", a);
	cr_assert(strstr(a, "faster on 2 of 3 hosts, not judged on 1") != NULL,
	    "%s", a);
	free(a);
	fleet_close(&t);
}

/* Only hosts with both variants count; one such host is no verdict. */
Test(compare_fleet, one_host_with_both_variants_gives_no_fleet_verdict)
{
	struct fleet t;
	struct record *rec;
	const double v[] = { 100, 101, 99 };

	fleet_open(&t);
	host_add(&t, "h1", 1.10, 1.01, 3);
	host_add(&t, "h2", 1.10, 1.01, 3);
	rec = record_new(t.lab);
	cmptest_add_vals(rec, t.lab, V_SLOW, v, 3, 2.0);
	json_object_set_new(json_object_get(rec->root, "host"), "hostname",
	    json_string("h3"));
	compare_add(&t.c, rec, NULL);
	t.rec[t.n++] = rec;
	compare_fleet_build(&t.f, &t.c);
	cr_assert_eq(t.f.nhosts, 3);
	cr_assert_eq(t.f.items[0].nhosts, 2);
	fleet_close(&t);
}
