#!/bin/sh
# A target that is read-only before the first workload (root, a real ext4
# on a loop device, remounted ro by the run's --hook once the variant's
# directory is made): every planned run, of every round, is recorded as
# not run with the reason, the rounds say failed, `show` says so and the
# run exits non-zero. It used to record no run of it at all, no reason,
# its rounds done (a lone variant: "runs": []).
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq mkfs.ext4 losetup

new_loop dev 64M
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4 $dev"
mnt="$TEST_TMP/mnt"
do_mount "$dev" "$mnt"

# Only variant v's target turns read-only; variant ok keeps the rounds
# going, so that v's later round is listed too.
printf '#!/bin/sh\n[ "$1" = v ] && mount -o remount,ro "%s"\nexit 0\n' \
	"$mnt" >"$TEST_TMP/hook"
chmod +x "$TEST_TMP/hook"

cat >"$TEST_TMP/ro.cfg" <<LAB
name = "ro"; cache = "keep"; repeats = 2;
variants = ( { name = "v"; directory = "$mnt/d"; },
  { name = "ok"; directory = "$TEST_TMP/ok"; } );
workloads = (
  { name = "one"; type = "smallfiles"; count = 20; size = "1K"; sync = false; },
  { name = "two"; type = "smallfiles"; count = 20; size = "1K"; sync = false; }
);
LAB

"$RAIDLAB" run "$TEST_TMP/ro.cfg" --results "$TEST_TMP/res" \
	--hook "$TEST_TMP/hook" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
[ "$rc" -ne 0 ] || fail "a run that measured nothing exited 0"
rec=$(ls "$TEST_TMP"/res/ro-*.json) || fail "no record: $(cat "$TEST_TMP/err")"

expect_eq "status" "$(jq -r .status "$rec")" failed
expect_eq "every planned run is listed" \
	"$(jq -r '[.runs[] | select(.variant.name == "v") | "\(.workload.name) r\(.repeat)"] | sort | join(", ")' "$rec")" \
	"one r1, one r2, two r1, two r2"
expect_eq "none has figures" \
	"$(jq '[.runs[] | select(.variant.name == "v") | select(.status != null)] | length' "$rec")" 0
expect_eq "each says not run because read-only" \
	"$(jq '[.runs[] | select(.variant.name == "v") | select(.skipped // "" | test("not run: .*read-only"))] | length' "$rec")" 4
expect_eq "the other variant ran" \
	"$(jq -r '[.runs[] | select(.variant.name == "ok") | .status] | join(" ")' "$rec")" "ok ok ok ok"
expect_eq "v's rounds stopped failed" \
	"$(jq -r '[.rounds.pairs[] | select(.variant == "v") | .stopped] | join(" ")' "$rec")" "failed failed"

show=$("$RAIDLAB" show "$rec" 2>&1)
expect_match "show says why" "$show" 'not run: .*read-only'
exit 0
