#!/bin/sh
# Nothing on screen contradicts the verdict, and every report leads with
# it. A two-directory lab runs (3 repeats, two tests, cache "keep": no
# root), then its figures are rewritten with python3 so that the
# verdicts do not ride on the machine's speed:
#  - "unsure": the two variants' figures overlap (100 300 200 against
#    110 290 210): every verdict is "can't tell", with its interval, so
#    no output stars a best (compare text and JSON, the text report,
#    Markdown, HTML) and the HTML colours no cell; their interval of the
#    mean would reach below 0 (200 -/+ 248), the shown one (the
#    geometric mean's, recomputed by verdict-check.py) stays above 0, and
#    so does every number on the HTML charts' axes;
#  - "same": the same three figures on both sides, 1000 1001 1002: the
#    same within +-2% in every report, in words and (HTML) in grey,
#    never starred or coloured better or worse;
#  - "diff": two is 100 above one with a spread of 1: it is the proven
#    best of every test, starred in every output, "better" in words;
#  - each report leads with the answer: the text report's first verdict
#    within its first 20 lines, the Markdown's and the HTML's before
#    their first table, each with how it was judged; a caveat the two
#    variants share (the data set fits in RAM) is said once for both,
#    and an unstable sample's reasons once under its test, not again in
#    every answer, in every report.
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
# variant one given the n-th figure of ONE, two's of TWO, each timed for
# a second (not too short to trust).
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
        t["wall"] = 1.0
json.dump(rec, open(sys.argv[2], "w"), indent=1)
EOF
}
rewrite "$TEST_TMP/unsure.json" "100 300 200" "110 290 210"
rewrite "$TEST_TMP/same.json" "1000 1001 1002" "1001 1002 1000"
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

# nostar WHAT: no output stars or colours a best.
nostar() {
	expect_eq "$1: no best in the JSON" \
		"$(jq -c '[.tests[].rows[] | select(.best)] | length' \
		"$TEST_TMP/cmp.json")" 0
	grep -E '^  \* ' "$TEST_TMP/cmp.txt" &&
		fail "$1: compare stars a best"
	grep -E '^  \* ' "$TEST_TMP/report.txt" &&
		fail "$1: the text report stars a best"
	grep -E '^\| \* \|' "$TEST_TMP/report.md" &&
		fail "$1: the Markdown stars a best"
	# (a star after a tag: in a cell or on a chart; the legends explain
	# it)
	grep -q ">$star" "$TEST_TMP/report.html" &&
		fail "$1: the HTML stars a best"
	grep -q 'class="num[^"]*" style="background' "$TEST_TMP/report.html" &&
		fail "$1: the HTML colours a cell better or worse"
	grep -Eq 'class="v-(better|worse)"' "$TEST_TMP/report.html" &&
		fail "$1: the HTML colours a verdict better or worse"
	return 0
}

# flat FILE: the file as one line, blanks squeezed (wrapped text whole).
flat() {
	tr '\n' ' ' <"$1" | tr -s ' '
}

# ---- every verdict "can't tell": no best anywhere, no colour
outputs "$TEST_TMP/unsure.json"
expect_eq "unsure: the verdicts" \
	"$(jq -c '[.tests[].rows[] | select(.baseline | not) | .verdict]' \
	"$TEST_TMP/cmp.json")" '["unsure","unsure"]'
expect_eq "unsure: checked outside" "$(tail -n 1 "$TEST_TMP/check.out")" \
	"checked 2 cells against the baseline"
nostar unsure
# the word and the interval, in every report
expect_match "unsure: the text report's answer" \
	"$(flat "$TEST_TMP/report.txt")" \
	"- small: 100 files of 4K in 2 dirs: two: can't tell against one \\(-[0-9.]+% to \\+[0-9.]+%"
expect_eq "unsure: the text tables' word" \
	"$(grep -cE "^  +two +[0-9.]+ .* 3 +can't tell -[0-9.]+\.\.\+[0-9.]+% !$" \
	"$TEST_TMP/report.txt")" 2
grep -Eq "^- \*\*small: 100 files of 4K in 2 dirs\*\*: two: can't tell against one \(" \
	"$TEST_TMP/report.md" || fail "unsure: the Markdown's answer"
grep -Eq '<span class="v-unsure">two: can(&#39;|.)t tell against one \(' \
	"$TEST_TMP/report.html" || fail "unsure: the HTML's answer"
# 200 -/+ t(0.975, 2) x 100 / sqrt(3) reaches -48; rates are above 0
expect_eq "unsure: every interval above 0" \
	"$(jq -c '[.tests[].rows[] | .ci_lo > 0 and .ci_hi > .ci_lo] | unique' \
	"$TEST_TMP/cmp.json")" '[true]'
python3 - "$TEST_TMP/report.html" <<'EOF' || fail "unsure: a chart axis below 0"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
ticks = re.findall(r'<text[^>]*>([^<]*)</text>', page)
neg = [t for t in ticks if re.fullmatch(r'[-\u2212][0-9][0-9.,e+]*', t)]
if not ticks or neg:
    sys.exit("axis labels below 0: %r" % neg)
EOF

# ---- the same within the margin: said so, in grey, no best
outputs "$TEST_TMP/same.json"
expect_eq "same: the verdicts" \
	"$(jq -c '[.tests[].rows[] | select(.baseline | not) | .verdict]' \
	"$TEST_TMP/cmp.json")" '["same","same"]'
nostar same
expect_match "same: the text report's answer" "$(flat "$TEST_TMP/report.txt")" \
	'- small: 100 files of 4K in 2 dirs: two the same as one within \+-2%'
expect_eq "same: the text tables' word" \
	"$(grep -cE '^  +two +1001\.0 .* 3 +same \+-2%$' "$TEST_TMP/report.txt")" 2
grep -q '^- \*\*small: 100 files of 4K in 2 dirs\*\*: two the same as one within ±2%$' \
	"$TEST_TMP/report.md" || fail "same: the Markdown's answer"
expect_eq "same: the Markdown tables' word" \
	"$(grep -cE '^\|  \| two \| 1001\.0 .* \| 3 \| same ±2% \|$' \
	"$TEST_TMP/report.md")" 2
grep -q '<span class="v-same">two the same as one within ±2%</span>' \
	"$TEST_TMP/report.html" || fail "same: the HTML's answer"
expect_eq "same: the HTML tables' word" \
	"$(grep -o '<td class="v-same">same ±2%</td>' "$TEST_TMP/report.html" |
	wc -l)" 2

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
expect_eq "diff: the text report stars two, better" \
	"$(grep -cE '^  \* two .* better$' "$TEST_TMP/report.txt")" 2
expect_eq "diff: the Markdown stars two, better" \
	"$(grep -cE '^\| \* \| two \|.* better \|$' "$TEST_TMP/report.md")" 2
grep -q ">$star" "$TEST_TMP/report.html" || fail "diff: the HTML stars no best"
grep -q 'class="num best" style="background' "$TEST_TMP/report.html" ||
	fail "diff: the HTML colours no best"
expect_eq "diff: the HTML's answers in blue" \
	"$(grep -Eo '<span class="v-better">two [0-9.]+% faster than one \(q (&lt;|=) [0-9.]+\)</span>' \
	"$TEST_TMP/report.html" | wc -l)" 2

# ---- each report leads with the answer
first=$(grep -nE '^  - small: .*two' "$TEST_TMP/report.txt" | head -n 1)
[ -n "$first" ] && [ "${first%%:*}" -le 20 ] ||
	fail "the first verdict is not within 20 lines: ${first:-none}"
expect_match "the answer says the verdict" \
	"$(head -n 20 "$TEST_TMP/report.txt" | tr '\n' ' ' | tr -s ' ')" \
	'- small: 200 files of 4K in 2 dirs: two [0-9.]+% faster than one \(q [<=] [0-9.e-]+\)'
expect_match "the text report says how it was judged" \
	"$(head -n 30 "$TEST_TMP/report.txt" | tr '\n' ' ' | tr -s ' ')" \
	'How it was judged: .*2 comparisons'
# Markdown: the answer, then the first table
md_answer=$(grep -nE '^- \*\*small: .*two [0-9.]+% faster' \
	"$TEST_TMP/report.md" | head -n 1 | cut -d: -f1)
md_table=$(grep -n '^|---' "$TEST_TMP/report.md" | head -n 1 | cut -d: -f1)
[ -n "$md_answer" ] && [ -n "$md_table" ] &&
	[ "$md_answer" -lt "$md_table" ] ||
	fail "Markdown: the first verdict (line ${md_answer:-none}) is not before the first table (line ${md_table:-none})"
grep -q '^How it was judged: .*2 comparisons' "$TEST_TMP/report.md" ||
	fail "Markdown: no method line"
# HTML: the answer section, its first verdict and the method line before
# the first table
python3 - "$TEST_TMP/report.html" <<'EOF' || fail "HTML: the answer does not lead"
import sys
page = open(sys.argv[1], encoding="utf-8").read()
answer = page.find('<h2 id="answer">')
verdict = page.find('<span class="v-better">two ')
table = page.find('<table')
method = page.find('How it was judged: ')
if not (0 <= answer < verdict < table and 0 <= method < table):
    sys.exit("answer at %d, first verdict at %d, method at %d, first "
             "table at %d" % (answer, verdict, method, table))
EOF

# ---- caveats said once
outputs "$TEST_TMP/unsure.json"
# one per data set (100 and 200 files), not per variant and data set
for f in report.txt report.md report.html; do
	expect_eq "$f: the shared caveat, once per data set" \
		"$(flat "$TEST_TMP/$f" |
		grep -o 'small on one, two: the data set ([0-9.]*K) fits in RAM' |
		wc -l)" 2
done
# an unstable sample's reasons under its test once, not again in each
# answer that rests on it
expect_eq "unstable reasons: one line per sample and test (text)" \
	"$(grep -cE '^  ! (one|two): CV ' "$TEST_TMP/report.txt")" 4
expect_eq "unstable reasons: one line per sample and test (Markdown)" \
	"$(grep -cE '^- ! (one|two): CV ' "$TEST_TMP/report.md")" 4
expect_eq "unstable reasons: one line per sample and test (HTML)" \
	"$(grep -cE '<li class="warn">! (one|two): CV ' "$TEST_TMP/report.html")" 4
for f in report.txt report.md report.html; do
	flat "$TEST_TMP/$f" | grep -q 'rests on an unstable sample' &&
		fail "$f: an answer repeats its sample's reasons"
done
exit 0
