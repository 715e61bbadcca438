#!/bin/sh
# Labs of your own, in tmux: a binary copied out of its build tree still
# opens the quick preset (it used to open "(unnamed)" with no presets); a
# new lab copying a preset gets the name typed, save suggests the user's
# lab directory ($XDG_CONFIG_HOME/raidlab/labs/NAME.cfg, made on save)
# and writes that name; the description is edited; the saved lab is
# listed on Lab files after a restart; a new empty lab. Nothing on stderr.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
XDG_CONFIG_HOME="$TEST_TMP/config"
export XDG_STATE_HOME XDG_DATA_HOME XDG_CONFIG_HOME
mine="$XDG_CONFIG_HOME/raidlab/labs"

goto() {
	_n=$(tui_screen | head -n 1 | grep -Eo "[0-9] $1" | cut -c1)
	[ -n "$_n" ] || fail "no '$1' tab in the header"
	tui_keys "$_n"
}

# ---------------------------------------------------------------- presets
# A copy of the binary outside the tree, not installed: the default lab.
mkdir -p "$TEST_TMP/bin"
cp "$RAIDLAB" "$TEST_TMP/bin/raidlab"
real=$RAIDLAB
RAIDLAB="$TEST_TMP/bin/raidlab"
if [ ! -d "$(dirname "$real")/../share/raidlab" ]; then
	tui_start
	tui_wait_for 'quick *$'
	goto 'Lab files'
	tui_wait_for 'quick +Smoke test'
	tui_keys q
	tui_wait_exit >/dev/null
	tui_stop
fi
RAIDLAB=$real

# ---------------------------------------------------------------- new lab
tui_start
tui_wait_for 'quick *$'
goto 'Lab files'
tui_wait_for '^Lab quick'
tui_keys N
tui_wait_for 'New lab \(a copy\), its name:'
tui_text "mylab"
tui_keys Enter
tui_wait_for 'New lab mylab'
tui_wait_for '^Lab mylab'
tui_keys e
tui_wait_for 'Description:'
tui_keys C-u
tui_text "my own lab"
tui_keys Enter
tui_keys s
tui_wait_for "Save as: $mine/mylab.cfg"
tui_keys Enter
tui_wait_for "Saved to $mine/mylab.cfg"
[ -f "$mine/mylab.cfg" ] || fail "save: no file in the user's lab dir"
grep -q 'name = "mylab";' "$mine/mylab.cfg" || fail "save: lab name"
grep -q 'description = "my own lab";' "$mine/mylab.cfg" ||
	fail "save: description"
# Renamed: the name field.
tui_keys a
tui_wait_for 'Lab name: mylab'
tui_keys C-u
tui_text "mylab2"
tui_keys Enter
tui_wait_for '^Lab mylab2'
tui_keys s
tui_wait_for "Saved to $mine/mylab.cfg"
grep -q 'name = "mylab2";' "$mine/mylab.cfg" || fail "rename: lab name"
# A new empty lab, with F7 from another screen.
goto 'Disks'
tui_keys F1
tui_wait_for 'F7 +new lab'
tui_keys Escape
tui_keys F7
tui_wait_for 'New empty lab, its name:'
tui_text "blank"
tui_keys Enter
tui_wait_for '^Lab blank'
tui_wait_for 'blank \*$'
tui_stop

# The user's labs are listed, even with no recent labs file.
rm -rf "$XDG_STATE_HOME"
tui_start
tui_wait_for 'quick *$'
goto 'Lab files'
tui_wait_for 'mylab2 +/.*/config/raidlab/labs/mylab.cfg'
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
tui_stop

# ---------------------------------------------------------------- earlier
# A lab run twice (headless, no root), reopened: Compare shows its latest
# results at once, and says how many there are; another lab's are not
# counted.
cat >"$TEST_TMP/own.cfg" <<EOF2
name = "own";
repeats = 1;
cache = "keep";
results = "$TEST_TMP/results";
variants = ( { name = "alpha"; directory = "$TEST_TMP/a"; } );
workloads = ( { name = "small"; type = "smallfiles"; counts = [20];
    size = "1K"; dirs = 1; } );
EOF2
sed 's/^name = "own";/name = "other";/' "$TEST_TMP/own.cfg" \
	>"$TEST_TMP/other.cfg"
mkdir -p "$TEST_TMP/a"
for l in own own other; do
	"$RAIDLAB" run "$TEST_TMP/$l.cfg" >"$TEST_TMP/run.out" 2>&1 ||
		fail "run $l: $(cat "$TEST_TMP/run.out")"
	sleep 1
done
tui_start "$TEST_TMP/own.cfg"
tui_wait_for 'own *$'
goto 'Compare'
tui_wait_for 'Lab own: its latest results \(.*own-.*\.json\); 2 result'
tui_wait_for 'alpha'
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
tui_stop
exit 0
