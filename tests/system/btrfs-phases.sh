#!/bin/sh
# btrfs's phases on the host's loop devices: a btrfs raid1 of 2 and a
# raid10 of 4, each measured with its last member lost (wiped, as a dead
# disk, and forgotten by the kernel) and mounted -o degraded; the raid1
# measured while btrfs scrubs it (check), and while btrfs replaces its
# lost member onto the wiped disk (rebuild); beside them the same raid1
# healthy. The record names the member failed, the mount carries the
# degraded option and btrfs itself reports the device missing while it
# stands (seen through the run's --hook), the live output tells the
# phase of each degraded variant once; the scrub and the replace are
# followed to their end, with btrfs's own figures and no error, and
# after the replace btrfs misses no device; every workload ran, and
# nothing is left: no mount, no loop device over the scratch files. Then
# a run killed (SIGKILL) while a scrub runs on its mount: `raidlab
# cleanup` cancels the scrub, which holds the mount, and leaves nothing.
# A rebuild of more than one member and a loss its profile would not
# survive are refused at check with their reasons.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq losetup mkfs.btrfs btrfs findmnt pgrep dd

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
disks="$TEST_TMP/disks"
mkdir -p "$disks"
pid=
# A scrub left running holds its mount, and a replace would resume at
# the next mount: both cancelled before the umounts.
undo_all() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	for m in $(run_mounts "$RAIDLAB_STATE_DIR"); do
		btrfs scrub cancel "$m" >/dev/null 2>&1
		btrfs replace cancel "$m" >/dev/null 2>&1
	done
	undo_run "$RAIDLAB_STATE_DIR" "$disks"
	cleanup
}
trap undo_all EXIT

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
      metadata_profile = "raid10"; phase = "degraded"; fail = 1; }; },
  { name = "r1-check"; scratch = { count = 2; };
    array = { engine = "btrfs"; level = "raid1"; phase = "check"; }; },
  { name = "r1-rebuild"; scratch = { count = 2; };
    array = { engine = "btrfs"; level = "raid1"; phase = "rebuild"; }; }
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

for v in r1-healthy r1-degraded r10-degraded r1-check r1-rebuild; do
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

# check: the scrub followed to its end, as btrfs itself reported it
expect_eq "r1-check: the phase" "$(bq r1-check .phase.name)" check
# jq: the index of the first command that starts with $p
first='def first($p): map(startswith($p)) | index(true);'
expect_eq "r1-check: the scrub is a step after the mount" \
	"$(bq r1-check "$first"'[.steps[].command] |
		first("btrfs scrub start ") > first("mount ")')" true
expect_eq "r1-check: followed as a scrub" "$(bq r1-check .phase.sync.action)" \
	scrub
expect_eq "r1-check: to its end" "$(bq r1-check .phase.sync.complete)" true
expect_eq "r1-check: btrfs says finished" \
	"$(bq r1-check .phase.sync.status)" finished
expect_eq "r1-check: it took time" \
	"$(bq r1-check '.phase.sync.seconds > 0')" true
expect_eq "r1-check: samples" \
	"$(bq r1-check '.phase.sync.samples.t | length > 0')" true
expect_eq "r1-check: every error counter, all 0" \
	"$(bq r1-check '.phase.sync.errors | (length > 0) and all(.[]; . == 0)')" \
	true
expect_eq "r1-check: covered said" \
	"$(bq r1-check '.phase.covered | type')" boolean
# btrfs's own words after the run: what it had to scrub, and no error
after=$(bq r1-check .phase.after.scrub_status)
expect_match "r1-check: btrfs's status after" "$after" \
	'Status: +finished'
expect_match "r1-check: no error, says btrfs" "$after" 'no errors found'
expect_eq "r1-check: what the scrub read, as btrfs counts it after" \
	"$(bq r1-check '.phase.sync.samples.done | last')" \
	"$(bq r1-check .phase.after.scrub_stats | awk '
		/data_bytes_scrubbed:|tree_bytes_scrubbed:/ { n += $2 }
		END { print n + 0 }')"
expect_match "r1-check: device stats after" \
	"$(bq r1-check .phase.after.device_stats)" 'corruption_errs +0'
expect_eq "r1-check: the scrub cancelled before the umount" \
	"$(bq r1-check "$first"'[.teardown[].command // ""] |
		first("btrfs scrub cancel ") as $c |
		$c != null and $c < first("umount ")')" true

# rebuild: the lost member replaced onto itself, wiped, while mounted
# degraded; followed to its end; btrfs misses no device after
last=$(bq r1-rebuild '[.plan.devices[] | select(.role == "member") | .path] | last')
expect_eq "r1-rebuild: the last member failed" \
	"$(bq r1-rebuild '"\(.phase.name) \(.phase.failed | join(","))"')" \
	"rebuild $last"
expect_match "r1-rebuild: mounted -o degraded" \
	"$(cat "$TEST_TMP/opts-r1-rebuild")" '(^|,)degraded(,|$)'
expect_eq "r1-rebuild: the replace is a step after the mount" \
	"$(bq r1-rebuild "$first"'[.steps[].command] |
		first("btrfs replace start 2 '"$last"' ") > first("mount ")')" \
	true
expect_eq "r1-rebuild: followed as a replace" \
	"$(bq r1-rebuild .phase.sync.action)" replace
expect_eq "r1-rebuild: to its end" "$(bq r1-rebuild .phase.sync.complete)" \
	true
expect_eq "r1-rebuild: btrfs says finished" \
	"$(bq r1-rebuild .phase.sync.status)" finished
expect_eq "r1-rebuild: it took time" \
	"$(bq r1-rebuild '.phase.sync.seconds > 0')" true
expect_eq "r1-rebuild: samples, the last at 100%" \
	"$(bq r1-rebuild '.phase.sync.samples | "\(.done | last)/\(.total | last)"')" \
	1000/1000
expect_eq "r1-rebuild: no error" \
	"$(bq r1-rebuild '.phase.sync.errors | (length > 0) and all(.[]; . == 0)')" \
	true
expect_match "r1-rebuild: a device missing before" \
	"$(bq r1-rebuild .phase.before.show)" 'MISSING|missing'
show=$(bq r1-rebuild .phase.after.show)
printf '%s\n' "$show" | grep -Eq 'MISSING|missing' &&
	fail "r1-rebuild: still missing a device after: $show"
expect_match "r1-rebuild: the replaced member is in the filesystem after" \
	"$show" "devid +2 .* path $last\$"
expect_match "r1-rebuild: btrfs says finished, no error" \
	"$(bq r1-rebuild .phase.after.replace_status)" \
	'finished on .* 0 write errs, 0 uncorr\. read errs'
expect_eq "r1-rebuild: the replace cancelled before the umount" \
	"$(bq r1-rebuild "$first"'[.teardown[].command // ""] |
		first("btrfs replace cancel ") as $c |
		$c != null and $c < first("umount ")')" true
uuid=$(bq r1-check .phase.after.scrub_status | awk '/^UUID:/ { print $2 }')
[ -n "$uuid" ] || fail "r1-check: no UUID in btrfs scrub status"
[ -e "/var/lib/btrfs/scrub.status.$uuid" ] &&
	fail "r1-check: btrfs-progs's scrub status of $uuid left behind"
expect_eq "nothing mounted after" "$(run_mounts "$RAIDLAB_STATE_DIR")" ""
expect_eq "no loop device over the scratch files after" \
	"$(losetup -n -O BACK-FILE 2>/dev/null | grep -cF "$disks/")" 0

# Killed while a scrub runs. raidlab's own scrub of a new filesystem
# ends in milliseconds, so the hook makes one that lasts: 160 MiB
# written, btrfs's scrub held to 4 MB/s per device, a scrub started on
# the run's mount; then it waits there, and the run is killed.
cat >"$TEST_TMP/kill.cfg" <<LAB
name = "btrfs-kill";
defaults = { scratch = { size = "512M"; dir = "$disks"; }; };
variants = (
  { name = "k"; scratch = { count = 2; };
    array = { engine = "btrfs"; level = "raid1"; phase = "check"; }; }
);
workloads = ( { name = "w"; type = "fio"; rw = "write"; size = "8M"; } );
LAB
cat >"$TEST_TMP/slow.sh" <<HOOK
#!/bin/sh
uuid=\$(findmnt -n -o UUID "\$2")
for f in /sys/fs/btrfs/\$uuid/devinfo/*/scrub_speed_max; do
	echo 4000000 >"\$f"
done
dd if=/dev/urandom of="\$2/fill" bs=1M count=160 conv=fsync status=none
if btrfs scrub start "\$2" >/dev/null 2>&1; then
	echo "\$2" >"$TEST_TMP/scrubbing"
else
	echo failed >"$TEST_TMP/scrubbing"
fi
sleep 300
HOOK
chmod +x "$TEST_TMP/slow.sh"
"$RAIDLAB" run "$TEST_TMP/kill.cfg" --repeats 1 --hook "$TEST_TMP/slow.sh" \
	--results "$TEST_TMP/res-kill" >"$TEST_TMP/kill.out" 2>&1 &
pid=$!
i=0
while [ ! -s "$TEST_TMP/scrubbing" ]; do
	kill -0 "$pid" 2>/dev/null ||
		fail "killed run: ended early: $(tail -n 20 "$TEST_TMP/kill.out")"
	[ $i -lt 1200 ] || fail "killed run: no scrub within 120 s"
	sleep 0.1
	i=$((i + 1))
done
mnt=$(cat "$TEST_TMP/scrubbing")
[ "$mnt" != failed ] || fail "killed run: the hook's scrub did not start"
# `raidlab cleanup` cannot know the filesystem's UUID: btrfs-progs's
# record of its scrub is this test's to remove.
kuuid=$(findmnt -n -o UUID "$mnt")
[ -n "$kuuid" ] || fail "killed run: no UUID for $mnt"
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
# The scrub outlives the run, and holds the mount.
pgrep -f "btrfs scrub start $mnt" >/dev/null ||
	fail "killed run: no scrub running on $mnt after the kill"
umount "$mnt" 2>/dev/null && fail "killed run: $mnt unmounted under a scrub"
"$RAIDLAB" cleanup >"$TEST_TMP/clean.out" 2>&1 ||
	fail "cleanup: $(cat "$TEST_TMP/clean.out")"
expect_match "cleanup cancelled the scrub" "$(cat "$TEST_TMP/clean.out")" \
	"btrfs scrub cancel $mnt: ok"
expect_eq "killed run: nothing mounted after cleanup" \
	"$(run_mounts "$RAIDLAB_STATE_DIR")" ""
expect_eq "killed run: no loop device over the scratch files after cleanup" \
	"$(losetup -n -O BACK-FILE 2>/dev/null | grep -cF "$disks/")" 0
# cancelled, the scrub's process ends by itself
i=0
while pgrep -f "btrfs scrub start $mnt" >/dev/null; do
	[ $i -lt 300 ] || fail "killed run: the scrub on $mnt still runs"
	sleep 0.1
	i=$((i + 1))
done
rm -f "/var/lib/btrfs/scrub.status.$kuuid"

# Refused at check: what btrfs does not have here, and a loss too many.
cat >"$TEST_TMP/bad.cfg" <<BAD
name = "bad";
variants = (
  { name = "rb"; scratch = { count = 3; size = "1G"; };
    array = { engine = "btrfs"; level = "raid1c3";
      metadata_profile = "raid1c3"; phase = "rebuild"; fail = 2; }; },
  { name = "two"; scratch = { count = 3; size = "1G"; };
    array = { engine = "btrfs"; level = "raid1"; phase = "degraded";
      fail = 2; }; }
);
workloads = ( { type = "fio"; } );
BAD
"$RAIDLAB" check -q "$TEST_TMP/bad.cfg" >/dev/null 2>"$TEST_TMP/err" &&
	fail "check accepted the bad phases"
expect_match "a rebuild of two refused for btrfs" "$(cat "$TEST_TMP/err")" \
	'bad\.cfg:5: variants\.rb\.array\.fail: btrfs runs one replace at a time: the rebuild phase replaces 1 member, not 2'
expect_match "two of raid1 refused" "$(cat "$TEST_TMP/err")" \
	'bad\.cfg:8: variants\.two\.array\.fail: btrfs raid1 of 3 devices survives the loss of 1; failing 2 would lose the data'
exit 0
