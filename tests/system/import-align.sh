#!/bin/sh
# An import lands in the same columns as raidlab's own runs, as
# raidlab(1) promises, and claims nothing its input did not say:
#  - bonnie++ 2.00a -s 0 -n 8 -x 3 (its real CSV, tests/data): size 0,
#    not "auto"; the three lines one variant with repeats 1 to 3, so that
#    compare gives a verdict on n = 3 against another record of it;
#  - a raidlab run of the same settings made with --set bonnie.size=0
#    shares the import's columns, and compare does not call the two
#    records "not scaled alike";
#  - seed 001's bonnie++ 1.01b tables: no chunk, seeks, seekers or
#    char_size (1.01b printed none, and its defaults were not 2.0x's),
#    their per-char tests labelled stdio (another method than 2.0x's);
#  - raidlab show says "unknown" for the host facts an import lacks.
# No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq

data=${top_srcdir:-.}/tests/data
x3=$data/bonnie-2.00a-s0-x3.csv
out=$TEST_TMP/out
mkdir -p "$out" "$TEST_TMP/t"

"$RAIDLAB" import -o "$out/x3.json" "$x3" >/dev/null || fail "import -x 3"
# bonnie++'s lines, read here: name, version, settings and seed alike.
expect_eq "the CSV's lines share name, version and settings" \
	"$(awk -F, 'NR > 1 { print $2, $3, $4, $5, $6, $7, $8, $9, $22 }' "$x3" |
		sort -u | wc -l)" 1
expect_eq "-x 3: one variant" \
	"$(jq -r '[.runs[].variant.name] | unique | join(",")' "$out/x3.json")" \
	labhost
expect_eq "-x 3: its repeats 1 to 3" \
	"$(jq -c '[.runs[].repeat]' "$out/x3.json")" '[1,2,3]'
expect_eq "-s 0: size 0 in every run" \
	"$(jq -r '[.runs[].workload.params.size] | unique | join(",")' "$out/x3.json")" 0

# Sequential create has a figure in all three lines: a cell of n = 3
# that compare judges against another record of it.
cp "$x3" "$TEST_TMP/again.csv"
"$RAIDLAB" import -n again -o "$out/again.json" "$TEST_TMP/again.csv" \
	>/dev/null || fail "import again"
"$RAIDLAB" compare --json "$out/x3.json" "$out/again.json" \
	>"$TEST_TMP/c1.json" || fail "compare the imports"
cell='.tests[] | select(.key == "seq_create") | .rows[]'
expect_eq "compare: n of each seq_create cell" \
	"$(jq -c "[$cell | .n]" "$TEST_TMP/c1.json")" '[3,3]'
# (the same figures twice: no difference, yet 3 repeats with their CV
# cannot show them within +-2%: can't tell, a verdict all the same)
expect_eq "compare: a verdict, not too few repeats" \
	"$(jq -r "[$cell | .verdict] | join(\",\")" "$TEST_TMP/c1.json")" \
	baseline,unsure

# raidlab's own run of the same settings, made with --set.
cat >"$TEST_TMP/align.cfg" <<LAB
name = "align";
cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/t"; } );
workloads = ( { name = "bonnie"; type = "bonnie"; files = 8; } );
LAB
"$RAIDLAB" run "$TEST_TMP/align.cfg" --set bonnie.size=0 \
	--results "$TEST_TMP/r" >"$TEST_TMP/run.out" 2>&1 ||
	fail "raidlab run: $(cat "$TEST_TMP/run.out")"
own=$(ls "$TEST_TMP"/r/align-*.json)
expect_eq "raidlab's record says it was scaled" \
	"$(jq -r .lab.scaled "$own")" "--set bonnie.size=0"
"$RAIDLAB" compare "$out/x3.json" "$own" >"$TEST_TMP/c2.txt" ||
	fail "compare with raidlab's run"
grep -q 'not scaled alike' "$TEST_TMP/c2.txt" &&
	fail "equal parameters called not scaled alike: $(cat "$TEST_TMP/c2.txt")"
"$RAIDLAB" compare --json "$out/x3.json" "$own" >"$TEST_TMP/c2.json" ||
	fail "compare --json with raidlab's run"
expect_eq "one column per file test, shared" \
	"$(jq -r '[.tests[].key] | join(",")' "$TEST_TMP/c2.json")" \
	seq_create,seq_read,seq_delete,random_create,random_read,random_delete
expect_eq "seq_create: both rows in it" \
	"$(jq -r "[$cell | .variant] | join(\",\")" "$TEST_TMP/c2.json")" \
	labhost,dir

# bonnie++ 1.01b: what it never printed is unknown.
"$RAIDLAB" import -o "$out/s1.json" "$data/seed-001-bonnie.txt" >/dev/null ||
	fail "import seed 001"
expect_eq "1.01b: no 2.0x parameters claimed" \
	"$(jq -r '[.runs[].workload.params | has("chunk", "seeks", "seekers", "char_size")] | unique | join(",")' "$out/s1.json")" \
	false
expect_eq "1.01b: size and files as printed" \
	"$(jq -r '[.runs[].workload.params | "\(.size) \(.files)"] | unique | join(",")' "$out/s1.json")" \
	"2G 16"
expect_eq "1.01b: per-char tests named by their method" \
	"$(jq -r '[.runs[0].tests[] | select(.key | test("_char$")) | .label] | join(",")' "$out/s1.json")" \
	"Per-char write, stdio (-s 2G),Per-char read, stdio (-s 2G)"
show=$("$RAIDLAB" show "$out/s1.json")
printf '%s\n' "$show" | grep -q '8192' &&
	fail "1.01b shown with 2.0x's seeks: $show"
expect_match "show: host facts unknown" "$show" \
	'CPU: unknown, cores unknown; RAM unknown'
printf '%s\n' "$show" | grep -q '0 cores\|Linux ?' &&
	fail "show: ? or 0 cores for facts the import lacks: $show"
echo "import-align: imports share raidlab's columns and claim no more"
