#!/bin/sh
# Real disks take the place of the scratch disks a new array starts with:
# on Disks, m on a free disk makes it the only member (the message says
# so) and m on a second one adds it, giving a mirror of the two disks,
# not a 4-way one with two sparse files; Compose shows just those two.
# The devices picker judges disks as the Disks screen does: a free disk
# reads "free" (not "has data") and a busy one (mounted) is not offered.
# Root: loop devices of the test's own.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"
need_root
need_cmd mkfs.ext4

new_loop da 64M
new_loop db 64M
new_loop dc 64M
mkfs.ext4 -q "$dc" || fail "mkfs.ext4"
do_mount "$dc" "$TEST_TMP/mnt"
a=${da#/dev/} b=${db#/dev/} c=${dc#/dev/}
# The starting point Compose gives a new array: RAID1 on two scratch disks.
cat >"$TEST_TMP/sc.cfg" <<EOF
name = "sc"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "mirror";
  scratch = { count = 2; size = "1G"; dir = "$TEST_TMP"; };
  array = { level = "1"; }; } );
workloads = ( { name = "w"; type = "smallfiles"; count = 10; dirs = 1; } );
EOF

# The Compose form's row of a field.
field() {
	tui_screen | grep -E "[│|] ?$1 {2,}" | head -n 1
}

tui_start "$TEST_TMP/sc.cfg"
tui_wait_for "$a .* free " 15
tui_wait_for "$b .* free " 15
select_dev "$a"
tui_keys m
tui_wait_for "/dev/$a: a member of mirror in place of its scratch disks"
select_dev "$b"
tui_keys m
tui_wait_for "/dev/$b: a member of mirror"
tui_keys 2
tui_wait_for '^Variants'
tui_wait_for "devices +/dev/$a /dev/$b *$"
case $(field devices) in
*scratch*) tui_dump; fail "the scratch disks are still members: $(field devices)" ;;
esac
# The picker, from the devices field (name, description, target, engine,
# level, nested legs, devices).
tui_keys Enter Down Down Down Down Down Down Enter
tui_wait_for 'Members and spares'
tui_wait_for "\[M\] /dev/$a +64M free"
tui_wait_for "\[M\] /dev/$b +64M free"
if tui_screen | grep -q "/dev/$c "; then
	tui_dump
	fail "the picker offers /dev/$c, which is mounted"
fi
tui_keys Escape
tui_wait_gone 'Members and spares'
tui_keys Escape q
tui_wait_for 'Unsaved changes'
tui_keys d
expect_eq "exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui disks-scratch: ok"
