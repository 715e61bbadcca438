#!/bin/bash
# raidlab's bonnie workload against bonnie++ 2.00 itself, on the same
# target in the same run, alternating the two tools: every column of
# bonnie++'s table (per-char, block and rewrite output; per-char and block
# input; random seeks; sequential and random create/stat/delete) side by
# side, with %CP, and the ratio raidlab/bonnie++ of the medians of
# REPEATS runs. Both run with the same parameters:
#   bonnie++ -d DIR -s SIZE -n FILES -r RAM -u root -q -x 1
#   raidlab: size = SIZE; ram = RAM; files = FILES; (char_size 3M,
#   seeks 8192, seekers 5: bonnie++ 2.00's defaults, raidlab's too)
# A figure bonnie++ shows as +++++ (the test took under 0.5 s) is compared
# only when both have one.
#
# Targets: a tmpfs, a directory on the root filesystem (/var/tmp), and
# ext4 on a loop device (root for tmpfs and loop; exactly the loop device
# made is released). Use an optimised raidlab without sanitizers:
#
#   RAIDLAB=/path/to/raidlab [SIZE=1024 (MiB)] [FILES=16] [REPEATS=3]
#       [TARGETS="tmpfs vartmp ext4"] bench/bonnie.sh
set -eu

RAIDLAB=${RAIDLAB:?set RAIDLAB to the raidlab binary}
BONNIE=${BONNIE:-bonnie++}
SIZE=${SIZE:-1024}
FILES=${FILES:-16}
RAM=${RAM:-$((SIZE / 2))}
REPEATS=${REPEATS:-3}
if [ "$(id -u)" = 0 ]; then
	TARGETS=${TARGETS:-tmpfs vartmp ext4}
else
	echo "bonnie.sh: bonnie++ needs -u root; run as root" >&2
	exit 77
fi
for c in "$BONNIE" "$RAIDLAB" python3 losetup mkfs.ext4; do
	command -v "$c" >/dev/null 2>&1 || { echo "bonnie.sh: needs $c" >&2; exit 77; }
done

WORK=$(mktemp -d /var/tmp/raidlab-bench-bonnie.XXXXXX)
MNT= LOOP=
cleanup() {
	for m in $MNT; do umount "$m" 2>/dev/null || umount -l "$m"; done
	if [ -n "$LOOP" ]; then losetup -d "$LOOP"; fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cat >"$WORK/lab.cfg" <<EOF
name = "bench-bonnie";
cache = "keep";
variants = ( { name = "t"; directory = "$WORK"; } );
workloads = ( { name = "bonnie"; type = "bonnie"; size = "${SIZE}M";
  ram = "${RAM}M"; files = $FILES; } );
EOF

# One bonnie++ run: its CSV line (format 1.98) appended to $2.
run_bonnie() {
	local d="$1/bonnie"
	mkdir -p "$d"
	sync
	"$BONNIE" -d "$d" -s "$SIZE" -n "$FILES" -r "$RAM" -u root -q -x 1 \
	    2>/dev/null | grep '^1\.98,' >>"$2"
	rm -rf "$d"
}

# One raidlab run: its record, saved as $2.N.json.
run_raidlab() {
	sync
	"$RAIDLAB" run "$WORK/lab.cfg" --target "$1" --results "$WORK/res" \
	    --json 2>/dev/null >"$2"
}

# The table of one target from bonnie++'s CSV lines and raidlab's records.
compare() {
	python3 - "$@" <<'EOF'
import json, statistics, sys
name, csvfile, recs = sys.argv[1], sys.argv[2], sys.argv[3:]
cols = [("Per Chr out", "seq_output_char", 9), ("Block out", "seq_output_block", 11),
        ("Rewrite", "seq_output_rewrite", 13), ("Per Chr in", "seq_input_char", 15),
        ("Block in", "seq_input_block", 17), ("Seeks", "random_seeks", 19),
        ("Seq create", "seq_create", 26), ("Seq read", "seq_read", 28),
        ("Seq delete", "seq_delete", 30), ("Ran create", "random_create", 32),
        ("Ran read", "random_read", 34), ("Ran delete", "random_delete", 36)]
def num(s):
    try:
        return float(s)
    except ValueError:
        return None
bon = [l.strip().split(",") for l in open(csvfile) if l.startswith("1.98,")]
ral = []
for p in recs:
    try:
        j = json.load(open(p))
    except Exception:
        continue
    for run in j.get("runs", []):
        ral.append({t["key"]: t for t in run.get("tests", [])})
def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None
def fmt(v, cp):
    if v is None:
        return "%10s %4s" % ("+++++", "+++")
    return "%10.1f %4.0f" % (v, cp if cp is not None else float("nan"))
print("| %-11s | %10s %4s | %10s %4s | %6s |" % (name, "bonnie++", "%CP", "raidlab", "%CP", "ratio"))
for label, key, f in cols:
    bv = med([num(l[f]) for l in bon])
    bc = med([num(l[f + 1]) for l in bon])
    rv = med([None if r.get(key, {}).get("too_fast", True) else r[key]["value"] for r in ral])
    rc = med([None if r.get(key, {}).get("too_fast", True) else r[key]["cpu_percent"] for r in ral])
    ratio = "%6.2f" % (rv / bv) if rv and bv else "%6s" % "-"
    print("| %-11s | %s | %s | %s |" % (label, fmt(bv, bc), fmt(rv, rc), ratio))
EOF
}

bench_target() {
	local name=$1 dir=$2 i
	: >"$WORK/bonnie.csv"
	for i in $(seq "$REPEATS"); do
		run_bonnie "$dir" "$WORK/bonnie.csv"
		run_raidlab "$dir" "$WORK/raidlab.$i.json"
	done
	echo
	echo "$name ($dir): -s $SIZE -n $FILES -r $RAM, median of $REPEATS"
	compare "$name" "$WORK/bonnie.csv" "$WORK"/raidlab.*.json
	rm -f "$WORK"/raidlab.*.json
}

for t in $TARGETS; do
	case $t in
	tmpfs)
		mkdir -p "$WORK/tmpfs"
		mount -t tmpfs -o size=$((SIZE * 2 + 512))m raidlab-bench "$WORK/tmpfs"
		MNT="$WORK/tmpfs $MNT"
		bench_target tmpfs "$WORK/tmpfs"
		;;
	vartmp)
		mkdir -p "$WORK/root"
		bench_target "root fs" "$WORK/root"
		;;
	ext4)
		mkdir -p "$WORK/ext4"
		truncate -s $((SIZE * 2 + 1024))M "$WORK/ext4.img"
		LOOP=$(losetup -f --show "$WORK/ext4.img")
		mkfs.ext4 -q "$LOOP"
		mount "$LOOP" "$WORK/ext4"
		MNT="$WORK/ext4 $MNT"
		bench_target "ext4 loop" "$WORK/ext4"
		;;
	esac
done
