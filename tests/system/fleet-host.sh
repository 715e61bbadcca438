#!/bin/sh
# The host end of a fleet run: `raidlab run --fleet-host h2 --barrier`
# driven on plain pipes (tests/system/fleet-host-driver.py plays the
# controller; no ssh, no address is contacted) on a lab with hosts h2
# and h3, a directory variant placed on every host ("d-%h": h2's is
# d-h2) and one on h3 only. With the barrier: "ready", then "wait 1",
# and nothing runs until "go 1" (no directory, no line meanwhile); live
# lines, "wait 2", "go 2", "done" in that order; only h2's variant ran,
# in its own directory, which is gone again; stdout is one JSON record
# of its 2 rounds that says fleet.host h2; no record was written on the
# host; the controller's plan names each host's own directory. Closing
# stdin mid-run (the controller killed, ssh lost) stops
# the run as ^C does: status 130, the record says interrupted, stderr
# says why, and a directory that was there is left as it was. As root
# with loop devices: a variant on h2 whose mapped disk carries ext4 is
# refused, by --dry-run and for real, and the advice names it
# h2:/dev/loopN, as the user confirms it on the controller.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq python3

DRIVER="${top_srcdir:-.}/tests/system/fleet-host-driver.py"
cat >"$TEST_TMP/lab.cfg" <<EOF
name = "fleet-host";
repeats = 2;
hosts = (
  { name = "h2"; address = "127.0.0.2"; },
  { name = "h3"; address = "127.0.0.3"; }
);
variants = (
  { name = "each"; hosts = "all"; directory = "$TEST_TMP/d-%h"; },
  { name = "three"; hosts = "h3"; directory = "$TEST_TMP/o-%h"; }
);
workloads = (
  { type = "smallfiles"; count = 200; size = "4K"; },
  { type = "fio"; rw = "write"; size = "4M"; runtime = 1; }
);
EOF

# events FILE: the driver's transcript, raidlab's messages left out and
# each run of live lines as one "live".
events() {
	grep -v '^msg ' "$1" | sed 's/^live .*/live/' | uniq
}

# --- the controller's plan: %h is each host's name there
plan=$("$RAIDLAB" plan "$TEST_TMP/lab.cfg") || fail "plan: $plan"
expect_match "plan: d-h2 on h2" "$plan" \
	"#   on h2 \\(127\\.0\\.0\\.2.*\\): the directory $TEST_TMP/d-h2 there"
expect_match "plan: d-h3 on h3" "$plan" \
	"#   on h3 \\(127\\.0\\.0\\.3.*\\): the directory $TEST_TMP/d-h3 there"

# --- the barrier: nothing before "go", the lines in order
python3 "$DRIVER" barrier "$TEST_TMP/d-h2" "$TEST_TMP/out.json" \
	"$RAIDLAB" run --fleet-host h2 --json --barrier --tick 50 \
	"$TEST_TMP/lab.cfg" >"$TEST_TMP/t1" ||
	fail "driver: $(cat "$TEST_TMP/t1")"
expect_eq "barrier: the lines in order" "$(events "$TEST_TMP/t1")" "ready h2
wait 1
before-go 1: d-h2 absent
before-go 1: lines 0
go 1
live
wait 2
before-go 2: d-h2 absent
before-go 2: lines 0
go 2
live
done 4 0
rc 0"
expect_match "barrier: a live line of round 1" "$(cat "$TEST_TMP/t1")" \
	'^live each fio 1$'
rec=$(cat "$TEST_TMP/out.json")
expect_eq "stdout: one JSON document" \
	"$(printf '%s' "$rec" | jq -s 'length')" 1
expect_eq "record: only h2's variant, each workload twice" \
	"$(printf '%s' "$rec" | jq -c '[.runs[] | .variant.name + "/" +
		.workload.type + "/" + (.repeat | tostring)] | sort')" \
	'["each/fio/1","each/fio/2","each/smallfiles/1","each/smallfiles/2"]'
expect_eq "record: 2 rounds, ok" \
	"$(printf '%s' "$rec" | jq -r '[.rounds.done, .status] | join(" ")')" \
	"2 ok"
expect_eq "record: the fleet's host" \
	"$(printf '%s' "$rec" | jq -r '.fleet.host')" h2
expect_eq "record: %h is the fleet's host" \
	"$(printf '%s' "$rec" | jq -r '[.runs[].target.path] | unique | .[]')" \
	"$TEST_TMP/d-h2"
[ ! -e "$TEST_TMP/d-h2" ] || fail "d-h2, made by the run, is still there"
[ ! -e "$TEST_TMP/d-h3" ] && [ ! -e "$TEST_TMP/o-h2" ] &&
	[ ! -e "$TEST_TMP/o-h3" ] || fail "another host's directory was made"
left=$(find "$XDG_DATA_HOME" -type f 2>/dev/null)
expect_eq "nothing recorded on the host" "$left" ""

# --- the controller's channel closes mid-run: stopped as by ^C
mkdir "$TEST_TMP/d-h2" && : >"$TEST_TMP/d-h2/mine" || fail "mkdir d-h2"
python3 "$DRIVER" close "$TEST_TMP/none" "$TEST_TMP/out2.json" \
	"$RAIDLAB" run --fleet-host h2 --json --barrier --tick 50 \
	"$TEST_TMP/lab.cfg" >"$TEST_TMP/t2" ||
	fail "driver: $(cat "$TEST_TMP/t2")"
expect_match "close: go 1, a live line, then closed" \
	"$(events "$TEST_TMP/t2" | tr '\n' ' ')" \
	'^ready h2 wait 1 .* go 1 live closed done [0-9]+ [0-9]+ rc 130 $'
expect_match "close: said why" "$(cat "$TEST_TMP/t2")" \
	"^msg raidlab run: the fleet controller's channel closed"
expect_eq "close: the record says interrupted" \
	"$(jq -r '.status' "$TEST_TMP/out2.json")" interrupted
expect_eq "close: the directory as it was" \
	"$(cd "$TEST_TMP/d-h2" && find . | sort | tr '\n' ' ')" ". ./mine "
left=$(find "$XDG_DATA_HOME" -type f 2>/dev/null)
expect_eq "close: nothing recorded on the host" "$left" ""

# --- bad use: a host the lab has not, a variant not placed on it
msg=$("$RAIDLAB" run --fleet-host h9 "$TEST_TMP/lab.cfg" 2>&1 </dev/null)
expect_eq "no such host: status" "$?" 2
expect_match "no such host: the lab file and its hosts" "$msg" \
	"--fleet-host h9: $TEST_TMP/lab.cfg has no host named so \\(its hosts: h2, h3\\)"
msg=$("$RAIDLAB" run --fleet-host h2 -v three "$TEST_TMP/lab.cfg" 2>&1 \
	</dev/null)
expect_eq "-v of another host's variant: status" "$?" 2
expect_match "-v of another host's variant: said" "$msg" \
	"variant three is not placed on host h2"

# --- a refused destructive action names h2:DEV (root, loop devices)
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null ||
	! command -v mkfs.ext4 >/dev/null; then
	echo "fleet-host: the guard case needs root, losetup and mkfs.ext4" >&2
	exit 0
fi
new_loop EXT 64M
new_loop FREE 64M
mkfs.ext4 -q -F -L fleethost "$EXT" || fail "mkfs.ext4 $EXT"
cat >"$TEST_TMP/guard.cfg" <<EOF
name = "fleet-guard";
hosts = (
  { name = "h2"; address = "127.0.0.2";
    disks = [ "scratch:0=$EXT", "scratch:1=$FREE" ]; },
  { name = "h3"; address = "127.0.0.3"; }
);
variants = ( { name = "bt"; hosts = "all";
  scratch = { count = 2; size = "256M"; };
  array = { engine = "btrfs"; level = "raid1"; }; fs = { type = "btrfs"; }; } );
workloads = ( { type = "smallfiles"; count = 10; } );
EOF
before=$(blkid -p "$EXT" "$FREE" 2>&1)
for mode in --dry-run --json; do
	err=$("$RAIDLAB" run --fleet-host h2 $mode "$TEST_TMP/guard.cfg" \
		2>&1 >"$TEST_TMP/out3" </dev/null)
	expect_eq "guard $mode: status" "$?" 1
	expect_match "guard $mode: the ext4 disk, mapped from scratch:0" \
		"$err" "guard\\.cfg:[0-9]+: variants\\.bt\\.array\\.devices(\\[0\\])?: $EXT: has data: ext4"
	expect_match "guard $mode: confirm as h2:DEV" "$err" \
		"on the fleet's controller with --yes-destroy=h2:$EXT\$"
	expect_eq "guard $mode: nothing on stdout" "$(cat "$TEST_TMP/out3")" ""
done
expect_eq "guard: the disks as they were" "$(blkid -p "$EXT" "$FREE" 2>&1)" \
	"$before"
"$RAIDLAB" run --fleet-host h2 --dry-run --yes-destroy="$EXT" \
	"$TEST_TMP/guard.cfg" >/dev/null 2>"$TEST_TMP/err3" </dev/null ||
	fail "confirmed as the controller passes it: $(cat "$TEST_TMP/err3")"
