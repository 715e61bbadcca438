#!/bin/sh
# Every whole lab raidlab.lab(5) shows (a block set in .nf/.RS 4 that
# starts with a name) loads and passes `raidlab check` as printed, once
# groff's escapes are read back: a reader who copies one gets a lab that
# works. The fleet examples are among them; none contacts a host.
. "${top_srcdir:-.}/tests/system/lib.sh"

page="${top_srcdir:-.}/data/raidlab.lab.5"
awk -v dir="$TEST_TMP" '
/^\.RS 4/ { inside = 1; n++; file = dir "/ex-" n ".cfg"; printf "" >file; next }
inside && /^\.RE/ { inside = 0; close(file); next }
inside { print >file }' "$page"
checked=0
for f in "$TEST_TMP"/ex-*.cfg; do
	[ -e "$f" ] || continue
	grep -q '^name = ' "$f" || continue
	sed -i 's/\\(dq/"/g; s/\\-/-/g; s/\\e/\\/g' "$f"
	out=$("$RAIDLAB" check "$f" 2>&1) ||
		fail "the example $(sed -n 's/^name = "\(.*\)";/\1/p' "$f") in raidlab.lab(5) fails check: $out"
	checked=$((checked + 1))
done
# The two fleet examples at least: a page that lost them fails here.
[ $checked -ge 2 ] || fail "only $checked whole labs found in raidlab.lab(5)"
exit 0
