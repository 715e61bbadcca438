/*
 * The headless front end's loop: see run-live.h. Main thread.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine.h"
#include "i18n.h"
#include "result.h"
#include "run-live.h"

/* An hour of samples at the default tick; older ones are dropped. */
#define LIVE_SAMPLES 14400

void
live_init(struct live *lv, const char *variant, const char *workload,
    int repeat, int repeats, unsigned tick_ms, double expect)
{
	struct winsize ws;

	memset(lv, 0, sizeof *lv);
	lv->variant = variant;
	lv->workload = workload;
	lv->repeat = repeat;
	lv->repeats = repeats;
	lv->tick_ms = tick_ms ? tick_ms : 250;
	lv->expect = expect;
	lv->tty = isatty(STDERR_FILENO);
	lv->width = 80;
	if (lv->tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 20)
		lv->width = ws.ws_col;
	sampler_init(&lv->sampler, LIVE_SAMPLES);
}

void
live_done(struct live *lv)
{
	sampler_done(&lv->sampler);
}

static void
clock_str(double s, char *buf, size_t len)
{
	unsigned t = s > 0 ? (unsigned)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%u:%02u:%02u", t / 3600, t / 60 % 60,
		    t % 60);
	else
		snprintf(buf, len, "%u:%02u", t / 60, t % 60);
}

/* The status line, cut to the terminal's width, redrawn in place. */
static void
draw(const struct live *lv)
{
	const struct series *s = &lv->sampler.series;
	const struct sample *x = s->n ? series_at(s, s->n - 1) : NULL;
	char line[512], el[16], eta[32] = "";
	double t = lv->sampler.last.t;

	clock_str(t, el, sizeof el);
	if (lv->expect > t) {
		char left[16];

		clock_str(lv->expect - t, left, sizeof left);
		snprintf(eta, sizeof eta, _("  ETA %s"), left);
	}
	snprintf(line, sizeof line,
	    _("[%s] %s %d/%d  %s  r %.1f MB/s  w %.1f MB/s  %.0f files/s  "
	      "%s%s"),
	    lv->variant, lv->workload, lv->repeat, lv->repeats,
	    lv->test[0] ? lv->test : _("starting"),
	    x ? sample_read_mbps(x) : 0.0, x ? sample_write_mbps(x) : 0.0,
	    x ? sample_files_per_s(x) : 0.0, el, eta);
	if ((int)strlen(line) >= lv->width)
		line[lv->width - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

static void
event(struct live *lv, const struct evq_event *ev)
{
	switch (ev->type) {
	case EVQ_TEST_START:
	case EVQ_STEP:
		snprintf(lv->test, sizeof lv->test, "%s", ev->text);
		break;
	case EVQ_TEST_END:
		if (!lv->tty)
			fprintf(stderr, "[%s] %s %d/%d: %s: %.2f %s\n",
			    lv->variant, lv->workload, lv->repeat, lv->repeats,
			    ev->text, ev->value,
			    wl_unit_name((enum wl_unit)ev->unit));
		snprintf(lv->test, sizeof lv->test, "%s", _("between tests"));
		break;
	case EVQ_NOTE:
	case EVQ_ERROR:
		if (lv->tty)
			fputs("\r\033[K", stderr);
		fprintf(stderr, "[%s] %s: %s%s\n", lv->variant, lv->workload,
		    ev->type == EVQ_ERROR ? _("error: ") : _("note: "),
		    ev->text);
		break;
	case EVQ_DONE:
		break;
	}
}

struct wl_result *
live_follow(struct live *lv, struct engine *eng)
{
	struct evq *q = engine_events(eng);
	struct wl_result *res;
	struct evq_event ev;
	uint64_t next = wl_now_ns() + lv->tick_ms * 1000000ull;
	bool done = false;

	while (!done) {
		struct pollfd p = { evq_fd(q), POLLIN, 0 };
		uint64_t now = wl_now_ns();
		int timeout = now >= next ? 0 : (int)((next - now) / 1000000);

		if (poll(&p, 1, timeout) < 0 && errno != EINTR)
			break;
		if (wl_now_ns() >= next) {
			sampler_tick(&lv->sampler, eng);
			next += lv->tick_ms * 1000000ull;
			if (lv->tty)
				draw(lv);
		}
		while (evq_pop(q, &ev)) {
			event(lv, &ev);
			if (ev.type == EVQ_DONE)
				done = true;
		}
	}
	res = engine_join(eng);
	if (lv->tty)
		fputs("\r\033[K", stderr);
	if (res != NULL) {
		/* The last partial tick, then hand the series over. */
		sampler_tick(&lv->sampler, eng);
		series_done(&res->series);
		res->series = lv->sampler.series;
		res->tick = lv->tick_ms / 1000.0;
		series_init(&lv->sampler.series, 1);
	}
	return res;
}
