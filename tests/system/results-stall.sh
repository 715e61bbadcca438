#!/bin/sh
# A run stopped (SIGSTOP, as ^Z does) for 3 s while a test is timed: the
# record marks that test stalled with the seconds lost (at least 2), the
# run says so, and neither compare nor show presents its figure as a
# plain result: compare leaves it out in favour of the clean repeat (its
# mean is the clean repeat's figure, recomputed here with jq) and marks
# the cell stalled. It used to be recorded ok, its figure halved.
# The stop lands in the test whatever the machine's speed: raidlab's
# workers ("rl-worker" threads) exist only while a test is timed, and
# the fio test runs for a fixed time from its start.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq awk

cat >"$TEST_TMP/st.cfg" <<LAB
name = "st"; cache = "keep"; repeats = 2;
variants = ( { name = "v"; directory = "$TEST_TMP/v"; } );
workloads = (
  { name = "w"; type = "fio"; rw = "write"; size = "4M"; runtime = 8; }
);
LAB

pid=
finish() {
	[ -n "$pid" ] && kill -CONT "$pid" 2>/dev/null &&
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	cleanup
}
trap finish EXIT

"$RAIDLAB" run "$TEST_TMP/st.cfg" -o "$TEST_TMP/res" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" &
pid=$!

# wait_for WHAT CMD...: until CMD succeeds, for 120 s at most (a hang
# bound only), while the run is alive.
wait_for() {
	_what=$1
	shift
	_i=0
	until "$@" >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ "$_i" -ge 1200 ] || ! kill -0 "$pid" 2>/dev/null; then
			cat "$TEST_TMP/err" >&2
			fail "$_what: never happened"
		fi
		sleep 0.1
	done
}
timing() {
	grep -qx rl-worker /proc/"$pid"/task/*/comm
}
stopped() {
	[ "$(awk '{ print $3 }' /proc/"$pid"/stat)" = T ]
}

wait_for "the first test timed" timing
kill -STOP "$pid"
wait_for "raidlab stopped" stopped
# The stall itself: how long raidlab does not run, not a wait for it.
sleep 3
kill -CONT "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 0 ] || fail "raidlab run: exit $rc: $(cat "$TEST_TMP/err")"
rec=$(ls "$TEST_TMP"/res/st-*.json)

expect_eq "round 1's test stalled at least 2 s" \
	"$(jq '.runs[] | select(.repeat == 1) | .tests[0].stalled >= 2' "$rec")" true
expect_eq "round 2's did not" \
	"$(jq '.runs[] | select(.repeat == 2) | .tests[0].stalled // 0' "$rec")" 0
expect_match "the result's note" \
	"$(jq -r '.runs[] | select(.repeat == 1) | .notes[]' "$rec")" \
	'stalled for [0-9.]+ s'
expect_match "the run said it" "$(cat "$TEST_TMP/err")" \
	'stalled for [0-9.]+ s .*not a plain result'

cmp=$("$RAIDLAB" compare "$rec" 2>&1) || fail "compare: $cmp"
expect_match "compare marks the cell" "$cmp" ' stalled( |$)'
expect_match "compare says why" "$cmp" '1 repeat stalled for up to [0-9.]+ s'
# The mean compare shows is the clean repeat's figure alone.
want=$(jq -r '.runs[] | select(.repeat == 2) | .tests[0].value' "$rec")
got=$("$RAIDLAB" compare --json "$rec" |
	jq -r '[.. | objects | select(has("mean") and has("n"))][0] | "\(.n) \(.mean)"')
expect_eq "compare: the clean repeat alone" "$got" "1 $want"

show=$("$RAIDLAB" show "$rec" 2>&1)
expect_match "show says it" "$show" 'stalled'
exit 0
