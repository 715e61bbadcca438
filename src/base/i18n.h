/*
 * Gettext glue: every user-visible string goes through _() (or N_() where
 * it is a static initializer translated later). Safe from any thread.
 */
#ifndef RAIDLAB_I18N_H
#define RAIDLAB_I18N_H

#ifdef ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) (s)
#define ngettext(s, p, n) ((n) == 1 ? (s) : (p))
#endif
#define N_(s) (s)

#endif
