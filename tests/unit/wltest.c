/*
 * Workload test helpers: see wltest.h. The test's thread.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "wltest.h"

extern char **environ;

struct param_value *
wltest_params(const struct workload *wl, const char *cfg)
{
	size_t n = param_count(wl->params);
	struct param_value *v = xcalloc(n + 1, sizeof *v);
	struct errlist errs;
	config_t c;
	char b[ERR_FILE_MAX + ERR_MSG_MAX + ERR_FIELD_MAX];

	param_values_init(wl->params, v);
	config_init(&c);
	cr_assert(config_read_string(&c, cfg) == CONFIG_TRUE,
	    "bad test parameters '%s': %s", cfg, config_error_text(&c));
	errlist_init(&errs);
	param_load(wl->params, config_root_setting(&c), NULL, v, "test", "wl",
	    &errs);
	cr_assert_eq(errs.n, 0, "parameters '%s': %s", cfg,
	    errs.n ? err_format(&errs.v[0], b, sizeof b) : "");
	errlist_done(&errs);
	config_destroy(&c);
	return v;
}

void
wltest_params_free(const struct workload *wl, struct param_value *v)
{
	param_values_done(wl->params, v, param_count(wl->params));
	free(v);
}

struct wl_result *
wltest_run(const struct workload *wl, const char *cfg, const char *target,
    enum lab_cache cache, wltest_event_fn fn, void *arg, double timeout_s)
{
	struct param_value *v = wltest_params(wl, cfg);
	struct engine *eng = engine_new();
	struct engine_job job = { .wl = wl,
		.params = v,
		.target = target,
		.drop_caches = cache == LAB_CACHE_DROP };
	struct evq_event ev;
	struct err e;
	struct wl_result *res;
	uint64_t deadline = wl_now_ns() + (uint64_t)(timeout_s * 1e9);
	int ki = param_index(wl->params, "keep");
	bool done = false;

	job.keep = ki >= 0 && v[ki].i != 0;
	err_clear(&e);
	cr_assert_eq(engine_start(eng, &job, &e), 0, "engine_start: %s", e.msg);
	while (!done) {
		struct pollfd p = { evq_fd(engine_events(eng)), POLLIN, 0 };

		if (poll(&p, 1, 50) == 0 && fn != NULL)
			fn(eng, NULL, arg);
		while (evq_pop(engine_events(eng), &ev)) {
			if (fn != NULL)
				fn(eng, &ev, arg);
			if (ev.type == EVQ_DONE)
				done = true;
		}
		if (!done && wl_now_ns() > deadline) {
			engine_stop(eng);
			cr_assert_fail("%s did not finish in %.0f s", wl->name,
			    timeout_s);
		}
	}
	res = engine_join(eng);
	engine_free(eng);
	wltest_params_free(wl, v);
	cr_assert_not_null(res);
	return res;
}

void
wltest_stop_when(struct engine *eng, const struct evq_event *ev, void *arg)
{
	const struct wltest_stop *s = arg;
	struct engine_totals tot;

	(void)ev;
	engine_totals(eng, &tot);
	if ((s->bytes_written > 0 && tot.bytes_written >= s->bytes_written) ||
	    (s->files > 0 && tot.files >= s->files))
		engine_stop(eng);
}

const char *
wltest_run_dir(const char *target, char *buf, size_t len)
{
	DIR *d = opendir(target);
	struct dirent *de;

	buf[0] = '\0';
	if (d == NULL)
		return buf;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, "raidlab-", 8) == 0) {
			snprintf(buf, len, "%s/%s", target, de->d_name);
			break;
		}
	closedir(d);
	return buf;
}

/* A writable copy of argv for posix_spawn(). */
static char **
argv_dup(const char *const *argv)
{
	size_t n = 0, i;
	char **v;

	while (argv[n] != NULL)
		n++;
	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++)
		v[i] = xstrdup(argv[i]);
	return v;
}

static void
argv_free(char **v)
{
	size_t i;

	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

int
wltest_cmd(const char *const *argv)
{
	char **v = argv_dup(argv);
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, v[0], &fa, NULL, v, environ);
	posix_spawn_file_actions_destroy(&fa);
	argv_free(v);
	if (rc != 0)
		return -rc;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static char *
new_dir(void)
{
	char *d = xstrdup("/var/tmp/raidlab-wltest.XXXXXX");

	cr_assert_not_null(mkdtemp(d), "mkdtemp: %s", strerror(errno));
	return d;
}

void
wltest_target_dir(struct wltest_target *t)
{
	memset(t, 0, sizeof *t);
	t->dir = new_dir();
}

void
wltest_target_tmpfs(struct wltest_target *t, uint64_t size)
{
	char opt[64];

	if (geteuid() != 0)
		cr_skip_test("needs root to mount a tmpfs");
	wltest_target_dir(t);
	snprintf(opt, sizeof opt, "size=%llu", (unsigned long long)size);
	cr_assert_eq(mount("raidlab-test", t->dir, "tmpfs", 0, opt), 0,
	    "mount tmpfs: %s", strerror(errno));
	t->mounted = true;
}

/* losetup -f --show IMAGE, read back through a pipe. */
static char *
attach(const char *image)
{
	const char *argv[] = { "losetup", "-f", "--show", image, NULL };
	char **v = argv_dup(argv);
	posix_spawn_file_actions_t fa;
	char buf[64] = "";
	int p[2], st;
	ssize_t n;
	pid_t pid;

	cr_assert_eq(pipe(p), 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	cr_assert_eq(posix_spawnp(&pid, "losetup", &fa, NULL, v, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	argv_free(v);
	close(p[1]);
	n = read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	waitpid(pid, &st, 0);
	cr_assert(n > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "losetup -f --show %s failed", image);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

void
wltest_target_ext4(struct wltest_target *t, uint64_t size)
{
	int fd;

	if (geteuid() != 0)
		cr_skip_test("needs root for a loop device");
	wltest_target_dir(t);
	t->image = xasprintf("%s.img", t->dir);
	fd = open(t->image, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	cr_assert(fd >= 0 && ftruncate(fd, (off_t)size) == 0, "%s: %s",
	    t->image, strerror(errno));
	close(fd);
	t->loop = attach(t->image);
	{
		const char *mk[] = { "mkfs.ext4", "-q", "-F", t->loop, NULL };

		cr_assert_eq(wltest_cmd(mk), 0, "mkfs.ext4 %s", t->loop);
	}
	cr_assert_eq(mount(t->loop, t->dir, "ext4", 0, NULL), 0, "mount %s: %s",
	    t->loop, strerror(errno));
	t->mounted = true;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

void
wltest_target_free(struct wltest_target *t)
{
	if (t->dir == NULL)
		return;
	if (t->mounted && umount(t->dir) < 0)
		umount2(t->dir, MNT_DETACH);
	if (t->loop != NULL) {
		const char *argv[] = { "losetup", "-d", t->loop, NULL };

		wltest_cmd(argv);
	}
	if (t->image != NULL)
		unlink(t->image);
	nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	free(t->dir);
	free(t->loop);
	free(t->image);
	memset(t, 0, sizeof *t);
}

static size_t count_n;
static uint64_t count_bytes;

static int
count_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F && S_ISREG(st->st_mode)) {
		count_n++;
		count_bytes += (uint64_t)st->st_size;
	}
	return 0;
}

size_t
wltest_count_files(const char *dir, uint64_t *bytes)
{
	count_n = 0;
	count_bytes = 0;
	nftw(dir, count_one, 16, FTW_PHYS);
	if (bytes != NULL)
		*bytes = count_bytes;
	return count_n;
}

bool
wltest_dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool empty = true;

	if (d == NULL)
		return true;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0 &&
		    strcmp(de->d_name, "lost+found") != 0)
			empty = false;
	closedir(d);
	return empty;
}

char wltest_cache_dir[64];

void
wltest_cache_setup(void)
{
	snprintf(wltest_cache_dir, sizeof wltest_cache_dir,
	    "/var/tmp/raidlab-cache-XXXXXX");
	cr_assert_not_null(mkdtemp(wltest_cache_dir));
	setenv("XDG_CACHE_HOME", wltest_cache_dir, 1);
}

void
wltest_rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void
wltest_cache_teardown(void)
{
	if (wltest_cache_dir[0])
		wltest_rm_rf(wltest_cache_dir);
}

void
wltest_tar_add(struct archive *a, const char *name, mode_t type,
    const char *link, const char *data)
{
	struct archive_entry *e = archive_entry_new();
	size_t n = data ? strlen(data) : 0;

	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e,
	    type == 0 || type == WLTEST_TAR_HARD ? AE_IFREG : type);
	archive_entry_set_perm(e, type == AE_IFDIR ? 0755 : 0644);
	archive_entry_set_mtime(e, 1000000000, 0);
	archive_entry_set_size(e, (la_int64_t)n);
	if (type == AE_IFLNK)
		archive_entry_set_symlink(e, link);
	else if (link != NULL)
		archive_entry_set_hardlink(e, link);
	cr_assert_eq(archive_write_header(a, e), ARCHIVE_OK, "%s: %s", name,
	    archive_error_string(a));
	if (n)
		cr_assert_eq(archive_write_data(a, data, n), (la_ssize_t)n);
	archive_entry_free(e);
}
