/*
 * What was built, for the result record: the output of the plan's fact
 * commands (mdadm --detail, dumpe2fs -h, xfs_info, btrfs filesystem df
 * and show, blockdev --getra), each md array's sysfs attributes, the
 * text of /proc/mdstat and the mount options the kernel actually uses;
 * and the plan's writes to an array's sysfs, with what each found.
 * See provision.h. The caller's thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonx.h"
#include "base/xalloc.h"
#include "exec.h"
#include "mdsys.h"
#include "mdtools.h"
#include "provision.h"

#define FACT_TIMEOUT 60.0

char *
prov_read_text(const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return xstrdup(buf);
}

/* Undo mountinfo's octal escapes (\040 for a blank) in place. */
static void
unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] &&
		    s[3]) {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
			    (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* {"mount": "rw,noatime", "super": "rw,attr2,...", "source": ...} of the
   mount at dir, from /proc/self/mountinfo; NULL when not mounted. */
static json_t *
mount_facts(const char *dir)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	json_t *o = NULL;

	if (f == NULL)
		return NULL;
	while (fgets(line, sizeof line, f) != NULL) {
		char *fld[6], *save = NULL, *sep, *fs, *src, *sup;
		int i;

		line[strcspn(line, "\n")] = '\0';
		if ((sep = strstr(line, " - ")) == NULL)
			continue;
		*sep = '\0';
		fld[0] = strtok_r(line, " ", &save);
		for (i = 1; i < 6 && fld[i - 1] != NULL; i++)
			fld[i] = strtok_r(NULL, " ", &save);
		if (i < 6 || fld[5] == NULL)
			continue;
		unescape(fld[4]);
		if (strcmp(fld[4], dir) != 0)
			continue;
		save = NULL;
		fs = strtok_r(sep + 3, " ", &save);
		src = strtok_r(NULL, " ", &save);
		sup = strtok_r(NULL, " ", &save);
		json_decref(o); /* the last mount on dir is the visible one */
		o = json_pack("{s:s, s:s, s:s, s:s}", "fstype", fs ? fs : "",
		    "source", src ? src : "", "mount", fld[5], "super",
		    sup ? sup : "");
	}
	fclose(f);
	return o;
}

/* A command's output, or {error, output} when it failed. */
static json_t *
fact_output(const char *const *argv)
{
	struct exec_opts o = { .timeout = FACT_TIMEOUT };
	struct exec_result r;
	char d[256];
	json_t *v;

	if (exec_run(argv, &o, &r) < 0)
		v = json_pack("{s:s, s:o?}", "error",
		    exec_result_describe(&r, d, sizeof d), "output",
		    jsonx_str_bytes(r.output));
	else
		v = jsonx_str_bytes(r.output);
	exec_result_done(&r);
	return v;
}

/* The md generation that built it: mdadm's version, the kernel's, and
   whether the kernel has the lockless bitmap. */
static json_t *
md_tools(void)
{
	struct md_tools t;

	mdtools_probe(&t);
	return mdtools_json(&t);
}

void
prov_facts(struct prov *p)
{
	const struct plan *pl = p->plan;
	json_t *facts = json_object(), *md = json_object(), *m;
	char *text;

	for (size_t i = 0; i < pl->nfacts; i++)
		json_object_set_new(facts, pl->facts[i].key,
		    fact_output((const char *const *)pl->facts[i].argv));
	for (size_t i = 0; i < pl->nmd; i++) {
		const char *argv[] = { "mdadm", "--detail", pl->md[i], NULL };
		char name[64];
		json_t *a;

		if (!mdsys_kernel_name(pl->md[i], name, sizeof name))
			continue;
		a = mdsys_facts(p->sysroot, name);
		json_object_set_new(a, "mdadm_detail", fact_output(argv));
		json_object_set_new(md, pl->md[i], a);
	}
	json_object_set_new(facts, "md", md);
	if (pl->nmd > 0)
		json_object_set_new(facts, "md_tools", md_tools());
	if ((text = prov_read_text("/proc/mdstat")) != NULL) {
		json_object_set_new(facts, "mdstat", json_string(text));
		free(text);
	}
	if ((m = mount_facts(pl->mountpoint)) != NULL)
		json_object_set_new(facts, "mount", m);
	json_object_set_new(facts, "queues", prov_queue_facts(p));
	json_object_set_new(p->build, "facts", facts);
}

int
prov_sysfs(struct prov *p, const struct plan_step *s, json_t *steps,
    const struct prov_cb *cb, char *why, size_t wlen)
{
	char *line = plan_sysfs_command(s), name[64], *found = NULL,
	     *now = NULL;
	int rc = -ENOENT;
	json_t *o = json_object();

	if (cb != NULL && cb->step != NULL)
		cb->step(cb->arg, line);
	if (mdsys_kernel_name(s->device, name, sizeof name))
		rc = mdsys_write(p->sysroot, name, s->attr, s->value, &found,
		    &now);
	json_object_set_new(o, "command", json_string(line));
	if (s->reason != NULL)
		json_object_set_new(o, "reason", json_string(s->reason));
	json_object_set_new(o, "sysfs",
	    json_pack("{s:s, s:s, s:s, s:o, s:o}", "device", s->device, "attr",
		s->attr, "value", s->value, "found", jsonx_str(found), "now",
		jsonx_str(now)));
	json_object_set_new(o, "status",
	    json_string(rc == 0 ? "ok" : strerror(-rc)));
	/* as a command that ran: 0, or 1 for a refused write */
	json_object_set_new(o, "exit_status", json_integer(rc == 0 ? 0 : 1));
	json_array_append_new(steps, o);
	if (rc < 0)
		snprintf(why, wlen, "%s: %s", line, strerror(-rc));
	free(line);
	free(found);
	free(now);
	return rc;
}
