#!/bin/sh
# The Compare screen on a fleet, in tmux at 120x40: three hosts' records
# made from the stored A/A record as tests/system/compare-fleet.sh makes
# them (tests/data/fleet-host.jq; v2 12% faster on every host), added
# with the picker. The rows are named variant@host and grouped by host
# (h1's v1 v2 v3, then h2's in the same order, though its record lists
# them v3 v2 v1, then h3's); g groups them by variant (v1
# on h1 h2 h3, then v2's, then v3's) and back. On v2@h2 and the 4000
# files test the detail lines give the verdict over the hosts, the
# change recomputed here with jq from the records ("consistently on 3
# of 3 hosts"), and h2's own. With one host's record g says there is
# nothing to group. The help lists g. Nothing on stderr.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
export XDG_STATE_HOME XDG_DATA_HOME
TUI_COLS=120
TUI_ROWS=40

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

# rows: the table's row labels top down (to the blank line above the
# bar chart), on one line.
rows() {
	tui_screen | awk 'NR > 4 && NF == 0 { exit }
	    /^[B ] v[0-9]@h[0-9] / { printf "%s ", $(NF > 0 && $1 == "B" ? 2 : 1) }'
}

# wait_rows WANT: until the table shows these rows in this order.
wait_rows() {
	_n=$((100 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		[ "$(rows)" = "$1" ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "rows '$(rows)', want '$1'"
}

# host NAME SWAP_A SWAP_B MINUTE: a host's record, created at MINUTE so
# that the picker adds h1's first.
mkdir -p "$TEST_TMP/results"
host() {
	jq --arg host "$1" --arg a "$2" --arg b "$3" --argjson quiet 0.1 \
	    --argjson f 1.12 -f "$TESTDATA/fleet-host.jq" "$TESTDATA/aa-ext4.json" |
		jq --arg when "2026-12-04T06:0$4:00Z" '.created = $when' \
		    >"$TEST_TMP/results/aa-$1.json" || fail "fixture $1"
}
host h1 v1 v1 1
host h2 v1 v3 2
host h3 v2 v3 3
# v2's change against v1 in files_4000 over the hosts: the mean of each
# host's log-ratio of geometric means, as a percent with one decimal.
pct=$(jq -s -r '[.[] | [.runs[] | select(.status == "ok") |
    {v: .variant.name, t: (.tests[] | select(.key == "files_4000" and
    (.too_fast | not)))} | select(.v == "v1" or .v == "v2")] |
    ((map(select(.v == "v2") | .t.value | log) | add / length) -
     (map(select(.v == "v1") | .t.value | log) | add / length))] |
    (add / length | exp - 1) * 100' "$TEST_TMP"/results/aa-h*.json |
	xargs printf '%.1f')

ab_lab "$TEST_TMP/view.cfg" fleetview 3 \
	'{ name = "small"; type = "smallfiles"; counts = [100]; size = "1K"; }'
tui_start "$TEST_TMP/view.cfg"
tui_wait_layout 40
tui_keys "$(tui_tab Compare)"
tui_wait_for 'No results to compare yet'
tui_keys a
tui_wait_for "Add results from $TEST_TMP/results"
tui_wait_for 'aa-h3\.json'
tui_keys Space Space Space Enter
tui_wait_for 'Added 3 of 3 record files'

# ---- by host: each host's variants together
tui_wait_for 'rows by host \(g\)'
wait_rows "v1@h1 v2@h1 v3@h1 v1@h2 v2@h2 v3@h2 v1@h3 v2@h3 v3@h3 "
# ---- g: by variant, each variant's hosts together
tui_keys g
wait_line 'Rows by variant: each variant.s hosts together'
tui_wait_for 'rows by variant \(g\)'
wait_rows "v1@h1 v1@h2 v1@h3 v2@h1 v2@h2 v2@h3 v3@h1 v3@h2 v3@h3 "
# Down goes down the rows as shown: the fifth is v2@h2
tui_keys Down Down Down Down Right Right
tui_wait_for '^v2@h2: '
tui_wait_for 'Verdict: 4000 files'
wait_line "Over 3 hosts: v2: $pct% faster than v1 over 3 hosts \\(9[0-9.]*% CI [0-9.]+% to [0-9.]+%; p [^)]*\\), consistently on 3 of 3 hosts"
wait_line 'On this host: h2 +\+[0-9.]+% \([0-9.]+% CI \+[0-9.]+% to \+[0-9.]+%; n = [0-9]+ and [0-9]+\) +faster'
# the baseline's variant
tui_keys Up Up Up
tui_wait_for '^v1@h2: '
wait_line 'Over the hosts: v1 is the baseline on every host'
# ---- g again: by host, the same row kept selected
tui_keys g
wait_rows "v1@h1 v2@h1 v3@h1 v1@h2 v2@h2 v3@h2 v1@h3 v2@h3 v3@h3 "
tui_wait_for '^v1@h2: '
# ---- the help box lists g
tui_keys '?'
wait_line ' g +records of several hosts: rows grouped by host'
tui_keys Escape
tui_wait_gone 'records of several hosts: rows grouped'

# ---- one host: nothing to group, no fleet lines
tui_keys D D D
tui_wait_for 'No results to compare yet'
tui_keys a
tui_wait_for 'aa-h3\.json'
tui_keys Enter
tui_wait_for 'Added [0-9]+ rows from'
tui_keys g
wait_line 'The records come from one host: nothing to group'
tui_screen | grep -q 'Over [0-9]* hosts' && fail "one host has a fleet verdict"
tui_keys q
expect_eq "compare fleet: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui compare fleet: ok"
