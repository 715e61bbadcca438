#!/bin/sh
# A confirmation names a disk, not a name (issue 19, item 1). A lab runs
# a directory variant `a`, then (order grouped) a variant `b` on loop
# device A, which holds an ext4 labelled "mine" that --yes-destroy=A
# confirms. While `a` stands, its hook swaps A's backing file for
# victim.img (another ext4, labelled "victim"): A is the same name, with
# another disk behind it. `b` must be refused, naming A and what changed,
# and the victim's filesystem must survive. Unchanged, a run builds `b`
# on A and `c` on disk B, both confirmed.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq blkid losetup mkfs.ext4

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
finish() {
	"$RAIDLAB" cleanup --force >/dev/null 2>&1
	cleanup
}
trap finish EXIT

new_loop_apart A 64M
mkfs.ext4 -q -F -L mine "$A" >/dev/null 2>&1 || fail "mkfs.ext4 $A"
victim=$TEST_TMP/victim.img
truncate -s 64M "$victim" || fail "truncate $victim"
mkfs.ext4 -q -F -L victim "$victim" >/dev/null 2>&1 || fail "mkfs.ext4 $victim"
victim_uuid=$(blkid -p -s UUID -o value "$victim")
[ -n "$victim_uuid" ] || fail "victim.img has no UUID"

cat >"$TEST_TMP/lab.cfg" <<EOF
name = "swap"; cache = "keep"; order = "grouped";
results = "$TEST_TMP/results";
variants = ( { name = "a"; directory = "$TEST_TMP/dir-a"; },
  { name = "b"; array = { engine = "single"; devices = [ "$A" ]; };
    fs = { type = "ext4"; }; } );
workloads = ( { name = "few"; type = "smallfiles"; count = 20; size = "1K"; } );
EOF
# The hook swaps for variant a only, before its workloads: the run is
# past its precheck (the confirmation given) and b not built yet. Should
# A not attach again within 20 s, the run
# is killed (nothing is built while a stands) and the test fails.
cat >"$TEST_TMP/hook" <<EOF
#!/bin/sh
[ "\$1" = a ] || exit 0
losetup -d "$A" || exit 1
# Another test's probe (blkid, an inventory) may hold A open for a
# moment: its detach then waits for that close. A is ours alone (added
# apart), so a busy attach is tried again, for 20 s at most.
i=0
until losetup "$A" "$victim" 2>/dev/null || [ \$i -ge 200 ]; do
	i=\$((i + 1))
	sleep 0.1
done
if ! losetup -n -O BACK-FILE "$A" 2>/dev/null | grep -qxF "$victim"; then
	echo lost >"$TEST_TMP/race"
	kill -KILL \$PPID
	exit 1
fi
udevadm settle 2>/dev/null
echo swapped >"$TEST_TMP/swapped"
EOF
chmod +x "$TEST_TMP/hook"

# ---- the name now holds another disk: b is refused, the victim survives
"$RAIDLAB" run --hook "$TEST_TMP/hook" --yes-destroy="$A" "$TEST_TMP/lab.cfg" \
	>"$TEST_TMP/swap.out" 2>"$TEST_TMP/swap.err"
rc=$?
[ ! -e "$TEST_TMP/race" ] || fail "swap: $A could not be attached to the victim in 20 s"
[ -e "$TEST_TMP/swapped" ] || fail "swap: the hook did not swap (stderr: $(cat "$TEST_TMP/swap.err"))"
expect_eq "swap: the victim's label (blkid)" \
	"$(blkid -p -s LABEL -o value "$victim")" victim
expect_eq "swap: the victim's UUID (blkid)" \
	"$(blkid -p -s UUID -o value "$victim")" "$victim_uuid"
expect_eq "swap: exit status (stderr: $(cat "$TEST_TMP/swap.err"))" "$rc" 1
expect_match "swap: the refusal names the device and what changed" \
	"$(cat "$TEST_TMP/swap.err")" \
	"variants\\.b\\.array\\.devices: $A: not the device that was confirmed.*\"mine\".*\"victim\""
rec=$(ls "$TEST_TMP"/results/swap-*.json)
expect_eq "swap: b's build refused" "$(jq -r '.builds[0].status' "$rec")" refused
expect_eq "swap: the record says what the confirmation bound to" \
	"$(jq -r '.builds[0].confirmed[0] | [.name, .type, .label] | join(" ")' "$rec")" \
	"$A ext4 mine"
expect_eq "swap: not one step of b ran" \
	"$(jq -r '[.builds[0].steps // [] | .[]] | length' "$rec")" 0
expect_eq "swap: nothing to clean up" \
	"$("$RAIDLAB" cleanup 2>&1 | grep -c wipefs)" 0
# what remains of the victim: A, detached by the test's exit trap
rm -rf "$TEST_TMP/results" "$TEST_TMP/dir-a"

# ---- unchanged: the confirmed disks are still there, and each variant
# is built on its own (a second variant c on disk B, also confirmed: a
# run's list names the disks of all its variants)
losetup -d "$A" || fail "losetup -d $A"
new_loop_apart A 64M
new_loop B 64M
mkfs.ext4 -q -F -L mine "$A" >/dev/null 2>&1 || fail "mkfs.ext4 $A"
mkfs.ext4 -q -F -L more "$B" >/dev/null 2>&1 || fail "mkfs.ext4 $B"
cat >"$TEST_TMP/lab2.cfg" <<EOF
name = "swap"; cache = "keep"; order = "grouped";
results = "$TEST_TMP/results";
variants = ( { name = "b"; array = { engine = "single"; devices = [ "$A" ]; };
    fs = { type = "ext4"; }; },
  { name = "c"; array = { engine = "single"; devices = [ "$B" ]; };
    fs = { type = "ext4"; }; } );
workloads = ( { name = "few"; type = "smallfiles"; count = 20; size = "1K"; } );
EOF
"$RAIDLAB" run --yes-destroy="$A,$B" "$TEST_TMP/lab2.cfg" \
	>"$TEST_TMP/same.out" 2>"$TEST_TMP/same.err"
expect_eq "unchanged: exit status (stderr: $(cat "$TEST_TMP/same.err"))" "$?" 0
rec=$(ls "$TEST_TMP"/results/swap-*.json)
expect_eq "unchanged: b and c built and torn down" \
	"$(jq -r '[.builds[] | .variant + " " + .status] | join(", ")' "$rec")" \
	"b ok, c ok"
expect_eq "unchanged: b's mkfs ran on $A" \
	"$(jq -r '[.builds[0].steps[] | select(.argv[0] == "mkfs.ext4") | .argv[-1]] | .[0]' "$rec")" "$A"
expect_eq "unchanged: mine and more were destroyed as confirmed" \
	"$(blkid -p -s LABEL -o value "$A"; blkid -p -s LABEL -o value "$B")" ""
echo "confirm-swap: ok"
