#!/bin/sh
# Array variants built for real on this kernel (root, scratch disks over
# sparse files): btrfs raid0/1/10/5/6 data and metadata profiles over 4
# members, XFS with an external log, ext4 with an external journal
# (journal_dev), ext4 stride/stripe-width, readahead, btrfs as a plain
# filesystem on one device. Each built set-up is
# inspected with the real tools while raidlab measures on it (btrfs
# filesystem df/show, xfs_info, dumpe2fs, blkid, blockdev --getra,
# findmnt), then the record must say the same, and afterwards nothing may
# be left: no loop device over the scratch files, no mount, no file, an
# empty state journal. SIGINT mid-run tears down too. An md variant on a
# kernel without md fails with the reason while the other variants still
# run; md itself is tested in a VM (tests/system/md-vm.sh).
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq btrfs mkfs.btrfs mkfs.xfs xfs_info mke2fs dumpe2fs blkid \
	blockdev findmnt wipefs losetup

state="$TEST_TMP/state"
disks="$TEST_TMP/disks"
mkdir -p "$disks"
export RAIDLAB_STATE_DIR="$state"

# The scratch loops of this test, by backing file (never by number).
our_loops() {
	losetup -n -O NAME,BACK-FILE -l 2>/dev/null | grep -F "$disks/" || true
}

# Whatever happens, leave nothing of raidlab's behind.
pid=
finish() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	"$RAIDLAB" cleanup --force >/dev/null 2>&1
	cleanup
}
trap finish EXIT

lab="$TEST_TMP/build.cfg"
btrfs_variant() { # NAME PROFILE
	cat <<EOF
  { name = "$1"; scratch = { count = 4; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "$2"; metadata_profile = "$2"; };
    fs = { mount_options = "noatime"; }; },
EOF
}
{
	echo 'name = "build"; cache = "keep";'
	echo 'variants = ('
	for p in raid0 raid1 raid10 raid5 raid6; do
		btrfs_variant "b-$p" "$p"
	done
	cat <<EOF
  { name = "xfs-log"; scratch = { count = 2; size = "320M"; dir = "$disks"; };
    array = { engine = "single"; devices = [ "scratch:0" ]; };
    fs = { type = "xfs"; journal = { device = "scratch:1"; size = "64M"; }; }; },
  { name = "ext4-jdev"; scratch = { count = 2; size = "128M"; dir = "$disks"; };
    array = { engine = "single"; devices = [ "scratch:0" ]; };
    fs = { type = "ext4"; journal = { device = "scratch:1"; };
      geometry = { stride = 16; stripe_width = 48; }; data = "writeback"; };
    readahead = "1M"; },
  { name = "btrfs-one"; scratch = { count = 1; size = "256M"; dir = "$disks"; };
    array = { engine = "single"; devices = [ "scratch:0" ]; };
    fs = { type = "btrfs"; }; }
);
workloads = (
  { name = "w"; type = "fio"; rw = "write"; size = "8M"; runtime = 3; }
);
EOF
} >"$lab"
"$RAIDLAB" check "$lab" >/dev/null || fail "the test lab does not check"

"$RAIDLAB" run "$lab" --results "$TEST_TMP/res" >"$TEST_TMP/out" \
	2>"$TEST_TMP/err" &
pid=$!

# mnt_of VARIANT: where the run mounted it (a mount point of its own,
# STATE/mnt/PID-VARIANT); empty when not mounted.
mnt_of() {
	findmnt -rn -o TARGET | grep -E "^$state/mnt/[0-9]+-$1\$" | head -n 1
}

# wait_mount VARIANT: the mount raidlab made for it, within 60 s.
wait_mount() {
	_i=0
	while [ -z "$(mnt_of "$1")" ]; do
		_i=$((_i + 1))
		if [ "$_i" -ge 600 ]; then
			cat "$TEST_TMP/err" >&2
			fail "$1: never mounted"
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			cat "$TEST_TMP/err" >&2
			fail "$1: raidlab exited before mounting it"
		fi
		sleep 0.1
	done
}

for p in raid0 raid1 raid10 raid5 raid6; do
	wait_mount "b-$p"
	m=$(mnt_of "b-$p")
	P=$(echo "$p" | tr a-z A-Z)
	df=$(btrfs filesystem df "$m")
	expect_match "b-$p: data profile" "$df" "^Data, $P:"
	expect_match "b-$p: metadata profile" "$df" "Metadata, $P:"
	show=$(btrfs filesystem show "$m")
	expect_match "b-$p: 4 devices" "$show" 'Total devices 4'
	for f in 0 1 2 3; do
		expect_match "b-$p: member $f is a scratch disk" "$show" \
			"path $(losetup -n -O NAME -j "$(ls "$disks"/raidlab-b-$p-*-$f.img)")\$"
	done
	expect_match "b-$p: mount options" "$(findmnt -n -o OPTIONS "$m")" \
		'(^|,)noatime(,|$)'
done

wait_mount xfs-log
m=$(mnt_of "xfs-log")
info=$(xfs_info "$m")
logdev=$(findmnt -n -o OPTIONS "$m" | tr , '\n' | sed -n 's/^logdev=//p')
[ -b "$logdev" ] || fail "xfs-log: mounted without logdev= ($logdev)"
# xfsprogs 6.1 names the log device where older ones said "external".
expect_match "xfs-log: the log is external, 64M" "$info" \
	"log +=($logdev|external) +bsize=4096 +blocks=16384"
expect_match "xfs-log: the log device is scratch:1" \
	"$(losetup -n -O BACK-FILE "$logdev")" "$disks/raidlab-xfs-log-.*-1.img"

wait_mount ext4-jdev
m=$(mnt_of "ext4-jdev")
dev=$(findmnt -n -o SOURCE "$m")
h=$(dumpe2fs -h "$dev" 2>/dev/null)
expect_match "ext4-jdev: external journal" "$h" 'Journal device:[[:space:]]+0x'
expect_match "ext4-jdev: stride" "$h" 'RAID stride: +16'
expect_match "ext4-jdev: stripe width" "$h" 'RAID stripe width: +48'
jdev=$(losetup -n -O NAME -j "$(ls "$disks"/raidlab-ext4-jdev-*-1.img)")
expect_eq "ext4-jdev: the journal device is a jbd" \
	"$(blkid -p -o value -s TYPE "$jdev")" jbd
expect_match "ext4-jdev: data=writeback" "$(findmnt -n -o OPTIONS "$m")" \
	'data=writeback'
# blockdev --setra is the step after the mount: poll until it lands, and
# fail if the variant is torn down first.
ra=$(blockdev --getra "$dev")
while [ "$ra" != 2048 ] && findmnt -n "$m" >/dev/null 2>&1; do
	sleep 0.05
	ra=$(blockdev --getra "$dev" 2>/dev/null)
done
expect_eq "ext4-jdev: readahead (512-byte sectors)" "$ra" 2048

# btrfs as a plain filesystem on one device (what an md array gives).
wait_mount btrfs-one
m=$(mnt_of "btrfs-one")
expect_eq "btrfs-one: mounted as btrfs" "$(findmnt -n -o FSTYPE "$m")" btrfs
show=$(btrfs filesystem show "$m")
expect_match "btrfs-one: one device" "$show" 'Total devices 1 '
expect_match "btrfs-one: the device is the scratch disk" "$show" \
	"path $(losetup -n -O NAME -j "$(ls "$disks"/raidlab-btrfs-one-*-0.img)")\$"

wait "$pid"
rc=$?
pid=
if [ "$rc" != 0 ]; then
	cat "$TEST_TMP/err" >&2
	fail "run: exit status $rc"
fi

# The record tells the same story.
rec=$(ls "$TEST_TMP"/res/build-*.json)
q() { jq -r "$1" "$rec"; }
expect_eq "record: builds" "$(q '.builds | length')" 8
expect_eq "record: every build ok" \
	"$(q '[.builds[] | select(.status == "ok")] | length')" 8
expect_eq "record: every run ok" \
	"$(q '[.runs[] | select(.status == "ok")] | length')" 8
expect_eq "record: scratch label" "$(q '.builds[0].label')" \
	"scratch: functional, not representative"
expect_match "record: btrfs df" "$(q '.builds[2].facts.btrfs_df')" \
	'Data, RAID10'
expect_match "record: btrfs show of btrfs-one" \
	"$(q '.builds[7].facts.btrfs_show')" 'Total devices 1 '
expect_match "record: xfs_info" "$(q '.builds[5].facts.xfs_info')" \
	'log +=(/dev/loop[0-9]+|external) '
expect_match "record: dumpe2fs" "$(q '.builds[6].facts.dumpe2fs')" \
	'RAID stripe width: +48'
expect_match "record: readahead" \
	"$(q '.builds[6].facts | to_entries[] | select(.key | startswith("readahead")) | .value')" \
	'^2048'
expect_match "record: mkfs output" \
	"$(q '.builds[6].steps[] | select(.argv[0] == "mkfs.ext4") | .output')" \
	'Creating filesystem'
expect_eq "record: teardown ok" \
	"$(q '[.builds[].teardown[] | select(.status != "ok")] | length')" 0
expect_match "table: scratch label" "$(cat "$TEST_TMP/out")" \
	'scratch: functional, not representative'

# Nothing left behind.
expect_eq "after: loop devices" "$(our_loops)" ""
expect_eq "after: scratch files" "$(ls -A "$disks")" ""
expect_eq "after: mounts" \
	"$(findmnt -n -l -o TARGET | grep -F "$state" || true)" ""
expect_eq "after: journal" "$(ls "$state"/*.journal 2>/dev/null)" ""

# No md driver on this kernel: the md variant fails with the reason, the
# btrfs one still runs, and the exit status says something failed.
if [ ! -e /proc/mdstat ]; then
	cat >"$TEST_TMP/md.cfg" <<EOF
name = "nomd"; cache = "keep";
variants = (
  { name = "r1"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { level = 1; }; fs = { type = "ext4"; }; },
  { name = "b1"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; }; }
);
workloads = ( { type = "smallfiles"; counts = [10]; } );
EOF
	"$RAIDLAB" run "$TEST_TMP/md.cfg" --results "$TEST_TMP/res2" \
		>/dev/null 2>"$TEST_TMP/err2"
	expect_eq "no md: exit status" "$?" 1
	expect_match "no md: the reason" "$(cat "$TEST_TMP/err2")" \
		'variant r1: this kernel has no md driver'
	rec=$(ls "$TEST_TMP"/res2/nomd-*.json)
	expect_eq "no md: the btrfs variant ran" \
		"$(jq -r '.runs[1].status' "$rec")" ok
	expect_match "no md: the md run is recorded as skipped, with why" \
		"$(jq -r '.runs[0].skipped' "$rec")" 'no md driver'
	expect_eq "no md: nothing left" "$(our_loops)$(ls -A "$disks")" ""
fi
# A step that fails (mkfs refuses an option) stops the variant: what was
# built is undone, the error names the step and why, the next variant
# still runs, and nothing is left.
cat >"$TEST_TMP/fail.cfg" <<EOF
name = "fail"; cache = "keep";
variants = (
  { name = "bad"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; };
    fs = { mkfs_options = "--no-such-option"; }; },
  { name = "good"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; }; }
);
workloads = ( { type = "smallfiles"; counts = [10]; } );
EOF
"$RAIDLAB" run "$TEST_TMP/fail.cfg" --results "$TEST_TMP/res4" \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "failed step: exit status" "$?" 1
expect_match "failed step: which and why" "$(cat "$TEST_TMP/err")" \
	"variant bad: step 3 failed: mkfs.btrfs -f -d raid1 --no-such-option .*: exit status 1: .*unrecognized option '--no-such-option'"
rec=$(ls "$TEST_TMP"/res4/fail-*.json)
expect_eq "failed step: recorded" "$(jq -r '.builds[0].status' "$rec")" failed
expect_match "failed step: what it may have written was undone" \
	"$(jq -r '[.builds[0].teardown[].command] | join(";")' "$rec")" \
	'^wipefs --all /dev/loop[0-9]+ /dev/loop[0-9]+;btrfs device scan --forget '
expect_match "failed step: the runs say why" \
	"$(jq -r '.runs[0].skipped' "$rec")" 'step 3 failed'
expect_eq "failed step: the next variant ran" \
	"$(jq -r '.runs[1].status' "$rec")" ok
expect_eq "failed step: nothing left" "$(our_loops)$(ls -A "$disks")" ""

# SIGINT while measuring: the workers stop, the array is torn down, the
# scratch disks are released, and the run says it was interrupted.
cat >"$TEST_TMP/int.cfg" <<EOF
name = "int"; cache = "keep";
variants = (
  { name = "m"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; }; }
);
workloads = ( { type = "fio"; rw = "write"; size = "8M"; runtime = 60; } );
EOF
"$RAIDLAB" run "$TEST_TMP/int.cfg" --results "$TEST_TMP/res3" \
	>/dev/null 2>"$TEST_TMP/err" &
pid=$!
wait_mount m
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
pid=
expect_eq "SIGINT: exit status" "$rc" 130
rec=$(ls "$TEST_TMP"/res3/int-*.json)
expect_eq "SIGINT: record status" "$(jq -r .status "$rec")" interrupted
expect_eq "SIGINT: torn down" "$(jq -r '.builds[0].status' "$rec")" ok
expect_eq "SIGINT: nothing left" "$(our_loops)$(ls -A "$disks")" ""
expect_eq "SIGINT: no mount" \
	"$(findmnt -n -l -o TARGET | grep -F "$state" || true)" ""
echo "build: ok"
