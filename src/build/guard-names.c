/*
 * The guards' words for the user: the name of a device's role and of a
 * way to confirm, and the closing line of a refusal, which says how to
 * confirm in the front end that asked. See guard.h. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>

#include "base/err.h"
#include "base/i18n.h"
#include "guard.h"

const char *
guard_role_name(enum guard_role r)
{
	switch (r) {
	case GUARD_MEMBER:
		return _("member");
	case GUARD_SPARE:
		return _("spare");
	case GUARD_JOURNAL:
		return _("md write journal");
	case GUARD_FSLOG:
		return _("filesystem journal");
	}
	return "?";
}

const char *
guard_confirm_name(enum guard_confirm c)
{
	return c == GUARD_CONFIRM_TYPED ? _("the typed confirmation")
					: "--yes-destroy";
}

const char *
guard_refused_line(const struct errlist *errs, enum guard_confirm c)
{
	for (size_t i = 0; i < errs->n; i++) {
		if (errs->v[i].code != -EPERM)
			continue;
		if (c == GUARD_CONFIRM_TYPED)
			return _(
			    "refused: nothing was changed. Free the devices, "
			    "or confirm the ones whose data may be "
			    "destroyed by typing their names when the run "
			    "asks");
		return _("refused: nothing was changed. Free the devices, or "
			 "confirm the ones whose data may be destroyed with "
			 "--yes-destroy=DEV,...");
	}
	return _("refused: nothing was changed.");
}
