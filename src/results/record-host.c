/*
 * Host facts for result records (record.h): hostname, kernel release and
 * build, architecture, CPU model, online CPUs and RAM, read from uname(2),
 * sysconf(3) and /proc/cpuinfo; and the facts that tell whether the
 * process writing a record still runs (pid, its start time, the boot).
 * Never fails: an unknown fact is null. Any thread.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/jsonx.h"
#include "base/xalloc.h"
#include "record-int.h"
#include "record.h"

/*
 * The CPU model: "model name" on x86, else the first of the keys other
 * architectures use. NULL when /proc/cpuinfo says nothing useful.
 */
static char *
cpu_model(void)
{
	static const char *const keys[] = { "model name", "Model", "cpu model",
		"Hardware", "cpu", NULL };
	char *found[5] = { NULL }, *line = NULL, *v, *res = NULL;
	size_t cap = 0, k, len;
	FILE *fp = fopen("/proc/cpuinfo", "re");

	if (fp == NULL)
		return NULL;
	while (getline(&line, &cap, fp) > 0) {
		if ((v = strchr(line, ':')) == NULL)
			continue;
		for (len = (size_t)(v - line);
		     len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t');
		     len--)
			;
		for (k = 0; keys[k] != NULL; k++)
			if (found[k] == NULL && strlen(keys[k]) == len &&
			    strncmp(line, keys[k], len) == 0)
				break;
		if (keys[k] == NULL)
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		if (*v != '\0')
			found[k] = xstrdup(v);
	}
	free(line);
	fclose(fp);
	for (k = 0; k < 5; k++) {
		if (res == NULL && found[k] != NULL)
			res = found[k];
		else
			free(found[k]);
	}
	return res;
}

json_t *
record_host_json(void)
{
	json_t *o = json_object();
	struct utsname u;
	char host[256];
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	char *cpu = cpu_model();
	bool un = uname(&u) == 0;

	if (gethostname(host, sizeof host) < 0)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	json_object_set_new(o, "hostname",
	    host[0] ? jsonx_str(host) : json_null());
	json_object_set_new(o, "kernel",
	    un ? jsonx_str(u.release) : json_null());
	json_object_set_new(o, "kernel_build",
	    un ? jsonx_str(u.version) : json_null());
	json_object_set_new(o, "arch", un ? jsonx_str(u.machine) : json_null());
	json_object_set_new(o, "cpu_model", jsonx_str(cpu));
	json_object_set_new(o, "cores",
	    cores > 0 ? json_integer(cores) : json_null());
	json_object_set_new(o, "ram_bytes",
	    pages > 0 && psize > 0 ? rec_ju64((uint64_t)pages * (uint64_t)psize)
				   : json_null());
	free(cpu);
	return o;
}

/* The process's start time in clock ticks since boot (/proc/PID/stat,
   field 22), or 0. */
static uint64_t
start_ticks(long pid)
{
	char path[64], buf[1024], *p;
	uint64_t v = 0;
	size_t n;
	FILE *fp;
	int field;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((fp = fopen(path, "re")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	/* The command name may hold blanks and parentheses: count from the
	   last ')', which ends it (field 2). */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	for (field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p + 1, "%" SCNu64, &v) != 1)
		return 0;
	return v;
}

/* This boot's id (/proc/sys/kernel/random/boot_id) into buf, or "". */
static void
boot_id(char *buf, size_t len)
{
	FILE *fp = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (fp == NULL)
		return;
	if (fgets(buf, (int)len, fp) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

json_t *
record_writer_json(void)
{
	long pid = (long)getpid();
	char boot[64];

	boot_id(boot, sizeof boot);
	return json_pack("{s:I, s:o, s:o}", "pid", (json_int_t)pid,
	    "start_ticks", rec_ju64(start_ticks(pid)), "boot_id",
	    boot[0] ? jsonx_str(boot) : json_null());
}

bool
record_writer_alive(const json_t *writer)
{
	const char *boot = record_get_str(writer, "boot_id");
	uint64_t ticks = 0;
	char now[64];
	int pid = 0;

	if (!record_get_int(writer, "pid", &pid) || pid <= 0 ||
	    !record_get_u64(writer, "start_ticks", &ticks) || ticks == 0 ||
	    boot == NULL)
		return false;
	boot_id(now, sizeof now);
	return strcmp(boot, now) == 0 && start_ticks(pid) == ticks;
}
