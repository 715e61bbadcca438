#!/bin/sh
# Each run's record carries its devices' activity beside its series: a
# directory variant on ext4 on a real loop device records that device,
# its bytes written at least half of what the workload wrote and no more
# than the kernel counted for the whole command, busy within 0..1, every
# array aligned with the series' t; a variant on a filesystem with no
# device (tmpfs) records none.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq losetup mkfs.ext4 findmnt awk

new_loop dev 256M
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || fail "mkfs.ext4 $dev"
do_mount "$dev" "$TEST_TMP/mnt"
name=${dev##*/}

# The kernel's own count of sectors written (field 7 of the stat file).
sectors() {
	awk '{ print $7 }' "/sys/class/block/$name/stat"
}

lab="$TEST_TMP/lab.cfg"
cat >"$lab" <<EOF
name = "members";
cache = "keep";
variants = (
  { name = "ext4"; directory = "$TEST_TMP/mnt/dir"; }
);
workloads = (
  { name = "seqw"; type = "fio"; rw = "write"; bs = "256K"; size = "16M";
    runtime = 2; direct = true; end_fsync = true; }
);
EOF

before=$(sectors)
"$RAIDLAB" run "$lab" --results "$TEST_TMP/res" >"$TEST_TMP/out" \
	2>"$TEST_TMP/err" || fail "run: $(cat "$TEST_TMP/err")"
after=$(sectors)
rec=$(ls "$TEST_TMP"/res/members-*.json 2>/dev/null)
[ -n "$rec" ] || fail "run: no record"
q() { jq -r "$1" "$rec"; }

expect_eq "members: the loop device alone" \
	"$(q '.runs[0].series.members | map(.name) | join(",")')" "$name"
expect_eq "members: its role" "$(q '.runs[0].series.members[0].role')" device
n=$(q '.runs[0].series.t | length')
[ "$n" -ge 4 ] || fail "series: $n samples in 2 s of 250 ms ticks"
expect_eq "members: arrays aligned with t" \
	"$(q '.runs[0].series.members[0] | [.read_bytes, .write_bytes, .busy]
	    | map(length) | join(",")')" "$n,$n,$n"
expect_eq "members: busy within 0..1 or unknown" \
	"$(q '.runs[0].series.members[0].busy
	    | map(. == null or (. >= 0 and . <= 1)) | all')" true
expect_eq "members: busy some of the time" \
	"$(q '.runs[0].series.members[0].busy
	    | map(select(. != null and . > 0)) | length > 0')" true

wrote=$(q '.runs[0].tests | map(.bytes_written) | add')
[ "$wrote" -ge $((16 << 20)) ] || fail "workload: wrote $wrote bytes"
dev_wrote=$(q '.runs[0].series.members[0].write_bytes | add')
[ "$dev_wrote" -gt $((wrote / 2)) ] ||
	fail "members: $name wrote $dev_wrote bytes, the workload $wrote"
kernel=$(((after - before) * 512))
[ "$dev_wrote" -le "$kernel" ] ||
	fail "members: $dev_wrote bytes recorded, the kernel counted $kernel"
# The series' own counters cover the same run.
expect_eq "series: the samples add up to the workload's bytes" \
	"$(q '.runs[0].series.bytes_written | add')" "$wrote"
expect_eq "series: one tick a sample in a short run" \
	"$(q '.runs[0].series.merged')" 1

# A filesystem without a device (major 0: tmpfs) has no members.
nodev=
for d in "$TEST_TMP" /dev/shm; do
	maj=$(findmnt -n -o MAJ:MIN --target "$d" 2>/dev/null |
	    tail -n 1 | tr -d ' ')
	if [ "${maj%%:*}" = 0 ]; then
		nodev=$d
		break
	fi
done
[ -n "$nodev" ] || exit 0
dir=$(mktemp -d "$nodev/raidlab-members.XXXXXX") || fail "mktemp in $nodev"
cat >"$TEST_TMP/lab2.cfg" <<EOF
name = "nodev";
cache = "keep";
variants = ( { name = "mem"; directory = "$dir/d"; } );
workloads = ( { name = "small"; type = "smallfiles"; counts = [20]; } );
EOF
"$RAIDLAB" run "$TEST_TMP/lab2.cfg" --results "$TEST_TMP/res2" \
	>/dev/null 2>"$TEST_TMP/err"
rc=$?
rm -rf "$dir"
[ "$rc" = 0 ] || fail "run on $nodev: $(cat "$TEST_TMP/err")"
rec2=$(ls "$TEST_TMP"/res2/nodev-*.json)
expect_eq "members: none on a filesystem without a device" \
	"$(jq -r '.runs[0].series.members | length' "$rec2")" 0
exit 0
