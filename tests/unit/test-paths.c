/*
 * Where raidlab's files are (paths.h): the home, the XDG base
 * directories, and the lab file a name means (the user's own before a
 * preset's).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/paths.h"
#include "base/xalloc.h"

/* The user's labs: an absolute XDG_CONFIG_HOME, else ~/.config (a
   relative XDG_CONFIG_HOME is ignored, as the XDG spec says). */
Test(paths, user_lab_dir_follows_xdg_config_home)
{
	char *d;

	setenv("HOME", "/home/ann", 1);
	setenv("XDG_CONFIG_HOME", "/tmp/cfg", 1);
	d = paths_user_labs();
	cr_assert_str_eq(d, "/tmp/cfg/raidlab/labs");
	free(d);
	setenv("XDG_CONFIG_HOME", "rel", 1);
	d = paths_user_labs();
	cr_assert_str_eq(d, "/home/ann/.config/raidlab/labs");
	free(d);
}

/* HOME unset, empty or relative: the password database's home, the one
   rule for the user's labs, the recent labs and the results alike. */
Test(paths, home_without_an_absolute_home_is_the_password_databases)
{
	struct passwd *pw = getpwuid(getuid());
	const char *bad[] = { NULL, "", "relative/home" };

	cr_assert_not_null(pw);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (bad[i] == NULL)
			unsetenv("HOME");
		else
			setenv("HOME", bad[i], 1);
		cr_assert_str_eq(paths_home(), pw->pw_dir, "HOME %s",
		    bad[i] ? bad[i] : "unset");
	}
	setenv("HOME", "/home/ann", 1);
	cr_assert_str_eq(paths_home(), "/home/ann");
}

Test(paths, xdg_directories_with_and_without_a_sub_directory)
{
	char *d;

	setenv("HOME", "/home/ann", 1);
	unsetenv("XDG_STATE_HOME");
	d = paths_xdg("XDG_STATE_HOME", ".local/state", "recent");
	cr_assert_str_eq(d, "/home/ann/.local/state/raidlab/recent");
	free(d);
	setenv("XDG_CACHE_HOME", "/var/x", 1);
	d = paths_xdg("XDG_CACHE_HOME", ".cache", NULL);
	cr_assert_str_eq(d, "/var/x/raidlab");
	free(d);
}

Test(paths, tilde_expands_only_as_a_whole_first_word)
{
	static const char *const cases[][2] = {
		{ "~", "/home/ann" },
		{ "~/labs/a.cfg", "/home/ann/labs/a.cfg" },
		{ "~ann/x", "~ann/x" },
		{ "a/~/b", "a/~/b" },
		{ "/abs", "/abs" },
	};

	setenv("HOME", "/home/ann", 1);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *p = paths_expand(cases[i][0]);

		cr_assert_str_eq(p, cases[i][1], "%s", cases[i][0]);
		free(p);
	}
}

static void
touch(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	cr_assert_not_null(f, "%s", p);
	fclose(f);
	free(p);
}

/* A lab saved under a preset's name is the one the user means; ".cfg" is
   optional; a name found nowhere is left for the loader to name. */
Test(paths, a_users_lab_shadows_the_preset_of_its_name)
{
	char tmp[] = "/tmp/raidlab-paths-XXXXXX";
	char *data, *labs, *mine, *p, *want;

	cr_assert_not_null(mkdtemp(tmp));
	data = xasprintf("%s/data", tmp);
	labs = xasprintf("%s/data/labs", tmp);
	mine = xasprintf("%s/cfg/raidlab/labs", tmp);
	cr_assert_eq(mkdir(data, 0700), 0);
	cr_assert_eq(mkdir(labs, 0700), 0);
	p = xasprintf("%s/cfg", tmp);
	cr_assert_eq(mkdir(p, 0700), 0);
	free(p);
	p = xasprintf("%s/cfg/raidlab", tmp);
	cr_assert_eq(mkdir(p, 0700), 0);
	free(p);
	cr_assert_eq(mkdir(mine, 0700), 0);
	touch(labs, "quick.cfg");
	touch(labs, "seed.cfg");
	touch(mine, "quick.cfg");
	setenv("RAIDLAB_DATADIR", data, 1);
	p = xasprintf("%s/cfg", tmp);
	setenv("XDG_CONFIG_HOME", p, 1);
	free(p);
	/* Run from the temporary directory: no "quick" lies in it. */
	cr_assert_eq(chdir(tmp), 0);

	p = paths_find_lab("quick");
	want = xasprintf("%s/quick.cfg", mine);
	cr_assert_str_eq(p, want);
	free(p);
	free(want);
	p = paths_find_lab("seed.cfg");
	want = xasprintf("%s/seed.cfg", labs);
	cr_assert_str_eq(p, want);
	free(p);
	free(want);
	cr_assert_null(paths_find_lab("nothing"));
	p = paths_lab("nothing");
	cr_assert_str_eq(p, "nothing");
	free(p);
	p = paths_lab("./quick");
	cr_assert_str_eq(p, "./quick", "a path is the path, found or not");
	free(p);
	free(data);
	free(labs);
	free(mine);
	p = xasprintf("rm -rf '%s'", tmp);
	cr_assert_eq(system(p), 0);
	free(p);
}
