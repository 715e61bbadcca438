#!/bin/sh
# The command line as a user meets it: help, version, unknown commands,
# and gettext wiring (every file with _() is in po/POTFILES.in).
. "${top_srcdir:-.}/tests/system/lib.sh"

out=$("$RAIDLAB" --help) || fail "--help exits non-zero"
expect_match "--help lists commands" "$out" "disks"
expect_match "--help lists commands" "$out" "check"

out=$("$RAIDLAB" --version) || fail "--version exits non-zero"
expect_match "--version" "$out" '^raidlab [0-9]+\.[0-9]+'

"$RAIDLAB" no-such-command >/dev/null 2>"$TEST_TMP/err"
expect_eq "unknown command exit status" "$?" 2
expect_match "unknown command message" "$(cat "$TEST_TMP/err")" "unknown command 'no-such-command'"

for cmd in $("$RAIDLAB" --help | awk '/^  [a-z]/ {print $1}'); do
	"$RAIDLAB" "$cmd" --help >/dev/null || fail "raidlab $cmd --help exits non-zero"
done

# Every source file that uses _() must be listed for xgettext.
cd "$top_srcdir" || fail "cd $top_srcdir"
for f in $(grep -rl --include='*.c' -E '(^|[^A-Za-z0-9_])N?_\("' src ui); do
	grep -qx "$f" po/POTFILES.in || fail "$f uses _() but is not in po/POTFILES.in"
done
exit 0
