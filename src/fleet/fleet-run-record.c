/*
 * A host's record as the fleet controller keeps it: the JSON its raidlab
 * printed on stdout, with a "fleet" object added (host, address, run,
 * hosts, controller), saved into the lab's local results directory as
 * LAB-STAMP-HOST.json (the stamp is the controller's start, so one fleet
 * run's records sort together and never collide with a local record's
 * LAB-STAMP.json). The host's worker thread.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "fleet-run-int.h"
#include "lab/lab.h"
#include "results/record.h"

char *
fleet_record_id(const char *lab, const char *stamp, const char *controller)
{
	return xasprintf("%s-%s@%s", lab, stamp, controller);
}

char *
fleet_record_path(const char *dir, const char *lab, const char *stamp,
    const char *host)
{
	char *base = xasprintf("%s-%s-%s", lab, stamp, host);
	char *path = record_reserve_path(dir, base);

	free(base);
	return path;
}

char *
fleet_controller_name(void)
{
	char buf[256];

	if (gethostname(buf, sizeof buf) < 0)
		return xstrdup("?");
	buf[sizeof buf - 1] = '\0';
	return xstrdup(buf);
}

static json_t *
fleet_object(const struct fleet_host *h)
{
	const struct fleet_run *fr = h->fr;
	json_t *o = json_object(), *hosts = json_array();

	json_object_set_new(o, "host", json_string(h->lh->name));
	json_object_set_new(o, "address", json_string(h->lh->address));
	json_object_set_new(o, "run", json_string(fr->id));
	for (size_t i = 0; i < fr->nhosts; i++)
		json_array_append_new(hosts,
		    json_string(fr->hosts[i].lh->name));
	json_object_set_new(o, "hosts", hosts);
	json_object_set_new(o, "controller", json_string(fr->controller));
	return o;
}

/* A new file in dir for h's record, reserved (O_EXCL); caller frees. */
static char *
new_path(const struct fleet_host *h, const char *dir)
{
	const struct fleet_run *fr = h->fr;

	return fleet_record_path(dir, fr->lab->name, fr->stamp, h->lh->name);
}

static int
save(struct fleet_host *h, json_t *root)
{
	struct fleet_run *fr = h->fr;
	struct record rec = { .root = root };
	char *text, *path;
	struct err e;
	int rc;

	err_clear(&e);
	if ((rc = afile_mkdirs(fr->results, 0755)) < 0) {
		fleet_emit(fr, FLEET_EV_ERROR, (int)h->index,
		    _("%s: its record was not saved: cannot create the "
		      "results directory %s: %s"),
		    h->lh->name, fr->results, strerror(-rc));
		return rc;
	}
	path = new_path(h, fr->results);
	text = record_dumps(&rec);
	rc = text != NULL ? afile_write(path, text, strlen(text), &e) : -ENOMEM;
	free(text);
	if (rc < 0) {
		unlink(path);
		fleet_emit(fr, FLEET_EV_ERROR, (int)h->index,
		    _("%s: its record was not saved: %s"), h->lh->name,
		    e.msg[0] ? e.msg : strerror(-rc));
	} else {
		fleet_emit(fr, FLEET_EV_RECORD, (int)h->index, "%s", path);
	}
	free(path);
	return rc;
}

int
fleet_record_take(struct fleet_host *h, const char *out)
{
	struct fleet_run *fr = h->fr;
	json_t *root, *fo, *mine = NULL;
	json_error_t je;
	const char *fmt;
	int rc = 0;

	root = json_loads(out, 0, &je);
	fmt = root != NULL ? record_get_str(root, "format") : NULL;
	if (root == NULL || !json_is_object(root) || fmt == NULL ||
	    strcmp(fmt, RECORD_FORMAT) != 0) {
		fleet_emit(fr, FLEET_EV_ERROR, (int)h->index,
		    _("%s (%s): its raidlab printed no record (%s)"),
		    h->lh->name, h->lh->address,
		    *out == '\0'       ? _("nothing on its output")
			: root == NULL ? je.text
				       : _("not a raidlab record"));
		json_decref(root);
		return -EPROTO;
	}
	/* The host's raidlab names its host in "fleet" already: added to,
	   so that what it says stays. */
	fo = json_object_get(root, "fleet");
	if (json_is_object(fo))
		json_object_update(fo, mine = fleet_object(h));
	else
		json_object_set_new(root, "fleet", fleet_object(h));
	json_decref(mine);
	if (fr->record)
		rc = save(h, root);
	pthread_mutex_lock(&fr->mu);
	h->record = root;
	h->saved = fr->record && rc == 0;
	if (h->saved)
		fr->sum.records++;
	pthread_mutex_unlock(&fr->mu);
	return rc;
}
