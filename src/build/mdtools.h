/*
 * The md this machine has, as the lab's gates and the record need it:
 * mdadm's version (`mdadm --version`), the running kernel's release, and
 * whether that kernel has md's lockless bitmap (an array's
 * md/bitmap_type lists llbitmap, or /boot/config-RELEASE enables
 * CONFIG_MD_LLBITMAP). Any thread; no state.
 */
#ifndef RAIDLAB_MDTOOLS_H
#define RAIDLAB_MDTOOLS_H

#include <stddef.h>

#include "lab/lab.h"

/* The version in mdadm --version's line ("mdadm - v4.2 - 2021-12-30 -
   Debian 4.2-5") as major * 100 + minor (402), its "4.2" into buf (len
   bytes); 0 (buf "") when the text has none. */
int mdtools_parse_version(const char *text, char *buf, size_t len);

/* Fill t for this machine (sysroot NULL: "/"; tests point it at a
   directory of their own); mdadm not found leaves t->mdadm 0. */
void mdtools_probe_at(const char *sysroot, struct lab_md_tools *t);
/* mdtools_probe_at(NULL, t): lab_check_use_md_tools()'s probe. */
void mdtools_probe(struct lab_md_tools *t);

#endif
