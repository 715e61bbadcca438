/*
 * The runner's hook (labrun.h, opts.hook): a program run once a variant
 * is ready and before its workloads, as `PROG VARIANT TARGET`, so that a
 * user (or the md VM test) can look at what was built while it stands:
 * mdadm --detail, xfs_info, the mount's options. Its exit status and
 * output go into the variant's build object ("hook"); a failure is an
 * error of the run, and the workloads run all the same. Runner thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "exec.h"
#include "i18n.h"
#include "labrun-int.h"
#include "labrun.h"

/* Long enough for anything a person would have it do; it only stops a
   hook that hangs. */
#define HOOK_TIMEOUT 600.0

int
labrun_hook(struct labrun *lr, int vi, const char *target, json_t *build)
{
	const struct lab_variant *v = labrun_variant(lr, vi);
	const char *argv[] = { lr->hook, labrun_vname(v), target, NULL };
	const struct exec_opts o = { .timeout = HOOK_TIMEOUT };
	struct exec_result r = { 0 };
	char why[128];
	int rc;

	if (lr->hook == NULL)
		return 0;
	labrun_emit(lr, LABRUN_STEP, vi, -1, "%s %s %s", lr->hook,
	    labrun_vname(v), target);
	rc = exec_run(argv, &o, &r);
	if (json_is_object(build)) {
		json_t *h = json_object();

		json_object_set_new(h, "program", json_string(lr->hook));
		json_object_set_new(h, "status", json_integer(r.status));
		json_object_set_new(h, "output", json_string(r.output));
		json_object_set_new(build, "hook", h);
	}
	if (rc < 0) {
		labrun_emit(lr, LABRUN_ERROR, vi, -1,
		    _("variant %s: the hook %s: %s"), labrun_vname(v), lr->hook,
		    exec_result_describe(&r, why, sizeof why));
		labrun_count(lr, 0, 1);
	}
	exec_result_done(&r);
	return rc;
}
