#!/bin/sh
# The interactive lab's first start and its Disks screen, in tmux: the
# default lab's name in the header, the inventory with verdicts (a loop
# device of ours appears by itself, free, and the signature mkfs then
# writes on it shows by itself too), the detail pane follows the
# selection, help on F1 and ?, m and s compose the variant's members and
# spares from here (a directory variant and a busy disk refused, a disk
# with data taken with a warning), resizing to 80x24 keeps the layout,
# --ascii draws no line characters, and q quits cleanly with nothing on
# stderr. Without root the loop device parts are skipped.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

# The device holding /, when it is a block device at all (not in a
# container); on a partitioned disk, the partition.
rsrc=$(findmnt -n -o SOURCE / | sed 's/\[.*\]$//')

tui_start
tui_wait_for '^ 1 Disks'
tui_wait_for 'quick *$'
tui_wait_for 'NAME +SIZE +TYPE'
screen=$(tui_screen)
if [ -b "$rsrc" ]; then
	expect_match "first start: the root disk is busy" "$screen" 'holds /'
fi
expect_match "first start: the status bar" "$screen" 'F1 help'

tui_keys F1
tui_wait_for 'select a device'
tui_wait_for 'switch screen'
tui_keys Escape
tui_wait_gone 'select a device'
tui_keys '?'
tui_wait_for 'rescan now'
tui_keys x

if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null 2>&1; then
	# A device that appears while the screen is shown is picked up by
	# itself, free; a signature written on it afterwards (no udevd here
	# to report it) shows by itself too, with its verdict.
	new_loop dev 64M
	name=${dev#/dev/}
	# (Its whole reason: the table fits beside the role marks.)
	tui_wait_for "$name .* free +no signature, not in use *$" 15
	mkfs.ext4 -q -L tuitest "$dev" || fail "mkfs.ext4"
	tui_wait_for "$name .*ext4 +has.data" 15
	# Select it and read the detail pane.
	select_dev "$name"
	tui_wait_for "^/dev/$name +64M"
	tui_wait_for 'has data: .*ext4'
	# The default lab's variant is a directory: m says so.
	tui_keys m
	tui_wait_for 'variant tmpdir is a directory: make it an array first'
	tui_keys Escape
	tui_wait_gone 'is a directory'
	# Mounted deep: the reason is cut by the table, its ellipsis in the
	# pane's last column (the table fits beside the role marks).
	do_mount "$dev" "$TEST_TMP$(printf '/a-rather-long-directory-name%.0s' 1 2 3)"
	tui_keys r
	tui_wait_for "$name .*busy +mounted on /.*…$"
	# The detail pane keeps the mount point's end.
	select_dev "$name"
	tui_wait_for "^  mounted on: ….*/a-rather-long-directory-name$"
	umount "$dev" || fail "umount $dev"
	tui_keys r
	tui_wait_for "$name .*ext4 +has.data"
	# The selection follows its disk, not its row: two more devices,
	# the lower one selected, the upper one goes; the selection (where
	# m and s act) stays on the lower one.
	new_loop da 64M
	new_loop db 64M
	tui_wait_for "${da#/dev/} .* free" 15
	tui_wait_for "${db#/dev/} .* free" 15
	upper=$(tui_screen | grep -Eo "^..(${da#/dev/}|${db#/dev/}) " | head -n 1 |
		awk '{ print $NF }')
	[ -n "$upper" ] || { tui_screen >&2; fail "neither ${da#/dev/} nor ${db#/dev/} listed"; }
	lower=${da#/dev/}
	[ "$upper" = "$lower" ] && lower=${db#/dev/}
	select_dev "$lower"
	# As the last row, the old clamp to the list's end would keep it
	# selected anyway: the check holds only with a row below it.
	last=$(tui_screen | sed -n '/NAME  *SIZE/,/^$/p' | grep -Eo '^..[a-z0-9]+' |
		tail -n 1 | cut -c3-)
	losetup -d "/dev/$upper" || fail "losetup -d /dev/$upper"
	tui_wait_gone "^..$upper " 15
	if [ "$last" = "$lower" ]; then
		echo "note: $lower is the last row: the follow check proves nothing here"
	else
		tui_wait_for "^/dev/$lower +64M"
	fi
	tui_keys Escape
	tui_wait_gone '^[0-9]+ devices'
fi

tui_resize 80 24
tui_wait_layout 24
# A help box taller than the screen scrolls; any other key closes it.
tui_resize 80 12
tui_wait_layout 12
tui_keys F1
tui_wait_for 'more: Down/PgDn'
tui_keys PgDn PgDn
tui_wait_for 'F5 +run the lab'
tui_wait_for 'Up/PgUp: back'
tui_keys Up
tui_wait_for 'more: Down/PgDn'
tui_keys Escape
tui_wait_gone 'more: Down/PgDn'
tui_resize 80 24
tui_wait_layout 24
tui_keys q
expect_eq "quit: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# An array composed from the Disks screen (root: a loop device with data
# and the root disk): m makes the selected device a member, marked M, and
# says the run will ask before destroying its data; s makes it a spare
# instead (S); m on a busy device is refused with its reason; the
# Compose screen shows the devices chosen here.
if [ "$(id -u)" = 0 ] && [ -n "${dev:-}" ]; then
	cat >"$TEST_TMP/pick.cfg" <<EOF
name = "pick";
variants = ( { name = "mirror"; array = { level = 1;
  devices = [ "/dev/raidlab-none-a", "/dev/raidlab-none-b" ]; }; } );
workloads = ( { type = "smallfiles"; counts = [10]; } );
EOF
	tui_start "$TEST_TMP/pick.cfg"
	tui_wait_for "$name .*ext4 +has.data" 15
	select_dev "$name"
	tui_keys m
	tui_wait_for "/dev/$name: a member of mirror; it has data, which the run destroys only once you confirm"
	tui_wait_for "^M $name "
	tui_wait_for 'pick \*'
	# Other tests attach and detach loop devices meanwhile, and the
	# highlight stays on its row, not its device, when the list changes:
	# select the device again before each key.
	select_dev "$name"
	tui_keys s
	tui_wait_for "/dev/$name: a spare of mirror"
	tui_wait_for "^S $name "
	select_dev "$name"
	tui_keys m
	tui_wait_for "^M $name "
	# The device holding / (a whole disk or a partition row, with its
	# tree glyph): refused, and left unmarked.
	if [ -b "$rsrc" ]; then
		root=$(basename "$(realpath "$rsrc")")
		select_dev "$root"
		tui_keys m
		tui_wait_for "/dev/$root is busy: holds /"
		tui_wait_for "^  [^[:alnum:] ]*$root "
	fi
	tui_keys 2
	tui_wait_for '^Variants'
	tui_wait_for "devices +/dev/raidlab-none-a /dev/raidlab-none-b /dev/$name"
	tui_keys q
	tui_wait_for 'Unsaved changes'
	tui_keys d
	expect_eq "pick: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
	tui_stop
fi

# --ascii: the same screen with no line-drawing or block characters.
tui_start --ascii
tui_wait_for 'NAME +SIZE +TYPE'
tui_keys '?'
tui_wait_for 'rescan now'
if tui_screen | grep -q '[│─┌┐└┘├]'; then
	tui_screen >&2
	fail "--ascii: line-drawing characters on the screen"
fi
tui_keys x q
expect_eq "--ascii: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui disks: ok"
