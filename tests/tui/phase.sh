#!/bin/sh
# The Run screen shows a variant's fault phase under the status line,
# above the charts: a btrfs raid1 measured with its last member lost
# (phase "degraded", on the host's loop devices) reads "phase degraded
# (1 of 2 members failed) · failed DEV", DEV the member the record says
# was failed, in 80 columns; narrower, the member goes and the count
# stays. The run leaves no mount and no loop device over its scratch
# files. md's rebuild progress cannot be built here (no md): its line is
# tests/unit/test-labrun-phase.c's.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_root
need_cmd jq losetup mkfs.btrfs btrfs findmnt

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
disks="$TEST_TMP/disks"
mkdir -p "$disks"
trap 'tui_stop; undo_run "$RAIDLAB_STATE_DIR" "$disks"; cleanup' EXIT

cat >"$TEST_TMP/phase.cfg" <<EOF2
name = "phase"; cache = "keep"; results = "$TEST_TMP/results";
variants = (
  { name = "deg"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; phase = "degraded"; }; } );
workloads = ( { name = "w"; type = "smallfiles"; counts = [200]; } );
EOF2

TUI_COLS=80 TUI_ROWS=30 TUI_ENV=
tui_start "$TEST_TMP/phase.cfg"
tui_wait_for 'phase'
tui_keys F5
tui_wait_for 'Finished|Stopped' 120
s=$(tui_screen)
printf '%s\n' "$s" | grep -q 'Finished' || { tui_dump; fail "the run did not finish"; }
rec=$(ls "$TEST_TMP"/results/phase-*.json)
failed=$(jq -r '.builds[0].phase.failed | join(", ")' "$rec")
expect_match "the record names a failed member" "$failed" '^/dev/loop[0-9]+$'
# Row 3: under the tabs and the status line, above the charts' border.
expect_eq "the phase line at 80 columns" "$(printf '%s\n' "$s" | sed -n 3p |
	sed 's/ *$//')" "phase degraded (1 of 2 members failed) · failed $failed"
printf '%s\n' "$s" | sed -n 4p | grep -q '┌' ||
	{ tui_dump; fail "the charts do not start under the phase line"; }

tui_resize 40 30
tui_wait_for '^phase degraded \(1 of 2 members failed\) *$'

tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
expect_eq "nothing mounted after" "$(run_mounts "$RAIDLAB_STATE_DIR")" ""
expect_eq "no loop device over the scratch files after" \
	"$(losetup -n -O BACK-FILE 2>/dev/null | grep -cF "$disks/")" 0
echo "tui phase: ok"
