/*
 * The report as one HTML file (share.h): for now the text report in a
 * <pre>, escaped; the charts (share-svg.c) replace it. No script, no
 * external resource. The thread that owns the records.
 */
#include "config.h"

#include <string.h>

#include "share.h"
#include "strbuf.h"

static void
esc(struct strbuf *out, const char *s)
{
	for (; *s != '\0'; s++) {
		char one[2] = { *s, '\0' };

		strbuf_add(out,
		    *s == '<'       ? "&lt;"
			: *s == '>' ? "&gt;"
			: *s == '&' ? "&amp;"
				    : one);
	}
}

void
share_html(const struct share *s, struct strbuf *out)
{
	struct strbuf t;

	strbuf_init(&t);
	strbuf_add(&t, "");
	share_text(s, &t);
	strbuf_add(out,
	    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>");
	esc(out, s->title);
	strbuf_add(out, "</title>\n</head>\n<body>\n<pre>");
	esc(out, t.s);
	strbuf_add(out, "</pre>\n</body>\n</html>\n");
	strbuf_done(&t);
}
