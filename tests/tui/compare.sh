#!/bin/sh
# The Compare screen's verdicts, in tmux at 80x24. A two-variant directory
# lab run for real (3 repeats, no root: cache "keep"), the same lab with
# 2K files (the same test with other parameters), and a record made from
# the first with figures chosen here: alpha at 100 +-1 files/s, beta at
# 150 +-2 (+50%, certain at 95%), gamma not built. The verdict column
# shows the change with its interval for beta, the reason for gamma; the
# answer line says how much faster and how sure; the baseline row says it
# is the baseline; a real row's marks have their reason; a column of the
# other parameters says why it is kept apart. Nothing on stderr.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq

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

# lab NAME SIZE: a two-variant directory lab writing files of SIZE.
lab() {
	cat >"$TEST_TMP/$1.cfg" <<EOF
name = "$1";
repeats = 3;
cache = "keep";
results = "$TEST_TMP/results";
variants = (
  { name = "alpha"; directory = "$TEST_TMP/a"; },
  { name = "beta"; directory = "$TEST_TMP/b"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; counts = [100]; size = "$2";
    dirs = 2; }
);
EOF
}
lab cmp 1K
"$RAIDLAB" run "$TEST_TMP/cmp.cfg" >"$TEST_TMP/run1.out" 2>&1 ||
	fail "raidlab run: $(cat "$TEST_TMP/run1.out")"
rec=$(ls "$TEST_TMP"/results/cmp-*.json)
sleep 1 # a new record name
lab big 2K
"$RAIDLAB" run "$TEST_TMP/big.cfg" >"$TEST_TMP/run2.out" 2>&1 ||
	fail "raidlab run (2K): $(cat "$TEST_TMP/run2.out")"

# The chosen figures, a second per test (not too short to trust), and
# gamma's run skipped as an md variant's is without the md driver. Made
# an hour later, so that the picker lists it first.
jq --arg when "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)" '
	.lab.name = "fixed" | .created = $when |
	{ alpha: [100, 101, 99], beta: [150, 152, 148] } as $v |
	.runs |= map(. as $r | .tests |= map(.wall = 1.0 |
	    .value = $v[$r.variant.name][$r.repeat - 1])) |
	.runs += [.runs[0] | { variant: (.variant | .name = "gamma" |
	    .text = "md RAID1 of two loop devices"), workload, repeat: 1,
	    skipped: "not built: no md driver" }]' "$rec" \
	>"$TEST_TMP/results/fixed-1.json" || fail "jq: the fixed record"
# The change the verdict must show, from the figures above.
pct=$(jq -r '[.runs[] | select(.variant.name != "gamma") |
	{ v: .variant.name, x: .tests[0].value }] | group_by(.v) |
	map(map(.x) | add / length) | (.[1] / .[0] - 1) * 100 |
	. * 10 | round / 10' "$TEST_TMP/results/fixed-1.json")
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
tui_wait_for '^\[ \] .* fixed +ok +[0-9]+ +3 +fixed-1'
tui_keys Enter
tui_wait_for 'Added 3 rows from .*fixed-1\.json'

# ---- layout: on any statistics
tui_wait_for '^  Variant +Verdict: 100 files'
tui_wait_for 'change, 95% CI'
tui_wait_for '^B alpha +baseline +100\.0 ±1\.00 *$'
tui_wait_for '^  beta +.* \*150\.0 ±2\.00 *$'
tui_wait_for '^  gamma +not built: no md driver +- *$'
tui_wait_for '^small 100 files of 1K in 2 dirs, files/s \(higher is better\)'
# The baseline row says so; gamma says why it has no figures.
tui_wait_for '^alpha is the baseline: the other rows are judged against it'
tui_wait_for '^3 runs: 100\.0, 101\.0, 99\.00 files/s'
tui_keys Down Down
tui_wait_for '^gamma: no figures: not built: no md driver'
tui_wait_for '^gamma: md RAID1 of two loop devices; fixed '

# ---- the verdict (real statistics: Welch, Fieller)
tui_keys Up
tui_wait_for '^3 runs: 150\.0, 152\.0, 148\.0 files/s'
tui_wait_for "^  beta +\\+$pct\\.0% ±[0-9.]+% +\\*150\\.0"
wait_line "beta: $pct\\.0% faster than alpha by the log t-test \\(95% CI [0-9.]+% to [0-9.]+%; p < 0\\.001; n = 3 and 3\\)"

# ---- every record of the session: each its own rows, nothing pooled
tui_keys a
tui_wait_for "Add results from $TEST_TMP/results"
tui_keys Down Space Space Enter
tui_wait_for 'Added 2 of 2 record files'
tui_wait_for '^B alpha #1 +baseline'
# a real run's tests last milliseconds: marked, with the reason
tui_keys Down Down Down
tui_wait_for '^  alpha #2 '
tui_wait_for '^[B ] alpha #2 +[^ ].* (cv|trend|outlier|warm-up|short)'
wait_line '! ([^!]*; )?the tests lasted [0-9.e-]+ s: too short to trust'
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
# ---- the report of what the table shows, beside the first record
tui_keys w
wait_line 'Report written to .*report-fixed-1\.txt'
rep=$TEST_TMP/results/report-fixed-1.txt
[ -f "$rep" ] || fail "w: no $rep"
# (the cell's interval is the geometric mean's: lopsided, -a/+b%,
# unless both ends round alike)
grep -Eq "^ +beta #1 +150\.0 (\+-[0-9.]+|-[0-9.]+/\+[0-9.]+)% +3 +\+$pct\.0% \+-" "$rep" ||
	fail "w: the report lacks beta's verdict: $(grep beta "$rep")"
tui_keys W
wait_line 'Report written to .*report-fixed-1\.html'
grep -q '^<!DOCTYPE html>' "$TEST_TMP/results/report-fixed-1.html" ||
	fail "W: no HTML report"
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
