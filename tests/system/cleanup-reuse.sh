#!/bin/sh
# raidlab cleanup never touches a device it did not build (issue 10). A
# run on a scratch disk is SIGKILLed once mounted; the user then does what
# users do: unmounts it and detaches its loop device by hand. Somebody
# else's filesystem image is attached under the freed name. `raidlab
# cleanup` must leave that device exactly as it was (signature and every
# byte), say why, and end with status 0 and nothing of the run left.
# Done for an ext4 on a single disk (wipefs) and a two-disk btrfs raid1
# (wipefs, btrfs device scan --forget). Private state and scratch
# directories keep other processes' journals and loop devices out of it.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd losetup findmnt mkfs.ext4 mkfs.btrfs btrfs blkid sha256sum timeout

state="$TEST_TMP/state"
scratch="$TEST_TMP/scratch"
RAIDLAB_STATE_DIR=$state
export RAIDLAB_STATE_DIR
pid=
mkdir -p "$scratch"

undo_leftovers() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	undo_run "$state" "$scratch"
	cleanup
}
trap undo_leftovers EXIT

mounts() { run_mounts "$state"; }

# run_mounted LAB: start a run in the background ($pid), and wait until
# its mount appears.
run_mounted() {
	"$RAIDLAB" run "$1" --results "$TEST_TMP/res" >"$TEST_TMP/out" \
	    2>"$TEST_TMP/err" &
	pid=$!
	i=0
	while [ -z "$(mounts)" ]; do
		kill -0 "$pid" 2>/dev/null ||
		    fail "run ended before its mount: $(cat "$TEST_TMP/err")"
		[ $i -lt 600 ] || fail "run: no mount within 60 s"
		sleep 0.1
		i=$((i + 1))
	done
}

# run_and_kill LAB: start a run, wait for its mount, kill -9 it.
run_and_kill() {
	run_mounted "$1"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	pid=
}

# bystander WANT MKFS...: a filesystem image that is not raidlab's,
# attached under the freed loop name WANT when still free (losetup
# refuses a busy one), else under any free name; its device goes in $o.
bystander() {
	_img="$TEST_TMP/bystander-$(basename "$1").img"
	truncate -s 300M "$_img"
	_want=$1
	shift
	"$@" "$_img" >/dev/null 2>&1 || fail "$* $_img"
	o=$(losetup --show "$_want" "$_img" 2>/dev/null) ||
	    o=$(losetup -f --show "$_img") || fail "losetup $_img"
}

# One scenario: lab text, mkfs of the bystander, what cleanup must not run.
scenario() {
	name=$1 lab="$TEST_TMP/$1.cfg"
	cat >"$lab"
	run_and_kill "$lab"
	# The user tidies up by hand: unmount, then detach every loop.
	for m in $(mounts); do umount "$m" || fail "$name: umount $m"; done
	devs=
	for f in "$scratch"/*.img; do
		d=$(losetup -j "$f" | cut -d: -f1)
		[ -n "$d" ] || fail "$name: $f is not attached"
		btrfs device scan --forget "$d" >/dev/null 2>&1
		losetup -d "$d" || fail "$name: losetup -d $d"
		devs="$devs $d"
	done
	# Somebody else's filesystems get the freed names.
	others=
	for d in $devs; do
		bystander "$d" $mkfs
		others="$others $o"
		[ "$o" = "$d" ] || echo "note: $d was taken; the bystander is $o"
	done
	before=
	for o in $others; do
		before="$before$(blkid -p -o export "$o" | grep -E '^(TYPE|UUID|UUID_SUB)=' | tr '\n' ' ')$(sha256sum <"$o")$NL"
	done
	out=$(timeout 300 "$RAIDLAB" cleanup 2>"$TEST_TMP/cerr")
	rc=$?
	expect_eq "$name: cleanup exit status ($out $(cat "$TEST_TMP/cerr"))" "$rc" 0
	after=
	for o in $others; do
		after="$after$(blkid -p -o export "$o" | grep -E '^(TYPE|UUID|UUID_SUB)=' | tr '\n' ' ')$(sha256sum <"$o")$NL"
	done
	expect_eq "$name: the bystanders after cleanup" "$after" "$before"
	for o in $others; do
		if printf '%s\n' "$out" | grep -E "(wipefs|--forget).*$o( |:|$)" |
		    grep -q ': ok'; then
			fail "$name: cleanup ran an undo on $o: $out"
		fi
	done
	if [ "$(echo $devs)" = "$(echo $others)" ]; then
		expect_match "$name: says why" "$out" \
		    "left /dev/loop[0-9]+ alone: .*(another device now|not the)"
	fi
	[ -z "$(ls "$scratch")" ] || fail "$name: scratch files left: $(ls "$scratch")"
	! ls "$state"/*.journal >/dev/null 2>&1 ||
	    fail "$name: journal left: $(cat "$state"/*.journal)"
	out=$(timeout 60 "$RAIDLAB" cleanup) || fail "$name: second cleanup: $?"
	expect_eq "$name: second cleanup" "$out" "nothing to clean up"
	for o in $others; do
		losetup -d "$o"
	done
}

mkfs="mkfs.ext4 -q -F" scenario single-ext4 <<EOF
name = "reuse";
variants = (
  { name = "one"; scratch = { count = 1; size = "300M"; dir = "$scratch"; };
    array = { engine = "single"; }; fs = { type = "ext4"; }; }
);
workloads = ( { type = "smallfiles"; count = 100000000; size = "0";
  sync = false; } );
EOF

mkfs="mkfs.btrfs -q -f" scenario btrfs-raid1 <<EOF
name = "reuse";
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

# A lazy unmount of the target mid-run (umount -l): the run stops, its
# teardown finds the mount gone, and cleanup converges at once (an undo
# whose work is done is moot, not a failure).
cat >"$TEST_TMP/lazy.cfg" <<EOF
name = "lazy";
variants = (
  { name = "one"; scratch = { count = 1; size = "300M"; dir = "$scratch"; };
    array = { engine = "single"; }; fs = { type = "ext4"; }; }
);
workloads = ( { type = "smallfiles"; count = 100000000; size = "0";
  sync = false; } );
EOF
run_mounted "$TEST_TMP/lazy.cfg"
umount -l "$(mounts)" || fail "umount -l"
kill -INT "$pid"
wait "$pid"
pid=
out=$(timeout 300 "$RAIDLAB" cleanup 2>&1)
expect_eq "lazy: cleanup exit status ($out)" "$?" 0
out=$(timeout 60 "$RAIDLAB" cleanup 2>&1)
expect_eq "lazy: second cleanup" "$out" "nothing to clean up"
[ -z "$(mounts)" ] || fail "lazy: mounts left: $(mounts)"
[ -z "$(losetup -a | grep -F "$scratch/")" ] ||
    fail "lazy: loop devices left: $(losetup -a | grep -F "$scratch/")"
[ -z "$(ls "$scratch")" ] || fail "lazy: scratch files left: $(ls "$scratch")"
exit 0
