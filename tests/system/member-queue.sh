#!/bin/sh
# The members' request queues, on the host's loop devices: a btrfs raid1
# on two scratch disks with `scheduler` and `nr_requests` set to values
# the machine offers and the members do not have. While built, sysfs and
# the record's facts show the set values on both members, and show and
# the reports print them; after the run each member's queue is back as
# it was before the run. Then the same run is killed with SIGKILL
# during its workload: the values stand set, and `raidlab cleanup` puts
# them back (and releases the loop devices). A scheduler the members do
# not offer is refused before anything is built, naming the member and
# what it offers: by run on scratch disks, and by plan and run's
# precheck on a real device, which is left untouched.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq losetup mkfs.btrfs btrfs findmnt timeout

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
disks="$TEST_TMP/disks"
mkdir -p "$disks"
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	undo_run "$RAIDLAB_STATE_DIR" "$disks"; cleanup' EXIT

# q DEV ATTR: the device's queue attribute now; the scheduler's active
# name (the one in brackets).
q() {
	_v=$(cat "/sys/block/${1#/dev/}/queue/$2") || fail "read $1 $2"
	[ "$2" = scheduler ] && _v=$(printf '%s\n' "$_v" |
	    sed -n 's/.*\[\(.*\)\].*/\1/p')
	printf '%s\n' "$_v"
}

# What every loop device has before any run: the "as found" to come back
# to, whichever ones raidlab's scratch disks get.
before="$TEST_TMP/before"
for d in /sys/block/loop*; do
	n=${d##*/}
	printf '%s %s %s\n' "$n" "$(q "/dev/$n" scheduler)" \
	    "$(cat "$d/queue/nr_requests")"
done >"$before"

# A scheduler the machine offers that a free loop device does not run,
# and a depth it does not have.
free=$(losetup -f) || fail "losetup -f"
offered=$(cat "/sys/block/${free#/dev/}/queue/scheduler")
active=$(q "$free" scheduler)
sched=$(printf '%s\n' "$offered" | tr -d '[]' | tr ' ' '\n' |
    grep -vx -e "$active" -e '' | head -n 1)
[ -n "$sched" ] || skip "$free offers one I/O scheduler only: $offered"
nr=$(( $(q "$free" nr_requests) / 2 ))
[ "$nr" -ge 4 ] || nr=64

lab() { # FILE WORKLOAD-COUNT SCHEDULER FILE-SIZE
	cat >"$1" <<LAB
name = "member-queue";
cache = "keep";
variants = (
  { name = "r1"; scratch = { count = 2; size = "256M"; dir = "$disks"; };
    array = { engine = "btrfs"; level = "raid1"; };
    scheduler = "$3"; nr_requests = $nr; }
);
workloads = ( { name = "w"; type = "smallfiles"; count = $2; size = "$4";
  sync = false; } );
LAB
}

# ---- a run: set while built, back as found after
lab "$TEST_TMP/lab.cfg" 200 "$sched" 4K
"$RAIDLAB" check -q "$TEST_TMP/lab.cfg" || fail "the lab does not check"
hook="$TEST_TMP/hook.sh"
cat >"$hook" <<HOOK
#!/bin/sh
for d in /sys/block/loop*; do
	f=\$(cat \$d/loop/backing_file 2>/dev/null) || continue
	case \$f in "$disks"/*) echo "\${d##*/} \$(cat \$d/queue/scheduler) \
\$(cat \$d/queue/nr_requests)";; esac
done >"$TEST_TMP/during"
HOOK
chmod +x "$hook"
"$RAIDLAB" run "$TEST_TMP/lab.cfg" --repeats 1 --hook "$hook" \
    --results "$TEST_TMP/res" --json >"$TEST_TMP/rec.json" \
    2>"$TEST_TMP/err" || fail "run: $(tail -n 20 "$TEST_TMP/err")"
rec="$TEST_TMP/rec.json"
expect_eq "built" "$(jq -r '.builds[0].status' "$rec")" ok
members=$(jq -r '.builds[0].plan.devices[] | select(.role == "member")
	| .path' "$rec")
[ "$(echo "$members" | wc -l)" -eq 2 ] || fail "members: $members"
compared=0
for m in $members; do
	n=${m#/dev/}
	expect_match "$m during the build (sysfs)" \
	    "$(grep "^$n " "$TEST_TMP/during")" "\\[$sched\\].* $nr\$"
	expect_eq "$m in the record's facts" "$(jq -r --arg m "$m" \
	    '.builds[0].facts.queues[$m] | "\(.scheduler) \(.nr_requests)"' \
	    "$rec")" "$sched $nr"
	was=$(grep "^$n " "$before" | cut -d' ' -f2-)
	[ -n "$was" ] || continue # a loop device made for the run
	expect_eq "$m back as found after the run" \
	    "$(q "$m" scheduler) $(q "$m" nr_requests)" "$was"
	compared=$((compared + 1))
done
# losetup -f reuses the free loop devices listed before the run
[ "$compared" -gt 0 ] || fail "no member's queue could be compared after the run"
expect_eq "teardown put the scheduler back on both members, all ok" \
    "$(jq '[.builds[0].teardown[] | select(.sysfs != null)] as $t
	| ([$t[] | select(.sysfs.attr == "scheduler") | .sysfs.device]
	    | unique | length) == 2 and ($t | all(.status == "ok"))' \
	"$rec")" true
out=$("$RAIDLAB" show "$rec" 2>&1) || fail "show: $out"
expect_match "show: the members' queues" "$out" \
    "members: scheduler $sched, nr_requests $nr, rotational [01]"
out=$("$RAIDLAB" report --markdown "$rec" 2>&1) || fail "report: $out"
expect_match "report: the members' queues" "$out" \
    "members: scheduler $sched, nr_requests $nr, rotational [01]"
"$RAIDLAB" report --html -o "$TEST_TMP/r.html" "$rec" || fail "report --html"
expect_match "report --html: the members' queues" \
    "$(cat "$TEST_TMP/r.html")" \
    "members: scheduler $sched, nr_requests $nr, rotational [01]"

# ---- killed during the workload, then cleanup
lab "$TEST_TMP/killed.cfg" 100000000 "$sched" 0
"$RAIDLAB" run "$TEST_TMP/killed.cfg" --results "$TEST_TMP/res" \
    >"$TEST_TMP/kout" 2>"$TEST_TMP/kerr" &
pid=$!
i=0
while [ -z "$(run_mounts "$RAIDLAB_STATE_DIR")" ]; do
	kill -0 "$pid" 2>/dev/null ||
	    fail "run ended before its mount appeared: $(cat "$TEST_TMP/kerr")"
	[ $i -lt 600 ] || fail "run: no mount within 60 s"
	sleep 0.1
	i=$((i + 1))
done
# The workload is running once its first files are there.
i=0
until [ -n "$(find "$(run_mounts "$RAIDLAB_STATE_DIR" | head -n 1)" \
    -type f 2>/dev/null | head -n 1)" ]; do
	[ $i -lt 600 ] || fail "killed run: no workload file within 60 s"
	sleep 0.1
	i=$((i + 1))
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
killed=
for d in /sys/block/loop*; do
	case $(cat "$d/loop/backing_file" 2>/dev/null) in
	"$disks"/*) killed="$killed /dev/${d##*/}" ;;
	esac
done
[ -n "$killed" ] || fail "killed run: no loop device left (nothing to test)"
for m in $killed; do
	expect_eq "$m set while the killed run stood" \
	    "$(q "$m" scheduler) $(q "$m" nr_requests)" "$sched $nr"
done
out=$(timeout 300 "$RAIDLAB" cleanup 2>&1) || fail "cleanup: $out"
for m in $killed; do
	was=$(grep "^${m#/dev/} " "$before" | cut -d' ' -f2-)
	expect_match "cleanup says it put $m back" "$out" \
	    "put back $m queue/scheduler: "
	[ -n "$was" ] || continue
	expect_eq "$m back as found after cleanup" \
	    "$(q "$m" scheduler) $(q "$m" nr_requests)" "$was"
done
[ -z "$(run_mounts "$RAIDLAB_STATE_DIR")" ] || fail "cleanup left a mount"

# ---- a scheduler the members do not offer
lab "$TEST_TMP/bad.cfg" 10 no-such-sched 4K
"$RAIDLAB" run "$TEST_TMP/bad.cfg" --repeats 1 --results "$TEST_TMP/res" \
    >"$TEST_TMP/bout" 2>&1 && fail "run with no-such-sched succeeded"
expect_match "refused, naming the member and what it offers" \
    "$(cat "$TEST_TMP/bout")" \
    "variants\\.r1\\.scheduler: /dev/loop[0-9]+ offers no I/O scheduler 'no-such-sched' \\(it offers: "
[ -z "$(run_mounts "$RAIDLAB_STATE_DIR")" ] || fail "refused run left a mount"

# ---- on a real device, `raidlab plan` says so before any run
new_loop disk 64M
cat >"$TEST_TMP/real.cfg" <<LAB
name = "real";
variants = ( { name = "s"; array = { engine = "single";
  devices = ["$disk"]; }; scheduler = "no-such-sched"; } );
workloads = ( { name = "w"; type = "smallfiles"; count = 10; } );
LAB
was=$(q "$disk" scheduler)
out=$("$RAIDLAB" plan "$TEST_TMP/real.cfg" 2>&1) &&
    fail "plan with no-such-sched succeeded: $out"
expect_match "plan: refused here, naming $disk" "$out" \
    "#   .*variants\\.s\\.scheduler: $disk offers no I/O scheduler 'no-such-sched'"
"$RAIDLAB" run "$TEST_TMP/real.cfg" --results "$TEST_TMP/res" \
    >"$TEST_TMP/rout" 2>&1 && fail "run on $disk with no-such-sched succeeded"
expect_match "run: refused before anything was changed" \
    "$(cat "$TEST_TMP/rout")" "refused: nothing was changed"
expect_eq "$disk untouched" "$(q "$disk" scheduler)" "$was"
exit 0
