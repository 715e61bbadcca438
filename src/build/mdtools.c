/*
 * Probing the md of this machine: mdadm's version, the kernel's release
 * and its lockless bitmap (mdtools.h). Any thread.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/xalloc.h"
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
mdtools_probe_at(const char *sysroot, struct lab_md_tools *t)
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
mdtools_probe(struct lab_md_tools *t)
{
	mdtools_probe_at(NULL, t);
}
