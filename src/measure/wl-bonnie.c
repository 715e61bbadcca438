/*
 * bonnie: the bonnie++ test sequence with bonnie++ 2.00's semantics:
 * sequential output per character (one write(2) per byte, over the
 * first char_size bytes as 2.00 does), block and rewrite; sequential
 * input per character and block; random seeks by several workers; then
 * file create/stat/delete in sequential and random order. The options
 * mean what they mean to bonnie++: -s size:chunk, -r ram, -n
 * files:max:min:dirs, -b (fsync), -D (O_DIRECT); size 0 (-s 0) skips
 * the I/O tests and files 0 (-n 0) the file tests, so that their tests
 * are absent from the result, not zero. The parameters, prepare
 * and cleanup live here; the tests in wl-bonnie-io.c and
 * wl-bonnie-files.c, the report in wl-bonnie-report.c. Driver thread.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "engine.h"
#include "wl-bonnie.h"
#include "workload.h"

static const struct param bonnie_params[] = {
	{ "size", PARAM_SIZE, "auto", 0, 0, NULL, PARAM_AUTO, NULL,
	    N_("file size for the I/O tests (-s); auto: twice the RAM; "
	       "0 skips them") },
	{ "chunk", PARAM_SIZE, "8K", 1, 64 << 20, NULL, 0, NULL,
	    N_("block size of the block and seek tests (-s SIZE:CHUNK)") },
	{ "ram", PARAM_SIZE, "auto", 1, 0, NULL, PARAM_AUTO, NULL,
	    N_("RAM to assume (-r); auto: read from the system") },
	{ "char_size", PARAM_SIZE, "3M", 0, 0, NULL, 0, NULL,
	    N_("bytes of the per-character tests, as bonnie++ 2.00 (-f); "
	       "0 skips them") },
	{ "seeks", PARAM_INT, "8192", 1, 100000000, NULL, 0, NULL,
	    N_("seeks of the random seek test, in total (-s ::SEEKS)") },
	{ "seekers", PARAM_INT, "5", 1, ENGINE_MAX_WORKERS, NULL, 0, NULL,
	    N_("concurrent workers of the seek test (-s :::SEEKERS)") },
	{ "files", PARAM_INT, "16", 0, 1 << 20, NULL, 0, NULL,
	    N_("file tests: this many x 1024 files (-n); 0 skips them") },
	{ "max_size", PARAM_SIZE, "0", 0, 0, NULL, 0, NULL,
	    N_("largest file of the file tests (-n :MAX); 0: empty files") },
	{ "min_size", PARAM_SIZE, "0", 0, 0, NULL, 0, NULL,
	    N_("smallest file of the file tests (-n ::MIN)") },
	{ "dirs", PARAM_INT, "0", 0, 1 << 20, NULL, 0, NULL,
	    N_("directories the files spread over (-n :::DIRS); 0: one") },
	{ "fsync", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("fsync after every write (-b)") },
	{ "direct", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("O_DIRECT for the block tests (-D)") },
	{ "keep", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("leave the files on the target after the run") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

const char *const bonnie_keys[BT__COUNT] = {
	[BT_PUTC] = "seq_output_char",
	[BT_PUT_BLOCK] = "seq_output_block",
	[BT_REWRITE] = "seq_output_rewrite",
	[BT_GETC] = "seq_input_char",
	[BT_GET_BLOCK] = "seq_input_block",
	[BT_SEEKS] = "random_seeks",
	[BT_SEQ_CREATE] = "seq_create",
	[BT_SEQ_STAT] = "seq_read",
	[BT_SEQ_DEL] = "seq_delete",
	[BT_RAN_CREATE] = "random_create",
	[BT_RAN_STAT] = "random_read",
	[BT_RAN_DEL] = "random_delete",
};

/* Untranslated, as stored in records; the spec is read back by report. */
const char *const bonnie_names[BT__COUNT] = {
	[BT_PUTC] = "Per-char write",
	[BT_PUT_BLOCK] = "Block write",
	[BT_REWRITE] = "Rewrite",
	[BT_GETC] = "Per-char read",
	[BT_GET_BLOCK] = "Block read",
	[BT_SEEKS] = "Random seeks",
	[BT_SEQ_CREATE] = "Sequential create",
	[BT_SEQ_STAT] = "Sequential stat",
	[BT_SEQ_DEL] = "Sequential delete",
	[BT_RAN_CREATE] = "Random create",
	[BT_RAN_STAT] = "Random stat",
	[BT_RAN_DEL] = "Random delete",
};

char *
bonnie_label(const struct bonnie *b, enum bonnie_test t)
{
	return xasprintf("%s (%s)", bonnie_names[t],
	    t < BT_SEQ_CREATE ? b->spec_s : b->spec_n);
}

/*
 * The -s SIZE:CHUNK:SEEKS:SEEKERS and -n NUM:MAX:MIN:DIRS specs of the
 * labels, in exact sizes that parse back (the report reads them).
 */
static void
bonnie_specs(struct bonnie *b)
{
	char s[UNITS_BUF], c[UNITS_BUF], mx[UNITS_BUF], mn[UNITS_BUF];

	b->spec_s = xasprintf("-s %s:%s:%" PRIu64 ":%u",
	    units_format_exact(b->size, s, sizeof s),
	    units_format_exact(b->chunk, c, sizeof c), b->seeks, b->seekers);
	b->spec_n = xasprintf("-n %" PRIu64 ":%s:%s:%" PRIu64, b->files / 1024,
	    units_format_exact(b->max_size, mx, sizeof mx),
	    units_format_exact(b->min_size, mn, sizeof mn), b->dirs);
}

/*
 * What bonnie++ refuses before it starts, on the lab's values: -s 0 -n 0
 * (no test left), and an I/O file smaller than one chunk, which it would
 * round down to -s 0 without a word.
 */
static bool
bonnie_check(const struct param_value *v, const char **param, char *msg,
    size_t len)
{
	const struct param_value *sz = workload_value(bonnie_params, v, "size");
	uint64_t chunk = workload_value(bonnie_params, v, "chunk")->size;
	char a[UNITS_BUF], c[UNITS_BUF];

	if (!sz->is_auto && sz->size == 0 &&
	    workload_value(bonnie_params, v, "files")->i == 0) {
		*param = "files";
		snprintf(msg, len, "%s",
		    _("files = 0 and size = 0 skip every test (bonnie++ -s 0 "
		      "-n 0): give one of them"));
		return true;
	}
	if (!sz->is_auto && sz->size > 0 && sz->size < chunk) {
		*param = "size";
		snprintf(msg, len,
		    _("size %s is less than one chunk (%s): no I/O test fits "
		      "(size = 0 skips them)"),
		    units_format_size(sz->size, a, sizeof a),
		    units_format_size(chunk, c, sizeof c));
		return true;
	}
	return false;
}

/*
 * Resolve size (twice the RAM; 0: no I/O tests) and check what bonnie++
 * checks.
 */
static int
bonnie_prepare(struct wl_run *r)
{
	struct bonnie *b = xcalloc(1, sizeof *b);
	char a[UNITS_BUF], c[UNITS_BUF];
	char why[256];
	const char *param;

	r->priv = b;
	b->chunk = wl_param_size(r, "chunk");
	b->ram = wl_param_is_auto(r, "ram") ? workload_ram_bytes()
					    : wl_param_size(r, "ram");
	b->size =
	    wl_param_is_auto(r, "size") ? 2 * b->ram : wl_param_size(r, "size");
	b->size -= b->size % b->chunk;
	b->char_size = wl_param_size(r, "char_size");
	if (b->char_size > b->size)
		b->char_size = b->size;
	b->seeks = (uint64_t)wl_param_int(r, "seeks");
	b->seekers = (unsigned)wl_param_int(r, "seekers");
	b->files = (uint64_t)wl_param_int(r, "files") * 1024;
	b->max_size = wl_param_size(r, "max_size");
	b->min_size = wl_param_size(r, "min_size");
	b->dirs = (uint64_t)wl_param_int(r, "dirs");
	b->fsync = wl_param_bool(r, "fsync");
	b->direct = wl_param_bool(r, "direct");
	if (bonnie_check(r->params, &param, why, sizeof why))
		return wl_run_fail(r, -EINVAL, "%s: %s", param, why);
	/* auto with the RAM unknown */
	if (b->size == 0 && wl_param_is_auto(r, "size"))
		return wl_run_fail(r, -EINVAL,
		    _("size auto is twice the RAM, which is unknown here "
		      "(%s): give size or ram"),
		    units_format_size(b->ram, a, sizeof a));
	if (b->min_size > b->max_size)
		return wl_run_fail(r, -EINVAL,
		    _("min_size %s is larger than "
		      "max_size %s"),
		    units_format_size(b->min_size, a, sizeof a),
		    units_format_size(b->max_size, c, sizeof c));
	if (b->direct && b->chunk % 512 != 0)
		return wl_run_fail(r, -EINVAL,
		    _("direct I/O needs a chunk "
		      "that is a multiple of 512 "
		      "bytes, not %s"),
		    units_format_size(b->chunk, c, sizeof c));
	/* bonnie++ -s 0 takes any -r: there is no file to outgrow it. */
	if (b->size > 0 && b->size < 2 * b->ram)
		wl_note(r,
		    _("size %s is less than twice the RAM (%s): "
		      "bonnie++ would refuse it without -r"),
		    units_format_size(b->size, a, sizeof a),
		    units_format_size(b->ram, c, sizeof c));
	if (b->size > 0)
		wl_check_dataset(r, b->size);
	b->path_name = xasprintf("Bonnie.%ld", (long)getpid());
	b->top_name = xstrdup("Bonnie.files");
	b->path = xasprintf("%s/%s", r->dir, b->path_name);
	b->top = xasprintf("%s/%s", r->dir, b->top_name);
	bonnie_specs(b);
	return 0;
}

static int
bonnie_run(struct wl_run *r)
{
	struct bonnie *b = r->priv;
	int rc = 0;

	if (b->size > 0 && (rc = bonnie_io_run(r, b)) < 0)
		return rc;
	if (b->files > 0)
		rc = bonnie_files_run(r, b);
	return rc;
}

static void
bonnie_cleanup(struct wl_run *r)
{
	struct bonnie *b = r->priv;

	if (b == NULL)
		return;
	free(b->path);
	free(b->top);
	free(b->path_name);
	free(b->top_name);
	free(b->spec_s);
	free(b->spec_n);
	free(b);
	r->priv = NULL;
}

static const struct param_bound wl_bonnie_bounds[] = {
	{ "min_size", "max_size" },
	{ NULL, NULL },
};

/* The file of the I/O tests (none with size 0), then the files of the
   file tests (the first is removed before them unless kept). */
static uint64_t
bonnie_dataset(const struct param_value *v, bool keep)
{
	const struct param_value *sz = workload_value(bonnie_params, v, "size");
	const struct param_value *ram = workload_value(bonnie_params, v, "ram");
	uint64_t chunk = workload_value(bonnie_params, v, "chunk")->size;
	uint64_t files =
	    workload_mul((uint64_t)workload_value(bonnie_params, v, "files")->i,
		1024);
	uint64_t max = workload_value(bonnie_params, v, "max_size")->size;
	uint64_t size, many;

	size = sz->is_auto
	    ? workload_mul(2, ram->is_auto ? workload_ram_bytes() : ram->size)
	    : sz->size;
	if (chunk > 0)
		size -= size % chunk;
	size = workload_blocks(size);
	many = workload_mul(files, workload_blocks(max));
	if (keep)
		return workload_add(size, many);
	return size > many ? size : many;
}

const struct workload wl_bonnie = {
	.name = "bonnie",
	.summary = N_("bonnie++: sequential, rewrite, seeks and file "
		      "create/stat/delete"),
	.params = bonnie_params,
	.bounds = wl_bonnie_bounds,
	.check = bonnie_check,
	.prepare = bonnie_prepare,
	.run = bonnie_run,
	.cleanup = bonnie_cleanup,
	.report = bonnie_report,
	.dataset = bonnie_dataset,
};
