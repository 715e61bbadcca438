/*
 * What a record's build says beyond its steps, as one line of text each
 * (record.h), for `raidlab show` and the reports alike: the md that built
 * it with the knobs md showed, the member disks' queues, and the phase
 * its workloads met. The record's thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "record.h"

/* md's knobs worth a line: what a lab may set, found or set. */
static const char *const knobs[] = { "consistency_policy", "journal_mode",
	"stripe_cache_size", "group_thread_cnt", "skip_copy",
	"preread_bypass_threshold", "bitmap_location", "bitmap_backlog",
	"sync_speed_min", "sync_speed_max", NULL };

char *
record_md_tools_text(const json_t *tools)
{
	const char *m = record_get_str(tools, "mdadm");
	const char *k = record_get_str(tools, "kernel");
	struct strbuf b;

	strbuf_init(&b);
	strbuf_printf(&b, _("md: mdadm %s, kernel %s"),
	    m != NULL ? m : _("(not found)"), k != NULL ? k : "?");
	return strbuf_take(&b);
}

char *
record_build_md_text(const json_t *build)
{
	const json_t *facts = json_object_get(build, "facts");
	const json_t *tools = json_object_get(facts, "md_tools"), *a;
	const char *dev;
	struct strbuf b;
	char *t;

	if (tools == NULL)
		return NULL;
	strbuf_init(&b);
	t = record_md_tools_text(tools);
	strbuf_add(&b, t);
	free(t);
	json_object_foreach((json_t *)json_object_get(facts, "md"), dev, a)
	{
		strbuf_printf(&b, "; %s", dev);
		for (const char *const *n = knobs; *n != NULL; n++) {
			const char *v = record_get_str(a, *n);

			if (v != NULL && v[0] != '\0')
				strbuf_printf(&b, " %s=%s", *n, v);
		}
	}
	return strbuf_take(&b);
}

/* btrfs's error counters that are not 0, by btrfs's names; or that
   there were none. */
static void
scrub_errors(struct strbuf *b, json_t *errors)
{
	const char *k;
	json_t *v;
	size_t n = 0;

	if (errors == NULL)
		return;
	json_object_foreach(errors, k, v)
	{
		if (json_integer_value(v) == 0)
			continue;
		strbuf_printf(b, "%s%s %lld", n++ == 0 ? "; " : ", ", k,
		    (long long)json_integer_value(v));
	}
	if (n == 0)
		strbuf_add(b, _("; no error"));
}

char *
record_build_phase_text(const json_t *build)
{
	const json_t *phase = json_object_get(build, "phase"), *f, *sync;
	const char *name = record_get_str(phase, "name"), *mm;
	struct strbuf b;
	size_t i;

	if (name == NULL)
		return NULL;
	strbuf_init(&b);
	strbuf_printf(&b, _("phase %s"), name);
	json_array_foreach(json_object_get(phase, "failed"), i, f)
	    strbuf_printf(&b, "%s%s", i == 0 ? _("; failed: ") : ", ",
		json_string_value(f));
	sync = json_object_get(phase, "sync");
	if (json_is_false(json_object_get(sync, "seen")))
		strbuf_add(&b, _("; it had ended before it could be watched"));
	else if (sync != NULL) {
		const char *act = record_get_str(sync, "action");

		/* btrfs's watch counts errors; md's has mismatch_cnt */
		strbuf_printf(&b,
		    json_object_get(sync, "errors") != NULL
			? _("; btrfs %s %.1f s%s")
			: _("; md %s %.1f s%s"),
		    act != NULL ? act : "?",
		    json_number_value(json_object_get(sync, "seconds")),
		    json_is_true(json_object_get(sync, "complete"))
			? ""
			: _(" (not finished)"));
	}
	scrub_errors(&b, json_object_get(sync, "errors"));
	if (json_is_false(json_object_get(phase, "covered")))
		strbuf_add(&b, _("; it ended before the workloads did"));
	mm = record_get_str(json_object_get(phase, "after"), "mismatch_cnt");
	if (mm != NULL)
		strbuf_printf(&b, _("; mismatch_cnt %s after"), mm);
	return strbuf_take(&b);
}

/* One member's queue in words; "" when the record has none of it. */
static char *
queue_words(const json_t *q)
{
	static const struct {
		const char *key, *word;
	} attrs[] = {
		{ "scheduler", N_("scheduler") },
		{ "nr_requests", N_("nr_requests") },
		{ "rotational", N_("rotational") },
		{ "write_cache", N_("write cache") },
		{ "read_ahead_kb", N_("read_ahead_kb") },
	};
	struct strbuf b;

	strbuf_init(&b);
	for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++) {
		const json_t *x = json_object_get(q, attrs[i].key);
		const char *sep = b.len > 0 ? ", " : "";

		if (json_is_integer(x))
			strbuf_printf(&b, "%s%s %" JSON_INTEGER_FORMAT, sep,
			    _(attrs[i].word), json_integer_value(x));
		else if (json_is_string(x))
			strbuf_printf(&b, "%s%s %s", sep, _(attrs[i].word),
			    json_string_value(x));
	}
	return strbuf_take(&b);
}

char *
record_queues_text(const json_t *facts)
{
	json_t *queues = json_object_get(facts, "queues"), *q;
	size_t n = json_object_size(queues), ng = 0, k;
	char **words, **devs;
	const char *dev;
	struct strbuf b;

	if (n == 0)
		return NULL;
	/* members that read alike share one group, in the record's order */
	words = xcalloc(n, sizeof *words);
	devs = xcalloc(n, sizeof *devs);
	json_object_foreach(queues, dev, q)
	{
		char *w = queue_words(q);

		for (k = 0; k < ng && strcmp(words[k], w) != 0; k++)
			;
		if (k == ng) {
			words[ng] = w;
			devs[ng++] = xstrdup(dev);
		} else {
			char *d = xasprintf("%s, %s", devs[k], dev);

			free(devs[k]);
			devs[k] = d;
			free(w);
		}
	}
	strbuf_init(&b);
	strbuf_add(&b, _("members: "));
	for (k = 0; k < ng; k++) {
		if (ng > 1)
			strbuf_printf(&b, "%s%s: ", k > 0 ? "; " : "", devs[k]);
		strbuf_add(&b, words[k][0] != '\0' ? words[k] : "?");
		free(words[k]);
		free(devs[k]);
	}
	free(words);
	free(devs);
	return strbuf_take(&b);
}
