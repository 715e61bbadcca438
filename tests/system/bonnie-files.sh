#!/bin/sh
# bonnie with size = 0 (bonnie++ -s 0) on a real directory: the file
# tests run and the I/O tests are absent, not zero and not +++++, in the
# record, in `raidlab show` and in `raidlab compare` next to a record
# that has them; no RAM rule applies and no room is reserved for an I/O
# file; size = 0 with files = 0 is refused by `raidlab check` with its
# file, line and field. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq awk

FILE_KEYS="seq_create,seq_read,seq_delete,random_create,random_read,random_delete"

# $1: lab name, $2: the bonnie entry's parameters.
write_lab() {
	cat >"$TEST_TMP/$1.cfg" <<LAB
name = "$1";
cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/t"; } );
workloads = (
  { name = "bon"; type = "bonnie"; $2 }
);
LAB
}

# ram = 1T: bonnie++ -s 0 takes any -r; size 0 must too.
write_lab files 'size = 0; ram = "1T"; files = 1;'
"$RAIDLAB" run "$TEST_TMP/files.cfg" --results "$TEST_TMP/r0" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "size 0: exit status" "$?" 0
grep -q 'twice the RAM' "$TEST_TMP/err" "$TEST_TMP/out" &&
	fail "size 0: a RAM rule applied: $(cat "$TEST_TMP/err")"
rec0=$(ls "$TEST_TMP"/r0/files-*.json)

# The record: the six file tests, each over 1024 files; nothing else.
expect_eq "record: status" "$(jq -r '.runs[0].status' "$rec0")" ok
expect_eq "record: the file tests only" \
	"$(jq -r '[.runs[0].tests[].key] | join(",")' "$rec0")" "$FILE_KEYS"
expect_eq "record: 1024 files in each" \
	"$(jq -r '[.runs[0].tests[].files] | unique | join(",")' "$rec0")" 1024
expect_eq "record: no I/O test, not even as zero" \
	"$(jq -r '[.runs[0].tests[] | select(.key | test("^seq_(output|input)|^random_seeks"))] | length' "$rec0")" 0

# show: the create table and bonnie++'s CSV, no Sequential Output table.
show=$("$RAIDLAB" show "$rec0")
expect_eq "show: exit status" "$?" 0
expect_match "show: the file tests' table" "$show" '------Sequential Create------'
printf '%s\n' "$show" | grep -q 'Sequential Output' &&
	fail "show: an I/O table for tests that did not run: $show"
csv=$(printf '%s\n' "$show" | grep '^1\.98,raidlab-')
# bonnie++ -s 0's line: 50 fields, 6..21 (size, chunk, seeks,
# seekers, the I/O figures and %CP) empty, 22 the file count.
expect_eq "show: CSV as bonnie++ -s 0 writes it" \
	"$(printf '%s\n' "$csv" | awk -F, '{ e = 0; for (i = 6; i <= 21; i++) e += $i == ""; print NF, e, $22 }')" \
	"50 16 1"

# compare, next to a record of the same workload with the I/O tests:
# those columns hold only the first record; the size-0 record is no row
# of them, has no figure (n 0, mean null), and is never the best.
write_lab files 'size = "8M"; ram = "4M"; char_size = "16K"; seeks = 200; files = 1;'
"$RAIDLAB" run "$TEST_TMP/files.cfg" --results "$TEST_TMP/r1" \
    >/dev/null 2>"$TEST_TMP/err" || fail "size 8M: $(cat "$TEST_TMP/err")"
rec1=$(ls "$TEST_TMP"/r1/files-*.json)
"$RAIDLAB" compare -j "$rec1" "$rec0" >"$TEST_TMP/cmp.json"
expect_eq "compare -j: exit status" "$?" 0
expect_eq "compare -j: the I/O columns, from the first record" \
	"$(jq -r '[.tests[] | select(.key == "seq_output_block") | .rows[] | "\(.record):\(.n):\(.mean == null):\(.best)"] | join(" ")' "$TEST_TMP/cmp.json")" \
	"1:1:false:false 2:0:true:false"
# The file tests ran with other parameters (size differs): like is
# compared with like only, so they are two tests, one per record, the
# second saying why it stands apart.
expect_eq "compare -j: the file columns, kept apart" \
	"$(jq -r '[.tests[] | select(.key == "seq_create") | .rows[].n] | join(",")' "$TEST_TMP/cmp.json")" \
	"1,0,0,1"
expect_match "compare -j: why apart" \
	"$(jq -r '[.tests[] | select(.key == "seq_create") | .apart] | join("|")' "$TEST_TMP/cmp.json")" \
	'kept apart: run with other parameters \(.*size "8M" against "0"'
cmp=$("$RAIDLAB" compare "$rec1" "$rec0")
expect_eq "compare: exit status" "$?" 0
expect_eq "compare: Block write lists the first record alone" \
	"$(printf '%s\n' "$cmp" | awk '/^bon: Block write/ { on = 1; next } on && /^$/ { exit } on { print $0 }' | grep -o '#[0-9]')" \
	"#1"
expect_eq "compare: each Sequential create lists its record" \
	"$(printf '%s\n' "$cmp" | awk '/^bon: Sequential create/ { on = 1; next } on && /^$/ { on = 0 } on && /^  [ *] / { print $0 }' | grep -o '#[0-9]' | tr '\n' ' ')" \
	"#1 #2 "

# Room: the I/O file is what size reserves, and size 0 reserves none. A
# 1P file fits on no filesystem here; the file tests' empty files do.
write_lab room 'size = "1P"; files = 1;'
"$RAIDLAB" run --dry-run "$TEST_TMP/room.cfg" >"$TEST_TMP/out" 2>&1
expect_eq "size 1P: refused for room" "$?" 3
expect_match "size 1P: the reason" "$(cat "$TEST_TMP/out")" 'less than the 1P'
write_lab room 'size = 0; files = 1;'
"$RAIDLAB" run --dry-run "$TEST_TMP/room.cfg" >"$TEST_TMP/out" 2>&1
expect_eq "size 0: room: $(cat "$TEST_TMP/out")" "$?" 0

# Nothing left to run: refused before anything runs, file:line: field.
cat >"$TEST_TMP/none.cfg" <<LAB
name = "none";
variants = ( { name = "dir"; directory = "$TEST_TMP/t"; } );
workloads = (
  { name = "bon"; type = "bonnie"; size = 0;
    files = 0; }
);
LAB
"$RAIDLAB" check "$TEST_TMP/none.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "size 0 and files 0: exit status (an invalid lab)" "$?" 2
expect_match "size 0 and files 0: the message" "$(cat "$TEST_TMP/err")" \
	"^$TEST_TMP/none.cfg:5: workloads\.bon\.files: files = 0 and size = 0 skip every test"
[ -z "$(ls -A "$TEST_TMP/t")" ] || fail "files left on the target"
exit 0
