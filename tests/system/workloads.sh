#!/bin/sh
# Every workload type through the real binary on a plain directory, with
# small parameters: each runs to "ok", reports in its own layout, records
# its tests, and leaves the target empty. In a --enable-tsan build this is
# what puts the engine's threads (bonnie's seekers, fio's jobs, queued
# engines) under ThreadSanitizer. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq tar

cat >"$TEST_TMP/lab.cfg" <<LAB
name = "all";
cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/t"; } );
workloads = (
  { type = "smallfiles"; count = 200; dirs = 4; },
  { type = "bonnie"; size = "16M"; char_size = "256K"; files = 1;
    max_size = "4K"; min_size = "1K"; dirs = 4; seeks = 2000; },
  { type = "untar"; synthetic_files = 300; synthetic_size = "3M"; },
  { type = "compilebench"; initial = 2; runs = 6; files = 300;
    size = "3M"; },
  { type = "fio"; rw = "randrw"; bs = "4K"; size = "4M"; threads = 4;
    end_fsync = true; }
);
LAB
XDG_CACHE_HOME="$TEST_TMP/cache" "$RAIDLAB" run "$TEST_TMP/lab.cfg" \
    --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "all workloads: exit status" "$?" 0
out=$(cat "$TEST_TMP/out")
expect_match "smallfiles report" "$out" '200 files of 4K in 4 dirs: '
expect_match "bonnie report" "$out" '------Sequential Output------'
expect_match "bonnie csv" "$out" '1\.98,raidlab-'
expect_match "untar report" "$out" 'tar xf \+ sync: real '
expect_match "compilebench report" "$out" 'intial create total runs 2 avg '
expect_match "fio report" "$out" 'read: IOPS='
rec=$(ls "$TEST_TMP"/res/all-*.json)
expect_eq "record: every run ok" \
	"$(jq -r '[.runs[].status] | join(",")' "$rec")" ok,ok,ok,ok,ok
expect_eq "record: bonnie's twelve tests" \
	"$(jq -r '.runs[1].tests | length' "$rec")" 12
# untar's bytes_read is the tarball read to its end-of-archive blocks:
# where GNU tar says its NULs begin, plus those two blocks.
tarball=$(ls "$TEST_TMP"/cache/raidlab/untar-tree-*.tar)
nuls=$(LC_ALL=C tar -tR -f "$tarball" |
	sed -n 's/^block \([0-9]*\): \*\* Block of NULs \*\*$/\1/p')
expect_eq "record: untar's bytes_read" \
	"$(jq '.runs[] | select(.workload.type == "untar") | .tests[0].bytes_read' "$rec")" \
	"$(((nuls + 2) * 512))"
# bonnie++'s machine field names the variant and host, as -m would, so
# that bon_csv2html's rows can be told apart.
host=$(jq -r .host.hostname "$rec")
expect_match "bonnie csv machine" "$("$RAIDLAB" show "$rec")" \
	"^1\\.98,raidlab-[^,]*,dir@$host,"
[ -z "$(ls -A "$TEST_TMP/t")" ] || fail "files left on the target"
exit 0
