#!/bin/sh
# Run charts of short workloads: a workload shorter than a tick still
# shows its figure (its result's rate, not "peak 0"); a variant's rounds
# (interleaved order) are overlaid as lines of their own names.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

cat >"$TEST_TMP/short.cfg" <<EOF2
name = "short"; cache = "keep"; results = "$TEST_TMP/results";
repeats = 3; order = "interleaved";
variants = ( { name = "tmpdir"; directory = "$TEST_TMP/tmpdir"; } );
workloads = ( { name = "w"; type = "smallfiles"; count = 40; dirs = 2; } );
EOF2

TUI_COLS=120 TUI_ROWS=40 TUI_ENV=
for mode in colour ascii; do
	case $mode in
	colour) tui_start "$TEST_TMP/short.cfg" ;;
	ascii) tui_start --ascii "$TEST_TMP/short.cfg" ;;
	esac
	tui_wait_for 'short'
	tui_keys F5
	tui_wait_for 'Finished|Stopped' 120
	s=$(tui_screen)
	# the files/s title: a figure that is not 0
	printf '%s\n' "$s" | grep -Eq 'files/s (now )?[0-9.]+[kMG]? .*peak [1-9]' ||
		{ tui_dump; fail "$mode: a short workload shows no files/s peak"; }
	# the two overlaid rounds have names of their own
	printf '%s\n' "$s" | grep -q 'line: tmpdir round 2 (done)' ||
		{ tui_dump; fail "$mode: no 'tmpdir round 2' line"; }
	printf '%s\n' "$s" | grep -q 'line: tmpdir round 1 (done)' ||
		{ tui_dump; fail "$mode: no 'tmpdir round 1' line"; }
	[ "$(printf '%s\n' "$s" | grep -c 'line: tmpdir (done)')" -eq 0 ] ||
		{ tui_dump; fail "$mode: rounds share a name"; }
	tui_keys q
	tui_wait_exit >/dev/null
	tui_check_stderr
done
echo "tui charts-short: ok"
