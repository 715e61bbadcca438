#!/bin/sh
# raidlab compare: a two-variant directory lab run twice (3 repeats, no
# root: cache "keep"). Every cell's mean, sample standard deviation and
# change against the baseline are recomputed with jq from the records'
# own figures; a best is starred only where the verdict proves it (the
# higher mean when beta is better or worse, none when it is the same or
# can't tell); the verdicts are recomputed with scipy (verdict-check.py);
# the text, JSON and CSV say the same; --test and --equivalence choose
# how verdicts are reached; -b moves the baseline
# (none: no percentages); two records are never pooled; a stored
# fixture's scratch variant is labelled; bad files exit 1 and bad
# usage 2, naming what is wrong. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_scipy

ab_lab "$TEST_TMP/lab.cfg" cmp 3 '{ name = "small"; type = "smallfiles";
    counts = [200, 400]; size = "1K"; dirs = 2; }'
"$RAIDLAB" run "$TEST_TMP/lab.cfg" >/dev/null 2>"$TEST_TMP/run.err" ||
	fail "run 1"
rec1=$(ls "$TEST_TMP"/results/cmp-*.json)
expect_match "run: says how to compare" "$(cat "$TEST_TMP/run.err")" \
	"^raidlab run: the variants side by side: raidlab compare $rec1\$"
sleep 1 # a new record name
"$RAIDLAB" run "$TEST_TMP/lab.cfg" >/dev/null 2>&1 || fail "run 2"
rec2=$(ls "$TEST_TMP"/results/cmp-*.json | grep -v "^$rec1\$")
[ -f "$rec1" ] && [ -f "$rec2" ] || fail "two records expected"

# figures REC VARIANT KEY: the repeats' figures that count (ok, not too
# fast), from the record itself.
figures() {
	jq -c --arg v "$2" --arg k "$3" '[.runs[] | select(.variant.name ==
	    $v and .status == "ok") | .tests[] | select(.key == $k and
	    (.too_fast | not)) | .value]' "$1"
}
# stats JSON-ARRAY: "mean sd" (sample standard deviation).
stats() {
	printf '%s' "$1" | jq -r '(add / length) as $m | "\($m) \(if length > 1
	    then ([.[] | (. - $m) * (. - $m)] | add / (length - 1) | sqrt)
	    else 0 end)"'
}
# close A B: equal to 9 significant digits.
close() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
	    m = a < 0 ? -a : a; exit !(d <= 1e-9 * (m > 1 ? m : 1)) }'
}

# ---- one record: numbers against jq
out=$("$RAIDLAB" compare --json "$rec1" 2>"$TEST_TMP/err")
expect_eq "compare --json: exit status" "$?" 0
expect_eq "compare --json: stderr" "$(cat "$TEST_TMP/err")" ""
expect_eq "tests" "$(printf '%s' "$out" | jq -r '[.tests[].key] | join(",")')" \
	"files_200,files_400"
for key in files_200 files_400; do
	cell() { printf '%s' "$out" | jq -r --arg k "$key" --arg v "$1" \
	    ".tests[] | select(.key == \$k) | .rows[] | select(.variant == \$v)
	    | .$2"; }
	set -- $(stats "$(figures "$rec1" alpha "$key")")
	am=$1 asd=$2
	set -- $(stats "$(figures "$rec1" beta "$key")")
	bm=$1 bsd=$2
	expect_eq "$key alpha repeats" "$(cell alpha n)" 3
	close "$(cell alpha mean)" "$am" || fail "$key alpha mean $(cell alpha mean) != $am"
	close "$(cell alpha sd)" "$asd" || fail "$key alpha sd $(cell alpha sd) != $asd"
	close "$(cell beta mean)" "$bm" || fail "$key beta mean $(cell beta mean) != $bm"
	close "$(cell beta sd)" "$bsd" || fail "$key beta sd $(cell beta sd) != $bsd"
	expect_eq "$key alpha is the baseline" "$(cell alpha baseline)" true
	pct=$(awk -v a="$am" -v b="$bm" 'BEGIN { printf "%.17g", (b - a) / a * 100 }')
	close "$(cell beta pct)" "$pct" || fail "$key beta pct $(cell beta pct) != $pct"
	verdict=$(cell beta verdict)
	case $verdict in
	better) best=beta ;;
	worse) best=alpha ;;
	*) best= ;;
	esac
	# a proven best has the higher files/s
	[ -z "$best" ] || expect_eq "$key $best is the higher files/s" \
		"$(awk -v a="$am" -v b="$bm" 'BEGIN { print (b > a) ? "beta" : "alpha" }')" "$best"
	expect_eq "$key: the starred rows" \
		"$(printf '%s' "$out" | jq -r --arg k "$key" '[.tests[] |
		select(.key == $k) | .rows[] | select(.best) | .variant] |
		join(" ")')" "$best"

	# The text says the same: the best starred (if proven), beta's
	# verdict as the JSON has it, and the answer sentence.
	text=$("$RAIDLAB" compare "$rec1")
	# the test's own block ("small: 200 files ..." to the blank line):
	# the other test's star is not this one's
	block=$(printf '%s\n' "$text" | awk -v h="small: ${key#files_} files" \
		'index($0, h) == 1 { on = 1 } on && /^$/ { exit } on')
	[ -n "$block" ] || fail "$key: no block in the text: $text"
	if [ -n "$best" ]; then
		expect_match "$key: text best" "$block" "^  \\* $best +[0-9]"
	elif printf '%s\n' "$block" | grep -q '^  \*'; then
		fail "$key: a star where no difference is proven: $block"
	fi
	case $verdict in
	same) vt='same ±2%' ;;
	unsure) vt='\? ([-+][0-9.]+\.\.[-+][0-9.]+%|p=[0-9.]+)' ;;
	better|worse) vt='[-+][0-9.]+% ±([0-9.]+%|\?)' ;;
	*) fail "$key: beta's verdict $verdict with 3 repeats each" ;;
	esac
	expect_match "$key: text verdict" "$block" \
		"^  .? beta +[0-9.]+ ± [0-9.]+ +3 runs +$vt( !)?( +[a-z -]+)?\$"
	answer=$(cell beta answer)
	expect_match "$key: answer in the text" "$text" \
		"^  $(printf '%s' "$answer" | sed 's/[][\\.*^$()+?{}|]/\\&/g')\$"
done
expect_match "text: baseline line" "$text" '^Baseline: alpha; \* marks a best proven after the correction'
expect_match "text: beta's summary" "$text" \
	'^  beta: [0-9.]+% (faster|slower) than alpha overall \(geometric mean of 2 tests, 95% CI [-+][0-9.]+% to [-+][0-9.]+%\): [0-9]'
expect_match "text: the method" "$text" \
	'^Verdicts by the log test \(Welch.s t-test on logarithms\); same = within ±2% \(TOST\); 2 comparisons, Benjamini-Hochberg at 5%, intervals at (95|97\.5)%\.$'
expect_match "text: test heading" "$text" \
	'^small: 200 files of 1K in 2 dirs \(files/s, higher is better\)$'
expect_match "text: baseline row" "$text" \
	'^  .? alpha +[0-9.]+ ± [0-9.]+ +3 runs +baseline( !)?( +[a-z -]+)?$'

# ---- the statistics, recomputed outside raidlab from the record
"$RAIDLAB" compare --json "$rec1" >"$TEST_TMP/cmp.json" || fail "compare --json"
"$PY" "${top_srcdir:-.}/tests/system/verdict-check.py" "$TEST_TMP/cmp.json" \
	"$rec1" >"$TEST_TMP/check.out" 2>&1 ||
	fail "verdict-check: $(cat "$TEST_TMP/check.out")"
expect_match "verdict-check: every test" "$(cat "$TEST_TMP/check.out")" \
	'^checked 2 cells against the baseline$'

# ---- CSV: the same cells, one line each
csv=$("$RAIDLAB" compare --csv "$rec1")
expect_eq "csv: lines" "$(printf '%s\n' "$csv" | wc -l)" 5
expect_eq "csv: header" "$(printf '%s\n' "$csv" | head -n 1)" \
	"workload,key,label,unit,variant,record,n,mean,sd,pct,best,failed,too_fast,interrupted,cv,median,min,max,ci_lo,ci_hi,pct_lo,pct_hi,p,q,verdict,marks,why,quantile,op,host"
m=$(printf '%s\n' "$csv" | awk -F, '$2 == "files_400" && $5 == "beta" { print $8 }')
close "$m" "$(printf '%s' "$out" | jq -r '.tests[1].rows[1].mean')" ||
	fail "csv mean $m differs from --json"

# ---- -b: another baseline, or none
out=$("$RAIDLAB" compare -j -b beta "$rec1")
expect_eq "-b beta: baseline" \
	"$(printf '%s' "$out" | jq -r '.tests[0].rows[] | select(.baseline) | .variant')" beta
set -- $(stats "$(figures "$rec1" alpha files_200)")
am=$1
set -- $(stats "$(figures "$rec1" beta files_200)")
bm=$1
pct=$(awk -v a="$am" -v b="$bm" 'BEGIN { printf "%.17g", (a - b) / b * 100 }')
close "$(printf '%s' "$out" | jq -r '.tests[0].rows[0].pct')" "$pct" ||
	fail "-b beta: alpha's change"
out=$("$RAIDLAB" compare -j -b none "$rec1")
expect_eq "-b none: no percentages" \
	"$(printf '%s' "$out" | jq -c '[.tests[].rows[].pct] | unique')" "[null]"
expect_match "-b none: text" "$("$RAIDLAB" compare -b none "$rec1")" \
	'^No baseline; \* marks a best proven after the correction'

# ---- --test and --equivalence: every verdict by the test chosen,
# recomputed outside; the JSON says which, and so does the text
for t in welch rank log; do
	"$RAIDLAB" compare --json --test=$t --equivalence=5% "$rec1" \
		>"$TEST_TMP/cmp.json" || fail "compare --test=$t"
	expect_eq "--test=$t: the JSON's test" \
		"$(jq -r '"\(.test) \(.method.equivalence)"' "$TEST_TMP/cmp.json")" "$t 5"
	"$PY" "${top_srcdir:-.}/tests/system/verdict-check.py" \
		"$TEST_TMP/cmp.json" "$rec1" >"$TEST_TMP/check.out" 2>&1 ||
		fail "verdict-check --test=$t: $(cat "$TEST_TMP/check.out")"
done
expect_match "--test=rank: the text" \
	"$("$RAIDLAB" compare -t rank -e 0.5% "$rec1")" \
	'^Verdicts by the rank test \(Mann-Whitney U, Hodges-Lehmann shift\); same = within ±0\.5% \(TOST\)'

# ---- two records: rows of each, never pooled
out=$("$RAIDLAB" compare -j "$rec1" "$rec2")
expect_eq "two records: rows" \
	"$(printf '%s' "$out" | jq -r '[.tests[0].rows[] | "\(.variant)#\(.record):\(.n)"] | join(" ")')" \
	"alpha#1:3 beta#1:3 alpha#2:3 beta#2:3"
set -- $(stats "$(figures "$rec2" beta files_400)")
close "$(printf '%s' "$out" | jq -r '.tests[1].rows[3].mean')" "$1" ||
	fail "two records: record 2's beta mean"
text=$("$RAIDLAB" compare "$rec1" "$rec2")
expect_match "two records: listed" "$text" "^#2  cmp [0-9-]+ [0-9:]+  $rec2$"
expect_match "two records: row names" "$text" '^  .? beta #2 +[0-9]'

# ---- a stored record with a scratch variant that has no figures
text=$("$RAIDLAB" compare "$TESTDATA/records/fixture-v1.json")
expect_eq "fixture: exit status" "$?" 0
expect_match "fixture: scratch label" "$text" '^~ scratch disks: functional'

# ---- errors
"$RAIDLAB" compare "$rec1" "$TEST_TMP/none.json" >/dev/null 2>"$TEST_TMP/err"
expect_eq "missing file: exit status" "$?" 1
expect_eq "missing file: message" "$(cat "$TEST_TMP/err")" \
	"raidlab compare: $TEST_TMP/none.json: cannot read: No such file or directory"
"$RAIDLAB" compare -b gamma "$rec1" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "-b unknown: exit status" "$?" 2
expect_eq "-b unknown: message" "$(cat "$TEST_TMP/err")" \
	"raidlab compare: no variant named gamma in these records"
[ -s "$TEST_TMP/out" ] && fail "-b unknown: printed a table anyway"
"$RAIDLAB" compare -j -c "$rec1" >/dev/null 2>&1
expect_eq "-j -c: exit status" "$?" 2
"$RAIDLAB" compare --test=ttest "$rec1" >/dev/null 2>"$TEST_TMP/err"
expect_eq "--test=ttest: exit status" "$?" 2
expect_match "--test=ttest: message" "$(cat "$TEST_TMP/err")" \
	"^raidlab compare: --test: 'ttest' is not one of: log, welch, rank\$"
"$RAIDLAB" compare --equivalence=2 "$rec1" >/dev/null 2>"$TEST_TMP/err"
expect_eq "--equivalence=2: exit status" "$?" 2
expect_match "--equivalence=2: message" "$(cat "$TEST_TMP/err")" \
	"^raidlab compare: --equivalence: '2' is not a percent"
"$RAIDLAB" report --test=rank --equivalence=100% "$rec1" >/dev/null \
	2>"$TEST_TMP/err"
expect_eq "report --equivalence=100%: exit status" "$?" 2
"$RAIDLAB" compare >/dev/null 2>&1
expect_eq "no file: exit status" "$?" 2

echo "compare: ok"
