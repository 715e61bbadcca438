/*
 * btrfs's scrub and replace followed (btrfswatch.h). The ops run on the watcher
 * thread only; the context is theirs until end() frees it.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<linux/btrfs.h>)
#include <linux/btrfs.h>
#endif
#endif

#include "base/xalloc.h"
#include "btrfswatch.h"
#include "exec.h"

/* A status command that takes longer is stuck: the look gives up. */
#define STATUS_TIMEOUT 5.0
/* Looks with no scrub in the kernel before the watch ends without
   btrfs-progs's "finished" (10 s at raidlab's 500 ms). */
#define KERNEL_IDLE_LOOKS 20

const char *const btrfswatch_errors[BTRFSWATCH_NERR] = { "read_errors",
	"csum_errors", "verify_errors", "super_errors", "malloc_errors",
	"uncorrectable_errors", "unverified_errors", "corrected_errors" };

/* The value after "key:" at the start of line (after blanks), or NULL. */
static const char *
value(const char *line, const char *key)
{
	size_t n = strlen(key);

	line += strspn(line, " \t");
	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return NULL;
	return line + n + 1 + strspn(line + n + 1, " \t");
}

static void
parse_line(const char *l, struct btrfswatch_scrub *s, unsigned long long *data,
    unsigned long long *tree, unsigned long long *bytes)
{
	const char *v;

	if (value(l, "UUID") != NULL)
		s->seen = true;
	if ((v = value(l, "Status")) != NULL)
		snprintf(s->status, sizeof s->status, "%.*s",
		    (int)strcspn(v, " \t\n"), v);
	if ((v = value(l, "Total to scrub")) != NULL)
		s->total = strtoull(v, NULL, 10);
	if ((v = value(l, "Bytes scrubbed")) != NULL)
		*bytes = strtoull(v, NULL, 10);
	if ((v = value(l, "data_bytes_scrubbed")) != NULL)
		*data = strtoull(v, NULL, 10);
	if ((v = value(l, "tree_bytes_scrubbed")) != NULL)
		*tree = strtoull(v, NULL, 10);
	for (size_t i = 0; i < BTRFSWATCH_NERR; i++)
		if ((v = value(l, btrfswatch_errors[i])) != NULL)
			s->err[i] = strtoull(v, NULL, 10);
}

bool
btrfswatch_parse_scrub(const char *text, struct btrfswatch_scrub *s)
{
	unsigned long long data = 0, tree = 0, bytes = 0;
	char line[512];

	memset(s, 0, sizeof *s);
	snprintf(s->status, sizeof s->status, "running");
	while (text != NULL && *text != '\0') {
		size_t n = strcspn(text, "\n");

		snprintf(line, sizeof line, "%.*s",
		    (int)(n < sizeof line ? n : sizeof line - 1), text);
		parse_line(line, s, &data, &tree, &bytes);
		text += n + (text[n] == '\n');
	}
	/* -R counts data and tree apart; without it, one "Bytes
	   scrubbed" line, and only while it runs */
	s->done = data + tree > 0 ? data + tree : bytes;
	return s->seen;
}

bool
btrfswatch_scrub_ended(const struct btrfswatch_scrub *s)
{
	return strcmp(s->status, "running") != 0;
}

/*
 * Bytes the running scrub has read so far, from the kernel itself
 * (BTRFS_IOC_SCRUB_PROGRESS on each device): btrfs-progs 6.2 prints "no
 * stats available" until a scrub has ended. 0 when none runs or the
 * kernel's header was missing at build time; *running: the kernel
 * answered for a device (a scrub runs on it).
 */
static unsigned long long
kernel_scrubbed(const char *mnt, bool *running)
{
	unsigned long long n = 0;

	*running = false;
#ifdef BTRFS_IOC_SCRUB_PROGRESS
	struct btrfs_ioctl_fs_info_args fi;
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	memset(&fi, 0, sizeof fi);
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &fi) == 0)
		for (__u64 id = 1; id <= fi.max_id; id++) {
			struct btrfs_ioctl_scrub_args a;

			memset(&a, 0, sizeof a);
			a.devid = id;
			/* ENOTCONN: no scrub on it; ENODEV: no such id */
			if (ioctl(fd, BTRFS_IOC_SCRUB_PROGRESS, &a) == 0) {
				n += a.progress.data_bytes_scrubbed +
				    a.progress.tree_bytes_scrubbed;
				*running = true;
			}
		}
	close(fd);
#else
	(void)mnt;
#endif
	return n;
}

struct scrub_ctx {
	char *mnt;
	struct btrfswatch_scrub last;
	bool have;
	bool kernel_ran; /* the kernel was seen scrubbing */
	unsigned kernel_idle; /* looks since, with no scrub in the kernel */
	double t_prev;
	unsigned long long done_prev, speed;
};

/* Append the output of btrfs scrub status [extra] --raw mnt to b; false
   when it failed (no scrub has written its status yet). */
static bool
status(const char *mnt, const char *extra, char **b)
{
	const char *av[] = { "btrfs", "scrub", "status", "--raw",
		extra != NULL ? extra : mnt, extra != NULL ? mnt : NULL, NULL };
	struct exec_opts o = { .timeout = STATUS_TIMEOUT };
	struct exec_result r;
	bool ok;

	ok = exec_run(av, &o, &r) == 0;
	if (ok) {
		char *t = xasprintf("%s%s", *b ? *b : "", r.output);

		free(*b);
		*b = t;
	}
	exec_result_done(&r);
	return ok;
}

static enum mdwatch_look
scrub_look(void *ctx, struct mdwatch_sample *s, char *action, size_t alen)
{
	struct scrub_ctx *c = ctx;
	struct btrfswatch_scrub st;
	char *text = NULL;
	bool ok = status(c->mnt, NULL, &text) && status(c->mnt, "-R", &text);

	if (!ok || !btrfswatch_parse_scrub(text, &st)) {
		free(text);
		return MDWATCH_IDLE;
	}
	free(text);
	if (!btrfswatch_scrub_ended(&st)) {
		bool running;
		unsigned long long k = kernel_scrubbed(c->mnt, &running);

		if (st.done == 0)
			st.done = k;
		c->kernel_ran = c->kernel_ran || running;
		c->kernel_idle = running ? 0 : c->kernel_idle + 1;
		/* no status line ever says it ended when btrfs-progs could
		   not keep its record (/var/lib/btrfs read-only): the
		   kernel's word ends the watch, once btrfs-progs had its
		   KERNEL_IDLE_LOOKS to write its own */
		if (c->kernel_ran && c->kernel_idle >= KERNEL_IDLE_LOOKS)
			snprintf(st.status, sizeof st.status, "ended");
	}
	/* once: mdwatch_now() reads it from another thread */
	if (action[0] == '\0')
		snprintf(action, alen, "scrub");
	s->done = st.done;
	s->total = st.total;
	/* btrfs-progs prints its rate only once it ended, and the kernel
	   moves its count about once a second: the speed between the
	   last two looks that saw it move, in KiB/s as md's (0 until
	   then: the scrub began before the first look) */
	if (c->have && st.done > c->done_prev && s->t > c->t_prev) {
		c->speed =
		    (unsigned long long)((double)(st.done - c->done_prev) /
			1024.0 / (s->t - c->t_prev));
	}
	if (!c->have || st.done != c->done_prev) {
		c->t_prev = s->t;
		c->done_prev = st.done;
	}
	s->speed = c->speed;
	c->last = st;
	c->have = true;
	return btrfswatch_scrub_ended(&st) ? MDWATCH_FINAL : MDWATCH_BUSY;
}

static void
scrub_end(void *ctx, json_t *rec)
{
	struct scrub_ctx *c = ctx;

	if (rec != NULL) {
		json_t *e = json_object();

		for (size_t i = 0; i < BTRFSWATCH_NERR; i++)
			json_object_set_new(e, btrfswatch_errors[i],
			    json_integer((json_int_t)c->last.err[i]));
		json_object_set_new(rec, "unit", json_string("bytes"));
		json_object_set_new(rec, "status",
		    c->have ? json_string(c->last.status) : json_null());
		json_object_set_new(rec, "errors", e);
		/* an aborted scrub ended, but did not read everything */
		if (!c->have || strcmp(c->last.status, "finished") != 0)
			json_object_set_new(rec, "complete", json_false());
	}
	free(c->mnt);
	free(c);
}

/* bytes, and KiB/s */
static const struct mdwatch_ops scrub_ops = {
	.look = scrub_look,
	.end = scrub_end,
	.done_bytes = 1,
	.speed_bytes = 1024,
};

struct mdwatch *
btrfswatch_scrub(const char *mnt, unsigned interval_ms)
{
	struct scrub_ctx *c = xcalloc(1, sizeof *c);

	c->mnt = xstrdup(mnt);
	return mdwatch_start_ops(&scrub_ops, c, interval_ms);
}

/* ---------------------------------------------------------------- replace */

/* The number before word in text ("0 write errs"), or 0. */
static unsigned long long
count_before(const char *text, const char *word)
{
	const char *w = strstr(text, word);

	while (w != NULL && w > text && w[-1] == ' ')
		w--;
	while (w != NULL && w > text && w[-1] >= '0' && w[-1] <= '9')
		w--;
	return w != NULL ? strtoull(w, NULL, 10) : 0;
}

bool
btrfswatch_parse_replace(const char *text, struct btrfswatch_replace *r)
{
	static const char *const ended[] = { "finished", "canceled",
		"suspended", NULL };
	const char *pc;

	memset(r, 0, sizeof *r);
	if (text == NULL)
		return false;
	if (strstr(text, "Never started") != NULL) {
		snprintf(r->status, sizeof r->status, "never");
		return true;
	}
	r->write_errs = count_before(text, " write errs");
	r->read_errs = count_before(text, " uncorr. read errs");
	/* "45.2% done, ..." while it runs */
	if ((pc = strstr(text, "% done")) != NULL) {
		while (pc > text &&
		    (pc[-1] == '.' || (pc[-1] >= '0' && pc[-1] <= '9')))
			pc--;
		r->permille = (unsigned)(strtod(pc, NULL) * 10.0 + 0.5);
		snprintf(r->status, sizeof r->status, "running");
		return true;
	}
	/* "Started on ..., finished on ..., ..." once it ended */
	for (const char *const *e = ended; *e != NULL; e++) {
		char on[32];

		snprintf(on, sizeof on, ", %s on", *e);
		if (strstr(text, on) != NULL) {
			snprintf(r->status, sizeof r->status, "%s", *e);
			r->permille = strcmp(*e, "finished") == 0 ? 1000 : 0;
			return true;
		}
	}
	return false;
}

struct replace_ctx {
	char *mnt;
	struct btrfswatch_replace last;
	bool have;
};

static enum mdwatch_look
replace_look(void *ctx, struct mdwatch_sample *s, char *action, size_t alen)
{
	struct replace_ctx *c = ctx;
	const char *av[] = { "btrfs", "replace", "status", "-1", c->mnt, NULL };
	struct exec_opts o = { .timeout = STATUS_TIMEOUT };
	struct btrfswatch_replace st;
	struct exec_result r;
	bool ok = exec_run(av, &o, &r) == 0 &&
	    btrfswatch_parse_replace(r.output, &st);

	exec_result_done(&r);
	if (!ok || strcmp(st.status, "never") == 0)
		return MDWATCH_IDLE;
	if (action[0] == '\0')
		snprintf(action, alen, "replace");
	s->done = st.permille;
	s->total = 1000;
	c->last = st;
	c->have = true;
	return strcmp(st.status, "running") == 0 ? MDWATCH_BUSY : MDWATCH_FINAL;
}

static void
replace_end(void *ctx, json_t *rec)
{
	struct replace_ctx *c = ctx;

	if (rec != NULL) {
		json_object_set_new(rec, "unit", json_string("permille"));
		json_object_set_new(rec, "status",
		    c->have ? json_string(c->last.status) : json_null());
		json_object_set_new(rec, "errors",
		    json_pack("{s:I, s:I}", "write_errors",
			(json_int_t)c->last.write_errs,
			"uncorrectable_read_errors",
			(json_int_t)c->last.read_errs));
		if (!c->have || strcmp(c->last.status, "finished") != 0)
			json_object_set_new(rec, "complete", json_false());
	}
	free(c->mnt);
	free(c);
}

/* permille of 1000: no size, no speed */
static const struct mdwatch_ops replace_ops = {
	.look = replace_look,
	.end = replace_end,
	.done_bytes = 1,
	.speed_bytes = 0,
};

struct mdwatch *
btrfswatch_replace(const char *mnt, unsigned interval_ms)
{
	struct replace_ctx *c = xcalloc(1, sizeof *c);

	c->mnt = xstrdup(mnt);
	return mdwatch_start_ops(&replace_ops, c, interval_ms);
}
