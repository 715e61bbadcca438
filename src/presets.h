/*
 * Where the lab presets (data/labs/NAME.cfg) are found, for every front
 * end alike: $RAIDLAB_DATADIR/labs when it is set; else, when this very
 * binary runs uninstalled from the build tree it was built in (VPATH
 * builds such as make distcheck's included), the source tree's
 * data/labs; else the installed $(pkgdatadir)/labs when it exists;
 * else the source tree's data/labs when a binary copied out of its build
 * tree (never installed) still finds it; else $(pkgdatadir)/labs. The
 * build tree is recognised by the directory holding the running
 * executable being the one raidlab was built in (compared by device and
 * inode), never by what happens to lie next to it: an installed binary
 * does not pick up a stray data/ directory. Any thread.
 *
 * The user's own labs live in presets_user_dir().
 */
#ifndef RAIDLAB_PRESETS_H
#define RAIDLAB_PRESETS_H

#include <stdbool.h>

/* The presets' directory (it may not exist). Caller frees. */
char *presets_dir(void);

/*
 * The user's lab directory: $XDG_CONFIG_HOME/raidlab/labs (an absolute
 * XDG_CONFIG_HOME only), else ~/.config/raidlab/labs; NULL without a
 * home. It may not exist. Caller frees.
 */
char *presets_user_dir(void);

/* True when the running executable is the one in its build tree. */
bool presets_uninstalled(void);

/*
 * The lab file a name given by the user means: arg itself when it has a
 * '/' or exists; else the user's own presets_user_dir()/ARG.cfg (".cfg"
 * optional; the labs the TUI saves), which shadows a preset of the same
 * name; else presets_dir()/ARG.cfg; else NULL. Caller frees.
 */
char *presets_find(const char *arg);

#endif
