/*
 * Guards for the files a variant creates beside its devices: an md
 * bitmap file. mdadm creates it and the teardown removes it, so a file
 * already there would be refused by mdadm, and then removed by the undo
 * of the step that failed: the file is refused before anything runs.
 * md also reads and writes the file through the block addresses its
 * filesystem gives (bmap): on one that has none (tmpfs, btrfs, NFS...)
 * the create fails after the members were wiped, so that is refused
 * before too, and so is a read-only one.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "guard.h"
#include "lab/lab.h"

/* Filesystems without bmap, by statfs magic (linux/magic.h and the
   filesystems' own): md's file bitmap cannot live there. */
static const struct {
	unsigned long magic;
	const char *name;
} no_bmap[] = {
	{ 0x01021994, "tmpfs" },
	{ 0x858458f6, "ramfs" },
	{ 0x9123683e, "btrfs" },
	{ 0x6969, "nfs" },
	{ 0xff534d42, "cifs" },
	{ 0xfe534d42, "smb2" },
	{ 0x65735546, "fuse" },
	{ 0x794c7630, "overlay" },
	{ 0x01021997, "9p" },
	{ 0x00c36400, "ceph" },
	{ 0x2fc12fc1, "zfs" },
	{ 0xca451a4e, "bcachefs" },
	{ 0x73717368, "squashfs" },
};

/* Why md cannot keep a bitmap file in DIR; NULL when it can. */
static const char *
bitmap_fs_unfit(const char *dir)
{
	struct statvfs vfs;
	struct statfs fs;

	if (statfs(dir, &fs) < 0 || statvfs(dir, &vfs) < 0)
		return NULL; /* the directory check says why */
	for (size_t i = 0; i < sizeof no_bmap / sizeof no_bmap[0]; i++)
		if ((unsigned long)fs.f_type == no_bmap[i].magic)
			return no_bmap[i].name;
	if (vfs.f_flag & ST_RDONLY)
		return _("a read-only filesystem");
	return NULL;
}

static int
bitmap_file(const struct lab_variant *v, const struct lab_array *a,
    const char *file, struct errlist *errs)
{
	char field[ERR_FIELD_MAX], *dir, *slash;
	const char *why;
	struct stat st;
	int rc = 0;

	if (a->bitmap != LAB_BITMAP_FILE || a->bitmap_file == NULL)
		return 0;
	lab_array_path(v, a, LAB_A_BITMAP_FILE, field, sizeof field);
	if (lstat(a->bitmap_file, &st) == 0)
		return errlist_add(errs, -EEXIST, file,
		    lab_array_line(a, LAB_A_BITMAP_FILE), field,
		    _("%s already exists: mdadm makes the bitmap file and the "
		      "teardown removes it, so name a file that does not "
		      "exist"),
		    a->bitmap_file);
	dir = xstrdup(a->bitmap_file);
	slash = strrchr(dir, '/');
	if (slash != NULL && slash != dir)
		*slash = '\0';
	else if (slash != NULL)
		dir[1] = '\0';
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		rc = errlist_add(errs, -ENOENT, file,
		    lab_array_line(a, LAB_A_BITMAP_FILE), field,
		    _("%s: no such directory for the bitmap file"), dir);
	else if ((why = bitmap_fs_unfit(dir)) != NULL)
		rc = errlist_add(errs, -EINVAL, file,
		    lab_array_line(a, LAB_A_BITMAP_FILE), field,
		    _("%s is on %s, where md cannot keep a bitmap file: it "
		      "needs a writable filesystem that maps file blocks to "
		      "disk blocks, such as ext4 or xfs"),
		    dir, why);
	free(dir);
	return rc;
}

int
guard_files(const struct lab_variant *v, const char *file, struct errlist *errs)
{
	const struct lab_array *a = &v->array;
	int rc = 0;

	if (bitmap_file(v, a, file, errs) < 0)
		rc = -EPERM;
	for (size_t i = 0; i < a->nlegs; i++)
		if (bitmap_file(v, &a->legs[i], file, errs) < 0)
			rc = -EPERM;
	if (v->fs.journal_array != NULL &&
	    bitmap_file(v, v->fs.journal_array, file, errs) < 0)
		rc = -EPERM;
	return rc;
}
