/*
 * Internal to the Lab files screen (tui-files.c: the list, opening,
 * saving, the dialogs; tui-files-draw.c: drawing them;
 * tui-files-recent.c: where labs live and the recent labs file). UI
 * thread only.
 */
#ifndef RAIDLAB_TUI_FILES_INT_H
#define RAIDLAB_TUI_FILES_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "tui-files.h"
#include "tui.h"

struct err;

#define TUI_FILES_ERRBUF (ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16)

struct files_entry {
	char *path;
	char *name; /* the lab's name, or the file's */
	char *about; /* description, or why it does not load */
	bool preset, bad;
};

enum files_mode {
	FILES_MODE_LIST,
	FILES_MODE_OPEN_PATH, /* typing a path to open */
	FILES_MODE_SAVE_PATH, /* typing a path to save to */
	FILES_MODE_ASK_OPEN, /* unsaved changes: before opening pending */
	FILES_MODE_ASK_QUIT, /* unsaved changes: before quitting */
	FILES_MODE_ASK_NEW, /* unsaved changes: before a new lab */
	FILES_MODE_NEW_NAME, /* typing the name of a new lab */
	FILES_MODE_NAME, /* typing the lab's new name */
	FILES_MODE_ABOUT, /* typing the lab's description */
};

struct files {
	struct files_entry *v; /* recent labs, then presets */
	size_t n, nrecent;
	size_t sel, top;
	size_t shown; /* list rows in the last frame, for clicks */
	enum files_mode mode;
	struct tui_path field;
	char *pending; /* the lab to open after the question */
	char *replace; /* save-as target already confirmed to replace */
	bool quit_after_save;
	bool new_after_save; /* then ask the new lab's name */
	struct errlist errs; /* problems of the last lab opened or saved */
	char *errs_path;
	bool errs_fatal; /* it was not loaded */
	bool entered; /* the screen was shown before */
	char *presets; /* the presets' directory */
	char *mine; /* the user's lab directory, or NULL */
	char *new_from; /* the lab a new one copies, or NULL: empty */
};

/* Body row of the list's first line (under its title). */
#define TUI_FILES_LIST_Y 6

/* The screen's body: the lab, the list, problems, a field or dialog. */
void tui_files_draw(void *p, struct tui *t, WINDOW *w);

/* Recent labs kept. */
#define TUI_FILES_RECENT_MAX 10

/* An absolute form of path (realpath when it exists). */
char *tui_files_absolute(const char *path);

/* path (absolute or not) names something inside dir. */
bool tui_files_in_dir(const char *path, const char *dir);

/*
 * The recent labs, most recent first, as absolute paths: the lines of
 * $XDG_STATE_HOME/raidlab/recent (an absolute XDG_STATE_HOME only), else
 * ~/.local/state/raidlab/recent. *n gets the count; an absent file is an
 * empty list.
 */
char **tui_files_recent_read(size_t *n);

/*
 * Put path first in the recent labs (at most TUI_FILES_RECENT_MAX, no
 * duplicates; paths inside skip_dir, the presets, are not kept), written
 * atomically. Returns 0 or a negative errno with e filled.
 */
int tui_files_recent_add(const char *path, const char *skip_dir, struct err *e);

void tui_files_strv_free(char **v, size_t n);

#endif
