/*
 * The interactive lab's loop: terminal set-up and restore, the screen
 * table, the header (tabs), global keys and the poll loop (keyboard, the
 * screens' descriptors, the tick); the status bar and the help box are
 * tui-help.c's. It names no screen outside the table: quitting, Ctrl-C
 * and the global keys that lead to a screen ask the screens' hooks
 * (busy, stop, finish, quit, hotkeys: tui.h). See tui.h. UI thread only.
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "tui-mouse.h"
#include "tui.h"

const struct tui_screen *const tui_screens[] = {
	&tui_disks,
	&tui_compose,
	&tui_workloads,
	&tui_run,
	&tui_compare,
	&tui_files,
	NULL,
};

#define TUI_TICK_MS 250
#define TUI_MAX_FDS 16

static size_t
nscreens(void)
{
	size_t n = 0;

	while (tui_screens[n] != NULL)
		n++;
	return n;
}

/* ---------------------------------------------------------------- drawing */

/* The bytes and display columns of the character at s; *hex: a byte
   to show as "\\xHH" (4 columns), as the CLI does (textsafe.h): a
   control character (a terminal would obey ESC, a C1 CSI, BEL; curses
   would move on a newline) or a byte that is not UTF-8. A tab is one
   blank. */
static size_t
char_at(const char *s, int *cw, bool *hex)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;

	memset(&st, 0, sizeof st);
	n = mbrtowc(&wc, s, strlen(s), &st);
	*hex = n == (size_t)-1 || n == (size_t)-2 || n == 0 ||
	    (wc < 0x20 && wc != L'\t') || (wc >= 0x7f && wc <= 0x9f);
	if (*hex) {
		*cw = 4;
		return 1;
	}
	*cw = wcwidth(wc) < 0 ? 1 : wcwidth(wc); /* a tab: -1 */
	return n;
}

size_t
tui_char(const char *s, int *cw)
{
	bool hex;

	return char_at(s, cw, &hex);
}

void
tui_put(WINDOW *w, int y, int x, int width, const char *s)
{
	int used = 0;

	wmove(w, y, x);
	while (*s != '\0') {
		int cw;
		bool hex;
		size_t n = char_at(s, &cw, &hex);

		if (used + cw > width)
			break;
		if (hex) {
			char b[8];

			snprintf(b, sizeof b, "\\x%02x", (unsigned char)*s);
			waddstr(w, b);
		} else if (*s == '\t') {
			waddch(w, ' ');
		} else {
			waddnstr(w, s, (int)n);
		}
		s += n;
		used += cw;
	}
}

int
tui_width(const char *s)
{
	int used = 0;

	while (*s != '\0') {
		int cw;
		bool hex;

		s += char_at(s, &cw, &hex);
		used += cw;
	}
	return used;
}

void
tui_put_tail(const struct tui *t, WINDOW *w, int y, int x, int width,
    const char *s)
{
	const char *dots = t->ascii ? "..." : "\u2026";
	int dw = t->ascii ? 3 : 1, over = tui_width(s) - width;

	if (over <= 0 || width <= dw) {
		tui_put(w, y, x, width, s);
		return;
	}
	/* Skip whole characters until the rest and the dots fit. */
	over += dw;
	while (*s != '\0' && over > 0) {
		int cw;
		bool hex;

		s += char_at(s, &cw, &hex);
		over -= cw;
	}
	tui_put(w, y, x, dw, dots);
	tui_put(w, y, x + dw, width - dw, s);
}

void
tui_cut_mid(const struct tui *t, const char *s, size_t keep, int width,
    char *buf, size_t len)
{
	const char *dots = t->ascii ? "..." : "\u2026";
	int dw = t->ascii ? 3 : 1, room, head, used = 0, rest = 0, cw;
	bool hex;
	size_t body = keep < strlen(s) ? strlen(s) - keep : 0, hb = 0, tb;

	room = width - tui_width(s + body) - dw;
	/* Fits, or too narrow for a head and a tail: tui_put clips it. */
	if (tui_width(s) <= width || room < 2) {
		snprintf(buf, len, "%s", s);
		return;
	}
	head = (room + 1) / 2;
	while (hb < body) {
		size_t n = char_at(s + hb, &cw, &hex);

		if (used + cw > head)
			break;
		used += cw;
		hb += n;
	}
	for (tb = hb; tb < body; rest += cw)
		tb += char_at(s + tb, &cw, &hex);
	/* Drop characters after the head until the tail fits the room. */
	for (tb = hb; tb < body && rest > room - used;) {
		tb += char_at(s + tb, &cw, &hex);
		rest -= cw;
	}
	snprintf(buf, len, "%.*s%s%s", (int)hb, s, dots, s + tb);
}

void
tui_put_mid(const struct tui *t, WINDOW *w, int y, int x, int width,
    const char *s, size_t keep)
{
	char b[512];

	tui_cut_mid(t, s, keep, width, b, sizeof b);
	tui_put(w, y, x, width, b);
}

void
tui_put_end(const struct tui *t, WINDOW *w, int y, int x, int width,
    const char *s)
{
	const char *dots = t->ascii ? "..." : "\u2026";
	int dw = t->ascii ? 3 : 1;

	if (tui_width(s) <= width || width <= dw) {
		tui_put(w, y, x, width, s);
		return;
	}
	tui_put(w, y, x, width - dw, s);
	tui_put(w, y, x + width - dw, dw, dots);
}

void
tui_box(const struct tui *t, WINDOW *w)
{
	if (t->ascii)
		wborder(w, '|', '|', '-', '-', '+', '+', '+', '+');
	else
		box(w, 0, 0);
}

int
tui_attr(const struct tui *t, enum tui_pair p)
{
	if (p == TUI_PAIR_SEL)
		return t->color ? (int)COLOR_PAIR(p) : A_REVERSE;
	if (!t->color)
		return p == TUI_PAIR_TITLE ? A_REVERSE
		    : p == TUI_PAIR_DIM    ? A_DIM
		    : p == TUI_PAIR_BAD    ? A_BOLD
					   : A_NORMAL;
	return (int)COLOR_PAIR(p);
}

void
tui_message(struct tui *t, bool bad, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_bad = bad;
	t->redraw = true;
}

int
tui_tab_label(size_t i, char *buf, size_t len)
{
	snprintf(buf, len, " %zu %s ", i + 1, _(tui_screens[i]->name));
	return (int)strlen(buf);
}

static void
draw_head(struct tui *t)
{
	const char *name = t->lab && t->lab->name ? t->lab->name : "";
	int x;

	werase(t->head);
	wbkgd(t->head, (chtype)tui_attr(t, TUI_PAIR_TITLE));
	x = 0;
	for (size_t i = 0; tui_screens[i] != NULL && x < t->cols; i++) {
		char tab[64];
		int w = tui_tab_label(i, tab, sizeof tab);

		if (i == t->cur)
			wattron(t->head, A_BOLD | A_REVERSE);
		tui_put(t->head, 0, x, t->cols - x, tab);
		if (i == t->cur)
			wattroff(t->head, A_BOLD | A_REVERSE);
		x += w;
	}
	if (x + 4 < t->cols) {
		char lab[256];

		snprintf(lab, sizeof lab, "%s%s ", name, t->dirty ? " *" : "");
		int w = (int)strlen(lab) < t->cols - x - 1 ? (int)strlen(lab)
							   : t->cols - x - 1;

		tui_put(t->head, 0, t->cols - w, w, lab);
	}
	wnoutrefresh(t->head);
}

static void
draw(struct tui *t)
{
	const struct tui_screen *s = tui_screens[t->cur];

	werase(t->body);
	t->foot_keys = NULL;
	s->draw(t->state[t->cur], t, t->body);
	wnoutrefresh(t->body);
	draw_head(t);
	tui_help_foot(t);
	if (t->dialog != NULL)
		tui_dialog_draw(t);
	if (t->help)
		tui_help_draw(t);
	doupdate();
	t->redraw = false;
}

/* ---------------------------------------------------------------- layout */

static void
layout(struct tui *t)
{
	getmaxyx(stdscr, t->rows, t->cols);
	if (t->head != NULL) {
		delwin(t->head);
		delwin(t->body);
		delwin(t->foot);
	}
	t->head = newwin(1, t->cols, 0, 0);
	t->foot = newwin(1, t->cols, t->rows - 1, 0);
	t->body = newwin(t->rows > 2 ? t->rows - 2 : 1, t->cols, 1, 0);
	keypad(t->body, TRUE);
	nodelay(t->body, TRUE);
	clearok(curscr, TRUE);
	tui_show(t, t->cur);
}

void
tui_show(struct tui *t, size_t i)
{
	const struct tui_screen *s;

	if (i >= nscreens())
		return;
	t->cur = i;
	s = tui_screens[i];
	if (s->enter != NULL)
		s->enter(t->state[i], t);
	t->redraw = true;
}

/* ---------------------------------------------------------------- hooks */

/* What the first busy screen says quitting would cut short; NULL when
   none is busy. */
static const char *
busy(const struct tui *t)
{
	for (size_t i = 0; tui_screens[i] != NULL; i++) {
		const char *why = tui_screens[i]->busy
		    ? tui_screens[i]->busy(t->state[i], t)
		    : NULL;

		if (why != NULL)
			return why;
	}
	return NULL;
}

/* Stop every screen's work; true when there was some. */
static bool
stop_all(struct tui *t)
{
	bool any = false;

	for (size_t i = 0; tui_screens[i] != NULL; i++)
		if (tui_screens[i]->stop != NULL &&
		    tui_screens[i]->stop(t->state[i], t))
			any = true;
	return any;
}

/* Quit, unless a screen holds the quit to ask first: it comes up. */
static void
ask_quit(struct tui *t)
{
	for (size_t i = 0; tui_screens[i] != NULL; i++)
		if (tui_screens[i]->quit != NULL &&
		    !tui_screens[i]->quit(t->state[i], t)) {
			tui_show(t, i);
			return;
		}
	t->quit = true;
}

/* A screen's global key: that screen comes up and gets its own key;
   false when ch is none. */
static bool
hotkey(struct tui *t, int ch)
{
	for (size_t i = 0; tui_screens[i] != NULL; i++)
		for (const struct tui_hotkey *h = tui_screens[i]->hotkeys;
		     h != NULL && h->ch != 0; h++)
			if (h->ch == ch) {
				tui_show(t, i);
				tui_screens[i]->key(t->state[i], t, h->key);
				return true;
			}
	return false;
}

/* ---------------------------------------------------------------- keys */

static void
global_key(struct tui *t, int ch)
{
	const char *why;

	if (hotkey(t, ch)) {
		t->redraw = true;
		return;
	}
	if ((ch == 'q' || ch == 'Q') && !t->quit_armed &&
	    (why = busy(t)) != NULL) {
		tui_message(t, true, "%s", why);
		t->quit_armed = true;
	} else if (ch == 'q' || ch == 'Q') {
		ask_quit(t);
	} else if (ch == KEY_F(1) || ch == '?') {
		t->help = true;
		t->help_top = 0;
		t->help_max = 0;
	} else if (ch == 'M') {
		tui_mouse_set(t, !t->mouse_on);
		tui_message(t, false, "%s",
		    t->mouse_on ? _("mouse on: click a tab or a row, the wheel "
				    "scrolls (M: the terminal selects text)")
				: _("mouse off: the terminal selects text (M: "
				    "clicks again)"));
	} else if (ch >= '1' && ch <= '9') {
		tui_show(t, (size_t)(ch - '1'));
	} else if (ch == KEY_RESIZE) {
		layout(t);
	}
	t->redraw = true;
}

static void
on_key(struct tui *t, int ch)
{
	const struct tui_screen *s = tui_screens[t->cur];

	if (ch != KEY_MOUSE) /* t->mouse is the wheel's for its keys only */
		t->mouse.bstate = 0;
	else if (!tui_mouse_read(t)) /* a slow click's release: no key */
		return;
	if (t->help && ch != KEY_RESIZE && tui_help_key(t, ch))
		return;
	if (t->help) {
		t->help = false;
		t->redraw = true;
		if (ch != KEY_RESIZE)
			return;
	}
	/* The dialog takes every key but a resize: it scrolls or closes. */
	if (t->dialog != NULL && ch != KEY_RESIZE) {
		tui_dialog_key(t, ch);
		return;
	}
	if (ch == KEY_MOUSE && tui_mouse_event(t, &ch)) {
		t->redraw = true;
		return;
	}
	if (ch == KEY_RESIZE) {
		layout(t);
		return;
	}
	t->message[0] = '\0';
	if (ch == KEY_F(10)) {
		/* quits from any screen, as in htop and mc */
		global_key(t, 'q');
		return;
	}
	if (ch != 'q' && ch != 'Q')
		t->quit_armed = false;
	if (s->key == NULL || s->key(t->state[t->cur], t, ch) == TUI_UNHANDLED)
		global_key(t, ch);
	t->redraw = true;
}

/* ---------------------------------------------------------------- loop */

static void
tick(struct tui *t)
{
	for (size_t i = 0; tui_screens[i] != NULL; i++)
		if (tui_screens[i]->tick != NULL)
			tui_screens[i]->tick(t->state[i], t, i == t->cur);
}

/* SIGINT, SIGTERM, SIGHUP: handled in the loop, never by dying with a
   run in progress and arrays built. */
static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

/*
 * Ctrl-C stops a run in progress as x does (what was built is torn
 * down), and otherwise quits as q does; SIGTERM and SIGHUP (the terminal
 * gone) quit at once, the run stopped and torn down on the way out.
 */
static void
on_quit_signal(struct tui *t, int sig)
{
	if (sig == SIGINT && stop_all(t)) {
		tui_message(t, false, "%s",
		    _("Ctrl-C: the run stops and what was built is torn "
		      "down; q quits"));
	} else if (sig == SIGINT) {
		ask_quit(t);
	} else {
		t->quit = true;
		t->exit_signal = sig;
	}
	t->redraw = true;
}

/*
 * SIGWINCH and the quit signals stay blocked except inside ppoll(), so a
 * resize or a Ctrl-C always ends the wait with EINTR and is seen at once;
 * a SIGWINCH that came between a wgetch() and a plain poll() waited for
 * the next key.
 */
static void
loop(struct tui *t, const sigset_t *waitmask)
{
	struct tick tk;

	tick_start(&tk, t->tick_ms * 1000000ull, tick_now_ns());
	while (!t->quit) {
		struct pollfd p[TUI_MAX_FDS];
		size_t owner[TUI_MAX_FDS], n = 1;
		struct timespec ts;
		uint64_t left;
		int rc, ch;

		if (t->redraw)
			draw(t);
		p[0].fd = 0;
		p[0].events = POLLIN;
		for (size_t i = 0; tui_screens[i] && n < TUI_MAX_FDS; i++) {
			int fd = tui_screens[i]->fd
			    ? tui_screens[i]->fd(t->state[i])
			    : -1;

			if (fd < 0)
				continue;
			p[n].fd = fd;
			p[n].events = POLLIN;
			owner[n++] = i;
		}
		left = tick_left(&tk, tick_now_ns());
		ts.tv_sec = (time_t)(left / 1000000000u);
		ts.tv_nsec = (long)(left % 1000000000u);
		rc = ppoll(p, n, &ts, waitmask);
		if (rc < 0 && errno != EINTR)
			break;
		/* A hung-up terminal may send no SIGHUP (its session leader
		   gone first) and keeps stdin readable: the same as one. */
		if (rc > 0 && (p[0].revents & (POLLHUP | POLLERR | POLLNVAL)))
			got_signal = SIGHUP;
		if (got_signal != 0) {
			on_quit_signal(t, got_signal);
			got_signal = 0;
			if (t->quit)
				break;
		}
		/* After EINTR too: ncurses' SIGWINCH handler has queued
		   KEY_RESIZE with nothing on stdin. Bounded, so that a
		   terminal that keeps answering cannot hold the loop. */
		for (int k = 0; k < 256 && (ch = wgetch(t->body)) != ERR; k++)
			on_key(t, ch);
		for (size_t i = 1; rc > 0 && i < n; i++)
			if (p[i].revents & (POLLIN | POLLHUP))
				tui_screens[owner[i]]
				    ->readable(t->state[owner[i]], t);
		if (tick_due(&tk, tick_now_ns(), NULL))
			tick(t);
	}
}

/* ---------------------------------------------------------------- set-up */

static void
restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

static void
colors(struct tui *t)
{
	const char *nc = getenv("NO_COLOR");

	t->color = has_colors() && (nc == NULL || nc[0] == '\0');
	if (!t->color)
		return;
	start_color();
	use_default_colors();
	init_pair(TUI_PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(TUI_PAIR_GOOD, COLOR_GREEN, -1);
	init_pair(TUI_PAIR_WARN, COLOR_YELLOW, -1);
	init_pair(TUI_PAIR_BAD, COLOR_RED, -1);
	init_pair(TUI_PAIR_DIM, COLOR_BLUE, -1);
	init_pair(TUI_PAIR_SERIES0, COLOR_GREEN, -1);
	init_pair(TUI_PAIR_SERIES1, COLOR_MAGENTA, -1);
	init_pair(TUI_PAIR_SERIES2, COLOR_CYAN, -1);
	init_pair(TUI_PAIR_SERIES3, COLOR_YELLOW, -1);
	init_pair(TUI_PAIR_SEL, COLOR_BLACK, COLOR_WHITE);
}

/* The lab to start on. One named on the command line that does not load
   ends the start with every message, as raidlab check prints them (an
   empty lab in its place would only hide them): false then. The default
   preset that does not load gives an empty lab and a message. */
static bool
open_lab(struct tui *t, const char *arg)
{
	char *path = paths_lab(arg ? arg : "quick");
	struct errlist errs;
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	bool ok = true;

	errlist_init(&errs);
	if (lab_load(path, &t->lab, &errs) == 0) {
		t->lab_path = path;
	} else if (arg != NULL) {
		errlist_sort(&errs);
		for (size_t i = 0; i < errs.n; i++)
			fprintf(stderr, "raidlab tui: %s\n",
			    err_format(&errs.v[i], b, sizeof b));
		free(path);
		ok = false;
	} else {
		errlist_sort(&errs);
		tui_message(t, true, "%s",
		    errs.n ? err_format(&errs.v[0], b, sizeof b) : path);
		t->lab = lab_new();
		lab_edit_new_defaults(t->lab);
		free(path);
	}
	errlist_done(&errs);
	return ok;
}

int
tui_main(const char *lab_path, bool ascii, const char *ssh_config)
{
	struct tui t;
	struct sigaction sa;
	sigset_t caught, waitmask;
	size_t n = nscreens();

	memset(&t, 0, sizeof t);
	t.tick_ms = TUI_TICK_MS;
	t.ssh_config = ssh_config;
	t.ascii = ascii || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	if (!open_lab(&t, lab_path))
		return -EINVAL;
	/* Before initscr(), which then leaves these handlers alone. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (initscr() == NULL)
		return -EIO;
	xalloc_set_fatal_hook(restore_terminal);
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	set_escdelay(25);
	tui_mouse_set(&t, true);
	colors(&t);
	/* Before the screens start threads, which inherit the mask. */
	sigemptyset(&caught);
	sigaddset(&caught, SIGWINCH);
	sigaddset(&caught, SIGINT);
	sigaddset(&caught, SIGTERM);
	sigaddset(&caught, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &caught, &waitmask);
	sigdelset(&waitmask, SIGWINCH);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGHUP);
	t.state = xcalloc(n + 1, sizeof *t.state);
	for (size_t i = 0; i < n; i++)
		t.state[i] = tui_screens[i]->init(&t);
	layout(&t);
	loop(&t, &waitmask);
	if (stop_all(&t)) { /* the teardown may take a while */
		tui_message(&t, false, "%s",
		    _("Stopping the run: tearing down what was built..."));
		draw(&t);
	}
	for (size_t i = 0; i < n; i++)
		if (tui_screens[i]->finish != NULL)
			tui_screens[i]->finish(t.state[i], &t);
	for (size_t i = 0; i < n; i++)
		tui_screens[i]->free(t.state[i]);
	delwin(t.head);
	delwin(t.body);
	delwin(t.foot);
	endwin();
	pthread_sigmask(SIG_UNBLOCK, &caught, NULL);
	xalloc_set_fatal_hook(NULL);
	free(t.state);
	lab_free(t.lab);
	free(t.lab_path);
	free(t.last_record);
	free(t.dialog);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return t.exit_signal;
}
