/*
 * untar's writer (wl-untar-write.h): tar members written with *at()
 * calls under one directory descriptor, symlinks deferred behind
 * placeholders and directories' status delayed, as GNU tar does (its
 * delayed_link and delayed_set_stat lists). A regular file
 * costs one openat, its writes, futimens and close, plus fchown and
 * fchmod only when they change something. Called only by the worker
 * thread that owns the writer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/xalloc.h"
#include "wl-untar-write.h"

struct untar_dir {
	size_t name; /* offset in names */
	size_t len; /* of the name */
	size_t up; /* the enclosing open directory: index + 1, 0 none */
	struct untar_meta m;
	unsigned depth;
	bool left; /* times set when the archive left it */
	/* Times only at the finish, after the links (tar's after_links):
	   "." and the directories above a link tar defers. */
	bool after_links;
	bool again; /* left, times intact: set again after the links */
};

struct untar_link {
	size_t name, target; /* offsets in names */
	struct untar_meta m;
	dev_t dev;
	ino_t ino;
	size_t dir; /* the open directory it is directly in: index + 1 */
	bool deferred; /* tar defers it too (tar_defers()) */
	bool made; /* the symlink replaced the placeholder */
};

struct untar_alias {
	size_t link; /* index in links */
	size_t name;
	size_t dir; /* as a link's */
};

#define GROW(p, n, cap)                                                        \
	do {                                                                   \
		if ((n) == (cap)) {                                            \
			(cap) = (cap) ? 2 * (cap) : 64;                        \
			(p) = xreallocarray((p), (cap), sizeof *(p));          \
		}                                                              \
	} while (0)

/* s copied into the names arena: its offset. */
static size_t
name_keep(struct untar_writer *w, const char *s)
{
	size_t len = strlen(s) + 1, off = w->names_len;

	while (w->names_len + len > w->names_cap) {
		w->names_cap = w->names_cap ? 2 * w->names_cap : 4096;
		w->names = xrealloc(w->names, w->names_cap);
	}
	memcpy(w->names + off, s, len);
	w->names_len += len;
	return off;
}

int
untar_writer_init(struct untar_writer *w, int dirfd, bool owners)
{
	struct stat st;

	memset(w, 0, sizeof *w);
	w->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (w->dirfd < 0 || fstat(w->dirfd, &st) < 0) {
		w->what = "open";
		return -errno;
	}
	w->owners = owners;
	w->setgid = (st.st_mode & S_ISGID) != 0;
	w->euid = geteuid();
	w->egid = getegid();
	w->umask = afile_umask(); /* read once, never set */
	return 0;
}

void
untar_writer_done(struct untar_writer *w)
{
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->dirfd = -1;
	free(w->names);
	free(w->dirs);
	free(w->links);
	free(w->aliases);
	w->names = NULL;
	w->dirs = NULL;
	w->links = NULL;
	w->aliases = NULL;
}

static int
failed(struct untar_writer *w, const char *what)
{
	w->what = what;
	return -errno;
}

/* The directories leading to name, made as tar makes them (0777 less the
   umask; their status is the archive's only if it has them). */
static int
make_parents(struct untar_writer *w, const char *name)
{
	size_t len = strlen(name);
	char *p, *s = w->scratch;

	if (len >= sizeof w->scratch) {
		errno = ENAMETOOLONG;
		return failed(w, "mkdir");
	}
	memcpy(s, name, len + 1);
	for (p = strchr(s, '/'); p != NULL; p = strchr(p + 1, '/')) {
		if (p == s || p[-1] == '/')
			continue;
		*p = '\0';
		if (mkdirat(w->dirfd, s, 0777) < 0 && errno != EEXIST)
			return failed(w, "mkdir");
		*p = '/';
	}
	return 0;
}

/* An old member in the way of name, removed: a file, an empty dir. */
static int
remove_old(struct untar_writer *w, const char *name)
{
	if (unlinkat(w->dirfd, name, 0) == 0)
		return 0;
	if ((errno == EISDIR || errno == EPERM) &&
	    unlinkat(w->dirfd, name, AT_REMOVEDIR) == 0)
		return 0;
	return failed(w, "unlink");
}

/*
 * After a failed create of name (errno set): make its parents once on
 * ENOENT, remove an old member once on EEXIST. 0: try again; -errno: that
 * step failed; 1: give up, errno as the create left it.
 */
static int
create_again(struct untar_writer *w, const char *name, bool *parents,
    bool *removed)
{
	if (errno == ENOENT && !*parents) {
		*parents = true;
		return make_parents(w, name);
	}
	if (errno == EEXIST && !*removed) {
		*removed = true;
		return remove_old(w, name);
	}
	return 1;
}

/*
 * openat(O_CREAT|O_EXCL|O_NOFOLLOW) of name with mode, retried once after
 * making its parents (ENOENT) and once after removing an old member
 * (EEXIST): the descriptor or -errno.
 */
static int
create_excl(struct untar_writer *w, const char *name, mode_t mode)
{
	const int flags =
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;
	bool parents = false, removed = false;
	int fd, rc;

	for (;;) {
		fd = openat(w->dirfd, name, flags, mode);
		if (fd >= 0)
			return fd;
		if ((rc = create_again(w, name, &parents, &removed)) > 0)
			return failed(w, "open");
		if (rc < 0)
			return rc;
	}
}

int
untar_writer_open(struct untar_writer *w, const char *name, mode_t mode)
{
	/* Made with its final permissions (the run's directory is ours
	   alone): fchmod only when the umask took bits or set-id bits are
	   wanted. */
	return create_excl(w, name, mode & 0777);
}

/* Does a file made by us need chown to get uid:gid? */
static bool
need_chown(const struct untar_writer *w, const struct untar_meta *m)
{
	if (!w->owners)
		return false;
	/* New files are ours: euid, and egid unless a setgid parent gave
	   its group (only the top directory can be setgid: Linux does not
	   take S_ISGID from mkdir's mode). */
	return (int64_t)w->euid != m->uid || (int64_t)w->egid != m->gid ||
	    w->setgid;
}

/* times[] for futimens/utimensat: the archive's mtime, and its atime or
   none (GNU tar leaves the atime alone when the archive has none). */
static void
times_of(const struct untar_meta *m, struct timespec ts[2])
{
	ts[0] = m->atime;
	if (!m->has_atime) {
		ts[0].tv_sec = 0;
		ts[0].tv_nsec = UTIME_OMIT;
	}
	ts[1] = m->mtime;
}

/* Owner, mode and (if set_times) times on an open member fd created
   with mode made. */
static int
fd_status(struct untar_writer *w, int fd, const struct untar_meta *m,
    mode_t made, bool set_times)
{
	struct timespec ts[2];
	bool chowned = need_chown(w, m);

	if (chowned && fchown(fd, (uid_t)m->uid, (gid_t)m->gid) < 0)
		return failed(w, "chown");
	/* chown clears set-id bits: set them again after it. */
	if ((made != m->mode || (m->mode & 07000)) && fchmod(fd, m->mode) < 0)
		return failed(w, "chmod");
	if (!set_times)
		return 0;
	times_of(m, ts);
	if (futimens(fd, ts) < 0)
		return failed(w, "utime");
	return 0;
}

int
untar_writer_close(struct untar_writer *w, int fd, const char *name,
    const struct untar_meta *m, int64_t size, int64_t end)
{
	int rc = 0;

	(void)name;
	if (end < size && ftruncate(fd, (off_t)size) < 0)
		rc = failed(w, "truncate");
	if (rc == 0)
		rc = fd_status(w, fd, m, m->mode & 0777 & ~w->umask, true);
	if (close(fd) < 0 && rc == 0)
		rc = failed(w, "close");
	return rc;
}

static unsigned
depth_of(const char *name)
{
	unsigned d = 0;

	for (; *name; name++)
		d += *name == '/' && name[1] != '\0' && name[1] != '/';
	return d;
}

int
untar_writer_dir(struct untar_writer *w, const char *name,
    const struct untar_meta *m)
{
	struct untar_dir *d;
	struct stat st;
	int rc;

	/* Writable by us until the finish, whatever its final mode. */
	if (mkdirat(w->dirfd, name, 0700) < 0) {
		if (errno == ENOENT) {
			if ((rc = make_parents(w, name)) < 0)
				return rc;
		} else if (errno != EEXIST) {
			return failed(w, "mkdir");
		} else if (fstatat(w->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) <
		    0) {
			return failed(w, "stat");
		} else if (S_ISDIR(st.st_mode)) {
			goto keep; /* tar takes an existing directory */
		} else if ((rc = remove_old(w, name)) < 0) {
			return rc;
		}
		if (mkdirat(w->dirfd, name, 0700) < 0)
			return failed(w, "mkdir");
	}
keep:
	GROW(w->dirs, w->ndirs, w->dirs_cap);
	d = &w->dirs[w->ndirs++];
	d->name = name_keep(w, name);
	d->len = strlen(name);
	d->m = *m;
	d->depth = depth_of(name);
	d->left = false;
	/* Every member is in ".": tar sets its times at the very end. */
	d->after_links = strcmp(name, ".") == 0;
	d->again = false;
	d->up = w->top;
	w->top = w->ndirs;
	return 0;
}

/* Is name directly in the directory d? */
static bool
dir_parent_of(const struct untar_writer *w, const struct untar_dir *d,
    const char *name)
{
	const char *dn = w->names + d->name;

	if (strcmp(dn, ".") == 0)
		return strcmp(name, ".") != 0 && strchr(name, '/') == NULL;
	return d->len < strlen(name) && name[d->len] == '/' &&
	    memcmp(name, dn, d->len) == 0 &&
	    strchr(name + d->len + 1, '/') == NULL;
}

/* The open directory name is directly in, unless it waits for the links
   already: index + 1, or 0. Only the innermost can be (the archive left
   the others, or they wait). */
static size_t
open_parent(const struct untar_writer *w, const char *name)
{
	const struct untar_dir *d = w->top > 0 ? &w->dirs[w->top - 1] : NULL;

	return d != NULL && !d->after_links && dir_parent_of(w, d, name)
	    ? w->top
	    : 0;
}

/* A symlink GNU tar also makes only at the end, behind a placeholder: an
   absolute target, or one with a ".." component. */
static bool
tar_defers(const char *target)
{
	const char *p = target;

	if (*p == '/')
		return true;
	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return true;
		if (p[n] == '\0')
			return false;
		p += n + 1;
	}
}

int
untar_writer_symlink(struct untar_writer *w, const char *name,
    const char *target, const struct untar_meta *m)
{
	struct untar_link *l;
	struct stat st;
	int fd = create_excl(w, name, 0);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int rc = failed(w, "stat");

		close(fd);
		return rc;
	}
	if (close(fd) < 0)
		return failed(w, "close");
	GROW(w->links, w->nlinks, w->links_cap);
	l = &w->links[w->nlinks++];
	l->name = name_keep(w, name);
	l->target = name_keep(w, target);
	l->m = *m;
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->made = false;
	l->deferred = tar_defers(target);
	/* As tar: its directory and those it is in, still open, get their
	   times after the links are made, later members or not. */
	l->dir = open_parent(w, name);
	for (size_t k = l->deferred ? l->dir : 0;
	     k > 0 && !w->dirs[k - 1].after_links; k = w->dirs[k - 1].up)
		w->dirs[k - 1].after_links = true;
	return 0;
}

/* The placeholder that st is, or -1. Linear: only hard links ask, and
   only while placeholders exist. */
static long
link_of(const struct untar_writer *w, const struct stat *st)
{
	size_t i;

	if (!S_ISREG(st->st_mode) || st->st_size != 0)
		return -1;
	for (i = 0; i < w->nlinks; i++)
		if (w->links[i].ino == st->st_ino &&
		    w->links[i].dev == st->st_dev)
			return (long)i;
	return -1;
}

int
untar_writer_hardlink(struct untar_writer *w, const char *name,
    const char *target)
{
	bool parents = false, removed = false;
	struct stat st;
	long l;
	int rc;

	/* "a" linked to "a": already there; unlinking would lose it. */
	if (strcmp(name, target) == 0)
		return 0;
	while (linkat(w->dirfd, target, w->dirfd, name, 0) < 0) {
		if ((rc = create_again(w, name, &parents, &removed)) > 0)
			return failed(w, "link");
		if (rc < 0)
			return rc;
	}
	if (w->nlinks == 0)
		return 0;
	/* A link to a symlink's placeholder becomes that symlink too. */
	if (fstatat(w->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return failed(w, "stat");
	if ((l = link_of(w, &st)) >= 0) {
		GROW(w->aliases, w->naliases, w->aliases_cap);
		w->aliases[w->naliases].link = (size_t)l;
		w->aliases[w->naliases].dir = open_parent(w, name);
		w->aliases[w->naliases++].name = name_keep(w, name);
	}
	return 0;
}

/* Owner, mode and times of name, which is not a symlink (none exists
   yet) and not open. */
static int
path_status(struct untar_writer *w, const char *name,
    const struct untar_meta *m)
{
	struct timespec ts[2];

	if (need_chown(w, m) &&
	    fchownat(w->dirfd, name, (uid_t)m->uid, (gid_t)m->gid,
		AT_SYMLINK_NOFOLLOW) < 0)
		return failed(w, "chown");
	if (fchmodat(w->dirfd, name, m->mode, 0) < 0)
		return failed(w, "chmod");
	times_of(m, ts);
	if (utimensat(w->dirfd, name, ts, AT_SYMLINK_NOFOLLOW) < 0)
		return failed(w, "utime");
	return 0;
}

int
untar_writer_node(struct untar_writer *w, const char *name, mode_t type,
    const struct untar_meta *m)
{
	bool parents = false, removed = false;
	int rc;

	while (mknodat(w->dirfd, name, type | 0600, m->rdev) < 0) {
		if ((rc = create_again(w, name, &parents, &removed)) > 0)
			return failed(w, "mknod");
		if (rc < 0)
			return rc;
	}
	return path_status(w, name, m);
}

/* The placeholder at name, if still the one l made (same device and
   inode, a regular file): 0, 1 when gone (a later member took the
   name: no symlink there, as tar), or -errno. */
static int
placeholder_at(struct untar_writer *w, const struct untar_link *l,
    const char *name)
{
	struct stat st;

	if (fstatat(w->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 1 : failed(w, "stat");
	/* Still empty and mode 0 too: an inode number reused by a later
	   member's file is not mistaken for it. */
	if (!S_ISREG(st.st_mode) || (st.st_mode & 07777) != 0 ||
	    st.st_size != 0 || st.st_dev != l->dev || st.st_ino != l->ino)
		return 1;
	if (unlinkat(w->dirfd, name, 0) < 0)
		return failed(w, "unlink");
	return 0;
}

/* The symlink l at name in place of its placeholder. 0, 1, or -errno as
   placeholder_at(). */
static int
link_make(struct untar_writer *w, const struct untar_link *l, const char *name)
{
	struct timespec ts[2];
	int rc = placeholder_at(w, l, name);

	if (rc != 0)
		return rc;
	if (symlinkat(w->names + l->target, w->dirfd, name) < 0)
		return failed(w, "symlink");
	if (need_chown(w, &l->m) &&
	    fchownat(w->dirfd, name, (uid_t)l->m.uid, (gid_t)l->m.gid,
		AT_SYMLINK_NOFOLLOW) < 0)
		return failed(w, "chown");
	times_of(&l->m, ts);
	if (utimensat(w->dirfd, name, ts, AT_SYMLINK_NOFOLLOW) < 0)
		return failed(w, "utime");
	return 0;
}

/* A hard link to a placeholder: a second name of the symlink made in its
   place, or a symlink of its own when that one's name was taken. */
static int
alias_make(struct untar_writer *w, const struct untar_alias *a,
    const char *name)
{
	const struct untar_link *l = &w->links[a->link];
	int rc;

	if (!l->made)
		return link_make(w, l, name);
	if ((rc = placeholder_at(w, l, name)) != 0)
		return rc;
	if (linkat(w->dirfd, w->names + l->name, w->dirfd, name, 0) < 0)
		return failed(w, "link");
	return 0;
}

/* Is the directory d an ancestor of the member name (tar's test)? */
static bool
dir_holds(const struct untar_writer *w, const struct untar_dir *d,
    const char *name, size_t len)
{
	const char *dn = w->names + d->name;

	return d->len < len && d->len > 0 &&
	    (name[d->len] == '/' || dn[d->len - 1] == '/') &&
	    memcmp(name, dn, d->len) == 0;
}

void
untar_writer_next(struct untar_writer *w, const char *name)
{
	size_t len = strlen(name);
	struct timespec ts[2];

	while (w->top > 0) {
		struct untar_dir *d = &w->dirs[w->top - 1];

		/* Those that wait for the links stay, and so what is under
		   them (all that is under one waits too). */
		if (d->after_links || dir_holds(w, d, name, len))
			break;
		/* No symlink exists yet: the name is still our directory.
		   A failure leaves the times to the finish, which says so. */
		times_of(&d->m, ts);
		d->left = utimensat(w->dirfd, w->names + d->name, ts,
			      AT_SYMLINK_NOFOLLOW) == 0;
		w->top = d->up;
	}
}

/* Deepest first; in archive order among equals. */
static int
dir_cmp(const void *a, const void *b)
{
	const struct untar_dir *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* A directory's delayed status, on the directory itself (O_NOFOLLOW:
   a later member may have put something else at its name). */
static int
dir_status(struct untar_writer *w, const struct untar_dir *d)
{
	const char *name = w->names + d->name;
	int fd = openat(w->dirfd, name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc;

	/* Gone, or another kind now: a later member took the name. */
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ELOOP))
		return 0;
	if (fd < 0)
		return failed(w, "open");
	/* The mode is never the 0700 it was made with by chance alone.
	   A directory left has its times, or a later member's. */
	rc = fd_status(w, fd, &d->m, (mode_t)-1, !d->left || d->again);
	close(fd);
	return rc;
}

static int
report(untar_warn_fn warn, void *arg, const char *name, const char *what,
    int err)
{
	return warn != NULL ? warn(arg, name, what, err) : 0;
}

/*
 * A link tar makes at once, which we make now, in the directory k
 * (index + 1) while it was open: if the archive left that directory
 * and no later member changed it since, its times are set again after
 * the links, as tar's were never touched.
 */
static void
again_if_intact(struct untar_writer *w, size_t k)
{
	struct untar_dir *d = &w->dirs[k - 1];
	struct stat st;

	if (!d->left || d->again ||
	    fstatat(w->dirfd, w->names + d->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	d->again = S_ISDIR(st.st_mode) &&
	    st.st_mtim.tv_sec == d->m.mtime.tv_sec &&
	    st.st_mtim.tv_nsec == d->m.mtime.tv_nsec;
}

int
untar_writer_finish(struct untar_writer *w, untar_warn_fn warn, void *arg)
{
	size_t i;
	int rc;

	for (i = 0; i < w->nlinks; i++)
		if (!w->links[i].deferred && w->links[i].dir > 0)
			again_if_intact(w, w->links[i].dir);
	for (i = 0; i < w->naliases; i++)
		if (!w->links[w->aliases[i].link].deferred &&
		    w->aliases[i].dir > 0)
			again_if_intact(w, w->aliases[i].dir);
	for (i = 0; i < w->nlinks; i++) {
		const char *name = w->names + w->links[i].name;

		rc = link_make(w, &w->links[i], name);
		w->links[i].made = rc == 0;
		if (rc < 0 && (rc = report(warn, arg, name, w->what, -rc)) < 0)
			return rc;
	}
	for (i = 0; i < w->naliases; i++) {
		const char *name = w->names + w->aliases[i].name;

		rc = alias_make(w, &w->aliases[i], name);
		if (rc < 0 && (rc = report(warn, arg, name, w->what, -rc)) < 0)
			return rc;
	}
	w->top = 0; /* the order below is not the stack's */
	if (w->ndirs > 1) /* dirs is NULL when there are none */
		qsort(w->dirs, w->ndirs, sizeof *w->dirs, dir_cmp);
	for (i = 0; i < w->ndirs; i++)
		if ((rc = dir_status(w, &w->dirs[i])) < 0 &&
		    (rc = report(warn, arg, w->names + w->dirs[i].name, w->what,
			 -rc)) < 0)
			return rc;
	return 0;
}
