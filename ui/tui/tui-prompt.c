/*
 * The name / yes-no prompt of the list screens: see tui-prompt.h.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "tui-form.h"
#include "tui-prompt.h"
#include "tui.h"

void
tui_prompt_name(struct tui_prompt *p, const char *title, const char *initial)
{
	p->yes_no = false;
	snprintf(p->title, sizeof p->title, "%s", title);
	snprintf(p->input, sizeof p->input, "%s", initial ? initial : "");
	p->fresh = p->input[0] != '\0';
}

void
tui_prompt_yes_no(struct tui_prompt *p, const char *title)
{
	p->yes_no = true;
	snprintf(p->title, sizeof p->title, "%s", title);
	p->input[0] = '\0';
}

enum tui_prompt_result
tui_prompt_key(struct tui_prompt *p, int ch)
{
	size_t n = strlen(p->input);

	if (p->yes_no)
		return ch == 'y' || ch == 'Y' ? TUI_PROMPT_ACCEPT
					      : TUI_PROMPT_CANCEL;
	if (ch == 27)
		return TUI_PROMPT_CANCEL;
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return TUI_PROMPT_ACCEPT;
	if (p->fresh && ch > 0 && ch < 128 &&
	    (isalnum(ch) || strchr("._-", ch) != NULL))
		p->input[0] = '\0', n = 0;
	p->fresh = false;
	if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n > 0)
			p->input[n - 1] = '\0';
	} else if (ch == 21) { /* ^U */
		p->input[0] = '\0';
	} else if (ch > 0 && ch < 128 &&
	    (isalnum(ch) || strchr("._-", ch) != NULL) &&
	    n + 1 < sizeof p->input) {
		p->input[n] = (char)ch;
		p->input[n + 1] = '\0';
	}
	return TUI_PROMPT_OPEN;
}

void
tui_prompt_draw(const struct tui_prompt *p, struct tui *t, WINDOW *w)
{
	/* Wide enough for "name: ", the longest name and the cursor. */
	int full = LAB_NAME_MAX + 12;
	int wd = t->cols - 4 < full ? t->cols - 4 : full, h = 5;
	int y = (getmaxy(w) - h) / 2, x = (t->cols - wd) / 2;
	const char *in = p->input;
	char line[128];
	size_t room;

	for (int r = 0; r < h; r++)
		mvwhline(w, y + r, x, ' ', wd);
	tui_frame(t, w, y, x, h, wd);
	wattron(w, A_BOLD);
	tui_put(w, y, x + 2, wd - 4, p->title);
	wattroff(w, A_BOLD);
	if (p->yes_no)
		return;
	/* On a narrow screen the end of the input stays in view. */
	snprintf(line, sizeof line, _("name: %s"), "");
	room = wd > 6 + (int)strlen(line) ? (size_t)wd - 5 - strlen(line) : 1;
	if (strlen(in) > room)
		in += strlen(in) - room;
	snprintf(line, sizeof line, _("name: %s"), in);
	tui_put(w, y + 2, x + 2, wd - 4, line);
	if (p->fresh) /* selected: what typing replaces */
		mvwchgat(w, y + 2, x + 2 + (int)(strlen(line) - strlen(in)),
		    (int)strlen(in), A_REVERSE, 0, NULL);
	else
		mvwchgat(w, y + 2, x + 2 + (int)strlen(line), 1, A_REVERSE, 0,
		    NULL);
	wattron(w, tui_attr(t, TUI_PAIR_DIM));
	tui_put(w, y + 3, x + 2, wd - 4,
	    p->fresh ? _("typing replaces  Backspace edits  Enter confirm  "
			 "Esc cancel")
		     : _("Enter confirm  Esc cancel  ^U clear"));
	wattroff(w, tui_attr(t, TUI_PAIR_DIM));
}
