#!/bin/sh
# raidlab disks on real loop devices, checked against the system's own
# tools (blkid, findmnt, blockdev, losetup): signatures, sizes, mounts,
# partitions, verdicts and reasons, device arguments, the table, and a
# run as an unprivileged user. Root only; releases exactly its devices.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq losetup mkfs.ext4 mkfs.btrfs btrfs blkid findmnt blockdev dd partx

# mkfs.btrfs registers its device with the kernel: forget it on exit.
BTRFS_DEV=
disks_cleanup() {
	[ -n "$BTRFS_DEV" ] && btrfs device scan --forget "$BTRFS_DEV" \
	    >/dev/null 2>&1
	cleanup
}
trap disks_cleanup EXIT

new_loop ext 64M
mkfs.ext4 -q -L rl-ext "$ext" || fail "mkfs.ext4 $ext"
new_loop btr 256M
BTRFS_DEV=$btr
mkfs.btrfs -q -f -L rl-btr "$btr" >/dev/null || fail "mkfs.btrfs $btr"
new_loop blank 32M
new_loop mnt 64M
mkfs.ext4 -q "$mnt" || fail "mkfs.ext4 $mnt"
mdir="$TEST_TMP/mnt point"
do_mount "$mnt" "$mdir"

# A DOS partition table with two 16 MiB partitions, the first mounted.
pimg=$(mktemp "$TEST_TMP/part.XXXXXX")
truncate -s 64M "$pimg" || fail "truncate $pimg"
printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\200\000\000\000\000\000\000\203\000\000\000\000\210\000\000\000\200\000\000' |
    dd of="$pimg" bs=1 seek=446 conv=notrunc 2>/dev/null
printf '\125\252' | dd of="$pimg" bs=1 seek=510 conv=notrunc 2>/dev/null
pdev=$(losetup -f --show -P "$pimg") || fail "losetup -P $pimg"
# Without udev the kernel's own scan may miss; partx asks it again.
[ -b "${pdev}p1" ] || partx -a "$pdev" 2>/dev/null
i=0
while [ ! -b "${pdev}p1" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -b "${pdev}p1" ] || skip "no partition nodes for $pdev"
mkfs.ext4 -q "${pdev}p1" || fail "mkfs.ext4 ${pdev}p1"
do_mount "${pdev}p1" "$TEST_TMP/part1"

json=$("$RAIDLAB" disks --json) || fail "raidlab disks --json exits non-zero"
printf '%s' "$json" | jq -e '.devices | type == "array"' >/dev/null ||
    fail "no devices array"

# field DEV EXPR: a jq expression on the device whose path is DEV.
field() {
	printf '%s' "$json" |
	    jq -r --arg p "$1" ".devices[] | select(.path == \$p) | $2"
}

for d in "$ext" "$btr" "$mnt" "$blank" "$pdev"; do
	expect_eq "$d listed" "$(field "$d" .name)" "${d#/dev/}"
	expect_eq "$d size" "$(field "$d" .size)" "$(blockdev --getsize64 "$d")"
	expect_eq "$d fstype" "$(field "$d" '.fstype // ""')" \
	    "$(blkid -p -o value -s TYPE "$d")"
	expect_eq "$d uuid" "$(field "$d" '.uuid // ""')" \
	    "$(blkid -p -o value -s UUID "$d")"
	expect_eq "$d label" "$(field "$d" '.label // ""')" \
	    "$(blkid -p -o value -s LABEL "$d")"
	expect_eq "$d backing file" "$(field "$d" .backing_file)" \
	    "$(losetup -n -O BACK-FILE "$d" | sed 's/ *$//')"
	expect_eq "$d type" "$(field "$d" .type)" loop
	expect_eq "$d transport" "$(field "$d" .transport)" loop
done

expect_eq "ext4 verdict" "$(field "$ext" .verdict)" has-data
expect_eq "ext4 reason" "$(field "$ext" .reason)" \
    "ext4 signature (label 'rl-ext')"
expect_eq "btrfs verdict" "$(field "$btr" .verdict)" has-data
expect_eq "blank verdict" "$(field "$blank" .verdict)" free
expect_eq "blank fstype" "$(field "$blank" .fstype)" null
expect_eq "mounted verdict" "$(field "$mnt" .verdict)" busy
expect_eq "mount point" "$(field "$mnt" '.mountpoints[0]')" \
    "$(findmnt -n -o TARGET --source "$mnt")"
expect_eq "mounted reason" "$(field "$mnt" .reason)" "mounted on $mdir"

expect_eq "partition table" "$(field "$pdev" .pttype)" \
    "$(blkid -p -o value -s PTTYPE "$pdev")"
expect_eq "partitions" "$(field "$pdev" '.partitions | join(",")')" \
    "${pdev#/dev/}p1,${pdev#/dev/}p2"
expect_eq "partition parent" "$(field "${pdev}p2" .parent)" "${pdev#/dev/}"
expect_eq "partition size" "$(field "${pdev}p1" .size)" \
    "$(blockdev --getsize64 "${pdev}p1")"
expect_eq "free partition" "$(field "${pdev}p2" .verdict)" free
expect_eq "disk busy through partition" "$(field "$pdev" .verdict)" busy
expect_eq "disk reason" "$(field "$pdev" .reason)" \
    "partition ${pdev#/dev/}p1 is mounted on $TEST_TMP/part1"

# The device that holds / (when it is a block device at all) is busy.
rsrc=$(findmnt -n -o SOURCE / | sed 's/\[.*\]$//')
if [ -b "$rsrc" ]; then
	out=$("$RAIDLAB" disks --json "$rsrc") || fail "disks $rsrc"
	expect_eq "root verdict" \
	    "$(printf '%s' "$out" | jq -r '.devices[0].verdict')" busy
	expect_eq "root flag" \
	    "$(printf '%s' "$out" | jq -r '.devices[0].root')" true
fi

# Device arguments: by path, by name, through a symlink; errors named.
out=$("$RAIDLAB" disks --json "$ext") || fail "disks $ext"
expect_eq "one device" "$(printf '%s' "$out" | jq '.devices | length')" 1
ln -s "$blank" "$TEST_TMP/link"
out=$("$RAIDLAB" disks --json "$TEST_TMP/link" "${pdev#/dev/}") ||
    fail "disks via symlink and name"
expect_eq "symlink and name" \
    "$(printf '%s' "$out" | jq -r '[.devices[].name] | join(",")')" \
    "${blank#/dev/},${pdev#/dev/},${pdev#/dev/}p1,${pdev#/dev/}p2"
"$RAIDLAB" disks /etc/hostname >/dev/null 2>"$TEST_TMP/err" &&
    fail "disks on a regular file exits 0"
expect_match "not a block device" "$(cat "$TEST_TMP/err")" \
    "/etc/hostname is not a block device"
"$RAIDLAB" disks /nonexistent >/dev/null 2>"$TEST_TMP/err" &&
    fail "disks on a missing path exits 0"
expect_match "missing path" "$(cat "$TEST_TMP/err")" "/nonexistent"
"$RAIDLAB" disks --bogus >/dev/null 2>&1
expect_eq "bad option status" "$?" 2

# The table lists the devices with their verdicts; on a terminal within
# its 80 columns (on a pipe never cut: see cli-words.sh).
out=$(LC_ALL=C "$RAIDLAB" disks) || fail "raidlab disks exits non-zero"
expect_match "table header" "$out" "^NAME +SIZE +TYPE"
for d in "$ext" "$btr" "$mnt" "$blank"; do
	expect_match "table lists $d" "$out" "^${d#/dev/} "
done
expect_match "table partition" "$out" "^\\|-${pdev#/dev/}p1 "
expect_match "table busy" "$out" "^${mnt#/dev/} .*busy +mounted on"
need_cmd script stty
long=$(LC_ALL=C script -qec "stty cols 80; '$RAIDLAB' disks" /dev/null |
    tr -d '\r' | awk 'length($0) > 80' | grep -c .)
expect_eq "lines over 80 bytes (ASCII locale)" "$long" 0
out=$(LC_ALL=C.UTF-8 "$RAIDLAB" disks) || fail "raidlab disks (UTF-8)"
if [ "$(LC_ALL=C.UTF-8 locale charmap 2>/dev/null)" = UTF-8 ]; then
	expect_match "UTF-8 tree" "$out" "^├─${pdev#/dev/}p1 "
	expect_match "UTF-8 tree end" "$out" "^└─${pdev#/dev/}p2 "
fi

# Unprivileged: devices it cannot open are listed with contents unknown.
if command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$RAIDLAB" --version >/dev/null 2>&1; then
	json=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$RAIDLAB" disks --json) || fail "disks as nobody exits non-zero"
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups \
	    sh -c "test -r '$ext'"; then
		expect_eq "nobody: probe" "$(field "$ext" .probe)" failed
		expect_eq "nobody: fstype" "$(field "$ext" .fstype)" null
		expect_eq "nobody: verdict" "$(field "$ext" .verdict)" has-data
		expect_eq "nobody: reason code" \
		    "$(field "$ext" .reason_code)" unknown
	fi
	expect_eq "nobody: mounted still busy" "$(field "$mnt" .verdict)" busy
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$RAIDLAB" disks >/dev/null || fail "disks table as nobody"
else
	printf 'note: cannot run raidlab as nobody here; unprivileged part skipped\n' >&2
fi
exit 0
