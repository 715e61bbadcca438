#!/bin/sh
# raidlab show: a stored record (a version-1 fixture) prints as tables
# with its header, variants, scratch label, figures, notes and skipped
# runs; --json prints it byte for byte as stored; files that are not
# records exit 1 with a message naming them; no file exits 2. When
# `raidlab run` is there too, a record it writes shows. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"

"$RAIDLAB" show --help >/dev/null 2>&1 || skip "raidlab show is not built in"
fixture="$TESTDATA/records/fixture-v1.json"

out=$("$RAIDLAB" show "$fixture" 2>"$TEST_TMP/err")
expect_eq "show: exit status" "$?" 0
expect_eq "show: stderr" "$(cat "$TEST_TMP/err")" ""
expect_match "show: header" "$out" '^Lab fixture, created 2026-11-30T05:38:07Z, status ok'
expect_match "show: host" "$out" 'CPU: .*, [0-9]+ cores?; RAM '
expect_match "show: variant" "$out" '== Variant tmpdir \(directory\) =='
expect_match "show: target" "$out" 'Target /var/tmp/raidlab-fixture: ext4 on '
expect_match "show: the workload's own report" "$out" \
	'^50 files of 1K in 2 dirs: [0-9.]+ s, [0-9.]+ files/s'
expect_match "show: notes" "$out" '^note: the data set \(50K\) fits in RAM'
expect_match "show: scratch label" "$out" \
	'== Variant mirror \(array\) -- scratch: functional, not representative =='
expect_match "show: skipped runs" "$out" '^skipped: needs the provisioning step'

"$RAIDLAB" show --json "$fixture" >"$TEST_TMP/out.json"
expect_eq "show --json: exit status" "$?" 0
cmp -s "$TEST_TMP/out.json" "$fixture" || fail "show --json differs from the file"

printf '{"devices": []}\n' >"$TEST_TMP/other.json"
"$RAIDLAB" show "$TEST_TMP/other.json" >/dev/null 2>"$TEST_TMP/err"
expect_eq "show on a non-record: exit status" "$?" 1
expect_eq "show on a non-record: message" "$(cat "$TEST_TMP/err")" \
	"raidlab show: $TEST_TMP/other.json: not a raidlab result record"

printf '{\n "format": "raidlab-result",\n "version" 1\n}\n' >"$TEST_TMP/bad.json"
"$RAIDLAB" show "$TEST_TMP/bad.json" >/dev/null 2>"$TEST_TMP/err"
expect_eq "show on malformed JSON: exit status" "$?" 1
expect_match "show on malformed JSON: file and line" "$(cat "$TEST_TMP/err")" \
	"^raidlab show: $TEST_TMP/bad.json:3: column "

sed 's/"version": 1,/"version": 2,/' "$fixture" >"$TEST_TMP/newer.json"
"$RAIDLAB" show "$TEST_TMP/newer.json" >/dev/null 2>"$TEST_TMP/err"
expect_eq "show on a newer record: exit status" "$?" 1
expect_match "show on a newer record: message" "$(cat "$TEST_TMP/err")" \
	"newer than this raidlab reads"

"$RAIDLAB" show "$fixture" "$TEST_TMP/missing.json" >/dev/null 2>"$TEST_TMP/err"
expect_eq "one unreadable record among several: exit status" "$?" 1
expect_match "show on a missing file: message" "$(cat "$TEST_TMP/err")" \
	"missing.json: cannot read: "

"$RAIDLAB" show >/dev/null 2>&1
expect_eq "show without a file: exit status" "$?" 2

# The whole chain, when raidlab run is built in: run, save, show.
if "$RAIDLAB" run --help >/dev/null 2>&1; then
	cat >"$TEST_TMP/lab.cfg" <<EOF
name = "chain";
cache = "keep";
variants = ( { name = "here"; directory = "$TEST_TMP/target"; } );
workloads = ( { type = "smallfiles"; counts = [20]; dirs = 1; } );
EOF
	"$RAIDLAB" run -o "$TEST_TMP/res" "$TEST_TMP/lab.cfg" >/dev/null 2>&1 ||
		fail "raidlab run failed"
	set -- "$TEST_TMP"/res/chain-*.json
	[ -f "$1" ] || fail "raidlab run left no record in $TEST_TMP/res"
	out=$("$RAIDLAB" show "$1") || fail "show of a fresh record failed"
	expect_match "show of a fresh record" "$out" '== Variant here \(directory\) =='
	expect_match "show of a fresh record" "$out" '^20 files of '
fi
exit 0
