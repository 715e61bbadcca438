/*
 * Disk inventory to JSON: see disk-json.h. Any thread.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/jsonx.h"
#include "base/xalloc.h"
#include "disk-json.h"
static json_t *
str_or_null(const char *s)
{
	return s != NULL ? jsonx_str(s) : json_null();
}

static json_t *
strv(char *const *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, jsonx_str(v[i]));
	return a;
}

static const char *
probe_name(enum disk_probe_state p)
{
	switch (p) {
	case DISK_PROBE_OK:
		return "ok";
	case DISK_PROBE_FAILED:
		return "failed";
	default:
		return "none";
	}
}

json_t *
disk_to_json(const struct disk *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", jsonx_str(d->name));
	json_object_set_new(o, "path", str_or_null(d->path));
	json_object_set_new(o, "type", json_string(disk_type_name(d->type)));
	json_object_set_new(o, "major", json_integer(d->major));
	json_object_set_new(o, "minor", json_integer(d->minor));
	json_object_set_new(o, "size", json_integer((json_int_t)d->size));
	json_object_set_new(o, "log_sec", json_integer(d->log_sec));
	json_object_set_new(o, "phy_sec", json_integer(d->phy_sec));
	json_object_set_new(o, "rotational", json_boolean(d->rotational));
	json_object_set_new(o, "removable", json_boolean(d->removable));
	json_object_set_new(o, "read_only", json_boolean(d->read_only));
	json_object_set_new(o, "model", str_or_null(d->model));
	json_object_set_new(o, "vendor", str_or_null(d->vendor));
	json_object_set_new(o, "serial", str_or_null(d->serial));
	json_object_set_new(o, "transport", str_or_null(d->transport));
	json_object_set_new(o, "probe", json_string(probe_name(d->probe)));
	json_object_set_new(o, "probe_error",
	    d->probe == DISK_PROBE_FAILED
		? json_string(strerror(d->probe_errno))
		: json_null());
	json_object_set_new(o, "pttype", str_or_null(d->pttype));
	json_object_set_new(o, "fstype", str_or_null(d->fstype));
	json_object_set_new(o, "mount_fstype", str_or_null(d->mount_fstype));
	json_object_set_new(o, "label", str_or_null(d->label));
	json_object_set_new(o, "uuid", str_or_null(d->uuid));
	json_object_set_new(o, "mountpoints",
	    strv(d->mountpoints, d->n_mountpoints));
	json_object_set_new(o, "swap", json_boolean(d->swap));
	json_object_set_new(o, "holders", strv(d->holders, d->n_holders));
	json_object_set_new(o, "slaves", strv(d->slaves, d->n_slaves));
	json_object_set_new(o, "backing_file", str_or_null(d->backing_file));
	json_object_set_new(o, "parent", str_or_null(d->parent));
	json_object_set_new(o, "partitions",
	    strv(d->partitions, d->n_partitions));
	json_object_set_new(o, "root", json_boolean(d->root));
	json_object_set_new(o, "verdict",
	    json_string(disk_verdict_name(d->verdict)));
	json_object_set_new(o, "reason_code",
	    json_string(disk_why_name(d->why)));
	json_object_set_new(o, "reason", jsonx_str(d->reason));
	return o;
}

json_t *
disk_list_to_json(const struct disk_list *l, disk_filter_fn keep, void *arg)
{
	json_t *o = json_object(), *a = json_array();
	size_t i;

	for (i = 0; i < l->n; i++)
		if (keep == NULL || keep(&l->v[i], arg))
			json_array_append_new(a, disk_to_json(&l->v[i]));
	json_object_set_new(o, "devices", a);
	return o;
}
