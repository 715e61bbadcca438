/*
 * The one-line path field of the Lab files and Compare screens: editing
 * keys, file name completion on Tab, drawing with a visible cursor (the
 * terminal's own cursor is off). See tui-files.h. UI thread only.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/paths.h"
#include "base/xalloc.h"
#include "tui-files.h"
#include "tui.h"

#define CTRL(c) ((c)&0x1f)

static bool
is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

static void
reserve(struct tui_path *f, size_t more)
{
	if (f->buf != NULL && f->len + more + 1 <= f->cap)
		return;
	f->cap = (f->len + more + 1) * 2;
	f->buf = xrealloc(f->buf, f->cap);
	if (f->len == 0)
		f->buf[0] = '\0';
}

void
tui_path_set(struct tui_path *f, const char *s)
{
	f->len = f->cur = 0;
	reserve(f, strlen(s));
	memcpy(f->buf, s, strlen(s) + 1);
	f->len = f->cur = strlen(s);
}

void
tui_path_done(struct tui_path *f)
{
	free(f->buf);
	memset(f, 0, sizeof *f);
}

static void
insert(struct tui_path *f, const char *s, size_t n)
{
	reserve(f, n);
	memmove(f->buf + f->cur + n, f->buf + f->cur, f->len - f->cur + 1);
	memcpy(f->buf + f->cur, s, n);
	f->len += n;
	f->cur += n;
}

/* Remove the character that starts at byte at. */
static void
erase_at(struct tui_path *f, size_t at)
{
	size_t end = at + 1;

	while (end < f->len && is_cont((unsigned char)f->buf[end]))
		end++;
	memmove(f->buf + at, f->buf + end, f->len - end + 1);
	f->len -= end - at;
	if (f->cur > at)
		f->cur = f->cur >= end ? f->cur - (end - at) : at;
}

static size_t
prev_char(const struct tui_path *f, size_t at)
{
	while (at > 0 && is_cont((unsigned char)f->buf[--at]))
		;
	return at;
}

static size_t
next_char(const struct tui_path *f, size_t at)
{
	if (at < f->len)
		at++;
	while (at < f->len && is_cont((unsigned char)f->buf[at]))
		at++;
	return at;
}

/* ---------------------------------------------------------------- complete */

/* The directory to list for a prefix ("~/" is the home directory). */
static char *
list_dir_of(const char *dir)
{
	return dir[0] == '\0' ? xstrdup(".") : paths_expand(dir);
}

static bool
is_dir(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool d = stat(p, &st) == 0 && S_ISDIR(st.st_mode);

	free(p);
	return d;
}

/*
 * Complete the name before the cursor: insert what every matching entry
 * of its directory has in common; a single match that is a directory
 * gets a '/'.
 */
static void
complete(struct tui_path *f)
{
	char *head = xstrndup(f->buf, f->cur), *slash = strrchr(head, '/');
	const char *base = slash ? slash + 1 : head;
	char *dir =
	    slash ? xstrndup(head, (size_t)(slash - head) + 1) : xstrdup("");
	char *list = list_dir_of(dir), *common = NULL;
	size_t blen = strlen(base), n = 0, clen = 0;
	DIR *d = opendir(list);
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL) {
		const char *nm = de->d_name;

		if (strncmp(nm, base, blen) != 0 || strcmp(nm, ".") == 0 ||
		    strcmp(nm, "..") == 0 || (nm[0] == '.' && base[0] != '.'))
			continue;
		if (n++ == 0) {
			common = xstrdup(nm);
			clen = strlen(nm);
			continue;
		}
		while (clen > 0 && strncmp(common, nm, clen) != 0)
			clen--;
	}
	if (d != NULL)
		closedir(d);
	if (n > 0 && clen > blen)
		insert(f, common + blen, clen - blen);
	if (n == 1 && is_dir(list, common) &&
	    (f->cur == f->len || f->buf[f->cur] != '/'))
		insert(f, "/", 1);
	free(common);
	free(list);
	free(dir);
	free(head);
}

/* ---------------------------------------------------------------- keys */

enum tui_path_done
tui_path_key(struct tui_path *f, int ch)
{
	char c;

	reserve(f, 0);
	switch (ch) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		return TUI_PATH_ENTER;
	case 27:
		return TUI_PATH_CANCEL;
	case KEY_LEFT:
		f->cur = prev_char(f, f->cur);
		break;
	case KEY_RIGHT:
		f->cur = next_char(f, f->cur);
		break;
	case KEY_HOME:
	case CTRL('a'):
		f->cur = 0;
		break;
	case KEY_END:
	case CTRL('e'):
		f->cur = f->len;
		break;
	case KEY_BACKSPACE:
	case 127:
	case CTRL('h'):
		if (f->cur > 0)
			erase_at(f, prev_char(f, f->cur));
		break;
	case KEY_DC:
	case CTRL('d'):
		if (f->cur < f->len)
			erase_at(f, f->cur);
		break;
	case CTRL('u'):
		f->len = f->cur = 0;
		f->buf[0] = '\0';
		break;
	case '\t':
		complete(f);
		break;
	default:
		/* Bytes of a multibyte character arrive one by one. */
		if (ch >= ' ' && ch <= 0xff && ch != 127) {
			c = (char)ch;
			insert(f, &c, 1);
		}
		break;
	}
	return TUI_PATH_EDITING;
}

/* ---------------------------------------------------------------- draw */

/* Characters (not bytes) in s[from..to). */
static int
chars(const char *s, size_t from, size_t to)
{
	int n = 0;

	for (size_t i = from; i < to; i++)
		n += !is_cont((unsigned char)s[i]);
	return n;
}

void
tui_path_draw(const struct tui_path *f, WINDOW *w, int y, int width,
    const char *prompt)
{
	const char *text = f->buf ? f->buf : "";
	int plen = (int)strlen(prompt), room = width - plen - 1, x;
	size_t start = 0, end;
	char cell[8];

	tui_put(w, y, 0, width, prompt);
	if (room < 1)
		return;
	/* Scroll so that the cursor's cell fits. */
	while (chars(text, start, f->cur) >= room)
		start = next_char(f, start);
	tui_put(w, y, plen, room, text + start);
	x = plen + chars(text, start, f->cur);
	end = f->cur < f->len ? next_char(f, f->cur) : f->cur;
	snprintf(cell, sizeof cell, "%.*s", (int)(end - f->cur),
	    f->cur < f->len ? text + f->cur : " ");
	if (cell[0] == '\0')
		snprintf(cell, sizeof cell, " ");
	wattron(w, A_REVERSE);
	tui_put(w, y, x, 1, cell);
	wattroff(w, A_REVERSE);
}
