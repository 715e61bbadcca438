#!/bin/bash
# Calibration of the verdicts (issue 22): how often raidlab calls a
# difference between variants that are the same. K labs per target of N
# identical directory variants (one filesystem, a directory each), R
# interleaved repeats, three workloads: smallfiles (4 batches), bonnie
# (12 columns at a small size; a column whose test lasts under 0.5 s is
# +++++ and not judged) and a fio-style random write of 1 s: about 13
# columns, 26 cells a lab against the first variant. Each record
# is compared with `raidlab compare --json --test=T` for every test T, and
# every cell against the baseline that gets a verdict is counted:
#   before  its raw p (the one test alone) is under 0.05;
#   after   its verdict is better or worse (after the correction for the
#           comparisons made, where raidlab has one).
# A lab has a false difference when any of its cells does. Prints one row
# per target, test and before/after: cells, the per-cell rate, labs, the
# share of labs with any false difference (95% Wilson interval), with the
# load average before and after. Targets: a tmpfs and ext4 on a loop
# device (losetup -f), both made here and released. Root only.
#
#   RAIDLAB=/path/to/raidlab [K=4] [N=3] [R=5] [TARGETS="tmpfs ext4"]
#       [TESTS="log welch rank"] [KEEP=DIR] bench/calibrate.sh
#
# KEEP=DIR copies the records there (TARGET-I.json). A raidlab without
# --test (before issue 22) is compared once, with its only test, Welch.
# About 3 min a lab on an idle 2-core machine: K=4 takes about 25 min.
set -u

me=calibrate.sh
. "$(dirname "$0")/lib.sh"

RAIDLAB=${RAIDLAB:-raidlab}
K=${K:-4}
N=${N:-3}
R=${R:-5}
TARGETS=${TARGETS:-tmpfs ext4}
TESTS=${TESTS:-log welch rank}
KEEP=${KEEP:-}

bench_need_root "a tmpfs and ext4 on a loop device"
bench_need "$RAIDLAB" jq awk losetup mkfs.ext4
case "$K$N$R" in *[!0-9]*) echo "$me: K, N and R are numbers" >&2; exit 2 ;; esac
[ "$N" -ge 2 ] && [ "$R" -ge 3 ] && [ "$K" -ge 1 ] ||
	{ echo "$me: needs K >= 1, N >= 2, R >= 3" >&2; exit 2; }
[ -z "$KEEP" ] || mkdir -p "$KEEP" || exit 1
bench_dirs calib

# mount_target KIND: a fresh tmpfs or ext4 on a new loop device at $mnt.
mount_target() {
	mkdir -p "$tmp/$1" || return 1
	case $1 in
	tmpfs)
		mount -t tmpfs -o size=3G raidlab-calib "$tmp/tmpfs" || return 1
		mnt=$tmp/tmpfs
		;;
	ext4)
		truncate -s 3G "$tmp/ext4.img" || return 1
		loop=$(losetup -f --show "$tmp/ext4.img") || { loop=; return 1; }
		mkfs.ext4 -q -F "$loop" || return 1
		mount "$loop" "$tmp/ext4" || return 1
		mnt=$tmp/ext4
		;;
	*)
		echo "$me: unknown target $1 (tmpfs, ext4)" >&2
		return 1
		;;
	esac
}

# bonnie's parameters on each target: a test under 0.5 s is +++++ and
# never judged, and tmpfs does in 0.3 s what ext4 over a loop takes 1 s
# for (idle, 2 cores). Sized for about 0.5-1.5 s a test where the cost
# allows; the stat tests (cheapest a file) stay +++++ on both.
bonnie_params() {
	case $1 in
	tmpfs) echo 'size = "2G"; char_size = "512K"; seeks = 250000; files = 160;' ;;
	*) echo 'size = "768M"; char_size = "384K"; seeks = 100000; files = 64;' ;;
	esac
}

# lab FILE RESULTS BONNIE: N identical variants, a directory each on $mnt.
lab() {
	local i
	{
		printf 'name = "aa";\nrepeats = %s;\norder = "interleaved";\n' "$R"
		printf 'cache = "keep";\nresults = "%s";\nvariants = (\n' "$2"
		for i in $(seq "$N"); do
			[ "$i" = 1 ] || printf ',\n'
			printf '  { name = "v%s"; directory = "%s/v%s"; }' "$i" "$mnt" "$i"
		done
		cat <<'EOF'

);
workloads = (
  { name = "small"; type = "smallfiles"; counts = [1000, 2000, 4000, 8000];
    size = "4K"; dirs = 4; },
EOF
		printf '  { name = "bon"; type = "bonnie"; %s },\n' "$3"
		cat <<'EOF'
  { name = "fio"; type = "fio"; rw = "randwrite"; bs = "4K";
    size = "64M"; runtime = 1; }
);
EOF
	} >"$1"
}

# tests REC: the tests to compare with; "-" for the only one there is.
tests() {
	if "$RAIDLAB" compare --json --test=welch "$1" >/dev/null 2>&1; then
		echo "$TESTS"
	else
		echo -
	fi
}

# count TARGET LAB TEST REC: one line "TARGET TEST LAB cells before after"
# (cells judged, those with p < 0.05, those called better or worse).
count() {
	local flag=
	[ "$3" = - ] || flag=--test=$3
	"$RAIDLAB" compare --json $flag "$4" >"$tmp/cmp.json" ||
		{ echo "$me: compare $flag $4 failed" >&2; return 1; }
	jq -r --arg target "$1" --arg lab "$2" --arg test "$3" '
	    [.tests[].rows[] | select(.baseline | not)
	     | select(.verdict as $v | ["better", "worse", "same", "unsure",
	                                "no_difference"] | index($v))] as $c
	    | [$target,
	       (if $test == "-" then "welch" else $test end), $lab,
	       ($c | length),
	       ([$c[] | select(.p != null and .p < 0.05)] | length),
	       ([$c[] | select(.verdict == "better" or .verdict == "worse")]
	        | length)]
	    | @tsv' "$tmp/cmp.json"
}

load() { cut -d, -f3- /proc/loadavg 2>/dev/null | awk '{ print $1, $2, $3 }'; }

load0=$(load)
start=$SECONDS
: >"$tmp/counts"
for t in $TARGETS; do
	mount_target "$t" || { echo "$me: cannot make the $t target" >&2; exit 1; }
	for i in $(seq "$K"); do
		res=$tmp/res-$t-$i
		lab "$tmp/lab.cfg" "$res" "$(bonnie_params "$t")"
		s=$SECONDS
		"$RAIDLAB" run "$tmp/lab.cfg" >/dev/null 2>"$tmp/run.err" ||
			{ echo "$me: $t lab $i: run failed:" >&2; cat "$tmp/run.err" >&2; exit 1; }
		rec=$(ls "$res"/aa-*.json)
		[ -z "$KEEP" ] || cp "$rec" "$KEEP/$t-$i.json"
		for x in $(tests "$rec"); do
			count "$t" "$i" "$x" "$rec" >>"$tmp/counts" || exit 1
		done
		echo "$me: $t lab $i of $K: $((SECONDS - s)) s, load $(load)," \
			"$(tail -n 1 "$tmp/counts" | cut -f4) cells" >&2
	done
	rm -rf "${mnt:?}"/v*
	release
	rm -f "$tmp/ext4.img"
done

echo "$K labs a target of $N identical variants, $R interleaved repeats;" \
	"$((SECONDS - start)) s; load average before $load0, after $(load)"
echo
# Wilson's 95% interval of k in n, in percent.
awk -F '\t' '
function wilson(k, n, s,   z, p, c, h) {
	z = 1.959964; p = k / n
	c = (p + z * z / (2 * n)) / (1 + z * z / n)
	h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
	return sprintf("%.0f-%.0f", 100 * (c - h), 100 * (c + h))
}
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	cells[key] += $4; nb[key] += $5; na[key] += $6; labs[key]++
	lb[key] += $5 > 0; la[key] += $6 > 0
}
END {
	printf "| target | test | correction | cells | false diffs | per cell | labs | labs with any | per lab (95%% CI) |\n"
	printf "|---|---|---|---:|---:|---:|---:|---:|---:|\n"
	for (i = 1; i <= nk; i++) {
		split(order[i], k, SUBSEP)
		key = order[i]
		printf "| %s | %s | before (p < 0.05) | %d | %d | %.1f%% | %d | %d | %.0f%% (%s) |\n",
		    k[1], k[2], cells[key], nb[key],
		    cells[key] ? 100 * nb[key] / cells[key] : 0, labs[key], lb[key],
		    100 * lb[key] / labs[key], wilson(lb[key], labs[key])
		printf "| %s | %s | after (verdict) | %d | %d | %.1f%% | %d | %d | %.0f%% (%s) |\n",
		    k[1], k[2], cells[key], na[key],
		    cells[key] ? 100 * na[key] / cells[key] : 0, labs[key], la[key],
		    100 * la[key] / labs[key], wilson(la[key], labs[key])
	}
}' "$tmp/counts"
