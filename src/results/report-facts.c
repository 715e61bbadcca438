/*
 * What a report says besides the figures (report.h): the settings a
 * variant's build read back from the kernel and the tools (facts, in the
 * build object of provision.h), and the caveats a reader must weigh
 * before trusting a comparison. The thread that owns the records.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "record.h"
#include "report-int.h"
#include "report.h"

/* ------------------------------------------------------------ settings */

/* A fact's text: a string, or {error, output}'s output. */
static const char *
fact_text(const json_t *f)
{
	if (json_is_string(f))
		return json_string_value(f);
	return json_string_value(json_object_get(f, "output"));
}

/* "a   b  c" -> "a b c", trimmed; caller frees. */
static char *
squeeze(const char *s, size_t n)
{
	char *o = xmalloc(n + 1), *p = o;
	bool sp = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			sp = p > o;
			continue;
		}
		if (sp)
			*p++ = ' ';
		sp = false;
		*p++ = s[i];
	}
	*p = '\0';
	return o;
}

/* Every non-empty line of text, squeezed, after prefix; only lines
   starting with one of keep (NULL: all). */
static void
lines_of(struct report_variant *v, const char *prefix, const char *text,
    const char *const *keep)
{
	for (const char *p = text; p != NULL && *p != '\0';) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *l = squeeze(p, n);
		bool ok = keep == NULL;

		for (const char *const *k = keep; k != NULL && *k != NULL; k++)
			ok = ok || strncmp(l, *k, strlen(*k)) == 0;
		if (ok && l[0] != '\0')
			report_strv_push(&v->settings, &v->nsettings,
			    xasprintf("%s%s", prefix, l));
		free(l);
		p = e ? e + 1 : NULL;
	}
}

/* md DEV: the sysfs values (mdsys.h), then mdadm --detail's summary. */
static void
md_settings(struct report_variant *v, json_t *md)
{
	static const char *const detail[] = { "Raid Level", "Raid Devices",
		"Layout", "Chunk Size", "Intent Bitmap", "Consistency Policy",
		"Array Size", "Journal", NULL };
	const char *dev;
	json_t *o;

	json_object_foreach(md, dev, o)
	{
		struct strbuf b;
		const char *k;
		json_t *x;
		char *pre;

		strbuf_init(&b);
		strbuf_printf(&b, "%s:", dev);
		json_object_foreach(o, k, x) if (json_is_string(x) &&
		    json_string_value(x)[0] != '\0' &&
		    strcmp(k, "mdadm_detail") != 0)
		    strbuf_printf(&b, " %s=%s", k, json_string_value(x));
		json_object_foreach(json_object_get(o, "members"), k, x)
		    strbuf_printf(&b, " %s:%s", k, json_string_value(x));
		report_strv_push(&v->settings, &v->nsettings, strbuf_take(&b));
		pre = xasprintf("%s: ", dev);
		lines_of(v, pre, fact_text(json_object_get(o, "mdadm_detail")),
		    detail);
		free(pre);
	}
}

void
report_settings(struct report_variant *v, json_t *facts)
{
	static const char *const e2[] = { "Block size:", "RAID stride:",
		"RAID stripe width:", "Journal size:", "Journal backup:",
		"Filesystem features:", NULL };
	static const char *const xfs[] = { "meta-data=", "data", "log", "=",
		NULL };
	const char *key;
	json_t *f, *mount = json_object_get(facts, "mount");
	char *t0;

	md_settings(v, json_object_get(facts, "md"));
	if ((t0 = record_queues_text(facts)) != NULL)
		report_strv_push(&v->settings, &v->nsettings, t0);
	if ((f = json_object_get(facts, "md_tools")) != NULL)
		report_strv_push(&v->settings, &v->nsettings,
		    record_md_tools_text(f));
	json_object_foreach(facts, key, f)
	{
		const char *t = fact_text(f);
		unsigned long ra;

		if (strncmp(key, "readahead ", 10) == 0 && t != NULL &&
		    sscanf(t, "%lu", &ra) == 1)
			report_strv_push(&v->settings, &v->nsettings,
			    xasprintf(_("readahead %s: %lu sectors (%lu KiB)"),
				key + 10, ra, ra / 2));
		else if (strcmp(key, "dumpe2fs") == 0)
			lines_of(v, "dumpe2fs: ", t, e2);
		else if (strcmp(key, "xfs_info") == 0)
			lines_of(v, "xfs_info: ", t, xfs);
		else if (strcmp(key, "btrfs_df") == 0)
			lines_of(v, "btrfs df: ", t, NULL);
	}
	if (json_is_string(json_object_get(mount, "mount"))) {
		const char *sup =
		    json_string_value(json_object_get(mount, "super"));

		report_strv_push(&v->settings, &v->nsettings,
		    xasprintf(_("mounted: %s (superblock: %s)"),
			json_string_value(json_object_get(mount, "mount")),
			sup ? sup : "?"));
	}
}

/* ------------------------------------------------------------ caveats */

static void
caveat(struct report *s, char *text)
{
	report_strv_push(&s->caveats, &s->ncaveats, text);
}

static bool
run_has_note(const struct record_run *r, const char *note)
{
	for (size_t n = 0; r->res != NULL && n < r->res->nnotes; n++)
		if (strcmp(r->res->notes[n], note) == 0)
			return true;
	return false;
}

/* The most bytes a run of rec moved (read or written): its data set. */
static uint64_t
largest_run(const struct record *rec, bool *reads)
{
	uint64_t most = 0;

	for (size_t i = 0; i < rec->nruns; i++) {
		const struct wl_result *r = rec->runs[i].res;
		uint64_t w = 0;

		for (size_t t = 0; r != NULL && t < r->ntests; t++) {
			w += r->tests[t].bytes_written;
			*reads = *reads || r->tests[t].bytes_read > 0;
		}
		if (w > most)
			most = w;
	}
	return most;
}

/* Add name to the ", "-joined list *l unless it is there. */
static void
list_add(struct strbuf *l, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = l->s; p != NULL && *p != '\0';) {
		const char *e = strstr(p, ", ");
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return;
		p = e ? e + 2 : p + len;
	}
	strbuf_printf(l, "%s%s", l->len > 0 ? ", " : "", name);
}

/*
 * The workloads' notes, each once: the same note of several variants or
 * workloads ("the data set fits in RAM") is one caveat naming them all,
 * not one per run.
 */
static void
run_notes(struct report *s, const struct record *rec)
{
	for (size_t k = 0; k < rec->nruns; k++) {
		const struct record_run *run = &rec->runs[k];

		for (size_t n = 0; run->res != NULL && n < run->res->nnotes;
		     n++) {
			const char *note = run->res->notes[n];
			struct strbuf v, w;
			bool earlier = false;

			/* said with the first run that has it */
			for (size_t j = 0; j < k && !earlier; j++)
				earlier = run_has_note(&rec->runs[j], note);
			if (earlier)
				continue;
			strbuf_init(&v);
			strbuf_init(&w);
			for (size_t j = k; j < rec->nruns; j++)
				if (run_has_note(&rec->runs[j], note)) {
					list_add(&v, rec->runs[j].variant);
					list_add(&w, rec->runs[j].workload);
				}
			caveat(s, xasprintf(_("%s on %s: %s"), w.s, v.s, note));
			strbuf_done(&v);
			strbuf_done(&w);
		}
	}
}

static void
record_caveats(struct report *s, size_t i)
{
	const struct report_record *r = &s->r[i];
	bool reads = false;
	uint64_t data = largest_run(s->recs[i], &reads);
	char a[32], b[32];

	if (r->status != NULL && strcmp(r->status, "ok") != 0)
		caveat(s,
		    xasprintf(_("%s: the run ended %s: some variants "
				"or repeats are missing."),
			r->label, r->status));
	if (r->imported != NULL)
		caveat(s,
		    xasprintf(_("%s was imported (%s); it lacks: %s."),
			r->label, r->imported,
			r->missing ? r->missing : _("nothing said")));
	if (r->scaled != NULL)
		caveat(s,
		    xasprintf(_("%s ran scaled down (%s): not a full "
				"result."),
			r->label, r->scaled));
	if (reads && r->ram > 0 && data > 0 && data < r->ram)
		caveat(s,
		    xasprintf(_("%s: the largest data set a run wrote "
				"(%s) fits in the RAM (%s): reads may "
				"have come from the page cache."),
			r->label, units_format_size(data, a, sizeof a),
			units_format_size(r->ram, b, sizeof b)));
	run_notes(s, s->recs[i]);
}

/* Cells whose figures are not plain results: unstable, stopped, few. */
static void
cell_caveats(struct report *s)
{
	const struct compare *c = &s->cmp;
	size_t unstable = 0, stopped = 0, few = 0;

	for (size_t k = 0; k < c->ncols; k++)
		for (size_t i = 0; i < c->nrows; i++) {
			const struct compare_cell *x = compare_cell(c, i, k);

			unstable += (x->marks & COMPARE_UNSTABLE) != 0;
			stopped += x->interrupted || x->stopped > 0;
			few += x->verdict == COMPARE_V_FEW;
		}
	if (unstable > 0)
		caveat(s,
		    xasprintf(ngettext("%zu figure rests on an unstable "
				       "sample (marked !): see its "
				       "reasons under its test.",
				  "%zu figures rest on unstable samples "
				  "(marked !): see their reasons under "
				  "their tests.",
				  unstable),
			unstable));
	if (stopped > 0)
		caveat(s,
		    xasprintf(ngettext("%zu figure comes from "
				       "interrupted runs: shown, never "
				       "judged.",
				  "%zu figures come from interrupted "
				  "runs: shown, never judged.",
				  stopped),
			stopped));
	if (few > 0)
		caveat(s,
		    xasprintf(ngettext("%zu figure has under 3 repeats: "
				       "noise cannot be told from a "
				       "difference.",
				  "%zu figures have under 3 repeats: "
				  "noise cannot be told from a "
				  "difference.",
				  few),
			few));
}

void
report_caveats(struct report *s)
{
	bool scratch = false, apart = false;

	for (size_t i = 0; i < s->cmp.nrows; i++)
		scratch = scratch || s->cmp.rows[i].scratch;
	for (size_t k = 0; k < s->cmp.ncols; k++)
		apart = apart || s->cmp.cols[k].apart != NULL;
	if (scratch)
		caveat(s,
		    xstrdup(_("Variants on scratch disks (sparse files "
			      "on loop devices, all on one disk) are "
			      "functional, not representative.")));
	if (compare_scaled_differ(&s->cmp))
		caveat(s,
		    xstrdup(_("The records were not scaled alike "
			      "(--scale, --set, --disk): their figures "
			      "do not compare.")));
	if (apart)
		caveat(s,
		    xstrdup(_("A workload ran with other parameters in "
			      "some records: those are separate tests, "
			      "never compared.")));
	for (size_t i = 0; i < s->nrecs; i++)
		record_caveats(s, i);
	cell_caveats(s);
}

void
report_phase(struct report_variant *v, const json_t *build)
{
	char *t = record_build_phase_text(build);

	if (t != NULL)
		report_strv_push(&v->settings, &v->nsettings, t);
}
