/*
 * raidlab run LAB: the lab's workloads on each variant, headless, with
 * repeats. The work is a lab runner's (labrun.h), in its own thread:
 * directory variants run in their directory; array variants are checked
 * (every device against the inventory and --yes-destroy before anything
 * is touched), built, measured and torn down, each object journaled for
 * `raidlab cleanup`. This thread polls the runner's events and prints
 * them (cli-run-live.c, cli-run-build.c): a live status line on a
 * terminal, a line per test otherwise; the runner writes the record
 * (saved when the run starts and after every run, so a killed run leaves
 * it), and at the end this thread prints the tables users know, or the
 * record as JSON or the figures as CSV. --dry-run only checks. Refused by
 * the room check (space.h: no room, a directory other users can change),
 * the run exits CLI_CANNOT, as `raidlab check` does for the lab; other
 * refusals are failures. Main thread; SIGINT, SIGTERM, SIGHUP and SIGPIPE
 * stop the runner cleanly (what was built is torn down). With
 * --fleet-host NAME this is one host's share of a fleet run
 * (cli-run-fleet.c): NAME's variants run here, the record goes to stdout
 * only, and the end of stdin stops the run as SIGINT does. Variants
 * placed on hosts are run there by the fleet controller (cli-run-hosts.c).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "cli-run-build.h"
#include "cli-run-hosts.h"
#include "cli-run-fleet.h"
#include "cli-run-live.h"
#include "cli-scale.h"
#include "cli.h"
#include "lab/lab-scale.h"
#include "lab/lab.h"
#include "measure/engine.h"
#include "results/record.h"
#include "results/show.h"
#include "run/labrun.h"

enum out_format { OUT_TABLE, OUT_JSON, OUT_CSV };

struct run_opts {
	char **variants; /* --variant, NULL-terminated; NULL: all */
	size_t nvariants;
	char **workloads;
	size_t nworkloads;
	const char *target; /* --target: one directory variant */
	const char *results; /* --results */
	int64_t repeats; /* --repeats; 0: the lab's */
	unsigned tick_ms;
	bool keep;
	enum out_format out;
	char **confirmed; /* --yes-destroy entries */
	size_t nconfirmed;
	bool dry_run;
	struct lab_scale scale; /* --scale, --set, --disk */
	const char *hook; /* --hook */
	const char *ssh_config; /* --ssh-config: ssh -F for a fleet */
	const char *scale_arg; /* --scale as written, for a fleet's hosts */
	char **sets; /* --set as written, for a fleet's hosts */
	size_t nsets;
	struct run_fleet fleet; /* --fleet-host (host NULL: none), --barrier */
};

/* Set by SIGINT, SIGTERM, SIGHUP (the terminal gone) and SIGPIPE (the
   reader of stdout gone): the loop stops the runner, which tears down
   what was built, instead of dying with it built. */
static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

/* Options with a long name only. */
enum {
	OPT_TICK = CLI_OPT_LONG,
	OPT_YES_DESTROY,
	OPT_HOOK,
	OPT_FLEET_HOST,
	OPT_BARRIER,
	OPT_SSH_CONFIG
};

static const struct cli_opt run_options[] = {
	{ 'v', "variant", "NAME", N_("run only this variant (repeatable)") },
	{ 'w', "workload", "NAME", N_("run only this workload (repeatable)") },
	{ 't', "target", "DIR",
	    N_("run on DIR instead of the lab's variants") },
	{ 'r', "repeats", "N", N_("override the lab's repeats") },
	{ 'o', "results", "DIR",
	    N_("where the record goes (default: the lab's results)") },
	{ 'k', "keep", NULL, N_("leave the workloads' files on the target") },
	{ OPT_YES_DESTROY, "yes-destroy", "=DEV,...",
	    N_("destroy the data on exactly these devices") },
	{ 'n', "dry-run", NULL,
	    N_("check everything and print the plans; change nothing") },
	{ OPT_HOOK, "hook", "PROG",
	    N_("run PROG VARIANT TARGET once each variant is ready") },
	{ OPT_TICK, "tick", "MS", N_("sampling period (default 250)") },
	{ OPT_SSH_CONFIG, "ssh-config", "FILE",
	    N_("ssh's configuration for a fleet's hosts (ssh -F)") },
	{ 'j', "json", NULL, N_("print the record as JSON at the end") },
	{ 'c', "csv", NULL, N_("print every test as CSV at the end") },
	{ OPT_FLEET_HOST, "fleet-host", "NAME",
	    N_("the fleet controller's, not for hand use: run host NAME's "
	       "share of the lab, controlled on stdin") },
	{ OPT_BARRIER, "barrier", NULL,
	    N_("the fleet controller's: wait for \"go N\" on stdin before "
	       "each round") },
	{ 0, NULL, NULL, NULL },
};

static void
run_more(FILE *fp)
{
	fprintf(fp, "%s",
	    _("\nLAB is a lab file, the name of a lab of your own (saved "
	      "by the\ninteractive lab) or of a preset (quick, "
	      "seed-000-bitmap-xfs-log, ...).\n"));
}

static bool
selected(char **names, size_t n, const char *name)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++)
		if (name != NULL && strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* The selection the names give over n entries; NULL: every entry. */
static bool *
select_names(char **names, size_t nnames, size_t n,
    const char *(*name)(const struct lab *, size_t), const struct lab *lab)
{
	bool *sel;

	if (nnames == 0)
		return NULL;
	sel = xcalloc(n + 1, sizeof *sel);
	for (size_t i = 0; i < n; i++)
		sel[i] = selected(names, nnames, name(lab, i));
	return sel;
}

static const char *
variant_name(const struct lab *lab, size_t i)
{
	return lab->variants[i].name;
}

static const char *
workload_name_at(const struct lab *lab, size_t i)
{
	return lab_workload_name(&lab->workloads[i]);
}

/* A name in names that no entry has: said, and true (nothing runs). */
static bool
unknown_names(char **names, size_t nnames, size_t n,
    const char *(*name)(const struct lab *, size_t), const struct lab *lab,
    bool variants)
{
	bool bad = false;

	for (size_t i = 0; i < nnames; i++) {
		size_t k;

		for (k = 0; k < n; k++)
			if (name(lab, k) != NULL &&
			    strcmp(name(lab, k), names[i]) == 0)
				break;
		if (k == n) {
			if (variants)
				cli_error(&cli_run,
				    _("%s: no variant named %s"), lab->path,
				    names[i]);
			else
				cli_error(&cli_run,
				    _("%s: no workload named %s"), lab->path,
				    names[i]);
			bad = true;
		}
	}
	return bad;
}

/* The oldest finished item: the runner has recorded it already. */
static void
take(struct labrun *lr, struct live *lv)
{
	struct labrun_result *r = labrun_take(lr);

	if (r == NULL)
		return;
	if (r->kind == LABRUN_ITEM_RUN)
		live_end(lv);
	labrun_result_free(r);
}

/*
 * The front end's loop: poll the runner's events with the sampling tick
 * as timeout, print them, take results, redraw the status line each tick;
 * a signal stops the runner (not from the handler: from here).
 */
static void
follow(struct labrun *lr, unsigned tick_ms, struct run_fleet *rf)
{
	struct labrun_event ev;
	struct tick tick;
	struct live lv;
	bool done = false, stopped = false;

	tick_start(&tick, tick_ms * 1000000ull, tick_now_ns());
	live_init(&lv);
	while (!done) {
		struct pollfd p[3] = { { labrun_fd(lr), POLLIN, 0 } };
		int n = 1 + run_fleet_pollfds(rf, p + 1);

		if (interrupted && !stopped) {
			run_fleet_stop(rf);
			labrun_stop(lr);
			stopped = true;
		}
		if (poll(p, (nfds_t)n, tick_timeout_ms(&tick, tick_now_ns())) <
			0 &&
		    errno != EINTR)
			break;
		/* the controller gone: stopped as by ^C */
		if (n > 1 && !run_fleet_poll(rf, p + 1, n - 1))
			interrupted = 1;
		while (labrun_pop(lr, &ev)) {
			if (ev.type == LABRUN_RESULT)
				take(lr, &lv);
			else
				live_event(&lv, lr, &ev);
			done |= ev.type == LABRUN_DONE;
		}
		if (tick_due(&tick, tick_now_ns(), NULL)) {
			live_tick(&lv, lr);
			run_fleet_tick(rf, &lv);
		}
	}
	live_end(&lv);
}

/* Run the lab through a lab runner; the summary says how it went, *rec
   is the record it wrote (NULL when refused). */
static int
run_lab(const struct lab *lab, const struct labrun_opts *lo, unsigned tick_ms,
    struct run_fleet *rf, struct record **rec, struct labrun_summary *s)
{
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct labrun *lr;
	struct err e;

	err_clear(&e);
	if ((lr = labrun_start(lab, lo, &e)) == NULL) {
		cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
		return e.code;
	}
	follow(lr, tick_ms, rf);
	labrun_summary(lr, s);
	*rec = labrun_take_record(lr);
	labrun_free(lr);
	return 0;
}

static void
print_output(const struct record *rec, enum out_format out)
{
	struct strbuf b;

	strbuf_init(&b);
	if (out == OUT_JSON) {
		char *s = record_dumps(rec);

		fputs(s, stdout);
		free(s);
	} else if (out == OUT_CSV) {
		show_csv(rec, &b);
	} else {
		show_runs(rec, &b);
	}
	cli_puts(b.s, stdout);
	strbuf_done(&b);
}

/* --yes-destroy=A,B: each non-empty entry, in order. */
static void
add_confirmed(struct run_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *w, *save = NULL;

	for (w = strtok_r(copy, ",", &save); w != NULL;
	     w = strtok_r(NULL, ",", &save)) {
		o->confirmed = xreallocarray(o->confirmed, o->nconfirmed + 1,
		    sizeof *o->confirmed);
		o->confirmed[o->nconfirmed++] = xstrdup(w);
	}
	free(copy);
}

/* A number option of 1..max; false (said) when it is not. */
static bool
num_opt(const char *name, const char *arg, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	if (errno == 0 && end != arg && *end == '\0' && *out >= 1 &&
	    *out <= max)
		return true;
	cli_error(&cli_run, _("%s: %s is not a number from 1 to %ld"), name,
	    arg, max);
	return false;
}

/* --target DIR: a directory that is there, or a usage error said now,
   before a lab is loaded or a record written (the runner would only
   fail it after writing an empty record). */
static bool
target_opt(const char *arg)
{
	struct stat st;

	if (stat(arg, &st) < 0) {
		cli_error(&cli_run, _("--target %s: %s"), arg, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode)) {
		cli_error(&cli_run, _("--target %s: not a directory"), arg);
		return false;
	}
	return true;
}

/* --hook PROG: a program that can be run; false (said) when not. */
static bool
hook_opt(const char *arg)
{
	char b[ERR_FIELD_MAX + ERR_MSG_MAX + 8];
	struct err e;

	err_clear(&e);
	if (labrun_hook_check(arg, &e) == 0)
		return true;
	cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
	return false;
}

/* One option of parse_opts(): CLI_OK, CLI_USAGE, or -1 after --help. */
static int
run_opt(int ch, char *arg, struct run_opts *o)
{
	long n;

	switch (ch) {
	case 'v':
		o->variants = xreallocarray(o->variants, o->nvariants + 1,
		    sizeof *o->variants);
		o->variants[o->nvariants++] = arg;
		return CLI_OK;
	case 'w':
		o->workloads = xreallocarray(o->workloads, o->nworkloads + 1,
		    sizeof *o->workloads);
		o->workloads[o->nworkloads++] = arg;
		return CLI_OK;
	case 't':
		if (!target_opt(arg))
			return CLI_USAGE;
		o->target = arg;
		return CLI_OK;
	case 'r':
		if (!num_opt("--repeats", arg, 1000, &n))
			return CLI_USAGE;
		o->repeats = n;
		return CLI_OK;
	case OPT_TICK:
		if (!num_opt("--tick", arg, 100000, &n))
			return CLI_USAGE;
		o->tick_ms = (unsigned)n;
		return CLI_OK;
	case 'o':
		o->results = arg;
		return CLI_OK;
	case 'k':
		o->keep = true;
		return CLI_OK;
	case 'j':
	case 'c':
		if (o->out != OUT_TABLE &&
		    o->out != (ch == 'j' ? OUT_JSON : OUT_CSV)) {
			cli_error(&cli_run, "%s",
			    _("--json and --csv exclude each other"));
			return CLI_USAGE;
		}
		o->out = ch == 'j' ? OUT_JSON : OUT_CSV;
		return CLI_OK;
	case 'n':
		o->dry_run = true;
		return CLI_OK;
	case OPT_HOOK:
		/* now, not after the arrays were wiped and built */
		if (!hook_opt(arg))
			return CLI_USAGE;
		o->hook = arg;
		return CLI_OK;
	case OPT_YES_DESTROY:
		add_confirmed(o, arg);
		return CLI_OK;
	case OPT_FLEET_HOST:
		o->fleet.host = arg;
		return CLI_OK;
	case OPT_BARRIER:
		o->fleet.barrier = true;
		return CLI_OK;
	case CLI_GETOPT_HELP:
		return -1;
	case OPT_SSH_CONFIG:
		o->ssh_config = arg;
		return CLI_OK;
	case CLI_OPT_SCALE:
	case CLI_OPT_SET:
	case CLI_OPT_DISK:
		if (ch == CLI_OPT_SCALE)
			o->scale_arg = arg;
		if (ch == CLI_OPT_SET) {
			o->sets = xreallocarray(o->sets, o->nsets + 1,
			    sizeof *o->sets);
			o->sets[o->nsets++] = arg;
		}
		if (!cli_scale_opt(&cli_run, ch, arg, &o->scale))
			return CLI_USAGE;
		return CLI_OK;
	default:
		return CLI_USAGE;
	}
}

/* --fleet-host's company: what a fleet's host cannot take. The record
   goes to stdout as JSON (implied); the host's disks are the lab's
   hosts list's, not --disk's. */
static int
fleet_opts(struct run_opts *o)
{
	const char *bad = NULL;

	if (o->fleet.host == NULL) {
		if (!o->fleet.barrier)
			return CLI_OK;
		cli_error(&cli_run, "%s",
		    _("--barrier goes with --fleet-host only"));
		return CLI_USAGE;
	}
	if (o->out == OUT_CSV)
		bad = "--csv";
	else if (o->target != NULL)
		bad = "--target";
	else if (o->results != NULL)
		bad = "--results";
	else if (o->scale.ndisks > 0)
		bad = "--disk";
	if (bad != NULL) {
		cli_error(&cli_run,
		    _("--fleet-host and %s exclude each other (a fleet's "
		      "host prints its record as JSON, keeps nothing, and "
		      "takes its disks from the lab's hosts list)"),
		    bad);
		return CLI_USAGE;
	}
	o->out = OUT_JSON;
	return CLI_OK;
}

static int
parse_opts(int argc, char **argv, struct run_opts *o)
{
	int ch, rc;

	while ((ch = cli_getopt(&cli_run, argc, argv)) != -1)
		if ((rc = run_opt(ch, optarg, o)) != CLI_OK)
			return rc;
	if (!cli_one_operand(&cli_run, argc, argv, "LAB"))
		return CLI_USAGE;
	return fleet_opts(o);
}

static void
free_opts(struct run_opts *o)
{
	for (size_t i = 0; i < o->nconfirmed; i++)
		free(o->confirmed[i]);
	free(o->confirmed);
	free(o->variants);
	free(o->workloads);
	free(o->sets);
	lab_scale_done(&o->scale);
}

/* Variants with at least one run that has figures. */
static size_t
ran_variants(const struct record *rec)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->nruns; i++) {
		bool seen = false;

		if (rec->runs[i].res == NULL)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = rec->runs[k].res != NULL &&
			    strcmp(rec->runs[k].variant,
				rec->runs[i].variant) == 0;
		n += !seen;
	}
	return n;
}

/* What makes workload type's runs longer: the parameters --scale
   shrinks (lab-scale.h), as "count" or "size, files, ...". Caller
   frees. */
static char *
what_to_raise(const char *type)
{
	struct strbuf b;

	strbuf_init(&b);
	for (const struct lab_scale_rule *r = lab_scale_rules; r->type; r++)
		if (strcmp(r->type, type) == 0)
			strbuf_printf(&b, "%s%s", b.len ? ", " : "", r->param);
	return strbuf_take(&b);
}

/*
 * A workload whose every figure was too fast to measure has no mean and
 * no verdict: said once at the end, with what to raise, instead of
 * leaving a table of +++++ to be read as an answer.
 */
static void
all_too_fast(const struct record *rec, bool scaled)
{
	for (size_t i = 0; i < rec->nruns; i++) {
		const struct record_run *r = &rec->runs[i];
		size_t tests = 0, fast = 0;
		bool seen = false;
		char *what;

		if (r->res == NULL || r->workload == NULL)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = rec->runs[k].workload != NULL &&
			    strcmp(rec->runs[k].workload, r->workload) == 0;
		if (seen)
			continue;
		for (size_t k = i; k < rec->nruns; k++) {
			const struct wl_result *x = rec->runs[k].res;

			if (x == NULL || rec->runs[k].workload == NULL ||
			    strcmp(rec->runs[k].workload, r->workload) != 0)
				continue;
			for (size_t t = 0; t < x->ntests; t++) {
				tests++;
				fast += x->tests[t].too_fast;
			}
		}
		if (tests == 0 || fast < tests)
			continue;
		what = what_to_raise(r->type ? r->type : "");
		cli_fprintf(stderr,
		    _("raidlab run: %s: every figure was too fast to measure "
		      "(+++++), so it has no mean and no verdict: give it "
		      "more to do (%s)%s\n"),
		    r->workload, what[0] ? what : _("its sizes and counts"),
		    scaled ? _(", or a larger --scale") : "");
		free(what);
	}
}

/* The record as the runner saved it (a failed save was said). */
static void
finish(const struct record *rec, const struct run_opts *o, bool lost)
{
	const char *why = record_rounds_why(rec->root);

	if (lost)
		cli_error(&cli_run, _("the record of this run was not saved"));
	else if (rec->path != NULL && o->out == OUT_TABLE)
		cli_fprintf(stderr, _("raidlab run: record saved to %s\n"),
		    rec->path);
	if (why != NULL && o->out == OUT_TABLE)
		cli_fprintf(stderr, _("raidlab run: rounds (%s): %s\n"),
		    record_order(rec->root), why);
	print_output(rec, o->out);
	all_too_fast(rec, o->scale.fraction > 0 || o->scale.nsets > 0);
	if (!lost && rec->path != NULL && o->out == OUT_TABLE &&
	    ran_variants(rec) > 1)
		cli_fprintf(stderr,
		    _("raidlab run: the variants side by side: raidlab compare "
		      "%s\n"),
		    rec->path);
}

/* --repeats 1 or 2 is allowed, but the answer it loses is said up
   front. */
static void
warn_no_verdicts(const struct run_opts *o)
{
	if (o->repeats > 0 && o->repeats < 3)
		cli_fprintf(stderr,
		    ngettext("raidlab run: %lld repeat: no verdicts (a verdict "
			     "needs 3 repeats or more)\n",
			"raidlab run: %lld repeats: no verdicts (a verdict "
			"needs 3 repeats or more)\n",
			(unsigned long)o->repeats),
		    (long long)o->repeats);
}

/* What the options say of the run, but for the selections and the
   record (borrowed from o). */
static void
runner_opts(const struct run_opts *o, struct labrun_opts *lo)
{
	lo->repeats = o->repeats;
	lo->confirmed = (const char *const *)o->confirmed;
	lo->nconfirmed = o->nconfirmed;
	lo->target = o->target;
	lo->tick_ms = o->tick_ms;
	lo->keep = o->keep;
	lo->hook = o->hook;
	lo->fleet_host = o->fleet.host;
}

/*
 * The selected variants run on hosts: through the fleet controller
 * (cli-run-hosts.c), which refuses what only runs here.
 */
static int
run_on_hosts(const struct lab *lab, const struct run_opts *o, const bool *vsel,
    const bool *wsel)
{
	struct fleet_opts fo = { 0 };
	struct cli_hosts cf = { .json = o->out == OUT_JSON,
		.dry_run = o->dry_run,
		.here_only = o->scale.ndisks > 0 || o->out == OUT_CSV ||
		    o->hook != NULL || o->keep };

	fo.variants = vsel;
	fo.workloads = wsel;
	fo.repeats = o->repeats;
	fo.scale = o->scale_arg;
	fo.sets = (const char *const *)o->sets;
	fo.nsets = o->nsets;
	fo.confirmed = (const char *const *)o->confirmed;
	fo.nconfirmed = o->nconfirmed;
	fo.ssh_config = o->ssh_config;
	fo.results = o->results;
	fo.record = true;
	return cli_run_hosts(lab, &fo, &cf, &interrupted);
}

static int
run_exec(int argc, char **argv)
{
	struct run_opts o = { .tick_ms = 250 };
	char *scaled = NULL;
	struct labrun_summary s = { 0 };
	struct labrun_opts lo = { 0 };
	bool *vsel = NULL, *wsel = NULL;
	struct record *rec = NULL;
	struct lab *lab;
	int rc;

	if ((rc = parse_opts(argc, argv, &o)) != CLI_OK) {
		free_opts(&o);
		return rc < 0 ? CLI_OK : rc;
	}
	/* %h in a directory is the fleet's host name, not this machine's */
	if (o.fleet.host != NULL)
		lab_expand_set_host(o.fleet.host);
	if ((lab = cli_load_lab_scaled(argv[optind], &o.scale)) == NULL) {
		free_opts(&o);
		return CLI_USAGE;
	}
	/* both lists said at once; a selection of nothing runs nothing */
	if ((unknown_names(o.variants, o.nvariants, lab->nvariants,
		 variant_name, lab, true) |
		unknown_names(o.workloads, o.nworkloads, lab->nworkloads,
		    workload_name_at, lab, false)) ||
	    (o.fleet.host != NULL &&
		run_fleet_select(&o.fleet, lab, o.variants, o.nvariants,
		    &vsel) != CLI_OK)) {
		lab_free(lab);
		free_opts(&o);
		return CLI_USAGE;
	}
	catch_signals();

	if (o.fleet.host == NULL)
		vsel = select_names(o.variants, o.nvariants, lab->nvariants,
		    variant_name, lab);
	lo.variants = vsel;
	lo.workloads = wsel = select_names(o.workloads, o.nworkloads,
	    lab->nworkloads, workload_name_at, lab);
	runner_opts(&o, &lo);
	if (o.fleet.host == NULL && o.target == NULL &&
	    fleet_run_wanted(lab, vsel)) {
		rc = run_on_hosts(lab, &o, vsel, wsel);
		goto out;
	}
	lo.scaled = scaled = lab_scale_describe(&o.scale);
	if (o.fleet.host != NULL)
		run_fleet_ready(&o.fleet);
	if (o.out == OUT_TABLE)
		cli_scale_print(&o.scale, o.dry_run ? stdout : stderr);
	warn_no_verdicts(&o);
	if (o.dry_run) {
		/* Nothing runs: no record, nothing changed. */
		rc = build_dry_run(lab, &lo);
		rc = rc == -ENOSPC ? CLI_CANNOT : rc < 0 ? CLI_FAIL : CLI_OK;
		goto out;
	}
	lo.record = true;
	lo.results = o.results;
	if (o.fleet.host != NULL && !run_fleet_open(&o.fleet, &lo)) {
		rc = CLI_FAIL;
		goto out;
	}
	rc = run_lab(lab, &lo, o.tick_ms, &o.fleet, &rec, &s);
	run_fleet_close(&o.fleet);
	if (rc < 0) {
		rc = CLI_FAIL;
		goto out;
	}
	if (s.refused || rec == NULL) {
		/* Nothing ran: no record, nothing changed. The room check's
		   refusal is the lab's fate here, as `raidlab check` says. */
		rc = s.space_refused ? CLI_CANNOT : CLI_FAIL;
		goto out;
	}
	if (o.fleet.host != NULL)
		run_fleet_done(&o.fleet, s.ran, s.failed);
	finish(rec, &o, s.record_lost);
	rc = interrupted ? 130 : s.failed || s.record_lost ? CLI_FAIL : CLI_OK;
out:
	record_free(rec);
	free(vsel);
	free(wsel);
	free(scaled);
	lab_free(lab);
	free_opts(&o);
	return rc;
}

const struct cli_cmd cli_run = {
	.name = "run",
	.args = "[-v VARIANT] [-w WORKLOAD] [-t DIR] [-r N] [-o DIR] [-k] "
		"[-n] [--scale F] [--set W.KEY=VALUE] [--disk scratch:N=DEV] "
		"[--yes-destroy=DEV,...] [--hook PROG] [--tick MS] "
		"[--ssh-config FILE] [-j|-c] [--fleet-host NAME [--barrier]] "
		"LAB",
	.summary = N_("run a lab's workloads headless and record the results"),
	.opts = run_options,
	.shared = cli_scale_opts,
	.more = run_more,
	.exec = run_exec,
};
