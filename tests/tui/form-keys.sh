#!/bin/sh
# Typing into a prefilled value replaces it, as in most form UIs: a text
# field (a variant's name), a numeric one (smallfiles' count) and the
# new-variant prompt all give what was typed, not the old value with it
# appended ("variantr1"); an arrow first keeps the value for editing.
# While a field is typed the status bar shows the keys that edit it. A
# choice menu opens under its field, whole.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

cat >"$TEST_TMP/f.cfg" <<EOF
name = "formkeys"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "mirror";
  scratch = { count = 2; size = "1G"; dir = "$TEST_TMP"; };
  array = { level = "1"; }; } );
workloads = ( { name = "w"; type = "smallfiles"; count = 10; dirs = 1; } );
EOF

# The form's row of a field, and its value.
field() {
	tui_screen | grep -E "[│|] ?$1 {2,}" | head -n 1 |
		sed -E "s/.*$1 +//; s/ +[▾v]?$//"
}
# field_is LABEL VALUE: until the field shows exactly VALUE.
field_is() {
	_n=$((50 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		[ "$(field "$1")" = "$2" ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "field '$1' is '$(field "$1")', want '$2'"
}

TUI_COLS=80 TUI_ROWS=24
tui_start "$TEST_TMP/f.cfg"
tui_wait_for 'formkeys'
tui_keys 2
tui_wait_for '^Variants'
# The name: Enter edits it, the status bar tells how, typing replaces.
tui_keys Enter Enter
tui_wait_for 'Esc cancel'
tui_screen | tail -n 1 | grep -q 'typing replaces' ||
	{ tui_dump; fail "the status bar does not say that typing replaces"; }
tui_text r1
field_is name r1
tui_screen | tail -n 1 | grep -q '\^U clear' ||
	{ tui_dump; fail "the status bar lacks the editing keys"; }
# Esc puts it back; an arrow first keeps it, to edit.
tui_keys Escape
field_is name mirror
tui_keys Enter Left
tui_text x
field_is name mirroxr
tui_keys Escape
field_is name mirror
# A choice menu opens right under its field (nested legs: name,
# description, target, engine, level, nested legs).
tui_keys Down Down Down Down Down Enter
tui_wait_for 'Enter choose'
under=$(tui_screen | grep -A1 -E '[│|]nested legs ' | tail -n 1)
printf '%s\n' "$under" | grep -q 'nested legs' ||
	{ tui_dump; fail "the menu does not open under its field: $under"; }
tui_keys Escape
tui_wait_gone 'Enter choose'
# The new-variant prompt: its suggested name is replaced too.
tui_keys Escape a
tui_wait_for 'name: variant'
tui_text r1
tui_wait_for 'name: r1 *[│|]'
tui_keys Escape
tui_wait_gone 'name: '
# A number: count 10, typed 5, is 5 (not 105).
tui_keys 3
tui_wait_for '^Workloads'
tui_keys Enter Down Down Down Down Enter
tui_wait_for 'Esc cancel'
tui_text 5
field_is count 5
tui_keys Enter
field_is count 5
tui_keys Escape q
tui_wait_for 'Unsaved changes'
tui_keys d
expect_eq "exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui form-keys: ok"
