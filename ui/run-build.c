/*
 * Array variants in `raidlab run`: precheck, dry run, build with
 * progress, teardown. See run-build.h. Main thread.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "disk.h"
#include "err.h"
#include "guard.h"
#include "i18n.h"
#include "lab.h"
#include "plan.h"
#include "provision.h"
#include "record.h"
#include "run-build.h"
#include "strbuf.h"
#include "xalloc.h"

static void
print_errs(const struct errlist *errs, size_t from)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];

	for (size_t i = from; i < errs->n; i++)
		fprintf(stderr, "raidlab run: %s\n",
		    err_format(&errs->v[i], b, sizeof b));
}

/* Every selected array variant's plan, with placeholders for scratch. */
static struct plan **
plan_all(const struct lab *lab, const bool *sel, const struct build_opts *o,
    int *rc)
{
	struct plan **plans = xcalloc(lab->nvariants + 1, sizeof *plans);
	struct plan_env env = { .state_dir = o->state_dir };
	char b[ERR_FILE_MAX + ERR_MSG_MAX];

	for (size_t i = 0; i < lab->nvariants; i++) {
		struct err e;

		if (!sel[i] || lab->variants[i].directory != NULL)
			continue;
		err_clear(&e);
		if (plan_build(&lab->variants[i], &env, &plans[i], &e) < 0) {
			fprintf(stderr, "raidlab run: %s\n",
			    err_format(&e, b, sizeof b));
			*rc = e.code;
		}
	}
	return plans;
}

int
build_precheck(const struct lab *lab, const bool *sel,
    const struct build_opts *o, struct disk_list *inv)
{
	struct plan **plans;
	struct guard_dev *all = NULL;
	size_t nall = 0;
	struct errlist errs;
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	int rc = 0;

	err_clear(&e);
	if (disk_list_scan(inv, 0, &e) < 0) {
		fprintf(stderr, "raidlab run: %s\n",
		    err_format(&e, b, sizeof b));
		return e.code;
	}
	plans = plan_all(lab, sel, o, &rc);
	errlist_init(&errs);
	for (size_t i = 0; i < lab->nvariants && rc == 0; i++) {
		const char **conf;
		size_t n, nc;

		if (plans[i] == NULL)
			continue;
		if (!prov_md_available(&lab->variants[i]))
			fprintf(stderr,
			    _("raidlab run: variant %s: this kernel has no md "
			      "driver (/proc/mdstat is missing): it will "
			      "fail\n"),
			    plans[i]->variant);
		all =
		    xreallocarray(all, nall + plans[i]->ndevs + 1, sizeof *all);
		n = prov_guard_devs(plans[i], all + nall);
		conf = xcalloc(o->nconfirmed + 1, sizeof *conf);
		nc = guard_confirmed_for(all + nall, n, o->confirmed,
		    o->nconfirmed, conf);
		if (n > 0 &&
		    guard_check(inv, all + nall, n, conf, nc, lab->path,
			&errs) < 0)
			rc = -EPERM;
		free(conf);
		nall += n;
	}
	if (rc == 0 &&
	    guard_confirmed_unclaimed(all, nall, o->confirmed, o->nconfirmed,
		lab->path, &errs) < 0)
		rc = -EPERM;
	errlist_sort(&errs);
	print_errs(&errs, 0);
	if (rc == -EPERM)
		fprintf(stderr,
		    _("raidlab run: refused: nothing was changed. Free the "
		      "devices, or confirm the ones whose data may be "
		      "destroyed with --yes-destroy=DEV,...\n"));
	if (o->dry_run) {
		struct strbuf t;

		strbuf_init(&t);
		for (size_t i = 0; i < lab->nvariants; i++)
			if (plans[i] != NULL) {
				plan_format(plans[i], &t);
				strbuf_add(&t, "\n");
			}
		fputs(t.s, stdout);
		strbuf_done(&t);
		if (rc == 0)
			fprintf(stderr,
			    _("raidlab run: dry run: every check passed; "
			      "nothing was changed\n"));
	}
	for (size_t i = 0; i < lab->nvariants; i++)
		plan_free(plans[i]);
	free(plans);
	free(all);
	errlist_done(&errs);
	return rc;
}

/* ---------------------------------------------------------------- build */

struct progress {
	const char *variant;
	bool tty;
	bool line_open; /* a \r status line is on screen */
	int decile; /* resync progress printed so far (not a terminal) */
};

static void
on_step(void *arg, const char *what)
{
	struct progress *pr = arg;

	if (pr->line_open)
		fputc('\n', stderr);
	pr->line_open = false;
	pr->decile = 0;
	fprintf(stderr, "raidlab run: %s: %s\n", pr->variant, what);
}

static void
on_sync(void *arg, const char *dev, unsigned long long done,
    unsigned long long total)
{
	struct progress *pr = arg;

	double pct;

	if (total == 0)
		return;
	pct = 100.0 * (double)done / (double)total;
	if (pr->tty) {
		fprintf(stderr, _("\r  resync %s: %5.1f%%"), dev, pct);
		pr->line_open = true;
	} else if ((int)(pct / 10) > pr->decile) {
		/* a log, not a terminal: a line per 10% */
		pr->decile = (int)(pct / 10);
		fprintf(stderr, _("raidlab run: %s: resync %s: %d%%\n"),
		    pr->variant, dev, pr->decile * 10);
	}
}

static bool
on_stopping(void *arg)
{
	(void)arg;
	return run_interrupted != 0;
}

static struct progress progress;
static const struct prov_cb prov_cb = {
	.step = on_step,
	.sync = on_sync,
	.stopping = on_stopping,
	.arg = &progress,
};

/* The confirmations that still apply to v now: the entries naming its
   devices that hold data in the fresh inventory (an earlier variant's
   teardown wiped the rest, which the precheck already matched). */
static size_t
confirmed_now(const struct build_opts *o, struct disk_list *inv,
    const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < o->nconfirmed; i++) {
		const char *c = o->confirmed[i];
		char path[4096];
		struct stat st;
		struct disk *d;

		snprintf(path, sizeof path, "%s%s",
		    strchr(c, '/') ? "" : "/dev/", c);
		if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		d = disk_list_by_devnum(inv, major(st.st_rdev),
		    minor(st.st_rdev));
		if (d != NULL && d->verdict == DISK_HAS_DATA)
			out[n++] = c;
	}
	return n;
}

int
build_variant(struct prov *p, const struct lab *lab,
    const struct lab_variant *v, const struct build_opts *o, struct statej *j,
    struct disk_list *inv, struct record *rec)
{
	const char **conf = xcalloc(o->nconfirmed + 1, sizeof *conf);
	struct errlist errs;
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	size_t nc;
	int rc;

	progress.variant = v->name ? v->name : "?";
	progress.tty = isatty(STDERR_FILENO);
	progress.line_open = false;
	prov_init(p, v, j, o->state_dir);
	record_add_build(rec, p->build);
	err_clear(&e);
	errlist_init(&errs);
	if ((rc = disk_list_scan(inv, 0, &e)) == 0) {
		nc = confirmed_now(o, inv, conf);
		rc =
		    prov_prepare(p, false, inv, conf, nc, lab->path, &errs, &e);
	}
	free(conf);
	if (rc == -EPERM) {
		print_errs(&errs, 0);
	} else if (rc < 0) {
		cli_error(&cli_run, _("variant %s: %s"), progress.variant,
		    err_format(&e, b, sizeof b));
	} else {
		if (p->plan->scratch)
			fprintf(stderr, "raidlab run: %s: %s\n",
			    progress.variant, _(PROV_SCRATCH_LABEL));
		rc = prov_setup(p, &prov_cb, &e);
		if (progress.line_open)
			fputc('\n', stderr);
		progress.line_open = false;
		if (rc < 0)
			cli_error(&cli_run, _("variant %s: %s"),
			    progress.variant, err_format(&e, b, sizeof b));
		else
			prov_facts(p);
	}
	errlist_done(&errs);
	return rc;
}

int
build_teardown(struct prov *p)
{
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	int rc;

	err_clear(&e);
	rc = prov_teardown(p, &prov_cb, &e);
	if (rc < 0)
		cli_error(&cli_run,
		    _("variant %s: %s; `raidlab cleanup` "
		      "retries what is left"),
		    progress.variant, err_format(&e, b, sizeof b));
	prov_done(p);
	return rc;
}
