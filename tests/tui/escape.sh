#!/bin/sh
# Escape sequences in a record and in a filesystem label are shown, not
# obeyed, by the interactive lab (issue 19 item 6), as the command line
# shows them: \x1b, \x07, \xc2\x9b. A record whose variant, workload,
# host and lab name carry OSC 0 (ESC ]0;pwned BEL), ESC [2J and the C1
# CSI, added on the Compare screen: its rows, the column header and the
# answer show the escaped form, never curses' ^[ (which also threw the
# columns out: two cells drawn for one counted), and the pane's title
# (what OSC 0 would set) stays tmux's. As root, a loop device whose ext4
# label holds ESC [2J reads so in the Disks screen's table.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
export XDG_STATE_HOME XDG_DATA_HOME
TUI_COLS=100
TUI_ROWS=30

goto() {
	_n=$(tui_screen | head -n 1 | grep -Eo "[0-9] $1" | cut -c1)
	[ -n "$_n" ] || fail "no '$1' tab in the header"
	tui_keys "$_n"
}

mkdir -p "$TEST_TMP/results"
jq '
def evil($s): "\u001b]0;pwned\u0007" + $s + "\u001b[2J\u009b";
.host.hostname |= evil(.) | .lab.name |= evil(.) |
.runs |= map(.variant.name |= evil(.) | .workload.name |= evil(.))
' "${top_srcdir:-.}/tests/data/records/fixture-v1.json" \
	>"$TEST_TMP/results/evil-1.json" || fail "jq"
cat >"$TEST_TMP/view.cfg" <<CFG
name = "view";
results = "$TEST_TMP/results";
variants = ( { name = "a"; directory = "$TEST_TMP"; } );
workloads = ( { name = "small"; type = "smallfiles"; counts = [10]; } );
CFG

tui_start "$TEST_TMP/view.cfg"
tui_wait_layout 30
title=$(tmx display -p -t "$TUI_SESSION" '#{pane_title}')
goto Compare
tui_wait_for 'No results to compare yet'
tui_keys a
tui_wait_for 'Add results from'
tui_wait_for '\\x1b\]0;pwned\\x07fixture\\x1b\[2J\\xc2\\x9b'
tui_keys Enter
tui_wait_for 'Added 2 rows from .*evil-1\.json'
tui_wait_for '^Baseline \\x1b\]0;pwned\\x07tmpdir\\x1b\[2J\\xc2\\x9b'
tui_wait_for '^\\x1b\]0;pwned\\x07small\\x1b\[2J\\xc2\\x9b'
tui_wait_for '^\\x1b\]0;pwned\\x07tmpdir\\x1b\[2J\\xc2\\x9b.* is the baseline'
# The baseline row's figure ends its line where the header's column does.
tui_wait_for '^B \\x1b.* baseline +28\.07 *$'
if tui_screen | grep -q '\^\['; then
	tui_dump
	fail "curses' ^[ on the screen"
fi
expect_eq "the pane's title" \
	"$(tmx display -p -t "$TUI_SESSION" '#{pane_title}')" "$title"

if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null 2>&1; then
	new_loop dev 32M
	mkfs.ext4 -q -F -L "$(printf 'a\033[2Jb')" "$dev" ||
		fail "mkfs.ext4 $dev"
	goto Disks
	tui_wait_for 'NAME +SIZE +TYPE'
	tui_keys r
	tui_wait_for "${dev#/dev/} .*label 'a\\\\x1b\\[2Jb'" 15
	if tui_screen | grep -q '\^\['; then
		tui_dump
		fail "curses' ^[ on the Disks screen"
	fi
fi
tui_keys q
tui_wait_exit
tui_check_stderr
