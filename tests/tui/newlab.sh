#!/bin/sh
# A new lab as a newcomer makes one, in tmux: an empty lab has 3 repeats
# (Lab files says so, and its saved file keeps them), so that Compare can
# give a verdict; a lab made after another lab's run, run in its turn,
# is compared on its own record alone (not against the other lab's as
# baseline #1); the first lab opened again starts Compare on its own
# latest record. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

XDG_STATE_HOME="$TEST_TMP/state"
XDG_CONFIG_HOME="$TEST_TMP/config"
export XDG_STATE_HOME XDG_CONFIG_HOME
mine="$XDG_CONFIG_HOME/raidlab/labs"
results="$XDG_DATA_HOME/raidlab/results"
mkdir -p "$mine" "$TEST_TMP/a"

goto() {
	_n=$(tui_screen | head -n 1 | grep -Eo "[0-9] $1" | cut -c1)
	[ -n "$_n" ] || fail "no '$1' tab in the header"
	tui_keys "$_n"
}

# ---------------------------------------------------------------- repeats
tui_start
tui_wait_for 'quick *$'
tui_keys F7
tui_wait_for 'New empty lab, its name:'
tui_text "fresh"
tui_keys Enter
tui_wait_for '^Lab fresh'
tui_wait_for '0 variants, 0 workloads, 3 repeats;'
tui_keys s
tui_wait_for "Save as: $mine/fresh.cfg"
tui_keys Enter
tui_wait_for "Saved to $mine/fresh.cfg"
grep -q '^repeats = 3;' "$mine/fresh.cfg" ||
	fail "saved without its repeats: $(cat "$mine/fresh.cfg")"
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
tui_stop

# ---------------------------------------------------------------- compare
cat >"$mine/aaa.cfg" <<EOF
name = "aaa";
repeats = 1;
cache = "keep";
variants = ( { name = "va"; directory = "$TEST_TMP/a"; } );
workloads = ( { name = "small"; type = "smallfiles"; count = 20;
    size = "1K"; dirs = 1; } );
EOF
tui_start "$mine/aaa.cfg"
tui_wait_for 'aaa *$'
tui_keys F5
tui_wait_for 'run done: 1 run, 0 failed' 60
goto Compare
tui_wait_for 'Added 1 row from .*/aaa-'
# A copy of it made on Lab files (the lab being edited is selected),
# then run: its Compare holds its own record only.
goto 'Lab files'
tui_wait_for '^Lab aaa'
tui_keys N
tui_wait_for 'New lab \(a copy\), its name:'
tui_text "bbb"
tui_keys Enter
tui_wait_for '^Lab bbb'
tui_keys F5
tui_wait_for 'run done: 1 run, 0 failed' 60
ls "$results"/bbb-*.json >/dev/null 2>&1 || fail "bbb left no record"
goto Compare
tui_wait_for 'Added 1 row from .*/bbb-'
tui_wait_for '^ *B? *va '
s=$(tui_screen)
case $s in
*"va #"*) tui_dump; fail "bbb's Compare holds another record" ;;
esac
# aaa opened again (still the one selected; bbb is not saved): its own
# latest record.
goto 'Lab files'
tui_wait_for '^Lab bbb'
tui_keys Enter
tui_wait_for 'd +discard them and open the other lab'
tui_keys d
tui_wait_for '^Lab aaa'
goto Compare
tui_wait_for 'Lab aaa: its latest results \(.*/aaa-'
tui_wait_for '^ *B? *va '
s=$(tui_screen)
case $s in
*"va #"* | *bbb-*) tui_dump; fail "aaa's Compare holds bbb's record" ;;
esac
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
tui_stop
exit 0
