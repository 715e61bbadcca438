#!/bin/sh
# The TUI's Lab files list with a FIFO (named pipe) among the user's labs
# (issue 19, item 11): it used to block in open() forever when the list
# was read; now the FIFO is a row that does not load, beside a good lab,
# and the TUI quits normally. The waits are bounds for a hang only.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"
need_cmd mkfifo

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
XDG_CONFIG_HOME="$TEST_TMP/config"
export XDG_STATE_HOME XDG_DATA_HOME XDG_CONFIG_HOME
mine="$XDG_CONFIG_HOME/raidlab/labs"
mkdir -p "$mine"
sed 's/^name = .*/name = "mine";/' "$top_srcdir/data/labs/quick.cfg" \
	>"$mine/mine.cfg"
mkfifo "$mine/stuck.cfg" || fail "mkfifo"
# A raidlab that hangs on the FIFO (the bug) is let go at the end, or it
# would outlive the test: opening a FIFO read-write never blocks.
trap '( : <>"$mine/stuck.cfg" ) 2>/dev/null; tui_cleanup' EXIT

tui_start
tui_wait_layout "$TUI_ROWS"
n=$(tui_tab 'Lab files')
[ -n "$n" ] || fail "no 'Lab files' tab"
tui_keys "$n"
tui_wait_for 'mine' 30
tui_wait_for 'stuck\.cfg +does not load: ' 30
tui_keys q
expect_eq "tui exit status" "$(tui_wait_exit 30)" 0
tui_check_stderr
echo "lab-fifo: the FIFO listed as such, the TUI not blocked"
