#!/bin/sh
# The interactive lab's first start and its Disks screen, in tmux: the
# default lab's name in the header, the inventory with verdicts (a loop
# device of ours appears by itself and shows its signature), the detail
# pane follows the selection, help on F1 and ?, resizing to 80x24 keeps
# the layout, --ascii draws no line characters, and q quits cleanly with
# nothing on stderr. Without root the loop device part is skipped.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

tui_start
tui_wait_for '^ 1 Disks'
tui_wait_for 'quick *$'
tui_wait_for 'NAME +SIZE +TYPE'
screen=$(tui_screen)
expect_match "first start: the root disk is busy" "$screen" \
	'holds /'
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
	# A device that appears while the screen is shown: picked up by the
	# periodic rescan, with its signature and verdict.
	new_loop dev 64M
	mkfs.ext4 -q -L tuitest "$dev" || fail "mkfs.ext4"
	name=${dev#/dev/}
	tui_wait_for "$name .*ext4 +has.data" 15
	# Select it and read the detail pane.
	for _i in $(seq 1 60); do
		tui_screen | grep -Eq "^/dev/$name " && break
		tui_keys Down
		sleep 0.05
	done
	tui_wait_for "^/dev/$name +64M"
	tui_wait_for 'has data: .*ext4'
fi

tui_resize 80 24
tui_wait_for '^ 1 Disks'
tui_wait_for 'F1 help'
[ "$(tui_screen | wc -l)" -le 24 ] || fail "resize: more than 24 rows"
tui_keys q
expect_eq "quit: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

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
