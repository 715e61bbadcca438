/*
 * The walks every group of the lab schema shares (lab-schema.h): a key's
 * value read, set, reset, copied, compared and shown by its kind, and
 * read from a lab file with the messages lab_load() gives. The thread
 * that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

/* Enums are read and written through an int. */
_Static_assert(sizeof(enum lab_engine) == sizeof(int) &&
	sizeof(enum lab_order) == sizeof(int) &&
	sizeof(enum lab_cache) == sizeof(int) &&
	sizeof(enum lab_fs_type) == sizeof(int) &&
	sizeof(enum lab_data_mode) == sizeof(int) &&
	sizeof(enum lab_profile) == sizeof(int) &&
	sizeof(enum lab_md_metadata) == sizeof(int),
    "the schema reads enum fields as int");

static size_t
count_names(const char *const *names)
{
	size_t n = 0;

	while (names[n] != NULL)
		n++;
	return n;
}

int64_t
lab_key_get(const struct lab_key *k, const void *group)
{
	const void *p = lab_key_cptr(k, group);

	switch (k->kind) {
	case LAB_KEY_BOOL:
		return *(const bool *)p;
	case LAB_KEY_INT:
		return *(const int64_t *)p;
	case LAB_KEY_SIZE:
		return (int64_t)(*(const uint64_t *)p);
	case LAB_KEY_ENUM:
		return *(const int *)p;
	case LAB_KEY_PERCENT:
		return *(const int32_t *)p;
	default:
		return 0;
	}
}

bool
lab_key_nested(const struct lab_key *k)
{
	return strchr(k->name, '.') != NULL;
}

/* A number stored as it is: defaults and copies need no range. */
static void
put(const struct lab_key *k, void *group, int64_t v)
{
	void *p = lab_key_ptr(k, group);

	switch (k->kind) {
	case LAB_KEY_BOOL:
		*(bool *)p = v != 0;
		break;
	case LAB_KEY_INT:
		*(int64_t *)p = v;
		break;
	case LAB_KEY_SIZE:
		*(uint64_t *)p = (uint64_t)v;
		break;
	case LAB_KEY_ENUM:
		*(int *)p = (int)v;
		break;
	case LAB_KEY_PERCENT:
		*(int32_t *)p = (int32_t)v;
		break;
	default:
		break;
	}
}

int
lab_key_check(const struct lab_key *k, int64_t v, char *why, size_t len)
{
	bool ok;

	switch (k->kind) {
	case LAB_KEY_BOOL:
		ok = v == 0 || v == 1;
		break;
	case LAB_KEY_INT:
		if (v >= k->min && v <= k->max)
			return 0;
		snprintf(why, len, _("%lld is out of range (%lld..%lld)"),
		    (long long)v, (long long)k->min, (long long)k->max);
		return -ERANGE;
	case LAB_KEY_SIZE:
		if (v >= 0)
			return 0;
		snprintf(why, len, "%s", _("a size cannot be negative"));
		return -ERANGE;
	case LAB_KEY_ENUM:
		ok = v >= 0 && (size_t)v < count_names(k->names);
		break;
	case LAB_KEY_PERCENT:
		ok = v > 0 && v < LAB_PERCENT_MAX;
		break;
	default: /* not a number */
		snprintf(why, len, _("%lld is not a value of this key"),
		    (long long)v);
		return -EINVAL;
	}
	if (ok)
		return 0;
	snprintf(why, len, _("%lld is not a value of this key"), (long long)v);
	return -ERANGE;
}

int
lab_key_set(const struct lab_key *k, void *group, int64_t v)
{
	char why[ERR_MSG_MAX];
	int rc;

	if ((rc = lab_key_check(k, v, why, sizeof why)) < 0)
		return rc;
	put(k, group, v);
	return 0;
}

void
lab_key_reset(const struct lab_key *k, void *group)
{
	void *p = lab_key_ptr(k, group);

	switch (k->kind) {
	case LAB_KEY_STRING:
	case LAB_KEY_DEVICE:
	case LAB_KEY_NAME:
		free(*(char **)p);
		*(char **)p = NULL;
		break;
	case LAB_KEY_DEVICES:
	case LAB_KEY_NAMES:
		lab_strv_done(p);
		break;
	case LAB_KEY_SPECIAL:
		break;
	default:
		put(k, group, k->dflt);
		break;
	}
}

void
lab_key_copy(const struct lab_key *k, void *dst, const void *src)
{
	const void *s = lab_key_cptr(k, src);
	void *d = lab_key_ptr(k, dst);

	switch (k->kind) {
	case LAB_KEY_STRING:
	case LAB_KEY_DEVICE:
	case LAB_KEY_NAME:
		*(char **)d = xstrdup_null(*(char *const *)s);
		break;
	case LAB_KEY_DEVICES:
	case LAB_KEY_NAMES:
		lab_strv_copy(d, s);
		break;
	case LAB_KEY_SPECIAL:
		break;
	default:
		put(k, dst, lab_key_get(k, src));
		break;
	}
}

static bool
str_eq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

bool
lab_key_equal(const struct lab_key *k, const void *a, const void *b)
{
	const void *pa = lab_key_cptr(k, a), *pb = lab_key_cptr(k, b);
	const struct lab_strv *sa = pa, *sb = pb;

	switch (k->kind) {
	case LAB_KEY_STRING:
	case LAB_KEY_DEVICE:
	case LAB_KEY_NAME:
		return str_eq(*(char *const *)pa, *(char *const *)pb);
	case LAB_KEY_DEVICES:
	case LAB_KEY_NAMES:
		if (sa->n != sb->n)
			return false;
		for (size_t i = 0; i < sa->n; i++)
			if (!str_eq(sa->v[i], sb->v[i]))
				return false;
		return true;
	case LAB_KEY_SPECIAL:
		return true;
	default:
		return lab_key_get(k, a) == lab_key_get(k, b);
	}
}

const char *
lab_key_text(const struct lab_key *k, const void *group, char *buf, size_t len)
{
	int64_t v = lab_key_get(k, group);

	switch (k->kind) {
	case LAB_KEY_BOOL:
		return v ? "true" : "false";
	case LAB_KEY_INT:
		snprintf(buf, len, "%lld", (long long)v);
		return buf;
	case LAB_KEY_SIZE:
		return units_format_exact((uint64_t)v, buf, len);
	case LAB_KEY_ENUM:
		return k->names[v];
	case LAB_KEY_PERCENT:
		return lab_percent_format((int32_t)v, buf, len);
	case LAB_KEY_STRING:
	case LAB_KEY_DEVICE:
	case LAB_KEY_NAME:
		return *(char *const *)lab_key_cptr(k, group);
	default:
		return NULL;
	}
}

/* An integer, all of text. */
static bool
parse_int(const char *text, int64_t *out)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(text, &end, 10);
	if (*text == '\0' || *end != '\0' || errno != 0)
		return false;
	*out = n;
	return true;
}

/* The sentences are lab_load()'s for the same value (lab-load.c). */
static int
parse_number(const struct lab_key *k, const char *text, int64_t *v, char *why,
    size_t len)
{
	uint64_t bytes;
	char *choices;

	switch (k->kind) {
	case LAB_KEY_BOOL:
		if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0)
			break;
		*v = strcmp(text, "true") == 0;
		return 0;
	case LAB_KEY_INT:
		if (!parse_int(text, v)) {
			snprintf(why, len, "%s", _("expected an integer"));
			return -EINVAL;
		}
		return lab_key_check(k, *v, why, len);
	case LAB_KEY_SIZE:
		if (text[0] == '-' && parse_int(text, v)) {
			snprintf(why, len, "%s",
			    _("a size cannot be negative"));
			return -ERANGE;
		}
		if (units_parse_size(text, &bytes) < 0 || bytes > INT64_MAX) {
			snprintf(why, len,
			    _("'%s' is not a size (like 4K, 64M, 2G)"), text);
			return -EINVAL;
		}
		*v = (int64_t)bytes;
		return 0;
	case LAB_KEY_ENUM:
		for (int i = 0; k->names[i] != NULL; i++)
			if (strcmp(k->names[i], text) == 0) {
				*v = i;
				return 0;
			}
		choices = lab_choices(k->names);
		snprintf(why, len, _("'%s' is not one of: %s"), text, choices);
		free(choices);
		return -EINVAL;
	default:
		return -EINVAL;
	}
	snprintf(why, len, "%s", _("expected true or false"));
	return -EINVAL;
}

int
lab_key_parse(const struct lab_key *k, void *group, const char *text, char *why,
    size_t len)
{
	int64_t v;
	int rc;

	if (k->kind == LAB_KEY_STRING) {
		free(*(char **)lab_key_ptr(k, group));
		*(char **)lab_key_ptr(k, group) = xstrdup(text);
		return 0;
	}
	if ((rc = parse_number(k, text, &v, why, len)) < 0)
		return rc;
	return lab_key_set(k, group, v);
}

/* ---------------------------------------------------------------- load */

static bool
load_device(struct lab_ctx *c, const config_setting_t *s, const char *field,
    char **out)
{
	if (!lab_get_string(c, s, field, out))
		return false;
	if (lab_scratch_index(*out) < 0 && (*out)[0] != '/') {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("'%s' is neither a device path nor scratch:N"), *out);
		free(*out);
		*out = NULL;
		return false;
	}
	return true;
}

bool
lab_key_load(struct lab_ctx *c, const struct lab_key *k,
    const config_setting_t *s, const char *field, void *group)
{
	void *p = lab_key_ptr(k, group);
	int v;

	if (k->load != NULL)
		return k->load(c, s, field, group);
	switch (k->kind) {
	case LAB_KEY_BOOL:
		return lab_get_bool(c, s, field, p);
	case LAB_KEY_INT:
		return lab_get_int(c, s, field, k->min, k->max, p);
	case LAB_KEY_SIZE:
		return lab_get_size(c, s, field, p);
	case LAB_KEY_ENUM:
		if (!lab_get_enum(c, s, field, k->names, &v))
			return false;
		*(int *)p = v;
		return true;
	case LAB_KEY_STRING:
		return lab_get_string(c, s, field, p);
	case LAB_KEY_DEVICE:
		return load_device(c, s, field, p);
	case LAB_KEY_DEVICES:
		return lab_get_strv(c, s, field, true, p);
	case LAB_KEY_NAME:
		return lab_get_name(c, s, field, p);
	case LAB_KEY_NAMES:
		return lab_get_names(c, s, field, p);
	case LAB_KEY_PERCENT:
		return lab_get_percent(c, s, field, p);
	default:
		return false;
	}
}

size_t
lab_key_names(const struct lab_key *keys, unsigned skip, const char **out,
    size_t max)
{
	size_t n = 0;

	for (const struct lab_key *k = keys; k->name != NULL; k++)
		if (!lab_key_nested(k) && !(k->flags & skip) && n + 1 < max)
			out[n++] = k->name;
	out[n] = NULL;
	return n;
}
