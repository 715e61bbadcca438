/*
 * Names in a lab (lab-name): longer than 64 bytes refused at load, names
 * that would misbehave as file names refused, duplicates in a big lab
 * found with their lines. Part of the test-lab program (unit-lab.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "unit-lab.h"

/* text with every "@" replaced by n bytes of c; caller frees. */
static char *
with_run(const char *text, size_t n, char c)
{
	char *run = xmalloc(n + 1), *out = xstrdup(""), *t;
	const char *p;

	memset(run, c, n);
	run[n] = '\0';
	for (p = text; *p != '\0'; p++) {
		t = *p == '@' ? xasprintf("%s%s", out, run)
			      : xasprintf("%s%c", out, *p);
		free(out);
		out = t;
	}
	free(run);
	return out;
}

/* What the loader says about text: every message, one a line. */
static char *
load_msgs(const char *text)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char *got;

	errlist_init(&errs);
	lab_load_string(text, "t.cfg", &lab, &errs);
	got = errs_text(&errs);
	lab_free(lab);
	errlist_done(&errs);
	return got;
}

/* A name becomes a file or directory name (a mount point, the results
   file, a scratch file): 64 bytes load, 65 do not, for the lab, a
   variant and a workload, each with its line and field. The issue's
   300-character variant name is refused at load, before any run. */
Test(lab, names_longer_than_64_bytes_are_refused_at_load)
{
	static const char text[] = "name = \"@\";\n"
				   "variants = ( { name = \"@\";\n"
				   "  directory = \"/tmp\"; } );\n"
				   "workloads = (\n"
				   "  { name = \"@\"; type = \"fio\"; } );\n";
	char *ok = with_run(text, 64, 'n'), *bad = with_run(text, 65, 'n');
	char *got;
	struct lab *lab = must_load_string(ok, "t.cfg");

	cr_assert_eq(strlen(lab->name), 64);
	cr_assert_eq(strlen(lab->variants[0].name), 64);
	cr_assert_eq(strlen(lab->workloads[0].name), 64);
	lab_free(lab);
	got = load_msgs(bad);
	cr_assert_str_eq(got,
	    "t.cfg:1: name: 'nnnnnnnnnnnnnnnnnnnnnnnn...' is 65 bytes long: a "
	    "name has at most 64 (it becomes part of file and directory "
	    "names)\n"
	    "t.cfg:2: variants[0].name: 'nnnnnnnnnnnnnnnnnnnnnnnn...' is 65 "
	    "bytes long: a name has at most 64 (it becomes part of file and "
	    "directory names)\n"
	    "t.cfg:5: workloads[0].name: 'nnnnnnnnnnnnnnnnnnnnnnnn...' is 65 "
	    "bytes long: a name has at most 64 (it becomes part of file and "
	    "directory names)\n");
	free(got);
	free(ok);
	free(bad);
	ok = with_run("name = \"x\";\nvariants = ( { name = \"@\"; directory "
		      "= \"/tmp\"; } );\n",
	    300, 'v');
	got = load_msgs(ok);
	cr_assert_str_eq(got,
	    "t.cfg:2: variants[0].name: 'vvvvvvvvvvvvvvvvvvvvvvvv...' is 300 "
	    "bytes long: a name has at most 64 (it becomes part of file and "
	    "directory names)\n");
	free(got);
	free(ok);
}

/* "." and ".." would be the directory itself or its parent as a mount
   point, a leading '-' reads as an option, a leading '.' hides the
   results file; a letter not in ASCII means other bytes in another
   locale. A '_' may lead, and what every shipped lab uses still loads. */
Test(lab, names_that_misbehave_as_file_names_are_refused)
{
	static const struct {
		const char *name, *want;
	} cases[] = {
		{ "..",
		    "'..' is not a valid name: it must start with a "
		    "letter, a digit or '_'" },
		{ ".",
		    "'.' is not a valid name: it must start with a letter, "
		    "a digit or '_'" },
		{ ".hidden",
		    "'.hidden' is not a valid name: it must start "
		    "with a letter, a digit or '_'" },
		{ "-v",
		    "'-v' is not a valid name: it must start with a "
		    "letter, a digit or '_'" },
		{ "caf\xc3\xa9",
		    "'caf\xc3\xa9' is not a valid name: use "
		    "letters, digits, '.', '_' and '-'" },
		{ "a/b",
		    "'a/b' is not a valid name: use letters, digits, '.', "
		    "'_' and '-'" },
		{ "",
		    "'' is not a valid name: use letters, digits, '.', '_' "
		    "and '-'" },
	};
	char *text, *got, *want;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		text = xasprintf("name = \"%s\";\n", cases[i].name);
		want = xasprintf("t.cfg:1: name: %s\n", cases[i].want);
		got = load_msgs(text);
		cr_expect_str_eq(got, want, "name %s", cases[i].name);
		free(got);
		free(want);
		free(text);
	}
	got = load_msgs("name = \"_a-1.b_\";\n");
	cr_expect_str_eq(got, "");
	free(got);
}

/* Duplicates among 20000 workloads and 20000 variants are still found,
   each with its own line and the line of the first use. (How long it
   takes is bench/lab-check.sh's business, not a unit test's.) */
Test(lab, duplicates_in_a_big_lab_are_found_with_their_lines)
{
	enum { N = 20000 };
	struct strbuf b;
	char *got;

	/* Variant i on line 3 + i, workload i on line N + 5 + i. */
	strbuf_init(&b);
	strbuf_add(&b, "name = \"big\";\nvariants = (\n");
	for (int i = 0; i < N; i++)
		strbuf_printf(&b, "{ name = \"v%d\"; directory = \"/d\"; }%s\n",
		    i == 12345       ? 7
			: i == N - 1 ? 0
				     : i,
		    i + 1 < N ? "," : "");
	strbuf_add(&b, ");\nworkloads = (\n");
	for (int i = 0; i < N; i++)
		strbuf_printf(&b, "{ name = \"w%d\"; type = \"fio\"; }%s\n",
		    i == 12345       ? 7
			: i == N - 1 ? 0
				     : i,
		    i + 1 < N ? "," : "");
	strbuf_add(&b, ");\n");
	got = load_msgs(b.s);
	cr_assert_str_eq(got,
	    "t.cfg:12348: variants[12345].name: duplicate variant name 'v7' "
	    "(first at line 10)\n"
	    "t.cfg:20002: variants[19999].name: duplicate variant name 'v0' "
	    "(first at line 3)\n"
	    "t.cfg:32350: workloads[12345].name: duplicate workload name "
	    "'w7' (first at line 20012)\n"
	    "t.cfg:40004: workloads[19999].name: duplicate workload name "
	    "'w0' (first at line 20005)\n");
	free(got);
	strbuf_done(&b);
}
