#!/bin/sh
# Verdicts a user can trust, on real runs:
#  - two identical directory variants (the same filesystem): "the same"
#    or "can't tell" for the test in at least 2 labs of 3, and the
#    figures and verdicts recomputed outside raidlab (verdict-check.py,
#    scipy) agree;
#  - tmpfs against an ext4 loop device with fsync on every file: a
#    significant change whose 95% interval excludes 0, in the direction
#    the fsyncs imply, recomputed the same way;
#  - a record whose repeats fall steadily (its figures rewritten with jq)
#    carries the trend mark in compare and show, and the verdict says it
#    rests on an unstable sample.
# Root for the loop device; interleaved repeats, cache "keep".
. "${top_srcdir:-.}/tests/system/lib.sh"
need_root
need_cmd mkfs.ext4
need_scipy

check=${top_srcdir:-.}/tests/system/verdict-check.py

# verdict REC: the JSON of raidlab compare REC, checked by verdict-check.py.
verdict() {
	"$RAIDLAB" compare --json "$@" >"$TEST_TMP/cmp.json" ||
		fail "compare --json $*"
	"$PY" "$check" "$TEST_TMP/cmp.json" "$@" >"$TEST_TMP/check.out" 2>&1 ||
		fail "verdict-check: $(cat "$TEST_TMP/check.out")"
	jq -r '.tests[] | .rows[] | select(.baseline | not) | .verdict' \
		"$TEST_TMP/cmp.json"
}

# ---- the same filesystem twice: the same, or can't tell
# The lab has one test, so its family is that one comparison and the
# correction leaves it at 5%: a right raidlab calls a false difference
# in 1 lab of 20 (bench/same-dirs.sh at these settings, interleaved: 1
# lab of 40, its p-values spread evenly; see bench/README.md). Three
# labs run and at most one may call one: a right raidlab fails this 1
# time in 140 (3 x 0.05^2 x 0.95 + 0.05^3); one that called differences
# half the time would pass 1 time in 2. Rounds are interleaved, so
# drift lands on both variants (grouped, 4 labs of 40 called one).
# 3000 files, not 300: beside two CPU-bound loops and a writer doing
# fsync'd 200 MB files, labs of 300 (tests of about 50 ms, marked
# short) called a false difference in 3 of 40; labs of 3000, 0 of 25.
mkdir -p "$TEST_TMP/same"
cat >"$TEST_TMP/same.cfg" <<EOF
name = "same";
repeats = 5;
order = "interleaved";
cache = "keep";
results = "$TEST_TMP/same/results";
variants = (
  { name = "one"; directory = "$TEST_TMP/same/a"; },
  { name = "two"; directory = "$TEST_TMP/same/b"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; count = 3000; size = "4K";
    dirs = 3; }
);
EOF
diffs=0 rec=
for try in 1 2 3; do
	rm -rf "$TEST_TMP/same/results"
	"$RAIDLAB" run "$TEST_TMP/same.cfg" >/dev/null 2>"$TEST_TMP/run.err" ||
		fail "same: run: $(cat "$TEST_TMP/run.err")"
	r=$(ls "$TEST_TMP"/same/results/same-*.json)
	v=$(verdict "$r")
	if [ "$v" = same ] || [ "$v" = unsure ]; then
		[ -n "$rec" ] || { rec=$TEST_TMP/same-$try.json; cp "$r" "$rec"; }
	else
		diffs=$((diffs + 1))
		echo "same filesystem, lab $try: $v (p = $(jq -r \
			'.tests[0].rows[1].p' "$TEST_TMP/cmp.json"))"
	fi
done
[ "$diffs" -le 1 ] || fail "same filesystem: $diffs labs of 3 called a difference"
verdict "$rec" >/dev/null
same=$rec
expect_match "same: checked" "$(cat "$TEST_TMP/check.out")" \
	'^checked 1 cells against the baseline$'
text=$("$RAIDLAB" compare "$rec")
expect_match "same: answer" "$text" \
	'^  two: (the same as one within ±2% by the log t-test \([-+][0-9.]+%, 90% CI [-+][0-9.]+% to [-+][0-9.]+%: both one-sided tests reject|can.t tell against one by the log t-test: the 95% CI spans [-+][0-9.]+% to [-+][0-9.]+% \([-+][0-9.]+%); p = [01]\.[0-9]+; n = 5 and 5\)'
expect_match "same: the table's verdict" "$text" \
	'^  .? two .* 5 runs +(same ±2%|\? [-+][0-9.]+\.\.[-+][0-9.]+%)'
expect_match "same: the summary" "$text" \
	'^  two: [0-9.]+% (faster|slower) than one overall \(geometric mean of 1 test, 95% CI [-+][0-9.]+% to [-+][0-9.]+%\): 1 (the same|can.t tell)$'
expect_match "same: the method" "$text" \
	'^Verdicts by the log test \(Welch.s t-test on logarithms\); same = within ±2% \(TOST\); 1 comparison, intervals at 95%\.$'

# ---- tmpfs against ext4 with an fsync per file: a real difference
mkdir -p "$TEST_TMP/diff"
mkdir -p "$TEST_TMP/diff/tmpfs"
mount -t tmpfs -o size=64m raidlab-test "$TEST_TMP/diff/tmpfs" ||
	fail "mount tmpfs"
TEST_MOUNTS="$TEST_TMP/diff/tmpfs$NL$TEST_MOUNTS"
new_loop dev 256M
mkfs.ext4 -q "$dev" || fail "mkfs.ext4 $dev"
do_mount "$dev" "$TEST_TMP/diff/ext4"
cat >"$TEST_TMP/diff.cfg" <<EOF
name = "diff";
repeats = 5;
order = "interleaved";
cache = "keep";
results = "$TEST_TMP/diff/results";
variants = (
  { name = "tmpfs"; directory = "$TEST_TMP/diff/tmpfs/d"; },
  { name = "ext4"; directory = "$TEST_TMP/diff/ext4/d"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; count = 2000; size = "4K";
    dirs = 2; fsync = true; }
);
EOF
"$RAIDLAB" run "$TEST_TMP/diff.cfg" >/dev/null 2>"$TEST_TMP/run.err" ||
	fail "diff: run: $(cat "$TEST_TMP/run.err")"
# 2000 files: with 200, tmpfs's tests last 3 ms and their CV reaches
# 80%, so that even a 97% fall is sometimes not proven with 5 repeats.
rec=$(ls "$TEST_TMP"/diff/results/diff-*.json)
expect_eq "diff: ext4 with fsync is slower" "$(verdict "$rec")" worse
expect_match "diff: checked" "$(cat "$TEST_TMP/check.out")" \
	'^checked 1 cells against the baseline$'
hi=$(jq -r '.tests[0].rows[1].pct_hi' "$TEST_TMP/cmp.json")
lo=$(jq -r '.tests[0].rows[1].pct_lo' "$TEST_TMP/cmp.json")
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo < hi && hi < 0) }' ||
	fail "diff: the interval $lo..$hi does not exclude 0"
expect_match "diff: answer" "$("$RAIDLAB" compare "$rec")" \
	'^  ext4: [0-9.]+% slower than tmpfs by the log t-test \(95% CI [0-9.]+% to [0-9.]+%; p (=|<) 0\.[0-9]+; n = 5 and 5\); the smallest change these repeats could show is [0-9.]+% \(80% power\)'

# ---- a steady fall across the repeats: the trend mark
python3 - "$same" "$TEST_TMP/fall.json" \
	<<'EOF' || fail "python3: the falling record"
import json, sys
rec = json.load(open(sys.argv[1]))
i = 0
for run in rec["runs"]:
    if run["variant"]["name"] == "one":
        run["tests"][0]["value"] = 5000 - 900 * i
        i += 1
json.dump(rec, open(sys.argv[2], "w"), indent=1)
EOF
expect_eq "fall: the figures" \
	"$(jq -c '[.runs[] | select(.variant.name == "one") | .tests[0].value]' \
	"$TEST_TMP/fall.json")" "[5000,4100,3200,2300,1400]"
"$RAIDLAB" compare --json "$TEST_TMP/fall.json" >"$TEST_TMP/cmp.json" ||
	fail "compare the falling record"
# (its tests may be short as well on a fast machine)
expect_eq "fall: marks" \
	"$(jq -c '.tests[0].rows[0].marks - ["short"]' "$TEST_TMP/cmp.json")" \
	'["cv","trend"]'
expect_match "fall: the reason" \
	"$(jq -r '.tests[0].rows[0].marks_text' "$TEST_TMP/cmp.json")" \
	'falls across the repeats \(Mann-Kendall tau -1\.00, p = 0\.02\)'
expect_match "fall: the answer says so" \
	"$(jq -r '.tests[0].rows[1].answer' "$TEST_TMP/cmp.json")" \
	'; the verdict rests on an unstable sample: one: CV [0-9.]+% over the 5% limit; falls across'
expect_match "fall: show" "$("$RAIDLAB" show "$TEST_TMP/fall.json")" \
	'^    ! CV [0-9.]+% over the 5% limit; falls across the repeats'
exit 0
