/*
 * Result records (record): a record is saved atomically under the
 * documented name and reads back run by run; a running record of a gone
 * process reads as interrupted; builds, run targets and rounds read
 * back; bad files give messages naming them; the results directory
 * follows ~ and XDG_DATA_HOME. The helpers of the test-record program
 * (unit-record.h) live here; one result as JSON, target facts and the
 * text reports are in test-record-result.c, test-record-target.c and
 * test-show.c.
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
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "figures/stats.h"
#include "lab/lab.h"
#include "results/record.h"
#include "unit-record.h"
#include "wltest.h"

/* ---------------------------------------------------------------- helpers */

/* A result with every field set to something distinctive. */
struct wl_result *
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
void
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

void
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

struct lab *
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

char *
temp_dir(void)
{
	char tmpl[] = "/tmp/raidlab-rec.XXXXXX";

	cr_assert_not_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

void
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

void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* ---------------------------------------------------------------- records */

/* A record of three runs (two repeats of plain's small, mirror's
   skipped), saved into tmp/a/b (made by the save). */
struct saved {
	struct lab *lab;
	struct record *rec;
	struct wl_result *res;
	char *tmp, *dir;
};

static void
saved_three_runs(struct saved *f)
{
	struct err e;

	f->lab = sample_lab();
	f->rec = record_new(f->lab);
	f->res = sample_result();
	f->tmp = temp_dir();
	f->dir = xasprintf("%s/a/b", f->tmp);
	f->res->status = WL_OK;
	record_add_run(f->rec, &f->lab->variants[0], f->tmp,
	    &f->lab->workloads[0], 1, f->res, NULL);
	record_add_run(f->rec, &f->lab->variants[0], f->tmp,
	    &f->lab->workloads[0], 2, f->res, NULL);
	record_add_run(f->rec, &f->lab->variants[1], NULL,
	    &f->lab->workloads[0], 1, NULL, "needs the provisioning step");
	cr_assert_eq(f->rec->nruns, 3, "runs[] follows record_add_run");
	assert_same_result(f->res, f->rec->runs[0].res);
	err_clear(&e);
	cr_assert_eq(record_save(f->rec, f->dir, &e), 0, "%s", e.msg);
}

static void
saved_done(struct saved *f)
{
	record_free(f->rec);
	wl_result_free(f->res);
	lab_free(f->lab);
	rm_rf(f->tmp);
	free(f->tmp);
	free(f->dir);
}

Test(record, save_names_the_file_and_rewrites_it_in_place)
{
	struct record *rec2;
	struct saved f;
	char want[64], *names, *base;
	struct tm tm;
	struct err e;
	size_t n;

	saved_three_runs(&f);
	localtime_r(&f.rec->created, &tm);
	strftime(want, sizeof want, "reclab-%Y%m%d-%H%M%S.json", &tm);
	base = xstrdup(f.rec->path);
	cr_assert_str_eq(basename(base), want);
	free(base);
	names = list_dir(f.dir, &n);
	cr_assert_eq(n, 1, "only the record, no temp file: %s", names);
	free(names);

	/* Rewritten in place with the new status. */
	err_clear(&e);
	record_set_status(f.rec, "ok");
	cr_assert_eq(record_save(f.rec, f.dir, &e), 0, "%s", e.msg);
	names = list_dir(f.dir, &n);
	cr_assert_eq(n, 1, "%s", names);
	free(names);

	/* Another record of the same second gets -2. */
	rec2 = record_new(f.lab);
	rec2->created = f.rec->created;
	cr_assert_eq(record_save(rec2, f.dir, &e), 0, "%s", e.msg);
	cr_assert(strstr(rec2->path, "-2.json") != NULL, "%s", rec2->path);
	record_free(rec2);
	saved_done(&f);
}

Test(record, a_saved_record_reads_back_run_by_run)
{
	struct record *back = NULL;
	struct saved f;
	struct err e;
	char *text;

	saved_three_runs(&f);
	err_clear(&e);
	record_set_status(f.rec, "ok");
	cr_assert_eq(record_save(f.rec, f.dir, &e), 0, "%s", e.msg);
	text = record_dumps(f.rec);
	cr_assert(strstr(text, "\"counts\": [100, 1000],\n") != NULL &&
		strstr(text, "\"buckets\": [[") != NULL,
	    "arrays of numbers on one line");
	free(text);

	cr_assert_eq(record_load(f.rec->path, &back, &e), 0, "%s", e.msg);
	cr_assert_str_eq(json_string_value(
			     json_object_get(back->root, "status")),
	    "ok");
	cr_assert_eq(back->created, f.rec->created);
	cr_assert_eq(back->nruns, 3);
	for (int i = 0; i < 2; i++) {
		cr_assert_str_eq(back->runs[i].variant, "plain");
		cr_assert_str_eq(back->runs[i].workload, "small");
		cr_assert_str_eq(back->runs[i].type, "smallfiles");
		cr_assert_eq(back->runs[i].repeat, i + 1);
		cr_assert_not(back->runs[i].scratch);
		cr_assert_null(back->runs[i].skipped);
		assert_same_result(f.res, back->runs[i].res);
	}
	cr_assert_str_eq(back->runs[2].variant, "mirror");
	cr_assert(back->runs[2].scratch);
	cr_assert_null(back->runs[2].res);
	cr_assert_str_eq(back->runs[2].skipped, "needs the provisioning step");
	cr_assert(json_equal(back->root, f.rec->root), "the document survives");
	record_free(back);
	saved_done(&f);
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

/* A build's md and phase, in the words show and the reports print. */
Test(record, a_builds_md_and_phase_as_text)
{
	json_t *b = json_loads(
	    "{\"facts\": {\"md_tools\": {\"mdadm\": \"4.4\", \"kernel\": "
	    "\"6.12.57\", \"llbitmap\": false}, \"md\": {\"/dev/md/rl-a\": "
	    "{\"level\": \"raid5\", \"stripe_cache_size\": \"4096\", "
	    "\"journal_mode\": \"\", \"consistency_policy\": \"ppl\"}}},"
	    " \"phase\": {\"name\": \"rebuild\", \"failed\": [\"/dev/vde\"],"
	    " \"covered\": false, \"sync\": {\"action\": \"recover\", "
	    "\"complete\": true, \"seconds\": 5.57}, \"after\": "
	    "{\"mismatch_cnt\": \"0\"}}}",
	    0, NULL);
	char *md = record_build_md_text(b), *ph = record_build_phase_text(b);

	cr_expect_str_eq(md,
	    "md: mdadm 4.4, kernel 6.12.57; /dev/md/rl-a "
	    "consistency_policy=ppl stripe_cache_size=4096");
	cr_expect_str_eq(ph,
	    "phase rebuild; failed: /dev/vde; md recover 5.6 s; it ended "
	    "before the workloads did; mismatch_cnt 0 after");
	free(md);
	free(ph);
	json_decref(b);
	b = json_loads("{\"phase\": {\"name\": \"check\", \"md\": null, "
		       "\"failed\": [],"
		       " \"covered\": true, \"sync\": {\"action\": \"scrub\", "
		       "\"complete\": true, \"seconds\": 2.04, \"errors\": "
		       "{\"read_errors\": 0, \"csum_errors\": 3, "
		       "\"uncorrectable_errors\": 1}}}}",
	    0, NULL);
	ph = record_build_phase_text(b);
	cr_expect_str_eq(ph,
	    "phase check; btrfs scrub 2.0 s; csum_errors 3, "
	    "uncorrectable_errors 1");
	free(ph);
	json_object_set_new(json_object_get(json_object_get(b, "phase"),
				"sync"),
	    "errors", json_pack("{s:i}", "csum_errors", 0));
	ph = record_build_phase_text(b);
	cr_expect_str_eq(ph, "phase check; btrfs scrub 2.0 s; no error");
	free(ph);
	json_object_del(b, "phase");
	cr_expect_null(record_build_md_text(b));
	cr_expect_null(record_build_phase_text(b));
	json_decref(b);
}

/* The members' queues in one line: members that read alike grouped, in
   the record's order; nothing when the build recorded none. */
Test(record, members_queues_as_one_line)
{
	json_t *f = json_loads(
	    "{\"queues\": {\"/dev/sdb\": {\"scheduler\": \"mq-deadline\", "
	    "\"schedulers\": [\"none\", \"mq-deadline\"], \"nr_requests\": "
	    "64, \"rotational\": 1, \"write_cache\": \"write back\", "
	    "\"read_ahead_kb\": 128}, \"/dev/sdc\": {\"scheduler\": "
	    "\"none\", \"nr_requests\": 2, \"rotational\": 0, "
	    "\"write_cache\": \"write through\", \"read_ahead_kb\": 128}, "
	    "\"/dev/sdd\": {\"scheduler\": \"mq-deadline\", \"schedulers\": "
	    "[\"none\", \"mq-deadline\"], \"nr_requests\": 64, "
	    "\"rotational\": 1, \"write_cache\": \"write back\", "
	    "\"read_ahead_kb\": 128}}}",
	    JSON_PRESERVE_ORDER, NULL);
	char *t = record_queues_text(f);

	cr_expect_str_eq(t,
	    "members: /dev/sdb, /dev/sdd: scheduler mq-deadline, nr_requests "
	    "64, rotational 1, write cache write back, read_ahead_kb 128; "
	    "/dev/sdc: scheduler none, nr_requests 2, rotational 0, write "
	    "cache write through, read_ahead_kb 128");
	free(t);
	json_object_del(json_object_get(f, "queues"), "/dev/sdc");
	t = record_queues_text(f);
	cr_expect_str_eq(t,
	    "members: scheduler mq-deadline, nr_requests 64, rotational 1, "
	    "write cache write back, read_ahead_kb 128");
	free(t);
	json_object_del(f, "queues");
	cr_expect_null(record_queues_text(f));
	json_decref(f);
}
