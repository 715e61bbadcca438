#!/bin/bash
# untar against GNU tar: `time sh -c 'tar xf TARBALL; sync'` (the seeds'
# tar test) and raidlab's untar workload on the same tarball and target,
# in the same run, alternating, with the page cache dropped before each
# extraction on both sides (outside the timing; raidlab's lab says
# cache = "drop"). The tarball sits in /dev/shm, so reading it costs the
# same (no disk I/O) on both sides and the figures are about the target.
#
# Both run as root, so both restore owners, modes and times (GNU tar's
# defaults for root; raidlab's writer does as tar does). Figures:
# wall seconds of extract + sync (bash's `time` for tar; the test's wall
# for raidlab), user and sys CPU seconds, and MB/s (10^6 bytes of file
# data) and files/s; ratio = raidlab / peer of the mean seconds (below 1:
# raidlab is faster). Targets: a tmpfs, a directory under /var/tmp (the
# root filesystem) and ext4 on a loop device (losetup -f; it releases
# exactly what it made). Root only. Use an optimised build:
#   RAIDLAB=/tmp/rel/raidlab N=3 bench/untar.sh
# Knobs: N (repeats, 3), TARBALL (default: raidlab's synthetic 2.6.20-like
# tree, FILES=20000 SIZE=240M, generated once by raidlab itself),
# TARGETS ("tmpfs root ext4"; empty: none).
#
# Then a row for a real kernel tree: Debian's linux-source-6.1 tarball
# (KERNEL_XZ, /usr/src/linux-source-6.1.tar.xz; apt-get install
# linux-source-6.1), decompressed into /dev/shm before any timing, on a
# fresh ext4 of KERNEL_FS (6G) on its own loop device for every single
# extraction, ROUNDS (5) rounds alternating which side goes first;
# medians of wall, user and sys, the ratio of the median walls and the
# median of the rounds' ratios. KERNEL=no skips it; KERNEL_TAR=FILE
# takes an already decompressed copy instead of KERNEL_XZ.
set -u

RAIDLAB=${RAIDLAB:-raidlab}
N=${N:-3}
FILES=${FILES:-20000}
SIZE=${SIZE:-240M}
TARBALL=${TARBALL:-}
TARGETS=${TARGETS-tmpfs root ext4}
KERNEL=${KERNEL:-yes}
KERNEL_XZ=${KERNEL_XZ:-/usr/src/linux-source-6.1.tar.xz}
KERNEL_TAR=${KERNEL_TAR:-}
KERNEL_FS=${KERNEL_FS:-6G}
ROUNDS=${ROUNDS:-5}

me=untar.sh
. "$(dirname "$0")/lib.sh"
bench_need_root "drop_caches, mount, loop"
bench_need "$RAIDLAB" tar jq losetup mkfs.ext4 awk
if [ "$KERNEL" = yes ] && [ -z "$KERNEL_TAR" ] && [ ! -f "$KERNEL_XZ" ]; then
	echo "$me: $KERNEL_XZ is not installed: apt-get install" \
	    "linux-source-6.1 (or KERNEL_XZ=...; KERNEL=no skips that row)" >&2
	KERNEL=no
fi
[ "$KERNEL" = yes ] && [ -z "$KERNEL_TAR" ] && bench_need xz
bench_dirs untarbench

# lab FILE TARBALL: a lab with one untar workload "untar".
lab() {
	local tb=
	[ -n "$2" ] && tb="tarball = \"$2\";"
	cat >"$1" <<EOF
name = "untarbench";
repeats = 1;
cache = "drop";
variants = ( { name = "here"; directory = "$tmp/unused"; } );
workloads = ( { name = "untar"; type = "untar"; $tb
    synthetic_files = $FILES; synthetic_size = "$SIZE"; sync = true; } );
EOF
}

mkdir -p "$tmp/res" "$tmp/gen"

# synthetic_tarball: $shm/tree.tar, the user's, or raidlab's synthetic
# one from its cache (made by a first, untimed run with the cache pointed
# into $tmp).
synthetic_tarball() {
	if [ -n "$TARBALL" ]; then
		cp "$TARBALL" "$shm/tree.tar" || exit 1
		return
	fi
	lab "$tmp/gen.cfg" ""
	XDG_CACHE_HOME=$tmp/cache "$RAIDLAB" run "$tmp/gen.cfg" \
	    --workload untar --target "$tmp/gen" --results "$tmp/res" \
	    >/dev/null 2>"$tmp/gen.err" ||
		{ echo "$me: raidlab run failed:" >&2; cat "$tmp/gen.err" >&2; exit 1; }
	set -- "$tmp"/cache/raidlab/untar-tree-*.tar
	[ -f "$1" ] || { echo "$me: no synthetic tarball made" >&2; exit 1; }
	cp "$1" "$shm/tree.tar" || exit 1
	rm -rf "$tmp/cache" "$tmp/gen"
}

# peer DIR: drop; time (tar xf; sync); prints "wall user sys".
peer() {
	local t
	mkdir -p "$1"
	drop
	# drop_caches evicted tar, sh and sync; raidlab's code stays
	# mapped. Load them again, untimed, so both start warm.
	tar --version >/dev/null; sh -c : ; sync --version >/dev/null
	TIMEFORMAT='%R %U %S'
	t=$( { time sh -c 'tar xf "$0" -C "$1"; sync' "$shm/tree.tar" "$1" \
	    >/dev/null 2>&1; } 2>&1 )
	rm -rf "$1"
	sync
	echo "$t"
}

# ours DIR: raidlab run (it drops, then times extract + sync); prints
# "wall user sys" of its test.
ours() {
	mkdir -p "$1"
	"$RAIDLAB" run "$tmp/run.cfg" --workload untar --target "$1" \
	    --results "$tmp/res" --json >"$tmp/run.json" 2>"$tmp/run.err" ||
		{ echo "$me: raidlab run failed:" >&2; cat "$tmp/run.err" >&2; exit 1; }
	jq -r '[.. | objects | select(.key? == "untar")] | first
	    | "\(.wall) \(.user) \(.sys)"' "$tmp/run.json"
	rm -rf "$1"
	sync
}

# mean FILE COLUMN
mean() {
	awk -v c="$2" '{ s += $c; n++ } END { if (n) printf "%.3f", s / n; else printf "-" }' "$1"
}

report() {
	local target=$1 dir=$2 i pw ow
	: >"$tmp/peer" && : >"$tmp/ours"
	for i in $(seq "$N"); do
		peer "$dir/peer$i" >>"$tmp/peer"
		ours "$dir/ours$i" >>"$tmp/ours"
	done
	pw=$(mean "$tmp/peer" 1)
	ow=$(mean "$tmp/ours" 1)
	for side in peer ours; do
		local w u s tool=GNU-tar ratio=
		w=$(mean "$tmp/$side" 1); u=$(mean "$tmp/$side" 2)
		s=$(mean "$tmp/$side" 3)
		if [ "$side" = ours ]; then
			tool=raidlab
			ratio=$(awk -v a="$ow" -v b="$pw" 'BEGIN { printf "%.3f", a / b }')
		fi
		awk -v t="$target" -v tool="$tool" -v w="$w" -v u="$u" -v s="$s" \
		    -v b="$bytes" -v e="$entries" -v r="$ratio" 'BEGIN {
			printf "%-7s %-8s %9.3f %8.3f %8.3f %9.1f %9.0f %7s\n",
			    t, tool, w, u, s, b / 1e6 / w, e / w, r }'
	done
}

if [ -n "$TARGETS" ]; then
	synthetic_tarball
	lab "$tmp/run.cfg" "$shm/tree.tar"
	entries=$(tar tf "$shm/tree.tar" | wc -l)
	bytes=$(tar tvf "$shm/tree.tar" | awk '$1 ~ /^-/ { s += $3 } END { print s + 0 }')
	printf '%s: %s entries, %s bytes of file data; %s repeats\n' \
	    "$(basename "$shm/tree.tar")" "$entries" "$bytes" "$N"
	printf '%-7s %-8s %9s %8s %8s %9s %9s %7s\n' target tool "wall s" "user s" \
	    "sys s" "MB/s" "files/s" ratio
fi
for target in $TARGETS; do
	case $target in
	tmpfs)
		mnt=$tmp/tmpfs
		mkdir -p "$mnt"
		mount -t tmpfs -o size=2G tmpfs "$mnt" || exit 1
		report tmpfs "$mnt"
		release
		;;
	root)
		mkdir -p "$tmp/root"
		report root "$tmp/root"
		;;
	ext4)
		truncate -s 4G "$tmp/ext4.img"
		loop=$(losetup -f --show "$tmp/ext4.img") || exit 1
		mkfs.ext4 -q -F "$loop" || exit 1
		mnt=$tmp/ext4
		mkdir -p "$mnt"
		mount "$loop" "$mnt" || exit 1
		report ext4 "$mnt"
		release
		rm -f "$tmp/ext4.img"
		;;
	*)
		echo "$me: unknown target $target" >&2
		;;
	esac
done

# ---- the real kernel tree, a fresh ext4 per extraction

# fresh_ext4: $mnt is a new ext4 on a new loop device (losetup -f).
fresh_ext4() {
	rm -f "$tmp/k.img"
	truncate -s "$KERNEL_FS" "$tmp/k.img" || exit 1
	loop=$(losetup -f --show "$tmp/k.img") || exit 1
	mkfs.ext4 -q -F "$loop" || exit 1
	mnt=$tmp/kmnt
	mkdir -p "$mnt"
	mount "$loop" "$mnt" || exit 1
}

# kside SIDE: one extraction of the kernel tree by SIDE on a fresh ext4;
# appends "wall user sys" to $tmp/k.SIDE.
kside() {
	fresh_ext4
	if [ "$1" = peer ]; then
		peer "$mnt/x" >>"$tmp/k.peer"
	else
		ours "$mnt/x" >>"$tmp/k.ours"
	fi
	release
	rm -f "$tmp/k.img"
}

# median FILE COLUMN
median() {
	sort -g -k "$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
	    END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2];
		  else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

kernel_rows() {
	local i w u s side tool ratio rr pw ow kent kbytes
	# In the synthetic tree's place: peer and ours extract tree.tar.
	if [ -n "$KERNEL_TAR" ]; then
		cp "$KERNEL_TAR" "$shm/tree.tar" || exit 1
	else
		echo "decompressing $KERNEL_XZ into $shm (untimed)"
		xz -dc "$KERNEL_XZ" >"$shm/tree.tar" || exit 1
	fi
	lab "$tmp/run.cfg" "$shm/tree.tar"
	kent=$(tar tf "$shm/tree.tar" | wc -l)
	kbytes=$(tar tvf "$shm/tree.tar" |
	    awk '$1 ~ /^-/ { s += $3 } END { print s + 0 }')
	: >"$tmp/k.peer" && : >"$tmp/k.ours"
	for i in $(seq "$ROUNDS"); do
		# Odd rounds GNU tar first, even ones raidlab: drift in the
		# machine's load falls on both sides alike.
		if [ $((i % 2)) = 1 ]; then
			kside peer; kside ours
		else
			kside ours; kside peer
		fi
		printf 'round %d: GNU tar %s s, raidlab %s s\n' "$i" \
		    "$(tail -n 1 "$tmp/k.peer" | cut -d' ' -f1)" \
		    "$(tail -n 1 "$tmp/k.ours" | cut -d' ' -f1)"
	done
	pw=$(median "$tmp/k.peer" 1)
	ow=$(median "$tmp/k.ours" 1)
	rr=$(paste -d' ' "$tmp/k.ours" "$tmp/k.peer" |
	    awk '{ print $1 / $4 }' >"$tmp/k.ratio"; median "$tmp/k.ratio" 1)
	printf '\n%s: %s entries, %s bytes of file data; fresh %s ext4 per' \
	    "$(basename "${KERNEL_TAR:-${KERNEL_XZ%.xz}}")" "$kent" "$kbytes" \
	    "$KERNEL_FS"
	printf ' extraction, %s rounds, medians\n' "$ROUNDS"
	printf '%-7s %-8s %9s %8s %8s %9s %9s %7s\n' target tool "wall s" \
	    "user s" "sys s" "MB/s" "files/s" ratio
	for side in peer ours; do
		tool=GNU-tar ratio=
		w=$(median "$tmp/k.$side" 1); u=$(median "$tmp/k.$side" 2)
		s=$(median "$tmp/k.$side" 3)
		if [ "$side" = ours ]; then
			tool=raidlab
			ratio=$(awk -v a="$ow" -v b="$pw" \
			    'BEGIN { printf "%.3f", a / b }')
		fi
		awk -v t=kernel -v tool="$tool" -v w="$w" -v u="$u" -v s="$s" \
		    -v b="$kbytes" -v e="$kent" -v r="$ratio" 'BEGIN {
			printf "%-7s %-8s %9.3f %8.3f %8.3f %9.1f %9.0f %7s\n",
			    t, tool, w, u, s, b / 1e6 / w, e / w, r }'
	done
	echo "median of the rounds' ratios: $rr"
}

[ "$KERNEL" = yes ] && kernel_rows
exit 0
