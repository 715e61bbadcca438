/*
 * jansson helpers: see jsonx.h. Any thread.
 */
#include "config.h"

#include <stdlib.h>

#include "jsonx.h"
#include "xalloc.h"

json_t *
jsonx_str(const char *s)
{
	json_t *j;
	char *c, *p;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	c = xstrdup(s);
	for (p = c; *p != '\0'; p++)
		if ((unsigned char)*p >= 0x80 || (unsigned char)*p < 0x20)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}
