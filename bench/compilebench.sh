#!/bin/bash
# compilebench against the tools that do the same work, phase by phase.
# compilebench itself is not packaged in Debian, so only the two phases
# that have a direct peer are compared, on the same target in the same
# run, with the page cache dropped before every operation on both sides:
#
#   initial create  raidlab: N trees from the synthetic kernel tree, each
#                   one drop + create + sync, timed;
#                   peer: GNU tar extracting a tarball of the same tree
#                   (from /dev/shm, so reading it costs no disk I/O) N
#                   times: drop; mkdir; tar xf; sync, timed.
#   read tree       raidlab: the "read tree" operations among RUNS random
#                   ones (seed SEED), every file read with 256 KiB reads;
#                   peer: find TREE -type f | xargs cat >/dev/null over
#                   each tree tar extracted (fresh, unpatched trees).
#
# Figures are MB/s (10^6 bytes) of the tree's bytes, averaged per phase
# as compilebench averages; ratio = raidlab / peer. Targets: a tmpfs, a
# directory under /var/tmp (the root filesystem) and ext4 on a loop
# device. Root only (drop_caches, mount, losetup -f; it releases exactly
# what it made). Use an optimised build without sanitizers:
#   RAIDLAB=/tmp/rel/raidlab N=3 RUNS=30 bench/compilebench.sh
# Knobs: N (trees, 3), RUNS (random operations, 30), SEED (555), FILES
# and SIZE (one tree: 20000 files, 240M), TARGETS ("tmpfs root ext4"),
# REPEATS (pairs of raidlab and peer per target, in alternate order, 1).
set -u

RAIDLAB=${RAIDLAB:-raidlab}
N=${N:-3}
RUNS=${RUNS:-30}
SEED=${SEED:-555}
FILES=${FILES:-20000}
SIZE=${SIZE:-240M}
TARGETS=${TARGETS:-tmpfs root ext4}
REPEATS=${REPEATS:-1}

me=compilebench.sh
. "$(dirname "$0")/lib.sh"
bench_need_root "drop_caches, mount, loop"
bench_need "$RAIDLAB" tar jq losetup mkfs.ext4 find xargs cat
bench_dirs cbbench

now_us() { echo "${EPOCHREALTIME/[.,]/}"; }

# lab FILE CACHE INITIAL RUNS: a lab with one compilebench workload "cb".
lab() {
	cat >"$1" <<EOF
name = "cbbench";
repeats = 1;
cache = "$2";
variants = ( { name = "here"; directory = "$tmp/unused"; } );
workloads = ( { name = "cb"; type = "compilebench"; initial = $3;
    runs = $4; seed = $SEED; files = $FILES; size = "$SIZE"; } );
EOF
}

# The tree's tarball, from a tree raidlab writes and keeps (untimed).
lab "$tmp/make.cfg" keep 1 0
mkdir -p "$shm/gen" "$tmp/res"
"$RAIDLAB" run "$tmp/make.cfg" --workload cb --target "$shm/gen" --keep \
    --results "$tmp/res" --json >"$tmp/make.json" 2>"$tmp/make.err" ||
	{ echo "$me: raidlab run failed" >&2; exit 1; }
tree0=$(echo "$shm"/gen/raidlab-cb.*/tree0)
[ -d "$tree0" ] || { echo "$me: no tree kept under $shm/gen" >&2; exit 1; }
bytes=$(jq '[.. | objects | select(.key? == "initial_create")
    | .bytes_written] | first' "$tmp/make.json")
tar cf "$shm/tree.tar" -C "$tree0" . || exit 1
rm -rf "$shm/gen"

# mean FILE: the mean of the numbers in FILE, or "-" when empty.
mean() {
	awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n; else printf "-" }' "$1"
}

# timed CMD...: microseconds of drop + CMD, as raidlab times an operation
# (the drop inside the timing). The tools are loaded again between the
# two, untimed: drop_caches evicts their binaries, raidlab's stay mapped.
timed() {
	local s0 s1 s2 e
	s0=$(now_us)
	drop
	s1=$(now_us)
	tar --version >/dev/null; find --version >/dev/null
	xargs --version >/dev/null; cat --version >/dev/null
	sync --version >/dev/null
	s2=$(now_us)
	"$@"
	e=$(now_us)
	echo $(( s1 - s0 + e - s2 ))
}

untar() {
	mkdir "$1" && tar --no-same-owner --no-same-permissions -m \
	    -xf "$shm/tree.tar" -C "$1" && sync
}

readall() {
	find "$1" -type f -print0 | xargs -0 cat >/dev/null
}

# peer DIR: N tar extractions, then a cat of each tree; MB/s per line.
peer() {
	local d=$1/peer i us
	mkdir -p "$d"
	for i in $(seq "$N"); do
		us=$(timed untar "$d/t$i")
		awk -v b="$bytes" -v us="$us" 'BEGIN { printf "%.4f\n", b / us }' \
		    >>"$tmp/peer-create"
	done
	for i in $(seq "$N"); do
		us=$(timed readall "$d/t$i")
		awk -v b="$bytes" -v us="$us" 'BEGIN { printf "%.4f\n", b / us }' \
		    >>"$tmp/peer-read"
	done
	rm -rf "$d"
	sync
}

# values KEY: the figures of the tests with KEY in the last raidlab run.
values() {
	jq -r --arg k "$1" '.. | objects | select(.key? == $k) | .value' \
	    "$tmp/run.json"
}

row() {
	awk -v t="$1" -v p="$2" -v a="$3" -v na="$4" -v b="$5" -v nb="$6" \
	    'BEGIN { r = (a != "-" && b != "-" && b > 0) ? sprintf("%.2f", a / b) : "-";
	    printf "| %-6s | %-14s | %11s (%3d) | %11s (%3d) | %5s |\n", t, p, a, na, b, nb, r }'
}

# raidlab DIR: one raidlab run on DIR; its figures appended.
raidlab() {
	"$RAIDLAB" run "$tmp/run.cfg" --workload cb --target "$1" \
	    --results "$tmp/res" --json >"$tmp/run.json" 2>"$tmp/run.err" ||
		{ echo "$me: raidlab run on $1 failed:" >&2; cat "$tmp/run.err" >&2; return 1; }
	values initial_create >>"$tmp/rl-create"
	values read_tree >>"$tmp/rl-read"
}

# bench NAME DIR: REPEATS pairs of raidlab and the peer on DIR, in
# alternate order (the machine drifts); print two rows.
bench() {
	local name=$1 dir=$2 k
	lab "$tmp/run.cfg" drop "$N" "$RUNS"
	: >"$tmp/rl-create" && : >"$tmp/rl-read"
	: >"$tmp/peer-create" && : >"$tmp/peer-read"
	for k in $(seq "$REPEATS"); do
		if [ $((k % 2)) = 1 ]; then
			raidlab "$dir" || return 1
			peer "$dir"
		else
			peer "$dir"
			raidlab "$dir" || return 1
		fi
	done
	row "$name" "initial create" "$(mean "$tmp/rl-create")" \
	    "$(wc -l <"$tmp/rl-create")" "$(mean "$tmp/peer-create")" \
	    "$(wc -l <"$tmp/peer-create")"
	row "$name" "read tree" "$(mean "$tmp/rl-read")" \
	    "$(wc -l <"$tmp/rl-read")" "$(mean "$tmp/peer-read")" \
	    "$(wc -l <"$tmp/peer-read")"
}

# Room for the trees raidlab may hold at once and their objects.
room=$(( (bytes / 1048576 + 1) * (N + RUNS / 3 + 2) * 2 + 256 ))

echo "tree: $FILES files, $bytes bytes; $N trees, $RUNS random operations, seed $SEED"
echo "| target | phase          | raidlab MB/s (n)  | peer MB/s (n)     | ratio |"
echo "|--------|----------------|-------------------|-------------------|-------|"
for t in $TARGETS; do
	case $t in
	tmpfs)
		mnt=$tmp/tmpfs
		mkdir -p "$mnt" && mount -t tmpfs -o "size=${room}m" raidlab-cbbench "$mnt" ||
			{ mnt=; continue; }
		bench tmpfs "$mnt"
		release
		;;
	root)
		mkdir -p "$tmp/root"
		bench root "$tmp/root"
		rm -rf "$tmp/root"
		;;
	ext4)
		truncate -s "${room}M" "$tmp/ext4.img" || continue
		loop=$(losetup -f --show "$tmp/ext4.img") || { loop=; continue; }
		mkfs.ext4 -q -F "$loop" || { release; continue; }
		mnt=$tmp/ext4
		mkdir -p "$mnt" && mount "$loop" "$mnt" || { mnt=; release; continue; }
		bench ext4 "$mnt"
		release
		rm -f "$tmp/ext4.img"
		;;
	*)
		echo "$me: unknown target $t" >&2
		;;
	esac
done
