/*
 * Whether a results directory (record.h) takes a record, asked before a
 * run builds or measures anything, so that a run whose record would be
 * lost is refused up front instead of measuring for nothing. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "record.h"

int
record_results_check(const char *dir, struct err *e)
{
	char *path;
	int fd, rc;

	if ((rc = afile_mkdirs(dir, 0755)) < 0)
		return err_set(e, rc, dir, 0, NULL,
		    _("cannot create the results directory: %s"),
		    strerror(-rc));
	/* A file made and removed, as a record's temporary file would be:
	   a directory's mode alone does not say (read-only mounts, ACLs,
	   /proc). */
	path = xasprintf("%s/.raidlab-probe-XXXXXX", dir);
	if ((fd = mkstemp(path)) < 0) {
		rc = -errno;
		free(path);
		return err_set(e, rc, dir, 0, NULL,
		    _("the results directory cannot be written: %s"),
		    strerror(-rc));
	}
	close(fd);
	rc = unlink(path) < 0 ? -errno : 0;
	free(path);
	if (rc < 0)
		return err_set(e, rc, dir, 0, NULL,
		    _("the results directory cannot be written: %s"),
		    strerror(-rc));
	return 0;
}
