/*
 * A report to share: what `raidlab report` writes from result records, as
 * plain text for a mailing list (report-text.c), Markdown (report-md.c) or
 * one self-contained HTML file with inline SVG charts (report-html.c).
 * (show.h is `raidlab show`'s tables; this is the answer around them.)
 *
 * report_init() builds the same comparison `raidlab compare` builds
 * (compare.h: rows, columns, cells, verdicts), so the two never disagree,
 * and beside it the provenance every renderer prints: per record the
 * lab's question, the host, where the figures came from (an import), how
 * the run repeated, the lab text; per comparison row how its variant was
 * built (the commands as they ran, the geometry and its rule, the md and
 * queue settings read back, the target); the disks under every row with
 * their models; and the caveats a reader must know (scratch disks, a data
 * set that fits in RAM, unstable samples, interrupted runs, records scaled
 * differently, imports). Everything comes from the records' documents, so
 * a report made later or on another machine says the same. Facts are
 * untranslated; sentences are translated. The thread that owns the
 * records.
 */
#ifndef RAIDLAB_REPORT_H
#define RAIDLAB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"

struct err;
struct record;
struct strbuf;

/* Text reports stay within this many columns (a mail's width). */
#define REPORT_TEXT_WIDTH 72

struct report_record {
	const struct record *rec; /* borrowed */
	char *label; /* the rows' source: "quick 2026-11-30 07:41" */
	char *path; /* the record's file, or NULL */
	char *lab; /* the lab's name */
	char *question; /* the lab's description, or NULL */
	char *created; /* "2026-11-30 07:41 UTC" */
	char *status; /* record_status() */
	char *version; /* raidlab's that wrote it, or NULL */
	/* "vm: Linux 6.1.0-13-amd64 x86_64; Intel Xeon (2 cores); 23.5 GiB
	   RAM"; NULL when the record does not say (an import) */
	char *host;
	uint64_t ram; /* bytes, 0: unknown */
	char *imported; /* "bonnie++ 1.01b text, from FILE"; NULL: raidlab's */
	char *missing; /* an import's missing fields, joined; or NULL */
	char *scaled; /* lab.scaled, or NULL */
	char *rounds; /* how the run repeated (record_rounds_why()), NULL */
	char *lab_text; /* the lab as run (raidlab run takes it), NULL */
};

struct report_variant {
	char *name; /* the comparison row's variant */
	size_t row; /* its row in cmp */
	size_t record; /* index into recs */
	char *text; /* the lab's one-line description of it, or NULL */
	bool array; /* built by raidlab (commands follow); else a directory */
	bool scratch; /* on scratch disks: not representative */
	char *target; /* "btrfs on /dev/loop0 (rw,noatime,...)", or NULL */
	char **commands; /* the setup commands that ran, in order (of the
			    first build that succeeded) */
	size_t nbuilds; /* builds of the variant (one per round when
			   interleaved) */
	size_t ncommands;
	char *geometry; /* what mkfs was told and by which rule, or NULL */
	char **settings; /* md and queue settings read back: "md0: raid10
			    near=2, chunk 512K, bitmap internal",
			    "readahead loop0: 1024 sectors" */
	size_t nsettings;
};

struct report_disk {
	char *name; /* "sda", "loop0" */
	char *model; /* vendor and model, or NULL */
	char *size; /* "2 GiB", or NULL */
	char *kind; /* "rotational, sata", "loop on /var/tmp/x.img" */
	char *used_by; /* the variants on it, joined by ", " */
};

struct report {
	struct compare cmp; /* as raidlab compare builds it */
	struct record *const *recs; /* borrowed, in compare_add() order */
	size_t nrecs;
	struct report_record *r; /* nrecs of them */
	struct report_variant *v; /* one per row of cmp, in row order */
	size_t nv;
	struct report_disk *disks;
	size_t ndisks;
	char **caveats; /* translated sentences */
	size_t ncaveats;
	char *title; /* the question of the first record, or a made-up one */
};

/*
 * Compare recs (each added as `raidlab compare` adds them; baseline: the
 * variant named, else compare's default) and gather the provenance.
 * recs stay the caller's and must outlive s. Returns 0, or -ENOENT with
 * nothing to compare (no record has a figure); s is then still done-able.
 */
int report_init(struct report *s, struct record *const *recs, size_t nrecs,
    const char *baseline);
void report_done(struct report *s);

enum report_format {
	REPORT_TEXT, /* report_text() */
	REPORT_MARKDOWN,
	REPORT_HTML,
};

/* The renderers: everything into out. */
/* Plain ASCII within REPORT_TEXT_WIDTH columns, no colour: a mail. */
void report_text(const struct report *s, struct strbuf *out);
/* Markdown (GitHub-flavoured tables). */
void report_markdown(const struct report *s, struct strbuf *out);
/* One HTML5 file: no script, no external resource, inline SVG. */
void report_html(const struct report *s, struct strbuf *out);

/* The renderer of f. */
void
report_render(const struct report *s, enum report_format f, struct strbuf *out);
/* "txt", "md", "html". */
const char *report_format_ext(enum report_format f);

/*
 * Where the Compare screen saves a report: beside the first record that
 * has a file, as "report-LAB-YYYYMMDD-HHMMSS.EXT" (the record's own
 * name, its .json replaced), else in dir. Caller frees.
 */
char *report_default_path(const struct report *s, enum report_format f,
    const char *dir);

/* Render s in f and replace path with it (afile.h). 0 or a negative
   errno with e filled. */
int report_save(const struct report *s, enum report_format f, const char *path,
    struct err *e);

/*
 * A cell's verdict in its word, the same in every front end (the
 * Compare screen, the reports): "better", "worse", "same ±2%" (the
 * comparison's margin), "can't tell"; for the cells with no such verdict
 * compare_format_verdict()'s text ("n<3", "baseline", "stopped",
 * "+++++", "") without its unstable mark. Returns buf.
 */
const char *report_verdict_word(const struct compare *c, size_t row, size_t col,
    char *buf, size_t len);
/*
 * The verdict for a table's change column (report-answer.c), as
 * compare_format_verdict() writes it but in words: the test's change
 * with the half-width of its interval (at c->conf_shown) and the word,
 * "+27.1% ±4.2% better", "-3.0% ±1.2% worse"; "same ±2%"; "can't tell
 * -7.0..+9.0%" (the interval); "n<3", "stopped", "+++++", "baseline";
 * " !" after it when a side is unstable. Returns buf.
 */
const char *report_verdict_short(const struct compare *c, size_t row,
    size_t col, char *buf, size_t len);

/* What would settle a "can't tell" (report-answer.c), appended to out:
   "about 6 more repeats each would settle it" (more than the side with
   more has, as compare_answer() counts them); nothing when unknown or
   when no more would. */
void report_settle_text(const struct compare *c, size_t row, size_t col,
    struct strbuf *out);

/* Helpers the renderers share (report.c). */
/* A cell's figure: the mean and where its 95% interval (the geometric
   mean's, compare.h) ends, in % of the mean: "195.3 ±2.1%", or both ends
   when they differ, "5588.8 -72.1/+259%" ("n=1" without an interval,
   "-" without a figure). */
const char *report_cell_text(const struct report *s, size_t row, size_t col,
    char *buf, size_t len);
/* The change against the baseline in words, for a table:
   report_verdict_short() of the comparison. */
const char *report_change_text(const struct report *s, size_t row, size_t col,
    char *buf, size_t len);
/* The row's name as the tables show it: the variant, "b #2" when rows
   come from several records. Caller frees. */
char *report_row_name(const struct report *s, size_t row);

#endif
