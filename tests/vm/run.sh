#!/bin/sh
# Boot the md test guest once under QEMU's software emulation (KVM does not
# boot Debian's kernel on these hosts) and wait for it to power off:
#   run.sh KERNEL INITRD SHARE TIMEOUT DISK...
# The kernel image KERNEL (a vmlinuz), the initramfs from mkinitrd.sh, the directory
# SHARE as a read/write 9p share (the guest runs SHARE/guest.sh and leaves
# SHARE/status and SHARE/guest.log), and each DISK (a raw file) as a virtio
# disk in order: /dev/vda, /dev/vdb, ... The serial console goes to
# SHARE/console.log.
# Exit status: the guest script's; 124 when the guest did not finish within
# TIMEOUT seconds, or its console and log stayed silent for STALL seconds
# (RAIDLAB_VM_STALL, default 600: a hung guest, where a host others keep
# busy only makes it slower; qemu is killed); 125 when it ended without a status
# (boot or share failure). On failure the console and the guest log's tail
# are printed on stderr. qemu never outlives this script.
set -eu

[ $# -ge 4 ] || { echo "usage: $0 KERNEL INITRD SHARE TIMEOUT DISK..." >&2; exit 2; }
kernel=$1
initrd=$2
share=$3
tmo=$4
shift 4

drives=
i=0
for d in "$@"; do
	drives="$drives -drive file=$d,if=virtio,format=raw,cache=unsafe,id=d$i"
	i=$((i + 1))
done

bios=
for f in /usr/share/qboot/bios.bin /usr/share/qemu/qboot.rom; do
	if [ -f "$f" ]; then
		bios="-bios $f"
		break
	fi
done

rm -f "$share/status" "$share/guest.log"
console=$share/console.log
: >"$console"

qpid=
# SIGTERM, then SIGKILL 10 s later: a watchdog must not hang on it.
stop_qemu() {
	if [ -n "$qpid" ]; then
		kill "$qpid" 2>/dev/null || true
		n=0
		while kill -0 "$qpid" 2>/dev/null && [ "$n" -lt 10 ]; do
			sleep 1
			n=$((n + 1))
		done
		kill -KILL "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		qpid=
	fi
}
trap stop_qemu EXIT
trap 'stop_qemu; exit 130' INT TERM HUP

# $drives and $bios are split into words on purpose; qemu's option
# syntax cannot carry blanks or commas in these paths anyway.
for p in "$share" "$@"; do
	case $p in
	*[[:space:],]*) echo "$0: $p: blanks or commas in a path" >&2; exit 2 ;;
	esac
done

# shellcheck disable=SC2086
qemu-system-x86_64 \
	-nodefaults -no-user-config -machine pc -accel tcg,thread=multi \
	-cpu max -smp 2 -m 1024 -display none -monitor none \
	-serial "file:$console" -no-reboot $bios \
	-kernel "$kernel" -initrd "$initrd" \
	-append 'console=ttyS0 panic=-1 quiet cryptomgr.notests' \
	$drives \
	-virtfs "local,path=$share,mount_tag=share,security_model=none,id=share" \
	</dev/null >"$share/qemu.log" 2>&1 &
qpid=$!

# Watch it: the total bound, and the silence of the console and the
# guest's log (the guest says each step it takes).
stall=${RAIDLAB_VM_STALL:-600}
t0=$(date +%s)
heard=$t0
last=
rc=
while kill -0 "$qpid" 2>/dev/null; do
	sleep 1
	t=$(date +%s)
	now=$(stat -c %s "$console" "$share/guest.log" 2>/dev/null | tr '\n' ' ')
	if [ "$now" != "$last" ]; then
		last=$now
		heard=$t
	fi
	if [ $((t - t0)) -ge "$tmo" ] || [ $((t - heard)) -ge "$stall" ]; then
		[ $((t - t0)) -ge "$tmo" ] || tmo_why="silent for $stall s"
		stop_qemu
		rc=124
		break
	fi
done
if [ -z "$rc" ]; then
	rc=0
	wait "$qpid" || rc=$?
fi
qpid=

show() {
	{
		echo "--- qemu"
		cat "$share/qemu.log"
		echo "--- console"
		tail -n 60 "$console"
		if [ -f "$share/guest.log" ]; then
			echo "--- guest log (last 80 lines)"
			tail -n 80 "$share/guest.log"
		fi
		echo "---"
	} >&2
}

if [ "$rc" = 124 ]; then
	echo "$0: the guest did not finish: ${tmo_why:-not done within $tmo s}" >&2
	show
	exit 124
fi
if [ ! -f "$share/status" ]; then
	echo "$0: the guest ended without a status (qemu exit status $rc)" >&2
	show
	exit 125
fi
status=$(cat "$share/status")
if [ "$status" != 0 ]; then
	echo "$0: the guest script failed with exit status $status" >&2
	show
fi
exit "$status"
