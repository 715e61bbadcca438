/*
 * Where the Lab files screen finds labs: the presets' directory, paths
 * made absolute or with ~ expanded, and the recent labs file (one
 * absolute path a line, most recent first, replaced atomically). See
 * tui-files-int.h. UI thread only.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "base/xalloc.h"
#include "tui-files-int.h"

/* The file of recent labs, or NULL when there is no home. */
static char *
recent_file(void)
{
	return paths_xdg("XDG_STATE_HOME", ".local/state", "recent");
}

char *
tui_files_absolute(const char *path)
{
	char *r = realpath(path, NULL), cwd[PATH_MAX];

	if (r != NULL)
		return r;
	if (path[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

bool
tui_files_in_dir(const char *path, const char *dir)
{
	char *a, *d;
	size_t n;
	bool in;

	if (path == NULL || dir == NULL)
		return false;
	a = tui_files_absolute(path);
	d = tui_files_absolute(dir);
	n = strlen(d);
	in = strncmp(a, d, n) == 0 && a[n] == '/';
	free(a);
	free(d);
	return in;
}

char **
tui_files_recent_read(size_t *n)
{
	char *file = recent_file(), line[PATH_MAX + 2], **v = NULL;
	FILE *fp = file ? fopen(file, "re") : NULL;

	*n = 0;
	while (fp != NULL && *n < TUI_FILES_RECENT_MAX &&
	    fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '/')
			continue;
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = xstrdup(line);
	}
	if (fp != NULL)
		fclose(fp);
	free(file);
	return v;
}

void
tui_files_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The new file's text: path, then the others as they were. */
static char *
recent_text(const char *abs, char **v, size_t n)
{
	size_t len = strlen(abs) + 2, kept = 1;
	char *text;

	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	text = xcalloc(len, 1);
	strcat(strcat(text, abs), "\n");
	for (size_t i = 0; i < n && kept < TUI_FILES_RECENT_MAX; i++) {
		if (strcmp(v[i], abs) == 0)
			continue;
		strcat(strcat(text, v[i]), "\n");
		kept++;
	}
	return text;
}

int
tui_files_recent_add(const char *path, const char *skip_dir, struct err *e)
{
	char *file = recent_file(), *abs = tui_files_absolute(path), *dir;
	char **v = NULL, *text;
	size_t n = 0;
	int rc = 0;

	if (file == NULL || tui_files_in_dir(abs, skip_dir))
		goto out;
	v = tui_files_recent_read(&n);
	text = recent_text(abs, v, n);
	dir = xstrndup(file, (size_t)(strrchr(file, '/') - file));
	if ((rc = afile_mkdirs(dir, 0755)) < 0)
		err_set(e, rc, dir, 0, NULL, _("cannot create: %s"),
		    strerror(-rc));
	else
		rc = afile_write(file, text, strlen(text), e);
	free(dir);
	free(text);
out:
	tui_files_strv_free(v, n);
	free(abs);
	free(file);
	return rc;
}
