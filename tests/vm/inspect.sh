#!/bin/bash
# `raidlab run --hook` in the md test guest (tests/vm/guest.sh, presets
# stage): raidlab runs it as `inspect.sh VARIANT TARGET` once the variant
# is built and mounted, before its workloads, so what was built is seen
# here by the system's own tools while it stands, not reconstructed from
# raidlab's record. It writes into DIR/VARIANT/, DIR being the one line of
# /run/vm-inspect (the guest sets it per lab), for tests/vm/check.sh:
#   mount      the target's line of /proc/mounts
#   mdstat     /proc/mdstat
#   md-links   "LINK NODE" for each active /dev/md/NAME
#   md-NAME    mdadm --detail of each
#   dumpe2fs   dumpe2fs -h of the source (ext2/3/4)
#   xfs_info   xfs_info of the target (xfs)
#   btrfs-df   btrfs filesystem df of the target, btrfs-show its devices
#   readahead  "DEVICE SECTORS" (blockdev --getra) of the source, and of
#              each btrfs device: the kernel's own where the lab sets
#              no readahead (seed 003's mail set none)
# It asserts nothing and always exits 0: a tool that fails leaves its
# error in its file, and check.sh says what is missing.
set -u
shopt -s nullglob

v=$1
t=$2
d=$(cat /run/vm-inspect)/$v
mkdir -p "$d"
awk -v t="$t" '$2 == t' /proc/mounts >"$d/mount"
src=$(awk '{ print $1; exit }' "$d/mount")
fstype=$(awk '{ print $3; exit }' "$d/mount")
cat /proc/mdstat >"$d/mdstat"
: >"$d/md-links"
for l in /dev/md/*; do
	n=$(readlink -f "$l")
	# without udev, links of stopped arrays stay: active ones only
	[ -e "/sys/block/${n##*/}/md/array_state" ] || continue
	grep -Eq "^${n##*/} : active" /proc/mdstat || continue
	echo "$l $n" >>"$d/md-links"
	mdadm --detail "$l" >"$d/md-${l##*/}" 2>&1
done
case $fstype in
ext2 | ext3 | ext4) dumpe2fs -h "$src" >"$d/dumpe2fs" 2>&1 ;;
xfs) xfs_info "$t" >"$d/xfs_info" 2>&1 ;;
btrfs)
	btrfs filesystem df "$t" >"$d/btrfs-df" 2>&1
	btrfs filesystem show "$t" >"$d/btrfs-show" 2>&1
	;;
esac
for b in "$src" $(awk '$NF ~ "^/dev/" { print $NF }' "$d/btrfs-show" 2>/dev/null); do
	echo "$b $(blockdev --getra "$b" 2>&1)"
done | sort -u >"$d/readahead"
exit 0
