/*
 * Trusting the state directory (statej-dir): a directory or journal
 * another user could have written is refused. Part of the test-statej
 * program (unit-statej.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "build/statej.h"
#include "unit-statej.h"

/* A journal of a dead raidlab naming file with its true identity. */
static char *
forged_journal(const char *file)
{
	char *id = ident_line(1, file), *rest, *jp;

	rest = xasprintf("{\"op\":\"add\",\"id\":1,\"kind\":\"file\","
			 "\"name\":\"%s\"}\n%s",
	    file, id);
	jp = fake_journal(dead_pid(), 1, rest);
	free(rest);
	free(id);
	return jp;
}

Test(statej, a_state_directory_open_to_others_is_refused)
{
	char *file = tpath("precious"), *jp, *out;
	struct statej *j = NULL;
	struct err e;

	write_file(file, "precious");
	jp = forged_journal(file);
	cr_assert_eq(chmod(state_dir, 0755), 0);
	err_clear(&e);
	cr_assert_eq(statej_open(&j, &e), -EPERM);
	cr_assert_null(j);
	cr_expect_not_null(strstr(e.msg, "with mode 0755: refused"), "%s",
	    e.msg);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted a directory open to others");
	free(out);
	/* Its own again: the journal is believed. */
	cr_assert_eq(chmod(state_dir, 0700), 0);
	cr_assert_eq(cleanup(false, &out), 0, "%s", out);
	cr_assert_not(exists(file));
	free(out);
	free(jp);
	free(file);
}

Test(statej, a_journal_open_to_others_is_refused)
{
	char *file = tpath("precious"), *jp, *out;

	write_file(file, "precious");
	jp = forged_journal(file);
	cr_assert_eq(chmod(jp, 0644), 0);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted a journal open to others");
	cr_expect_not_null(strstr(out, "with mode 0644: refused"), "%s", out);
	cr_assert(exists(jp));
	free(out);
	free(jp);
	free(file);
}

Test(statej, a_state_directory_of_another_user_is_refused)
{
	char *file = tpath("precious"), *jp, *out;
	struct statej *j = NULL;
	struct err e;

	if (geteuid() != 0)
		cr_skip_test("needs root (chown)");
	write_file(file, "precious");
	jp = forged_journal(file);
	cr_assert_eq(chown(state_dir, 65534, 65534), 0);
	cr_assert_eq(chown(jp, 65534, 65534), 0);
	err_clear(&e);
	/* Made first by somebody else: not taken for the journal. */
	cr_assert_eq(statej_open(&j, &e), -EPERM);
	cr_expect_not_null(strstr(e.msg, "(uid 65534) with mode 0700"), "%s",
	    e.msg);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted another user's journal");
	free(out);
	/* Root's directory, the other user's journal in it. */
	cr_assert_eq(chown(state_dir, 0, 0), 0);
	cr_assert_eq(cleanup(false, &out), -EPERM, "%s", out);
	cr_assert(exists(file), "cleanup trusted another user's journal");
	cr_expect_not_null(strstr(out, "state journal"), "%s", out);
	free(out);
	free(jp);
	free(file);
}
