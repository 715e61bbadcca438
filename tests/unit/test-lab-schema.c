/*
 * The lab schema (lab-schema.h): the array table lines up with enum
 * lab_a_field; every plain key loads, saves and loads again to the same
 * value, is taken from defaults, and refuses a value of the wrong kind
 * with the exact message lab_load() always gave; the generic setter
 * keeps a key's range.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "errtext.h"
#include "lab/lab-edit.h"
#include "lab/lab-schema.h"
#include "lab/lab.h"

/* The lab's messages, or "" when it loads. */
static char *
load(const char *text, struct lab **out)
{
	struct errlist errs;
	char *msgs;

	errlist_init(&errs);
	*out = NULL;
	(void)lab_load_string(text, "t.cfg", out, &errs);
	msgs = errs_text(&errs);
	errlist_done(&errs);
	return msgs;
}

/* A value of the key's kind, as a lab file writes it. */
static char *
sample(const struct lab_key *k)
{
	size_t n = 0;

	switch (k->kind) {
	case LAB_KEY_BOOL:
		return xstrdup("true");
	case LAB_KEY_INT:
		return xasprintf("%lld", (long long)k->max);
	case LAB_KEY_SIZE:
		return xstrdup("\"64K\"");
	case LAB_KEY_ENUM:
		while (k->names[n + 1] != NULL)
			n++;
		return xasprintf("\"%s\"", k->names[n]);
	case LAB_KEY_STRING:
		return xstrdup("\"1\"");
	case LAB_KEY_DEVICE:
		return xstrdup("\"scratch:1\"");
	case LAB_KEY_DEVICES:
		return xstrdup("[ \"scratch:0\", \"/dev/sdz\" ]");
	case LAB_KEY_NAME:
		return xstrdup("\"n-1\"");
	case LAB_KEY_NAMES:
		return xstrdup("[ \"n-1\", \"n-2\" ]");
	case LAB_KEY_PERCENT:
		return xstrdup("\"2.5%\"");
	default:
		return NULL;
	}
}

static bool
plain(const struct lab_key *k)
{
	return k->kind != LAB_KEY_SPECIAL && k->merge == LAB_MERGE_KEY;
}

/* A schema table and its group in a variant. */
struct group {
	const char *name; /* "array" */
	const struct lab_key *keys;
	int count;
	const char *(*key)(int f);
	bool (*isset)(const struct lab_variant *v, int f);
	bool (*inherited)(const struct lab_variant *v, int f);
	int (*line)(const struct lab_variant *v, int f);
	const void *(*of)(const struct lab_variant *v);
};

static const char *
a_key(int f)
{
	return lab_array_key((enum lab_a_field)f);
}

static bool
a_isset(const struct lab_variant *v, int f)
{
	return lab_array_isset(&v->array, (enum lab_a_field)f);
}

static bool
a_inherited(const struct lab_variant *v, int f)
{
	return lab_array_inherited(&v->array, (enum lab_a_field)f);
}

static int
a_line(const struct lab_variant *v, int f)
{
	return lab_array_line(&v->array, (enum lab_a_field)f);
}

static const void *
a_of(const struct lab_variant *v)
{
	return &v->array;
}

static const char *
f_key(int f)
{
	return lab_fs_key((enum lab_f_field)f);
}

static bool
f_isset(const struct lab_variant *v, int f)
{
	return lab_fs_isset(&v->fs, (enum lab_f_field)f);
}

static bool
f_inherited(const struct lab_variant *v, int f)
{
	return lab_fs_inherited(&v->fs, (enum lab_f_field)f);
}

static int
f_line(const struct lab_variant *v, int f)
{
	return lab_fs_line(&v->fs, (enum lab_f_field)f);
}

static const void *
f_of(const struct lab_variant *v)
{
	return &v->fs;
}

static const struct group groups[] = {
	{ "array", lab_array_keys, LAB_A__COUNT, a_key, a_isset, a_inherited,
	    a_line, a_of },
	{ "fs", lab_fs_keys, LAB_F__COUNT, f_key, f_isset, f_inherited, f_line,
	    f_of },
};
#define NGROUPS (sizeof groups / sizeof groups[0])

Test(lab_schema, each_table_follows_its_field_enum)
{
	for (size_t g = 0; g < NGROUPS; g++) {
		const struct lab_key *keys = groups[g].keys;

		for (int f = 0; f < groups[g].count; f++) {
			cr_assert_eq(keys[f].field, f, "%s %d", groups[g].name,
			    f);
			cr_assert_str_eq(groups[g].key(f), keys[f].name);
			cr_assert_not_null(keys[f].label);
			cr_assert(keys[f].where != 0);
			if (keys[f].kind == LAB_KEY_ENUM)
				cr_assert_not_null(keys[f].names);
			/* The form offers bools and enums as choices and
			   takes ints, sizes and strings typed, each set by
			   lab_edit_key_value() or lab_edit_key_text(),
			   which leave a group's keys to its own setter. */
			if (keys[f].flags & LAB_KEY_FORM)
				cr_assert(keys[f].kind == LAB_KEY_BOOL ||
				    keys[f].kind == LAB_KEY_ENUM ||
				    keys[f].kind == LAB_KEY_INT ||
				    keys[f].kind == LAB_KEY_SIZE ||
				    keys[f].kind == LAB_KEY_STRING);
			if (keys[f].flags & LAB_KEY_FORM)
				cr_assert(keys[f].merge != LAB_MERGE_SUB);
			if (keys[f].flags & LAB_KEY_FORM_LAST)
				cr_assert(keys[f].flags & LAB_KEY_FORM);
		}
		cr_assert_null(keys[groups[g].count].name);
	}
	for (int f = 0; f < LAB_V__COUNT; f++) {
		cr_assert_eq(lab_variant_keys[f].field, f);
		cr_assert_str_eq(lab_variant_key((enum lab_v_field)f),
		    lab_variant_keys[f].name);
	}
	cr_assert_null(lab_variant_keys[LAB_V__COUNT].name);
	for (int f = 0; f < LAB_L__COUNT; f++) {
		cr_assert_eq(lab_keys[f].field, f);
		cr_assert_str_eq(lab_key((enum lab_l_field)f),
		    lab_keys[f].name);
	}
	cr_assert_null(lab_keys[LAB_L__COUNT].name);
	cr_assert_eq(lab_variant_schema(LAB_V__COUNT), NULL);
	cr_assert_eq(lab_schema(LAB_L__COUNT), NULL);
	cr_assert_eq(lab_array_schema(LAB_A__COUNT), NULL);
	cr_assert_eq(lab_fs_schema(LAB_F__COUNT), NULL);
}

static void
round_trip(const struct group *g, const struct lab_key *k)
{
	char *val = sample(k), *text, *msgs, *fmt, *fmt2;
	struct lab *lab, *back;
	const struct lab_variant *v;

	text = xasprintf("name = \"s\";\nvariants = ( { name = \"a\";\n"
			 "  %s = { %s = %s; }; } );\n",
	    g->name, k->name, val);
	msgs = load(text, &lab);
	cr_assert_str_eq(msgs, "", "%s: %s", k->name, msgs);
	v = &lab->variants[0];
	cr_assert(g->isset(v, k->field), "%s", k->name);
	cr_assert_eq(g->line(v, k->field), 3, "%s", k->name);
	fmt = lab_format(lab);
	cr_assert_not_null(strstr(fmt, k->name), "%s", k->name);
	free(msgs);
	msgs = load(fmt, &back);
	cr_assert_str_eq(msgs, "", "%s: %s", k->name, msgs);
	cr_assert(lab_key_equal(k, g->of(v), g->of(&back->variants[0])), "%s",
	    k->name);
	cr_assert(lab_equal(lab, back), "%s", k->name);
	fmt2 = lab_format(back);
	cr_assert_str_eq(fmt, fmt2, "%s", k->name);
	lab_free(back);
	lab_free(lab);
	free(fmt2);
	free(fmt);
	free(msgs);
	free(text);
	free(val);
}

Test(lab_schema, every_plain_key_loads_saves_and_loads_again)
{
	for (size_t g = 0; g < NGROUPS; g++)
		for (const struct lab_key *k = groups[g].keys; k->name; k++)
			if (plain(k))
				round_trip(&groups[g], k);
}

static void
from_defaults(const struct group *g, const struct lab_key *k)
{
	char *val = sample(k), *text, *msgs;
	const struct lab_variant *v;
	struct lab *lab;

	text = xasprintf("name = \"s\";\ndefaults = { %s = {\n"
			 "  %s = %s; }; };\nvariants = ( { name = \"a\"; "
			 "%s = { }; } );\n",
	    g->name, k->name, val, g->name);
	msgs = load(text, &lab);
	cr_assert_str_eq(msgs, "", "%s: %s", k->name, msgs);
	v = &lab->variants[0];
	cr_assert(g->inherited(v, k->field), "%s", k->name);
	cr_assert_eq(g->line(v, k->field), 3, "%s", k->name);
	cr_assert(lab_key_equal(k, g->of(v), g->of(lab->defaults)), "%s",
	    k->name);
	lab_free(lab);
	free(msgs);
	free(text);
	free(val);
}

Test(lab_schema, every_plain_key_is_taken_from_defaults)
{
	for (size_t g = 0; g < NGROUPS; g++)
		for (const struct lab_key *k = groups[g].keys; k->name; k++)
			if (plain(k))
				from_defaults(&groups[g], k);
}

/* text loads, saves, and loads again to the same lab and text. */
static void
fixed_point(const char *text, const char *what)
{
	char *msgs, *fmt, *fmt2;
	struct lab *lab, *back;

	msgs = load(text, &lab);
	cr_assert_str_eq(msgs, "", "%s: %s", what, msgs);
	free(msgs);
	fmt = lab_format(lab);
	cr_assert_not_null(strstr(fmt, what), "%s", what);
	msgs = load(fmt, &back);
	cr_assert_str_eq(msgs, "", "%s: %s", what, msgs);
	cr_assert(lab_equal(lab, back), "%s", what);
	fmt2 = lab_format(back);
	cr_assert_str_eq(fmt, fmt2, "%s", what);
	lab_free(back);
	lab_free(lab);
	free(fmt2);
	free(fmt);
	free(msgs);
}

Test(lab_schema, every_plain_variant_and_lab_key_is_a_fixed_point)
{
	const struct lab_key *k;
	char *val, *text;

	for (k = lab_variant_keys; k->name != NULL; k++) {
		/* scratch.count is count in the scratch group. */
		const char *dot = strchr(k->name, '.');

		if (k->kind == LAB_KEY_SPECIAL || k->field == LAB_V_NAME)
			continue;
		val = sample(k);
		if (dot != NULL)
			text =
			    xasprintf("name = \"s\";\nvariants = ( { name = "
				      "\"a\"; scratch = { %s = %s; }; } );\n",
				dot + 1, val);
		else
			text = xasprintf("name = \"s\";\nvariants = ( { name = "
					 "\"a\"; %s = %s; } );\n",
			    k->name, val);
		fixed_point(text, dot != NULL ? dot + 1 : k->name);
		free(text);
		free(val);
	}
	for (k = lab_keys; k->name != NULL; k++) {
		if (k->kind == LAB_KEY_SPECIAL)
			continue;
		val = sample(k);
		text =
		    xasprintf("%s = %s;\nvariants = ( { name = \"a\"; } );\n",
			k->name, val);
		fixed_point(text, k->name);
		free(text);
		free(val);
	}
}

Test(lab_schema, a_percent_out_of_range_gives_the_message_of_old)
{
	struct lab *lab;
	char *msgs = load("cv_limit = \"100%\";\n", &lab);

	cr_assert_null(lab);
	cr_assert_str_eq(msgs,
	    "t.cfg:1: cv_limit: 100%: must be more than 0% "
	    "and less than 100%\n");
	free(msgs);
}

Test(lab_schema, a_value_of_the_wrong_kind_gives_the_messages_of_old)
{
	static const struct {
		const char *group, *msg;
	} cases[] = {
		{ "array = { assume_clean = 1; };",
		    "t.cfg:2: variants.a.array.assume_clean: expected true or "
		    "false\n" },
		{ "array = { engine = \"zfs\"; };",
		    "t.cfg:2: variants.a.array.engine: 'zfs' is not one of: "
		    "md, btrfs, single\n" },
		{ "array = { chunk = -1; };",
		    "t.cfg:2: variants.a.array.chunk: a size cannot be "
		    "negative\n" },
		{ "array = { journal = \"x\"; };",
		    "t.cfg:2: variants.a.array.journal: 'x' is neither a "
		    "device path nor scratch:N\n" },
		{ "array = { layout = 3; };",
		    "t.cfg:2: variants.a.array.layout: expected a string\n" },
		{ "fs = { data = 1; };",
		    "t.cfg:2: variants.a.fs.data: expected a string\n" },
		{ "fs = { mount_options = [ \"a\" ]; };",
		    "t.cfg:2: variants.a.fs.mount_options: expected a "
		    "string\n" },
		{ "fs = { type = \"zfs\"; };",
		    "t.cfg:2: variants.a.fs.type: 'zfs' is not one of: ext2, "
		    "ext3, ext4, xfs, btrfs\n" },
		{ "array = { assume_clen = true; };",
		    "t.cfg:2: variants.a.array.assume_clen: unknown key; did "
		    "you mean 'assume_clean'?\n" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = xasprintf("name = \"s\";\nvariants = ( { name = "
				       "\"a\"; %s } );\n",
		    cases[i].group);
		struct lab *lab;
		char *msgs = load(text, &lab);

		cr_assert_null(lab);
		cr_assert_str_eq(msgs, cases[i].msg);
		free(msgs);
		free(text);
	}
}

Test(lab_schema, a_leg_takes_no_engine_and_no_legs)
{
	struct lab *lab;
	char *msgs = load("name = \"s\";\nvariants = ( { name = \"a\";\n"
			  "  array = { level = 1; legs = ( { engine = \"md\"; "
			  "} ); }; } );\n",
	    &lab);

	cr_assert_null(lab);
	cr_assert_str_eq(msgs,
	    "t.cfg:3: variants.a.array.legs[0].engine: unknown key\n");
	free(msgs);
}

Test(lab_schema, the_setter_keeps_the_range)
{
	const struct lab_key *k = lab_array_schema(LAB_A_ASSUME_CLEAN);
	struct lab_array a;
	struct lab *lab;
	struct err e;
	char *msgs = load("name = \"s\";\nvariants = ( { name = \"a\"; "
			  "array = { level = 5; }; } );\n",
	    &lab);

	cr_assert_str_eq(msgs, "");
	cr_assert_eq(lab_key_set(k, &a, 2), -ERANGE);
	cr_assert_eq(lab_key_set(lab_array_schema(LAB_A_METADATA), &a, 4),
	    -ERANGE);
	cr_assert_eq(lab_key_set(lab_array_schema(LAB_A_LEGS), &a, 1), -EINVAL);
	err_clear(&e);
	cr_assert_eq(lab_edit_array_value(lab, 0, LAB_A_ASSUME_CLEAN, 2, &e),
	    -ERANGE);
	cr_assert_str_eq(e.field, "variants.a.array.assume_clean");
	cr_assert_not(
	    lab_array_isset(&lab->variants[0].array, LAB_A_ASSUME_CLEAN));
	cr_assert_eq(lab_edit_array_value(lab, 0, LAB_A_ASSUME_CLEAN, 1, &e),
	    0);
	cr_assert(lab->variants[0].array.assume_clean);
	cr_assert(lab_array_isset(&lab->variants[0].array, LAB_A_ASSUME_CLEAN));
	cr_assert_eq(lab_edit_array_value(lab, 0, LAB_A_LEGS, 1, &e), -EINVAL);
	lab_free(lab);
	free(msgs);
}

Test(lab_schema, where_a_key_applies)
{
	struct lab_array a;

	memset(&a, 0, sizeof a);
	a.engine = LAB_ENGINE_MD;
	a.md_level = LAB_MD_LEVEL_5;
	cr_assert(lab_array_key_applies(&a, LAB_A_ASSUME_CLEAN));
	cr_assert(lab_array_key_applies(&a, LAB_A_JOURNAL));
	cr_assert_not(lab_array_key_applies(&a, LAB_A_LEGS));
	a.engine = LAB_ENGINE_BTRFS;
	cr_assert_not(lab_array_key_applies(&a, LAB_A_ASSUME_CLEAN));
	cr_assert(lab_array_key_applies(&a, LAB_A_METADATA_PROFILE));
	a.engine = LAB_ENGINE_SINGLE;
	cr_assert_not(lab_array_key_applies(&a, LAB_A_LEVEL));
	cr_assert(lab_array_key_applies(&a, LAB_A_DEVICES));
}
