#!/bin/sh
# raidlab cleanup after a killed run, on the real binary: a run on scratch
# disks (btrfs raid1 over two loop devices, mounted, a long workload) is
# SIGKILLed once its mount appears; the loop devices, the mount and the
# scratch files are left behind, as the state journal says; `raidlab
# cleanup` undoes them all and says what it did; a second cleanup has
# nothing to do. A private RAIDLAB_STATE_DIR and scratch directory keep
# other processes' journals and loop devices out of reach.
. "${top_srcdir:-.}/tests/system/lib.sh"

state="$TEST_TMP/state"
scratch="$TEST_TMP/scratch"
RAIDLAB_STATE_DIR=$state
export RAIDLAB_STATE_DIR
pid=

# The usage, and an empty state directory: anyone can run these.
out=$("$RAIDLAB" cleanup --help) || fail "cleanup --help: exit status $?"
expect_match "cleanup --help" "$out" '--force'
"$RAIDLAB" cleanup extra >/dev/null 2>&1
expect_eq "cleanup with an argument: exit status" "$?" 2
out=$("$RAIDLAB" cleanup) || fail "cleanup with no state: exit status $?"
expect_eq "cleanup with no state" "$out" "nothing to clean up"

need_root
need_cmd losetup findmnt mkfs.btrfs btrfs timeout

# Whatever the run or a failed check leaves is undone on exit: mounts
# under our state directory, then loop devices over our scratch files.
undo_leftovers() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	undo_run "$state" "$scratch"
	cleanup
}
trap undo_leftovers EXIT

mounts() { run_mounts "$state"; }

loops() {
	for f in "$scratch"/*.img; do
		[ -e "$f" ] && losetup -j "$f"
	done
	losetup -a | grep -F "$scratch/" || true
}

mkdir -p "$scratch"
lab="$TEST_TMP/killed.cfg"
cat >"$lab" <<EOF
name = "killed";
cache = "keep";
variants = (
  { name = "mirror";
    scratch = { count = 2; size = "300M"; dir = "$scratch"; };
    array = { engine = "btrfs"; level = "raid1";
              devices = ["scratch:0", "scratch:1"]; };
    fs = { type = "btrfs"; }; }
);
workloads = ( { type = "smallfiles"; count = 100000000; size = "0";
  sync = false; } );
EOF

"$RAIDLAB" run "$lab" --results "$TEST_TMP/res" >"$TEST_TMP/out" \
    2>"$TEST_TMP/err" &
pid=$!

# Wait (60 s at most) for the array's mount, then kill -9 in the middle.
i=0
while [ -z "$(mounts)" ]; do
	kill -0 "$pid" 2>/dev/null ||
	    fail "run ended before its mount appeared: $(cat "$TEST_TMP/err")"
	[ $i -lt 600 ] ||
	    fail "run: no mount under $state within 60 s: $(cat "$TEST_TMP/err")"
	sleep 0.1
	i=$((i + 1))
done
sleep 1
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=

# What a killed run leaves: the mount, the loop devices, the files.
[ -n "$(mounts)" ] || fail "killed run: no mount left (nothing to test)"
f0=$(ls "$scratch"/raidlab-mirror-*-0.img 2>/dev/null)
f1=$(ls "$scratch"/raidlab-mirror-*-1.img 2>/dev/null)
[ -n "$f0" ] && [ -n "$f1" ] || fail "killed run: scratch files missing"
[ -n "$(losetup -j "$f0")" ] || fail "killed run: $f0 is not attached"
[ -n "$(losetup -j "$f1")" ] || fail "killed run: $f1 is not attached"
ls "$state"/*.journal >/dev/null 2>&1 || fail "killed run: no journal in $state"

# The cleanup undoes all of it and says so.
out=$(timeout 300 "$RAIDLAB" cleanup 2>"$TEST_TMP/cerr")
rc=$?
expect_eq "cleanup: exit status (stderr: $(cat "$TEST_TMP/cerr"))" "$rc" 0
expect_match "cleanup: the mount" "$out" "$state/mnt/[0-9]+-mirror"
expect_match "cleanup: loop of $f0" "$out" "detached /dev/loop[0-9]+ \\($f0\\): ok"
expect_match "cleanup: loop of $f1" "$out" "detached /dev/loop[0-9]+ \\($f1\\): ok"
expect_match "cleanup: $f0" "$out" "removed $f0"
expect_match "cleanup: $f1" "$out" "removed $f1"
[ -z "$(mounts)" ] || fail "cleanup: still mounted: $(mounts)"
[ -z "$(loops)" ] || fail "cleanup: loop devices left: $(loops)"
[ -z "$(ls "$scratch")" ] || fail "cleanup: files left: $(ls "$scratch")"
! ls "$state"/*.journal >/dev/null 2>&1 ||
    fail "cleanup: journal left: $(cat "$state"/*.journal)"

# Nothing is left to do.
out=$(timeout 60 "$RAIDLAB" cleanup) || fail "second cleanup: exit status $?"
expect_eq "second cleanup" "$out" "nothing to clean up"
exit 0
