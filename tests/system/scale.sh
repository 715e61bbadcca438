#!/bin/sh
# A lab scaled down from the command line, on directory targets (no root):
# --scale and --set change what runs and only that, as the record's own
# parameters show against the lab's values recomputed here with awk;
# plan, check and run --dry-run list the same changes; the record says it
# ran scaled, show says it is not a full result, and compare says when
# records were not scaled alike; bad values exit 2 naming the option and
# the key; --disk puts a preset's scratch disks on the devices given (in
# the plan); --hook runs once per variant with the variant and target,
# before the workloads, and its output lands in the record.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq awk

ab_lab "$TEST_TMP/lab.cfg" scl 4 '{ name = "small"; type = "smallfiles";
    counts = [2000, 30000]; size = "1K"; dirs = 4; },
  { name = "io"; type = "fio"; rw = "write"; size = "64M"; bs = "64K"; }'
lab=$TEST_TMP/lab.cfg

# ---- bad input: exit 2, the option and the key named, nothing run
bad() {
	"$RAIDLAB" run "$lab" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	expect_eq "run $*: exit status" "$?" 2
	[ ! -d "$TEST_TMP/results" ] || fail "run $*: a record was written"
}
bad --set small.count=many
expect_match "--set: not an integer" "$(cat "$TEST_TMP/err")" \
	'^--set: small\.count: expected an integer$'
bad --set io.sise=1M
expect_match "--set: unknown key" "$(cat "$TEST_TMP/err")" \
	"^--set: io\.sise: unknown key; did you mean 'size'\?\$"
bad --set io.size=1K
expect_match "--set: out of range" "$(cat "$TEST_TMP/err")" \
	'^--set: io\.size: .*range'
bad --set big.size=1M
expect_match "--set: no such workload" "$(cat "$TEST_TMP/err")" \
	'no workload named big'
bad --set small.count
expect_match "--set: no value" "$(cat "$TEST_TMP/err")" \
	'--set: small\.count: expected WORKLOAD\.KEY=VALUE'
bad --scale 0
expect_match "--scale 0" "$(cat "$TEST_TMP/err")" \
	'^raidlab run: --scale: 0 is not a fraction from'
bad --scale 2
bad --disk sdb=/dev/sdb
expect_match "--disk syntax" "$(cat "$TEST_TMP/err")" \
	'--disk: sdb=/dev/sdb: expected scratch:N=/dev/DEVICE'
"$RAIDLAB" check -q --set small.count=x "$lab" 2>/dev/null
expect_eq "check --set bad: exit status" "$?" 2
"$RAIDLAB" plan --scale 7 "$lab" >/dev/null 2>&1
expect_eq "plan --scale bad: exit status" "$?" 2

# ---- what --scale 0.01 --set makes of it, recomputed here
# counts: n x 0.01 to the nearest, at least 10; fio size: down to 4K, at
# least 1M; repeats: at least 3.
want_counts=$(echo 2000 30000 | awk '{ for (i = 1; i <= NF; i++) {
	n = int($i * 0.01 + 0.5); if (n < 10) n = 10
	printf "%s%d", (i > 1 ? "," : ""), n } }')
want_fio=$(awk 'BEGIN { s = int(64 * 1048576 * 0.01); s -= s % 4096
	if (s < 1048576) s = 1048576; print s }')
scale="--scale 0.01 --set io.rw=randwrite"

# shellcheck disable=SC2086
out=$("$RAIDLAB" check $scale "$lab" 2>/dev/null)
expect_eq "check --scale: exit status" "$?" 0
expect_match "check: the changes listed" "$out" \
	'^# scaled down: --scale 0\.01 --set io\.rw=randwrite'
expect_match "check: repeats" "$out" '#   repeats: 4 -> 3'
expect_match "check: counts" "$out" \
	"#   workloads\.small\.counts: \[2000, 30000\] -> \[$(echo "$want_counts" |
		sed 's/,/, /g')\]"
expect_match "check: the lab as scaled" "$out" 'repeats = 3;'
expect_match "check: rw set" "$out" 'rw = "randwrite";'
# shellcheck disable=SC2086
plan=$("$RAIDLAB" plan $scale "$lab")
expect_match "plan: the same changes" "$plan" \
	'#   workloads\.io\.rw: "write" -> "randwrite"'
# shellcheck disable=SC2086
dry=$("$RAIDLAB" run -n $scale "$lab" 2>&1)
expect_eq "run --dry-run: exit status" "$?" 0
expect_match "run --dry-run: the changes" "$dry" '#   repeats: 4 -> 3'
[ ! -d "$TEST_TMP/results" ] || fail "run --dry-run wrote a record"

# ---- the run, with a hook that says when it ran
cat >"$TEST_TMP/hook" <<EOF
#!/bin/sh
# the variant, the target, and how many files it held (0: no workload yet)
echo "\$1 \$2 \$(ls -A "\$2" | wc -l)" >>"$TEST_TMP/hook.log"
echo "hook saw \$1"
EOF
chmod +x "$TEST_TMP/hook"
# shellcheck disable=SC2086
# (one repeat asked for explicitly: allowed, and the loss said at once)
"$RAIDLAB" run $scale --repeats 1 --hook "$TEST_TMP/hook" "$lab" >/dev/null \
	2>"$TEST_TMP/run.err" || fail "run --scale: $(cat "$TEST_TMP/run.err")"
expect_eq "run --repeats 1: verdicts gone, said in one line" \
	"$(grep -c 'verdict' "$TEST_TMP/run.err")" 1
expect_match "run --repeats 1: the line" "$(cat "$TEST_TMP/run.err")" \
	'^raidlab run: 1 repeat: no verdicts \(a verdict needs 3 repeats or more\)$'

expect_match "run: the changes on stderr" "$(cat "$TEST_TMP/run.err")" \
	'# scaled down: --scale 0\.01'
rec=$(ls "$TEST_TMP"/results/scl-*.json)
expect_eq "record: lab.scaled" "$(jq -r .lab.scaled "$rec")" \
	"--scale 0.01 --set io.rw=randwrite"
expect_eq "record: one run per variant and workload" \
	"$(jq -r '[.runs[] | .variant.name + "/" + .workload.name] | join(" ")' \
		"$rec")" "alpha/small alpha/io beta/small beta/io"
expect_eq "record: every run ok" \
	"$(jq -r '[.runs[].status] | unique | join(",")' "$rec")" ok
expect_eq "record: scaled counts" "$(jq -r '[.runs[] |
	select(.workload.name == "small")][0].workload.params.counts |
	map(tostring) | join(",")' "$rec")" "$want_counts"
expect_eq "record: scaled fio size" "$(jq -r '[.runs[] |
	select(.workload.name == "io")][0].workload.params.size' "$rec" |
	awk '/K$/ { print $0 * 1024; next } /M$/ { print $0 * 1048576; next }
		{ print }')" "$want_fio"
expect_eq "record: the rw set" "$(jq -r '[.runs[] |
	select(.workload.name == "io")][0].workload.params.rw' "$rec")" randwrite
expect_eq "record: shapes kept" "$(jq -r '[.runs[] |
	select(.workload.name == "small")][0].workload.params |
	"\(.dirs) \(.size)"' "$rec")" "4 1K"
expect_eq "record: the files smallfiles made" "$(jq -r '[.runs[] |
	select(.workload.name == "small" and .variant.name == "alpha")][0] |
	[.tests[].files] | map(tostring) | join(",")' "$rec")" "$want_counts"
expect_eq "hook: once per variant, before any workload" \
	"$(cat "$TEST_TMP/hook.log")" \
	"alpha $TEST_TMP/a 0
beta $TEST_TMP/b 0"
show=$("$RAIDLAB" show "$rec")
expect_match "show: not a full result" "$show" \
	'Scaled down \(--scale 0\.01 --set io\.rw=randwrite\): not a full result'

# ---- compare: a scaled record next to a full one is said
cat >"$TEST_TMP/small.cfg" <<EOF
name = "scl2";
cache = "keep";
results = "$TEST_TMP/results2";
variants = ( { name = "alpha"; directory = "$TEST_TMP/a"; } );
workloads = ( { name = "small"; type = "smallfiles"; count = 40;
  size = "1K"; dirs = 2; } );
EOF
"$RAIDLAB" run "$TEST_TMP/small.cfg" >/dev/null 2>&1 || fail "full run"
sleep 1 # a new record name
"$RAIDLAB" run --set small.count=20 "$TEST_TMP/small.cfg" >/dev/null 2>&1 ||
	fail "scaled run"
full=$(ls "$TEST_TMP"/results2/*.json | head -n 1)
part=$(ls "$TEST_TMP"/results2/*.json | tail -n 1)
expect_eq "the full record is not scaled" \
	"$(jq -r '.lab.scaled // "none"' "$full")" none
cmp=$("$RAIDLAB" compare "$full" "$part")
expect_match "compare: the scaled record marked" "$cmp" \
	'#2 .*\(scaled down: --set small\.count=20\)'
expect_match "compare: not scaled alike" "$cmp" 'not scaled alike'
cmp=$("$RAIDLAB" compare "$full" "$full")
! printf '%s' "$cmp" | grep -q 'not scaled alike' ||
	fail "compare: two full records said to differ"

# ---- --scale never leaves a shipped preset fewer than 3 repeats (a
# verdict needs an interval, which needs 3): the repeats check prints,
# fixed or a range's max, against the lab's own
for p in "$top_srcdir"/data/labs/*.cfg; do
	n=$(basename "$p" .cfg)
	reps() { # the repeats (a range's max) of a check's output
		sed -n 's/^repeats = \([0-9]*\);$/\1/p
			s/^repeats = {.* max = \([0-9]*\);.*/\1/p' | head -n 1
	}
	full=$("$RAIDLAB" check "$p" 2>/dev/null | reps)
	scaled=$("$RAIDLAB" check --scale 0.0001 "$p" 2>/dev/null | reps)
	want=$(( ${full:-1} < 3 ? ${full:-1} : 3 ))
	expect_eq "$n --scale 0.0001: repeats" "${scaled:-1}" "$want"
done

# ---- --disk: a preset's scratch disks on the devices given (plan only)
plan=$("$RAIDLAB" plan --disk scratch:0=/dev/vdb --disk scratch:1=/dev/vdc \
	--disk scratch:2=/dev/vdd --disk scratch:3=/dev/vde \
	seed-003-raid10-f2-vs-btrfs)
expect_eq "plan --disk: exit status" "$?" 0
expect_match "plan --disk: md on the devices" "$plan" \
	'mdadm --create [^ ]* .* /dev/vdb /dev/vdc /dev/vdd /dev/vde'
expect_match "plan --disk: btrfs on the devices" "$plan" \
	'mkfs\.btrfs -f -d raid10 -m raid10 /dev/vdb /dev/vdc /dev/vdd /dev/vde'
! printf '%s\n' "$plan" | grep -v '^#' | grep -q 'scratch' ||
	fail "plan --disk: a scratch disk left in the commands"
"$RAIDLAB" plan --disk scratch:0=/dev/vdb seed-003-raid10-f2-vs-btrfs \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "plan --disk missing one: exit status" "$?" 2
expect_match "plan --disk missing one: said" "$(cat "$TEST_TMP/err")" \
	'--disk: variants\.md-raid10-f2-ext4: uses scratch:1, which no --disk gives'
echo "scale: ok"
