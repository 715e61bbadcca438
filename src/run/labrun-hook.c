/*
 * The runner's hook (labrun.h, opts.hook): a program run once a variant
 * is ready and before its workloads, as `PROG VARIANT TARGET`, so that a
 * user (or the md VM test) can look at what was built while it stands:
 * mdadm --detail, xfs_info, the mount's options. Its exit status and
 * output go into the record: an array variant's build object ("hook"),
 * or for a directory variant the record's "hooks"; a failure is an error
 * of the run, and the workloads run all the same. labrun_hook_check() is
 * the caller's, before a run; the rest is the runner thread's.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "labrun-int.h"
#include "labrun.h"

/* Long enough for anything a person would have it do; it only stops a
   hook that hangs. */
#define HOOK_TIMEOUT 600.0

int
labrun_hook_check(const char *prog, struct err *e)
{
	struct stat st;
	char *path;
	int rc;

	/* found as exec_run() will find it (PATH, then the sbin dirs) */
	if ((path = exec_find(prog, &rc)) == NULL)
		return err_set(e, -rc, NULL, 0, "--hook",
		    rc == EACCES ? _("%s: not executable")
				 : _("%s: no such program"),
		    prog);
	rc = 0;
	if (stat(path, &st) < 0)
		rc = err_set(e, -errno, NULL, 0, "--hook", "%s: %s", prog,
		    strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = err_set(e, -EACCES, NULL, 0, "--hook",
		    _("%s: not a regular file"), prog);
	else if (access(path, X_OK) < 0)
		rc = err_set(e, -EACCES, NULL, 0, "--hook",
		    _("%s: not executable"), prog);
	free(path);
	return rc;
}

int
labrun_hook(struct labrun *lr, int vi, const char *target, json_t *build)
{
	const struct lab_variant *v = labrun_variant(lr, vi);
	const char *argv[] = { lr->hook, labrun_vname(v), target, NULL };
	const struct exec_opts o = { .timeout = HOOK_TIMEOUT };
	struct exec_result r = { 0 };
	char why[128];
	json_t *h;
	int rc;

	if (lr->hook == NULL)
		return 0;
	labrun_emit(lr, LABRUN_STEP, vi, -1, "%s %s %s", lr->hook,
	    labrun_vname(v), target);
	rc = exec_run(argv, &o, &r);
	h = json_object();
	json_object_set_new(h, "program", json_string(lr->hook));
	json_object_set_new(h, "status", json_integer(r.status));
	/* bytes in another encoding kept as \xNN: json_string() would
	   refuse the whole output */
	json_object_set_new(h, "output", jsonx_str_bytes(r.output));
	if (json_is_object(build)) {
		json_object_set(build, "hook", h);
	} else {
		json_object_set_new(h, "variant", jsonx_str(labrun_vname(v)));
		json_object_set_new(h, "target", jsonx_str(target));
		labrun_record_hook(lr, h);
	}
	json_decref(h);
	if (rc < 0) {
		labrun_emit(lr, LABRUN_ERROR, vi, -1,
		    _("variant %s: the hook %s: %s"), labrun_vname(v), lr->hook,
		    exec_result_describe(&r, why, sizeof why));
		labrun_count(lr, 0, 1);
	}
	exec_result_done(&r);
	return rc;
}
