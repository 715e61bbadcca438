#!/bin/bash
# compilebench against its peers, phase by phase, in one of two modes,
# and (--sequence) the maker of the unit tests' compilebench fixtures.
#
# MODE=compilebench (the default when CB is set): the real compilebench
# (Chris Mason's Python script, 0.6, github.com/josefbacik/compilebench;
# not packaged in Debian: clone it and point CB at the clone, which holds
# the script and its 2.6.20/2.6.21 data sets) and raidlab's compilebench
# with the same -i/-r and seed 555, each on a fresh ext4 loop device
# (losetup -f), alternating which goes first, ROUNDS rounds. raidlab's
# tree is sized as compilebench's 2.6.20 list (21280 files, 233176153
# bytes, patch 288 per 1000). Prints one row per phase: compilebench's
# figure, raidlab's, and raidlab / compilebench. Both report MiB/s
# ("MB/s" in compilebench's words) and seconds for delete and stat. Then
# each tool's CPU share of the phase and its seconds per operation off
# the CPU: where compilebench's Python loop is the bottleneck, its CPU
# share is high and the off-CPU seconds of the two agree.
#
# MODE=peers: the phases that have a standard tool doing the same work,
# on the same target in the same run, timed as compilebench times them:
#
#   initial create  raidlab: N trees of the synthetic kernel tree, not
#                   synced; peer: GNU tar extracting a tarball of the very
#                   tree (on /dev/shm: reading it costs no disk I/O).
#   create          raidlab: "create" among RUNS random operations, drop
#                   untimed, create + sync timed; peer: drop; tar xf; sync.
#   read tree       raidlab: "read tree"; peer: drop; find TREE -type f |
#                   xargs cat >/dev/null; sync.
#   stat tree       raidlab: "stat tree"; peer: drop; find TREE -printf
#                   '%s' (an lstat per entry); sync. Seconds.
#   delete tree     raidlab: "delete tree"; peer: drop; rm -rf TREE; sync.
#                   Seconds.
#
# Root only (drop_caches, mount, losetup -f; it releases exactly what it
# made). Use an optimised build without sanitizers:
#   RAIDLAB=/tmp/rel/raidlab CB=/path/to/compilebench bench/compilebench.sh
#   RAIDLAB=/tmp/rel/raidlab MODE=peers bench/compilebench.sh
# Knobs: INITIAL (4), RUNS (30), ROUNDS (2), ROOM (ext4 image, 12G),
# PATCH_READ (false: compilebench 0.6 under Python 3 reads nothing when it
# patches, whose append mode starts at the end; true: raidlab's default);
# peers: N (trees, 3), FILES and SIZE (compilebench's 2.6.20), TARGETS
# ("tmpfs root ext4"), REPEATS (pairs per target, alternate order, 1).
#
# --sequence: what the real compilebench does for a data set of OBJS
# compiled-only objects, written as tests/data/compilebench-seq-oOBJS-
# iINITIAL-rRUNS.txt ("OP kernel-N" per operation, initial creates first)
# and compilebench-runs-...txt ("phase:count" from its "total runs"
# summary, phases with none left out). Its choices depend only on -i, -r
# and how many entries of dataset-unpatched-compiled are not in
# dataset-unpatched (shuffled first with its Random(555)), so a stand-in
# data set of a few tiny sources plus OBJS one-byte objects, in a
# temporary directory, gives the sequence of any data set of OBJS
# objects. compilebench runs unmodified under python3 on a temporary -D,
# with -n: that only skips its syncs and drop_caches (which needs root),
# never a random draw. A driver loaded beside it records each tree
# operation (sys.setprofile: the *_one_dir function or initial create
# that called the primitive, and the tree it was given) and replaces
# os.times' elapsed clock with a finer one, as compilebench divides by
# it and a tiny tree takes less than a clock tick. No root needed:
#   CB=/path/to/compilebench OBJS=164 INITIAL=2 RUNS=60 \
#       bench/compilebench.sh --sequence
# Knobs: OUT (tests/data beside this script), INITIAL and RUNS as above.
set -u

SEQUENCE=
[ "${1:-}" = --sequence ] && SEQUENCE=1

RAIDLAB=${RAIDLAB:-raidlab}
CB=${CB:-}
MODE=${MODE:-$([ -n "$CB" ] && echo compilebench || echo peers)}
INITIAL=${INITIAL:-4}
RUNS=${RUNS:-30}
ROUNDS=${ROUNDS:-2}
ROOM=${ROOM:-12G}
SEED=555 # compilebench's, fixed in its script
N=${N:-3}
FILES=${FILES:-21280}
SIZE=${SIZE:-233176153}
PATCHED=${PATCHED:-288}
TARGETS=${TARGETS:-tmpfs root ext4}
REPEATS=${REPEATS:-1}
# compilebench 0.6 under Python 3 reads nothing when it patches (append
# mode starts at the end): raidlab does the same unless PATCH_READ=true.
PATCH_READ=${PATCH_READ:-false}

OBJS=${OBJS:-}
OUT=${OUT:-$(cd "$(dirname "$0")/.." && pwd)/tests/data}

me=compilebench.sh
. "$(dirname "$0")/lib.sh"
if [ -n "$SEQUENCE" ]; then
	bench_need python3 awk
	bench_dirs cbseq
else
	bench_need_root "drop_caches, mount, loop"
	bench_need "$RAIDLAB" tar jq losetup mkfs.ext4 find xargs cat awk
	bench_dirs cbbench
fi

now_us() { echo "${EPOCHREALTIME/[.,]/}"; }

# compilebench's phases: raidlab's key, then compilebench's words.
PHASES="initial_create:intial create
create:create
patch:patch
compile:compile
clean:clean
read_tree:read tree
read_compiled:read compiled tree
delete_tree:delete tree
delete_compiled:delete compiled tree
stat_tree:stat tree
stat_compiled:stat compiled tree"

# lab FILE CACHE INITIAL RUNS: a lab with one compilebench workload "cb".
lab() {
	cat >"$1" <<EOF
name = "cbbench";
repeats = 1;
cache = "$2";
variants = ( { name = "here"; directory = "$tmp/unused"; } );
workloads = ( { name = "cb"; type = "compilebench"; initial = $3;
    runs = $4; seed = $SEED; files = $FILES; size = "$SIZE";
    patched = $PATCHED; patch_read = $PATCH_READ; } );
EOF
}

# run_raidlab DIR JSON: one raidlab run of $tmp/run.cfg on DIR.
run_raidlab() {
	"$RAIDLAB" run "$tmp/run.cfg" --workload cb --target "$1" \
	    --results "$tmp/res" --json >"$2" 2>"$tmp/run.err" ||
		{ echo "$me: raidlab run on $1 failed:" >&2; cat "$tmp/run.err" >&2; return 1; }
}

# values JSON KEY: the figures of the tests with KEY (the runs' tests
# only: the record's stability entries carry the key with a null value,
# which awk would average in as 0).
values() {
	jq -r --arg k "$2" '.runs[].tests[] | select(.key == $k) | .value' "$1"
}

# mean FILE: "MEAN N" of the numbers in FILE ("- 0" when empty).
mean() {
	awk '{ s += $1; n++ } END { if (n) printf "%.2f %d", s / n, n; else printf "- 0" }' "$1"
}

# fresh_ext4: a new loop device over a sparse image, ext4, mounted at $mnt.
fresh_ext4() {
	rm -f "$tmp/ext4.img"
	truncate -s "$ROOM" "$tmp/ext4.img" || return 1
	loop=$(losetup -f --show "$tmp/ext4.img") || { loop=; return 1; }
	# No lazy init: its thread would zero inode tables and the journal
	# under whichever tool runs first (the first writes ran at a fifth
	# of the speed of the next ones).
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop" ||
		{ release; return 1; }
	mnt=$tmp/ext4
	mkdir -p "$mnt" && mount "$loop" "$mnt" || { mnt=; release; return 1; }
}

done_ext4() {
	release
	rm -f "$tmp/ext4.img"
}

# ---------------------------------------------------------------- compilebench

# cb_round: compilebench on a fresh ext4; its per-phase lines kept as
# "KEY AVG RUNS" (the average counted RUNS times, to weigh the rounds).
cb_round() {
	fresh_ext4 || return 1
	python3 "$CB/compilebench" -D "$mnt/cb" -s "$CB" -i "$INITIAL" \
	    -r "$RUNS" >"$tmp/cb.out" 2>"$tmp/cb.err" ||
		{ echo "$me: compilebench failed:" >&2; tail -5 "$tmp/cb.err" >&2; done_ext4; return 1; }
	done_ext4
	local key words
	while IFS=: read -r key words; do
		awk -v w="$words" -v k="$key" '
		    index($0, w " total runs ") == 1 {
			split(substr($0, length(w) + 13), f, " ")
			for (i = 0; i < f[1]; i++) print f[3] >> ("'"$tmp"'/cb-" k)
		    }' "$tmp/cb.out"
	done <<<"$PHASES"
	grep -E '^(create|patch|compile|clean|read|stat|delete)' "$tmp/cb.err" |
	    awk '{ print $1 }' | sort | uniq -c | tr '\n' ' ' >>"$tmp/cb-ops"
	echo >>"$tmp/cb-ops"
	cb_cpu
}

# cb_group KEY: the group of cb_cpu that a phase falls in.
cb_group() {
	case $1 in
	initial_create) echo ic ;;
	read_*) echo read ;;
	delete_*) echo delete ;;
	stat_*) echo stat ;;
	*) echo "$1" ;;
	esac
}

# cpu_share FILE KEY: the CPU share (percent) of KEY's "KEY CPU WALL N"
# lines in FILE, "-" when none.
cpu_share() {
	awk -v k="$2" '$1 == k { c += $2; w += $3 }
	    END { if (w > 0) printf "%.0f%%", 100 * c / w; else printf "-" }' "$1"
}

# off_cpu FILE KEY: seconds per operation off the CPU (wall - CPU: the
# disk, the page cache's locks, the sync), "-" when none. Where a tool's
# own loop is the difference, these agree and the CPU shares do not.
off_cpu() {
	awk -v k="$2" '$1 == k { c += $2; w += $3; n += $4 }
	    END { if (n > 0) printf "%.3f", (w - c) / n; else printf "-" }' "$1"
}

# cb_cpu: compilebench's CPU seconds (user + sys, from its summary) and
# wall seconds (from its stderr, one line per operation) per group of
# phases its stderr cannot tell apart, appended as "GROUP CPU WALL N"
# (N operations).
cb_cpu() {
	awk -v ini="$INITIAL" '
	    function group(k) {
		if (k == "intial create") return "ic"
		if (k ~ /^read/) return "read"
		if (k ~ /^delete/) return "delete"
		if (k ~ /^stat/) return "stat"
		return k
	    }
	    FNR == NR {
		if (!match($0, / total runs [0-9]+ avg .*\(user [0-9.]+s sys [0-9.]+s\)$/))
			next
		k = substr($0, 1, RSTART - 1)
		split(substr($0, RSTART), f, " ")
		u = f[8]; s = f[10]; sub(/s$/, "", u); sub(/s\)$/, "", s)
		cpu[group(k)] += f[3] * (u + s)
		next
	    }
	    {
		w = -1
		for (i = 1; i < NF; i++) if ($i == "in") w = $(i + 1)
		if (w < 0) next
		if ($1 == "create" && $2 == "dir") g = (++creates <= ini) ? "ic" : "create"
		else if ($1 == "patch" || $1 == "compile" || $1 == "clean" ||
		    $1 == "read" || $1 == "delete" || $1 == "stat") g = $1
		else next
		wall[g] += w
		n[g]++
	    }
	    END { for (g in wall) printf "%s %.3f %.3f %d\n", g, cpu[g], wall[g], n[g] }
	' "$tmp/cb.out" "$tmp/cb.err" >>"$tmp/cb-cpu"
}

rl_round() {
	fresh_ext4 || return 1
	run_raidlab "$mnt" "$tmp/run.json" || { done_ext4; return 1; }
	done_ext4
	local key words
	while IFS=: read -r key words; do
		values "$tmp/run.json" "$key" >>"$tmp/rl-$key"
	done <<<"$PHASES"
	# CPU and wall seconds per test, as cb_cpu's.
	jq -r '.runs[].tests[] | select(.value != null and .wall != null) |
	    "\(.key) \(.user + .sys) \(.wall) 1"' "$tmp/run.json" >>"$tmp/rl-cpu"
}

mode_compilebench() {
	[ -f "$CB/compilebench" ] && [ -f "$CB/dataset-unpatched" ] ||
		{ echo "$me: CB=$CB holds no compilebench and data sets" >&2; exit 77; }
	bench_need python3
	local cfiles cbytes k key words a b
	cfiles=$(wc -l <"$CB/dataset-unpatched")
	cbytes=$(awk '{ s += $2 } END { print s }' "$CB/dataset-unpatched")
	[ "$cfiles" = "$FILES" ] && [ "$cbytes" = "$SIZE" ] ||
		echo "$me: note: compilebench's tree is $cfiles files, $cbytes bytes; raidlab's $FILES, $SIZE" >&2
	lab "$tmp/run.cfg" drop "$INITIAL" "$RUNS"
	for k in $(seq "$ROUNDS"); do
		if [ $((k % 2)) = 1 ]; then
			cb_round || exit 1
			rl_round || exit 1
		else
			rl_round || exit 1
			cb_round || exit 1
		fi
	done
	echo "compilebench $CB -i $INITIAL -r $RUNS against raidlab (files = $FILES; size = $SIZE; patched = $PATCHED; patch_read = $PATCH_READ), seed $SEED, $ROUNDS rounds, fresh ext4 loop each"
	echo "| phase                | unit    | compilebench (n) | raidlab (n)      | ratio | CPU: compilebench | raidlab | off CPU s/op: compilebench | raidlab |"
	echo "|----------------------|---------|------------------|------------------|-------|-------------------|---------|----------------------------|---------|"
	touch "$tmp/cb-cpu" "$tmp/rl-cpu"
	while IFS=: read -r key words; do
		touch "$tmp/cb-$key" "$tmp/rl-$key"
		a=$(mean "$tmp/cb-$key")
		b=$(mean "$tmp/rl-$key")
		ca=$(cpu_share "$tmp/cb-cpu" "$(cb_group "$key")")
		cb=$(cpu_share "$tmp/rl-cpu" "$key")
		oa=$(off_cpu "$tmp/cb-cpu" "$(cb_group "$key")")
		ob=$(off_cpu "$tmp/rl-cpu" "$key")
		awk -v p="$words" -v a="$a" -v b="$b" -v k="$key" -v ca="$ca" -v cb="$cb" \
		    -v oa="$oa" -v ob="$ob" 'BEGIN {
			split(a, x, " "); split(b, y, " ")
			u = (k ~ /^(delete|stat)/) ? "seconds" : "MiB/s"
			r = (x[1] != "-" && y[1] != "-" && x[1] > 0) ? sprintf("%.2f", y[1] / x[1]) : "-"
			printf "| %-20s | %-7s | %9s (%4d) | %9s (%4d) | %5s | %17s | %7s | %26s | %7s |\n", p, u, x[1], x[2], y[1], y[2], r, ca, cb, oa, ob
		}'
	done <<<"$PHASES"
	echo "CPU: user + sys over wall, summed over the phase's operations; off CPU: wall - CPU"
	echo "per operation. compilebench's CPU leaves out its sync(1)'s, a child's; compilebench's"
	echo "read, delete and stat count the compiled trees' too (its stderr does not tell them apart)."
	echo "compilebench's operations per round (its stderr): "
	cat "$tmp/cb-ops"
}

# ---------------------------------------------------------------- peers

# timed CMD...: microseconds of CMD after an untimed drop, as compilebench
# times an operation. The tools are loaded again after the drop, untimed.
timed() {
	local s e
	drop
	tar --version >/dev/null; find --version >/dev/null
	xargs --version >/dev/null; cat --version >/dev/null
	rm --version >/dev/null; sync --version >/dev/null
	s=$(now_us)
	"$@"
	e=$(now_us)
	echo $(( e - s ))
}

# Unsynced, as compilebench's initial trees.
untar_nosync() {
	mkdir "$1" && tar --no-same-owner --no-same-permissions -m \
	    -xf "$shm/tree.tar" -C "$1"
}
untar() { untar_nosync "$1" && sync; }
readall() { find "$1" -type f -print0 | xargs -0 cat >/dev/null && sync; }
statall() { find "$1" -mindepth 1 -printf '%s\n' >/dev/null && sync; }
rmall() { rm -rf "$1" && sync; }

# rate FILE US: MiB/s of the tree's bytes in US microseconds, to FILE.
rate() {
	awk -v b="$bytes" -v us="$2" 'BEGIN { printf "%.4f\n", b / 1048576 / (us / 1e6) }' >>"$1"
}

secs() {
	awk -v us="$2" 'BEGIN { printf "%.4f\n", us / 1e6 }' >>"$1"
}

# peer DIR: N unsynced extractions and one sync, then per tree a timed
# extraction, read, stat and delete.
peer() {
	local d=$1/peer i us s e
	mkdir -p "$d"
	for i in $(seq "$N"); do
		s=$(now_us)
		untar_nosync "$d/i$i"
		e=$(now_us)
		rate "$tmp/peer-initial_create" $(( e - s ))
	done
	sync
	for i in $(seq "$N"); do
		rate "$tmp/peer-create" "$(timed untar "$d/t$i")"
		rate "$tmp/peer-read_tree" "$(timed readall "$d/t$i")"
		secs "$tmp/peer-stat_tree" "$(timed statall "$d/t$i")"
		secs "$tmp/peer-delete_tree" "$(timed rmall "$d/t$i")"
	done
	rm -rf "$d"
	sync
}

row() {
	awk -v t="$1" -v p="$2" -v a="$3" -v b="$4" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		r = (x[1] != "-" && y[1] != "-" && y[1] > 0) ? sprintf("%.2f", x[1] / y[1]) : "-"
		printf "| %-6s | %-14s | %11s (%3d) | %11s (%3d) | %5s |\n", t, p, x[1], x[2], y[1], y[2], r
	}'
}

# bench NAME DIR: REPEATS pairs of raidlab and the peer on DIR, in
# alternate order (the machine drifts); print a row per phase.
bench() {
	local name=$1 dir=$2 k p
	local phases="initial_create create read_tree stat_tree delete_tree"
	lab "$tmp/run.cfg" drop "$N" "$RUNS"
	for p in $phases; do : >"$tmp/rl-$p"; : >"$tmp/peer-$p"; done
	for k in $(seq "$REPEATS"); do
		if [ $((k % 2)) = 1 ]; then
			run_raidlab "$dir" "$tmp/run.json" || return 1
			peer "$dir"
		else
			peer "$dir"
			run_raidlab "$dir" "$tmp/run.json" || return 1
		fi
		for p in $phases; do values "$tmp/run.json" "$p" >>"$tmp/rl-$p"; done
	done
	for p in $phases; do
		row "$name" "$(echo "$p" | tr _ ' ')" "$(mean "$tmp/rl-$p")" \
		    "$(mean "$tmp/peer-$p")"
	done
}

mode_peers() {
	# The tree's tarball, from a tree raidlab writes and keeps (untimed).
	lab "$tmp/make.cfg" keep 1 0
	mkdir -p "$shm/gen" "$tmp/res"
	"$RAIDLAB" run "$tmp/make.cfg" --workload cb --target "$shm/gen" --keep \
	    --results "$tmp/res" --json >"$tmp/make.json" 2>"$tmp/make.err" ||
		{ echo "$me: raidlab run failed" >&2; cat "$tmp/make.err" >&2; exit 1; }
	tree0=$(echo "$shm"/gen/raidlab-cb.*/kernel-0)
	[ -d "$tree0" ] || { echo "$me: no tree kept under $shm/gen" >&2; exit 1; }
	bytes=$(jq '[.. | objects | select(.key? == "initial_create")
	    | .bytes_written] | first' "$tmp/make.json")
	tar cf "$shm/tree.tar" -C "$tree0" . || exit 1
	rm -rf "$shm/gen"
	# Room for the trees raidlab may hold at once and their objects.
	room=$(( (bytes / 1048576 + 1) * (N + RUNS / 3 + 2) * 2 + 256 ))

	echo "tree: $FILES files, $bytes bytes; $N trees, $RUNS random operations, seed $SEED"
	echo "| target | phase          | raidlab (n)       | peer (n)          | ratio |"
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
			ROOM=${room}M
			fresh_ext4 || continue
			bench ext4 "$mnt"
			done_ext4
			;;
		*)
			echo "$me: unknown target $t" >&2
			;;
		esac
	done
}

# ---------------------------------------------------------------- sequence

# The driver: runs compilebench (argv[1]) with argv[3:] as its options and
# writes its tree operations, in order, to argv[2].
SEQ_DRIVER='
import os, runpy, sys, time

script, seqfile, args = sys.argv[1], sys.argv[2], sys.argv[3:]
prims = ("run_directory", "clean_directory", "rmrf", "read_dirtree",
         "stat_dirtree")
seq = []

def hook(frame, event, arg):
    code = frame.f_code
    if event != "call" or code.co_name not in prims or \
            code.co_filename != script:
        return
    caller = frame.f_back.f_code.co_name
    if caller == "<module>":
        op = "create"  # the initial trees
    elif caller.endswith("_one_dir"):
        op = caller[:-len("_one_dir")]
    else:
        return  # native_order: its scratch copies, no tree of the run
    seq.append("%s %s\n" % (op, frame.f_locals["dirname"]))

real_times, last = os.times, [0.0]

def times():
    t = real_times()
    last[0] = max(time.perf_counter(), last[0] + 1e-6)
    return os.times_result((t[0], t[1], t[2], t[3], last[0]))

os.times = times
sys.argv = [script] + args
sys.setprofile(hook)
try:
    runpy.run_path(script, run_name="__main__")
finally:
    sys.setprofile(None)
with open(seqfile, "w") as f:
    f.writelines(seq)
'

# The stand-in data set, in DIR: three sources (one changed by the patch)
# and OBJS objects, one byte each, in both compiled lists.
seq_dataset() {
	local d=$1
	printf '%s\n' 'Makefile 3' 'src/a.c 5' 'src/b.c 7' >"$d/dataset-unpatched"
	printf '%s\n' 'Makefile 3' 'src/a.c 6' 'src/b.c 7' >"$d/dataset-patched"
	awk -v n="$OBJS" 'BEGIN { for (i = 0; i < n; i++) printf "obj/o%d.o 1\n", i }' >"$d/objs"
	cat "$d/dataset-unpatched" "$d/objs" >"$d/dataset-unpatched-compiled"
	cat "$d/dataset-patched" "$d/objs" >"$d/dataset-patched-compiled"
	rm "$d/objs"
}

mode_sequence() {
	local name=o$OBJS-i$INITIAL-r$RUNS
	case $OBJS in
	'' | *[!0-9]*) echo "$me: --sequence needs OBJS, a count of objects" >&2; exit 2 ;;
	esac
	[ -f "$CB/compilebench" ] ||
		{ echo "$me: CB=$CB holds no compilebench" >&2; exit 2; }
	mkdir -p "$tmp/src" "$OUT" || exit 1
	seq_dataset "$tmp/src"
	python3 -c "$SEQ_DRIVER" "$CB/compilebench" "$tmp/seq" -D "$tmp/bench" \
	    -s "$tmp/src" -i "$INITIAL" -r "$RUNS" -n >"$tmp/cb.out" 2>"$tmp/cb.err" ||
		{ echo "$me: compilebench failed:" >&2; tail -5 "$tmp/cb.err" >&2; exit 1; }
	awk '{ i = index($0, " total runs ") }
	    i > 0 { split(substr($0, i + 12), f, " "); print substr($0, 1, i - 1) ":" f[1] }' \
	    "$tmp/cb.out" >"$tmp/runs"
	[ "$(wc -l <"$tmp/seq")" = $((INITIAL + RUNS)) ] ||
		{ echo "$me: compilebench ran $(wc -l <"$tmp/seq") operations, not $((INITIAL + RUNS))" >&2; exit 1; }
	mv "$tmp/seq" "$OUT/compilebench-seq-$name.txt" &&
	    mv "$tmp/runs" "$OUT/compilebench-runs-$name.txt" || exit 1
	echo "$OUT/compilebench-seq-$name.txt"
	echo "$OUT/compilebench-runs-$name.txt"
}

[ -n "$SEQUENCE" ] && { mode_sequence; exit 0; }

case $MODE in
compilebench) mode_compilebench ;;
peers) mode_peers ;;
*) echo "$me: MODE is compilebench or peers, not $MODE" >&2; exit 2 ;;
esac
