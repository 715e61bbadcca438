#!/bin/sh
# The Compare screen's tail latency, in tmux at 120x30: a two-variant
# directory lab run for real (a fio-style random write job of 1024
# writes, 3 repeats, no root: cache "keep") opens with its results. L
# adds the latency columns after the rate column, the rate column staying
# selected; to the right, p50's figures are each repeat's own percentile
# with their unit; p99.9 (1024 writes a round, it needs 10000) is marked
# few-samples with the reason and no verdict; L again hides them, the
# same test selected. The help lists L. Nothing on stderr.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
export XDG_STATE_HOME XDG_DATA_HOME
TUI_COLS=120
TUI_ROWS=30

# wait_line ERE: until the screen as one line matches (a sentence wrapped
# at a blank reads whole), 10 s scaled.
wait_line() {
	_n=$((100 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		tui_screen | tr '\n' ' ' | grep -Eq -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "the screen never said /$1/"
}

ab_lab "$TEST_TMP/lat.cfg" lat 3 \
	'{ name = "io"; type = "fio"; rw = "randwrite"; size = "4M"; bs = "4K"; }'
"$RAIDLAB" run "$TEST_TMP/lat.cfg" >"$TEST_TMP/run.out" 2>&1 ||
	fail "raidlab run: $(cat "$TEST_TMP/run.out")"
rec=$(ls "$TEST_TMP"/results/lat-*.json)
# alpha's repeats' own p50 as the record has them (ns), written as the
# screen writes a latency: three significant digits in us, ms or s
p50=$(jq -r '.runs[] | select(.variant.name == "alpha") |
	.tests[0].latency.write.p50_ns' "$rec" | awk '
	{ v = $1 / 1000
	  if (v >= 1e6) s = sprintf("%.3g s", v / 1e6)
	  else if (v >= 1e3) s = sprintf("%.3g ms", v / 1e3)
	  else s = sprintf("%.3g µs", v)
	  out = out (NR > 1 ? ", " : "") s }
	END { print out }')
expect_match "the record: alpha's three repeats" "$p50" '^[^,]+, [^,]+, [^,]+$'

tui_start "$TEST_TMP/lat.cfg"
tui_wait_layout 30
tui_keys "$(tui_tab Compare)"
tui_wait_for '^B alpha +baseline'
tui_wait_for 'MB/s \(higher is better\)'

# ---- L: the latency columns, the rate column still selected
tui_keys L
tui_wait_for 'Latency columns: p50, p99, p99\.9 of each test.s main operation'
tui_wait_for 'MB/s \(higher is better\)'
tui_keys Right
tui_wait_for '^io p50 randwrite[^,]*, (µs|us) \(lower is better\)'
tui_wait_for "^3 runs: $(printf '%s' "$p50" | sed 's/\./\\./g')( |;|\$)"
# ---- p99.9 rests on 1024 writes a round: marked, never judged
tui_keys Right Right
tui_wait_for '^io p99\.9 randwrite[^,]*, (µs|us) \(lower is better\)'
tui_wait_for '^  beta +([a-z-]+ )*few-samples'
wait_line '! .*p99\.9 rests on 1024 operations in a round: it needs 10000 \(10 beyond it\), so it is not judged'
# ---- L again: hidden, the same test selected
tui_keys L
tui_wait_for 'Latency columns hidden \(L shows them\)'
tui_wait_for 'MB/s \(higher is better\)'
tui_wait_gone '(µs|us) ↓'
# ---- the help says what L does
tui_keys '?'
tui_wait_for 'tail latency columns on or off'
tui_keys Escape
tui_keys q
expect_eq "compare latency: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui compare latency: ok"
