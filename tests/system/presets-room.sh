#!/bin/sh
# Every shipped preset runs as shipped: `raidlab check` passes each one
# unscaled, with exit 0 and no refusal (seed-003's compilebench once did
# not fit its scratch disks, and check said so but exited 0). And when
# `raidlab run` is certain to refuse a valid lab here, check exits 3 and
# plan ends with the refusal and exits 3 too, as run (and its dry run)
# does when it refuses it; an invalid lab stays 2, another refusal of
# run 1.
# No root needed: nothing is built.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq

labs=$(cd "$top_srcdir/data/labs" && pwd -P)
[ -n "$(ls "$labs"/*.cfg 2>/dev/null)" ] || fail "no preset in $labs"
host_short=
for lab in "$labs"/*.cfg; do
	name=$(basename "$lab" .cfg)
	"$RAIDLAB" check -q "$lab" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	refused=$(grep 'raidlab run refuses this here' "$TEST_TMP/err")
	# This machine's own free space is not the preset's fault: say it,
	# and hold the preset to everything else.
	other=$(printf '%s\n' "$refused" | grep -v ' has .* free, less than ')
	if [ "$rc" = 3 ] && [ -n "$refused" ] && [ -z "$other" ]; then
		printf 'note: %s: this machine lacks the room:\n%s\n' \
			"$name" "$refused" >&2
		host_short="$host_short $name"
		continue
	fi
	[ -z "$refused" ] || fail "$name: check refuses it as shipped: $refused"
	expect_eq "$name: check exit status" "$rc" 0
done

# ---- a valid lab that cannot run here: its data set outgrows the array
cat >"$TEST_TMP/cap.cfg" <<EOF2
name = "cap"; cache = "keep";
variants = (
  { name = "one"; scratch = { count = 2; size = "64M"; dir = "$TEST_TMP"; };
    array = { engine = "md"; level = "1"; }; fs = { type = "ext4"; }; }
);
workloads = ( { type = "fio"; rw = "write"; size = "100M"; } );
EOF2
why='cap.cfg:3: variants.one.scratch.size: the workloads.* data set \(100M\) does not fit on the array \(about 64M for data on 2 scratch disks of 64M\)'

"$RAIDLAB" check "$TEST_TMP/cap.cfg" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "check, cannot run here: exit status" "$?" 3
expect_match "check, cannot run here: why" "$(cat "$TEST_TMP/err")" \
	"$why \\(raidlab run refuses this here\\)"
expect_match "check, cannot run here: still printed, valid" \
	"$(cat "$TEST_TMP/out")" '^name = "cap";'

printf 'name = "x";\nvariants = ( { name = "a"; array = { level = 7; }; } );\n' \
	>"$TEST_TMP/bad.cfg"
"$RAIDLAB" check -q "$TEST_TMP/cap.cfg" "$TEST_TMP/bad.cfg" >/dev/null 2>&1
expect_eq "check, cannot run and invalid: the invalid one wins" "$?" 2

"$RAIDLAB" plan "$TEST_TMP/cap.cfg" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "plan, cannot run here: exit status" "$?" 3
expect_match "plan: the plan is still there" "$(cat "$TEST_TMP/out")" \
	'^mdadm --create '
expect_eq "plan: it ends with the refusal" \
	"$(grep -v '^$' "$TEST_TMP/out" | tail -n 2 | head -n 1)" \
	'# raidlab run refuses this lab here, before building anything:'
expect_match "plan: the refusal's reason last" \
	"$(grep -v '^$' "$TEST_TMP/out" | tail -n 1)" "^#   .*$why\$"

"$RAIDLAB" plan --json "$TEST_TMP/cap.cfg" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "plan --json, cannot run here: exit status" "$?" 3
expect_eq "plan --json: still the plan" \
	"$(jq -r '.[0].variant' "$TEST_TMP/out")" one
expect_match "plan --json: the refusal on stderr" "$(cat "$TEST_TMP/err")" \
	"$why \\(raidlab run refuses this here\\)"

# ---- run exits 3 where check does, and only there
cat >"$TEST_TMP/huge.cfg" <<EOF2
name = "huge"; cache = "keep";
variants = ( { name = "d"; directory = "$TEST_TMP/huge"; } );
workloads = ( { type = "fio"; rw = "write"; size = "1P"; } );
EOF2
roomless='huge.cfg:2: variants.d.directory: .*: its filesystem .* has .* free, less than the 1P the workloads write there'
"$RAIDLAB" check -q "$TEST_TMP/huge.cfg" >/dev/null 2>&1
expect_eq "check, no room for 1P: exit status" "$?" 3
"$RAIDLAB" run "$TEST_TMP/huge.cfg" --results "$TEST_TMP/res" \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "run, no room for 1P: exit status" "$?" 3
expect_match "run, no room for 1P: why" "$(cat "$TEST_TMP/err")" "$roomless"
[ ! -e "$TEST_TMP/huge" ] || fail "run, no room: the directory was made"
[ ! -e "$TEST_TMP/res" ] || fail "run, no room: a record was written"
"$RAIDLAB" run -n "$TEST_TMP/huge.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "run --dry-run, no room for 1P: exit status" "$?" 3
expect_match "run --dry-run, no room for 1P: why" "$(cat "$TEST_TMP/err")" \
	"$roomless"
# a refusal that is not the lab's (no record can be kept) stays 1: check
# passes that lab
sed 's/size = "1P"/size = "1M"/' "$TEST_TMP/huge.cfg" >"$TEST_TMP/fits.cfg"
"$RAIDLAB" check -q "$TEST_TMP/fits.cfg" >/dev/null 2>&1
expect_eq "check, a lab that fits: exit status" "$?" 0
: >"$TEST_TMP/file"
"$RAIDLAB" run "$TEST_TMP/fits.cfg" --results "$TEST_TMP/file/res" \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "run, no record can be kept: exit status" "$?" 1
expect_match "run, no record can be kept: why" "$(cat "$TEST_TMP/err")" \
	'no record could be kept, so nothing runs'

[ -z "$host_short" ] || skip "not enough free space here for:$host_short"
echo "presets-room: ok"
