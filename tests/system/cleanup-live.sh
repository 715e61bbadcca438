#!/bin/sh
# Runs never share a mount point, and cleanup never acts on a live run
# (issue 10). Two runs of one lab, started together, each mount their
# own filesystem on their own mount point, finish with status 0, and
# each record names its own device. Then a run is killed while another
# of the same lab is mounted and busy: `raidlab cleanup` undoes the dead
# one's mount and disks, leaves the live one's alone, and the live run
# still finishes and tears down cleanly.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd losetup findmnt mkfs.ext4 jq timeout

state="$TEST_TMP/state"
scratch="$TEST_TMP/scratch"
RAIDLAB_STATE_DIR=$state
export RAIDLAB_STATE_DIR
pids=
mkdir -p "$scratch"

undo_leftovers() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	undo_run "$state" "$scratch"
	cleanup
}
trap undo_leftovers EXIT

mounts() { run_mounts "$state"; }

# wait_mounts N: until N mounts are under the state directory.
wait_mounts() {
	i=0
	while [ "$(mounts | grep -c .)" -lt "$1" ]; do
		[ $i -lt 600 ] || fail "no $1 mounts within 60 s: $(cat "$TEST_TMP"/err.*)"
		sleep 0.1
		i=$((i + 1))
	done
}

lab() {
	cat >"$TEST_TMP/$1.cfg" <<EOF
name = "$1";
variants = (
  { name = "same"; scratch = { count = 1; size = "300M"; dir = "$scratch"; };
    array = { engine = "single"; }; fs = { type = "ext4"; }; }
);
workloads = ( { type = "smallfiles"; count = $2; size = "${3:-4K}"; } );
EOF
}

# Two runs at once: each its own mount point, device and record.
lab twice 3000
for n in 1 2; do
	"$RAIDLAB" run "$TEST_TMP/twice.cfg" --results "$TEST_TMP/res$n" \
	    >"$TEST_TMP/out.$n" 2>"$TEST_TMP/err.$n" &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p"
	expect_eq "concurrent run $p: exit status ($(cat "$TEST_TMP"/err.*))" \
	    "$?" 0
done
pids=
t1=$(jq -r '.. | objects | select(has("mount_point")) | .mount_point' \
    "$TEST_TMP"/res1/*.json | head -n 1)
t2=$(jq -r '.. | objects | select(has("mount_point")) | .mount_point' \
    "$TEST_TMP"/res2/*.json | head -n 1)
s1=$(jq -r '.. | objects | select(has("mount_point")) | .source' \
    "$TEST_TMP"/res1/*.json | head -n 1)
s2=$(jq -r '.. | objects | select(has("mount_point")) | .source' \
    "$TEST_TMP"/res2/*.json | head -n 1)
expect_match "run 1 mounted under the state directory" "$t1" "^$state/mnt/"
expect_match "run 2 mounted under the state directory" "$t2" "^$state/mnt/"
[ "$t1" != "$t2" ] || fail "both runs mounted on $t1"
[ "$s1" != "$s2" ] || fail "both records name $s1"
expect_match "run 1's device" "$s1" '^/dev/loop[0-9]+$'
expect_match "run 2's device" "$s2" '^/dev/loop[0-9]+$'
for n in 1 2; do
	st=$(jq -r '.status' "$TEST_TMP"/res$n/*.json)
	expect_eq "run $n: record status" "$st" ok
done
[ -z "$(mounts)" ] || fail "mounts left: $(mounts)"
[ -z "$(ls "$scratch")" ] || fail "scratch files left: $(ls "$scratch")"

# A live run and a dead one of the same lab: cleanup takes only the dead.
# Empty files: busy until killed, and no more than the disk holds (a
# data set that cannot fit is refused before anything is built).
lab busy 100000000 0
"$RAIDLAB" run "$TEST_TMP/busy.cfg" --results "$TEST_TMP/res-live" \
    >"$TEST_TMP/out.live" 2>"$TEST_TMP/err.live" &
live=$!
pids=$live
wait_mounts 1
live_mnt=$(mounts)
"$RAIDLAB" run "$TEST_TMP/busy.cfg" --results "$TEST_TMP/res-dead" \
    >"$TEST_TMP/out.dead" 2>"$TEST_TMP/err.dead" &
dead=$!
pids="$pids $dead"
wait_mounts 2
kill -9 "$dead"
wait "$dead" 2>/dev/null
pids=$live
dead_mnt=$(mounts | grep -vxF "$live_mnt")
out=$(timeout 300 "$RAIDLAB" cleanup 2>&1)
expect_eq "cleanup beside a live run: exit status ($out)" "$?" 0
expect_match "cleanup: the live run is named" "$out" \
    "raidlab process $live is still running"
expect_eq "cleanup: the live run's mount stays" "$(mounts)" "$live_mnt"
case $out in
*"$live_mnt"*) fail "cleanup acted on the live run's mount: $out" ;;
esac
expect_match "cleanup: the dead run's mount" "$out" "$dead_mnt"
kill -0 "$live" 2>/dev/null || fail "the live run died: $(cat "$TEST_TMP/err.live")"
kill -INT "$live"
wait "$live"
rc=$?
pids=
echo "the stopped live run exited $rc"
[ -z "$(mounts)" ] || fail "the live run left mounts: $(mounts)"
[ -z "$(ls "$scratch")" ] || fail "scratch files left: $(ls "$scratch")"
! ls "$state"/*.journal >/dev/null 2>&1 ||
    fail "journal left: $(cat "$state"/*.journal)"
exit 0
