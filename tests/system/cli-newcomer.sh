#!/bin/sh
# The command line as a newcomer meets it after the TUI: a lab saved
# where the TUI saves labs is found by its name (plan, check, run), its
# records are listed (raidlab results) and its newest is read by the
# lab's name (show, compare, report); `run -t` on a directory that is not
# there is a usage error before any record is written; a mistyped
# command gets "did you mean", a bad option one line and the way to
# --help; counts of one read in the singular. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq

XDG_CONFIG_HOME="$TEST_TMP/config"
export XDG_CONFIG_HOME
labs="$XDG_CONFIG_HOME/raidlab/labs"
results="$XDG_DATA_HOME/raidlab/results"
mkdir -p "$labs" "$TEST_TMP/a" "$TEST_TMP/b" || fail "mkdir"

# ---- a lab of one's own, by name, as the TUI saves it
cat >"$labs/mine.cfg" <<EOF
name = "mine";
repeats = 1;
cache = "keep";
variants = (
  { name = "alpha"; directory = "$TEST_TMP/a"; },
  { name = "beta"; directory = "$TEST_TMP/b"; }
);
workloads = ( { name = "small"; type = "smallfiles"; count = 20;
  size = "1K"; dirs = 1; } );
EOF
"$RAIDLAB" check -q mine >/dev/null 2>"$TEST_TMP/err"
expect_eq "check mine: exit status ($(cat "$TEST_TMP/err"))" "$?" 0
out=$("$RAIDLAB" plan mine 2>"$TEST_TMP/err")
expect_eq "plan mine: exit status ($(cat "$TEST_TMP/err"))" "$?" 0
expect_match "plan mine: its variant" "$out" "variant alpha: the directory $TEST_TMP/a"

# It shadows a preset of the same name: the user's own is the one meant.
sed 's/^name = "mine";/name = "quick";/' "$labs/mine.cfg" >"$labs/quick.cfg"
out=$("$RAIDLAB" plan quick 2>&1) || fail "plan quick: $out"
expect_match "plan quick: the user's own" "$out" "variant beta: the directory $TEST_TMP/b"
rm -f "$labs/quick.cfg"

# ---- no records yet: said, not an error
out=$("$RAIDLAB" results 2>"$TEST_TMP/err")
expect_eq "results, none: exit status" "$?" 0
expect_eq "results, none: stdout" "$out" ""
expect_match "results, none: said" "$(cat "$TEST_TMP/err")" "no records in $results"

# ---- run it by name; an older record of it and another lab's beside
"$RAIDLAB" run mine >/dev/null 2>"$TEST_TMP/err" ||
	fail "run mine: $(cat "$TEST_TMP/err")"
new=$(ls "$results"/mine-*.json) || fail "run mine left no record"
old="$results/mine-20200101-000000.json"
jq '.created = "2020-01-01T00:00:00Z" | .runs |= map(.tests |= map(.value = 1))' \
	"$new" >"$old" || fail "jq old"
jq '.created = "2021-01-01T00:00:00Z" | .lab.name = "other"' "$new" \
	>"$results/other-20210101-000000.json" || fail "jq other"

out=$("$RAIDLAB" results 2>"$TEST_TMP/err")
expect_eq "results: exit status" "$?" 0
expect_eq "results: stderr" "$(cat "$TEST_TMP/err")" ""
expect_match "results: header" "$(printf '%s\n' "$out" | sed -n 1p)" \
	'^CREATED +LAB +STATUS +VARIANTS +RUNS +FILE$'
expect_eq "results: newest first" \
	"$(printf '%s\n' "$out" | sed 1d | awk '{print $NF}' | tr '\n' ' ')" \
	"$new $results/other-20210101-000000.json $old "
expect_match "results: a row" "$(printf '%s\n' "$out" | sed -n 2p)" \
	"^[0-9-]+ [0-9:]+ +mine +ok +2 +2 +$new\$"
out=$("$RAIDLAB" results --json mine) || fail "results --json mine"
expect_eq "results --json mine: only mine's, newest first" \
	"$(printf '%s' "$out" | jq -r '[.[] | .path] | join(" ")')" "$new $old"
expect_eq "results --json: fields" \
	"$(printf '%s' "$out" | jq -r '.[0] | "\(.lab) \(.status) \(.variants) \(.runs)"')" \
	"mine ok 2 2"

# show, compare and report take the lab's name for its newest record.
out=$("$RAIDLAB" compare --json mine 2>"$TEST_TMP/err")
expect_eq "compare mine: exit status" "$?" 0
expect_eq "compare mine: says which" "$(cat "$TEST_TMP/err")" \
	"raidlab compare: mine: its newest record, $new"
want=$(jq '[.runs[] | select(.variant.name == "alpha") | .tests[0].value][0]' "$new")
got=$(printf '%s' "$out" | jq '.tests[0].rows[] | select(.variant == "alpha") | .mean')
expect_eq "compare mine: the newest record's figure" "$got" "$want"
out=$("$RAIDLAB" show mine 2>/dev/null) || fail "show mine"
expect_match "show mine" "$out" '== Variant beta \(directory\) =='
"$RAIDLAB" report mine >/dev/null 2>&1 || fail "report mine"
"$RAIDLAB" compare nosuchlab >/dev/null 2>"$TEST_TMP/err"
expect_eq "compare nosuchlab: exit status" "$?" 1
expect_match "compare nosuchlab: says where it looked" "$(cat "$TEST_TMP/err")" \
	"nosuchlab: no such record file, and no record of a lab of that name in $results"

# ---- counts of one in the singular (repeats = 1, dirs = 1)
out=$("$RAIDLAB" compare mine 2>/dev/null) || fail "compare mine (text)"
expect_match "compare: one repeat" "$out" "1 repeat against 1 of alpha"
case $out in
*"1 repeats"* | *"1 dirs"*) fail "compare: a plural for one: $out" ;;
esac
expect_match "compare: one dir" "$out" "20 files of 1K in 1 dir "

# ---- run -t DIR that is not there: usage, nothing written
before=$(ls "$results" | wc -l)
"$RAIDLAB" run -t "$TEST_TMP/nonexistent" quick >/dev/null 2>"$TEST_TMP/err"
expect_eq "run -t nonexistent: exit status" "$?" 2
expect_eq "run -t nonexistent: message" "$(cat "$TEST_TMP/err")" \
	"raidlab run: --target $TEST_TMP/nonexistent: No such file or directory"
expect_eq "run -t nonexistent: no record" "$(ls "$results" | wc -l)" "$before"
: >"$TEST_TMP/file"
"$RAIDLAB" run -t "$TEST_TMP/file" quick >/dev/null 2>"$TEST_TMP/err"
expect_eq "run -t file: exit status" "$?" 2
expect_match "run -t file: message" "$(cat "$TEST_TMP/err")" "not a directory"

# ---- mistakes: one line and the way on, not the whole help
"$RAIDLAB" rnu quick >/dev/null 2>"$TEST_TMP/err"
expect_eq "rnu: exit status" "$?" 2
expect_eq "rnu: message" "$(cat "$TEST_TMP/err")" \
	"raidlab: unknown command 'rnu'; did you mean 'run'?
Try 'raidlab --help' for more information."
for args in "run --bogus quick" "plan -Z quick" "compare --nope x" \
    "show --nope x" "report --nope x" "check --nope x" "disks --nope" \
    "import --nope x" "cleanup --nope" "results --nope"; do
	set -- $args
	"$RAIDLAB" "$@" >/dev/null 2>"$TEST_TMP/err"
	expect_eq "$args: exit status" "$?" 2
	expect_eq "$args: two lines ($(cat "$TEST_TMP/err"))" \
		"$(wc -l <"$TEST_TMP/err")" 2
	expect_match "$args: names the command" "$(sed -n 1p "$TEST_TMP/err")" \
		"^raidlab $1: "
	expect_eq "$args: the way to --help" "$(sed -n 2p "$TEST_TMP/err")" \
		"Try 'raidlab $1 --help' for more information."
done
"$RAIDLAB" run >/dev/null 2>"$TEST_TMP/err"
expect_eq "run without a lab" "$(sed -n 1p "$TEST_TMP/err")" \
	"raidlab run: no LAB given"
exit 0
