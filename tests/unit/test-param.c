/*
 * Workload parameter schemas: the tables themselves (defaults valid and in
 * range, help present), defaults applied, and param_load()'s messages.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/suggest.h"
#include "base/xalloc.h"
#include "measure/param.h"
#include "measure/workload.h"

/* Load "x = { TEXT };" against wl's schema; returns the problem count. */
static int
load_group(const struct workload *wl, const char *text,
    struct param_value *vals, struct errlist *errs)
{
	static const char *const skip[] = { "name", "type", NULL };
	char *doc = xasprintf("x = { %s };", text);
	config_t cfg;
	int n;

	config_init(&cfg);
	cr_assert_eq(config_read_string(&cfg, doc), CONFIG_TRUE, "%s: %s", doc,
	    config_error_text(&cfg));
	param_values_init(wl->params, vals);
	n = param_load(wl->params, config_lookup(&cfg, "x"), skip, vals,
	    "p.cfg", "workloads.x", errs);
	config_destroy(&cfg);
	free(doc);
	return n;
}

static char *
first_error(const struct errlist *errs)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX];

	cr_assert_geq(errs->n, 1);
	return xstrdup(err_format(&errs->v[0], buf, sizeof buf));
}

Test(param, every_table_default_loads_back_in_range)
{
	const struct workload *const *w;
	struct param_value vals[32], again[32];
	struct errlist errs;
	size_t i, n;

	for (w = workload_table; *w != NULL; w++) {
		n = param_count((*w)->params);
		cr_assert_lt(n, 32);
		cr_assert_not_null((*w)->summary);
		param_values_init((*w)->params, vals);
		for (i = 0; i < n; i++) {
			const struct param *p = &(*w)->params[i];
			char *v, *text;

			cr_assert_not_null(p->help, "%s.%s", (*w)->name,
			    p->name);
			if (p->def == NULL)
				continue;
			v = param_value_format(p, &vals[i]);
			text = xasprintf("%s = %s;", p->name, v);
			errlist_init(&errs);
			cr_assert_eq(load_group(*w, text, again, &errs), 0,
			    "%s: default %s rejected", (*w)->name, text);
			cr_assert(param_value_equal(p, &vals[i], &again[i]) ==
				false,
			    "set flag differs");
			again[i].set = false;
			again[i].line = 0;
			cr_assert(param_value_equal(p, &vals[i], &again[i]),
			    "%s.%s: default does not load back", (*w)->name,
			    p->name);
			param_values_done((*w)->params, again, n);
			errlist_done(&errs);
			free(v);
			free(text);
		}
		param_values_done((*w)->params, vals, n);
	}
}

Test(param, defaults_follow_the_real_tools)
{
	struct param_value v[32];
	struct errlist errs;

	errlist_init(&errs);
	cr_assert_eq(load_group(&wl_bonnie, "", v, &errs), 0);
	cr_assert(v[param_index(wl_bonnie.params, "size")].is_auto);
	cr_assert_eq(v[param_index(wl_bonnie.params, "chunk")].size, 8192);
	cr_assert_eq(v[param_index(wl_bonnie.params, "files")].i, 16);
	param_values_done(wl_bonnie.params, v, param_count(wl_bonnie.params));

	cr_assert_eq(load_group(&wl_smallfiles, "", v, &errs), 0);
	cr_assert_eq(v[param_index(wl_smallfiles.params, "count")].i, 1000);
	cr_assert_eq(v[param_index(wl_smallfiles.params, "size")].size, 4096);
	cr_assert_eq(v[param_index(wl_smallfiles.params, "write_size")].size,
	    1024);
	cr_assert_eq(v[param_index(wl_smallfiles.params, "dirs")].i, 10);
	cr_assert_eq(v[param_index(wl_smallfiles.params, "sync")].i, 1);
	param_values_done(wl_smallfiles.params, v,
	    param_count(wl_smallfiles.params));

	cr_assert_eq(load_group(&wl_untar, "", v, &errs), 0);
	cr_assert_null(v[param_index(wl_untar.params, "tarball")].s);
	cr_assert_eq(v[param_index(wl_untar.params, "synthetic_files")].i,
	    20000);
	cr_assert_eq(v[param_index(wl_untar.params, "synthetic_size")].size,
	    240ULL << 20);
	param_values_done(wl_untar.params, v, param_count(wl_untar.params));

	cr_assert_eq(load_group(&wl_compilebench, "", v, &errs), 0);
	cr_assert_eq(v[param_index(wl_compilebench.params, "initial")].i, 30);
	cr_assert_eq(v[param_index(wl_compilebench.params, "runs")].i, 100);
	cr_assert_eq(v[param_index(wl_compilebench.params, "seed")].i, 555);
	param_values_done(wl_compilebench.params, v,
	    param_count(wl_compilebench.params));

	cr_assert_eq(load_group(&wl_fio, "", v, &errs), 0);
	cr_assert_eq(v[param_index(wl_fio.params, "bs")].size, 4096);
	cr_assert_eq(v[param_index(wl_fio.params, "threads")].i, 1);
	cr_assert_eq(v[param_index(wl_fio.params, "iodepth")].i, 1);
	cr_assert_eq(v[param_index(wl_fio.params, "rwmixread")].i, 50);
	cr_assert_str_eq(wl_fio.params[param_index(wl_fio.params, "ioengine")]
			     .values[v[param_index(wl_fio.params, "ioengine")]
					 .i],
	    "psync");
	param_values_done(wl_fio.params, v, param_count(wl_fio.params));
	cr_assert_eq(errs.n, 0);
	errlist_done(&errs);
}

static void
expect_one_error(const struct workload *wl, const char *text, const char *want)
{
	struct param_value v[32];
	struct errlist errs;
	char *got;

	errlist_init(&errs);
	cr_assert_eq(load_group(wl, text, v, &errs), 1, "%s", text);
	got = first_error(&errs);
	cr_assert_str_eq(got, want);
	free(got);
	param_values_done(wl->params, v, param_count(wl->params));
	errlist_done(&errs);
}

Test(param, unknown_param_gets_a_suggestion)
{
	expect_one_error(&wl_fio, "iodepht = 4;",
	    "p.cfg:1: workloads.x.iodepht: unknown key; did you mean "
	    "'iodepth'?");
	expect_one_error(&wl_fio, "zzzzzz = 4;",
	    "p.cfg:1: workloads.x.zzzzzz: unknown key");
}

Test(param, out_of_range_and_wrong_types)
{
	expect_one_error(&wl_fio, "threads = 0;",
	    "p.cfg:1: workloads.x.threads: 0 is out of range (1..64)");
	expect_one_error(&wl_fio, "bs = \"256\";",
	    "p.cfg:1: workloads.x.bs: 256 is out of range (512..67108864)");
	expect_one_error(&wl_fio, "direct = 1;",
	    "p.cfg:1: workloads.x.direct: expected true or false");
	expect_one_error(&wl_fio, "ioengine = \"aio\";",
	    "p.cfg:1: workloads.x.ioengine: 'aio' is not one of: psync, "
	    "libaio, io_uring");
	expect_one_error(&wl_smallfiles, "counts = [1000, 0];",
	    "p.cfg:1: workloads.x.counts: 0 is out of range (1..100000000)");
	expect_one_error(&wl_smallfiles, "counts = [];",
	    "p.cfg:1: workloads.x.counts: the list is empty");
	expect_one_error(&wl_smallfiles, "counts = 5;",
	    "p.cfg:1: workloads.x.counts: expected a list of integers");
	expect_one_error(&wl_bonnie, "size = \"twice\";",
	    "p.cfg:1: workloads.x.size: 'twice' is not a size (like 4K, 64M, "
	    "2G)");
	expect_one_error(&wl_untar, "tarball = 3;",
	    "p.cfg:1: workloads.x.tarball: expected a string");
	expect_one_error(&wl_compilebench, "runs = -1;",
	    "p.cfg:1: workloads.x.runs: -1 is out of range (0..1000000)");
}

Test(param, formats_values_as_lab_syntax)
{
	const struct param *p = param_find(wl_untar.params, "tarball");
	char s[] = "a \"b\"\\c";
	struct param_value v = { .s = s };
	char *t = param_value_format(p, &v);

	cr_assert_str_eq(t, "\"a \\\"b\\\"\\\\c\"");
	free(t);
	cr_assert_null(param_find(wl_untar.params, "nope"));
}

Test(suggest, suggests_only_close_words)
{
	static const char *const words[] = { "chunk", "level", "layout", NULL };

	cr_assert_str_eq(suggest_nearest("chunck", words, (size_t)-1), "chunk");
	cr_assert_str_eq(suggest_nearest("levle", words, (size_t)-1), "level");
	cr_assert_null(suggest_nearest("bitmap", words, (size_t)-1));
	cr_assert_eq(suggest_distance("ab", "ba"), 1);
	cr_assert_eq(suggest_distance("", "abc"), 3);
}
