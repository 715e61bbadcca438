/*
 * Probing the md of this machine (mdadm's version, the kernel's release
 * and its lockless bitmap) and refusing the arrays it cannot build
 * (mdtools.h). Any thread.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "exec.h"
#include "mdtools.h"

/* mdadm answers at once; a hung one must not hang `raidlab check`. */
#define MDADM_VERSION_TIMEOUT 10.0

int
mdtools_parse_version(const char *text, char *buf, size_t len)
{
	const char *p = text;

	if (len > 0)
		buf[0] = '\0';
	/* the first "vN.M" after "mdadm" */
	while (p != NULL && (p = strstr(p, "v")) != NULL) {
		char *end;
		long major, minor = 0;

		if (!isdigit((unsigned char)p[1])) {
			p++;
			continue;
		}
		major = strtol(p + 1, &end, 10);
		if (*end == '.' && isdigit((unsigned char)end[1]))
			minor = strtol(end + 1, &end, 10);
		if (major <= 0 || major > 99 || minor < 0 || minor > 99)
			return 0;
		snprintf(buf, len, "%ld.%ld", major, minor);
		return (int)(major * 100 + minor);
	}
	return 0;
}

/* Whether any array's md/bitmap_type offers llbitmap. */
static int
sysfs_llbitmap(const char *root)
{
	char path[512], line[256];
	struct dirent *d;
	int found = 0;
	DIR *dir;

	snprintf(path, sizeof path, "%s/sys/block", root);
	if ((dir = opendir(path)) == NULL)
		return 0;
	while (!found && (d = readdir(dir)) != NULL) {
		FILE *f;

		if (strncmp(d->d_name, "md", 2) != 0)
			continue;
		snprintf(path, sizeof path, "%s/sys/block/%s/md/bitmap_type",
		    root, d->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		if (fgets(line, sizeof line, f) != NULL &&
		    strstr(line, "llbitmap") != NULL)
			found = 1;
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* Whether the kernel's build configuration enables llbitmap. */
static int
config_llbitmap(const char *root, const char *release)
{
	char *path = xasprintf("%s/boot/config-%s", root, release), line[256];
	int found = 0;
	FILE *f = fopen(path, "re");

	free(path);
	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = strcmp(line, "CONFIG_MD_LLBITMAP=y\n") == 0 ||
		    strcmp(line, "CONFIG_MD_LLBITMAP=m\n") == 0;
	fclose(f);
	return found;
}

void
mdtools_probe_at(const char *sysroot, struct md_tools *t)
{
	const char *argv[] = { "mdadm", "--version", NULL };
	const char *root = sysroot != NULL ? sysroot : "";
	struct exec_opts o = { .timeout = MDADM_VERSION_TIMEOUT };
	struct exec_result r;
	struct utsname u;

	memset(t, 0, sizeof *t);
	if (exec_run(argv, &o, &r) == 0)
		t->mdadm = mdtools_parse_version(r.output, t->mdadm_text,
		    sizeof t->mdadm_text);
	exec_result_done(&r);
	if (uname(&u) == 0)
		snprintf(t->kernel, sizeof t->kernel, "%s", u.release);
	t->llbitmap = sysfs_llbitmap(root) || config_llbitmap(root, t->kernel);
}

void
mdtools_probe(struct md_tools *t)
{
	mdtools_probe_at(NULL, t);
}

json_t *
mdtools_json(const struct md_tools *t)
{
	return json_pack("{s:o, s:s, s:b}", "mdadm",
	    t->mdadm ? json_string(t->mdadm_text) : json_null(), "kernel",
	    t->kernel, "llbitmap", t->llbitmap);
}

/* ---------------------------------------------------------------- gates */

struct gate {
	const struct lab *lab;
	const struct md_tools *given;
	struct md_tools probed;
	bool have;
	struct errlist *refused;
	int rc;
};

static const struct md_tools *
tools(struct gate *g)
{
	if (g->given != NULL)
		return g->given;
	if (!g->have)
		mdtools_probe(&g->probed);
	g->have = true;
	return &g->probed;
}

static void
refuse(struct gate *g, const struct lab_variant *v, const struct lab_array *a,
    const char *why)
{
	char field[LAB_PATH_MAX];

	g->rc = errlist_add(g->refused, -ENOTSUP, g->lab->path,
	    lab_array_line(a, LAB_A_BITMAP),
	    lab_array_path(v, a, LAB_A_BITMAP, field, sizeof field), "%s", why);
}

static void
gate_array(struct gate *g, const struct lab_variant *v,
    const struct lab_array *a)
{
	const struct md_tools *t;
	char why[256];

	for (size_t i = 0; i < a->nlegs; i++)
		gate_array(g, v, &a->legs[i]);
	if (a->engine != LAB_ENGINE_MD || a->md_level == LAB_MD_LEVEL_0 ||
	    a->journal != NULL ||
	    (a->bitmap != LAB_BITMAP_FILE && a->bitmap != LAB_BITMAP_LOCKLESS))
		return;
	t = tools(g);
	if (a->bitmap == LAB_BITMAP_FILE && t->mdadm >= 404) {
		snprintf(why, sizeof why,
		    _("mdadm %s has no bitmap files (removed in mdadm 4.4): "
		      "use bitmap = \"internal\", or mdadm 4.3 or older"),
		    t->mdadm_text);
		refuse(g, v, a, why);
	} else if (a->bitmap == LAB_BITMAP_LOCKLESS && t->mdadm < 406) {
		snprintf(why, sizeof why,
		    _("a lockless bitmap needs mdadm 4.6 or later; this is "
		      "mdadm %s"),
		    t->mdadm == 0 ? _("(not found)") : t->mdadm_text);
		refuse(g, v, a, why);
	} else if (a->bitmap == LAB_BITMAP_LOCKLESS && !t->llbitmap) {
		snprintf(why, sizeof why,
		    _("kernel %s has no lockless bitmap (no md/bitmap_type "
		      "lists llbitmap; it needs CONFIG_MD_LLBITMAP, Linux 6.18 "
		      "or later)"),
		    t->kernel);
		refuse(g, v, a, why);
	}
}

int
mdtools_check(const struct lab *lab, const bool *vsel, const struct md_tools *t,
    struct errlist *refused)
{
	struct gate g = { .lab = lab, .given = t, .refused = refused };

	for (size_t i = 0; i < lab->nvariants; i++) {
		const struct lab_variant *v = &lab->variants[i];

		if ((vsel != NULL && !vsel[i]) ||
		    !lab_variant_isset(v, LAB_V_ARRAY))
			continue;
		gate_array(&g, v, &v->array);
		if (lab_variant_isset(v, LAB_V_FS) &&
		    v->fs.journal == LAB_JOURNAL_ARRAY &&
		    v->fs.journal_array != NULL)
			gate_array(&g, v, v->fs.journal_array);
	}
	return g.rc < 0 ? -ENOTSUP : 0;
}
