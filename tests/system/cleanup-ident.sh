#!/bin/sh
# raidlab cleanup removes a scratch file only when it is the very file the
# run created (device, inode, birth time recorded in the state journal),
# never another file that took its name. A run on a scratch disk (ext4,
# mounted, a long workload) is SIGKILLed; the user unmounts it, detaches
# its loop device by hand, removes the scratch image and puts a file of
# their own at its path (the new file may even get the freed inode
# number). `raidlab cleanup` must leave that file, content intact, and say
# why. A private RAIDLAB_STATE_DIR and scratch directory keep other
# processes' journals and loop devices out of reach.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd losetup findmnt mkfs.ext4 timeout

state="$TEST_TMP/state"
scratch="$TEST_TMP/scratch"
RAIDLAB_STATE_DIR=$state
export RAIDLAB_STATE_DIR
pid=

undo_leftovers() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	undo_run "$state" "$scratch"
	cleanup
}
trap undo_leftovers EXIT

mounts() { run_mounts "$state"; }

mkdir -p "$scratch"
lab="$TEST_TMP/killed.cfg"
cat >"$lab" <<EOF2
name = "killed";
cache = "keep";
variants = (
  { name = "e";
    scratch = { count = 1; size = "128M"; dir = "$scratch"; };
    array = { engine = "single"; devices = ["scratch:0"]; };
    fs = { type = "ext4"; }; }
);
workloads = ( { type = "smallfiles"; count = 100000000; size = "0";
  sync = false; } );
EOF2

"$RAIDLAB" run "$lab" --results "$TEST_TMP/res" >"$TEST_TMP/out" \
    2>"$TEST_TMP/err" &
pid=$!

# Wait (60 s at most) for the mount, then kill -9 while it is mounted.
i=0
while [ -z "$(mounts)" ]; do
	kill -0 "$pid" 2>/dev/null ||
	    fail "run ended before its mount appeared: $(cat "$TEST_TMP/err")"
	[ $i -lt 600 ] ||
	    fail "run: no mount under $state within 60 s: $(cat "$TEST_TMP/err")"
	sleep 0.1
	i=$((i + 1))
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=

# What the user does by hand: unmount, detach, replace the image.
img=$(ls "$scratch"/raidlab-e-*-0.img 2>/dev/null)
[ -n "$img" ] || fail "killed run: no scratch file in $scratch"
mounts | sort -r | while IFS= read -r m; do
	umount "$m" || fail "umount $m"
done
losetup -n -O NAME -j "$img" | while read -r d; do
	losetup -d "$d" || fail "losetup -d $d"
done
rm -f "$img"
printf 'my own data\n' >"$img"

out=$(timeout 300 "$RAIDLAB" cleanup 2>"$TEST_TMP/cerr")
rc=$?
[ -f "$img" ] || fail "cleanup removed the user's file $img: $out"
expect_eq "the user's file is intact" "$(cat "$img")" "my own data"
expect_match "cleanup says why it left $img" "$out" \
    "left $img alone: it is not the (file raidlab created|one raidlab created)"
expect_eq "cleanup: exit status (stderr: $(cat "$TEST_TMP/cerr"))" "$rc" 0
printf '%s\n' "$out" | grep -q "removed $img" &&
    fail "cleanup says it removed $img: $out"

# The journal is settled: a second cleanup has nothing to do.
out=$(timeout 60 "$RAIDLAB" cleanup) || fail "second cleanup: exit status $?"
expect_eq "second cleanup" "$out" "nothing to clean up"
[ -f "$img" ] || fail "the second cleanup removed $img"
exit 0
