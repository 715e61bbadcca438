#!/bin/sh
# A refusal and the run log are read whole, at 80 and at 200 columns: a
# run refused for a device mounted on a long path shows its reasons in a
# dialog that wraps them (any key closes it), the log panel wraps the
# same lines instead of cutting them at the edge, and l shows the whole
# log. Root: a loop device of the test's own, mounted.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"
need_root
need_cmd mkfs.ext4

new_loop dev 64M
mkfs.ext4 -q "$dev" || fail "mkfs.ext4"
mnt="$TEST_TMP$(printf '/a-rather-long-directory-name-%s' 1 2 3 4 5 6 7)"
do_mount "$dev" "$mnt"
cat >"$TEST_TMP/busy.cfg" <<EOF
name = "busy"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "mirror";
  scratch = { count = 1; size = "64M"; dir = "$TEST_TMP"; };
  array = { engine = "btrfs"; level = "raid1";
            devices = [ "$dev", "scratch:0" ]; };
  fs = { type = "btrfs"; }; } );
workloads = ( { name = "w"; type = "smallfiles"; count = 10; dirs = 1; } );
EOF

# flat TEXT: without frames, blanks and line ends, so that a wrapped text
# reads as one.
flat() {
	printf '%s' "$1" | sed 's/[│|]//g' | tr -d ' \n'
}

# The reason ends in the mount point; the whole of it must be readable.
want=$(flat "mounted on $mnt")
for size in 80x24 200x50; do
	TUI_COLS=${size%x*} TUI_ROWS=${size#*x}
	tui_start "$TEST_TMP/busy.cfg"
	tui_wait_for 'busy *$'
	tui_keys F5
	tui_wait_for 'Refused' 20
	tui_wait_for 'any key: close'
	box=$(tui_screen | sed -n '/Refused/,/any key: close/p')
	case $(flat "$box") in
	*"$want"*) ;;
	*) tui_dump; fail "$size: the refusal dialog does not show the whole reason" ;;
	esac
	tui_keys Escape
	tui_wait_gone 'any key: close'
	# The log panel (the rows above the status bar) wraps: the mount
	# point whole, and PgUp scrolls back to the start of its line.
	log=$(tui_screen | head -n -1 | tail -n $((TUI_ROWS / 4)))
	case $(flat "$log") in
	*"$(flat "$mnt")"*) ;;
	*) tui_dump; fail "$size: the log panel cuts the reason" ;;
	esac
	tui_keys PPage
	n=0
	until tui_screen | head -n -1 | tail -n $((TUI_ROWS / 4)) |
		grep -q 'mounted on'; do
		n=$((n + 1))
		[ $n -lt $((100 * TUI_WAIT_SCALE)) ] || { tui_dump; fail "$size: PgUp: no 'mounted on'"; }
		sleep 0.1
	done
	tui_keys l
	tui_wait_for 'Run log'
	box=$(tui_screen | sed -n '/Run log/,/any key: close/p')
	case $(flat "$box") in
	*"$want"*) ;;
	*) tui_dump; fail "$size: l does not show the whole log" ;;
	esac
	tui_keys Escape
	tui_wait_gone 'Run log'
	tui_keys q
	expect_eq "$size: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
done
echo "tui refusal: ok"
