/*
 * What a confirmation binds to. `--yes-destroy=/dev/sdb` (or the names
 * typed in the TUI) is given for the disk the user saw under that name,
 * not for whatever has the name when a variant is built hours later:
 * /dev/sdX names move on hot-plug, a freed /dev/loop3 is given to the
 * next `losetup`. So when the confirmation is given, each name's
 * identity is taken (confirm_set_take()): the device number, the
 * kernel's disk sequence number (a new one at every attach) and the boot
 * it belongs to, the size, the signature (type, label, UUID) and, for a
 * loop device, the device and inode of its backing file. Before a
 * variant destroys a confirmed device, confirm_refuse() compares what is
 * there now with it and refuses any difference, saying what changed.
 * Any thread; reads sysfs, /proc and the inventory, never writes.
 */
#ifndef RAIDLAB_CONFIRM_H
#define RAIDLAB_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct disk_list;
struct errlist;
struct guard_dev;

/* One confirmed name and the device it designated. Strings owned. */
struct confirm_ident {
	char *name; /* as confirmed: "loop3", "/dev/disk/by-id/x" */
	char *node; /* the kernel's node then: "/dev/loop3" */
	unsigned major, minor;
	unsigned long long diskseq; /* 0: the kernel has none */
	char boot[40]; /* /proc/sys/kernel/random/boot_id */
	uint64_t size; /* bytes */
	char *type, *label, *uuid; /* signature or partition table;
				      NULL: none */
	unsigned long long back_dev, back_ino; /* loop: its backing file;
						  0: not a loop */
};

struct confirm_set {
	struct confirm_ident *v;
	size_t n;
};

void confirm_set_init(struct confirm_set *s);
void confirm_set_done(struct confirm_set *s);
/* dst (initialised or done) becomes a deep copy of src. */
void confirm_set_copy(struct confirm_set *dst, const struct confirm_set *src);

/*
 * Replace s with the identities of names (a bare name means /dev/NAME) as
 * inv, a fresh probed inventory, and the system show them now. A name
 * that designates no device of inv is left out: it binds to nothing, so
 * it confirms nothing later.
 */
void confirm_set_take(struct confirm_set *s, const struct disk_list *inv,
    const char *const *names, size_t n);

/*
 * Whether name still designates the device it was confirmed for: true,
 * or false with why (translated) saying what changed ("it was ext4
 * \"mine\" (UUID ...), now ext4 \"victim\" (UUID ...); disk sequence 9,
 * now 12"). inv: a fresh probed inventory.
 */
bool confirm_holds(const struct confirm_set *s, const struct disk_list *inv,
    const char *name, char *why, size_t len);

/*
 * For each of the n devs of one variant that an entry of confirmed
 * designates now, that the entry still holds (confirm_holds()). Each
 * device that does not gets an errlist entry (-ESTALE: no confirmation
 * lifts it) with its file, line and field: "DEV: not the device that was
 * confirmed: WHAT CHANGED". Returns 0, or -EPERM when one was refused.
 */
int confirm_refuse(const struct confirm_set *s, const struct disk_list *inv,
    const struct guard_dev *devs, size_t n, const char *const *confirmed,
    size_t nconfirmed, const char *file, struct errlist *errs);

/* [{name, node, rdev "MAJ:MIN", diskseq, boot, size, type, label, uuid,
   backing_dev, backing_ino}], for the record. A new reference. */
json_t *confirm_set_json(const struct confirm_set *s);

#endif
