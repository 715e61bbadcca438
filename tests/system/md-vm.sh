#!/bin/sh
# Real md, in a VM: this host's kernel has no md, so boot Debian's kernel
# under QEMU's software emulation with an initramfs built from this host's
# packages (tests/vm/mkinitrd.sh) and small virtio disks, and run the
# binary under test there against real md, every scenario in one boot
# (tests/vm/guest.sh, tests/vm/labs/md.cfg): RAID 0, 1 (waiting for its
# resync), 1 with its bitmap in a file, 5 with an internal bitmap, 5 with
# a write journal, 6, 10 n2/f2/o2 with 64K and 256K chunks, RAID0+1, xfs
# with its log on an md RAID1, ext4 with explicit and automatic
# stride/stripe width, btrfs on RAID5; then a guard refusal, and a RAID0+1
# with its ext4 journal on an md RAID1 whose run is SIGKILLed, then undone
# by raidlab cleanup; then every shipped preset (data/labs/*.cfg),
# scaled down with --scale and put on the guest's disks with --disk, each
# variant looked at while it is built (tests/vm/inspect.sh, raidlab's
# --hook) and held to its plan. The host then checks the record and what the guest
# saw after everything (tests/vm/check.sh): md's own sysfs values,
# /proc/mdstat, dumpe2fs and xfs_info, every run ok, and nothing left: no
# array, mount, loop device, signature or journal. Each case (and each
# preset) starts from clean disks: what one left is its own failure.
#
# Skips (77) without root, qemu-system-x86_64, a kernel with modules in
# /boot and /lib/modules, busybox-static, cpio, mdadm or the mkfs tools,
# and when RAIDLAB_VM_TESTS=0. RAIDLAB_VM_STAGES picks the guest's stages
# (default "selfcheck raidlab presets"; "selfcheck" alone tests the
# harness). RAIDLAB_VM_SCALE is the presets' --scale (default 0.01).
# RAIDLAB_VM_TIMEOUT bounds the boot (seconds, default 1200);
# RAIDLAB_VM_KEEP=DIR keeps a copy of what the guest left, for debugging.
. "${top_srcdir:-.}/tests/system/lib.sh"

vm_skip() {
	printf 'md-vm: skipped: %s\n' "$*" >&2
	exit 77
}

[ "${RAIDLAB_VM_TESTS:-1}" != 0 ] || vm_skip "RAIDLAB_VM_TESTS=0"
[ "$(id -u)" = 0 ] || vm_skip "needs root"
PATH=$PATH:/usr/sbin:/sbin
command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	vm_skip "no qemu-system-x86_64 (Debian: qemu-system-x86)"
for c in busybox cpio mdadm modprobe depmod mkfs.ext4 mkfs.xfs wipefs jq timeout; do
	command -v "$c" >/dev/null 2>&1 || vm_skip "no $c"
done

# The newest kernel image with its modules.
kver=
for k in $(ls /boot/vmlinuz-* 2>/dev/null | sort -V); do
	v=${k#/boot/vmlinuz-}
	[ -f "/lib/modules/$v/modules.dep" ] && [ -r "$k" ] && kver=$v
done
[ -n "$kver" ] || vm_skip "no kernel image with modules (/boot/vmlinuz-*; Debian: linux-image-amd64)"
ldd "$(command -v busybox)" >/dev/null 2>&1 && vm_skip "busybox is not static (Debian: busybox-static)"

vm=${top_srcdir:-.}/tests/vm
RAIDLAB=$(command -v "$RAIDLAB") || vm_skip "no raidlab binary ($RAIDLAB)"
. "$vm/check.sh"
. "$vm/check-wamp.sh"
t0=$(date +%s)

# The initramfs, cached next to the binary under test and keyed by its
# inputs: the kernel, the binary, and the scripts that build it.
cache=${RAIDLAB_VM_CACHE:-$(dirname "$RAIDLAB")/tests/vm}
mkdir -p "$cache" || fail "mkdir $cache"
key=$(printf '%s\n' "$kver" "$(stat -c '%Y %s' "$RAIDLAB" /boot/vmlinuz-"$kver")" \
	"$(cat "$vm/mkinitrd.sh" "$vm/init" | cksum)" | cksum | cut -d' ' -f1)
initrd=$cache/initrd-$key.cpio
if [ ! -f "$initrd" ]; then
	rm -f "$cache"/initrd-*.cpio
	sh "$vm/mkinitrd.sh" "$initrd" "$kver" "$RAIDLAB" ||
		fail "mkinitrd.sh could not build the initramfs"
fi
t1=$(date +%s)

# The share: the guest script, the labs and the environment in, the
# results out. The disks: sparse files (see tests/vm/labs/md.cfg).
share=$TEST_TMP/share
mkdir -p "$share/labs" "$TEST_TMP/disks"
cp "$vm/guest.sh" "$vm/inspect.sh" "$share/"
mkdir -p "$share/presets"
cp "${top_srcdir:-.}"/data/labs/*.cfg "$share/presets/"
cp "$vm/labs/md.cfg" "$vm/labs/busy.cfg" "$vm/labs/killed.cfg" \
    "$vm/labs/reused.cfg" "$vm/labs/phases.cfg" \
    "$vm/labs/rebuild-killed.cfg" "$share/labs/"
disks=
n=0
# vda: a busy "system" disk (the presets' /var/tmp too); vdb-vde: the
# arrays (the self-check's on vdb and vdc first); vdf,vdg: xfs data.
# 128M: mkfs.btrfs wants 125M per device (the seed-003 preset's raid10);
# resyncs grow with vdb-vde. Each virtio disk costs ~0.4 s of boot.
for size in 64M 128M 128M 128M 128M 384M 384M; do
	f=$TEST_TMP/disks/vd$n.img
	truncate -s "$size" "$f" || fail "truncate $f"
	disks="$disks $f"
	n=$((n + 1))
done
stages=${RAIDLAB_VM_STAGES:-selfcheck raidlab presets}
cat >"$share/env" <<EOF
RAIDLAB_VM_STAGES='$stages'
VM_SCALE='${RAIDLAB_VM_SCALE:-0.01}'
VM_DISKS=$n
ASAN_OPTIONS='${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}'
UBSAN_OPTIONS='${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}'
EOF

# In the background, so that a signal here stops qemu at once (run.sh
# kills it on its way out) instead of waiting for the boot to end.
# shellcheck disable=SC2086
sh "$vm/run.sh" "$kver" "$initrd" "$share" "${RAIDLAB_VM_TIMEOUT:-1200}" $disks &
vm_pid=$!
trap 'kill "$vm_pid" 2>/dev/null; wait "$vm_pid"; exit 130' INT TERM
rc=0
wait "$vm_pid" || rc=$?
trap 'exit 130' INT TERM
t2=$(date +%s)
out=$share/out
# kept before any verdict: a guest that timed out is the one to look at
if [ -n "${RAIDLAB_VM_KEEP:-}" ]; then
	mkdir -p "$RAIDLAB_VM_KEEP" && cp -r "$out" "$share/guest.log" \
		"$share/console.log" "$RAIDLAB_VM_KEEP/" 2>/dev/null
fi
[ "$rc" = 124 ] && fail "the guest did not finish in time (see above)"
[ "$rc" = 125 ] && fail "the guest did not run its script (see above)"
[ "$rc" = 0 ] || fail "the guest script failed with exit status $rc"

for s in $stages; do
	case $s in
	selfcheck) vm_check_selfcheck "$out" ;;
	raidlab)
		vm_check_raidlab "$out"
		vm_check_phases "$out"
		;;
	presets) vm_check_presets "$out" "${top_srcdir:-.}/data/labs" ;;
	esac
done
vm_check_after "$out"

printf 'md-vm: kernel %s; initramfs %s s, boot and guest %s s (guest script %s s)\n' \
	"$kver" $((t1 - t0)) $((t2 - t1)) \
	"$(awk '{ printf "%.0f", $2 - $1 }' "$out/time" 2>/dev/null)"
if [ "$vm_failures" != 0 ]; then
	echo "--- guest log" >&2
	cat "$share/guest.log" >&2
	echo "--- the guest kernel's md messages (last 40)" >&2
	grep -E 'md[0-9]*: |md/raid|still in use|EXT4-fs|XFS|BTRFS' \
		"$out"/after/dmesg 2>/dev/null | tail -n 40 >&2
	fail "$vm_failures checks failed in the md VM"
fi
echo "md-vm: ok ($stages)"
