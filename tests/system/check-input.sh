#!/bin/sh
# raidlab check refuses what is not a lab file's text, at once and by name
# (issue 19, item 11), where it used to hang or cut the lab short:
#  - a FIFO (named pipe) with no writer: open() blocked forever (the
#    TUI's lab list too); bounded here by timeout, exit 124 is the hang;
#  - a device (/dev/zero was read up to the size cap);
#  - a NUL byte: libconfig stopped reading there, the rest was lost;
# while a pipe from the shell (/dev/stdin, <(...)) is still read.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd mkfifo timeout

good="$top_srcdir/data/labs/quick.cfg"

# refused NAME PATH REGEX
refused() {
	timeout 60 "$RAIDLAB" check "$2" >/dev/null 2>"$TEST_TMP/err"
	rc=$?
	[ "$rc" != 124 ] || fail "$1: check hung (killed after 60 s)"
	expect_eq "$1: exit status ($(cat "$TEST_TMP/err"))" "$rc" 2
	expect_match "$1: message" "$(cat "$TEST_TMP/err")" "$3"
	echo "$1: $(cat "$TEST_TMP/err")"
}

mkfifo "$TEST_TMP/fifo.cfg" || fail "mkfifo"
refused fifo "$TEST_TMP/fifo.cfg" '^.*/fifo\.cfg: a FIFO \(named pipe\), not a regular file$'
refused device /dev/zero '^/dev/zero: a device, not a regular file$'

# A NUL on line 3 of a good lab: the lab after it was silently dropped.
{ head -n 2 "$good"; printf 'x\0y\n'; tail -n +3 "$good"; } >"$TEST_TMP/nul.cfg"
refused nul "$TEST_TMP/nul.cfg" '/nul\.cfg:3: a NUL byte'
# A NUL after the last line: the lab before it is valid, so this one was
# accepted whole, with the rest unread.
{ cat "$good"; printf '\0# more\n'; } >"$TEST_TMP/nul-end.cfg"
lines=$(($(wc -l <"$good") + 1))
refused nul-at-end "$TEST_TMP/nul-end.cfg" "/nul-end\.cfg:$lines: a NUL byte"

# Pipes a shell makes are read to their end, as before.
cat "$good" | timeout 60 "$RAIDLAB" check --quiet /dev/stdin ||
	fail "check from a pipe"
echo "check-input: refused at once, each by name"
