/*
 * mdwatch read from one thread while its watcher thread samples, as the
 * runner reads a rebuild during the workloads (mdwatch_now()): md's
 * sync_completed stepped over and over in a sysfs tree of the test's
 * own, each reading whole (done and total from one sample: every value
 * written has total = 2 done + 2, so a torn reading shows), then the
 * end. A plain program, not Criterion: Criterion cannot run under TSan,
 * and this test is for the TSan build too (TSAN_OPTIONS has
 * halt_on_error=1), where a race between the two threads shows.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "build/mdwatch.h"

#define STEPS 200

static char root[PATH_MAX];

/* Write rel under md127/md as md changes it: all at once. */
static int
put(const char *rel, const char *text)
{
	char tmp[PATH_MAX * 2], dst[PATH_MAX * 2];
	FILE *f;

	snprintf(tmp, sizeof tmp, "%s/block/md127/md/.tmp", root);
	snprintf(dst, sizeof dst, "%s/block/md127/md/%s", root, rel);
	if ((f = fopen(tmp, "w")) == NULL)
		return -1;
	fputs(text, f);
	fclose(f);
	return rename(tmp, dst);
}

/* Read w for about a millisecond; false on a torn reading. */
static bool
read_whole(struct mdwatch *w, unsigned long long *last)
{
	struct timespec us50 = { 0, 50 * 1000L };

	for (int i = 0; i < 20; i++) {
		struct mdwatch_now n;

		mdwatch_now(w, &n);
		/* in bytes: 512 a sector */
		if (n.total != 0 && n.total != 2 * n.done + 2 * 512) {
			fprintf(stderr, "torn: done %llu of %llu\n", n.done,
			    n.total);
			return false;
		}
		if (n.total != 0 && strcmp(n.action, "recover") != 0) {
			fprintf(stderr, "action \"%s\"\n", n.action);
			return false;
		}
		*last = n.done / 512;
		nanosleep(&us50, NULL);
	}
	return true;
}

int
main(void)
{
	char d[PATH_MAX * 2], v[64];
	unsigned long long last = 0;
	struct mdwatch_now n;
	struct mdwatch *w;
	json_t *o;
	bool ok = true;
	int waited = 0;

	snprintf(root, sizeof root, "/tmp/raidlab-mdwatch.XXXXXX");
	if (mkdtemp(root) == NULL)
		return 1;
	snprintf(d, sizeof d, "mkdir -p '%s/block/md127/md'", root);
	if (system(d) != 0)
		return 1;
	put("sync_action", "recover\n");
	put("sync_completed", "0 / 2\n");
	put("sync_speed", "1000\n");
	if ((w = mdwatch_start(root, "md127", 1)) == NULL)
		return 1;
	for (unsigned long long k = 1; k <= STEPS && ok; k++) {
		snprintf(v, sizeof v, "%llu / %llu\n", k * 8, k * 16 + 2);
		put("sync_completed", v);
		ok = read_whole(w, &last);
	}
	put("sync_action", "idle\n");
	/* up to 10 s for the watcher to see md idle */
	do {
		struct timespec ms5 = { 0, 5 * 1000000L };

		mdwatch_now(w, &n);
		nanosleep(&ms5, NULL);
	} while (!n.finished && ++waited < 2000);
	ok = ok && n.finished && last > 0;
	o = mdwatch_end(w);
	ok = ok && json_is_true(json_object_get(o, "complete"));
	json_decref(o);
	snprintf(d, sizeof d, "rm -rf '%s'", root);
	if (system(d) != 0)
		ok = false;
	printf("mdwatch read %s over %d steps, the last at %llu sectors\n",
	    ok ? "whole" : "NOT whole", STEPS, last);
	return ok ? 0 : 1;
}
