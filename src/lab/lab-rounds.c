/*
 * The lab's keys about its rounds of repeats: repeats (a count, or a
 * range with a goal) read from a lab file, and the percents it, cv_limit
 * and equivalence are written in (order, cv_limit, test and equivalence
 * are lines of lab_keys[], lab-schema-lab.c). The thread that owns the
 * lab.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "lab-load.h"
#include "lab.h"

#define LSET(lab, f, s)                                                        \
	do {                                                                   \
		(lab)->lines[f] = lab_line_of(s);                              \
		(lab)->set |= LAB_BIT(f);                                      \
	} while (0)

bool
lab_repeats_range(const struct lab *lab)
{
	return lab->repeats_ci > 0;
}

const char *
lab_percent_format(int32_t milli, char *buf, size_t len)
{
	int32_t frac = milli % 1000;
	int digits = 3;

	if (frac == 0) {
		snprintf(buf, len, "%d%%", (int)(milli / 1000));
		return buf;
	}
	/* The fewest decimals that say it exactly: "0.5%", not "0.500%". */
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%d.%0*d%%", (int)(milli / 1000), digits, (int)frac);
	return buf;
}

int
lab_percent_parse(const char *s, int32_t *milli)
{
	int64_t v = 0;
	int decimals = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	/* Whole percents; more than 6 digits is out of range anyway. */
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (*p - '0')) > LAB_PERCENT_MAX)
			return -ERANGE;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, decimals++) {
			if (decimals == 3)
				return -EINVAL;
			v = v * 10 + (*p - '0');
		}
		if (decimals == 0)
			return -EINVAL;
	}
	if (p[0] != '%' || p[1] != '\0')
		return -EINVAL;
	for (; decimals < 3; decimals++)
		v *= 10;
	if (v <= 0 || v >= LAB_PERCENT_MAX)
		return -ERANGE;
	*milli = (int32_t)v;
	return 0;
}

bool
lab_get_percent(struct lab_ctx *c, const config_setting_t *s, const char *field,
    int32_t *out)
{
	const char *text = config_setting_get_string(s);
	int rc;

	if (text == NULL) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected a percent in quotes, such as \"2%%\" or "
		      "\"0.5%%\""));
		return false;
	}
	if ((rc = lab_percent_parse(text, out)) == -ERANGE) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("%s: must be more than 0%% and less than 100%%"), text);
		return false;
	}
	if (rc < 0) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("%s is not a percent such as \"2%%\" or \"0.5%%\" (at "
		      "most three decimals)"),
		    text);
		return false;
	}
	return true;
}

/* repeats = { min = 3; max = 10; ci = "2%"; }; */
static bool
load_range(struct lab_ctx *c, const config_setting_t *g, struct lab *lab)
{
	static const char *const keys[] = { "min", "max", "ci", NULL };
	const config_setting_t *s;
	int64_t min = LAB_REPEATS_MIN_DEFAULT, max = LAB_REPEATS_MAX_DEFAULT;
	int32_t ci = 0;
	int nerr = c->nerr;

	lab_load_unknown_keys(c, g, keys, "repeats");
	/* From 3: a range that could stop at 2 could stop where no
	   verdict can be given (compare.h: under 3 repeats noise cannot be
	   told from a difference). */
	if ((s = config_setting_get_member(g, "min")) != NULL)
		lab_get_int(c, s, "repeats.min", 3, 1000, &min);
	if ((s = config_setting_get_member(g, "max")) != NULL)
		lab_get_int(c, s, "repeats.max", 3, 1000, &max);
	if ((s = config_setting_get_member(g, "ci")) == NULL)
		lab_ctx_error(c, lab_line_of(g), "repeats",
		    _("a range of repeats needs its goal, such as ci = "
		      "\"2%%\": rounds are added until the 95%% confidence "
		      "interval of each mean is that narrow (for a fixed "
		      "number, write repeats = N;)"));
	else
		lab_get_percent(c, s, "repeats.ci", &ci);
	if (c->nerr == nerr && min > max)
		lab_ctx_error(c, lab_line_of(g), "repeats",
		    _("min = %lld is more than max = %lld"), (long long)min,
		    (long long)max);
	if (c->nerr != nerr)
		return false;
	lab->repeats = max;
	lab->repeats_min = min;
	lab->repeats_ci = ci;
	return true;
}

void
lab_load_repeats(struct lab_ctx *c, const config_setting_t *s, struct lab *lab)
{
	if (config_setting_is_group(s)) {
		if (load_range(c, s, lab))
			LSET(lab, LAB_L_REPEATS, s);
		return;
	}
	if (config_setting_type(s) != CONFIG_TYPE_INT &&
	    config_setting_type(s) != CONFIG_TYPE_INT64) {
		lab_ctx_error(c, lab_line_of(s), "repeats",
		    _("expected a number of rounds, or a range such as "
		      "{ min = 3; max = 10; ci = \"2%%\"; }"));
		return;
	}
	if (lab_get_int(c, s, "repeats", 1, 1000, &lab->repeats))
		LSET(lab, LAB_L_REPEATS, s);
}
