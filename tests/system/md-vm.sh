#!/bin/sh
# Real md, in a VM, on two md generations: this host's kernel has no md,
# so boot a Debian kernel under QEMU's software emulation with an
# initramfs (tests/vm/mkinitrd.sh) and small virtio disks, and run the
# binary under test there against real md, every scenario in one boot per
# generation:
#   bookworm  this host's Debian 12: kernel 6.1, mdadm 4.2, its tools
#   trixie    Debian 13 from Debian's archive (tests/vm/debian-root.sh:
#             apt-get download into a cache shared by this machine's
#             checkouts): kernel 6.12, mdadm 4.4, its e2fsprogs, xfsprogs,
#             btrfs-progs, util-linux, kmod, busybox, bash and libc; the
#             binary under test (built here) runs on trixie's libc
# The guest (tests/vm/guest.sh, tests/vm/labs/): RAID 0, 1 (waiting for
# its resync), 5 with an internal bitmap, 5 with a write journal, 6, 10
# n2/f2/o2 with 64K and 256K chunks, RAID0+1, xfs with its log on an md
# RAID1, ext4 with explicit and automatic stride/stripe width, btrfs on
# RAID5 (labs/md.cfg, run with stdin an open pipe that never speaks:
# mdadm 4.4 asks about a bitmap, and raidlab must never leave it
# waiting); a RAID1 with its bitmap in a file (labs/bitmap-file.cfg:
# built on bookworm, refused on trixie, whose mdadm removed file
# bitmaps); a guard refusal; a RAID0+1 with its ext4 journal on an md
# RAID1 whose run is SIGKILLed, then undone by raidlab cleanup; md's
# knobs (PPL, the stripe cache's, a write-back journal, write-mostly and
# write-behind) as md shows them; the degraded, rebuild and check phases
# (labs/phases.cfg) and a run SIGKILLed mid-rebuild, then cleaned up
# (labs/rebuild-killed.cfg); md's write amplification (check-wamp.sh);
# then
# every shipped preset (data/labs/*.cfg), scaled down with --scale and
# put on the guest's disks with --disk, each variant looked at while it
# is built (tests/vm/inspect.sh, raidlab's --hook) and held to its plan.
# The self-check also shows mdadm's bitmap prompt: on 4.4 a plain
# mdadm --create waits on stdin. The host then checks the record and
# what each guest saw after everything (tests/vm/check.sh, told the
# generation): the kernel and mdadm the guest ran, md's own sysfs values,
# /proc/mdstat, dumpe2fs and xfs_info, every run ok, and nothing left: no
# array, mount, loop device, signature or journal. Each case (and each
# preset) starts from clean disks: what one left is its own failure.
# The two guests boot at once (see RAIDLAB_VM_PARALLEL).
#
# Skips (77) without root, qemu-system-x86_64, a kernel with modules in
# /boot and /lib/modules, busybox-static, cpio, xz, mdadm or the mkfs tools,
# and when RAIDLAB_VM_TESTS=0. The trixie half alone is skipped, saying
# why, when Debian's archive cannot be reached and nothing is cached,
# unless RAIDLAB_VM_TRIXIE=required (CI), which fails instead.
# RAIDLAB_VM_GENS picks the generations (default "bookworm trixie").
# RAIDLAB_VM_STAGES picks the guest's stages (default "selfcheck raidlab
# presets"; "selfcheck" alone tests the harness). RAIDLAB_VM_SCALE is the
# presets' --scale (default 0.01). RAIDLAB_VM_TIMEOUT bounds each boot
# (seconds, default 2400), RAIDLAB_VM_STALL its silence (default 600:
# tests/vm/run.sh); a host made slow by others passes, later, and a hung
# guest fails. RAIDLAB_VM_PARALLEL=0 boots them in turn.
# RAIDLAB_VM_KEEP=DIR keeps a copy of what each guest left (DIR/GEN), for
# debugging. RAIDLAB_VM_DEBS is the download cache (default
# /var/cache/raidlab-vm; make clean leaves it).
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
for c in busybox cpio mdadm modprobe depmod readelf xz mkfs.ext4 mkfs.xfs \
	wipefs jq timeout; do
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
gens=${RAIDLAB_VM_GENS:-bookworm trixie}
stages=${RAIDLAB_VM_STAGES:-selfcheck raidlab presets}
# the initramfs cache, next to the binary under test
cache=${RAIDLAB_VM_CACHE:-$(dirname "$RAIDLAB")/tests/vm}
mkdir -p "$cache" || fail "mkdir $cache"

# prepare GEN: the generation's kernel and initramfs, cached next to the
# binary under test and keyed by its inputs: the root (the host's kernel,
# or the .debs behind debian-root.sh's root), the binary, and the
# scripts that build it. Sets g_kernel, g_kver, g_initrd; returns 1 when
# the generation is skipped (the reason in $TEST_TMP/GEN/skipped).
prepare() {
	case $1 in
	bookworm)
		g_root=/
		g_kver=$kver
		g_kernel=/boot/vmlinuz-$kver
		g_id="$kver $(stat -c '%Y %s' "$g_kernel")"
		;;
	trixie)
		rc=0
		g_root=$(sh "$vm/debian-root.sh" trixie \
			"${RAIDLAB_VM_DEBS:-/var/cache/raidlab-vm}") || rc=$?
		if [ "$rc" = 77 ]; then
			[ "${RAIDLAB_VM_TRIXIE:-}" = required ] &&
				fail "trixie: Debian's archive is unreachable and RAIDLAB_VM_TRIXIE=required"
			echo "trixie (Debian's archive is unreachable, nothing cached)" \
				>"$TEST_TMP/$1/skipped"
			return 1
		fi
		[ "$rc" = 0 ] || fail "trixie: debian-root.sh could not build the root"
		g_kernel=$(ls "$g_root"/boot/vmlinuz-* | sort -V | tail -n 1)
		g_kver=${g_kernel##*/vmlinuz-}
		g_id=$(cat "$g_root/.manifest")
		;;
	*) fail "unknown md generation $1 (RAIDLAB_VM_GENS: bookworm, trixie)" ;;
	esac
	key=$(printf '%s\n' "$1" "$g_id" "$(stat -c '%Y %s' "$RAIDLAB")" \
		"$(cat "$vm/mkinitrd.sh" "$vm/init" | cksum)" | cksum | cut -d' ' -f1)
	g_initrd=$cache/initrd-$1-$key.cpio
	if [ ! -f "$g_initrd" ]; then
		rm -f "$cache/initrd-$1-"*.cpio "$cache"/initrd-[0-9]*.cpio
		sh "$vm/mkinitrd.sh" -r "$g_root" "$g_initrd" "$g_kver" "$RAIDLAB" ||
			fail "$1: mkinitrd.sh could not build the initramfs"
	fi
}

# share GEN: the generation's share (the guest script, the labs and the
# environment in, the results out) and disks (sparse files, see
# tests/vm/labs/md.cfg), in $TEST_TMP/GEN; sets g_disks.
share() {
	s=$TEST_TMP/$1/share
	mkdir -p "$s/labs" "$s/presets" "$TEST_TMP/$1/disks"
	cp "$vm/guest.sh" "$vm/inspect.sh" "$s/"
	cp "${top_srcdir:-.}"/data/labs/*.cfg "$s/presets/"
	cp "$vm"/labs/*.cfg "$s/labs/"
	g_disks=
	n=0
	# vda: a busy "system" disk (the presets' /var/tmp too); vdb-vde: the
	# arrays (the self-check's on vdb and vdc first); vdf,vdg: xfs data.
	# 128M: mkfs.btrfs wants 125M per device (the seed-003 preset's
	# raid10); resyncs grow with vdb-vde. Each virtio disk costs ~0.4 s
	# of boot.
	for size in 64M 128M 128M 128M 128M 384M 384M; do
		f=$TEST_TMP/$1/disks/vd$n.img
		truncate -s "$size" "$f" || fail "truncate $f"
		g_disks="$g_disks $f"
		n=$((n + 1))
	done
	cat >"$s/env" <<EOF
VM_GEN='$1'
RAIDLAB_VM_STAGES='$stages'
VM_SCALE='${RAIDLAB_VM_SCALE:-0.01}'
VM_DISKS=$n
ASAN_OPTIONS='${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}'
UBSAN_OPTIONS='${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}'
EOF
}

# boot GEN: prepare it, then run its guest and wait for it; the exit
# status in $TEST_TMP/GEN/rc, "KVER PREPARE_S GUEST_S" in
# $TEST_TMP/GEN/times. run.sh runs in the background, so that a signal
# here stops qemu at once (run.sh kills it on its way out).
boot() {
	t0=$(date +%s)
	mkdir -p "$TEST_TMP/$1"
	prepare "$1" || return 0
	share "$1"
	t1=$(date +%s)
	# shellcheck disable=SC2086
	sh "$vm/run.sh" "$g_kernel" "$g_initrd" "$TEST_TMP/$1/share" \
		"${RAIDLAB_VM_TIMEOUT:-2400}" $g_disks &
	pid=$!
	echo "$pid" >"$TEST_TMP/$1/pid"
	rc=0
	wait "$pid" || rc=$?
	echo "$rc" >"$TEST_TMP/$1/rc"
	echo "$g_kver $((t1 - t0)) $(($(date +%s) - t1))" >"$TEST_TMP/$1/times"
}

# At once by default: on two cores, two TCG guests of two vCPUs each
# took 9 min together where they took 15 in turn (6.5 and 8 min each,
# with other builds on the machine both times): a guest spends much of
# its time waiting (resyncs, sync, its own sleeps), not emulating.
stop_all() {
	for g in $gens; do
		[ -f "$TEST_TMP/$g/pid" ] && kill "$(cat "$TEST_TMP/$g/pid")" 2>/dev/null
	done
	wait
	exit 130
}
trap stop_all INT TERM
if [ "${RAIDLAB_VM_PARALLEL:-1}" = 1 ]; then
	for gen in $gens; do
		boot "$gen" &
	done
	wait
else
	for gen in $gens; do
		boot "$gen"
	done
fi
trap 'exit 130' INT TERM

ran=
skipped=
for gen in $gens; do
	if [ -f "$TEST_TMP/$gen/skipped" ]; then
		skipped="$skipped $(cat "$TEST_TMP/$gen/skipped")"
		continue
	fi
	# in parallel, a prepare that failed ended only its own subshell
	[ -f "$TEST_TMP/$gen/rc" ] || { vm_fail "$gen: not booted"; continue; }
	ran="$ran $gen"
	# shellcheck disable=SC2034 # check.sh's
	VM_GEN=$gen
	share=$TEST_TMP/$gen/share
	out=$share/out
	rc=$(cat "$TEST_TMP/$gen/rc")
	# kept before any verdict: a guest that timed out is the one to look at
	if [ -n "${RAIDLAB_VM_KEEP:-}" ]; then
		mkdir -p "$RAIDLAB_VM_KEEP/$gen" && cp -r "$out" "$share/guest.log" \
			"$share/console.log" "$RAIDLAB_VM_KEEP/$gen/" 2>/dev/null
	fi
	before=$vm_failures
	case $rc in
	0) ;;
	124) vm_fail "the guest did not finish in time (see above)" ;;
	125) vm_fail "the guest did not run its script (see above)" ;;
	*) vm_fail "the guest script failed with exit status $rc" ;;
	esac
	vm_check_env "$out"
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
	read -r k ti tg <"$TEST_TMP/$gen/times"
	printf 'md-vm: %s: kernel %s, %s; initramfs %s s, boot and guest %s s (guest script %s s)\n' \
		"$gen" "$k" "$(sed -n 2p "$out/env" 2>/dev/null)" "$ti" "$tg" \
		"$(awk '{ printf "%.0f", $2 - $1 }' "$out/time" 2>/dev/null)"
	if [ "$vm_failures" != "$before" ]; then
		echo "--- $gen: guest log" >&2
		cat "$share/guest.log" >&2
		echo "--- $gen: the guest kernel's md messages (last 40)" >&2
		grep -E 'md[0-9]*: |md/raid|still in use|EXT4-fs|XFS|BTRFS' \
			"$out"/after/dmesg 2>/dev/null | tail -n 40 >&2
	fi
done
[ -n "$skipped" ] && echo "md-vm: skipped:$skipped"
[ "$vm_failures" = 0 ] || fail "$vm_failures checks failed in the md VM"
[ -n "$ran" ] || vm_skip "${skipped# }"
echo "md-vm: ok ($stages on$ran)"
