#!/bin/sh
# The rounds of repeats on the real binary, with directory variants: order
# = "interleaved" (the default) runs round 1 of every variant, then round
# 2 starting one variant later, ...; order = "grouped" runs variant after
# variant; a range of repeats
# stops where its record says, and the record's own figures agree: the
# goal is met at the round it stopped (recomputed here in python3 with
# Student's t from a table) and at no round before it, or max was reached
# without it. Whatever the machine's speed, each outcome is checked for
# what it claims.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq
need_cmd python3

# lab NAME MORE VARIANTS: a lab of tiny smallfiles runs on directory
# variants v1..vN under $TEST_TMP; MORE: top-level keys.
lab() {
	{
		printf 'name = "%s";\ncache = "keep";\n%s\nvariants = (\n' "$1" "$2"
		i=1
		while [ "$i" -le "$3" ]; do
			[ "$i" -gt 1 ] && printf ',\n'
			printf '  { name = "v%d"; directory = "%s/d%d"; }' "$i" "$TEST_TMP" "$i"
			i=$((i + 1))
		done
		printf '\n);\nworkloads = (\n  { name = "tiny"; type = "smallfiles"; '
		printf 'counts = [30, 60]; size = "1K"; sync = false; }\n);\n'
	} >"$TEST_TMP/$1.cfg"
}

# run NAME: run lab NAME; the path of its record.
run() {
	"$RAIDLAB" run "$TEST_TMP/$1.cfg" --results "$TEST_TMP/res-$1" \
		>"$TEST_TMP/$1.out" 2>"$TEST_TMP/$1.err" ||
		fail "$1: raidlab run: exit $?: $(cat "$TEST_TMP/$1.err")"
	ls "$TEST_TMP"/res-"$1"/"$1"-*.json
}

order_of() {
	jq -r '[.runs[] | "\(.variant.name) r\(.repeat)"] | join(", ")' "$1"
}

# ---------------------------------------------------------------- interleaved
lab il 'repeats = 3;' 3
rec=$(run il)
expect_eq "interleaved: the runs' order" "$(order_of "$rec")" \
	"v1 r1, v2 r1, v3 r1, v2 r2, v3 r2, v1 r2, v3 r3, v1 r3, v2 r3"
expect_eq "interleaved: the record says the order" \
	"$(jq -r .rounds.order "$rec")" interleaved
expect_eq "interleaved: fixed rounds" \
	"$(jq -r '"\(.rounds.stopped) \(.rounds.done) \(.rounds.min) \(.rounds.max) \(.rounds.ci_goal)"' "$rec")" \
	"fixed 3 3 3 null"
expect_eq "interleaved: a pair per variant" "$(jq -r '.rounds.pairs | length' "$rec")" 3
expect_eq "interleaved: cv_limit by default" "$(jq -r .rounds.cv_limit "$rec")" 0.05

# ---------------------------------------------------------------- grouped
lab gr 'repeats = 3; order = "grouped"; cv_limit = "7.5%";' 3
rec=$(run gr)
expect_eq "grouped: the runs' order" "$(order_of "$rec")" \
	"v1 r1, v1 r2, v1 r3, v2 r1, v2 r2, v2 r3, v3 r1, v3 r2, v3 r3"
expect_eq "grouped: the record says the order" "$(jq -r .rounds.order "$rec")" grouped
expect_eq "grouped: cv_limit as set" "$(jq -r .rounds.cv_limit "$rec")" 0.075

# ---------------------------------------------------------------- dry run
out=$("$RAIDLAB" run --dry-run "$TEST_TMP/il.cfg" 2>/dev/null)
expect_match "dry run: the order" "$out" '^# order = interleaved: round 1 of every variant'

# ---------------------------------------------------------------- range
lab rg 'repeats = { min = 3; max = 5; ci = "50%"; };' 2
rec=$(run rg)
expect_eq "range: min, max, goal" \
	"$(jq -r '"\(.rounds.min) \(.rounds.max) \(.rounds.ci_goal)"' "$rec")" "3 5 0.5"
expect_match "range: why, in words" "$(jq -r .rounds.why "$rec")" '[a-z]'
python3 - "$rec" <<'EOF' || fail "range: the record's stop disagrees with its figures"
import json, math, sys

# t(0.975, df) from a t table, df 1..4 (at most 5 rounds).
T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}
rec = json.load(open(sys.argv[1]))
r = rec["rounds"]
lo, hi, goal, done = r["min"], r["max"], r["ci_goal"], r["done"]

def figures(variant, key, k):
    """The figures that count of a test in rounds 1..k."""
    return [t["value"] for run in rec["runs"]
            if run["variant"]["name"] == variant and run["repeat"] <= k
            and run.get("status") == "ok"
            for t in run.get("tests", [])
            if t["key"] == key and not t["too_fast"] and not t["interrupted"]]

def met(k):
    if k < lo:
        return False
    for run in rec["runs"]:
        for t in run.get("tests", []):
            v = figures(run["variant"]["name"], t["key"], k)
            if not v:
                continue  # never counts: taken as sure
            if len(v) < lo or len(v) < 2:
                return False
            n = len(v)
            mean = sum(v) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
            if T[n - 1] * sd / math.sqrt(n) > goal * abs(mean):
                return False
    return True

for p in r["pairs"]:
    assert p["done"] == done and p["stopped"] in ("goal", "max"), p
if r["stopped"] == "goal":
    assert met(done), "goal claimed but not met at %d" % done
else:
    assert r["stopped"] == "max" and done == hi and not met(done), r
# It stops at the first round the goal is met: not met at any before.
for k in range(lo, done):
    assert not met(k), "the goal was met at round %d already" % k
print("range: stopped %s after %d rounds" % (r["stopped"], done))
EOF
expect_eq "range: every round of every variant" \
	"$(jq -r '.runs | length' "$rec")" "$(($(jq -r .rounds.done "$rec") * 2))"

# run --repeats N overrides a range with exactly N rounds.
"$RAIDLAB" run -r 1 "$TEST_TMP/rg.cfg" --results "$TEST_TMP/res-r1" \
	>/dev/null 2>&1 || fail "range: run -r 1 failed"
rec=$(ls "$TEST_TMP"/res-r1/rg-*.json)
expect_eq "--repeats 1: exactly one round, fixed" \
	"$(jq -r '"\(.rounds.stopped) \(.rounds.done) \(.runs | length)"' "$rec")" "fixed 1 2"

exit 0
