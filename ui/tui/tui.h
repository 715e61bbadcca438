/*
 * The interactive lab: one ncurses program with a screen per task (disks,
 * compose, workloads, run, compare, lab files), each a const struct
 * tui_screen in its own tui-*.c file and one line in tui_screens[]
 * (tui.c), in the order of their number keys. The loop (tui.c) owns the
 * terminal: it polls the keyboard, the screens' file descriptors (a run's
 * event queue) and a tick; screens' key and tick handlers change state
 * and set t->redraw, never draw; when redraw is set the loop erases the
 * body window, calls the current screen's draw, draws the header and
 * status lines and updates the terminal once (wnoutrefresh + doupdate).
 * Only this thread touches curses, the lab being edited and the results.
 */
#ifndef RAIDLAB_TUI_H
#define RAIDLAB_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include <curses.h>

struct lab;

/* Colour pairs (tui_attr() gives each its attribute: without colours,
   reverse, dim or bold for a few and plain for the rest). */
enum tui_pair {
	TUI_PAIR_NONE,
	TUI_PAIR_TITLE, /* header and status bars */
	TUI_PAIR_GOOD, /* free, ok */
	TUI_PAIR_WARN, /* has data, notes */
	TUI_PAIR_BAD, /* busy, errors */
	TUI_PAIR_DIM, /* greyed-out fields, hints */
	TUI_PAIR_SERIES0, /* plot series (read, files/s...) */
	TUI_PAIR_SERIES1,
	TUI_PAIR_SERIES2,
	TUI_PAIR_SERIES3,
	TUI_PAIR_SEL, /* selected row */
	TUI_PAIR__COUNT,
};

/* One line of a screen's help: the keys, and what they do (N_()). */
struct tui_key {
	const char *keys;
	const char *what;
};

/*
 * A global key that a screen declares: from any screen it shows that
 * screen and presses one of its keys there (F5: the Run screen's r). The
 * help box and the status bar list it among the global keys.
 */
struct tui_hotkey {
	int ch; /* the key: KEY_F(5) */
	const char *name; /* how the help and the status bar write it: "F5" */
	int key; /* the screen's own key it presses: 'r' */
	const char *what; /* N_(): its line in the help box */
	const char *word; /* N_(): its word in the status bar; NULL: none */
};

enum tui_handled {
	TUI_UNHANDLED, /* the loop tries its global keys */
	TUI_HANDLED,
};

struct tui;

struct tui_screen {
	const char *name; /* N_("Disks"): header tab */
	const struct tui_key *keys; /* NULL-terminated (keys == NULL) */
	void *(*init)(struct tui *t);
	void (*free)(void *s);
	/* The screen becomes the current one (also after a resize). */
	void (*enter)(void *s, struct tui *t);
	/* Draw into w (the body: every row but the header and status). */
	void (*draw)(void *s, struct tui *t, WINDOW *w);
	/* A key (or KEY_MOUSE with the event in t->mouse). */
	enum tui_handled (*key)(void *s, struct tui *t, int ch);
	/* Each tick (t->tick_ms), current screen or not. May be NULL. */
	void (*tick)(void *s, struct tui *t, bool current);
	/* A descriptor the loop polls for this screen (-1: none), and what
	   to do when it is readable. May be NULL. */
	int (*fd)(void *s);
	void (*readable)(void *s, struct tui *t);
	/* Global keys that lead here, ended by ch 0. May be NULL. */
	const struct tui_hotkey *hotkeys;
	/* Work that quitting would cut short (a run in progress): what the
	   first q says of it (translated), asking for a second; NULL when
	   there is none. May be NULL. */
	const char *(*busy)(void *s, const struct tui *t);
	/* Stop that work (Ctrl-C, quitting): true when there was some.
	   May be NULL. */
	bool (*stop)(void *s, struct tui *t);
	/* Quitting, after stop: wait until the stopped work has ended (a
	   run's teardown and record). May be NULL. */
	void (*finish)(void *s, struct tui *t);
	/* The user asks to quit: true lets the loop end; false holds the
	   quit while the screen asks first (unsaved changes): the loop
	   makes it current, and it sets t->quit once answered. May be
	   NULL. */
	bool (*quit)(void *s, struct tui *t);
	/* The status bar's entries when the screen is current (N_()):
	   "r run  x stop", a key then its word or two, two spaces between
	   entries, the most important first: a narrow terminal drops whole
	   entries from the last (tui_help_foot). */
	const char *status;
};

struct tui {
	struct lab *lab; /* the lab being edited (owned) */
	char *lab_path; /* where it was loaded from / saves to */
	unsigned long lab_gen; /* bumped when another lab is opened or made:
				  what screens kept of the last one goes */
	bool dirty; /* unsaved changes */
	size_t variant; /* the variant being composed / shown */

	size_t cur; /* index into tui_screens[] */
	void **state; /* per screen */
	bool redraw, quit, help;
	int help_top,
	    help_max; /* the help box's first row shown, and its last */
	bool ascii; /* --ascii, or a non-UTF-8 locale */
	bool color; /* colours on (a colour terminal and no NO_COLOR) */
	unsigned tick_ms;
	int rows, cols;
	WINDOW *head, *body, *foot;
	MEVENT mouse;
	bool mouse_down; /* a press came alone: its release is no click */
	bool mouse_on; /* reporting on (tui-mouse.h): M toggles it */
	char *last_record; /* the Run screen's last finished record (path;
			      a fleet run's, one a line): the Compare
			      screen adds them when shown */
	unsigned long last_record_gen; /* the lab_gen it finished in */
	const char *foot_keys; /* N_(): the status bar's entries instead of
				  the screen's while it is in a mode of its
				  own (a field being typed); set by its draw,
				  cleared by the loop before each draw */
	char message[256]; /* shown in the status bar until the next key */
	bool message_bad;
	char *dialog; /* a text shown whole over the screen (tui_dialog) */
	char dialog_title[128];
	bool dialog_bad;
	int dialog_top, dialog_max; /* its first row shown, and its last */
	int exit_signal; /* SIGTERM or SIGHUP ended the loop; 0 otherwise */
	bool quit_armed; /* q pressed during a run: the next q quits */
	const char *ssh_config; /* --ssh-config: ssh -F for a fleet's
				   hosts; NULL: ssh's own */
};

extern const struct tui_screen tui_disks;
extern const struct tui_screen tui_compose;
extern const struct tui_screen tui_workloads;
extern const struct tui_screen tui_run;
extern const struct tui_screen tui_compare;
extern const struct tui_screen tui_files;

/* NULL-terminated, in number-key order ("1" is the first). */
extern const struct tui_screen *const tui_screens[];

/* Screen i's tab in the header (" 2 Compose "), into buf; its width. The
   header and the mouse's tab clicks lay tabs out with it alike. */
int tui_tab_label(size_t i, char *buf, size_t len);

/*
 * Run the lab on the terminal until the user quits; lab_path names the
 * lab to open (NULL: the default lab). Returns 0 when the user quit, the
 * signal that ended it (SIGTERM, SIGHUP), -EINVAL when the lab named
 * does not load (every problem said on stderr), -EIO when the terminal
 * cannot be set up. cli-tui.c makes it an exit status.
 */
int tui_main(const char *lab_path, bool ascii, const char *ssh_config);

/*
 * The status bar (tui-help.c): the message, or the current screen's
 * entries then the global ones (help, quit, run, mouse, screens), as many
 * whole ones as the width holds: globals go first, then the screen's from
 * its last, help and the screen's first last of all; none is ever cut.
 */
void tui_help_foot(struct tui *t);

/* The help box over the screen (F1): the current screen's keys, then the
   global ones, with what each does. */
void tui_help_draw(struct tui *t);

/* A key while the help is shown: true when it scrolled a box that does
   not fit (any other key closes the help). */
bool tui_help_key(struct tui *t, int ch);

/* *top moved by a box's scrolling key (Down/Up, j/k, PgDn/Space, PgUp,
   Home, End) and kept within 0..max, for boxes over the screen (help,
   dialog): false, and *top as it was, for any other key. */
bool tui_box_scroll(const struct tui *t, int ch, int max, int *top);

/* Show a message in the status bar (translated by the caller). */
void tui_message(struct tui *t, bool bad, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * A text too long for the status bar (a refusal, with its reasons; the
 * whole run log), shown whole over the screen in a box: wrapped at
 * blanks to the box's width, '\n' starts a line. Arrows and PgUp/PgDn
 * scroll it when it does not fit; any other key closes it (tui-dialog.c).
 * A second dialog replaces the first. title and text: translated.
 */
void tui_dialog(struct tui *t, bool bad, const char *title, const char *text);
void tui_dialog_draw(struct tui *t);
void tui_dialog_key(struct tui *t, int ch);

/* One line of a wrapped text: len bytes from s, without its '\n'. */
struct tui_line {
	const char *s;
	size_t len;
};

/*
 * s wrapped to width display columns (tui_put's, unlike tui-form.h's
 * one-line tui_wrap): at blanks, a word wider than the
 * line cut where the line ends, at each '\n'. The lines go into v (at
 * most max of them); returns how many there are in all (call with max 0
 * to count). An empty s is one empty line.
 */
size_t tui_wrap_lines(const char *s, int width, struct tui_line *v, size_t max);

/* The bytes of the character at s, its display columns in *cw (a byte
   tui_put shows as "\xHH": 1 byte, 4 columns). */
size_t tui_char(const char *s, int *cw);

/* Like tui_put, for a tui_line (at most 1023 bytes of it). */
void tui_put_line(WINDOW *w, int y, int x, int width, const struct tui_line *l);

/* The attribute of a colour pair, or A_NORMAL when colours are off. */
int tui_attr(const struct tui *t, enum tui_pair p);

/* A border around w: line drawing, or ASCII with --ascii. */
void tui_box(const struct tui *t, WINDOW *w);

/* Switch to screen number i (0-based). */
void tui_show(struct tui *t, size_t i);

/* Draw s clipped to w columns at (y, x), in the locale's display widths. */
void tui_put(WINDOW *w, int y, int x, int width, const char *s);

/* Display columns of s in the locale (a bad byte counts as one). */
int tui_width(const char *s);

/* Like tui_put, but a string too wide loses its start, not its end,
   behind an ellipsis: for paths, whose file name matters most. */
void tui_put_tail(const struct tui *t, WINDOW *w, int y, int x, int width,
    const char *s);

/* Like tui_put, but a string too wide ends in an ellipsis ("..." with
   --ascii) at the edge, so that a cut text reads as cut: descriptions. */
void tui_put_end(const struct tui *t, WINDOW *w, int y, int x, int width,
    const char *s);

/* s cut in the middle to width columns: its head and its tail with an
   ellipsis between ("..." with --ascii), so that names sharing a prefix
   stay apart. The last keep bytes (a record number " #3") are never cut;
   too narrow for that, s is left whole for tui_put to clip. */
void tui_cut_mid(const struct tui *t, const char *s, size_t keep, int width,
    char *buf, size_t len);

/* tui_cut_mid, then tui_put. */
void tui_put_mid(const struct tui *t, WINDOW *w, int y, int x, int width,
    const char *s, size_t keep);

#endif
