#!/bin/sh
# Figures too fast to measure (+++++, under bonnie's minimum time) are
# left out of a mean: the live line of such a figure says so at once, and
# when every figure of a workload is one, the run ends with one line
# saying so and what to raise. Held to the record's own too_fast marks,
# whatever this machine's speed (a tmpfs directory and bonnie's smallest
# file test make them likely; the test skips when none came). No root.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq

dir=$(mktemp -d /dev/shm/raidlab-test.XXXXXX 2>/dev/null) || dir=$TEST_TMP
trap 'rm -rf "$dir"; cleanup' EXIT
cat >"$TEST_TMP/lab.cfg" <<EOF2
name = "tf"; cache = "keep"; results = "$TEST_TMP/res";
variants = ( { name = "d"; directory = "$dir/t"; } );
workloads = ( { name = "fast"; type = "bonnie"; size = 0; files = 1; } );
EOF2
"$RAIDLAB" run "$TEST_TMP/lab.cfg" >/dev/null 2>"$TEST_TMP/err" ||
	fail "run: $(cat "$TEST_TMP/err")"
rec=$(ls "$TEST_TMP"/res/tf-*.json)
err=$(cat "$TEST_TMP/err")
n=$(jq '[.runs[].tests[]] | length' "$rec")
fast=$(jq '[.runs[].tests[] | select(.too_fast)] | length' "$rec")
[ "$n" -gt 0 ] || fail "no test in the record"

# each live line as the record marks its test
jq -r '.runs[].tests[] | "\(.too_fast) \(.label)"' "$rec" |
while read -r tf label; do
	line=$(printf '%s\n' "$err" | grep -F "[d] fast 1/1: $label: ")
	[ -n "$line" ] || fail "no live line for $label"
	case $tf in
	true) expect_match "$label: too fast, said at once" "$line" \
		'\(\+\+\+\+\+ too fast to measure: left out of the mean\)$' ;;
	*) ! printf '%s' "$line" | grep -q 'too fast' ||
		fail "$label: said too fast, the record says not: $line" ;;
	esac
done || exit 1

said=$(printf '%s\n' "$err" | grep -c 'every figure was too fast')
if [ "$fast" = "$n" ]; then
	expect_eq "every figure too fast: one line" "$said" 1
	expect_match "every figure too fast: what to raise" "$err" \
		'^raidlab run: fast: every figure was too fast to measure \(\+\+\+\+\+\), so it has no mean and no verdict: give it more to do \(size, files, seeks, char_size\)$'
else
	expect_eq "not every figure too fast: no such line" "$said" 0
fi
[ "$fast" -gt 0 ] || skip "no figure came out too fast here"
echo "too-fast: ok ($fast of $n too fast)"
