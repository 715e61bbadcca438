#!/bin/sh
# A target that breaks during a run fails the run, with the reason, and
# nothing more runs on it (root, real ext4 on loop devices):
#  - ext4 mounted errors=remount-ro that hits an error mid-workload goes
#    read-only: that run failed, the next workload is recorded as not run,
#    with why, and the record says failed;
#  - ext4 mounted errors=continue stays writable after the error, so the
#    workload itself succeeds: still failed, because the filesystem
#    counted an error (it used to be recorded ok);
#  - an XFS shut down (xfs_io -x -c shutdown) mid-workload: mountinfo
#    says nothing, a write says EIO: the next workload is not run;
#  - a scratch variant whose mount is lazily unmounted (umount -l) while a
#    workload runs: the record's target is still the loop device and the
#    run's mount point (it used to say /dev/vda on /), the run fails with
#    the reason, and nothing is written onto the directory below.
# The error is the kernel's own test hook, /sys/fs/ext4/DEV/trigger_fs_error.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq mkfs.ext4 findmnt losetup

state="$TEST_TMP/state"
disks="$TEST_TMP/disks"
mkdir -p "$disks"
export RAIDLAB_STATE_DIR="$state"

pid=
finish() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	"$RAIDLAB" cleanup --force >/dev/null 2>&1
	cleanup
}
trap finish EXIT

# wait_for WHAT CMD...: until CMD succeeds, for 60 s at most, while the
# run is alive.
wait_for() {
	_what=$1
	shift
	_i=0
	until "$@" >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ "$_i" -ge 600 ] || ! kill -0 "$pid" 2>/dev/null; then
			cat "$TEST_TMP/err" >&2
			fail "$_what: never happened"
		fi
		sleep 0.1
	done
}

# wait_run: raidlab's exit status, within 120 s (a hang bound only).
wait_run() {
	_i=0
	while kill -0 "$pid" 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -lt 1200 ] || fail "the run did not end after the error"
		sleep 0.1
	done
	wait "$pid"
	_rc=$?
	pid=
	return $_rc
}

# An ext4 of our own, mounted with the given error behaviour.
new_loop dev 256M
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4 $dev"
kname=$(basename "$dev")

# broken_lab NAME DIR: a long first workload (smallfiles without end, or
# fio for a fixed time), a short second one.
broken_lab() {
	cat <<EOF
name = "$1"; cache = "keep";
variants = ( { name = "t"; directory = "$2"; } );
workloads = (
  { name = "first"; type = "fio"; rw = "write"; size = "4M"; runtime = 5; },
  { name = "second"; type = "smallfiles"; count = 50; size = "1K"; }
);
EOF
}

for mode in remount-ro continue; do
	mnt="$TEST_TMP/mnt-$mode"
	do_mount "$dev" "$mnt" "errors=$mode"
	# The same ext4 as the mode before, whose read-only run cannot
	# remove its workload's directory: when ext4 committed it before the
	# error (a journal commit in that tenth of a second), the leftover
	# raidlab-first.* set this mode's error off before the run took its
	# baseline, and the run saw none (exit 0, once in a while).
	rm -rf "$mnt"/t/raidlab-*
	[ -e "/sys/fs/ext4/$kname/trigger_fs_error" ] ||
		skip "this kernel has no /sys/fs/ext4/DEV/trigger_fs_error"
	broken_lab "err-$mode" "$mnt/t" >"$TEST_TMP/$mode.cfg"
	"$RAIDLAB" run "$TEST_TMP/$mode.cfg" --results "$TEST_TMP/res-$mode" \
		>/dev/null 2>"$TEST_TMP/err" &
	pid=$!
	wait_for "$mode: the first workload started" \
		sh -c "ls -d '$mnt'/t/raidlab-first.* "
	before=$(cat "/sys/fs/ext4/$kname/errors_count")
	echo "raidlab test" >"/sys/fs/ext4/$kname/trigger_fs_error"
	wait_run
	rc=$?
	# What the run saw, should it not fail.
	[ "$rc" = 1 ] || {
		echo "errors_count: $before before the error, $(cat \
			"/sys/fs/ext4/$kname/errors_count") now" >&2
		cat "$TEST_TMP/err" >&2
		jq -c '.runs[] | {status, error, notes, skipped,
			wall: .tests[0].wall}' \
			"$TEST_TMP"/res-"$mode"/err-"$mode"-*.json >&2
	}
	expect_eq "$mode: exit status" "$rc" 1
	rec=$(ls "$TEST_TMP"/res-"$mode"/err-"$mode"-*.json)
	q() { jq -r "$1" "$rec"; }
	if [ "$mode" = remount-ro ]; then
		why='read-only'
	else
		why='filesystem errors during the run'
	fi
	expect_eq "$mode: record status" "$(q .status)" failed
	expect_eq "$mode: the first run failed" "$(q '.runs[0].status')" failed
	expect_match "$mode: with the reason" \
		"$(q '.runs[0] | [.error] + .notes | join(" ")')" "$why"
	expect_eq "$mode: the second did not run" "$(q '.runs[1].status')" null
	expect_match "$mode: and says why" "$(q '.runs[1].skipped')" \
		"^not run: the target $mnt/t \\(ext4 on $dev\\) .*$why"
	expect_match "$mode: said on stderr" "$(cat "$TEST_TMP/err")" \
		"variant t: the target $mnt/t .*$why"
	umount "$mnt" || fail "$mode: umount"
	TEST_MOUNTS=$(printf '%s\n' "$TEST_MOUNTS" | grep -vxF "$mnt")
	e2fsck -fy "$dev" >/dev/null 2>&1
done

# XFS shut down (as after a metadata I/O error): mountinfo still says rw,
# only a write shows it (EIO).
if command -v mkfs.xfs >/dev/null && command -v xfs_io >/dev/null; then
	new_loop xdev 512M
	mkfs.xfs -q -f "$xdev" || fail "mkfs.xfs $xdev"
	mnt="$TEST_TMP/mnt-xfs"
	do_mount "$xdev" "$mnt"
	broken_lab "err-xfs" "$mnt/t" >"$TEST_TMP/xfs.cfg"
	"$RAIDLAB" run "$TEST_TMP/xfs.cfg" --results "$TEST_TMP/res-xfs" \
		>/dev/null 2>"$TEST_TMP/err" &
	pid=$!
	wait_for "xfs: the first workload started" \
		sh -c "ls -d '$mnt'/t/raidlab-first.* "
	xfs_io -x -c shutdown "$mnt" || fail "xfs_io shutdown"
	wait_run
	expect_eq "xfs: exit status" "$?" 1
	rec=$(ls "$TEST_TMP"/res-xfs/err-xfs-*.json)
	expect_eq "xfs: the first run failed" "$(jq -r '.runs[0].status' "$rec")" failed
	expect_match "xfs: the second did not run, and says why" \
		"$(jq -r '.runs[1].skipped' "$rec")" \
		"^not run: the target $mnt/t \\(xfs on $xdev\\) (cannot be reached|cannot be written any more): Input/output error"
	umount "$mnt" || fail "xfs: umount"
	TEST_MOUNTS=$(printf '%s\n' "$TEST_MOUNTS" | grep -vxF "$mnt")
fi

# A lazy unmount of a scratch variant's mount while it measures.
cat >"$TEST_TMP/lazy.cfg" <<EOF
name = "lazy"; cache = "keep";
variants = (
  { name = "s"; scratch = { count = 1; size = "256M"; dir = "$disks"; };
    array = { engine = "single"; devices = [ "scratch:0" ]; };
    fs = { type = "ext4"; }; }
);
workloads = (
  { name = "first"; type = "fio"; rw = "write"; size = "4M"; runtime = 5; },
  { name = "second"; type = "smallfiles"; count = 50; size = "1K"; }
);
EOF
"$RAIDLAB" run "$TEST_TMP/lazy.cfg" --results "$TEST_TMP/res-lazy" \
	>/dev/null 2>"$TEST_TMP/err" &
pid=$!
scratch_loop() {
	losetup -n -O NAME -j "$(ls "$disks"/raidlab-s-*-0.img 2>/dev/null)" \
		2>/dev/null | grep -q .
}
wait_for "lazy: the scratch disk attached" scratch_loop
loop=$(losetup -n -O NAME -j "$(ls "$disks"/raidlab-s-*-0.img)")
wait_for "lazy: mounted" findmnt -n "$loop"
mp=$(findmnt -n -o TARGET "$loop" | head -n 1)
wait_for "lazy: the first workload started" sh -c "ls -d '$mp'/raidlab-first.*"
umount -l "$mp" || fail "umount -l $mp"
wait_run
expect_eq "lazy: exit status" "$?" 1
rec=$(ls "$TEST_TMP"/res-lazy/lazy-*.json)
q() { jq -r "$1" "$rec"; }
expect_eq "lazy: the target is still the scratch disk" \
	"$(q '.runs[0].target.source')" "$loop"
expect_eq "lazy: mounted where the run mounted it" \
	"$(q '.runs[0].target.mount_point')" "$mp"
expect_eq "lazy: ext4" "$(q '.runs[0].target.fstype')" ext4
expect_eq "lazy: the first run failed" "$(q '.runs[0].status')" failed
# The reason is the error, or a note when the workload failed first on
# the vanished directory (a race with umount -l).
expect_match "lazy: with the reason" \
	"$(q '[.runs[0].error] + (.runs[0].notes // []) | join("; ")')" \
	'not mounted (there|on .*) any more'
expect_match "lazy: the second did not run" "$(q '.runs[1].skipped')" \
	'^not run: .*not mounted'
# Nothing of the workloads landed in the directory below the mount.
if [ -d "$mp" ]; then
	expect_eq "lazy: nothing written below the mount" "$(ls -A "$mp")" ""
fi
exit 0
