#!/bin/bash
# raidlab's fio workload against fio itself: the same job (pattern, bs,
# size, numjobs, psync, direct, end_fsync) on the same target in the same
# run, alternating the two tools, and each figure side by side with the
# ratio raidlab/fio (median of REPEATS runs): bandwidth (MB/s), IOPS and
# the 99th percentile of completion latency, per direction.
#
# Targets: a tmpfs (buffered only), a directory on the root filesystem
# (/var/tmp), and ext4 on a loop device, buffered and direct. The tmpfs
# and the loop device need root; without root only /var/tmp is measured.
#
#   RAIDLAB=/path/to/raidlab [FIO=fio] [SIZE=256M] [RSIZE=64M] [REPEATS=3]
#       [TARGETS="tmpfs vartmp ext4 ext4-direct"] [JOBS=...] bench/fio.sh
#
# SIZE is the file size of sequential jobs, RSIZE of random ones (per job);
# JOBS replaces the job list (see below for its format).
set -eu

RAIDLAB=${RAIDLAB:?set RAIDLAB to the raidlab binary}
FIO=${FIO:-fio}
SIZE=${SIZE:-256M}
RSIZE=${RSIZE:-64M}
REPEATS=${REPEATS:-3}
if [ "$(id -u)" = 0 ]; then
	TARGETS=${TARGETS:-tmpfs vartmp ext4 ext4-direct}
else
	TARGETS=${TARGETS:-vartmp}
fi

# One job a line: name rw bs size numjobs rwmixread end_fsync.
JOBS=${JOBS:-"seqread read 1M $SIZE 1 50 0
seqwrite write 1M $SIZE 1 50 1
randread randread 4K $RSIZE 1 50 0
randwrite randwrite 4K $RSIZE 1 50 1
randrw70 randrw 4K $RSIZE 1 70 1
randread-2jobs randread 4K $RSIZE 2 50 0"}

WORK=$(mktemp -d /var/tmp/raidlab-bench-fio.XXXXXX)
MNT= LOOP= IMG=
cleanup() {
	if [ -n "$MNT" ]; then umount "$MNT" 2>/dev/null || umount -l "$MNT"; fi
	if [ -n "$LOOP" ]; then losetup -d "$LOOP"; fi
	if [ -n "$IMG" ]; then rm -f "$IMG"; fi
	rm -rf "$WORK"
}
trap cleanup EXIT

# Median of the numbers on stdin.
drop_caches() {
	[ "$(id -u)" = 0 ] || return 0
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan";
		else if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# fio's JSON -> "read_mbps read_iops read_p99us write_mbps write_iops
# write_p99us" (zeros for a direction without I/O). clat: with psync the
# call itself, as raidlab times it (fio gives lat percentiles only with
# lat_percentiles=1).
fio_figs() {
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
out = []
for d in ("read", "write"):
    x = j[d]
    p = x.get("clat_ns", {}).get("percentile", {}).get("99.000000", 0)
    out += [x["bw_bytes"] / 1e6, x["iops"], p / 1e3 if x["total_ios"] else 0]
print(" ".join("%.3f" % v for v in out))' "$1"
}

# raidlab's record -> the same six numbers, from the job's one test.
rl_figs() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
if r.get("status") != "ok":
    sys.exit("raidlab: %s" % r.get("error"))
t = r["tests"][0]
out = []
for d, b in (("read", "bytes_read"), ("write", "bytes_written")):
    lat = t["latency"].get(d, {"n": 0})
    n = lat.get("n", 0)
    out += [t[b] / t["wall"] / 1e6, n / t["wall"],
            lat.get("p99_ns", 0) / 1e3 if n else 0]
print(" ".join("%.3f" % v for v in out))' "$1"
}

run_fio() {	# dir rw bs size jobs mix fsync direct -> figs
	local d=$1/fio
	mkdir -p "$d"
	"$FIO" --name=x --directory="$d" --rw="$2" --bs="$3" --size="$4" \
		--numjobs="$5" --rwmixread="$6" --end_fsync="$7" \
		--direct="$8" --ioengine=psync --group_reporting \
		--output-format=json --output="$WORK/fio.json" >/dev/null
	rm -rf "$d"
	fio_figs "$WORK/fio.json"
}

run_raidlab() {	# dir rw bs size jobs mix fsync direct -> figs
	local lab=$WORK/bench.lab fsync=false direct=false
	[ "$7" = 1 ] && fsync=true
	[ "$8" = 1 ] && direct=true
	cat >"$lab" <<EOF
name = "bench-fio";
cache = "keep";
variants = ( { name = "t"; directory = "$1"; } );
workloads = ( { name = "j"; type = "fio"; rw = "$2"; bs = "$3";
  size = "$4"; threads = $5; rwmixread = $6; end_fsync = $fsync;
  direct = $direct; ioengine = "psync"; } );
EOF
	"$RAIDLAB" run "$lab" --workload j --target "$1" \
		--results "$WORK/results" --json >"$WORK/raidlab.json" \
		2>"$WORK/raidlab.err" || { cat "$WORK/raidlab.err" >&2; exit 1; }
	rl_figs "$WORK/raidlab.json"
}

# One job on one target: REPEATS alternating runs, medians, one row per
# direction that does I/O.
bench_job() {	# target-label dir direct name rw bs size jobs mix fsync
	local label=$1 dir=$2 direct=$3 name=$4 i k
	shift 4
	: >"$WORK/f.txt"
	: >"$WORK/r.txt"
	# The order flips every repeat, and the page cache is dropped before
	# each run (root): a loop device's backing file stays cached in the
	# host's page cache across jobs, so whichever tool ran second could
	# read the first one's layout from memory, direct=1 or not.
	for i in $(seq "$REPEATS"); do
		if [ $((i % 2)) = 1 ]; then
			drop_caches
			run_fio "$dir" "$@" "$direct" >>"$WORK/f.txt"
			drop_caches
			run_raidlab "$dir" "$@" "$direct" >>"$WORK/r.txt"
		else
			drop_caches
			run_raidlab "$dir" "$@" "$direct" >>"$WORK/r.txt"
			drop_caches
			run_fio "$dir" "$@" "$direct" >>"$WORK/f.txt"
		fi
	done
	for k in 0 1; do
		local f=() r=() c
		for c in 1 2 3; do
			f+=("$(cut -d' ' -f$((k * 3 + c)) "$WORK/f.txt" | median)")
			r+=("$(cut -d' ' -f$((k * 3 + c)) "$WORK/r.txt" | median)")
		done
		awk -v t="$label" -v j="$name" -v d="$([ $k = 0 ] && echo read || echo write)" \
		    -v f1="${f[0]}" -v f2="${f[1]}" -v f3="${f[2]}" \
		    -v r1="${r[0]}" -v r2="${r[1]}" -v r3="${r[2]}" '
		function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
		BEGIN { if (f2 + r2 == 0) exit
			printf "| %-11s | %-14s | %-5s | %9.1f | %9.1f | %5s | %9.0f | %9.0f | %5s | %8.1f | %8.1f | %5s |\n",
			    t, j, d, f1, r1, ratio(r1, f1), f2, r2, ratio(r2, f2),
			    f3, r3, ratio(r3, f3) }'
	done
}

bench_target() {	# label dir direct
	local name rw bs size jobs mix fsync
	while read -r name rw bs size jobs mix fsync; do
		bench_job "$1" "$2" "$3" "$name" "$rw" "$bs" "$size" "$jobs" \
		    "$mix" "$fsync"
	done <<<"$JOBS"
}

echo "fio $("$FIO" --version) vs $("$RAIDLAB" --version 2>/dev/null | head -1)," \
    "median of $REPEATS, psync, sizes $SIZE (seq) / $RSIZE (rand) per job"
echo
echo "| target      | job            | dir   | fio MB/s  | rl MB/s   | ratio | fio IOPS  | rl IOPS   | ratio | fio p99us | rl p99us | ratio |"
echo "|-------------|----------------|-------|-----------|-----------|-------|-----------|-----------|-------|-----------|----------|-------|"
for t in $TARGETS; do
	case $t in
	tmpfs)
		MNT=$WORK/tmpfs
		mkdir -p "$MNT"
		mount -t tmpfs -o size=2G raidlab-bench "$MNT"
		bench_target tmpfs "$MNT" 0
		umount "$MNT"
		MNT=
		;;
	vartmp)
		mkdir -p "$WORK/vartmp"
		bench_target /var/tmp "$WORK/vartmp" 0
		;;
	ext4 | ext4-direct)
		if [ -z "$LOOP" ]; then
			IMG=$WORK.img
			truncate -s 4G "$IMG"
			LOOP=$(losetup -f --show "$IMG")
			mkfs.ext4 -q -F "$LOOP"
			MNT=$WORK/ext4
			mkdir -p "$MNT"
			mount "$LOOP" "$MNT"
		fi
		if [ "$t" = ext4 ]; then
			bench_target ext4 "$MNT" 0
		else
			bench_target ext4-direct "$MNT" 1
		fi
		;;
	*)
		echo "unknown target $t" >&2
		exit 2
		;;
	esac
done
