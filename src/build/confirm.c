/*
 * What a confirmation binds to, and the check before a confirmed device
 * is destroyed. See confirm.h. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "confirm.h"
#include "disk/disk.h"
#include "guard.h"

void
confirm_set_init(struct confirm_set *s)
{
	memset(s, 0, sizeof *s);
}

static void
ident_done(struct confirm_ident *c)
{
	free(c->name);
	free(c->node);
	free(c->type);
	free(c->label);
	free(c->uuid);
}

void
confirm_set_done(struct confirm_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		ident_done(&s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

void
confirm_set_copy(struct confirm_set *dst, const struct confirm_set *src)
{
	confirm_set_done(dst);
	dst->v = xcalloc(src->n + 1, sizeof *dst->v);
	for (size_t i = 0; i < src->n; i++) {
		const struct confirm_ident *a = &src->v[i];
		struct confirm_ident *b = &dst->v[i];

		*b = *a;
		b->name = xstrdup(a->name);
		b->node = xstrdup_null(a->node);
		b->type = xstrdup_null(a->type);
		b->label = xstrdup_null(a->label);
		b->uuid = xstrdup_null(a->uuid);
	}
	dst->n = src->n;
}

/* The first line of a small file into buf; "" when unreadable. */
static void
read_line(const char *path, char *buf, size_t len)
{
	ssize_t n = -1;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* The disk sequence number of maj:min (a partition: its disk's), 0 when
   the kernel has none. */
static unsigned long long
diskseq(unsigned maj, unsigned min)
{
	char path[96], b[32];

	snprintf(path, sizeof path, "/sys/dev/block/%u:%u/diskseq", maj, min);
	read_line(path, b, sizeof b);
	if (b[0] == '\0') {
		snprintf(path, sizeof path, "/sys/dev/block/%u:%u/../diskseq",
		    maj, min);
		read_line(path, b, sizeof b);
	}
	return strtoull(b, NULL, 10);
}

/* The backing file of loop device node (device and inode), as the
   kernel holds it: a path can be renamed, the open file cannot. */
static void
loop_backing(const char *node, unsigned long long *dev, unsigned long long *ino)
{
	struct loop_info64 li;
	int fd;

	*dev = *ino = 0;
	if ((fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return;
	memset(&li, 0, sizeof li);
	if (ioctl(fd, LOOP_GET_STATUS64, &li) == 0) {
		*dev = (unsigned long long)li.lo_device;
		*ino = (unsigned long long)li.lo_inode;
	}
	close(fd);
}

/* The device name designates in inv now, or NULL. */
static const struct disk *
designated(const struct disk_list *inv, const char *name)
{
	char p[4096];
	struct stat st;

	snprintf(p, sizeof p, "%s%s", strchr(name, '/') ? "" : "/dev/", name);
	if (stat(p, &st) < 0 || !S_ISBLK(st.st_mode))
		return NULL;
	for (size_t i = 0; i < inv->n; i++)
		if (inv->v[i].major == major(st.st_rdev) &&
		    inv->v[i].minor == minor(st.st_rdev))
			return &inv->v[i];
	return NULL;
}

/* The identity of d now, under name. */
static void
ident_take(struct confirm_ident *c, const char *name, const struct disk *d)
{
	memset(c, 0, sizeof *c);
	c->name = xstrdup(name);
	c->node = xstrdup_null(d->path);
	c->major = d->major;
	c->minor = d->minor;
	c->diskseq = diskseq(d->major, d->minor);
	read_line("/proc/sys/kernel/random/boot_id", c->boot, sizeof c->boot);
	c->size = d->size;
	c->type = xstrdup_null(d->fstype ? d->fstype : d->pttype);
	c->label = xstrdup_null(d->label);
	c->uuid = xstrdup_null(d->uuid);
	if (d->type == DISK_TYPE_LOOP && d->path != NULL)
		loop_backing(d->path, &c->back_dev, &c->back_ino);
}

void
confirm_set_take(struct confirm_set *s, const struct disk_list *inv,
    const char *const *names, size_t n)
{
	confirm_set_done(s);
	s->v = xcalloc(n + 1, sizeof *s->v);
	for (size_t i = 0; i < n; i++) {
		const struct disk *d = designated(inv, names[i]);

		if (d != NULL)
			ident_take(&s->v[s->n++], names[i], d);
	}
}

/* ---------------------------------------------------------------- check */

static bool
same_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* "ext4 \"label\"", "no signature"; the UUID too when the label does
   not tell them apart (uuid). Short: a run's event line holds 255
   bytes. */
static void
sig_text(const struct confirm_ident *c, bool uuid, struct strbuf *b)
{
	if (c->type == NULL) {
		strbuf_add(b, _("no signature"));
		return;
	}
	strbuf_add(b, c->type);
	if (c->label != NULL && *c->label != '\0')
		strbuf_printf(b, " \"%s\"", c->label);
	if (uuid && c->uuid != NULL && *c->uuid != '\0')
		strbuf_printf(b, " (UUID %s)", c->uuid);
}

static void
sep(struct strbuf *b)
{
	if (b->len > 0)
		strbuf_add(b, "; ");
}

/* What differs between the identity confirmed (was) and now, into b,
   what the user knows the disk by first. */
static void
changes(const struct confirm_ident *was, const struct confirm_ident *now,
    struct strbuf *b)
{
	if (!same_str(was->type, now->type) ||
	    !same_str(was->label, now->label) ||
	    !same_str(was->uuid, now->uuid)) {
		bool uuid = same_str(was->type, now->type) &&
		    same_str(was->label, now->label);

		strbuf_add(b, _("it was "));
		sig_text(was, uuid, b);
		strbuf_add(b, _(", now "));
		sig_text(now, uuid, b);
	}
	if (was->major != now->major || was->minor != now->minor) {
		sep(b);
		strbuf_printf(b, _("device %u:%u, was %u:%u"), now->major,
		    now->minor, was->major, was->minor);
	}
	if (strcmp(was->boot, now->boot) != 0) {
		sep(b);
		strbuf_add(b, _("the machine has rebooted since"));
	} else if (was->diskseq != now->diskseq) {
		/* a new attach or hot-plug: another disk, or the same one
		   seen anew; either way not what was looked at */
		sep(b);
		strbuf_printf(b,
		    _("disk sequence %llu, was %llu (attached anew)"),
		    now->diskseq, was->diskseq);
	}
	if (was->back_dev != now->back_dev || was->back_ino != now->back_ino) {
		sep(b);
		strbuf_printf(b, _("backing file inode %llu, was %llu"),
		    now->back_ino, was->back_ino);
	}
	if (was->size != now->size) {
		sep(b);
		strbuf_printf(b, _("%llu bytes, was %llu"),
		    (unsigned long long)now->size,
		    (unsigned long long)was->size);
	}
}

bool
confirm_holds(const struct confirm_set *s, const struct disk_list *inv,
    const char *name, char *why, size_t len)
{
	const struct confirm_ident *was = NULL;
	const struct disk *d = designated(inv, name);
	struct confirm_ident now;
	struct strbuf b;
	bool same;

	for (size_t i = 0; i < s->n && was == NULL; i++)
		if (strcmp(s->v[i].name, name) == 0)
			was = &s->v[i];
	if (was == NULL || d == NULL) {
		snprintf(why, len, "%s",
		    was == NULL ? _("no identity was taken when it was "
				    "confirmed")
				: _("it is not in the disk inventory"));
		return false;
	}
	ident_take(&now, name, d);
	strbuf_init(&b);
	changes(was, &now, &b);
	same = b.len == 0;
	snprintf(why, len, "%s", same ? "" : b.s);
	strbuf_done(&b);
	ident_done(&now);
	return same;
}

int
confirm_refuse(const struct confirm_set *s, const struct disk_list *inv,
    const struct guard_dev *devs, size_t n, const char *const *confirmed,
    size_t nconfirmed, const char *file, struct errlist *errs)
{
	char why[ERR_MSG_MAX];
	int rc = 0;

	for (size_t i = 0; i < nconfirmed; i++) {
		const struct disk *c = designated(inv, confirmed[i]);

		if (c == NULL ||
		    confirm_holds(s, inv, confirmed[i], why, sizeof why))
			continue;
		for (size_t k = 0; k < n; k++)
			if (designated(inv, devs[k].path) == c) {
				errlist_add(errs, -ESTALE, file, devs[k].line,
				    devs[k].field,
				    _("%s: not the device that was "
				      "confirmed: %s"),
				    devs[k].path, why);
				rc = -EPERM;
			}
	}
	return rc;
}

json_t *
confirm_set_json(const struct confirm_set *s)
{
	json_t *a = json_array();
	char rdev[32];

	for (size_t i = 0; i < s->n; i++) {
		const struct confirm_ident *c = &s->v[i];

		snprintf(rdev, sizeof rdev, "%u:%u", c->major, c->minor);
		json_array_append_new(a,
		    json_pack("{s:s, s:s?, s:s, s:I, s:s, s:I, s:s?, s:s?, "
			      "s:s?, s:I, s:I}",
			"name", c->name, "node", c->node, "rdev", rdev,
			"diskseq", (json_int_t)c->diskseq, "boot", c->boot,
			"size", (json_int_t)c->size, "type", c->type, "label",
			c->label, "uuid", c->uuid, "backing_dev",
			(json_int_t)c->back_dev, "backing_ino",
			(json_int_t)c->back_ino));
	}
	return a;
}
