#!/bin/sh
# The Compare screen's verdicts, in tmux at 80x24. A two-variant directory
# lab run for real (3 repeats, no root: cache "keep"), the same lab with
# 2K files (the same test with other parameters), and a record made from
# the first with figures chosen here: alpha at 100 +-1 files/s, beta at
# 150 +-2 (+50%, certain), delta at 100 +-0.5 (the same within +-2%),
# eps at 100 +-5 (can't tell), gamma not built. The verdict column
# shows the three words: beta's change with its interval and "better"
# in green, delta's "same +-2%" uncoloured, eps's "can't tell" with its
# interval in the dim colour, gamma's reason; the answer line says how
# much faster, by which test and how sure; the detail lines give the
# row over all tests and how it was judged; t switches the test (the
# rank test cannot call 3 against 3); the baseline row says it is the
# baseline; a real row's marks have their reason; a column of the other
# parameters says why it is kept apart. Nothing on stderr.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq python3

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
export XDG_STATE_HOME XDG_DATA_HOME
TUI_COLS=80
TUI_ROWS=24

goto() {
	_n=$(tui_screen | head -n 1 | grep -Eo "[0-9] $1" | cut -c1)
	[ -n "$_n" ] || fail "no '$1' tab in the header"
	tui_keys "$_n"
}

# The screen as one line: a sentence wrapped at a blank reads whole.
screen_line() {
	tui_screen | tr '\n' ' '
}

# wait_line ERE: until screen_line matches (10 s).
wait_line() {
	_n=100
	while [ "$_n" -gt 0 ]; do
		screen_line | grep -Eq -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_screen >&2
	fail "the screen never said /$1/"
}

# colour TEXT: the foreground colour (SGR 30-37, 39 for none) the screen
# draws the first TEXT in.
colour() {
	tmx capture-pane -e -p -t "$TUI_SESSION" | python3 -c '
import re, sys
want = sys.argv[1]
for line in sys.stdin.read().split("\n"):
    fg, text, pos = 39, "", 0
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b]+)", line):
        if m.group(2) is not None:
            i = (text + m.group(2)).find(want)
            if i >= 0 and i >= len(text) - len(want):
                print(fg)
                sys.exit(0)
            text += m.group(2)
            continue
        codes = [int(x) for x in m.group(1).split(";") if x] or [0]
        for c in codes:
            if c == 0 or c == 39:
                fg = 39
            elif 30 <= c <= 37:
                fg = c
sys.exit("no " + repr(want) + " on the screen")
' "$1"
}

# lab NAME SIZE: a two-variant directory lab writing files of SIZE.
lab() {
	ab_lab "$TEST_TMP/$1.cfg" "$1" 3 '{ name = "small"; type = "smallfiles";
    counts = [100]; size = "'"$2"'"; dirs = 2; }'
}
lab cmp 1K
"$RAIDLAB" run "$TEST_TMP/cmp.cfg" >"$TEST_TMP/run1.out" 2>&1 ||
	fail "raidlab run: $(cat "$TEST_TMP/run1.out")"
rec=$(ls "$TEST_TMP"/results/cmp-*.json)
sleep 1 # a new record name
lab big 2K
"$RAIDLAB" run "$TEST_TMP/big.cfg" >"$TEST_TMP/run2.out" 2>&1 ||
	fail "raidlab run (2K): $(cat "$TEST_TMP/run2.out")"

# The chosen figures, a second per test (not too short to trust),
# delta and eps as copies of alpha's runs, and gamma's run skipped as an
# md variant's is without the md driver. Made an hour later, so that the
# picker lists it first.
jq --arg when "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)" '
	.lab.name = "fixed" | .created = $when |
	{ alpha: [100, 101, 99], beta: [150, 152, 148],
	  delta: [100, 100.5, 99.5], eps: [95, 105, 100] } as $v |
	.runs += ([.runs[] | select(.variant.name == "alpha") |
	    .variant.name = "delta"] + [.runs[] |
	    select(.variant.name == "alpha") | .variant.name = "eps"]) |
	.runs |= map(. as $r | .tests |= map(.wall = 1.0 |
	    .value = $v[$r.variant.name][$r.repeat - 1])) |
	.runs += [.runs[0] | { variant: (.variant | .name = "gamma" |
	    .text = "md RAID1 of two loop devices"), workload, repeat: 1,
	    skipped: "not built: no md driver" }]' "$rec" \
	>"$TEST_TMP/results/fixed-1.json" || fail "jq: the fixed record"
# The change the verdict must show, from the figures above: the ratio of
# the geometric means (the log test's).
pct=$(jq -r '[.runs[] | select(.variant.name == "alpha" or
	.variant.name == "beta") | { v: .variant.name, x: .tests[0].value }] |
	group_by(.v) | map(map(.x | log) | add / length) |
	(((.[1] - .[0]) | exp) - 1) * 100 | . * 10 | round / 10' \
	"$TEST_TMP/results/fixed-1.json")
expect_eq "the chosen change" "$pct" 50

# A lab of another name: the Compare screen starts empty (cmp's own
# latest results would join by themselves, see labs.sh).
sed 's/^name = "cmp";/name = "cmpview";/' "$TEST_TMP/cmp.cfg" \
	>"$TEST_TMP/cmpview.cfg"
tui_start "$TEST_TMP/cmpview.cfg"
tui_wait_layout 24
goto Compare
tui_wait_for 'No results to compare yet'
tui_keys a
tui_wait_for "Add results from $TEST_TMP/results"
tui_wait_for '^\[ \] .* fixed +ok +[0-9]+ +5 +fixed-1'
tui_keys Enter
tui_wait_for 'Added 5 rows from .*fixed-1\.json'

# ---- layout: on any statistics
tui_wait_for '^  Variant +Verdict: 100 files'
tui_wait_for 'change, [0-9.]+% CI'
tui_wait_for '^B alpha +baseline +100\.0 ±1\.00 *$'
tui_wait_for '^  beta +.* \*150\.0 ±2\.00 *$'
tui_wait_for '^  gamma +not built: no md driver +- *$'
tui_wait_for '^small 100 files of 1K in 2 dirs, files/s \(higher is better\)'
# The baseline row says so; gamma says why it has no figures.
tui_wait_for '^alpha is the baseline: the other rows are judged against it'
tui_wait_for '^3 runs: 100\.0, 101\.0, 99\.00 files/s'
# how the verdicts were reached, once: the test, the margin, the
# correction over the 3 comparisons (beta, delta, eps)
wait_line 'How: the log test .*same = within ±2% .*3 comparisons, Benjamini-Hochberg'
expect_eq "the method line is said once" \
	"$(tui_screen | grep -c 'Benjamini-Hochberg')" 1
tui_keys Down Down Down Down
tui_wait_for '^gamma: no figures: not built: no md driver'
tui_wait_for '^gamma: md RAID1 of two loop devices; fixed '

# ---- the three words (real statistics: the log t-test, TOST, BH)
tui_wait_for "^  beta +\\+$pct\\.0% ±[0-9.]+% better +\\*150\\.0"
tui_wait_for '^  delta +same ±2% +100\.0 ±0\.50 *$'
tui_wait_for "^  eps +can't tell -[0-9.]+\\.\\.\\+[0-9.]+% +100\\.0 ±5\\.00 *\$"
# better in colour (green), the same plain, can't tell dim (blue)
expect_eq "better: green" "$(colour "+$pct.0% ±")" 32
expect_eq "same: no colour" "$(colour 'same ±2%')" 39
expect_eq "can't tell: dim" "$(colour "can't tell -")" 34
tui_keys Up
tui_wait_for '^3 runs: 95\.00, 105\.0, 100\.0 files/s'
wait_line "eps: can't tell against alpha by the log t-test: the [0-9.]+% CI spans -[0-9.]+% to \\+[0-9.]+%"
wait_line 'the smallest change these repeats could show is [0-9.]+% \(80% power\)'
tui_keys Up
tui_wait_for '^3 runs: 100\.0, 100\.5, 99\.50 files/s'
wait_line 'delta: the same as alpha within ±2% by the log t-test'
tui_keys Up
tui_wait_for '^3 runs: 150\.0, 152\.0, 148\.0 files/s'
wait_line "beta: $pct\\.0% faster than alpha by the log t-test \\([0-9.]+% CI [0-9.]+% to [0-9.]+%; p < 0\\.001, (< )?[0-9.]+ after correcting for 3 comparisons; n = 3 and 3\\)"
# the row over every test
wait_line "beta: $pct\\.0% faster than alpha overall"
# ---- t: another test; the rank test cannot tell 3 repeats from 3 (its
# smallest p is 0.1), then back to the log test
tui_keys t
wait_line 'Verdicts by the welch test'
wait_line "beta: $pct\\.0% faster than alpha by Welch's t-test"
tui_keys t
wait_line 'Verdicts by the rank test'
tui_wait_for "^  beta +can't tell "
tui_keys t
wait_line 'Verdicts by the log test'
tui_wait_for "^  beta +\\+$pct\\.0% ±[0-9.]+% better"

# ---- every record of the session: each its own rows, nothing pooled
tui_keys a
tui_wait_for "Add results from $TEST_TMP/results"
tui_keys Down Space Space Enter
tui_wait_for 'Added 2 of 2 record files'
tui_wait_for '^B alpha #1 +baseline'
# a real run's tests last milliseconds: marked, with the reason
tui_keys Down Down Down Down Down
tui_wait_for '^  alpha #2 '
tui_wait_for '^[B ] alpha #2 +[^ ].* (cv|trend|outlier|warm-up|short)'
wait_line '! ([^!]*; )?the tests lasted [0-9.e-]+ s: too short to trust'
# said once: beside the answer, not again inside it
screen_line | grep -q 'rests on an unstable sample' &&
	fail "the answer repeats the marks' reasons"
# the 2K files are another column, kept apart with the reason
tui_keys Right
tui_wait_for '≠ small, files/s'
# (the verdict column's header names its test; at 80 columns a real
# run's wide figures can leave it too narrow for the "2K")
tui_resize 120 40
tui_wait_layout 40
tui_wait_for 'Verdict: 100 files of 2K'
tui_resize 80 24
tui_wait_layout 24
wait_line '≠ kept apart: run with other parameters \(size'
# ---- the report of what the table shows, beside the first record, by
# the test the screen shows
tui_keys t
wait_line 'Verdicts by the welch test'
tui_keys w
wait_line 'Report written to .*report-fixed-1\.txt'
rep=$TEST_TMP/results/report-fixed-1.txt
[ -f "$rep" ] || fail "w: no $rep"
# (the cell's interval is the geometric mean's: lopsided, -a/+b%,
# unless both ends round alike)
grep -Eq "^ +beta #1 +150\.0 (\+-[0-9.]+|-[0-9.]+/\+[0-9.]+)% +3 +\+$pct\.0% \+-[0-9.]+% better" "$rep" ||
	fail "w: the report lacks beta's verdict: $(grep beta "$rep")"
# the answer first, in the same words, by the test the screen used
flat=$(tr '\n' ' ' <"$rep" | tr -s ' ')
expect_match "w: the report's answer" "$flat" \
	"- small: 100 files of 1K in 2 dirs: beta #1 $pct\\.[0-9]% faster than alpha #1 \\(q [<=] [0-9.]+\\)"
expect_match "w: how the report judged" "$flat" \
	"How it was judged: Welch's t-test"
tui_keys W
wait_line 'Report written to .*report-fixed-1\.html'
grep -q '^<!DOCTYPE html>' "$TEST_TMP/results/report-fixed-1.html" ||
	fail "W: no HTML report"
# a record spoilt since it joined: w names it, writes nothing, and the
# screen carries on
big=$(ls "$TEST_TMP"/results/big-*.json)
mv "$big" "$TEST_TMP/big.json"
echo '{' >"$big"
rm -f "$rep"
tui_keys w
wait_line "$big:2: column 0: "
[ ! -e "$rep" ] || fail "w: a report from a spoilt record"
mv "$TEST_TMP/big.json" "$big"
# ---- y copies the screen's text: a file, and the terminal's clipboard
# by OSC 52 (tmux takes it into a paste buffer with set-clipboard on)
tmx set -g set-clipboard on
tmx delete-buffer 2>/dev/null || :
shown=$(tui_screen | sed -n '2,$p' | sed 's/ *$//' | grep -m1 '^B alpha #1')
tui_keys y
wait_line 'Copied: the clipboard \(OSC 52\) and .*/compare-'
copy=$(ls "$TEST_TMP"/results/compare-*.txt) || fail "y: no file"
grep -qxF -- "$shown" "$copy" ||
	fail "y: the file lacks the row shown: '$shown'"
grep -q '≠ small, files/s' "$copy" || fail "y: the file lacks the header"
_n=50
until tmx show-buffer 2>/dev/null | grep -qxF -- "$shown"; do
	_n=$((_n - 1))
	[ "$_n" -gt 0 ] || fail "y: tmux's clipboard buffer lacks the row"
	sleep 0.1
done
tui_screen >"$TEST_TMP/pane.txt"
tui_keys q
expect_eq "compare: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui compare: ok"
