/*
 * What the lab tells of its keys: the status bar (the current screen's
 * keys, then the global ones, as in htop) and the F1 help box (every key
 * of the screen, then the global ones, with what each does). See tui.h.
 * UI thread only.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "tui.h"

/* Keys every screen has (the help lists them after the screen's own),
   around the screens' global keys (struct tui_hotkey). */
static const struct tui_key global_head[] = {
	{ "1 2 ..", N_("switch screen: the number on its tab") },
	{ "F1 ?",
	    N_("this help (arrows and PgUp/PgDn scroll it when it does not "
	       "fit, any other key closes it)") },
	{ NULL, NULL },
};
static const struct tui_key global_tail[] = {
	{ "M",
	    N_("mouse on/off: on, a click picks a tab or a row and the "
	       "wheel scrolls; off, the terminal selects text") },
	{ "q F10",
	    N_("quit (asks first when the lab has unsaved changes or a "
	       "run is in progress)") },
	{ NULL, NULL },
};

/* The status bar's global entries, after the screen's own, around the
   screens' global keys that have a word. The first (help) is the door
   to every other key: it goes last of all but the screen's first entry.
   The number keys' range is the screens'. */
static const struct tui_key foot_head[] = {
	/* TRANSLATORS: a word or two after a key in the status bar. */
	{ "F1", N_("help") },
	{ "q/F10", N_("quit") },
	{ NULL, NULL },
};
static const struct tui_key foot_tail[] = {
	{ "M", N_("mouse") },
	{ NULL, N_("screens") },
	{ NULL, NULL },
};

#define GLOBALS_MAX 32

/* head, then every screen's global keys (with foot, only those with a
   word, as that word), then tail, into v: ended by what NULL. */
static const struct tui_key *
globals(const struct tui_key *head, const struct tui_key *tail, bool foot,
    struct tui_key *v)
{
	size_t n = 0;

	for (; head->what != NULL && n < GLOBALS_MAX - 1; head++)
		v[n++] = *head;
	for (size_t i = 0; tui_screens[i] != NULL; i++)
		for (const struct tui_hotkey *h = tui_screens[i]->hotkeys;
		     h != NULL && h->ch != 0 && n < GLOBALS_MAX - 1; h++)
			if (!foot || h->word != NULL)
				v[n++] = (struct tui_key){ h->name,
					foot ? h->word : h->what };
	for (; tail->what != NULL && n < GLOBALS_MAX - 1; tail++)
		v[n++] = *tail;
	v[n] = (struct tui_key){ NULL, NULL };
	return v;
}

/* ---------------------------------------------------------------- footer */

#define FOOT_MAX 48
#define FOOT_GAP 2 /* columns between two entries */

struct foot_entry {
	const char *key, *word; /* into the buffer foot_entries fills */
	int width; /* of "key word" */
	bool on;
};

/* One entry "key word" of buf, cut out in place. */
static struct foot_entry
foot_entry(char *buf)
{
	char *sp = strchr(buf, ' ');
	struct foot_entry e = { buf, "", 0, true };

	if (sp != NULL) {
		*sp = '\0';
		e.word = sp + 1;
	}
	e.width = tui_width(e.key) + (*e.word ? 1 + tui_width(e.word) : 0);
	return e;
}

/* The entries of screen s then the global ones, cut out of buf (which
   they point into); how many, and how many are the screen's in *own. */
static size_t
foot_entries(const struct tui_screen *s, const char *keys, struct foot_entry *e,
    size_t *own, char *buf, size_t len)
{
	struct tui_key g[GLOBALS_MAX];
	size_t n = 0, used, screens = 0;
	char *p;

	snprintf(buf, len, "%s",
	    keys            ? _(keys)
		: s->status ? _(s->status)
			    : "");
	used = strlen(buf) + 1;
	for (p = buf; *p != '\0' && n < FOOT_MAX;) {
		char *end = strstr(p, "  ");

		if (end != NULL)
			*end = '\0';
		e[n++] = foot_entry(p);
		if (end == NULL)
			break;
		p = end + strspn(end + 1, " ") + 1;
	}
	*own = n;
	while (tui_screens[screens] != NULL)
		screens++;
	for (const struct tui_key *k = globals(foot_head, foot_tail, true, g);
	     k->what && n < FOOT_MAX; k++) {
		int w = k->keys ? snprintf(buf + used, len - used, "%s %s",
				      k->keys, _(k->what))
				: snprintf(buf + used, len - used, "1-%zu %s",
				      screens, _(k->what));

		if (w < 0 || (size_t)w >= len - used)
			break;
		e[n++] = foot_entry(buf + used);
		used += (size_t)w + 1;
	}
	return n;
}

static int
foot_width(const struct foot_entry *e, size_t n)
{
	int w = 0, on = 0;

	for (size_t i = 0; i < n; i++)
		if (e[i].on) {
			w += e[i].width;
			on++;
		}
	return on > 1 ? w + (on - 1) * FOOT_GAP : w;
}

/*
 * Whole entries only, never one cut: while they do not fit, drop the
 * global ones from the last (help kept), then the screen's own from its
 * last (its first kept), then help, then the first.
 */
static void
foot_fit(struct foot_entry *e, size_t n, size_t own, int cols)
{
	size_t order[FOOT_MAX], m = 0;

	for (size_t i = n; i > own + 1; i--)
		order[m++] = i - 1;
	for (size_t i = own; i > 1; i--)
		order[m++] = i - 1;
	if (n > own)
		order[m++] = own;
	if (own > 0)
		order[m++] = 0;
	for (size_t i = 0; i < m && foot_width(e, n) > cols; i++)
		e[order[i]].on = false;
}

void
tui_help_foot(struct tui *t)
{
	const struct tui_screen *s = tui_screens[t->cur];
	struct foot_entry e[FOOT_MAX];
	char buf[1024];
	size_t own, n;
	int x = 0;

	werase(t->foot);
	wbkgd(t->foot, (chtype)tui_attr(t, TUI_PAIR_TITLE));
	if (t->message[0] != '\0') {
		if (t->message_bad && t->color)
			wattron(t->foot, A_BOLD);
		tui_put(t->foot, 0, 0, t->cols, t->message);
		wattroff(t->foot, A_BOLD);
		wnoutrefresh(t->foot);
		return;
	}
	n = foot_entries(s, t->foot_keys, e, &own, buf, sizeof buf);
	foot_fit(e, n, own, t->cols);
	for (size_t i = 0; i < n; i++) {
		int kw = tui_width(e[i].key);

		if (!e[i].on)
			continue;
		/* The key stands out from its word, as in htop. */
		wattron(t->foot, A_BOLD);
		tui_put(t->foot, 0, x, kw, e[i].key);
		wattroff(t->foot, A_BOLD);
		if (e[i].width > kw)
			tui_put(t->foot, 0, x + kw + 1, e[i].width - kw - 1,
			    e[i].word);
		x += e[i].width + FOOT_GAP;
	}
	wnoutrefresh(t->foot);
}

/* ---------------------------------------------------------------- help */

/* The keys are drawn at column 2, 14 wide; the text at HELP_KEYS - 2,
   in the box's width less HELP_KEYS + 2. */
#define HELP_KEYS 19

/* Where text, cut to at most width bytes at a space, ends (the whole of
   it when it fits; at width when one word is longer). */
static size_t
help_cut(const char *text, size_t width)
{
	size_t len = strlen(text), cut = width;

	if (len <= width)
		return len;
	while (cut > 0 && text[cut] != ' ')
		cut--;
	return cut > 0 ? cut : width;
}

/* Rows the keys take in a box whose text column is width wide. */
static int
help_lines(const struct tui_key *k, size_t width)
{
	int n = 0;

	for (; k != NULL && k->keys != NULL; k++)
		for (const char *p = _(k->what); n++, *p != '\0';) {
			p += help_cut(p, width);
			p += strspn(p, " ");
			if (*p == '\0')
				break;
		}
	return n;
}

/* s into buf with the few non-ASCII signs the keys' texts use as ASCII
   (--ascii: the help must be as plain as the screens). */
static const char *
help_ascii(const char *s, char *buf, size_t len)
{
	static const char *const map[][2] = { { "\u00b1", "+-" },
		{ "\u2260", "!=" }, { "\u2026", "..." }, { "\u2191", "^" },
		{ "\u2193", "v" } };
	size_t o = 0;

	while (*s != '\0' && o + 4 < len) {
		size_t m = 0;

		while (m < sizeof map / sizeof map[0] &&
		    strncmp(s, map[m][0], strlen(map[m][0])) != 0)
			m++;
		if (m < sizeof map / sizeof map[0]) {
			memcpy(buf + o, map[m][1], strlen(map[m][1]));
			o += strlen(map[m][1]);
			s += strlen(map[m][0]);
		} else {
			buf[o++] = *s++;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* Draw the rows of keys k from row *r of the help's text on, those that
   fall inside the box's window from top (rows 1 to h - 2 of win). */
static void
help_draw_keys(WINDOW *win, const struct tui_key *k, int *r, int top, int h,
    int w, bool ascii)
{
	for (; k != NULL && k->keys != NULL; k++) {
		char what[1024], keys[64];
		const char *p = ascii
		    ? help_ascii(_(k->what), what, sizeof what)
		    : _(k->what);
		const char *kk =
		    ascii ? help_ascii(k->keys, keys, sizeof keys) : k->keys;
		bool first = true;

		do {
			size_t c = help_cut(p, (size_t)(w - HELP_KEYS - 2));
			int y = *r - top + 1;
			char line[256];

			if (y >= 1 && y < h - 1) {
				if (first) {
					wattron(win, A_BOLD);
					tui_put(win, y, 2, 14, kk);
					wattroff(win, A_BOLD);
				}
				snprintf(line, sizeof line, "%.*s", (int)c, p);
				tui_put(win, y, HELP_KEYS - 2, w - HELP_KEYS,
				    line);
			}
			(*r)++;
			first = false;
			p += c;
			p += strspn(p, " ");
		} while (*p != '\0');
	}
}

/* The keys of the current screen, then the global ones, in a box as wide
   as the longest line needs (up to the screen), long ones wrapped. On a
   screen too short for them the box scrolls (tui_help_key). */
void
tui_help_draw(struct tui *t)
{
	const struct tui_screen *s = tui_screens[t->cur];
	struct tui_key g[GLOBALS_MAX];
	const struct tui_key *global_keys =
	    globals(global_head, global_tail, false, g);
	const struct tui_key *lists[] = { s->keys, global_keys };
	int w = 0, h, n, r = 0;
	WINDOW *win;

	for (size_t l = 0; l < 2; l++)
		for (const struct tui_key *k = lists[l]; k && k->keys; k++)
			if ((int)strlen(_(k->what)) + HELP_KEYS + 2 > w)
				w = (int)strlen(_(k->what)) + HELP_KEYS + 2;
	w = w < 40 ? 40 : w > t->cols - 4 ? t->cols - 4 : w;
	if (w <= HELP_KEYS + 2 || t->rows < 5)
		return;
	n = help_lines(s->keys, (size_t)(w - HELP_KEYS - 2)) + 1 +
	    help_lines(global_keys, (size_t)(w - HELP_KEYS - 2));
	h = n + 2 < t->rows - 2 ? n + 2 : t->rows - 2;
	t->help_max = n - (h - 2) > 0 ? n - (h - 2) : 0;
	if (t->help_top > t->help_max)
		t->help_top = t->help_max;
	if ((win = newwin(h, w, (t->rows - h) / 2, (t->cols - w) / 2)) == NULL)
		return;
	tui_box(t, win);
	wattron(win, A_BOLD);
	tui_put(win, 0, 2, w - 4, _(s->name));
	wattroff(win, A_BOLD);
	help_draw_keys(win, s->keys, &r, t->help_top, h, w, t->ascii);
	r++; /* a blank row between the screen's keys and the global ones */
	help_draw_keys(win, global_keys, &r, t->help_top, h, w, t->ascii);
	if (t->help_max > 0) {
		char more[64];

		snprintf(more, sizeof more, " %s ",
		    t->help_top < t->help_max ? _("more: Down/PgDn")
					      : _("Up/PgUp: back"));
		tui_put(win, h - 1, w - 2 - tui_width(more), tui_width(more),
		    more);
	}
	wnoutrefresh(win);
	delwin(win);
}

/* A key while the help is shown: scrolls a box that does not fit; any
   other key closes it. True when the key was used for scrolling. */
bool
tui_box_scroll(const struct tui *t, int ch, int max, int *top)
{
	int page = t->rows - 6 > 1 ? t->rows - 6 : 1, at = *top;

	if (ch == KEY_DOWN || ch == 'j')
		at++;
	else if (ch == KEY_UP || ch == 'k')
		at--;
	else if (ch == KEY_NPAGE || ch == ' ')
		at += page;
	else if (ch == KEY_PPAGE)
		at -= page;
	else if (ch == KEY_HOME)
		at = 0;
	else if (ch == KEY_END)
		at = max;
	else
		return false;
	*top = at < 0 ? 0 : at > max ? max : at;
	return true;
}

bool
tui_help_key(struct tui *t, int ch)
{
	if (t->help_max == 0 ||
	    !tui_box_scroll(t, ch, t->help_max, &t->help_top))
		return false;
	t->redraw = true;
	return true;
}
