/*
 * A fault phase told while an array variant's workloads run: the
 * runner's tick reads how the phase stands (prov_phase_progress()) and
 * sends it as LABRUN_PHASE about once a second while a rebuild or scrub
 * runs, once for a phase with nothing to follow, and once when it ends;
 * and the phase as one line for a front end, fitted to a width. The
 * telling is the runner thread's; labrun_phase_line() is pure, any
 * thread.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "base/i18n.h"
#include "base/tick.h"
#include "base/units.h"
#include "build/provision.h"
#include "disk/disk-table.h"
#include "labrun-int.h"
#include "labrun.h"

/* How often a running rebuild or scrub is told, in seconds. */
#define PHASE_EVERY_S 1.0

void
labrun_phase_say(struct labrun *lr, int vi, const struct prov_progress *pr,
    bool force)
{
	struct labrun_event ev;
	double now = tick_now_s();

	if (pr->finished) {
		if (lr->phase_ended)
			return;
		lr->phase_ended = true;
	} else if (!force &&
	    (!pr->watched || now - lr->phase_said < PHASE_EVERY_S)) {
		return;
	}
	lr->phase_said = now;
	memset(&ev, 0, sizeof ev);
	ev.type = LABRUN_PHASE;
	ev.variant = vi;
	ev.workload = -1;
	ev.repeat = -1;
	ev.phase = *pr;
	labrun_push(lr, &ev);
}

void
labrun_phase_tick(struct labrun *lr, int vi, bool force)
{
	struct prov_progress pr;

	if (lr->phase != NULL && prov_phase_progress(lr->phase, &pr))
		labrun_phase_say(lr, vi, &pr, force);
}

/* ---------------------------------------------------------------- line */

/* The parts of the line, in the order shown. */
enum part {
	P_HEAD, /* "phase rebuild", "rebuild done in 0:49" */
	P_DEV,
	P_FAILED,
	P_PROGRESS, /* "recover 43%" */
	P_RATE,
	P_ELAPSED,
	P_ETA,
	P_N
};

/* The head in its long form, or short (the words around the figures
   left out). */
static void
head(const struct prov_progress *pr, bool shrt, char *buf, size_t len)
{
	char c[16];

	if (pr->watched && pr->finished) {
		units_format_clock(pr->elapsed, c, sizeof c);
		/* TRANSLATORS: "rebuild done in 0:49" */
		snprintf(buf, len, _("%s done in %s"), pr->phase, c);
	} else if (!pr->watched && pr->nfailed > 0 && pr->nmembers > 0) {
		if (shrt)
			/* TRANSLATORS: "degraded, 1 of 4 failed" */
			snprintf(buf, len, _("%s, %u of %u failed"), pr->phase,
			    pr->nfailed, pr->nmembers);
		else
			snprintf(buf, len,
			    ngettext("phase %s (%u of %u member failed)",
				"phase %s (%u of %u members failed)",
				pr->nmembers),
			    pr->phase, pr->nfailed, pr->nmembers);
	} else if (shrt) {
		snprintf(buf, len, "%s", pr->phase);
	} else {
		/* TRANSLATORS: "phase rebuild": the lab's phase */
		snprintf(buf, len, _("phase %s"), pr->phase);
	}
}

static void
parts(const struct prov_progress *pr, char p[P_N][160])
{
	char c[16];
	double eta = prov_progress_eta(pr);

	for (int i = 0; i < P_N; i++)
		p[i][0] = '\0';
	head(pr, false, p[P_HEAD], sizeof p[P_HEAD]);
	snprintf(p[P_DEV], sizeof p[P_DEV], "%s", pr->dev);
	if (pr->nfailed > 0)
		/* TRANSLATORS: "failed /dev/loop5": the members it failed */
		snprintf(p[P_FAILED], sizeof p[P_FAILED], _("failed %s"),
		    pr->failed);
	if (!pr->watched || pr->finished)
		return;
	if (pr->action[0] == '\0')
		snprintf(p[P_PROGRESS], sizeof p[P_PROGRESS], "%s",
		    _("not started yet"));
	else if (pr->total > 0 && pr->done <= pr->total)
		/* TRANSLATORS: "recover 43%": the kernel's word, done */
		snprintf(p[P_PROGRESS], sizeof p[P_PROGRESS], _("%s %u%%"),
		    pr->action, (unsigned)(pr->done * 100 / pr->total));
	else
		snprintf(p[P_PROGRESS], sizeof p[P_PROGRESS], "%s", pr->action);
	if (pr->rate > 0)
		snprintf(p[P_RATE], sizeof p[P_RATE], _("%.1f MB/s"),
		    (double)pr->rate / 1e6);
	units_format_clock(pr->elapsed, c, sizeof c);
	/* TRANSLATORS: "0:21 elapsed" */
	snprintf(p[P_ELAPSED], sizeof p[P_ELAPSED], _("%s elapsed"), c);
	if (eta >= 0) {
		units_format_clock(eta, c, sizeof c);
		/* TRANSLATORS: "ETA 0:28": the time left at this rate */
		snprintf(p[P_ETA], sizeof p[P_ETA], _("ETA %s"), c);
	}
}

static void
join(char p[P_N][160], const char *sep, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < P_N && n < len; i++)
		if (p[i][0] != '\0')
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			    n > 0 ? sep : "", p[i]);
}

/* A rebuild or scrub seen running: its progress names it. */
static bool
running(const struct prov_progress *pr)
{
	return pr->watched && !pr->finished && pr->action[0] != '\0';
}

/* Cut s to at most width columns, never inside a character. */
static void
cut(char *s, size_t width)
{
	mbstate_t st;
	size_t used = 0, at = 0, len = strlen(s);

	memset(&st, 0, sizeof st);
	while (at < len) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + at, len - at, &st);
		int cw;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof st);
			n = 1;
			cw = 1;
		} else {
			cw = wcwidth(wc) < 0 ? 1 : wcwidth(wc);
		}
		if (used + (size_t)cw > width)
			break;
		used += (size_t)cw;
		at += n;
	}
	s[at] = '\0';
}

void
labrun_phase_line(const struct prov_progress *pr, int width, bool ascii,
    char *buf, size_t len)
{
	/* What goes when the line is too wide, first to last: the array
	   (the status line names the variant), the time so far, the failed
	   members, the rate, the head's words, the head (the progress says
	   the kernel's word), the ETA. The percent stays. */
	static const int drop[] = { P_DEV, P_ELAPSED, P_FAILED, P_RATE, -1,
		P_HEAD, P_ETA };
	const char *sep = ascii ? " - " : " \u00b7 ";
	char p[P_N][160];

	parts(pr, p);
	join(p, sep, buf, len);
	for (size_t k = 0; width > 0 && k < sizeof drop / sizeof drop[0] &&
	     disk_table_width(buf) > (size_t)width;
	     k++) {
		if (drop[k] < 0)
			head(pr, true, p[P_HEAD], sizeof p[P_HEAD]);
		else if (drop[k] != P_HEAD || running(pr))
			p[drop[k]][0] = '\0';
		join(p, sep, buf, len);
	}
	if (width > 0)
		cut(buf, (size_t)width);
}
