#!/bin/sh
# Keys as in htop and mc: F10 quits from any screen, the footer says so,
# and during a run it asks first as q does (a second F10 stops the run,
# tears down what was built, and quits). Colour and --ascii, 80x24.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq

export XDG_DATA_HOME="$TEST_TMP/xdg"
lab="$TEST_TMP/lab.cfg"
cat >"$lab" <<EOF2
name = "tuikeys"; cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/target"; } );
workloads = (
  { name = "big"; type = "smallfiles"; counts = [2000000]; dirs = 100; }
);
EOF2

# F10 on the first screen and on every other one quits at once (no run,
# no changes), in colour and with --ascii; the footer names it.
for opt in "" --ascii; do
	tui_start $opt "$lab"
	tui_wait_for 'tuikeys'
	tui_resize 80 24
	tui_wait_layout 24
	tui_wait_for 'F10 quit'
	tui_keys F10
	expect_eq "F10 ${opt:-colour}: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
	tui_stop
done
tui_start "$lab"
tui_wait_for 'tuikeys'
tui_keys "$(tui_tab Run)"
tui_wait_for 'Press r to run'
tui_keys F10
expect_eq "F10 on the Run screen: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# During a run, F10 asks first; a second F10 stops the run and quits.
tui_start "$lab"
tui_wait_for 'tuikeys'
tui_keys "$(tui_tab Run)"
tui_wait_for 'Press r to run'
tui_keys r
tui_wait_for 'files/s now [0-9]' 20
tui_keys F10
tui_wait_for 'a run is in progress: q or F10 again stops it'
tui_keys F10
expect_eq "F10 F10 during a run: exit status" "$(tui_wait_exit 30)" 0
rec=$(ls "$XDG_DATA_HOME"/raidlab/results/tuikeys-*.json)
expect_eq "F10 F10: record status" "$(jq -r .status "$rec")" interrupted
expect_eq "F10 F10: target clean" "$(ls -A "$TEST_TMP/target")" ""
tui_check_stderr
tui_stop

# The mouse, as the terminal reports it (X10 encoding, what ncurses reads
# for TERM=screen: ESC [ M, then button+32, column+33, row+33).
# mouse_press BUTTON COL ROW: a press then a release (button 3), 0-based.
mouse_press() {
	_b=$(printf "\\$(printf %o $((32 + $1)))")
	_x=$(printf "\\$(printf %o $((33 + $2)))")
	_y=$(printf "\\$(printf %o $((33 + $3)))")
	_r=$(printf "\\$(printf %o 35)")
	tmx send-keys -t "$TUI_SESSION" -l "$(printf '\033[M')$_b$_x$_y"
	[ "$1" -ge 64 ] ||
		tmx send-keys -t "$TUI_SESSION" -l "$(printf '\033[M')$_r$_x$_y"
}
# tab_col NAME: a column inside that tab of the header.
tab_col() {
	tui_screen | head -n 1 | awk -v n="$1" '{ print index($0, n) }'
}
# mouse_reports 0|1: wait until raidlab has asked the terminal for mouse
# reports (1) or given its clicks back to it (0), as tmux's pane says.
mouse_reports() {
	_n=$((100 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		[ "$(tmx display -p -t "$TUI_SESSION" '#{mouse_any_flag}')" = "$1" ] &&
			return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	fail "the terminal's mouse reports never turned $1"
}
tui_start "$lab"
tui_wait_for 'tuikeys'
tui_wait_for 'M mouse'
# A click on a tab shows that screen.
mouse_press 0 "$(tab_col 'Lab files')" 0
tui_wait_for 'Recent labs|Presets'
mouse_press 0 "$(tab_col 'Run')" 0
tui_wait_for 'Press r to run'
mouse_reports 1
# M gives the terminal its selection back: raidlab no longer asks for
# mouse reports, so a click goes to the terminal, not to raidlab. (Not
# tested with a click sent anyway: ncurses drops a click that a key
# follows within its click interval, so no key after it proves it read.)
tui_keys M
tui_wait_for 'mouse off: the terminal selects text'
mouse_reports 0
tui_keys M
tui_wait_for 'mouse on: click a tab'
mouse_reports 1
mouse_press 0 "$(tab_col 'Disks')" 0
tui_wait_gone 'Press r to run'
tui_keys q
expect_eq "mouse: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# ---- Variants that cannot build here (md without the md driver) are
# asked about once: n runs nothing, y runs only the others.
if [ -e /proc/mdstat ]; then
	echo "note: this kernel has md: the ask before a run is not checked" >&2
else
	mixed="$TEST_TMP/mixed.cfg"
	cat >"$mixed" <<EOF2
name = "tuimixed"; cache = "keep";
defaults = { scratch = { count = 2; size = "64M"; dir = "$TEST_TMP"; }; };
variants = (
  { name = "md1"; array = { level = "1"; devices = [ "scratch:0", "scratch:1" ]; };
    fs = { type = "ext4"; }; },
  { name = "md0"; array = { level = "0"; devices = [ "scratch:0", "scratch:1" ]; };
    fs = { type = "ext4"; }; },
  { name = "dir"; directory = "$TEST_TMP/mixed"; }
);
workloads = ( { name = "few"; type = "smallfiles"; counts = [50]; dirs = 1; } );
EOF2
	tui_start "$mixed"
	tui_wait_for 'tuimixed'
	tui_keys "$(tui_tab Run)"
	tui_wait_for 'Press r to run'
	tui_keys r
	tui_wait_for '2 variants cannot build on this machine \(no md driver\): run the other 1\? y/n'
	tui_keys n
	tui_wait_for 'cancelled: nothing was changed'
	ls "$XDG_DATA_HOME"/raidlab/results/tuimixed-*.json >/dev/null 2>&1 &&
		fail "n: a run was recorded"
	tui_keys r
	tui_wait_for 'run the other 1\? y/n'
	tui_keys y
	tui_wait_for 'run done: 1 run, 0 failed' 60
	rec=$(ls "$XDG_DATA_HOME"/raidlab/results/tuimixed-*.json)
	expect_eq "y: the variants run" \
		"$(jq -r '[.runs[].variant.name] | unique | join(",")' "$rec")" dir
	tui_keys q
	expect_eq "ask: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
	tui_stop
fi
