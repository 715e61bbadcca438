#!/bin/sh
# Build the md test guest's initramfs from a Debian root: this host's own
# ("/", Debian 12 bookworm), or another release's unpacked by
# debian-root.sh. From ROOT: busybox-static for the small tools, real bash
# (the guest's /init and /bin/sh: busybox sh runs its own applets before
# PATH), mdadm, e2fsprogs, xfsprogs, btrfs-progs, util-linux, kmod and
# coreutils, each with the libraries it needs (DT_NEEDED, found in ROOT);
# the md, virtio, filesystem and 9p modules of ROOT's kernel KVER with
# their dependencies, loaded in order by /init; and the binary under test,
# built on this host, with its libraries (ASan and UBSan ones included):
# ROOT's where ROOT has the soname (glibc and the rest are backward
# compatible), else this host's.
#
# usage: mkinitrd.sh [-r ROOT] OUT KVER RAIDLAB
# OUT is an uncompressed newc cpio (~90 MB, most of it ICU data that
# libarchive's libxml2 pulls in): the emulated guest unpacks it in about a
# second, where gunzip of the same costs five. Tools missing from ROOT are
# left out with a warning; mdadm, bash and busybox are required, and so is
# every library: a soname found nowhere fails the build, naming it. Takes
# a few seconds.
set -eu

root=/
if [ "${1:-}" = -r ]; then
	root=$2
	shift 2
fi
[ $# -eq 3 ] || { echo "usage: $0 [-r ROOT] OUT KVER RAIDLAB" >&2; exit 2; }
out=$1
kver=$2
raidlab=$3
here=$(cd "$(dirname "$0")" && pwd)
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
# ROOT as a prefix: "" for the host
r=$(cd "$root" && pwd)
r=${r%/}

moddir=/lib/modules/$kver
[ -f "$r$moddir/modules.dep" ] || { echo "$0: no $r$moddir/modules.dep" >&2; exit 1; }
[ -x "$raidlab" ] || { echo "$0: $raidlab: not an executable" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-initrd.XXXXXX")
trap 'rm -rf "$stage"' EXIT
trap 'exit 130' INT TERM

# merged /usr, as Debian has it: /lib/modules is /usr/lib/modules for
# every kmod; /bin and /sbin stay busybox's
mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" \
	"$stage/usr/lib/x86_64-linux-gnu" "$stage/usr/lib64" "$stage/etc/mdadm" \
	"$stage/proc" "$stage/sys" "$stage/dev" "$stage/run" "$stage/tmp" \
	"$stage/var/tmp" "$stage/root" "$stage/share" "$stage/mnt"
ln -s usr/lib "$stage/lib"
ln -s usr/lib64 "$stage/lib64"
chmod 1777 "$stage/tmp" "$stage/var/tmp"

# Every ELF file copied in, "FILE WHERE" (WHERE: root, or host for the
# binary under test); their libraries are resolved at the end.
elfs=$stage/.elfs
: >"$elfs"

# in_root PATH: PATH (absolute, in ROOT) with its symlinks resolved
# inside ROOT, never on this host; printed with the prefix.
in_root() {
	p=$1
	i=0
	while [ -L "$r$p" ] && [ $i -lt 40 ]; do
		l=$(readlink "$r$p")
		case $l in
		/*) p=$l ;;
		*) p=$(dirname "$p")/$l ;;
		esac
		i=$((i + 1))
	done
	# a symlinked folder on the way (/bin -> usr/bin)
	d=$(dirname "$p")
	if [ -L "$r$d" ]; then
		d=$(in_root "$d")
		p=${d#"$r"}/$(basename "$p")
		in_root "$p"
		return
	fi
	printf '%s%s\n' "$r" "$p"
}

# copy_file SRC DST: dereferenced copy into the stage, parents created.
copy_file() {
	mkdir -p "$stage$(dirname "$2")"
	cp -L "$1" "$stage$2"
}

is_elf() {
	head -c 4 "$1" | grep -q 'ELF'
}

# tool NAME [required]: copy a program of ROOT to the same place under
# /usr (the guest's /bin is busybox's).
tool() {
	p=
	for d in /usr/sbin /usr/bin /sbin /bin; do
		f=$(in_root "$d/$1")
		if [ -f "$f" ] && [ -x "$f" ]; then
			p=$f
			break
		fi
	done
	if [ -z "$p" ]; then
		if [ "${2:-}" = required ]; then
			echo "$0: $1 is not in $root" >&2
			exit 1
		fi
		echo "$0: warning: $1 is not in $root; left out" >&2
		return 0
	fi
	case $d in
	*sbin) dst=/usr/sbin/$1 ;;
	*) dst=/usr/bin/$1 ;;
	esac
	copy_file "$p" "$dst"
	if is_elf "$p"; then
		echo "$p root" >>"$elfs"
	fi
}

# busybox first: its applets fill /bin, never over busybox itself, and
# never sh (bash is /bin/sh, see above).
bb=
for d in /usr/bin /bin; do
	f=$(in_root "$d/busybox")
	[ -f "$f" ] && bb=$f && break
done
[ -n "$bb" ] || { echo "$0: busybox is not in $root" >&2; exit 1; }
if readelf -l "$bb" | grep -q 'program interpreter'; then
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
	kmod sync stat timeout; do
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
echo "$raidlab host" >>"$elfs"

# find_lib SONAME WHERE: the library's file, in ROOT's library folders,
# then (for the binary under test and what it brought) this host's.
find_lib() {
	dirs="$r/usr/lib/x86_64-linux-gnu $r/lib/x86_64-linux-gnu $r/usr/lib64 $r/lib64 $r/usr/lib $r/lib"
	[ "$2" = host ] && [ -n "$r" ] &&
		dirs="$dirs /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /lib64 /usr/lib /lib"
	for d in $dirs; do
		if [ -e "$d/$1" ]; then
			case $d in
			"$r"/*) in_root "${d#"$r"}/$1" ;;
			*) readlink -f "$d/$1" ;;
			esac
			return 0
		fi
	done
	return 1
}

# The dynamic loader of the binary under test (every program here has
# the same), then every DT_NEEDED, breadth first, each soname once; a
# library comes from ROOT when ROOT has it.
interp=$(readelf -l "$raidlab" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
[ -n "$interp" ] || { echo "$0: $raidlab has no program interpreter" >&2; exit 1; }
f=$(find_lib "$(basename "$interp")" host) ||
	{ echo "$0: no dynamic loader $interp" >&2; exit 1; }
copy_file "$f" "$interp"
echo "${interp##*/}" >"$stage/.sonames"
i=1
while [ "$i" -le "$(wc -l <"$elfs")" ]; do
	read -r e from <<-EOF
	$(sed -n "${i}p" "$elfs")
	EOF
	i=$((i + 1))
	for so in $(readelf -d "$e" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		grep -qxF "$so" "$stage/.sonames" && continue
		echo "$so" >>"$stage/.sonames"
		lib=$(find_lib "$so" "$from") || {
			echo "$0: $so (needed by $e) is in neither $root nor this host" >&2
			[ "$from" = root ] && echo "$0: add its package to debian-root.sh" >&2
			exit 1
		}
		case $lib in
		"$r"/*) where=root ;;
		*) where=host ;;
		esac
		[ -z "$r" ] && where=$from
		copy_file "$lib" "/usr/lib/x86_64-linux-gnu/$so"
		echo "$lib $where" >>"$elfs"
	done
done
# which library came from where, for whoever debugs the guest
sed "s|^$r/|/|" "$elfs" >"$stage/etc/raidlab-vm-libs"
rm -f "$elfs" "$stage/.sonames"

# Kernel modules in dependency order (builtins print as "builtin NAME"),
# with a depmod index so that /init loads them all with one modprobe -a
# (insmod in this order without kmod). No modprobe.d is copied (Debian's
# md_mod start_ro=1): the guest runs md with the kernel's defaults.
mods="md_mod raid0 raid1 raid10 raid456 virtio_pci virtio_blk
ext4 xfs btrfs 9p 9pnet_virtio"
# shellcheck disable=SC2086
modprobe -d "$root" --show-depends -a -S "$kver" $mods |
	awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$stage/.modules"
: >"$stage/etc/modules.load"
while IFS= read -r f; do
	m=/lib/modules/${f#*/lib/modules/}
	case $m in
	*.ko) copy_file "$f" "$m" ;;
	*.ko.xz) mkdir -p "$stage$(dirname "$m")" && xz -dc "$f" >"$stage${m%.xz}" ;;
	*.ko.zst) mkdir -p "$stage$(dirname "$m")" && zstd -qdc "$f" >"$stage${m%.zst}" ;;
	*.ko.gz) mkdir -p "$stage$(dirname "$m")" && gzip -dc "$f" >"$stage${m%.gz}" ;;
	*) echo "$0: unexpected module file $f" >&2; exit 1 ;;
	esac
	m=${m%.xz}
	m=${m%.zst}
	echo "${m%.gz}" >>"$stage/etc/modules.load"
done <"$stage/.modules"
rm -f "$stage/.modules"
[ -s "$stage/etc/modules.load" ] || { echo "$0: no modules for $kver" >&2; exit 1; }
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$r$moddir/$f" ] && cp "$r$moddir/$f" "$stage$moddir/$f"
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
