/*
 * The pure parts of src/fleet/fleet-fio on fio's real client-mode output:
 * once per test binary a real `fio --server` on 127.0.0.1 (a free port)
 * runs the job files fleet_fio_job_text() writes for two "hosts", hA and
 * hB, as two clients of one `fio --client` run (fio ships with ./setup's
 * packages). Each host's figures are its own client_stats entry, mapped
 * by job name, never fio's "All clients"; the aggregate is their sum and
 * has no percentile, only the highest of the hosts' p99, so labelled; a
 * host without an entry is named. Also the version line and %h.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "fleet/fleet-fio.h"
#include "lab/lab.h"
#include "measure/result.h"

#define LAB                                                                    \
	"name = \"t\";\n"                                                      \
	"hosts = ( { name = \"hA\"; address = \"127.0.0.1\"; },\n"             \
	"  { name = \"hB\"; address = \"127.0.0.1\"; } );\n"                   \
	"variants = ( { name = \"v\"; directory = \"%s\"; "                    \
	"hosts = \"all\"; } );\n"                                              \
	"workloads = ( { name = \"w\"; type = \"fio\"; fio_server = true;\n"   \
	"  rw = \"randrw\"; bs = \"4K\"; size = \"1M\"; rwmixread = 70; } "    \
	");\n"

static struct lab *
load(const char *dir)
{
	char *text = xasprintf(LAB, dir);
	struct errlist errs;
	struct lab *lab = NULL;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(text, "t.lab", &lab, &errs), 0);
	cr_assert_eq(lab_check(lab, &errs), 0);
	errlist_done(&errs);
	free(text);
	return lab;
}

static int
free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *
read_file(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = xcalloc(1, 1 << 20);

	cr_assert_not_null(fp, "%s", path);
	fread(buf, 1, (1 << 20) - 1, fp);
	fclose(fp);
	return buf;
}

/* fio's client-mode JSON for hA and hB, from a real server. */
static char *
real_output(const struct lab *lab, char *tmp)
{
	char spec[64], path[256], *out, *job, *jobs[2];
	char *dir = xasprintf("%s/d", tmp);
	const char *argv[8];
	struct exec_result r = { 0 };
	pid_t pid;
	int port = free_port(), rc;

	mkdir(dir, 0700);
	snprintf(spec, sizeof spec, "--server=ip:127.0.0.1,%d", port);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		/* A group of its own: the children it forks per
		   connection are stopped with it. */
		setpgid(0, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("fio", "fio", spec, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 2; i++) {
		const char *h = lab->hosts[i].name;

		jobs[i] = xasprintf("%s/%s.fio", tmp, h);
		job = fleet_fio_job_text(&lab->workloads[0], h, dir);
		write_file(jobs[i], job);
		free(job);
	}
	snprintf(spec, sizeof spec, "--client=ip:127.0.0.1,%d", port);
	out = xasprintf("--output=%s/out.json", tmp);
	argv[0] = "fio";
	argv[1] = spec;
	argv[2] = jobs[0];
	argv[3] = spec;
	argv[4] = jobs[1];
	argv[5] = "--output-format=json";
	argv[6] = out;
	argv[7] = NULL;
	/* The server listens within a moment; a client that came too early
	   fails at once and tries again. */
	snprintf(path, sizeof path, "%s/out.json", tmp);
	for (int tries = 0; tries < 50; tries++) {
		/* fio appends to --output: no failed try's message before
		   the JSON */
		unlink(path);
		exec_result_done(&r);
		if ((rc = exec_run(argv, &(struct exec_opts){ .timeout = 60 },
			 &r)) == 0)
			break;
		usleep(100000);
	}
	kill(-pid, SIGTERM);
	waitpid(pid, NULL, 0);
	for (int i = 0; i < 100 && kill(-pid, 0) == 0; i++)
		usleep(50000);
	kill(-pid, SIGKILL);
	cr_assert_eq(rc, 0, "fio --client: %s", r.output);
	exec_result_done(&r);
	free(out);
	free(jobs[0]);
	free(jobs[1]);
	free(dir);
	return read_file(path);
}

static char tmpdir[] = "/tmp/test-fleet-fio.XXXXXX";

/* Also after a failed assertion: nothing left in /tmp. */
static void
rm_tmpdir(void)
{
	struct exec_result r = { 0 };

	if (strcmp(tmpdir + strlen(tmpdir) - 6, "XXXXXX") != 0)
		exec_run((const char *[]){ "rm", "-rf", tmpdir, NULL }, NULL,
		    &r);
	exec_result_done(&r);
}

Test(fleet_fio, maps_real_client_output_by_job_name_and_sums_it,
    .fini = rm_tmpdir)
{
	struct lab *lab;
	char *json, ver[64];
	const char *names[2] = { "hB", "hA" }; /* not fio's order */
	struct fleet_fio_figs figs[2];
	struct wl_result *res[2];
	json_t *root, *stats, *round, *sum;
	struct err e;
	size_t i;

	cr_assert_not_null(mkdtemp(tmpdir));
	lab = load(tmpdir);
	json = real_output(lab, tmpdir);
	cr_assert_eq(fleet_fio_parse(json, "out.json", names, 2, figs, res, ver,
			 sizeof ver, &e),
	    0, "%s", e.msg);
	root = json_loads(json, 0, NULL);
	stats = json_object_get(root, "client_stats");
	cr_assert_eq(json_array_size(stats), 3, "two hosts and All clients");
	for (size_t h = 0; h < 2; h++) {
		json_t *job = NULL, *x;

		json_array_foreach(stats, i, x)
		{
			if (strcmp(json_string_value(
				       json_object_get(x, "jobname")),
				names[h]) == 0)
				job = x;
		}
		cr_assert_not_null(job);
		cr_assert_eq(figs[h].read_bw,
		    json_number_value(
			json_object_get(json_object_get(job, "read"),
			    "bw_bytes")));
		cr_assert_eq(figs[h].write_iops,
		    json_number_value(
			json_object_get(json_object_get(job, "write"),
			    "iops")));
		cr_assert_gt(figs[h].read_bw, 0);
		cr_assert_gt(figs[h].write_bw, 0);
		/* The run is raidlab's fio test: MB/s of both directions. */
		cr_assert_str_eq(res[h]->tests[0].key, "randrw");
		cr_assert_float_eq(res[h]->tests[0].value,
		    (figs[h].read_bw + figs[h].write_bw) / 1e6, 1e-9);
		cr_assert_gt(res[h]->tests[0].lat[WL_OP_READ].n, 0);
		wl_result_free(res[h]);
	}
	cr_assert_eq(strncmp(ver, "fio-", 4), 0);

	round = fleet_fio_round_json(1, "raw.json", names, figs, 2);
	sum = json_object_get(round, "sum");
	cr_assert_eq(json_real_value(json_object_get(sum, "read_bw_bytes")),
	    figs[0].read_bw + figs[1].read_bw);
	cr_assert_float_eq(json_real_value(json_object_get(sum, "iops")),
	    figs[0].read_iops + figs[1].read_iops + figs[0].write_iops +
		figs[1].write_iops,
	    1e-6);
	cr_assert_null(json_object_get(sum, "p99_ns"), "no summed p99");
	cr_assert_eq(json_real_value(json_object_get(json_object_get(round,
							 "max_host_p99_ns"),
			 "write")),
	    fmax(figs[0].write_p99, figs[1].write_p99));
	cr_assert_not_null(
	    strstr(json_string_value(json_object_get(json_object_get(round,
							 "max_host_p99_ns"),
		       "meaning")),
		"not a percentile of all hosts"));
	json_decref(round);

	/* A host fio did not report for is named. */
	names[1] = "hC";
	cr_assert_eq(fleet_fio_parse(json, "out.json", names, 2, figs, res,
			 NULL, 0, &e),
	    -EINVAL);
	cr_assert_str_eq(e.msg,
	    "hC: no job of that name in fio's output (the host's server did "
	    "not report)");
	/* fio's messages before the JSON in the same file are skipped. */
	{
		char *noisy = xasprintf("fio: a warning of fio's\n%s", json);

		names[1] = "hA";
		cr_assert_eq(fleet_fio_parse(noisy, "out.json", names, 2, figs,
				 NULL, NULL, 0, &e),
		    0, "%s", e.msg);
		free(noisy);
	}
	/* fio's own sum is never a host. */
	names[1] = "All clients";
	cr_assert_eq(fleet_fio_parse(json, "out.json", names, 2, figs, NULL,
			 NULL, 0, &e),
	    0);
	json_decref(root);
	free(json);
	lab_free(lab);
}

Test(fleet_fio, job_text_names_the_host_and_keeps_file_names)
{
	struct lab *lab = load("/srv/x");
	struct lab_variant *v = &lab->variants[0];
	char *dir = fleet_fio_directory(v, "hA"), *job;

	cr_assert_str_eq(dir, "/srv/x");
	free(dir);
	/* As lab_load() will keep it once it knows %h: %%h stays "%h". */
	v->directory_text = xstrdup("/srv/%h/x%%h");
	dir = fleet_fio_directory(v, "hA");
	cr_assert_str_eq(dir, "/srv/hA/x%h");
	job = fleet_fio_job_text(&lab->workloads[0], "hA", dir);
	cr_assert_not_null(strstr(job, "\n[hA]\n"));
	cr_assert_not_null(strstr(job, "\ndirectory=/srv/hA/x%h\n"));
	cr_assert_not_null(strstr(job, "\nunique_filename=0\n"));
	cr_assert_not_null(strstr(job, "\nrw=randrw\n"));
	cr_assert_not_null(strstr(job, "\nrwmixread=70\n"));
	cr_assert_not_null(strstr(job, "\ngroup_reporting=1\n"));
	cr_assert_null(strstr(job, "time_based"), "no runtime: one pass");
	free(job);
	free(dir);
	lab_free(lab);
}

Test(fleet_fio, version_lines)
{
	char v[64];

	cr_assert(fleet_fio_version("fio-3.33\n", v, sizeof v));
	cr_assert_str_eq(v, "fio-3.33");
	cr_assert(fleet_fio_version("  fio-3.35-12-gabcdef\n", v, sizeof v));
	cr_assert_str_eq(v, "fio-3.35-12-gabcdef");
	cr_assert_not(fleet_fio_version("sh: fio: not found\n", v, sizeof v));
	cr_assert_not(fleet_fio_version("", v, sizeof v));
}
