#!/bin/bash
# Disk inventory speed: `raidlab disks --json` against `lsblk -J -O` (its
# peer) on the same machine with DEVS extra loop devices over sparse files
# (every fourth with an ext4 signature), N runs each after one warm-up.
# Prints mean and median wall time per run and the ratio raidlab/lsblk.
# Root only; creates its devices with losetup -f and releases exactly
# those on exit. Use an optimised build without sanitizers:
#   RAIDLAB=/path/to/raidlab N=50 DEVS=64 bench/inventory.sh
set -u

RAIDLAB=${RAIDLAB:-raidlab}
N=${N:-50}
DEVS=${DEVS:-64}

[ "$(id -u)" = 0 ] || { echo "inventory.sh: needs root (loop devices)" >&2; exit 77; }
for c in losetup lsblk mkfs.ext4 truncate "$RAIDLAB"; do
	command -v "$c" >/dev/null 2>&1 || { echo "inventory.sh: needs $c" >&2; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-bench.XXXXXX")
loops=
cleanup() {
	for l in $loops; do
		losetup -d "$l"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for i in $(seq "$DEVS"); do
	truncate -s 64M "$tmp/d$i" || exit 1
	[ $((i % 4)) = 0 ] && mkfs.ext4 -q -F "$tmp/d$i"
	l=$(losetup -f --show "$tmp/d$i") || exit 1
	loops="$loops $l"
done

# time_runs CMD...: print N wall times in microseconds, one per line.
time_runs() {
	local i s e
	"$@" >/dev/null || { echo "inventory.sh: $* failed" >&2; exit 1; }
	for i in $(seq "$N"); do
		s=${EPOCHREALTIME/[.,]/}
		"$@" >/dev/null
		e=${EPOCHREALTIME/[.,]/}
		echo $((e - s))
	done
}

# stats FILE: "mean median" in milliseconds.
stats() {
	sort -n "$1" | awk '{ v[NR] = $1; s += $1 }
	    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
	    printf "%.2f %.2f\n", s / NR / 1000, m / 1000 }'
}

# Two pairs that do the same work: listing from sysfs alone (lsblk reads
# no signature without a udev database), and listing plus a low-level
# libblkid probe of every device (blkid without its cache file).
time_runs "$RAIDLAB" disks --json --no-probe >"$tmp/raidlab-list.t"
time_runs lsblk -J -O >"$tmp/lsblk.t"
time_runs "$RAIDLAB" disks --json >"$tmp/raidlab-probe.t"
time_runs blkid -c /dev/null >"$tmp/blkid.t"
ndev=$("$RAIDLAB" disks --json --all --no-probe | grep -c '"name"')

printf '%d block devices (%d loop devices added), %d runs each\n\n' \
    "$ndev" "$DEVS" "$N"
printf '| work            | raidlab                   | ms (mean/median) | peer              | ms (mean/median) | ratio (median) |\n'
printf '|-----------------|---------------------------|------------------|-------------------|------------------|----------------|\n'
row() {
	read -r am amed <<<"$(stats "$tmp/$3")"
	read -r pm pmed <<<"$(stats "$tmp/$5")"
	awk -v w="$1" -v a="$2" -v p="$4" -v am="$am" -v amed="$amed" \
	    -v pm="$pm" -v pmed="$pmed" 'BEGIN {
	    printf "| %-15s | %-25s | %7.2f / %6.2f | %-17s | %7.2f / %6.2f | %14.2f |\n",
	    w, a, am, amed, p, pm, pmed, amed / pmed }'
}
row "list (sysfs)" "disks --json --no-probe" raidlab-list.t "lsblk -J -O" lsblk.t
row "list + probe" "disks --json" raidlab-probe.t "blkid -c /dev/null" blkid.t
