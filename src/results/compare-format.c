/*
 * The figures of a comparison as text: a value in its unit (latencies
 * scaled to s, ms or microseconds), a difference in percent, both with
 * as many digits as mean something. See compare.h. Any thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "compare.h"
#include "figures/plot.h"
#include "measure/result.h"

/* A latency in microseconds in the unit that suits it, to three
   significant digits (a histogram's bucket is 6% wide anyway). */
static void
format_usec(double us, char *buf, size_t len)
{
	const char *mu = plot_utf8_locale() ? "\xc2\xb5s" : "us";

	if (fabs(us) >= 1e6)
		snprintf(buf, len, "%.3g s", us / 1e6);
	else if (fabs(us) >= 1e3)
		snprintf(buf, len, "%.3g ms", us / 1e3);
	else
		snprintf(buf, len, "%.3g %s", us, mu);
}

const char *
compare_format_value(double v, enum wl_unit u, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (u == WL_UNIT_USEC)
		format_usec(v, buf, len);
	else if (fabs(v) >= COMPARE_HUGE)
		/* all its digits would not fit, and mean nothing */
		snprintf(buf, len, "%.4g", v);
	else if (u == WL_UNIT_SECONDS || fabs(v) < 100)
		snprintf(buf, len, "%.2f", v);
	else if (fabs(v) < 10000)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

const char *
compare_format_pct(double pct, char *buf, size_t len)
{
	if (!isfinite(pct))
		snprintf(buf, len, "%s", "");
	else if (fabs(pct) >= COMPARE_HUGE)
		snprintf(buf, len, "%+.4g%%", pct);
	else if (fabs(pct) >= 99.95)
		snprintf(buf, len, "%+.0f%%", pct);
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}
