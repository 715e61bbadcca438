/*
 * Where raidlab's files are, for every front end alike: the home
 * directory, the XDG base directories, the lab presets, the user's own
 * labs, and the lab file a name given on the command line or typed in
 * the TUI means. Any thread.
 *
 * The presets (data/labs/NAME.cfg): $RAIDLAB_DATADIR/labs when it is
 * set; else, when this very binary runs uninstalled from the build tree
 * it was built in (VPATH builds such as make distcheck's included), the
 * source tree's data/labs; else the installed $(pkgdatadir)/labs when it
 * exists; else the source tree's data/labs when a binary copied out of
 * its build tree (never installed) still finds it; else
 * $(pkgdatadir)/labs. The build tree is recognised by the directory
 * holding the running executable being the one raidlab was built in
 * (compared by device and inode), never by what happens to lie next to
 * it: an installed binary does not pick up a stray data/ directory.
 */
#ifndef RAIDLAB_PATHS_H
#define RAIDLAB_PATHS_H

#include <stdbool.h>

/* The home directory: $HOME when it is an absolute path, else the
   password database's; NULL when neither says. Borrowed. */
const char *paths_home(void);

/* path with a leading "~" or "~/" in the home directory; any other path,
   or any path without a home, as it is. Caller frees. */
char *paths_expand(const char *path);

/*
 * raidlab's directory in an XDG base directory, then sub (NULL: none):
 * $VAR/raidlab/SUB when VAR holds an absolute path (the specification
 * ignores relative ones), else HOME/DFLT/raidlab/SUB
 * ("XDG_STATE_HOME", ".local/state", "recent"); NULL without a home. It
 * may not exist. Caller frees.
 */
char *paths_xdg(const char *var, const char *dflt, const char *sub);

/* The presets' directory (it may not exist). Caller frees. */
char *paths_presets(void);

/* The user's lab directory, where the TUI saves labs: paths_xdg() of
   XDG_CONFIG_HOME, ".config", "labs". Caller frees. */
char *paths_user_labs(void);

/* True when the running executable is the one in its build tree. */
bool paths_uninstalled(void);

/*
 * The lab file a name given by the user means: arg itself when it has a
 * '/' or exists; else the user's own paths_user_labs()/ARG.cfg (".cfg"
 * optional; the labs the TUI saves), which shadows a preset of the same
 * name; else paths_presets()/ARG.cfg; else NULL. Caller frees.
 */
char *paths_find_lab(const char *arg);

/* paths_find_lab(), or arg itself when it finds nothing (the loader then
   names it in its message). Caller frees. */
char *paths_lab(const char *arg);

#endif
