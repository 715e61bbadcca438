/* The messages of an error list as text (errtext.h). */
#include "config.h"

#include <stdlib.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "errtext.h"

char *
errs_text(const struct errlist *errs)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX], *out, *t;

	out = xstrdup("");
	for (size_t i = 0; i < errs->n; i++) {
		t = xasprintf("%s%s\n", out,
		    err_format(&errs->v[i], buf, sizeof buf));
		free(out);
		out = t;
	}
	return out;
}
