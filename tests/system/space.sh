#!/bin/sh
# Room for the workloads, checked before anything is built or measured
# (root: a small real ext4 on a loop device plays the full disk):
#  - a directory variant on a filesystem with less free space than the
#    workloads' data set: run --dry-run and run refuse it with the
#    figures, nothing is created or recorded; check says so and exits 3;
#  - scratch disks in a directory with less room than what the workloads
#    write on them (a btrfs raid1 writes it twice): refused before a
#    scratch file or loop device exists;
#  - a data set larger than the array itself: refused;
#  - scratch disks whose full size exceeds the directory's free space,
#    with a small data set: a warning, and the run goes ahead.
# The expected data sets are recomputed here from the lab's parameters.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq mkfs.ext4 mkfs.btrfs losetup findmnt

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
finish() {
	"$RAIDLAB" cleanup --force >/dev/null 2>&1
	cleanup
}
trap finish EXIT

# units_format_size() as awk: 1024-based, one decimal unless it is .0.
human() {
	awk -v b="$1" 'BEGIN {
		split("K M G T P E", s, " "); v = b; i = 0
		if (b < 1024) { printf "%dB", b; exit }
		while (v >= 1024 && i < 6) { v /= 1024; i++ }
		if (int(v * 10 + 0.5) % 10 == 0) printf "%.0f%s", v, s[i]
		else printf "%.1f%s", v, s[i]
	}'
}

new_loop dev 96M
mkfs.ext4 -q -F -m 0 "$dev" || fail "mkfs.ext4 $dev"
small="$TEST_TMP/small"
do_mount "$dev" "$small"
avail=$(df -B1 --output=avail "$small" | tail -n 1 | tr -d ' ')

# --- a directory variant without room
count=50000
cat >"$TEST_TMP/dir.cfg" <<EOF
name = "full"; cache = "keep";
variants = ( { name = "d"; directory = "$small/target"; } );
workloads = ( { type = "smallfiles"; count = $count; size = "3K"; } );
EOF
need=$((count * 4096)) # each 3K file takes a 4K block
[ "$need" -gt "$avail" ] || fail "the test filesystem is too large ($avail free)"
why="variants.d.directory: $small/target: its filesystem \\($small\\) has .* free, less than the $(human $need) the workloads write there"

"$RAIDLAB" run -n "$TEST_TMP/dir.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "dry run: exit status" "$?" 3
expect_match "dry run: why" "$(cat "$TEST_TMP/err")" "dir.cfg:2: $why"
expect_match "dry run: refused" "$(cat "$TEST_TMP/err")" 'refused: nothing was changed'

"$RAIDLAB" run "$TEST_TMP/dir.cfg" --results "$TEST_TMP/res-dir" \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "run: exit status" "$?" 3
expect_match "run: why" "$(cat "$TEST_TMP/err")" "dir.cfg:2: $why"
[ ! -e "$small/target" ] || fail "run: the directory was created"
[ ! -e "$TEST_TMP/res-dir" ] || fail "run: a record was written"

"$RAIDLAB" check "$TEST_TMP/dir.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "check: valid, but cannot run here" "$?" 3
expect_match "check: says it" "$(cat "$TEST_TMP/err")" \
	"$why \\(raidlab run refuses this here\\)"

# --- scratch disks in a directory without room for the data written
disks="$small/disks"
mkdir -p "$disks"
fio_size=$((48 * 1024 * 1024))
cat >"$TEST_TMP/raw.cfg" <<EOF
name = "raw"; cache = "keep";
variants = (
  { name = "m"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; }; }
);
workloads = ( { type = "fio"; rw = "write"; size = "48M"; } );
EOF
raw=$((fio_size * 2)) # raid1: every byte twice
[ "$raw" -gt "$avail" ] || fail "the test filesystem is too large ($avail free)"
"$RAIDLAB" run "$TEST_TMP/raw.cfg" --results "$TEST_TMP/res-raw" \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "scratch: exit status" "$?" 3
expect_match "scratch: why" "$(cat "$TEST_TMP/err")" \
	"raw.cfg:3: variants.m.scratch.dir: $disks has .* free, less than the $(human $raw) the workloads' data set \\($(human $fio_size)\\) takes on the scratch disks"
expect_eq "scratch: no scratch file made" "$(ls -A "$disks")" ""
expect_eq "scratch: no loop device" \
	"$(losetup -n -O NAME,BACK-FILE -l | grep -F "$disks/" || true)" ""
[ ! -e "$TEST_TMP/res-raw" ] || fail "scratch: a record was written"

# --- a data set larger than the array
cat >"$TEST_TMP/cap.cfg" <<EOF
name = "cap"; cache = "keep";
variants = (
  { name = "one"; scratch = { count = 1; size = "64M"; dir = "$TEST_TMP"; };
    array = { engine = "single"; devices = [ "scratch:0" ]; };
    fs = { type = "ext4"; }; }
);
workloads = ( { type = "fio"; rw = "write"; size = "100M"; threads = 2; } );
EOF
"$RAIDLAB" run -n "$TEST_TMP/cap.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "array: exit status" "$?" 3
expect_match "array: why" "$(cat "$TEST_TMP/err")" \
	"cap.cfg:3: variants.one.scratch.size: the workloads' data set \\($(human $((2 * 100 * 1048576)))\\) does not fit on the array \\(about 64M for data on 1 scratch disks of 64M\\)"

# --- sparse files that could outgrow the directory: a warning only
cat >"$TEST_TMP/warn.cfg" <<EOF
name = "warn"; cache = "keep";
variants = (
  { name = "w"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; }; }
);
workloads = ( { type = "smallfiles"; count = 20; } );
EOF
"$RAIDLAB" run "$TEST_TMP/warn.cfg" --results "$TEST_TMP/res-warn" \
	>/dev/null 2>"$TEST_TMP/err"
rc=$?
[ "$rc" = 0 ] || { cat "$TEST_TMP/err" >&2; fail "warning: exit status $rc"; }
expect_match "warning: said" "$(cat "$TEST_TMP/err")" \
	"warn.cfg:3: variants.w.scratch.dir: $disks has .* free, less than the scratch disks' full size \\(2 x 256M = 512M\\): the sparse files could outgrow it"
expect_eq "warning: the run went ahead" \
	"$(jq -r '.runs[0].status' "$TEST_TMP"/res-warn/warn-*.json)" ok
expect_eq "warning: nothing left" "$(ls -A "$disks")" ""
exit 0
