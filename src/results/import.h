/*
 * Importing peers' results (`raidlab import`): another tool's output
 * (bonnie++ CSV or text tables, fio JSON, compilebench's summary) read
 * into raidlab runs of the matching workload type, with the parameters a
 * lab with the same settings would record (the workload's defaults, the
 * settings the input states set), so that `compare` puts the imported
 * figures in the same columns as raidlab's own. One const struct
 * import_format per input format, listed in import_formats[]. Text
 * pasted from mail archives is accepted: quote prefixes ("> >> "),
 * collapsed blanks and wrapped lines. Pure functions; any thread.
 *
 * What an input does not have is listed in import_result.missing, and so
 * is what had to be guessed to store its figures:
 *  - bonnie++ prints %CP, not user and sys: a test's user is set to
 *    %CP x wall / 100 and sys to 0 ("user/sys split"); its wall comes
 *    from the bytes or files moved over the rate where the input says
 *    how many, else 1 s ("wall"); a +++++ test is too_fast with no
 *    figure;
 *  - compilebench's summary has means only: one test per operation with
 *    the mean as its figure, its run count in ops ("repeats"); wall is
 *    the mean for the seconds operations, else 1 s;
 *  - fio: the job's runtime, CPU, bandwidth and completion latency
 *    percentiles (a histogram rebuilt from them, see import-fio.c).
 */
#ifndef RAIDLAB_IMPORT_H
#define RAIDLAB_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "measure/param.h"

struct err;
struct record;
struct workload;
struct wl_result;

/*
 * One imported run. Runs of the same variant name are repeats of one
 * variant (a row of compare), numbered by repeat from 1.
 */
struct import_run {
	char *variant; /* the row's name (bonnie++'s machine name...) */
	char *text; /* one line saying where it came from */
	char *hostname; /* the host the input names for it, or NULL */
	/* What makes two runs of one host repeats: the settings as the
	   input printed them (bonnie++ CSV: version, concurrency, -s and
	   -n fields). NULL: a run of its own (a text table). */
	char *setup;
	int repeat; /* 1, 2... within its variant */
	const struct workload *wl;
	struct param_value *values; /* wl->params' values; set: known */
	/* Bit i: wl->params[i] is unknown (the tool's version had no such
	   setting, or a fixed one nobody printed): left out of the record,
	   so that no column claims a value the input never had. */
	uint64_t unknown;
	struct wl_result *res;
};

struct import_result {
	char *from; /* "bonnie++ 1.01b text" */
	char *tool; /* "bonnie++" */
	char *tool_version; /* "1.01b", or NULL */
	char **missing; /* fields raidlab records that the input lacks */
	size_t nmissing;
	struct import_run *runs;
	size_t nruns;
};

struct import_format {
	const char *name; /* -f NAME: "bonnie-csv" */
	const char *summary; /* N_(), one line */
	/* The text looks like this format (auto-detection). */
	bool (*detect)(const char *text);
	/*
	 * Parse text (the contents of file) into out (zeroed). 0, or a
	 * negative errno with e naming file, line and field.
	 */
	int (*parse)(const char *text, const char *file,
	    struct import_result *out, struct err *e);
	/* The largest input taken: with what one input byte costs in
	   memory (raidlab(1), IMPORT), it caps what an import can need. */
	size_t max_bytes;
};

extern const struct import_format import_bonnie_csv;
extern const struct import_format import_bonnie_text;
extern const struct import_format import_fio_json;
extern const struct import_format import_compilebench;

/* Every format, NULL-terminated, in the order detection tries them. */
extern const struct import_format *const import_formats[];

/* The format named name, or NULL. */
const struct import_format *import_format_find(const char *name);
/* The first format whose detect() accepts text, or NULL. */
const struct import_format *import_detect(const char *text);

/*
 * Read path and parse it with fmt (NULL: detected). 0, or a negative
 * errno with e set (file, line, field); *out is then NULL.
 */
int import_file(const char *path, const struct import_format *fmt,
    struct import_result **out, struct err *e);
void import_result_free(struct import_result *r);

/*
 * Rename the variants after names, a comma-separated list: one name per
 * variant (in the order they first appear; a variant's repeats share
 * it), or one name for all (suffixed -1, -2... when there are several).
 * -EINVAL (e) when the count fits neither.
 */
int import_rename(struct import_result *r, const char *names, struct err *e);

/* The result as a record (record_new_imported()), file its input. */
int import_record(const struct import_result *r, const char *file,
    struct record **out, struct err *e);

/* ---- for the format parsers (import.c) */

/* A new run of workload wl (its params at their defaults). */
struct import_run *import_run_add(struct import_result *r,
    const struct workload *wl, const char *variant);
/* Mark parameter name of run known: its values (by kind) set. */
void import_set_size(struct import_run *run, const char *name, uint64_t v);
void import_set_int(struct import_run *run, const char *name, int64_t v);
/* Mark parameter name of run unknown (struct import_run.unknown). */
void import_set_unknown(struct import_run *run, const char *name);
/* Set an enum parameter by value name; false when not one of them. */
bool
import_set_enum(struct import_run *run, const char *name, const char *value);
/* Add to missing (once). */
void import_missing(struct import_result *r, const char *what);

/*
 * The lines of text with mail quoting taken off: a leading run of '>'
 * and blanks, and a trailing '\r'. lines[i] is line i + 1 of the file.
 * Free with import_lines_free().
 */
char **import_lines(const char *text, size_t *n);
void import_lines_free(char **lines, size_t n);

#endif
