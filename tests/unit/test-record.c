/*
 * Result records: a result survives JSON exactly, a record is saved
 * atomically under the documented name and reads back, bad files give
 * messages naming them, target facts agree with the system's own tools,
 * and the results directory follows ~ and XDG_DATA_HOME.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "lab.h"
#include "record.h"
#include "report.h"
#include "stats.h"
#include "strbuf.h"
#include "wltest.h"
#include "xalloc.h"

/* ---------------------------------------------------------------- helpers */

/* A result with every field set to something distinctive. */
static struct wl_result *
sample_result(void)
{
	struct wl_result *r = wl_result_new("smallfiles", "small");
	struct wl_test *t;
	struct sample x;
	uint64_t v;
	int i;

	r->status = WL_INTERRUPTED;
	r->error = xstrdup("écrit: \"quoted\"\nline two");
	wl_result_add_note(r, "cache kept: figures include the page cache");
	wl_result_add_note(r, "data set fits in RAM");
	r->start.tv_sec = 1714564800;
	r->start.tv_nsec = 123456789;
	r->end.tv_sec = 1714564861;
	r->end.tv_nsec = 1;
	r->wall = 61.000000123;
	r->tick = 0.25;

	t = wl_result_add_test(r, "files_100", "100 files", WL_UNIT_FILES_S);
	t->value = 1234.5678901234567;
	t->wall = 0.081;
	t->user = 0.01;
	t->sys = 1.0 / 3.0;
	t->bytes_written = 409600;
	t->files = 100;
	t->ops = 7;
	t->too_fast = true;
	for (v = 1, i = 0; i < 500; i++, v = v * 7 % 1000003)
		hist_add(&t->lat[WL_OP_CREATE], v * 1000);
	hist_add(&t->lat[WL_OP_FSYNC], 5);
	/* A saturated sum and values above INT64_MAX. */
	hist_add(&t->lat[WL_OP_READ], UINT64_MAX - 3);
	hist_add(&t->lat[WL_OP_READ], UINT64_MAX / 2 + 10);

	t = wl_result_add_test(r, "seq_output_block", "Block write",
	    WL_UNIT_KBPS);
	t->value = 98765.4;
	t->wall = 2.5;
	t->bytes_read = UINT64_MAX;
	t->interrupted = true;

	series_done(&r->series);
	series_init(&r->series, 4);
	series_add_dev(&r->series, "md0", "array");
	series_add_dev(&r->series, "loop3", "member");
	for (i = 0; i < 6; i++) {
		struct dev_sample d[2] = {
			{ (uint64_t)i * 512, (uint64_t)i << 41, 0.05 * i },
			{ 0, 4096, i == 5 ? NAN : 0.25 },
		};

		x.t = 0.25 * (i + 1);
		x.dt = 0.25;
		x.bytes_read = (uint64_t)i * 1000;
		x.bytes_written = (uint64_t)i << 40;
		x.files = (uint64_t)i;
		x.ops = 3;
		series_push_devs(&r->series, &x, d);
	}
	return r;
}

/* The same samples and device samples; busy time to within rounding (it
   is stored as a fraction of dt). */
static void
assert_same_series(const struct series *a, const struct series *b)
{
	size_t i, k;

	cr_assert_eq(b->n, a->n);
	cr_assert_eq(b->dropped, a->dropped);
	cr_assert_eq(b->span, a->span);
	for (i = 0; i < a->n; i++)
		cr_assert(memcmp(series_at(b, i), series_at(a, i),
			      sizeof(struct sample)) == 0,
		    "sample %zu differs", i);
	cr_assert_eq(b->ndev, a->ndev);
	for (k = 0; k < a->ndev; k++) {
		cr_assert_str_eq(b->dev[k].name, a->dev[k].name);
		cr_assert_str_eq(b->dev[k].role, a->dev[k].role);
		for (i = 0; i < a->n; i++) {
			const struct dev_sample *x = series_dev_at(a, k, i);
			const struct dev_sample *y = series_dev_at(b, k, i);
			double bx = dev_sample_busy(x, series_at(a, i)->dt);
			double by = dev_sample_busy(y, series_at(b, i)->dt);

			cr_assert_eq(y->read_bytes, x->read_bytes);
			cr_assert_eq(y->write_bytes, x->write_bytes);
			cr_assert(isnan(bx) ? isnan(by) : fabs(by - bx) < 1e-12,
			    "device %zu sample %zu: busy %g, not %g", k, i, by,
			    bx);
		}
	}
}

static void
assert_same_result(const struct wl_result *a, const struct wl_result *b)
{
	size_t i, k;

	cr_assert_str_eq(b->workload, a->workload);
	cr_assert_str_eq(b->name, a->name);
	cr_assert_eq(b->status, a->status);
	if (a->error == NULL)
		cr_assert_null(b->error);
	else
		cr_assert_str_eq(b->error, a->error);
	cr_assert_eq(b->nnotes, a->nnotes);
	for (i = 0; i < a->nnotes; i++)
		cr_assert_str_eq(b->notes[i], a->notes[i]);
	cr_assert_eq(b->start.tv_sec, a->start.tv_sec);
	cr_assert_eq(b->start.tv_nsec, a->start.tv_nsec);
	cr_assert_eq(b->end.tv_sec, a->end.tv_sec);
	cr_assert_eq(b->end.tv_nsec, a->end.tv_nsec);
	cr_assert(b->wall == a->wall, "wall %.17g != %.17g", b->wall, a->wall);
	cr_assert(b->tick == a->tick);
	cr_assert_eq(b->ntests, a->ntests);
	for (i = 0; i < a->ntests; i++) {
		const struct wl_test *x = &a->tests[i], *y = &b->tests[i];

		cr_assert_str_eq(y->key, x->key);
		cr_assert_str_eq(y->label, x->label);
		cr_assert_eq(y->unit, x->unit);
		cr_assert(y->value == x->value, "value %.17g != %.17g",
		    y->value, x->value);
		cr_assert(y->wall == x->wall && y->user == x->user &&
		    y->sys == x->sys);
		cr_assert_eq(y->bytes_read, x->bytes_read);
		cr_assert_eq(y->bytes_written, x->bytes_written);
		cr_assert_eq(y->files, x->files);
		cr_assert_eq(y->ops, x->ops);
		cr_assert_eq(y->too_fast, x->too_fast);
		cr_assert_eq(y->interrupted, x->interrupted);
		for (k = 0; k < WL_OP__COUNT; k++)
			cr_assert(hist_equal(&y->lat[k], &x->lat[k]),
			    "test %s: histogram %s differs", x->key,
			    wl_op_name((enum wl_op)k));
	}
	assert_same_series(&a->series, &b->series);
}

static const char lab_text[] =
    "name = \"reclab\";\n"
    "repeats = 2;\n"
    "cache = \"keep\";\n"
    "variants = (\n"
    "  { name = \"plain\"; directory = \"/var/tmp/raidlab-rec\"; },\n"
    "  { name = \"mirror\"; scratch = { count = 2; size = \"1G\"; };\n"
    "    array = { level = \"1\"; devices = [\"scratch:0\", \"scratch:1\"]; "
    "};\n"
    "    fs = { type = \"ext4\"; mount_options = \"noatime\"; }; }\n"
    ");\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; counts = [100, 1000]; "
    "size = \"4K\"; }\n"
    ");\n";

static struct lab *
sample_lab(void)
{
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(lab_text, "reclab.cfg", &lab, &errs), 0,
	    "%s", errs.n ? errs.v[0].msg : "?");
	errlist_done(&errs);
	return lab;
}

static char *
temp_dir(void)
{
	char tmpl[] = "/tmp/raidlab-rec.XXXXXX";

	cr_assert_not_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void
rm_rf(const char *dir)
{
	const char *argv[] = { "rm", "-rf", dir, NULL };

	wltest_cmd(argv);
}

/* Names in dir (not . and ..), newline-separated; *n gets the count. */
static char *
list_dir(const char *dir, size_t *n)
{
	struct strbuf b;
	char *s;
	struct dirent *de;
	DIR *d = opendir(dir);

	cr_assert_not_null(d, "opendir %s", dir);
	strbuf_init(&b);
	*n = 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' &&
		    (de->d_name[1] == '\0' || strcmp(de->d_name, "..") == 0))
			continue;
		strbuf_printf(&b, "%s\n", de->d_name);
		(*n)++;
	}
	closedir(d);
	s = strbuf_take(&b);
	strbuf_done(&b);
	return s;
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* First line of a command's output (no shell: argv through popen is a
 * fixed string built from a path we made). */
static char *
first_line(const char *cmd)
{
	char buf[4096] = "";
	FILE *p = popen(cmd, "r");

	cr_assert_not_null(p);
	if (fgets(buf, sizeof buf, p) == NULL)
		buf[0] = '\0';
	pclose(p);
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

/* ---------------------------------------------------------------- results */

Test(record, result_survives_json_exactly)
{
	struct wl_result *a = sample_result(), *b;
	json_t *j, *back;
	json_error_t jerr;
	struct err e;
	char *text;

	j = record_result_to_json(a);
	text = json_dumps(j, JSON_INDENT(1));
	cr_assert_not_null(text);
	back = json_loads(text, 0, &jerr);
	cr_assert_not_null(back, "%s", jerr.text);
	err_clear(&e);
	b = record_result_from_json(back, &e);
	cr_assert_not_null(b, "%s", e.msg);
	assert_same_result(a, b);
	cr_assert_eq(a->series.span, 2, "the test covers merged samples");
	cr_assert(isnan(series_dev_at(&a->series, 1, 2)->busy_s),
	    "the test covers unknown busy time");
	wl_result_free(b);
	json_decref(back);
	json_decref(j);
	free(text);
	wl_result_free(a);
}

/* A result through JSON text and back; asserts it reads. */
static struct wl_result *
through_json(const struct wl_result *a, json_t **jout)
{
	json_t *j = record_result_to_json(a), *back;
	json_error_t jerr;
	struct wl_result *b;
	struct err e;
	char *text = json_dumps(j, JSON_COMPACT);

	cr_assert_not_null(text);
	back = json_loads(text, 0, &jerr);
	cr_assert_not_null(back, "%s", jerr.text);
	err_clear(&e);
	b = record_result_from_json(back, &e);
	cr_assert_not_null(b, "%s", e.msg);
	json_decref(back);
	free(text);
	*jout = j;
	return b;
}

/* 8 hours at 4 ticks/s in the runner's 14400 samples, with a step change
   halfway, and one member device. */
Test(record, long_merged_series_and_members_survive_json)
{
	struct wl_result *a = wl_result_new("fio", "long"), *b;
	json_t *j, *s, *m;
	struct sample x = { 0 };
	size_t i, step = SIZE_MAX;

	series_done(&a->series);
	series_init(&a->series, 14400);
	series_add_dev(&a->series, "loop3", "device");
	for (uint64_t t = 1; t <= 115200; t++) {
		struct dev_sample d = { 0, t <= 57600 ? 4096 : 40960, 0.125 };

		x.t = (double)t * 0.25;
		x.dt = 0.25;
		x.bytes_written = t <= 57600 ? 1000 : 10000;
		series_push_devs(&a->series, &x, &d);
	}
	b = through_json(a, &j);
	assert_same_series(&a->series, &b->series);
	cr_assert_eq(b->series.span, 8);
	s = json_object_get(j, "series");
	cr_assert_eq(json_integer_value(json_object_get(s, "merged")), 8);
	cr_assert_eq(json_array_size(json_object_get(s, "t")), 14400);
	m = json_array_get(json_object_get(s, "members"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(m, "name")),
	    "loop3");
	cr_assert_eq(json_array_size(json_object_get(m, "write_bytes")), 14400);
	cr_assert_float_eq(json_real_value(
			       json_array_get(json_object_get(m, "busy"), 9)),
	    0.5, 1e-12);
	for (i = 0; i < b->series.n && step == SIZE_MAX; i++)
		if (series_dev_at(&b->series, 0, i)->write_bytes > 8 * 4096)
			step = i;
	cr_assert_float_eq(series_at(&b->series, step)->t -
		series_at(&b->series, step)->dt,
	    57600 * 0.25, 1e-6, "the step is 4 h in");
	json_decref(j);
	wl_result_free(b);
	wl_result_free(a);
}

/* A series as raidlab wrote it before merging and members. */
Test(record, older_series_with_dropped_samples_reads_back)
{
	json_error_t jerr;
	json_t *j = json_loads(
	    "{\"workload\": {\"type\": \"fio\"}, \"status\": \"ok\", "
	    "\"start\": \"2024-05-01T12:00:00.000000000Z\", "
	    "\"end\": \"2024-05-01T12:00:01.000000000Z\", \"wall\": 1.0, "
	    "\"tests\": [], \"series\": {\"dropped\": 3, \"t\": [1.0, 1.25], "
	    "\"dt\": [0.25, 0.25], \"bytes_read\": [0, 1], "
	    "\"bytes_written\": [5, 6], \"files\": [0, 0], "
	    "\"ops\": [1, 2]}}",
	    0, &jerr);
	struct wl_result *r;
	struct err e;

	cr_assert_not_null(j, "%s", jerr.text);
	err_clear(&e);
	r = record_result_from_json(j, &e);
	cr_assert_not_null(r, "%s", e.msg);
	cr_assert_eq(r->series.n, 2);
	cr_assert_eq(r->series.dropped, 3);
	cr_assert_eq(r->series.span, 1);
	cr_assert_eq(r->series.ndev, 0);
	cr_assert_eq(series_at(&r->series, 1)->bytes_written, 6);
	wl_result_free(r);
	json_decref(j);
}

Test(record, member_arrays_not_aligned_with_the_series_are_refused)
{
	struct wl_result *a = sample_result();
	json_t *j = record_result_to_json(a), *m;
	struct err e;

	m = json_array_get(json_object_get(json_object_get(j, "series"),
			       "members"),
	    0);
	json_array_append_new(json_object_get(m, "busy"), json_real(0.5));
	err_clear(&e);
	cr_assert_null(record_result_from_json(j, &e));
	cr_assert(strstr(e.msg, "member") != NULL, "%s", e.msg);
	json_decref(j);
	wl_result_free(a);
}

/* tests[i].latency.op of a result object. */
static json_t *
latency(json_t *res, size_t i, const char *op)
{
	json_t *t = json_array_get(json_object_get(res, "tests"), i);

	return json_object_get(json_object_get(t, "latency"), op);
}

Test(record, result_json_has_percentiles_for_readers)
{
	struct wl_result *a = sample_result();
	json_t *j = record_result_to_json(a), *h = latency(j, 0, "create");
	const struct hist *src = &a->tests[0].lat[WL_OP_CREATE];

	cr_assert_not_null(h);
	cr_assert_eq(json_integer_value(json_object_get(h, "p99_ns")),
	    (json_int_t)hist_quantile(src, 0.99));
	cr_assert_eq(json_integer_value(json_object_get(h, "p50_ns")),
	    (json_int_t)hist_quantile(src, 0.5));
	cr_assert_null(latency(j, 0, "write"),
	    "an empty histogram is left out");
	cr_assert(json_is_string(
		      json_object_get(latency(j, 0, "read"), "sum_ns")),
	    "a saturated sum is a decimal string");
	json_decref(j);
	wl_result_free(a);
}

Test(record, malformed_result_is_refused_with_a_message)
{
	json_error_t jerr;
	json_t *j = json_loads("{\"workload\": {\"type\": \"x\"}, "
			       "\"status\": \"bogus\", \"tests\": []}",
	    0, &jerr);
	struct err e;

	err_clear(&e);
	cr_assert_null(record_result_from_json(j, &e));
	cr_assert_eq(e.code, -EINVAL);
	cr_assert(strstr(e.msg, "status") != NULL, "%s", e.msg);
	json_decref(j);
}

/* ---------------------------------------------------------------- records */

Test(record, save_names_the_file_and_rewrites_it_in_place)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab), *back = NULL, *rec2;
	struct wl_result *res = sample_result();
	char *tmp = temp_dir(), *dir = xasprintf("%s/a/b", tmp), *names, *base;
	char *text;
	char want[64];
	struct tm tm;
	struct err e;
	size_t n, i;

	res->status = WL_OK;
	record_add_run(rec, &lab->variants[0], tmp, &lab->workloads[0], 1, res,
	    NULL);
	record_add_run(rec, &lab->variants[0], tmp, &lab->workloads[0], 2, res,
	    NULL);
	record_add_run(rec, &lab->variants[1], NULL, &lab->workloads[0], 1,
	    NULL, "needs the provisioning step");
	cr_assert_eq(rec->nruns, 3, "runs[] follows record_add_run");
	assert_same_result(res, rec->runs[0].res);

	err_clear(&e);
	cr_assert_eq(record_save(rec, dir, &e), 0, "%s", e.msg);
	localtime_r(&rec->created, &tm);
	strftime(want, sizeof want, "reclab-%Y%m%d-%H%M%S.json", &tm);
	base = xstrdup(rec->path);
	cr_assert_str_eq(basename(base), want);
	free(base);
	names = list_dir(dir, &n);
	cr_assert_eq(n, 1, "only the record, no temp file: %s", names);
	free(names);

	/* Rewritten in place with the new status. */
	record_set_status(rec, "ok");
	cr_assert_eq(record_save(rec, dir, &e), 0, "%s", e.msg);
	names = list_dir(dir, &n);
	cr_assert_eq(n, 1, "%s", names);
	free(names);

	/* Another record of the same second gets -2. */
	rec2 = record_new(lab);
	rec2->created = rec->created;
	cr_assert_eq(record_save(rec2, dir, &e), 0, "%s", e.msg);
	cr_assert(strstr(rec2->path, "-2.json") != NULL, "%s", rec2->path);
	record_free(rec2);

	text = record_dumps(rec);
	cr_assert(strstr(text, "\"counts\": [100, 1000],\n") != NULL &&
		strstr(text, "\"buckets\": [[") != NULL,
	    "arrays of numbers on one line");
	free(text);

	cr_assert_eq(record_load(rec->path, &back, &e), 0, "%s", e.msg);
	cr_assert_str_eq(json_string_value(
			     json_object_get(back->root, "status")),
	    "ok");
	cr_assert_eq(back->created, rec->created);
	cr_assert_eq(back->nruns, 3);
	for (i = 0; i < 2; i++) {
		cr_assert_str_eq(back->runs[i].variant, "plain");
		cr_assert_str_eq(back->runs[i].workload, "small");
		cr_assert_str_eq(back->runs[i].type, "smallfiles");
		cr_assert_eq(back->runs[i].repeat, (int)i + 1);
		cr_assert_not(back->runs[i].scratch);
		cr_assert_null(back->runs[i].skipped);
		assert_same_result(res, back->runs[i].res);
	}
	cr_assert_str_eq(back->runs[2].variant, "mirror");
	cr_assert(back->runs[2].scratch);
	cr_assert_null(back->runs[2].res);
	cr_assert_str_eq(back->runs[2].skipped, "needs the provisioning step");
	cr_assert(json_equal(back->root, rec->root), "the document survives");

	record_free(back);
	record_free(rec);
	wl_result_free(res);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
	free(dir);
}

/* A "running" record is running only while the raidlab writing it is:
   once its process is gone (killed, another boot), it reads back as
   interrupted, with why, and never as a plain result. */
Test(record, running_record_of_a_gone_process_reads_as_interrupted)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab), *back = NULL;
	char *tmp = temp_dir();
	json_t *w = json_object_get(rec->root, "writer");
	struct err e;
	pid_t pid;
	int st;

	cr_assert_eq(json_integer_value(json_object_get(w, "pid")), getpid());
	cr_assert(record_writer_alive(w), "this process writes it");
	record_set_in_progress(rec, "plain", "small", 2);
	err_clear(&e);
	cr_assert_eq(record_save(rec, tmp, &e), 0, "%s", e.msg);
	cr_assert_eq(record_load(rec->path, &back, &e), 0, "%s", e.msg);
	cr_assert_str_eq(record_status(back->root), "running");
	cr_assert_null(json_object_get(back->root, "interrupted_reason"));
	record_free(back);

	/* A child's pid once it has exited: a process that is gone. */
	if ((pid = fork()) == 0)
		_exit(0);
	cr_assert_gt(pid, 0);
	waitpid(pid, &st, 0);
	json_object_set_new(w, "pid", json_integer(pid));
	cr_assert_not(record_writer_alive(w));
	cr_assert_eq(record_save(rec, tmp, &e), 0, "%s", e.msg);
	cr_assert_eq(record_load(rec->path, &back, &e), 0, "%s", e.msg);
	cr_assert_str_eq(record_status(back->root), "interrupted");
	cr_assert_str_eq(json_string_value(
			     json_object_get(back->root, "status")),
	    "interrupted");
	cr_assert(strstr(json_string_value(
			     json_object_get(back->root, "interrupted_reason")),
		      "ended without finishing") != NULL);
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(back->root,
						 "in_progress"),
				 "workload")),
	    "small");
	record_free(back);

	/* Our own pid, but another start: the pid was reused. */
	json_object_set_new(w, "pid", json_integer(getpid()));
	json_object_set_new(w, "start_ticks", json_integer(1));
	cr_assert_not(record_writer_alive(w));
	/* No writer at all (an older raidlab): nobody can be writing it. */
	json_object_del(rec->root, "writer");
	cr_assert_str_eq(record_status(rec->root), "interrupted");
	/* A finished record is what it says. */
	record_set_status(rec, "ok");
	cr_assert_str_eq(record_status(rec->root), "ok");

	record_free(rec);
	lab_free(lab);
	rm_rf(tmp);
	free(tmp);
}

/* The lab runner's way in: a build replaced in place as the provisioner
   goes on, and a run's target facts gathered in the thread that ran it. */
Test(record, builds_set_in_place_and_run_target_from_the_runner)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	json_t *b0 = json_pack("{s:s}", "status", "building");
	json_t *b1 = json_pack("{s:s}", "status", "ok");
	json_t *again = json_pack("{s:s}", "status", "failed");
	json_t *target = json_pack("{s:s}", "fstype", "btrfs"), *builds;

	record_set_build(rec, 0, b0); /* past the end: appended */
	record_set_build(rec, 5, b1);
	record_set_build(rec, 0, again);
	builds = json_object_get(rec->root, "builds");
	cr_assert_eq(json_array_size(builds), 2);
	cr_assert_eq(json_array_get(builds, 0), again);
	cr_assert_eq(json_array_get(builds, 1), b1);
	record_set_run_target(rec, target); /* no run yet: nothing */
	record_add_run(rec, &lab->variants[1], NULL, &lab->workloads[0], 1,
	    NULL, "skipped here");
	record_set_run_target(rec, target);
	cr_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(rec->runs[0].json,
						 "target"),
				 "fstype")),
	    "btrfs");
	json_decref(b0);
	json_decref(b1);
	json_decref(again);
	json_decref(target);
	record_free(rec);
	lab_free(lab);
}

Test(record, rounds_read_back_and_older_records_get_defaults)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	json_t *rounds;

	/* A record from before "rounds": it ran grouped, 5% by default. */
	cr_assert_null(record_rounds(rec->root));
	cr_assert_str_eq(record_order(rec->root), "grouped");
	cr_assert_float_eq(record_cv_limit(rec->root), RECORD_CV_LIMIT, 0);
	cr_assert_null(record_rounds_why(rec->root));
	rounds = json_pack("{s:s, s:f, s:s}", "order", "interleaved",
	    "cv_limit", 0.075, "why", "max = 5 rounds reached");
	record_set_rounds(rec, rounds);
	cr_assert_eq(record_rounds(rec->root), rounds);
	cr_assert_str_eq(record_order(rec->root), "interleaved");
	cr_assert_float_eq(record_cv_limit(rec->root), 0.075, 0);
	cr_assert_str_eq(record_rounds_why(rec->root),
	    "max = 5 rounds reached");
	/* A limit no comparison could use falls back to the default. */
	json_object_set_new(rounds, "cv_limit", json_integer(3));
	cr_assert_float_eq(record_cv_limit(rec->root), RECORD_CV_LIMIT, 0);
	/* compare's method: the log test and +-2% unless the lab said */
	cr_assert_eq(record_test(rec->root), STATS_TEST_LOG);
	cr_assert_float_eq(record_equivalence(rec->root), RECORD_MARGIN, 0);
	json_object_set_new(rounds, "test", json_string("rank"));
	json_object_set_new(rounds, "equivalence", json_real(0.005));
	cr_assert_eq(record_test(rec->root), STATS_TEST_RANK);
	cr_assert_float_eq(record_equivalence(rec->root), 0.005, 0);
	json_object_set_new(rounds, "test", json_string("t"));
	json_object_set_new(rounds, "equivalence", json_real(1.5));
	cr_assert_eq(record_test(rec->root), STATS_TEST_LOG);
	cr_assert_float_eq(record_equivalence(rec->root), RECORD_MARGIN, 0);
	json_decref(rounds);
	record_free(rec);
	lab_free(lab);
}

Test(record, document_holds_host_lab_variant_and_params)
{
	struct lab *lab = sample_lab();
	struct record *rec = record_new(lab);
	json_t *root = rec->root, *host, *run, *v, *p;
	struct utsname u;

	cr_assert_str_eq(json_string_value(json_object_get(root, "format")),
	    RECORD_FORMAT);
	cr_assert_eq(json_integer_value(json_object_get(root, "version")),
	    RECORD_VERSION);
	cr_assert_str_eq(json_string_value(json_object_get(root, "status")),
	    "running");
	host = json_object_get(root, "host");
	uname(&u);
	cr_assert_str_eq(json_string_value(json_object_get(host, "kernel")),
	    u.release);
	cr_assert_eq(json_integer_value(json_object_get(host, "cores")),
	    sysconf(_SC_NPROCESSORS_ONLN));
	cr_assert_gt(json_integer_value(json_object_get(host, "ram_bytes")), 0);
	cr_assert(
	    strstr(json_string_value(
		       json_object_get(json_object_get(root, "lab"), "text")),
		"name = \"reclab\";") != NULL);

	record_add_run(rec, &lab->variants[1], NULL, &lab->workloads[0], 1,
	    NULL, "not built");
	run = json_array_get(json_object_get(root, "runs"), 0);
	v = json_object_get(run, "variant");
	cr_assert_str_eq(json_string_value(json_object_get(v, "kind")),
	    "array");
	cr_assert(json_is_true(json_object_get(v, "scratch")));
	cr_assert(strstr(json_string_value(json_object_get(v, "text")),
		      "scratch: functional, not representative") != NULL);
	p = json_object_get(json_object_get(run, "workload"), "params");
	cr_assert_str_eq(json_string_value(json_object_get(p, "size")), "4K");
	cr_assert_eq(json_array_size(json_object_get(p, "counts")), 2);
	cr_assert_eq(json_integer_value(
			 json_array_get(json_object_get(p, "counts"), 1)),
	    1000);
	cr_assert_null(json_object_get(p, "count"),
	    "a default excluded by a parameter that is set is left out");
	cr_assert_eq(json_integer_value(json_object_get(p, "dirs")), 10,
	    "defaults are recorded");
	cr_assert(json_is_null(json_object_get(run, "target")));
	cr_assert_null(json_object_get(run, "status"), "no result fields");
	record_free(rec);
	lab_free(lab);
}

Test(record, load_names_the_file_of_a_json_that_is_not_a_record)
{
	char *tmp = temp_dir(), *path = xasprintf("%s/x.json", tmp);
	char buf[2048];
	struct record *rec = NULL;
	struct err e;

	write_file(path, "{\"devices\": []}\n");
	err_clear(&e);
	cr_assert_eq(record_load(path, &rec, &e), -EINVAL);
	cr_assert_null(rec);
	err_format(&e, buf, sizeof buf);
	cr_assert(strncmp(buf, path, strlen(path)) == 0, "%s", buf);
	cr_assert(strstr(buf, "not a raidlab result record") != NULL, "%s",
	    buf);

	write_file(path,
	    "{\"format\": \"raidlab-result\", \"version\": 7, "
	    "\"runs\": []}\n");
	err_clear(&e);
	cr_assert_eq(record_load(path, &rec, &e), -EINVAL);
	err_format(&e, buf, sizeof buf);
	cr_assert(strstr(buf, "newer") != NULL && strstr(buf, path) == buf,
	    "%s", buf);

	err_clear(&e);
	unlink(path);
	cr_assert_eq(record_load(path, &rec, &e), -ENOENT);
	cr_assert(strstr(err_format(&e, buf, sizeof buf), path) == buf);
	rm_rf(tmp);
	free(path);
	free(tmp);
}

Test(record, load_gives_file_and_line_of_malformed_json)
{
	char *tmp = temp_dir(), *path = xasprintf("%s/bad.json", tmp);
	char buf[2048], *want = xasprintf("%s:3: ", path);
	struct record *rec = NULL;
	struct err e;

	write_file(path,
	    "{\n \"format\": \"raidlab-result\",\n \"version\" 1\n}\n");
	err_clear(&e);
	cr_assert_eq(record_load(path, &rec, &e), -EINVAL);
	err_format(&e, buf, sizeof buf);
	cr_assert(strncmp(buf, want, strlen(want)) == 0, "%s", buf);
	cr_assert(strstr(buf, "column") != NULL, "%s", buf);
	rm_rf(tmp);
	free(want);
	free(path);
	free(tmp);
}

/* ---------------------------------------------------------------- targets */

/* The last line: the mount on top when mounts are stacked. */
Test(record, target_on_the_root_fs_agrees_with_findmnt)
{
	const char *dir = "/var/tmp";
	char *cmd, *fstype, *mp;
	json_t *t;

	if (system("command -v findmnt >/dev/null 2>&1") != 0)
		cr_skip_test("findmnt not installed");
	cmd = xasprintf("findmnt -n -o FSTYPE --target %s | tail -n 1", dir);
	fstype = first_line(cmd);
	free(cmd);
	cmd = xasprintf("findmnt -n -o TARGET --target %s | tail -n 1", dir);
	mp = first_line(cmd);
	t = record_target_json(dir);
	cr_assert_str_eq(json_string_value(json_object_get(t, "path")),
	    "/var/tmp");
	cr_assert_str_eq(json_string_value(json_object_get(t, "fstype")),
	    fstype);
	cr_assert_str_eq(json_string_value(json_object_get(t, "mount_point")),
	    mp);
	cr_assert(json_is_array(json_object_get(t, "devices")));
	cr_assert_not_null(
	    json_string_value(json_object_get(t, "mount_options")));
	json_decref(t);
	free(cmd);
	free(fstype);
	free(mp);
}

Test(record, target_on_tmpfs_has_no_devices)
{
	struct wltest_target tg;
	json_t *t;
	char *sub;

	wltest_target_tmpfs(&tg, 1 << 20);
	sub = xasprintf("%s/deeper", tg.dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	t = record_target_json(sub);
	cr_assert_str_eq(json_string_value(json_object_get(t, "fstype")),
	    "tmpfs");
	cr_assert_str_eq(json_string_value(json_object_get(t, "mount_point")),
	    tg.dir);
	cr_assert_eq(json_array_size(json_object_get(t, "devices")), 0);
	cr_assert(strstr(json_string_value(json_object_get(t, "mount_options")),
		      "size=1024k") != NULL);
	json_decref(t);
	rmdir(sub);
	free(sub);
	wltest_target_free(&tg);
}

Test(record, target_on_a_loop_device_names_it_and_its_file)
{
	struct wltest_target tg;
	json_t *t, *d;
	char *name;

	wltest_target_ext4(&tg, 32 << 20);
	t = record_target_json(tg.dir);
	cr_assert_str_eq(json_string_value(json_object_get(t, "fstype")),
	    "ext4");
	cr_assert_str_eq(json_string_value(json_object_get(t, "source")),
	    tg.loop);
	d = json_array_get(json_object_get(t, "devices"), 0);
	cr_assert_not_null(d, "the loop device is listed");
	name = xstrdup(tg.loop);
	cr_assert_str_eq(json_string_value(json_object_get(d, "name")),
	    basename(name));
	cr_assert_str_eq(json_string_value(json_object_get(d, "type")), "loop");
	cr_assert_str_eq(json_string_value(json_object_get(d, "backing_file")),
	    tg.image);
	cr_assert_eq(json_integer_value(json_object_get(d, "size")), 32 << 20);
	free(name);
	json_decref(t);
	wltest_target_free(&tg);
}

/* Two loop devices over sparse files in tmp: btrfs raid1 across them. */
struct two_loops {
	char *img[2], *loop[2], *mnt;
	bool mounted;
};

static void
two_loops_free(struct two_loops *t)
{
	const char *umount_argv[] = { "umount", t->mnt, NULL };
	int i;

	if (t->mounted)
		wltest_cmd(umount_argv);
	for (i = 0; i < 2; i++) {
		const char *argv[] = { "losetup", "-d", t->loop[i], NULL };

		if (t->loop[i] != NULL)
			wltest_cmd(argv);
		if (t->img[i] != NULL)
			unlink(t->img[i]);
		free(t->loop[i]);
		free(t->img[i]);
	}
	if (t->mnt != NULL)
		rmdir(t->mnt);
	free(t->mnt);
}

Test(record, target_on_btrfs_lists_every_device)
{
	struct two_loops t = { { NULL, NULL }, { NULL, NULL }, NULL, false };
	char *tmp, *cmd, *name;
	json_t *j, *devs;
	int i;

	if (geteuid() != 0)
		cr_skip_test("needs root for loop devices");
	if (system("command -v mkfs.btrfs >/dev/null 2>&1") != 0)
		cr_skip_test("mkfs.btrfs not installed");
	tmp = temp_dir();
	t.mnt = xasprintf("%s/mnt", tmp);
	cr_assert_eq(mkdir(t.mnt, 0755), 0);
	for (i = 0; i < 2; i++) {
		t.img[i] = xasprintf("%s/d%d.img", tmp, i);
		write_file(t.img[i], "");
		cr_assert_eq(truncate(t.img[i], 300 << 20), 0);
		cmd = xasprintf("losetup -f --show %s", t.img[i]);
		t.loop[i] = first_line(cmd);
		free(cmd);
		if (strncmp(t.loop[i], "/dev/loop", 9) != 0) {
			free(t.loop[i]);
			t.loop[i] = NULL;
			two_loops_free(&t);
			cr_skip_test("no loop device available");
		}
	}
	cmd = xasprintf("mkfs.btrfs -q -f -d raid1 -m raid1 %s %s "
			">/dev/null 2>&1 && mount %s %s",
	    t.loop[0], t.loop[1], t.loop[0], t.mnt);
	i = system(cmd);
	free(cmd);
	t.mounted = i == 0;
	if (!t.mounted) {
		two_loops_free(&t);
		cr_skip_test("cannot make or mount btrfs here");
	}
	j = record_target_json(t.mnt);
	devs = json_object_get(j, "devices");
	cr_assert_str_eq(json_string_value(json_object_get(j, "fstype")),
	    "btrfs");
	cr_assert_eq(json_array_size(devs), 2, "both members are listed");
	for (i = 0; i < 2; i++) {
		const char *a = json_string_value(
		    json_object_get(json_array_get(devs, 0), "name"));
		const char *b = json_string_value(
		    json_object_get(json_array_get(devs, 1), "name"));

		name = xstrdup(t.loop[i]);
		cr_assert(strcmp(a, basename(name)) == 0 ||
			strcmp(b, basename(name)) == 0,
		    "%s is listed", t.loop[i]);
		free(name);
	}
	json_decref(j);
	two_loops_free(&t);
	rm_rf(tmp);
	free(tmp);
}

/* ---------------------------------------------------------------- where */

Test(record, results_dir_expands_tilde_and_follows_xdg)
{
	struct lab *lab = lab_new();
	char *d;

	setenv("HOME", "/home/ann", 1);
	setenv("XDG_DATA_HOME", "/xdg/data", 1);
	d = record_results_dir(lab);
	cr_assert_str_eq(d, "/xdg/data/raidlab/results");
	free(d);
	unsetenv("XDG_DATA_HOME");
	d = record_results_dir(lab);
	cr_assert_str_eq(d, "/home/ann/.local/share/raidlab/results");
	free(d);
	setenv("XDG_DATA_HOME", "relative/ignored", 1);
	d = record_results_dir(lab);
	cr_assert_str_eq(d, "/home/ann/.local/share/raidlab/results");
	free(d);
	lab->results = xstrdup("~/lab-results");
	d = record_results_dir(lab);
	cr_assert_str_eq(d, "/home/ann/lab-results");
	free(d);
	free(lab->results);
	lab->results = xstrdup("/srv/results");
	d = record_results_dir(lab);
	cr_assert_str_eq(d, "/srv/results");
	free(d);
	lab_free(lab);
}

/* ---------------------------------------------------------------- reports */

Test(record, report_shows_variants_workloads_and_labels)
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
	report_header(rec, &b);
	report_runs(rec, &b);
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
	report_csv(rec, &b);
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

Test(record, generic_report_has_mean_and_stddev_of_repeats)
{
	struct wl_result *a = sample_result(), *c = sample_result();
	const struct wl_result *v[2] = { a, c };
	struct strbuf b;

	a->tests[1].value = 100;
	c->tests[1].value = 300;
	strbuf_init(&b);
	report_generic(v, 2, &b);
	cr_assert(strstr(b.s, "p99 ms") != NULL, "%s", b.s);
	cr_assert(strstr(b.s, "  run 2") != NULL, "%s", b.s);
	cr_assert(strstr(b.s, "200.0 ± 141.4 K/sec") != NULL, "%s", b.s);
	strbuf_done(&b);
	strbuf_init(&b);
	report_generic(v, 1, &b);
	cr_assert(strstr(b.s, "+++++ files/s") != NULL, "too fast: %s", b.s);
	cr_assert(strstr(b.s, "[interrupted]") != NULL, "%s", b.s);
	strbuf_done(&b);
	wl_result_free(a);
	wl_result_free(c);
}
