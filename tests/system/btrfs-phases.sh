#!/bin/sh
# btrfs's degraded phase on the host's loop devices: a btrfs raid1 of 2
# and a raid10 of 4, each measured with its last member lost (wiped, as a
# dead disk, and forgotten by the kernel) and mounted -o degraded; beside
# them the same raid1 healthy. The record names the member failed, the
# mount carries the degraded option and btrfs itself reports the device
# missing while it stands (seen through the run's --hook), the live
# output tells the phase of each degraded variant once, every
# workload ran, and nothing is left: no mount, no loop device over the
# scratch files. A phase btrfs does not have here (rebuild) and a loss
# its profile would not survive are refused at check with their reasons.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq losetup mkfs.btrfs btrfs findmnt

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
disks="$TEST_TMP/disks"
mkdir -p "$disks"
trap 'undo_run "$RAIDLAB_STATE_DIR" "$disks"; cleanup' EXIT

lab="$TEST_TMP/lab.cfg"
cat >"$lab" <<LAB
name = "btrfs-phases";
cache = "keep";
defaults = { scratch = { size = "256M"; dir = "$disks"; }; };
variants = (
  { name = "r1-healthy"; scratch = { count = 2; };
    array = { engine = "btrfs"; level = "raid1"; }; },
  { name = "r1-degraded"; scratch = { count = 2; };
    array = { engine = "btrfs"; level = "raid1"; phase = "degraded"; }; },
  { name = "r10-degraded"; scratch = { count = 4; };
    array = { engine = "btrfs"; level = "raid10";
      metadata_profile = "raid10"; phase = "degraded"; fail = 1; }; }
);
workloads = (
  { name = "w"; type = "fio"; rw = "write"; bs = "64K"; size = "8M";
    end_fsync = true; }
);
LAB
"$RAIDLAB" check -q "$lab" || fail "the lab does not check"

hook="$TEST_TMP/hook.sh"
cat >"$hook" <<HOOK
#!/bin/sh
# raidlab runs it as: HOOK VARIANT TARGET
btrfs filesystem show "\$2" >"$TEST_TMP/show-\$1" 2>&1
findmnt -n -o OPTIONS "\$2" >"$TEST_TMP/opts-\$1"
HOOK
chmod +x "$hook"

"$RAIDLAB" run "$lab" --repeats 1 --hook "$hook" --results "$TEST_TMP/res" \
	--json >"$TEST_TMP/rec.json" 2>"$TEST_TMP/err" ||
	fail "run: $(tail -n 20 "$TEST_TMP/err")"
rec=$TEST_TMP/rec.json

bq() {
	jq -r --arg v "$1" '[.builds[] | select(.variant == $v or
		((.variant | objects | .name) == $v))][0] | '"$2" "$rec"
}

for v in r1-healthy r1-degraded r10-degraded; do
	expect_eq "$v: built" "$(bq "$v" .status)" ok
	expect_eq "$v: its run" "$(jq -r --arg v "$v" '[.runs[] |
		select((.variant | objects | .name) == $v or .variant == $v)
		| .status] | join(",")' "$rec")" ok
	expect_eq "$v: torn down" "$(bq "$v" '[.teardown[] | .status == "ok"]
		| all')" true
done
expect_eq "r1-healthy: no phase" "$(bq r1-healthy '.phase // "none"')" none
grep -q degraded "$TEST_TMP/opts-r1-healthy" &&
	fail "r1-healthy: mounted degraded: $(cat "$TEST_TMP/opts-r1-healthy")"
last=$(bq r1-degraded '[.plan.devices[] | select(.role == "member") | .path] | last')
expect_eq "r1-degraded: the last member failed" \
	"$(bq r1-degraded '"\(.phase.name) \(.phase.failed | join(","))"')" \
	"degraded $last"
# The live output tells the phase once, before the workloads; the
# healthy variant has none.
expect_match "r1-degraded: the phase told" "$(cat "$TEST_TMP/err")" \
	"raidlab run: r1-degraded: phase degraded \\(1 of 2 members failed\\) (·|-) failed $last"
expect_eq "r10-degraded: the phase told once" \
	"$(grep -c '^raidlab run: r10-degraded: phase degraded (1 of 4 members failed)' "$TEST_TMP/err")" 1
expect_eq "r1-healthy: no phase told" \
	"$(grep -c '^raidlab run: r1-healthy: phase' "$TEST_TMP/err")" 0
expect_match "r1-degraded: mounted -o degraded" \
	"$(cat "$TEST_TMP/opts-r1-degraded")" '(^|,)degraded(,|$)'
expect_match "r1-degraded: btrfs misses a device" \
	"$(cat "$TEST_TMP/show-r1-degraded")" 'MISSING|missing'
expect_match "r10-degraded: btrfs misses a device" \
	"$(cat "$TEST_TMP/show-r10-degraded")" 'MISSING|missing'
expect_eq "r10-degraded: one member failed" \
	"$(bq r10-degraded '.phase.failed | length')" 1
expect_eq "nothing mounted after" "$(run_mounts "$RAIDLAB_STATE_DIR")" ""
expect_eq "no loop device over the scratch files after" \
	"$(losetup -n -O BACK-FILE 2>/dev/null | grep -cF "$disks/")" 0

# Refused at check: what btrfs does not have here, and a loss too many.
cat >"$TEST_TMP/bad.cfg" <<BAD
name = "bad";
variants = (
  { name = "rb"; scratch = { count = 2; size = "1G"; };
    array = { engine = "btrfs"; level = "raid1"; phase = "rebuild"; }; },
  { name = "two"; scratch = { count = 3; size = "1G"; };
    array = { engine = "btrfs"; level = "raid1"; phase = "degraded";
      fail = 2; }; }
);
workloads = ( { type = "fio"; } );
BAD
"$RAIDLAB" check -q "$TEST_TMP/bad.cfg" >/dev/null 2>"$TEST_TMP/err" &&
	fail "check accepted the bad phases"
expect_match "rebuild refused for btrfs" "$(cat "$TEST_TMP/err")" \
	'bad\.cfg:4: variants\.rb\.array\.phase: raidlab runs btrfs degraded only \(a mount with members missing\); phase "rebuild" is md.s'
expect_match "two of raid1 refused" "$(cat "$TEST_TMP/err")" \
	'bad\.cfg:7: variants\.two\.array\.fail: btrfs raid1 of 3 devices survives the loss of 1; failing 2 would lose the data'
exit 0
