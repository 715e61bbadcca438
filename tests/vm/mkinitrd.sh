#!/bin/sh
# Build the md test guest's initramfs from what is installed on this host:
# busybox-static for the small tools, real bash (the guest's /init and
# /bin/sh: busybox sh runs its own applets before PATH), mdadm, e2fsprogs,
# xfsprogs, btrfs-progs, util-linux and kmod, each with the libraries ldd
# names; the md, virtio, filesystem and 9p modules of kernel KVER with their
# dependencies, loaded in order by /init; and the binary under test with
# its libraries (ASan and UBSan ones included).
#
# usage: mkinitrd.sh OUT KVER RAIDLAB
# OUT is an uncompressed newc cpio (~90 MB, most of it ICU data that
# libarchive's libxml2 pulls in): the emulated guest unpacks it in about a
# second, where gunzip of the same costs five. Tools missing here are left
# out with a warning; mdadm, bash and busybox are required. Takes a few
# seconds.
set -eu

[ $# -eq 3 ] || { echo "usage: $0 OUT KVER RAIDLAB" >&2; exit 2; }
out=$1
kver=$2
raidlab=$3
here=$(cd "$(dirname "$0")" && pwd)
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

moddir=/lib/modules/$kver
[ -f "$moddir/modules.dep" ] || { echo "$0: no $moddir/modules.dep" >&2; exit 1; }
[ -x "$raidlab" ] || { echo "$0: $raidlab: not an executable" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-initrd.XXXXXX")
trap 'rm -rf "$stage"' EXIT
trap 'exit 130' INT TERM

mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" \
	"$stage/lib/x86_64-linux-gnu" "$stage/lib64" "$stage/etc/mdadm" \
	"$stage/proc" "$stage/sys" "$stage/dev" "$stage/run" "$stage/tmp" \
	"$stage/var/tmp" "$stage/root" "$stage/share" "$stage/mnt"
chmod 1777 "$stage/tmp" "$stage/var/tmp"

# Every ELF file copied in; ldd runs over all of them at the end.
elfs=$(mktemp "$stage/.elfs.XXXXXX")

# copy_file SRC DST: dereferenced copy into the stage, parents created.
copy_file() {
	mkdir -p "$stage$(dirname "$2")"
	cp -L "$1" "$stage$2"
}

# tool NAME [required]: copy a program found in PATH to the same place
# under /usr (the host is merged-/usr; the guest's /bin is busybox's).
tool() {
	p=$(command -v "$1" 2>/dev/null) || p=
	case $p in
	/*) ;;
	*)
		if [ "${2:-}" = required ]; then
			echo "$0: $1 is not installed" >&2
			exit 1
		fi
		echo "$0: warning: $1 is not installed; left out" >&2
		return 0
		;;
	esac
	case $(dirname "$p") in
	*sbin) dst=/usr/sbin/$1 ;;
	*) dst=/usr/bin/$1 ;;
	esac
	copy_file "$p" "$dst"
	if head -c 4 "$p" | grep -q 'ELF'; then
		echo "$p" >>"$elfs"
	fi
}

# busybox first: its applets fill /bin, never over busybox itself, and
# never sh (bash is /bin/sh, see above).
bb=$(command -v busybox) || { echo "$0: busybox is not installed" >&2; exit 1; }
if ldd "$bb" >/dev/null 2>&1; then
	echo "$0: $bb is not static (install busybox-static)" >&2
	exit 1
fi
cp -L "$bb" "$stage/bin/busybox"
for a in $("$bb" --list); do
	case $a in
	busybox | sh | ash | hush) continue ;;
	esac
	ln -s busybox "$stage/bin/$a"
done

for t in bash mdadm; do
	tool "$t" required
done
ln -s ../usr/bin/bash "$stage/bin/sh"
ln -s ../usr/bin/bash "$stage/bin/bash"
for t in mke2fs dumpe2fs tune2fs e2fsck debugfs \
	mkfs.xfs xfs_info xfs_db xfs_io xfs_spaceman xfs_admin xfs_repair \
	btrfs mkfs.btrfs \
	wipefs blkid blockdev losetup mount umount findmnt lsblk \
	kmod sync stat; do
	tool "$t"
done
if [ -e "$stage/usr/sbin/mke2fs" ]; then
	for t in mkfs.ext2 mkfs.ext3 mkfs.ext4; do
		ln -s mke2fs "$stage/usr/sbin/$t"
	done
fi
[ -e "$stage/usr/sbin/e2fsck" ] && ln -s e2fsck "$stage/usr/sbin/fsck.ext4"
if [ -e "$stage/usr/bin/kmod" ]; then
	for t in modprobe insmod lsmod rmmod depmod modinfo; do
		ln -s ../bin/kmod "$stage/usr/sbin/$t"
	done
fi

# The binary under test, in PATH as an installed raidlab would be.
copy_file "$raidlab" /usr/bin/raidlab
echo "$raidlab" >>"$elfs"

# Shared libraries (and the dynamic loader) of everything above.
sort -u "$elfs" | while IFS= read -r f; do
	ldd "$f" 2>/dev/null
done | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' |
	sort -u | while IFS= read -r lib; do
	copy_file "$lib" "$lib"
done
rm -f "$elfs"

# Kernel modules in dependency order (builtins print as "builtin NAME"),
# with a depmod index so that /init loads them all with one modprobe -a
# (insmod in this order without kmod). The host's modprobe.d is not copied
# (Debian's md_mod start_ro=1): the guest runs md with the kernel's defaults.
mods="md_mod raid0 raid1 raid10 raid456 virtio_pci virtio_blk
ext4 xfs btrfs 9p 9pnet_virtio"
# shellcheck disable=SC2086
modprobe --show-depends -a -S "$kver" $mods |
	awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$stage/.modules"
: >"$stage/etc/modules.load"
while IFS= read -r m; do
	case $m in
	*.ko) copy_file "$m" "$m" ;;
	*.ko.xz) mkdir -p "$stage$(dirname "$m")" && xz -dc "$m" >"$stage${m%.xz}" ;;
	*.ko.zst) mkdir -p "$stage$(dirname "$m")" && zstd -qdc "$m" >"$stage${m%.zst}" ;;
	*.ko.gz) mkdir -p "$stage$(dirname "$m")" && gzip -dc "$m" >"$stage${m%.gz}" ;;
	*) echo "$0: unexpected module file $m" >&2; exit 1 ;;
	esac
	m=${m%.xz}
	m=${m%.zst}
	echo "${m%.gz}" >>"$stage/etc/modules.load"
done <"$stage/.modules"
rm -f "$stage/.modules"
[ -s "$stage/etc/modules.load" ] || { echo "$0: no modules for $kver" >&2; exit 1; }
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$moddir/$f" ] && cp "$moddir/$f" "$stage$moddir/$f"
done
depmod -b "$stage" "$kver"
# shellcheck disable=SC2086
printf '%s\n' $mods >"$stage/etc/modules.names"

# A root user, mount's mtab, and mdadm without a config file to scan.
echo 'root:x:0:0:root:/root:/bin/bash' >"$stage/etc/passwd"
echo 'root:x:0:' >"$stage/etc/group"
echo 'disk:x:6:' >>"$stage/etc/group"
ln -s ../proc/self/mounts "$stage/etc/mtab"
printf 'DEVICE partitions\nHOMEHOST <system>\n' >"$stage/etc/mdadm/mdadm.conf"
echo "$kver" >"$stage/etc/raidlab-vm-kernel"

install -m 0755 "$here/init" "$stage/init"

tmp="$out.tmp.$$"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	cat >"$tmp"
mv "$tmp" "$out"
