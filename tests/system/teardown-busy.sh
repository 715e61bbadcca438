#!/bin/sh
# A teardown step that finds its target busy (root, a scratch disk): a
# process keeps its working directory in the variant's mount, started by
# the --hook. While it lets go soon, raidlab tries the umount again and
# the run ends ok, the record keeping the failed tries under "earlier".
# While it holds on, the run fails naming the holder (pid and command)
# in its message and the record's "held_by", and leaves what lies under
# the mount (the filesystem's wipefs, the scratch disk) alone; `raidlab
# cleanup` tries again too, names it and leaves the same alone, and
# finishes the whole teardown once it has gone.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq mkfs.ext4 findmnt losetup

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
disks=$TEST_TMP/disks
mkdir -p "$disks"
finish() {
	touch "$TEST_TMP/release"
	[ -f "$TEST_TMP/holder.pid" ] && kill "$(cat "$TEST_TMP/holder.pid")" 2>/dev/null
	"$RAIDLAB" cleanup --force >/dev/null 2>&1
	cleanup
}
trap finish EXIT

cat >"$TEST_TMP/lab.cfg" <<EOF
name = "busy"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "e4"; scratch = { count = 1; size = "64M"; dir = "$disks"; };
  array = { engine = "single"; devices = [ "scratch:0" ]; };
  fs = { type = "ext4"; }; } );
workloads = ( { name = "few"; type = "smallfiles"; count = 20; size = "1K"; } );
EOF
# The hook leaves a process in the mount until the file release exists.
cat >"$TEST_TMP/hook" <<EOF
#!/bin/sh
cd "\$2" || exit 1
sh -c 'echo \$\$ >"$TEST_TMP/holder.pid"
	while [ ! -e "$TEST_TMP/release" ]; do sleep 0.05; done' \
	</dev/null >/dev/null 2>&1 &
EOF
chmod +x "$TEST_TMP/hook"
our_mounts() { findmnt -rn -o SOURCE,TARGET | grep -F "$disks/" || findmnt -rn -o TARGET | grep -- '-e4$' || true; }
um='.builds[0].teardown[] | select(.argv[0] == "umount")'

# ---- let go on the second try: the run ends ok
# The watcher releases the holder when raidlab says the umount a second
# time, so the first try fails whatever the machine's speed.
rm -f "$TEST_TMP/release"
"$RAIDLAB" run --hook "$TEST_TMP/hook" "$TEST_TMP/lab.cfg" 2>&1 >/dev/null |
	{ n=0; while IFS= read -r l; do
		printf '%s\n' "$l" >>"$TEST_TMP/run1.log"
		case $l in *": e4: umount "*)
			n=$((n + 1)); [ $n = 2 ] && touch "$TEST_TMP/release" ;;
		esac
	done; }
rec=$(ls "$TEST_TMP"/results/busy-*.json)
expect_eq "retried: record status" "$(jq -r .status "$rec")" ok
expect_eq "retried: one umount entry, ok" \
	"$(jq -r "[$um] | length, .[0].status" "$rec")" "1
ok"
expect_match "retried: the failed tries kept" \
	"$(jq -r "$um | .earlier | length" "$rec")" '^[1-4]$'
expect_match "retried: each failed try said busy" \
	"$(jq -r "$um | .earlier[0].output" "$rec")" 'busy'
expect_eq "retried: nothing mounted" "$(our_mounts)" ""
rm -rf "$TEST_TMP/results"

# ---- a holder that stays: the run fails naming it, cleanup finishes
rm -f "$TEST_TMP/release" "$TEST_TMP/holder.pid"
"$RAIDLAB" run --hook "$TEST_TMP/hook" "$TEST_TMP/lab.cfg" \
	>/dev/null 2>"$TEST_TMP/run2.err"
expect_eq "held: exit status" "$?" 1
hp=$(cat "$TEST_TMP/holder.pid")
rec=$(ls "$TEST_TMP"/results/busy-*.json)
expect_eq "held: every retry made" \
	"$(jq -r "$um | .earlier | length" "$rec")" 4
expect_match "held: the record names the holder" \
	"$(jq -r "$um | .held_by | to_entries[0].value" "$rec")" \
	"pid $hp \\(sh\\): its working directory is there"
expect_match "held: so does the message" "$(cat "$TEST_TMP/run2.err")" \
	"target is busy.*pid $hp \\(sh\\)"
[ -n "$(our_mounts)" ] || fail "held: the mount should still stand"
# What lies under the standing mount is not touched (issue 19, item 3):
# no wipefs of the mounted device, not even once, and the record says
# why it was skipped.
expect_eq "held: no wipefs tried on the mounted device" \
	"$(jq -r '[.builds[0].teardown[] | select(.argv[0] == "wipefs") |
	    select(.status != "skipped")] | length' "$rec")" 0
expect_match "held: the record says the wipefs was skipped, and why" \
	"$(jq -r '.builds[0].teardown[] | select(.argv[0] == "wipefs") |
	    .status + ": " + .note' "$rec")" '^skipped: .* is still mounted'
# cleanup meets the same holder: it tries again, then names it
"$RAIDLAB" cleanup >"$TEST_TMP/clean1.out" 2>&1
expect_eq "cleanup while held: exit status" "$?" 1
expect_match "cleanup while held: tried again" "$(cat "$TEST_TMP/clean1.out")" \
	'umount .*: busy, trying again'
expect_match "cleanup while held: names the holder" \
	"$(cat "$TEST_TMP/clean1.out")" "target is busy.*pid $hp \\(sh\\)"
expect_eq "cleanup while held: no wipefs tried on the mounted device" \
	"$(grep -c wipefs "$TEST_TMP/clean1.out")" 0
expect_match "cleanup while held: says what it left under the mount" \
	"$(cat "$TEST_TMP/clean1.out")" 'is still mounted: what lies under it is left'
touch "$TEST_TMP/release"
while kill -0 "$hp" 2>/dev/null; do sleep 0.05; done
"$RAIDLAB" cleanup >"$TEST_TMP/clean.out" 2>&1
expect_eq "cleanup after: exit status" "$?" 0
expect_eq "cleanup after: nothing mounted" "$(our_mounts)" ""
expect_eq "cleanup after: nothing left alone or forgotten" \
	"$(grep -Ec 'left .* alone|forgets' "$TEST_TMP/clean.out")" 0
expect_eq "cleanup after: the mount point removed" \
	"$(ls -A "$RAIDLAB_STATE_DIR/mnt")" ""
expect_eq "cleanup after: no loop over the scratch file" \
	"$(losetup -n -O BACK-FILE -l | grep -c "$disks/")" 0
echo "teardown-busy: ok"
