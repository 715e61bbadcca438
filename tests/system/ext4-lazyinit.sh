#!/bin/sh
# A new ext4 zeroes its inode tables from a kernel thread (ext4lazyinit)
# from its first mount on: 64 MiB in the first 4 s of a 4G disk, for
# hours on one of terabytes, none of it the workload's. raidlab mounts
# the ext4 it builds with noinit_itable, so that the figures and write
# amplification are the workload's own: the mount carries the option
# while the variant stands (seen through --hook), the record's plan says
# so, and the device wrote little more than fio did. Beside it the same
# ext4 with mount_options = "init_itable" (the lab keeps the thread): its
# mount has no noinit_itable. (On a 4G scratch disk the thread is done
# before the workload starts, so what it writes is not compared here.)
# Nothing is left behind.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq mke2fs losetup findmnt awk
[ -e /dev/loop-control ] || skip "needs loop devices"

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
disks="$TEST_TMP/disks"
mkdir -p "$disks"
trap 'undo_run "$RAIDLAB_STATE_DIR" "$disks"; cleanup' EXIT

lab="$TEST_TMP/lab.cfg"
cat >"$lab" <<LAB
name = "lazyinit"; cache = "keep";
defaults = { scratch = { count = 1; size = "4G"; dir = "$disks"; };
  array = { engine = "single"; devices = [ "scratch:0" ]; };
  fs = { type = "ext4"; }; };
variants = (
  { name = "fresh"; },
  { name = "lazy"; fs = { mount_options = "init_itable"; }; }
);
workloads = (
  { name = "w"; type = "fio"; rw = "write"; bs = "1M"; size = "16M";
    end_fsync = true; }
);
LAB
"$RAIDLAB" check -q "$lab" || fail "the lab does not check"

hook="$TEST_TMP/hook.sh"
cat >"$hook" <<HOOK
#!/bin/sh
# raidlab runs it as: HOOK VARIANT TARGET
findmnt -n -o OPTIONS "\$2" >"$TEST_TMP/opts-\$1"
HOOK
chmod +x "$hook"

"$RAIDLAB" run "$lab" --repeats 1 --hook "$hook" --results "$TEST_TMP/res" \
	--json >"$TEST_TMP/rec.json" 2>"$TEST_TMP/err" ||
	fail "run: $(tail -n 20 "$TEST_TMP/err")"
rec=$TEST_TMP/rec.json

expect_match "fresh: mounted noinit_itable" \
	"$(cat "$TEST_TMP/opts-fresh")" '(^|,)noinit_itable(,|$)'
expect_match "fresh: the plan's mount options" \
	"$(jq -r '.builds[] | select(.variant == "fresh") | .plan.mount_options' \
		"$rec")" '(^|,)noinit_itable$'
[ -s "$TEST_TMP/opts-lazy" ] || fail "lazy: the hook saw no mount"
grep -q noinit_itable "$TEST_TMP/opts-lazy" &&
	fail "lazy: mounted noinit_itable although the lab says init_itable"

# What the device wrote over what fio wrote, in the run.
wamp() {
	jq -r --arg v "$1" '[.runs[] | select(.variant.name == $v)][0]
	  | ([.series.members[] | .write_bytes | add] | add // 0)
	    / ([.tests[].bytes_written] | add)' "$rec"
}
fresh=$(wamp fresh)
lazy=$(wamp lazy)
printf 'write amplification: fresh %s, with ext4lazyinit %s\n' "$fresh" "$lazy"
# fio's 16M, with ext4's journal and metadata on top: well under 1.5 (a
# sanity bound: on this small disk the thread would be done before it)
awk -v x="$fresh" 'BEGIN { exit !(x >= 0.95 && x < 1.5) }' ||
	fail "fresh: the device wrote $fresh times what fio did"

[ -z "$(run_mounts "$RAIDLAB_STATE_DIR")" ] ||
	fail "left mounted: $(run_mounts "$RAIDLAB_STATE_DIR")"
losetup -j "$disks"/* 2>/dev/null | grep -q . &&
	fail "loop devices left: $(losetup -j "$disks"/*)"
exit 0
