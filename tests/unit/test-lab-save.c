/*
 * Saving a lab (lab-save): the file replaced atomically, no temporary
 * left behind; a save that fails keeps the old file; an unwritable
 * directory fails with a message. Part of the test-lab program
 * (unit-lab.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "unit-lab.h"

static size_t
count_entries(const char *dir)
{
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir(dir);

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = xcalloc(1, 65536);

	cr_assert_not_null(fp);
	cr_assert(fread(buf, 1, 65535, fp) < 65535);
	fclose(fp);
	return buf;
}

Test(lab, save_replaces_the_file_and_leaves_no_temp)
{
	char *dir = tmpdir(), *path = xasprintf("%s/lab.cfg", dir), *text;
	char *fixture = testdata("labs/full.cfg"), *fmt;
	struct lab *lab = must_load(fixture), *again;
	struct err e;

	write_text(path, "old\n");
	err_clear(&e);
	cr_assert_eq(lab_save(lab, path, &e), 0, "%s", e.msg);
	cr_assert_eq(count_entries(dir), 1);
	again = must_load(path);
	cr_assert(lab_equal(lab, again));
	text = slurp(path);
	fmt = lab_format(lab);
	cr_assert_str_eq(text, fmt);
	free(fmt);
	free(text);
	lab_free(again);
	lab_free(lab);
	remove_tree(dir, "lab.cfg");
	free(fixture);
	free(path);
	free(dir);
}

Test(lab, failed_save_keeps_the_old_file)
{
	char *dir = tmpdir(), *path = xasprintf("%s/lab.cfg", dir), *text;
	char *fixture = testdata("labs/full.cfg");
	struct lab *lab = must_load(fixture);
	struct rlimit rl = { 64, 64 };
	struct err e;

	write_text(path, "name = \"old\";\n");
	/* Root ignores permissions, not the file size limit. */
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	err_clear(&e);
	cr_assert_eq(lab_save(lab, path, &e), -EFBIG);
	cr_assert_str_eq(e.file, path);
	cr_assert(strstr(e.msg, "cannot write") != NULL, "%s", e.msg);
	cr_assert_eq(count_entries(dir), 1);
	text = slurp(path);
	cr_assert_str_eq(text, "name = \"old\";\n");
	free(text);
	lab_free(lab);
	remove_tree(dir, "lab.cfg");
	free(fixture);
	free(path);
	free(dir);
}

Test(lab, save_into_unwritable_dir_fails_with_message)
{
	char *dir = tmpdir(), *path = xasprintf("%s/lab.cfg", dir), *text;
	struct lab *lab = lab_new();
	struct err e;

	if (geteuid() == 0) {
		remove_tree(dir, "lab.cfg");
		free(path);
		free(dir);
		lab_free(lab);
		cr_skip_test("root writes into read-only directories");
	}
	write_text(path, "name = \"old\";\n");
	cr_assert_eq(chmod(dir, 0555), 0);
	err_clear(&e);
	cr_assert_eq(lab_save(lab, path, &e), -EACCES);
	cr_assert(strstr(e.msg, "cannot create a temporary file") != NULL, "%s",
	    e.msg);
	chmod(dir, 0755);
	text = slurp(path);
	cr_assert_str_eq(text, "name = \"old\";\n");
	free(text);
	lab_free(lab);
	remove_tree(dir, "lab.cfg");
	free(path);
	free(dir);
}
