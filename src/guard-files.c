/*
 * Guards for the files a variant creates beside its devices: an md
 * bitmap file. mdadm creates it and the teardown removes it, so a file
 * already there would be refused by mdadm, and then removed by the undo
 * of the step that failed: the file is refused before anything runs.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "guard.h"
#include "i18n.h"
#include "lab.h"
#include "xalloc.h"

static int
bitmap_file(const struct lab_variant *v, const struct lab_array *a,
    const char *file, struct errlist *errs)
{
	char field[ERR_FIELD_MAX], *dir, *slash;
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
