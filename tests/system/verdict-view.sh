#!/bin/sh
# Nothing on screen contradicts the verdict. A two-directory lab runs
# (3 repeats, two tests, cache "keep": no root), then its figures are
# rewritten with python3 so that the verdicts do not ride on the
# machine's speed:
#  - "same": the two variants' figures overlap (100 300 200 against
#    110 290 210): every verdict is "can't tell", so no output stars a
#    best (compare text and JSON, the text report, Markdown, HTML) and
#    the HTML colours no cell; their interval of the mean would reach
#    below 0 (200 -/+ 248), the shown one (the geometric mean's,
#    recomputed by verdict-check.py) stays above 0, and so does every
#    number on the HTML charts' axes;
#  - "diff": two is 100 above one with a spread of 1: it is the proven
#    best of every test, starred in every output;
#  - the text report leads with the answer: the first test's verdict
#    within its first 20 lines; a caveat the two variants share (the
#    data set fits in RAM) is said once for both, and an unstable
#    sample's reasons once under its test, not again in every answer.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq python3
need_scipy

check=${top_srcdir:-.}/tests/system/verdict-check.py
cat >"$TEST_TMP/lab.cfg" <<EOF
name = "view";
description = "Does the second directory keep up with the first?";
repeats = 3;
order = "interleaved";
cache = "keep";
results = "$TEST_TMP/results";
variants = (
  { name = "one"; directory = "$TEST_TMP/a"; },
  { name = "two"; directory = "$TEST_TMP/b"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; counts = [100, 200]; size = "4K";
    dirs = 2; }
);
EOF
"$RAIDLAB" run "$TEST_TMP/lab.cfg" >/dev/null 2>"$TEST_TMP/run.err" ||
	fail "run: $(cat "$TEST_TMP/run.err")"
rec=$(ls "$TEST_TMP"/results/view-*.json)

# rewrite OUT ONE TWO: the record with the n-th repeat of each test of
# variant one given the n-th figure of ONE, two's of TWO.
rewrite() {
	python3 - "$rec" "$1" "$2" "$3" <<'EOF' || fail "python3: rewrite $1"
import json, sys
rec = json.load(open(sys.argv[1]))
figs = {"one": [float(x) for x in sys.argv[3].split()],
        "two": [float(x) for x in sys.argv[4].split()]}
seen = {}
for run in rec["runs"]:
    v = run["variant"]["name"]
    i = seen.get(v, 0)
    seen[v] = i + 1
    for t in run["tests"]:
        t["value"] = figs[v][i]
        t["too_fast"] = False
json.dump(rec, open(sys.argv[2], "w"), indent=1)
EOF
}
rewrite "$TEST_TMP/same.json" "100 300 200" "110 290 210"
rewrite "$TEST_TMP/diff.json" "100 101 102" "200 201 202"

# outputs REC: compare (text, JSON), report (text, Markdown, HTML).
outputs() {
	"$RAIDLAB" compare "$1" >"$TEST_TMP/cmp.txt" || fail "compare $1"
	"$RAIDLAB" compare --json "$1" >"$TEST_TMP/cmp.json" ||
		fail "compare --json $1"
	"$RAIDLAB" report "$1" >"$TEST_TMP/report.txt" || fail "report $1"
	"$RAIDLAB" report --markdown "$1" >"$TEST_TMP/report.md" ||
		fail "report --markdown $1"
	"$RAIDLAB" report --html -o "$TEST_TMP/report.html" "$1" ||
		fail "report --html $1"
	"$PY" "$check" "$TEST_TMP/cmp.json" "$1" >"$TEST_TMP/check.out" \
		2>&1 || fail "verdict-check $1: $(cat "$TEST_TMP/check.out")"
}
star=$(printf '\342\230\205')

# ---- every verdict "can't tell": no best anywhere, no colour
outputs "$TEST_TMP/same.json"
expect_eq "same: the verdicts" \
	"$(jq -c '[.tests[].rows[] | select(.baseline | not) | .verdict]' \
	"$TEST_TMP/cmp.json")" '["unsure","unsure"]'
expect_eq "same: checked outside" "$(tail -n 1 "$TEST_TMP/check.out")" \
	"checked 2 cells against the baseline"
expect_eq "same: no best in the JSON" \
	"$(jq -c '[.tests[].rows[] | select(.best)] | length' \
	"$TEST_TMP/cmp.json")" 0
grep -E '^  \* ' "$TEST_TMP/cmp.txt" &&
	fail "same: compare stars a best"
grep -E '^  \* ' "$TEST_TMP/report.txt" &&
	fail "same: the text report stars a best"
grep -E '^\| \* \|' "$TEST_TMP/report.md" &&
	fail "same: the Markdown stars a best"
# (a star after a tag: in a cell or on a chart; the legends explain it)
grep -q ">$star" "$TEST_TMP/report.html" &&
	fail "same: the HTML stars a best"
grep -q 'class="num[^"]*" style="background' "$TEST_TMP/report.html" &&
	fail "same: the HTML colours a cell better or worse"
# 200 -/+ t(0.975, 2) x 100 / sqrt(3) reaches -48; rates are above 0
expect_eq "same: every interval above 0" \
	"$(jq -c '[.tests[].rows[] | .ci_lo > 0 and .ci_hi > .ci_lo] | unique' \
	"$TEST_TMP/cmp.json")" '[true]'
python3 - "$TEST_TMP/report.html" <<'EOF' || fail "same: a chart axis below 0"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
ticks = re.findall(r'<text[^>]*>([^<]*)</text>', page)
neg = [t for t in ticks if re.fullmatch(r'[-\u2212][0-9][0-9.,e+]*', t)]
if not ticks or neg:
    sys.exit("axis labels below 0: %r" % neg)
EOF

# ---- a proven difference: two is the best, starred everywhere
outputs "$TEST_TMP/diff.json"
expect_eq "diff: the verdicts" \
	"$(jq -c '[.tests[].rows[] | select(.baseline | not) | .verdict]' \
	"$TEST_TMP/cmp.json")" '["better","better"]'
expect_eq "diff: the best in the JSON" \
	"$(jq -c '[.tests[].rows[] | select(.best) | .variant]' \
	"$TEST_TMP/cmp.json")" '["two","two"]'
expect_eq "diff: compare stars two" \
	"$(grep -cE '^  \* two ' "$TEST_TMP/cmp.txt")" 2
expect_eq "diff: the text report stars two" \
	"$(grep -cE '^  \* two ' "$TEST_TMP/report.txt")" 2
expect_eq "diff: the Markdown stars two" \
	"$(grep -cE '^\| \* \| two \|' "$TEST_TMP/report.md")" 2
grep -q ">$star" "$TEST_TMP/report.html" || fail "diff: the HTML stars no best"
grep -q 'class="num best" style="background' "$TEST_TMP/report.html" ||
	fail "diff: the HTML colours no best"

# ---- the text report leads with the answer, caveats said once
first=$(grep -nE '^  - small: .*two' "$TEST_TMP/report.txt" | head -n 1)
[ -n "$first" ] && [ "${first%%:*}" -le 20 ] ||
	fail "the first verdict is not within 20 lines: ${first:-none}"
expect_match "the answer says the verdict" \
	"$(head -n 20 "$TEST_TMP/report.txt" | tr '\n' ' ' | tr -s ' ')" \
	'- small: 200 files of 4K in 2 dirs: two [0-9.]+% faster than one \(p = [0-9.e-]+\)'
outputs "$TEST_TMP/same.json"
# one per data set (100 and 200 files), not per variant and data set
expect_eq "the shared caveat, once per data set" \
	"$(tr '\n' ' ' <"$TEST_TMP/report.txt" | tr -s ' ' |
	grep -o 'small on one, two: the data set ([0-9.]*K) fits in RAM' |
	wc -l)" 2
# an unstable sample's reasons under its test once, not again in each
# answer that rests on it
expect_eq "unstable reasons: one line per sample and test" \
	"$(grep -cE '^  ! (one|two): CV ' "$TEST_TMP/report.txt")" 4
tr '\n' ' ' <"$TEST_TMP/report.txt" | tr -s ' ' |
	grep -q 'rests on an unstable sample' &&
	fail "an answer repeats its sample's reasons"
exit 0
