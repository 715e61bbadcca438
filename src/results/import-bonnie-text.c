/*
 * bonnie++'s printed tables (import.h): the 1.0x layout ("Version
 * 1.01b", "Machine Size K/sec %CP ...", then "files /sec %CP ...") and
 * the 1.9x/2.0x one ("Name:Size etc /sec %CP ...", Latency rows, the
 * machine name above the file table's columns). Read as a stream of
 * words, so that a table whose blanks a mailer collapsed or whose lines
 * it wrapped reads the same; a row whose blank cells were collapsed away
 * cannot be placed and is refused. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "import-bonnie.h"
#include "import.h"

struct tok {
	const char *s;
	int line;
};

struct toks {
	struct tok *v;
	size_t n, cap;
	char **lines;
	size_t nlines;
};

static void
toks_init(struct toks *t, const char *text)
{
	memset(t, 0, sizeof *t);
	t->lines = import_lines(text, &t->nlines);
	for (size_t i = 0; i < t->nlines; i++) {
		char *save = NULL, *w;

		for (w = strtok_r(t->lines[i], " \t", &save); w != NULL;
		     w = strtok_r(NULL, " \t", &save)) {
			/* Doubling: a word at a time is quadratic. */
			if (t->n == t->cap) {
				t->cap = t->cap ? 2 * t->cap : 64;
				t->v =
				    xreallocarray(t->v, t->cap, sizeof *t->v);
			}
			t->v[t->n].s = w;
			t->v[t->n++].line = (int)i + 1;
		}
	}
}

static void
toks_done(struct toks *t)
{
	free(t->v);
	import_lines_free(t->lines, t->nlines);
}

static bool
is(const struct toks *t, size_t i, const char *s)
{
	return i < t->n && strcmp(t->v[i].s, s) == 0;
}

/* The twelve "/sec %CP" (or "K/sec %CP") column heads from i. */
static bool
heads(const struct toks *t, size_t i)
{
	for (size_t k = 0; k < 6; k++)
		if (!(is(t, i + 2 * k, "/sec") || is(t, i + 2 * k, "K/sec")) ||
		    !is(t, i + 2 * k + 1, "%CP"))
			return false;
	return true;
}

/* Where an I/O table's rows start, or 0. */
static size_t
io_header(const struct toks *t, size_t i)
{
	if ((is(t, i, "Machine") && is(t, i + 1, "Size")) ||
	    (is(t, i, "Name:Size") && is(t, i + 1, "etc")))
		return heads(t, i + 2) ? i + 14 : 0;
	return 0;
}

/* Where a file table's rows start, or 0. */
static size_t
file_header(const struct toks *t, size_t i)
{
	if (i < t->n && strncmp(t->v[i].s, "files", 5) == 0 &&
	    (t->v[i].s[5] == '\0' || t->v[i].s[5] == ':'))
		return heads(t, i + 1) ? i + 13 : 0;
	return 0;
}

static const char *const test_names[BT__COUNT] = {
	"Sequential Output Per Chr",
	"Sequential Output Block",
	"Sequential Output Rewrite",
	"Sequential Input Per Chr",
	"Sequential Input Block",
	"Random Seeks",
	"Sequential Create Create",
	"Sequential Create Read",
	"Sequential Create Delete",
	"Random Create Create",
	"Random Create Read",
	"Random Create Delete",
};

struct tparse {
	struct import_result *r;
	const struct toks *t;
	const char *file;
	struct err *e;
	const char *version;
	const char *file_name; /* 2.0x: the name above the file table */
	bool latency;
	bool v1; /* the table is 1.0x's (import_bspec.v1) */
};

/* Twelve cells of tests from..from+5 at i, then an optional Latency
   row; returns the index after them, or 0 with e set. */
static size_t
cells_at(struct tparse *p, size_t i, int from, struct import_bcell *c)
{
	const struct toks *t = p->t;
	int rc;

	if (i + 12 > t->n)
		goto short_row;
	for (int b = from; b < from + 6; b++, i += 2) {
		if (is(t, i, "Latency") || is(t, i + 1, "Latency"))
			goto short_row;
		if (import_bcell_parse(t->v[i].s, t->v[i + 1].s,
			b < BT_SEEKS ? 1 : 1000, &c[b]) < 0) {
			err_set(p->e, -EINVAL, p->file, t->v[i].line,
			    test_names[b],
			    _("not a bonnie++ figure and %%CP: '%s %s' (a row "
			      "with blank cells cannot be read once its "
			      "blanks are collapsed)"),
			    t->v[i].s, t->v[i + 1].s);
			return 0;
		}
	}
	if (!is(t, i, "Latency"))
		return i;
	p->latency = true;
	for (int b = from, k = 1; b < from + 6; b++, k++)
		if (i + (size_t)k >= t->n ||
		    (rc = import_blat_parse(t->v[i + k].s, &c[b].lat_ns)) < 0) {
			err_set(p->e, -EINVAL, p->file,
			    t->v[i + (size_t)k < t->n ? i + k : i].line,
			    test_names[b], "%s",
			    rc == -ERANGE
				? _("a bonnie++ latency out of range (2^64 ns "
				    "and over)")
				: _("a Latency row needs six latencies "
				    "(\"30519us\", \"12ms\")"));
			return 0;
		}
	return i + 7;
short_row:
	err_set(p->e, -EINVAL, p->file, t->v[i < t->n ? i : t->n - 1].line,
	    test_names[from], "%s",
	    _("fewer than twelve cells in the row: a row with blank cells "
	      "cannot be read once its blanks are collapsed"));
	return 0;
}

static void
from_once(struct tparse *p)
{
	if (p->r->from != NULL)
		return;
	p->r->tool = xstrdup("bonnie++");
	p->r->tool_version = p->version ? xstrdup(p->version) : NULL;
	p->r->from =
	    xasprintf("bonnie++ %s text", p->version ? p->version : "?");
}

static size_t
io_table(struct tparse *p, size_t i)
{
	const struct toks *t = p->t;
	struct import_bcell c[BT__COUNT];
	struct import_bspec sp;
	size_t start = i, next;
	int rc;

	while (i + 1 < t->n && !is(t, i, "Version") && t->v[i].s[0] != '-') {
		memset(&sp, 0, sizeof sp);
		sp.v1 = p->v1;
		if ((rc = import_bspec_s(t->v[i + 1].s, &sp)) == -ERANGE) {
			err_set(p->e, -EINVAL, p->file, t->v[i + 1].line,
			    "Size", _("a bonnie++ size out of range: '%s'"),
			    t->v[i + 1].s);
			return 0;
		}
		if (rc < 0)
			break;
		if ((next = cells_at(p, i + 2, BT_PUTC, c)) == 0)
			return 0;
		from_once(p);
		import_bonnie_store(p->r,
		    import_bonnie_run(p->r, t->v[i].s, BT_PUTC, t->v[i].line),
		    &sp, c, BT_PUTC, BT_SEQ_CREATE);
		i = next;
	}
	if (i == start) {
		err_set(p->e, -EINVAL, p->file, t->v[i < t->n ? i : i - 1].line,
		    "Machine", "%s",
		    _("no row after the table's heading: NAME SIZE and "
		      "twelve cells"));
		return 0;
	}
	return i;
}

/* The name a file row without one belongs to: the 2.0x name above the
   columns, else the last I/O row's. */
static const char *
file_owner(struct tparse *p)
{
	if (p->file_name != NULL)
		return p->file_name;
	return p->r->nruns > 0 ? p->r->runs[p->r->nruns - 1].variant : "bonnie";
}

static size_t
file_table(struct tparse *p, size_t i)
{
	const struct toks *t = p->t;
	struct import_bcell c[BT__COUNT];
	struct import_bspec sp;
	size_t start = i, next, at;
	const char *name;

	while (i < t->n && !is(t, i, "Version") && t->v[i].s[0] != '-') {
		memset(&sp, 0, sizeof sp);
		sp.v1 = p->v1;
		at = i;
		name = NULL;
		if (import_bspec_n(t->v[i].s, &sp) < 0) {
			/* bon_csv2txt: "NAME FILES cells" */
			memset(&sp, 0, sizeof sp);
			sp.v1 = p->v1;
			if (i + 1 >= t->n ||
			    import_bspec_n(t->v[i + 1].s, &sp) < 0)
				break;
			name = t->v[i].s;
			at = i + 1;
		}
		if ((next = cells_at(p, at + 1, BT_SEQ_CREATE, c)) == 0)
			return 0;
		from_once(p);
		import_bonnie_store(p->r,
		    import_bonnie_run(p->r, name ? name : file_owner(p),
			BT_SEQ_CREATE, t->v[i].line),
		    &sp, c, BT_SEQ_CREATE, BT__COUNT);
		i = next;
	}
	if (i == start) {
		err_set(p->e, -EINVAL, p->file, t->v[i < t->n ? i : i - 1].line,
		    "files", "%s",
		    _("no row after the file table's heading: FILES and "
		      "twelve cells"));
		return 0;
	}
	p->file_name = NULL;
	return i;
}

static int
text_parse(const char *text, const char *file, struct import_result *r,
    struct err *e)
{
	struct toks t;
	struct tparse p = { r, &t, file, e, NULL, NULL, false, false };
	size_t i = 0, at;
	bool failed = false;

	toks_init(&t, text);
	while (i < t.n) {
		if (is(&t, i, "Version") && i + 1 < t.n) {
			p.version = t.v[i + 1].s;
			/* 1.0x: "1.01b", "1.03e"; 1.9x and 2.0x are alike */
			p.v1 = strncmp(p.version, "1.0", 3) == 0;
			i += 2;
		} else if ((at = io_header(&t, i)) != 0) {
			if (p.version == NULL) /* its heading says */
				p.v1 = is(&t, i, "Machine");
			if ((i = io_table(&p, at)) == 0) {
				failed = true;
				break;
			}
		} else if ((at = file_header(&t, i)) != 0) {
			if ((i = file_table(&p, at)) == 0) {
				failed = true;
				break;
			}
		} else {
			/* 2.0x: "vm -Create-- --Read--- ..." names the table.
			 */
			if (is(&t, i + 1, "-Create--") && i + 1 < t.n &&
			    t.v[i].s[0] != '-' &&
			    t.v[i].line == t.v[i + 1].line)
				p.file_name = t.v[i].s;
			i++;
		}
	}
	if (failed) {
		toks_done(&t);
		return e->code;
	}
	if (r->nruns > 0)
		import_bonnie_finish(r, p.latency);
	toks_done(&t);
	return 0;
}

static bool
text_detect(const char *text)
{
	return strstr(text, "------Sequential Output------") != NULL ||
	    strstr(text, "------Sequential Create------") != NULL;
}

const struct import_format import_bonnie_text = {
	.name = "bonnie-text",
	.summary = N_("bonnie++'s printed tables (1.0x, 1.9x and 2.0x)"),
	.detect = text_detect,
	.parse = text_parse,
	.max_bytes = 4u << 20,
};
