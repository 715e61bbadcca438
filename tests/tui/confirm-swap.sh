#!/bin/sh
# The TUI's typed confirmation binds to the disk its dialog lists (issue
# 19, item 1): a lab's variant b is on loop device A, holding an ext4
# labelled "mine". While the dialog lists A, A's backing file is swapped
# for victim.img (an ext4 labelled "victim"); then A's name is typed. The
# run must refuse b, saying A is not the device that was confirmed, and
# the victim's filesystem must survive. Root only (loop devices).
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_root
need_cmd jq blkid losetup mkfs.ext4

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
finish() {
	tui_stop
	"$RAIDLAB" cleanup --force >/dev/null 2>&1
	cleanup
}
trap finish EXIT

new_loop_apart A 64M
mkfs.ext4 -q -F -L mine "$A" >/dev/null 2>&1 || fail "mkfs.ext4 $A"
victim=$TEST_TMP/victim.img
truncate -s 64M "$victim" || fail "truncate $victim"
mkfs.ext4 -q -F -L victim "$victim" >/dev/null 2>&1 || fail "mkfs.ext4 $victim"
cat >"$TEST_TMP/lab.cfg" <<EOF
name = "tuiswap"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "b"; array = { engine = "single"; devices = [ "$A" ]; };
  fs = { type = "ext4"; }; } );
workloads = ( { name = "few"; type = "smallfiles"; count = 20; size = "1K"; } );
EOF

# Wide enough for the log's refusal line.
TUI_COLS=220 tui_start "$TEST_TMP/lab.cfg"
tui_wait_for 'tuiswap'
tui_keys "$(tui_tab Run)" r
tui_wait_for 'hold data that the run will destroy'
tui_wait_for "$A"
# The dialog lists A: now its name is given to another disk. Nothing is
# built until the names are typed, so losing the number to somebody
# else's losetup -f only fails the test.
losetup -d "$A" || fail "losetup -d $A"
# Another test's probe may hold A open for a moment (its detach then
# waits for that close); A is ours alone, so a busy attach is retried.
i=0
until losetup "$A" "$victim" 2>/dev/null || [ "$i" -ge 200 ]; do
	i=$((i + 1))
	sleep 0.1
done
losetup -n -O BACK-FILE "$A" 2>/dev/null | grep -qxF "$victim" ||
	fail "swap: $A could not be attached to $victim in 20 s"
udevadm settle 2>/dev/null
tui_text "$A"
tui_keys Enter
tui_wait_for "$A: not the device that was confirmed" 30
tui_wait_for 'run done' 30
expect_eq "the victim's label (blkid)" \
	"$(blkid -p -s LABEL -o value "$victim")" victim
rec=$(ls "$TEST_TMP"/results/tuiswap-*.json)
expect_eq "b's build refused" "$(jq -r '.builds[0].status' "$rec")" refused
expect_eq "bound to what the dialog listed" \
	"$(jq -r '.builds[0].confirmed[0].label' "$rec")" mine
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
echo "tui confirm-swap: ok"
