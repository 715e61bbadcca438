/*
 * untar through the real engine on real filesystems: every file of the
 * synthetic tree is extracted with its size, a GNU tar archive extracts
 * to what GNU tar itself compares equal, the figures add up, a full
 * filesystem and a stop end cleanly, and a hostile archive writes
 * nothing outside the run's directory. Also tree_create() (tree.h),
 * which needs a worker to run in.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/engine.h"
#include "measure/tree.h"
#include "wltest.h"

TestSuite(untar, .init = wltest_cache_setup, .fini = wltest_cache_teardown);

static void
tree_of(struct tree *t, uint32_t files, uint64_t bytes)
{
	struct tree_spec s = { TREE_DEFAULT_SEED, files, bytes };

	cr_assert_eq(tree_generate(&s, t), 0);
}

/* Every directory and file of t under dir, each file with its size. */
static void
check_tree(const char *dir, const struct tree *t)
{
	char p[8192];
	struct stat st;
	size_t i;

	for (i = 0; i < t->ndirs; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, t->dirs[i].path);
		cr_assert_eq(lstat(p, &st), 0, "missing dir %s", p);
		cr_assert(S_ISDIR(st.st_mode));
	}
	for (i = 0; i < t->nfiles; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, t->files[i].path);
		cr_assert_eq(lstat(p, &st), 0, "missing %s", p);
		cr_assert(S_ISREG(st.st_mode));
		cr_assert_eq((uint64_t)st.st_size, t->files[i].size, "%s", p);
		cr_assert_eq(st.st_mode & 07777, t->files[i].mode, "%s", p);
	}
}

/* The synthetic tarball of 400 files of 5000000 bytes in the cache. */
static off_t
synthetic_tarball_size(void)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof p,
	    "%s/raidlab/untar-tree-v%d-s2620-f400-b5000000.tar",
	    wltest_cache_dir, TREE_VERSION);
	cr_assert_eq(stat(p, &st), 0, "no cached tarball %s", p);
	return st.st_size;
}

static void
check_figures(const struct wl_test *t, uint64_t entries, uint64_t bytes)
{
	off_t tar = synthetic_tarball_size();

	cr_assert_str_eq(t->key, "untar");
	cr_assert_eq(t->unit, WL_UNIT_SECONDS);
	cr_assert_eq(t->files, entries, "files %llu, want %llu",
	    (unsigned long long)t->files, (unsigned long long)entries);
	cr_assert_eq(t->bytes_written, bytes);
	/* the tarball read, to its end-of-archive blocks: all but the
	   zeros that pad it to a 10 KiB record */
	cr_assert(t->bytes_read <= (uint64_t)tar &&
		t->bytes_read + 10240 > (uint64_t)tar,
	    "bytes_read %llu of a %lld-byte tarball",
	    (unsigned long long)t->bytes_read, (long long)tar);
	cr_assert_gt(t->wall, 0.0);
	cr_assert_float_eq(t->value, t->wall, 1e-9);
	cr_assert_float_eq(wl_test_rate(t, WL_UNIT_MBPS),
	    (double)(bytes + t->bytes_read) / 1e6 / t->wall,
	    1e-6 * (double)bytes / t->wall);
	cr_assert_eq(t->lat[WL_OP_CREATE].n, entries);
	cr_assert_eq(t->lat[WL_OP_FSYNC].n, 1, "one sync inside the timing");
}

static void
synthetic_on(struct wltest_target *tg)
{
	struct wl_result *r;
	struct tree t;
	char dir[4096];
	uint64_t bytes, entries, names, hard_bytes = 0;
	size_t i;

	tree_of(&t, 400, 5000000);
	/* Links are entries too; a hard link is one more name of a file. */
	entries = t.ndirs + t.nfiles + t.nlinks;
	names = t.nfiles;
	for (i = 0; i < t.nlinks; i++)
		if (t.links[i].type == TREE_HARDLINK) {
			names++;
			hard_bytes += t.files[t.links[i].file].size;
		}
	r = wltest_run(&wl_untar,
	    "synthetic_files = 400; "
	    "synthetic_size = \"5000000\"; keep = true;",
	    tg->dir, LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, 1);
	check_figures(&r->tests[0], entries, t.bytes);
	wltest_run_dir(tg->dir, dir, sizeof dir);
	cr_assert_neq(dir[0], '\0', "no run directory kept");
	check_tree(dir, &t);
	cr_assert_eq(wltest_count_files(dir, &bytes), names);
	cr_assert_eq(bytes, t.bytes + hard_bytes);
	wl_result_free(r);
	/* Without keep, nothing is left; the cached tarball is reused. */
	r = wltest_run(&wl_untar,
	    "synthetic_files = 400; "
	    "synthetic_size = \"5000000\";",
	    tg->dir, LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	check_figures(&r->tests[0], entries, t.bytes);
	wl_result_free(r);
	cr_assert_eq(wltest_count_files(tg->dir, NULL), names,
	    "the second run left files (or removed the kept ones)");
	tree_free(&t);
}

Test(untar, synthetic_tree_on_tmpfs)
{
	struct wltest_target tg;

	wltest_target_tmpfs(&tg, 64 << 20);
	synthetic_on(&tg);
	wltest_target_free(&tg);
}

Test(untar, synthetic_tree_on_ext4)
{
	struct wltest_target tg;

	wltest_target_ext4(&tg, 128 << 20);
	synthetic_on(&tg);
	wltest_target_free(&tg);
}

Test(untar, synthetic_tarball_is_cached_by_spec)
{
	struct wltest_target tg;
	struct wl_result *r;
	char p[256];
	struct stat st;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_untar,
	    "synthetic_files = 50; "
	    "synthetic_size = \"500000\";",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	wl_result_free(r);
	snprintf(p, sizeof p, "%s/raidlab/untar-tree-v%d-s2620-f50-b500000.tar",
	    wltest_cache_dir, TREE_VERSION);
	cr_assert_eq(stat(p, &st), 0, "no cached tarball %s", p);
	cr_assert(wltest_dir_empty(tg.dir));
	wltest_target_free(&tg);
}

/* A small tree with the kinds of entries a real archive has. */
static void
make_source(const char *src)
{
	static const char *const dirs[] = { "a", "a/b", "a/b/c", "d" };
	char p[8192];
	size_t i;
	FILE *f;

	cr_assert_eq(mkdir(src, 0755), 0);
	for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", src, dirs[i]);
		cr_assert_eq(mkdir(p, 0755), 0);
	}
	for (i = 0; i < 40; i++) {
		snprintf(p, sizeof p, "%.4000s/%s/f%zu.c", src, dirs[i % 4], i);
		cr_assert_not_null(f = fopen(p, "w"));
		for (size_t k = 0; k < i * 397; k++)
			fputc('a' + (int)(k % 26), f);
		fclose(f);
	}
	snprintf(p, sizeof p, "%s/a/run.sh", src);
	cr_assert_not_null(f = fopen(p, "w"));
	fputs("#!/bin/sh\necho hi\n", f);
	fclose(f);
	cr_assert_eq(chmod(p, 0755), 0);
	snprintf(p, sizeof p, "%s/d/link", src);
	cr_assert_eq(symlink("../a/run.sh", p), 0);
	snprintf(p, sizeof p, "%s/d/empty", src);
	cr_assert_not_null(f = fopen(p, "w"));
	fclose(f);
}

Test(untar, gnu_tar_archive_extracts_identically)
{
	struct wltest_target tg;
	struct wl_result *r;
	char src[4096], tarball[4096], cfg[8300], dir[4096];
	const char *create[] = { "tar", "cf", tarball, "-C", src, ".", NULL };
	const char *cmp[] = { "tar", "--compare", "-f", tarball, "-C", dir,
		NULL };

	wltest_target_dir(&tg);
	snprintf(src, sizeof src, "%s.src", tg.dir);
	snprintf(tarball, sizeof tarball, "%s.tar", tg.dir);
	make_source(src);
	cr_assert_eq(wltest_cmd(create), 0, "GNU tar cf failed");
	snprintf(cfg, sizeof cfg, "tarball = \"%s\"; keep = true;", tarball);
	r = wltest_run(&wl_untar, cfg, tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	/* ".", 4 dirs, 40 .c, run.sh, link, empty */
	cr_assert_eq(r->tests[0].files, 1 + 4 + 40 + 3, "%llu entries",
	    (unsigned long long)r->tests[0].files);
	wltest_run_dir(tg.dir, dir, sizeof dir);
	/* GNU tar's own verdict: modes, times, sizes, contents, links. */
	cr_assert_eq(wltest_cmd(cmp), 0, "tar --compare finds differences");
	wl_result_free(r);
	unlink(tarball);
	wltest_rm_rf(src);
	wltest_target_free(&tg);
}

/* The record's bytes_read is the archive file read: all of it, for a
   tar without padding after its end (blocking factor 1) and for a
   compressed one. The tree written is the same either way. */
Test(untar, bytes_read_is_the_archive_file)
{
	static const char *const how[] = { "-b1", "-z" };
	struct wltest_target tg;
	struct wl_result *r;
	char src[4096], tarball[4096], cfg[8300];
	uint64_t written = 0;
	struct stat st;

	wltest_target_dir(&tg);
	snprintf(src, sizeof src, "%s.src", tg.dir);
	make_source(src);
	for (size_t i = 0; i < sizeof how / sizeof *how; i++) {
		const char *create[] = { "tar", how[i], "-cf", tarball, "-C",
			src, ".", NULL };

		snprintf(tarball, sizeof tarball, "%s.%zu.tar", tg.dir, i);
		cr_assert_eq(wltest_cmd(create), 0, "GNU tar %s failed",
		    how[i]);
		cr_assert_eq(stat(tarball, &st), 0);
		snprintf(cfg, sizeof cfg, "tarball = \"%s\";", tarball);
		r = wltest_run(&wl_untar, cfg, tg.dir, LAB_CACHE_KEEP, NULL,
		    NULL, 60);
		cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
		cr_assert_eq(r->tests[0].bytes_read, (uint64_t)st.st_size,
		    "tar %s: bytes_read %llu of a %lld-byte archive", how[i],
		    (unsigned long long)r->tests[0].bytes_read,
		    (long long)st.st_size);
		if (i > 0)
			cr_assert_eq(r->tests[0].bytes_written, written);
		written = r->tests[0].bytes_written;
		cr_assert_gt(written, 0);
		wl_result_free(r);
		unlink(tarball);
	}
	wltest_rm_rf(src);
	wltest_target_free(&tg);
}

/* A note of r that holds s, or NULL. */
static const char *
note_with(const struct wl_result *r, const char *s)
{
	size_t i;

	for (i = 0; i < r->nnotes; i++)
		if (strstr(r->notes[i], s) != NULL)
			return r->notes[i];
	return NULL;
}

/* A tarball in tmpfs lives in the page cache: dropping caches cannot
   make it cold, and the note says it is read from memory. */
Test(untar, tarball_in_tmpfs_is_read_from_memory_not_cold)
{
	struct wltest_target tg;
	struct wl_result *r;
	char src[4096], tarball[4200], cfg[8400];
	const char *create[] = { "tar", "cf", tarball, "-C", src, ".", NULL };

	wltest_target_tmpfs(&tg, 32 << 20);
	snprintf(src, sizeof src, "%s.src", tg.dir);
	snprintf(tarball, sizeof tarball, "%s/in.tar", tg.dir);
	make_source(src);
	cr_assert_eq(wltest_cmd(create), 0, "GNU tar cf failed");
	snprintf(cfg, sizeof cfg, "tarball = \"%s\";", tarball);
	r = wltest_run(&wl_untar, cfg, tg.dir, LAB_CACHE_DROP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_null(note_with(r, "cold"), "note: %s", note_with(r, "cold"));
	cr_assert_not_null(note_with(r, "read from memory"));
	wl_result_free(r);
	wltest_rm_rf(src);
	wltest_target_free(&tg);
}

Test(untar, missing_tarball_fails_with_its_name)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_untar, "tarball = \"/nonexistent/x.tar\";", tg.dir,
	    LAB_CACHE_KEEP, NULL, NULL, 30);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert(strstr(r->error, "/nonexistent/x.tar") != NULL, "%s",
	    r->error);
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

/* libarchive's mtree and raw formats read any text as an archive, and
   its empty format nothing: such a tarball extracted nothing and said
   ok (issue 19, item 11). */
Test(untar, text_or_empty_file_is_not_an_archive)
{
	static const char *const body[] = { "hello world\nsecond line\n",
		"/set type=file\n./a size=3\n", "" };
	struct wltest_target tg;
	struct wl_result *r;
	char tarball[4096], cfg[4200];
	FILE *fp;

	for (size_t i = 0; i < sizeof body / sizeof *body; i++) {
		wltest_target_dir(&tg);
		snprintf(tarball, sizeof tarball, "%s.txt", tg.dir);
		cr_assert_not_null(fp = fopen(tarball, "w"));
		fputs(body[i], fp);
		fclose(fp);
		snprintf(cfg, sizeof cfg, "tarball = \"%s\";", tarball);
		r = wltest_run(&wl_untar, cfg, tg.dir, LAB_CACHE_KEEP, NULL,
		    NULL, 30);
		cr_assert_eq(r->status, WL_FAILED, "input %zu: %s", i,
		    wl_status_name(r->status));
		cr_assert(strstr(r->error, tarball) != NULL &&
			strstr(r->error, "not an archive") != NULL,
		    "%s", r->error);
		cr_assert(wltest_dir_empty(tg.dir));
		wl_result_free(r);
		unlink(tarball);
		wltest_target_free(&tg);
	}
}

Test(untar, full_filesystem_fails_cleanly)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_tmpfs(&tg, 16 << 20);
	r = wltest_run(&wl_untar,
	    "synthetic_files = 300; "
	    "synthetic_size = \"40M\";",
	    tg.dir, LAB_CACHE_KEEP, NULL, NULL, 120);
	cr_assert_eq(r->status, WL_FAILED);
	cr_assert_not_null(r->error);
	cr_assert(strstr(r->error, "No space left on device") != NULL, "%s",
	    r->error);
	cr_assert(strstr(r->error, "linux/") != NULL, "names no file: %s",
	    r->error);
	cr_assert(wltest_dir_empty(tg.dir), "files left behind");
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(untar, stop_mid_run_is_interrupted_and_clean)
{
	struct wltest_target tg;
	struct wl_result *r;

	wltest_target_dir(&tg);
	r = wltest_run(&wl_untar,
	    "synthetic_files = 20000; "
	    "synthetic_size = \"40M\"; sync = false;",
	    tg.dir, LAB_CACHE_KEEP, wltest_stop_when,
	    &(struct wltest_stop){ .files = 50 }, 120);
	cr_assert_eq(r->status, WL_INTERRUPTED, "%s", r->error ? r->error : "");
	cr_assert_eq(r->ntests, 1);
	cr_assert(r->tests[0].interrupted);
	/* Stopped after 50 entries, not after all 20000. */
	cr_assert_geq(r->tests[0].files, 50);
	cr_assert_lt(r->tests[0].files, 20000 / 2, "%" PRIu64 " files",
	    r->tests[0].files);
	cr_assert_lt(r->tests[0].wall, 30.0);
	cr_assert(wltest_dir_empty(tg.dir));
	wl_result_free(r);
	wltest_target_free(&tg);
}

Test(untar, hostile_archive_writes_nothing_outside)
{
	struct wltest_target tg;
	struct wl_result *r;
	struct archive *a = archive_write_new();
	char tarball[4096], cfg[4200], out[4096], abs[4096], dir[4096];
	char p[8192];
	struct stat st;

	wltest_target_dir(&tg);
	snprintf(tarball, sizeof tarball, "%s.tar", tg.dir);
	snprintf(out, sizeof out, "%s.outside", tg.dir);
	snprintf(abs, sizeof abs, "%s.abs/evil", tg.dir);
	cr_assert_eq(mkdir(out, 0755), 0);
	archive_write_set_format_pax_restricted(a);
	cr_assert_eq(archive_write_open_filename(a, tarball), ARCHIVE_OK);
	wltest_tar_add(a, "../escape", AE_IFREG, NULL, "x");
	wltest_tar_add(a, "ok/../../escape2", AE_IFREG, NULL, "x");
	wltest_tar_add(a, abs, AE_IFREG, NULL, "x");
	wltest_tar_add(a, "lnk", AE_IFLNK, out, NULL);
	wltest_tar_add(a, "lnk/evil", AE_IFREG, NULL, "x");
	wltest_tar_add(a, "good", AE_IFREG, NULL, "fine");
	archive_write_close(a);
	archive_write_free(a);

	snprintf(cfg, sizeof cfg, "tarball = \"%s\"; keep = true;", tarball);
	r = wltest_run(&wl_untar, cfg, tg.dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	wltest_run_dir(tg.dir, dir, sizeof dir);
	/* Nothing outside: next to the target, at the absolute path, or
	 * through the symlink. */
	snprintf(p, sizeof p, "%s/escape", tg.dir);
	cr_assert_neq(lstat(p, &st), 0);
	snprintf(p, sizeof p, "%s/../escape", tg.dir);
	cr_assert_neq(lstat(p, &st), 0, "../escape written outside");
	cr_assert_neq(lstat(abs, &st), 0, "absolute path written");
	snprintf(p, sizeof p, "%s/evil", out);
	cr_assert_neq(lstat(p, &st), 0, "written through a symlink");
	/* As GNU tar 1.34: names with ".." refused, "/" stripped. */
	snprintf(p, sizeof p, "%s/escape", dir);
	cr_assert_neq(lstat(p, &st), 0, "../escape extracted");
	snprintf(p, sizeof p, "%s/escape2", dir);
	cr_assert_neq(lstat(p, &st), 0, "ok/../../escape2 extracted");
	snprintf(p, sizeof p, "%s%s", dir, abs);
	cr_assert_eq(lstat(p, &st), 0, "/abs not kept as abs");
	snprintf(p, sizeof p, "%s/good", dir);
	cr_assert_eq(lstat(p, &st), 0);
	cr_assert_eq(st.st_size, 4);
	cr_assert_geq(r->nnotes, 2, "renamed and skipped entries not noted");
	wl_result_free(r);
	unlink(tarball);
	rmdir(out);
	wltest_target_free(&tg);
}

/* tree_create() in a worker, as compilebench's create phase uses it. */
static int
create_worker(struct wl_worker *w)
{
	static char buf[65536];
	const struct tree *t = w->arg;

	tree_fill(buf, sizeof buf);
	return tree_create(w, t, w->run->dirfd, w->run->dir, buf, sizeof buf);
}

static struct tree create_tree;

static int
create_run(struct wl_run *r)
{
	int rc;

	wl_test_begin(r, "create", "create", WL_UNIT_MBPS);
	rc = wl_parallel(r, 1, create_worker, &create_tree);
	wl_test_end(r, 0);
	return rc;
}

static const struct param create_params[] = {
	{ "keep", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL, "keep" },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

static const struct workload wl_create = {
	.name = "tree-create",
	.summary = "test",
	.params = create_params,
	.run = create_run,
};

Test(untar, tree_create_writes_the_list)
{
	struct wltest_target tg;
	struct wl_result *r;
	char dir[4096], p[8192];
	struct stat st;
	FILE *f;
	int c;

	wltest_target_tmpfs(&tg, 64 << 20);
	tree_of(&create_tree, 300, 3000000);
	r = wltest_run(&wl_create, "keep = true;", tg.dir, LAB_CACHE_KEEP, NULL,
	    NULL, 60);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	cr_assert_eq(r->tests[0].files, create_tree.nfiles);
	cr_assert_eq(r->tests[0].ops, create_tree.ndirs);
	cr_assert_eq(r->tests[0].bytes_written, create_tree.bytes);
	wltest_run_dir(tg.dir, dir, sizeof dir);
	check_tree(dir, &create_tree);
	/* Contents: all the same byte. */
	snprintf(p, sizeof p, "%s/%s", dir, create_tree.files[0].path);
	cr_assert_not_null(f = fopen(p, "r"));
	while ((c = fgetc(f)) != EOF)
		cr_assert_eq(c, TREE_FILL_BYTE);
	fclose(f);
	cr_assert_eq(stat(p, &st), 0);
	wl_result_free(r);
	tree_free(&create_tree);
	wltest_target_free(&tg);
}

static uint64_t blocks_total;

/* du's view of the regular files, in whole 4K blocks. */
static int
add_blocks(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F && S_ISREG(st->st_mode) && st->st_size > 0)
		blocks_total += ((uint64_t)st->st_size + 4095) / 4096 * 4096;
	return 0;
}

/* The free-space checks' estimate: the archive's files unpacked (read
   from its headers, compressed or not), or the synthetic tree with at
   most a block's slack per file. */
Test(untar, data_set_is_the_archive_unpacked)
{
	struct wltest_target tg;
	struct param_value *v;
	char src[4096], tarball[4096], tgz[4096], cfg[8300];
	const char *create[] = { "tar", "cf", tarball, "-C", src, ".", NULL };
	const char *gz[] = { "tar", "czf", tgz, "-C", src, ".", NULL };

	wltest_target_dir(&tg);
	snprintf(src, sizeof src, "%s.src", tg.dir);
	snprintf(tarball, sizeof tarball, "%s.tar", tg.dir);
	snprintf(tgz, sizeof tgz, "%s.tar.gz", tg.dir);
	make_source(src);
	cr_assert_eq(wltest_cmd(create), 0, "GNU tar cf failed");
	cr_assert_eq(wltest_cmd(gz), 0, "GNU tar czf failed");
	blocks_total = 0;
	nftw(src, add_blocks, 16, FTW_PHYS);
	cr_assert_gt(blocks_total, 0);
	snprintf(cfg, sizeof cfg, "tarball = \"%s\";", tarball);
	v = wltest_params(&wl_untar, cfg);
	cr_assert_eq(wl_untar.dataset(v, false), blocks_total);
	wltest_params_free(&wl_untar, v);
	snprintf(cfg, sizeof cfg, "tarball = \"%s\";", tgz);
	v = wltest_params(&wl_untar, cfg);
	cr_assert_eq(wl_untar.dataset(v, false), blocks_total);
	wltest_params_free(&wl_untar, v);
	v = wltest_params(&wl_untar,
	    "synthetic_files = 100; synthetic_size = \"1M\";");
	cr_assert_eq(wl_untar.dataset(v, false), (1 << 20) + 100 * 4095);
	wltest_params_free(&wl_untar, v);
	unlink(tarball);
	unlink(tgz);
	wltest_rm_rf(src);
	wltest_target_free(&tg);
}
