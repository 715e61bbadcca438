/*
 * The ssh transport's pure half: the remote command line, checked against
 * a real POSIX shell (each quoted line run through /bin/sh must give back
 * exactly the argv), and the client's argv (BatchMode always, the
 * destination after "--", one word for the remote line, bad addresses
 * refused).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "build/exec.h"
#include "fleet/ssh.h"

/* The words sh parses from ssh_quote(argv) equal argv, one by one. */
static void
assert_round_trip(const char *const *argv)
{
	char *line = ssh_quote(argv), *script, *out;
	const char *sh[] = { "sh", "-c", NULL, NULL };
	struct exec_result r;
	struct strbuf want;
	size_t i;

	/* Each word on its own line, framed, so that an empty word or a
	   trailing newline shows. */
	script = malloc(strlen(line) + 64);
	sprintf(script, "for w in %s; do printf '<%%s>' \"$w\"; done", line);
	sh[2] = script;
	cr_assert_eq(exec_run(sh, NULL, &r), 0, "sh failed on %s", line);
	strbuf_init(&want);
	for (i = 0; argv[i] != NULL; i++)
		strbuf_printf(&want, "<%s>", argv[i]);
	out = r.output;
	cr_expect_str_eq(out, want.s, "line %s", line);
	strbuf_done(&want);
	exec_result_done(&r);
	free(script);
	free(line);
}

Test(ssh, plain_words_stay_bare)
{
	const char *argv[] = { "raidlab", "run", "--json", "/tmp/a.cfg", NULL };
	char *l = ssh_quote(argv);

	cr_expect_str_eq(l, "raidlab run --json /tmp/a.cfg");
	free(l);
}

Test(ssh, quotes_what_the_shell_would_read)
{
	const char *argv[] = { "raidlab", "", "a b", "it's", "A=b", "~x",
		NULL };
	char *l = ssh_quote(argv);

	cr_expect_str_eq(l, "raidlab '' 'a b' 'it'\\''s' 'A=b' '~x'");
	free(l);
}

Test(ssh, awkward_words_survive_a_real_shell)
{
	const char *a1[] = { "/tmp/my lab/x.cfg", "$(echo run)", "`id`",
		"a;b|c&d", "*", "?", "[a]", "'", "''", "\\", "\"", "$HOME",
		"-n", "tab\there", "new\nline", "", "{a,b}", "!x", "#hash",
		"trailing\n", "ümlaut", "it's a 'x' b", NULL };

	assert_round_trip(a1);
}

/* Index of word w in v, or -1. */
static int
find(char **v, const char *w)
{
	int i;

	for (i = 0; v[i] != NULL; i++)
		if (strcmp(v[i], w) == 0)
			return i;
	return -1;
}

Test(ssh, argv_has_batch_mode_and_one_remote_word)
{
	struct ssh_host h = { .address = "127.0.0.2",
		.user = "root",
		.port = 2222,
		.config = "/tmp/c f" };
	const char *remote[] = { "echo", "a b", NULL };
	char **v = ssh_argv(&h, remote);
	int i, dd;

	cr_assert_not_null(v);
	cr_expect_str_eq(v[0], "ssh");
	cr_expect_geq(i = find(v, "BatchMode=yes"), 1);
	cr_expect_str_eq(v[i - 1], "-o");
	cr_expect_str_eq(v[find(v, "-F") + 1], "/tmp/c f");
	cr_expect_str_eq(v[find(v, "-l") + 1], "root");
	cr_expect_str_eq(v[find(v, "-p") + 1], "2222");
	cr_expect_geq(find(v, "ConnectTimeout=10"), 0);
	cr_expect_geq(find(v, "-T"), 0);
	dd = find(v, "--");
	cr_assert_geq(dd, 0);
	cr_expect_str_eq(v[dd + 1], "127.0.0.2");
	cr_expect_str_eq(v[dd + 2], "echo 'a b'");
	cr_expect_null(v[dd + 3]);
	ssh_argv_free(v);
}

Test(ssh, argv_leaves_defaults_to_ssh)
{
	struct ssh_host h = { .address = "node1", .connect_timeout = 3 };
	const char *remote[] = { "true", NULL };
	char **v = ssh_argv(&h, remote);

	cr_assert_not_null(v);
	cr_expect_eq(find(v, "-F"), -1);
	cr_expect_eq(find(v, "-l"), -1);
	cr_expect_eq(find(v, "-p"), -1);
	cr_expect_geq(find(v, "ConnectTimeout=3"), 0);
	ssh_argv_free(v);
}

Test(ssh, argv_refuses_an_address_ssh_would_take_for_an_option)
{
	struct ssh_host h = { .address = "-oProxyCommand=x" };
	struct ssh_host none = { .name = "n" };
	const char *remote[] = { "true", NULL };
	const char *empty[] = { NULL };

	cr_expect_null(ssh_argv(&h, remote));
	cr_expect_null(ssh_argv(&none, remote));
	h.address = "127.0.0.2";
	cr_expect_null(ssh_argv(&h, empty));
}

Test(ssh, run_refuses_a_bad_host_with_its_name)
{
	struct ssh_host h = { .name = "node7", .address = "-x" };
	const char *remote[] = { "true", NULL };
	struct exec_result r;
	struct err e;

	err_clear(&e);
	cr_expect_eq(ssh_run(&h, remote, NULL, &r, &e), -EINVAL);
	cr_expect(strstr(e.msg, "node7") != NULL, "%s", e.msg);
	exec_result_done(&r);
}

Test(ssh, host_name_falls_back_to_the_address)
{
	struct ssh_host h = { .address = "127.0.0.3" };

	cr_expect_str_eq(ssh_host_name(&h), "127.0.0.3");
	h.name = "b";
	cr_expect_str_eq(ssh_host_name(&h), "b");
}
