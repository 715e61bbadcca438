/*
 * The md this machine has, and what it cannot build: mdadm's version
 * (`mdadm --version`), the running kernel's release, and whether that
 * kernel has md's lockless bitmap (an array's md/bitmap_type lists
 * llbitmap, or /boot/config-RELEASE enables CONFIG_MD_LLBITMAP). A lab
 * that asks for a bitmap file (mdadm 4.4 removed them) or a lockless
 * bitmap (mdadm 4.6 and such a kernel) is valid; this machine refuses
 * the variant, as it refuses one without room (space.h). Any thread; no
 * state.
 */
#ifndef RAIDLAB_MDTOOLS_H
#define RAIDLAB_MDTOOLS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct errlist;
struct lab;

struct md_tools {
	int mdadm; /* major * 100 + minor: 404; 0 when not found */
	char mdadm_text[32]; /* "4.4" */
	bool llbitmap; /* the kernel has md's lockless bitmap */
	char kernel[80]; /* uname -r */
};

/* The version in mdadm --version's line ("mdadm - v4.2 - 2021-12-30 -
   Debian 4.2-5") as major * 100 + minor (402), its "4.2" into buf (len
   bytes); 0 (buf "") when the text has none. */
int mdtools_parse_version(const char *text, char *buf, size_t len);

/* Fill t for this machine (sysroot NULL: "/"; tests point it at a
   directory of their own); mdadm not found leaves t->mdadm 0. */
void mdtools_probe_at(const char *sysroot, struct md_tools *t);
void mdtools_probe(struct md_tools *t);
/* t as the record keeps it: {mdadm ("4.2" or null), kernel, llbitmap}. */
json_t *mdtools_json(const struct md_tools *t);

/*
 * The md arrays of the selected variants (vsel NULL: all) that t cannot
 * build, each into refused at its bitmap key's line, naming what is
 * missing: a bitmap file under mdadm 4.4 or later; a lockless bitmap
 * without mdadm 4.6 or without the kernel's llbitmap. t NULL: probed
 * here, only when some array asks for either. -EPERM when one is
 * refused, else 0.
 */
int mdtools_check(const struct lab *lab, const bool *vsel,
    const struct md_tools *t, struct errlist *refused);

#endif
