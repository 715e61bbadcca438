#!/bin/sh
# Scratch files get names nobody can guess: another user who pre-creates
# files at the names raidlab used to pick (DIR/raidlab-VARIANT-PID-N.img
# in a shared, sticky directory such as /var/tmp) cannot stop root's
# run. The run's pid is known before it starts (sh execs raidlab), so the
# old names are taken, as user nobody, for that very pid. The run must
# succeed, leave the other user's files alone, and leave nothing of its
# own behind.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd setpriv losetup mkfs.ext4 jq
id -u nobody >/dev/null 2>&1 || skip "needs a user 'nobody'"

state="$TEST_TMP/state"
shared="$TEST_TMP/vartmp"
export RAIDLAB_STATE_DIR="$state"
trap 'undo_run "$state" "$shared"; cleanup' EXIT

# A shared directory like /var/tmp that user nobody can reach.
chmod 755 "$TEST_TMP"
mkdir -m 1777 "$shared"

cat >"$TEST_TMP/lab.cfg" <<EOF2
name = "names";
cache = "keep";
variants = ( { name = "v"; scratch = { count = 1; size = "64M";
  dir = "$shared"; }; array = { engine = "single";
  devices = ["scratch:0"]; }; fs = { type = "ext4"; }; } );
workloads = ( { type = "smallfiles"; count = 20; size = "1K"; } );
EOF2

# In the shell that becomes raidlab: take the next names for its pid.
sh -c '
	for n in 0 1 2 3; do
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
		    touch "$1/raidlab-v-$$-$n.img" || exit 99
	done
	exec "$2" run "$3" --results "$4"' \
    sh "$shared" "$RAIDLAB" "$TEST_TMP/lab.cfg" "$TEST_TMP/res" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
[ "$rc" -ne 99 ] || fail "nobody could not create files in $shared"
expect_eq "run with the old names taken: exit status (stderr: $(cat "$TEST_TMP/err"))" "$rc" 0
rec=$(ls "$TEST_TMP"/res/names-*.json)
expect_eq "the record's status" "$(jq -r .status "$rec")" "ok"

# The other user's files are still there, theirs and empty; nothing of
# the run is left.
taken=$(find "$shared" -name 'raidlab-v-*' -user nobody -size 0 | wc -l)
expect_eq "nobody's files left alone" "$taken" 4
left=$(find "$shared" -name 'raidlab-v-*' ! -user nobody)
expect_eq "scratch files left by the run" "$left" ""
expect_eq "loop devices over $shared" \
    "$(losetup -n -O BACK-FILE | grep -F "$shared/" || true)" ""
exit 0
