/*
 * untar's writer (wl-untar-write.h) through the real engine: hostile
 * archives built here with libarchive, extracted by the untar workload
 * and, side by side, by GNU tar. Nothing may appear outside the run's
 * directory, and inside it raidlab must leave what GNU tar leaves: the
 * same names, types, link targets, sizes, link counts and contents.
 * Also a hard link to a symlink, a sparse file and read-only directories.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/engine.h"
#include "wltest.h"

TestSuite(untar_write);

static char listing[65536];
static size_t listing_len, listing_root;

/* "path type [-> target] [size nlink: content]" of one entry. */
static int
list_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	char target[PATH_MAX] = "", data[64] = "";
	const char *rel = path + listing_root;
	ssize_t n;
	FILE *fp;

	(void)flag;
	(void)f;
	if (*rel == '/')
		rel++;
	if (*rel == '\0')
		return 0;
	if (S_ISLNK(st->st_mode) &&
	    (n = readlink(path, target, sizeof target - 1)) >= 0)
		target[n] = '\0';
	if (S_ISREG(st->st_mode) && (fp = fopen(path, "r")) != NULL) {
		data[fread(data, 1, sizeof data - 1, fp)] = '\0';
		fclose(fp);
	}
	listing_len += (size_t)snprintf(listing + listing_len,
	    sizeof listing - listing_len, "%s %c %s %lld %lu: %s\n", rel,
	    S_ISDIR(st->st_mode)       ? 'd'
		: S_ISLNK(st->st_mode) ? 'l'
		: S_ISREG(st->st_mode) ? 'f'
				       : '?',
	    target, S_ISREG(st->st_mode) ? (long long)st->st_size : 0LL,
	    S_ISREG(st->st_mode) ? (unsigned long)st->st_nlink : 0UL, data);
	return 0;
}

static int
line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tree under dir, one sorted line per entry, without the one for
   skip (NULL: all); caller frees. */
static char *
tree_listing(const char *dir, const char *skip)
{
	char *lines[512], *out, *p;
	size_t n = 0, i, len = 0;

	listing_len = 0;
	listing_root = strlen(dir);
	cr_assert_eq(nftw(dir, list_one, 16, FTW_PHYS), 0);
	for (p = strtok(listing, "\n"); p != NULL && n < 512;
	     p = strtok(NULL, "\n"))
		lines[n++] = p;
	qsort(lines, n, sizeof *lines, line_cmp);
	out = malloc(listing_len + 1);
	cr_assert_not_null(out);
	for (i = 0; i < n; i++)
		if (skip == NULL ||
		    strncmp(lines[i], skip, strlen(skip)) != 0 ||
		    lines[i][strlen(skip)] != ' ')
			len += (size_t)sprintf(out + len, "%s\n", lines[i]);
	out[len] = '\0';
	return out;
}

/*
 * The run's tree against GNU tar's extraction of the same archive, but
 * for skip: GNU tar knows its placeholders by device and inode only, so
 * a file that replaced one and got its freed inode number back is taken
 * for it and replaced by the symlink; raidlab also wants the placeholder
 * still empty and mode 0, and keeps the file.
 */
static void
same_as_gnu_tar(const char *tarball, const char *dir, const char *peer,
    const char *skip)
{
	const char *x[] = { "tar", "xf", tarball, "-C", peer, NULL };
	char *ours, *theirs;

	cr_assert_eq(mkdir(peer, 0755), 0);
	/* GNU tar exits 2 after refusing members: the tree is the point. */
	wltest_cmd(x);
	ours = tree_listing(dir, skip);
	theirs = tree_listing(peer, skip);
	cr_assert_str_eq(ours, theirs, "raidlab:\n%s\nGNU tar:\n%s", ours,
	    theirs);
	free(ours);
	free(theirs);
	wltest_rm_rf(peer);
}

/* A run of the untar workload on tarball, kept; its directory in dir. */
static struct wl_result *
untar_kept(const struct wltest_target *tg, const char *tarball, char *dir,
    size_t len)
{
	char cfg[4200];
	struct wl_result *r;

	snprintf(cfg, sizeof cfg, "tarball = \"%s\"; keep = true;", tarball);
	r = wltest_run(&wl_untar, cfg, tg->dir, LAB_CACHE_KEEP, NULL, NULL, 60);
	cr_assert_eq(r->status, WL_OK, "%s", r->error ? r->error : "");
	wltest_run_dir(tg->dir, dir, len);
	cr_assert_neq(dir[0], '\0', "no run directory kept");
	return r;
}

/* Every way out GNU tar's delayed links and name rules close. */
static void
write_hostile(const char *tarball, const char *out)
{
	struct archive *a = archive_write_new();
	char abs[4200], victim[4200], up[4200];

	snprintf(abs, sizeof abs, "%s/abs", out);
	snprintf(victim, sizeof victim, "%s/victim", out);
	snprintf(up, sizeof up, "../../..%s/victim", out);
	archive_write_set_format_pax_restricted(a);
	cr_assert_eq(archive_write_open_filename(a, tarball), ARCHIVE_OK);
	wltest_tar_add(a, "../escape", 0, NULL, "x");
	wltest_tar_add(a, "ok/../../escape2", 0, NULL, "x");
	wltest_tar_add(a, abs, 0, NULL, "x");
	/* A symlink out, then a member through it. */
	wltest_tar_add(a, "lnk", AE_IFLNK, out, NULL);
	wltest_tar_add(a, "lnk/evil", 0, NULL, "x");
	/* Hard links to an outside file, by absolute and by ../ path. */
	wltest_tar_add(a, "hl", WLTEST_TAR_HARD, victim, NULL);
	wltest_tar_add(a, "hl2", WLTEST_TAR_HARD, up, NULL);
	/* A hard link to a symlink out, then a member through it. */
	wltest_tar_add(a, "sl", AE_IFLNK, out, NULL);
	wltest_tar_add(a, "hsl", WLTEST_TAR_HARD, "sl", NULL);
	wltest_tar_add(a, "hsl/evil", 0, NULL, "x");
	/* A symlink replaced by a directory, then a member in that. */
	wltest_tar_add(a, "sd", AE_IFLNK, out, NULL);
	wltest_tar_add(a, "sd", AE_IFDIR, NULL, NULL);
	wltest_tar_add(a, "sd/f", 0, NULL, "in");
	/* A chain: a -> b -> out. */
	wltest_tar_add(a, "chain_a", AE_IFLNK, "chain_b", NULL);
	wltest_tar_add(a, "chain_b", AE_IFLNK, out, NULL);
	wltest_tar_add(a, "chain_a/evil", 0, NULL, "x");
	/* A symlink to an outside file, then a file of that name. */
	wltest_tar_add(a, "sf", AE_IFLNK, victim, NULL);
	wltest_tar_add(a, "sf", 0, NULL, "mine");
	/* A hard link to a file, then a file of the link's name. */
	wltest_tar_add(a, "good", 0, NULL, "fine");
	wltest_tar_add(a, "hgood", WLTEST_TAR_HARD, "good", NULL);
	wltest_tar_add(a, "hgood", 0, NULL, "other");
	/* Duplicates: a file, then a symlink out of that name, then
	   through it. */
	wltest_tar_add(a, "dup", 0, NULL, "one");
	wltest_tar_add(a, "dup", AE_IFLNK, out, NULL);
	wltest_tar_add(a, "dup/x", 0, NULL, "x");
	wltest_tar_add(a, "dotdot", AE_IFLNK, "../../..", NULL);
	wltest_tar_add(a, "dotdot/evil", 0, NULL, "x");
	/* A symlink over a directory that is not empty. */
	wltest_tar_add(a, "dir/sub", AE_IFDIR, NULL, NULL);
	wltest_tar_add(a, "dir", AE_IFLNK, out, NULL);
	wltest_tar_add(a, "dir/sub/f", 0, NULL, "in");
	cr_assert_eq(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

Test(untar_write, hostile_archive_is_contained_as_gnu_tar_contains_it)
{
	struct wltest_target tg;
	struct wl_result *r;
	char tarball[4096], out[4096], dir[4096], peer[4200], p[8192];
	char *left;
	struct stat st;
	FILE *f;

	wltest_target_dir(&tg);
	snprintf(tarball, sizeof tarball, "%s.tar", tg.dir);
	snprintf(out, sizeof out, "%s.outside", tg.dir);
	snprintf(peer, sizeof peer, "%s.tar-x", tg.dir);
	cr_assert_eq(mkdir(out, 0755), 0);
	snprintf(p, sizeof p, "%s/victim", out);
	cr_assert_not_null(f = fopen(p, "w"));
	fputs("orig", f);
	fclose(f);
	write_hostile(tarball, out);

	r = untar_kept(&tg, tarball, dir, sizeof dir);
	/* Outside: the victim as it was, nothing else. */
	left = tree_listing(out, NULL);
	cr_assert_str_eq(left, "victim f  4 1: orig\n", "outside: %s", left);
	free(left);
	snprintf(p, sizeof p, "%s/escape", tg.dir);
	cr_assert_neq(lstat(p, &st), 0, "../escape written next to the run");
	snprintf(p, sizeof p, "%s/../escape2", tg.dir);
	cr_assert_neq(lstat(p, &st), 0, "escape2 written outside");
	snprintf(p, sizeof p, "%s/escape", dir);
	cr_assert_neq(lstat(p, &st), 0, "a name with \"..\" extracted");
	/* Inside, what a user checks first: the refused ones noted. */
	snprintf(p, sizeof p, "%s/sd/f", dir);
	cr_assert_eq(lstat(p, &st), 0, "the directory over a symlink");
	cr_assert_geq(r->nnotes, 2, "renamed and skipped entries not noted");
	/* The file that replaced the symlink's placeholder won. */
	snprintf(p, sizeof p, "%s/sf", dir);
	cr_assert_eq(lstat(p, &st), 0);
	cr_assert(S_ISREG(st.st_mode) && st.st_size == 4,
	    "sf is not the file \"mine\" that came after the symlink");
	same_as_gnu_tar(tarball, dir, peer, "sf");
	wl_result_free(r);
	unlink(tarball);
	wltest_rm_rf(out);
	wltest_target_free(&tg);
}

/* What GNU tar --compare checks (modes, times, owners, contents, link
   targets) on a tree with a sparse file, a hard link to a symlink and
   directories without write permission. */
Test(untar_write, modes_times_and_links_as_gnu_tar_compares)
{
	struct wltest_target tg;
	struct wl_result *r;
	char src[4096], tarball[4200], dir[4096], p[8300], l[8300], t[64];
	const char *mk[] = { "tar", "cSf", tarball, "-C", src, ".", NULL };
	const char *cmp[] = { "tar", "--compare", "-f", tarball, "-C", dir,
		NULL };
	FILE *f;

	wltest_target_dir(&tg);
	snprintf(src, sizeof src, "%s.src", tg.dir);
	snprintf(tarball, sizeof tarball, "%s.tar", tg.dir);
	cr_assert_eq(mkdir(src, 0755), 0);
	snprintf(p, sizeof p, "%s/ro", src);
	cr_assert_eq(mkdir(p, 0555), 0);
	snprintf(p, sizeof p, "%s/ro/sparse", src);
	cr_assert_not_null(f = fopen(p, "w"));
	cr_assert_eq(fseek(f, 1 << 20, SEEK_SET), 0);
	fputs("end", f);
	fclose(f);
	cr_assert_eq(chmod(p, 04751), 0);
	snprintf(p, sizeof p, "%s/ro/l", src);
	cr_assert_eq(symlink("sparse", p), 0);
	snprintf(l, sizeof l, "%s/ro/l", src);
	snprintf(p, sizeof p, "%s/ro/l2", src);
	/* Without AT_SYMLINK_FOLLOW: a second name of the symlink. */
	cr_assert_eq(linkat(AT_FDCWD, l, AT_FDCWD, p, 0), 0);
	cr_assert_eq(wltest_cmd(mk), 0, "GNU tar cSf failed");
	r = untar_kept(&tg, tarball, dir, sizeof dir);
	cr_assert_eq(wltest_cmd(cmp), 0, "tar --compare finds differences");
	snprintf(p, sizeof p, "%s/ro/l2", dir);
	cr_assert_eq(readlink(p, t, sizeof t), 6,
	    "the hard link to a symlink is no symlink to \"sparse\"");
	wl_result_free(r);
	unlink(tarball);
	snprintf(p, sizeof p, "%s/ro", src);
	chmod(p, 0755);
	wltest_rm_rf(src);
	wltest_target_free(&tg);
}

static char dir_times[8192];
static size_t dir_times_len, dir_times_root;

/* "path archive" or "path extraction" of one directory ("." the top):
   every directory of the source has the mtime 10^9, the extraction is
   later. */
static int
dir_time_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	const char *rel = path + dir_times_root;

	(void)flag;
	(void)f;
	if (!S_ISDIR(st->st_mode))
		return 0;
	dir_times_len += (size_t)snprintf(dir_times + dir_times_len,
	    sizeof dir_times - dir_times_len, "%s %s\n",
	    rel[0] == '\0' ? "." : rel + 1,
	    st->st_mtime == 1000000000 ? "archive" : "extraction");
	return 0;
}

/* The directories under dir with where their mtime came from, sorted
   (nftw's order is the filesystem's); caller frees. */
static char *
dir_time_listing(const char *dir)
{
	char *lines[64], *out, *p;
	size_t n = 0, i, len = 0;

	dir_times_len = 0;
	dir_times_root = strlen(dir);
	cr_assert_eq(nftw(dir, dir_time_one, 16, FTW_PHYS), 0);
	for (p = strtok(dir_times, "\n"); p != NULL && n < 64;
	     p = strtok(NULL, "\n"))
		lines[n++] = p;
	qsort(lines, n, sizeof *lines, line_cmp);
	cr_assert_not_null(out = malloc(dir_times_len + 1));
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(out + len, "%s\n", lines[i]);
	out[len] = '\0';
	return out;
}

/* A source tree for GNU tar: dirs, empty files, symlinks ("name" then
   "target", NULL-terminated lists); then every directory, the top
   too, gets the mtime 10^9. */
static void
make_dated_source(const char *src, const char *const *dirs,
    const char *const *files, const char *const *links)
{
	struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	char p[4200];
	FILE *fp;

	cr_assert_eq(mkdir(src, 0755), 0);
	for (size_t i = 0; dirs[i] != NULL; i++) {
		snprintf(p, sizeof p, "%s/%s", src, dirs[i]);
		cr_assert_eq(mkdir(p, 0755), 0, "%s", p);
	}
	for (size_t i = 0; files[i] != NULL; i++) {
		snprintf(p, sizeof p, "%s/%s", src, files[i]);
		cr_assert_not_null(fp = fopen(p, "w"), "%s", p);
		fclose(fp);
	}
	for (size_t i = 0; links[i] != NULL; i += 2) {
		snprintf(p, sizeof p, "%s/%s", src, links[i]);
		cr_assert_eq(symlink(links[i + 1], p), 0, "%s", p);
	}
	for (size_t i = 0; dirs[i] != NULL; i++) {
		snprintf(p, sizeof p, "%s/%s", src, dirs[i]);
		cr_assert_eq(utimensat(AT_FDCWD, p, old, 0), 0, "%s", p);
	}
	cr_assert_eq(utimensat(AT_FDCWD, src, old, 0), 0, "%s", src);
}

/*
 * tarball extracted by raidlab and by GNU tar: their directories must
 * get their mtimes from the same place. GNU tar's listing is returned
 * (caller frees), for the caller to check it is not a vacuous match.
 */
static char *
dir_times_as_gnu_tar(const struct wltest_target *tg, const char *tarball)
{
	char dir[4096], peer[4200];
	const char *x[] = { "tar", "xf", tarball, "-C", peer, NULL };
	struct wl_result *r;
	char *ours, *theirs;

	snprintf(peer, sizeof peer, "%s.tar-x", tg->dir);
	r = untar_kept(tg, tarball, dir, sizeof dir);
	cr_assert_eq(mkdir(peer, 0755), 0);
	cr_assert_eq(wltest_cmd(x), 0, "GNU tar xf failed");
	ours = dir_time_listing(dir);
	theirs = dir_time_listing(peer);
	cr_assert_str_eq(ours, theirs, "raidlab:\n%s\nGNU tar:\n%s", ours,
	    theirs);
	free(ours);
	wl_result_free(r);
	wltest_rm_rf(peer);
	return theirs;
}

/*
 * A directory whose members are apart in the archive: GNU tar sets its
 * times when it leaves it, and a later member made in it gives it the
 * extraction time (glibc's tarball has 10 such). raidlab's directories
 * must get their mtimes from where tar's do.
 */
Test(untar_write, directory_members_apart_get_mtimes_as_gnu_tar)
{
	static const char *const dirs[] = { "d", "e", "e/s", "p", "p/q", NULL };
	static const char *const files[] = { "d/a", "d/b", "o", "e/s/f", "e/g",
		"e/s/h", "x", "p/q/r", NULL };
	static const char *const links[] = { NULL };
	struct wltest_target tg;
	char src[4096], tarball[4200], *theirs;
	/* The order is the point: d/b after o, e/s/h after e/g, p/q/r (its
	   parent p/q not a member) after x. */
	const char *mk[] = { "tar", "cf", tarball, "--no-recursion", "-C", src,
		"d", "d/a", "o", "d/b", "e", "e/s", "e/s/f", "e/g", "e/s/h",
		"p", "x", "p/q/r", NULL };

	wltest_target_dir(&tg);
	snprintf(src, sizeof src, "%s.src", tg.dir);
	snprintf(tarball, sizeof tarball, "%s.tar", tg.dir);
	make_dated_source(src, dirs, files, links);
	cr_assert_eq(wltest_cmd(mk), 0, "GNU tar cf failed");
	theirs = dir_times_as_gnu_tar(&tg, tarball);
	/* Not a vacuous match: both sources of mtimes are there. */
	cr_assert_not_null(strstr(theirs, "d extraction"), "%s", theirs);
	cr_assert_not_null(strstr(theirs, "e archive"), "%s", theirs);
	free(theirs);
	unlink(tarball);
	wltest_rm_rf(src);
	wltest_target_free(&tg);
}

/*
 * raidlab makes every symlink at the end; GNU tar makes most at once
 * and defers only those to an absolute or ".." target, whose directory
 * and the directories it is in then get their times after the links,
 * later members or not, as "." does (glibc's benchtests/strcoll-inputs,
 * 19 directories of linux-source-6.1). Making a link at the end must
 * not give a directory the extraction time where tar's has the
 * archive's, nor the reverse.
 */
Test(untar_write, directories_with_symlinks_get_mtimes_as_gnu_tar)
{
	static const char *const dirs[] = { "a", "b", "c", "c/e", "f", "g",
		NULL };
	static const char *const files[] = { "a/x", "b/x", "c/e/x", "f/x",
		"g/x", "o", "b/late", "c/late", "f/late", "g/late", NULL };
	static const char *const links[] = { "a/safe", "x", "b/up", "../o",
		"c/e/up", "../../o", "f/abs", "/nonexistent/x", "g/safe", "x",
		NULL };
	struct wltest_target tg;
	char src[4096], tarball[4200], *theirs;
	/* a: a link tar makes at once; b, c/e, f: links it defers, then a
	   member apart (in b, in c, in f); g: a link made at once, then
	   a member apart. "." first. */
	const char *mk[] = { "tar", "cf", tarball, "--no-recursion", "-C", src,
		".", "a", "a/safe", "a/x", "b", "b/up", "b/x", "o", "b/late",
		"c", "c/e", "c/e/up", "c/e/x", "o", "c/late", "f", "f/abs",
		"f/x", "o", "f/late", "g", "g/safe", "g/x", "o", "g/late",
		NULL };

	wltest_target_dir(&tg);
	snprintf(src, sizeof src, "%s.src", tg.dir);
	snprintf(tarball, sizeof tarball, "%s.tar", tg.dir);
	make_dated_source(src, dirs, files, links);
	cr_assert_eq(wltest_cmd(mk), 0, "GNU tar cf failed");
	theirs = dir_times_as_gnu_tar(&tg, tarball);
	cr_assert_str_eq(theirs,
	    ". archive\na archive\nb archive\nc archive\nc/e archive\n"
	    "f archive\ng extraction\n");
	free(theirs);
	unlink(tarball);
	wltest_rm_rf(src);
	wltest_target_free(&tg);
}
