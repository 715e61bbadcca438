#!/bin/sh
# raidlab compare and report on a fleet: the records of three hosts, made
# from the stored A/A record (tests/data/fleet-host.jq: another host name,
# two variants swapped for another draw of the noise, the spread quieted
# tenfold so that a host can prove sameness within 2%, v2's figures
# scaled). B 12% faster on every host must read "consistently on 3 of 3
# hosts"; faster on one host and the same on two must say so and that the
# hosts disagree. The combined change is recomputed with jq from the
# records' own figures (the mean over hosts of each host's log-ratio of
# geometric means); the JSON says what the text says. Records of one host
# print exactly what they printed before fleets existed: the stored
# outputs in tests/data/golden (regenerate them only for a deliberate
# change of the single-host output). No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq cmp

export LC_ALL=C.UTF-8 TZ=UTC
src="$TESTDATA/aa-ext4.json"
# host NAME SWAP_A SWAP_B FACTOR OUT
host() {
	jq --arg host "$1" --arg a "$2" --arg b "$3" --argjson quiet 0.1 \
	    --argjson f "$4" -f "$TESTDATA/fleet-host.jq" "$src" >"$5" ||
		fail "fixture $5"
}
host h1 v1 v1 1.12 "$TEST_TMP/all-h1.json"
host h2 v1 v3 1.12 "$TEST_TMP/all-h2.json"
host h3 v2 v3 1.12 "$TEST_TMP/all-h3.json"
host h1 v1 v1 1.12 "$TEST_TMP/one-h1.json"
host h2 v1 v3 1 "$TEST_TMP/one-h2.json"
host h3 v2 v3 1 "$TEST_TMP/one-h3.json"

# expect_pct SET: v2's change against v1 in files_4000 over the hosts,
# percent with one decimal, from the records.
expect_pct() {
	jq -s -r '[.[] | [.runs[] | select(.status == "ok") |
	    {v: .variant.name, t: (.tests[] | select(.key == "files_4000" and
	    (.too_fast | not)))} | select(.v == "v1" or .v == "v2")] |
	    ((map(select(.v == "v2") | .t.value | log) | add / length) -
	     (map(select(.v == "v1") | .t.value | log) | add / length))] |
	    (add / length | exp - 1) * 100' "$@" | xargs printf '%.1f'
}

# block FILE: the text block of small's files_4000.
block() {
	awk '/^small: 4000 files/ { on = 1 } on && /^$/ { exit } on' "$1"
}

cd "$TEST_TMP" || fail "cd"
"$RAIDLAB" compare -b v1 all-h1.json all-h2.json all-h3.json >all.txt ||
	fail "compare: all faster"
"$RAIDLAB" compare -b v1 one-h1.json one-h2.json one-h3.json >one.txt ||
	fail "compare: one faster"

# --- all three hosts faster
pct=$(expect_pct all-h1.json all-h2.json all-h3.json)
b=$(block all.txt)
expect_match "all: rows by host" "$b" "^ +v2@h3 "
expect_match "all: the fleet section" "$b" \
	"^  Fleet of 3 hosts, the host as a block:"
for h in h1 h2 h3; do
	expect_match "all: $h's own verdict" "$b" "^      $h .* faster\$"
done
expect_match "all: the combined answer" "$b" \
	"^    v2: $pct% faster than v1 over 3 hosts \(9[0-9.]*% CI [0-9.]+% to [0-9.]+%; p [^)]*\), consistently on 3 of 3 hosts"
expect_match "all: how" "$(cat all.txt)" "^Fleet verdicts: each variant against"

# --- faster on one host, the same on two
pct=$(expect_pct one-h1.json one-h2.json one-h3.json)
b=$(block one.txt)
expect_match "one: h1 faster" "$b" "^      h1 .* faster\$"
expect_match "one: h2 the same" "$b" "^      h2 .* the same\$"
expect_match "one: h3 the same" "$b" "^      h3 .* the same\$"
expect_match "one: the combined answer" "$b" \
	"^    v2: can't tell against v1 over 3 hosts: the 9[0-9.]*% CI spans -[0-9.]+% to \+[0-9.]+% \(\+$pct%; p [^)]*\); faster on 1 of 3 hosts, the same on 2; the hosts disagree: I² [0-9]+%, their changes"

# --- the JSON says the same
"$RAIDLAB" compare --json -b v1 one-h1.json one-h2.json one-h3.json \
	>one.json || fail "compare --json"
t='.fleet.tests[] | select(.key == "files_4000" and .variant == "v2")'
expect_eq "json: hosts" "$(jq -c '.fleet.hosts' one.json)" '["h1","h2","h3"]'
expect_eq "json: host verdicts" \
	"$(jq -c "[$t | .hosts[].verdict]" one.json)" \
	'["better","same","same"]'
expect_eq "json: combined" \
	"$(jq -r "$t | .combined | \"\(.verdict) \(.hosts) \(.better) \(.same)\"" one.json)" \
	"unsure 3 1 2"
expect_eq "json: change" \
	"$(jq -r "$t | .combined.change" one.json | xargs printf '%.1f')" "$pct"
expect_match "json: the text" "$(jq -r "$t | .combined.text" one.json)" \
	"faster on 1 of 3 hosts, the same on 2"
expect_eq "json: variants by host" \
	"$(jq -c '[.variants[].host] | unique' one.json)" '["h1","h2","h3"]'

# --- the CSV: each cell names its host; --fleet-csv a line per host and
# a combined one (no host) per test and variant, the JSON's figures
"$RAIDLAB" compare --csv -b v1 one-h1.json one-h2.json one-h3.json \
	>cells.csv || fail "compare --csv"
expect_eq "csv: the host column" "$(head -n 1 cells.csv | awk -F, '{ print $NF }')" host
expect_eq "csv: v2's hosts in files_4000" \
	"$(awk -F, '$2 == "files_4000" && $5 == "v2" { print $NF }' cells.csv |
	tr '\n' ' ')" "h1 h2 h3 "
"$RAIDLAB" compare --fleet-csv -b v1 one-h1.json one-h2.json one-h3.json \
	>fleet.csv || fail "compare --fleet-csv"
expect_eq "fleet csv: header" "$(head -n 1 fleet.csv)" \
	"workload,key,label,unit,variant,baseline,host,hosts,n,n_base,change,pct_lo,pct_hi,p,q,eq_lo,eq_hi,conf,verdict,i2,spread_lo,spread_hi,better,worse,same,unsure,other"
expect_eq "fleet csv: a line per host and one combined per item" \
	"$(($(wc -l <fleet.csv) - 1))" \
	"$(jq '[.fleet.tests[] | (.hosts | length) + 1] | add' one.json)"
expect_eq "fleet csv: every line 27 fields" \
	"$(awk -F, 'NF != 27' fleet.csv | wc -l)" 0
# host, verdict and change (one decimal) of files_4000's v2, as the JSON
expect_eq "fleet csv: files_4000 v2" \
	"$(awk -F, '$2 == "files_4000" && $5 == "v2" {
	    printf "%s %s %s %.1f\n", ($7 == "" ? "-" : $7), $8, $19, $11 }' \
	    fleet.csv)" \
	"$(jq -r "$t | (.hosts[] | \"\(.host)  \(.verdict) \(.change)\"),
	    (.combined | \"- \(.hosts) \(.verdict) \(.change)\")" one.json |
	    awk '{ printf "%s %s %s %.1f\n", $1, ($1 == "-" ? $2 : ""), \
		($1 == "-" ? $3 : $2), ($1 == "-" ? $4 : $3) }')"
expect_eq "fleet csv: one host, only the header" \
	"$("$RAIDLAB" compare --fleet-csv "$TESTDATA/aa-ext4.json" | wc -l)" 1

# --- the report answers for the fleet first
"$RAIDLAB" report one-h1.json one-h2.json one-h3.json >report.txt ||
	fail "report"
expect_eq "report: the fleet first" \
	"$(sed -n '/^The answer/{n;n;p;q}' report.txt)" \
	"Over the hosts, the host as a block:"
expect_match "report: a fleet answer" "$(tr -s ' \n' ' ' <report.txt)" \
	"small: 4000 files of 4K in 4 dirs: v2: can't tell against v1 over 3 hosts: .* faster on 1 of 3 hosts, the same on 2; the hosts disagree"
"$RAIDLAB" report --markdown one-h1.json one-h2.json one-h3.json \
	>report.md || fail "report --markdown"
expect_eq "report md: the fleet first" \
	"$(sed -n '/^## The answer/{n;n;p;q}' report.md)" \
	"Over the hosts, the host as a block:"

# --- one host: as before, byte for byte
cd "$TESTDATA" || fail "cd $TESTDATA"
"$RAIDLAB" compare aa-ext4.json aa-tmpfs.json >"$TEST_TMP/pair.txt" ||
	fail "compare: one host"
cmp "$TEST_TMP/pair.txt" golden/aa-pair-compare.txt ||
	fail "one host: compare's text changed"
"$RAIDLAB" compare --json aa-ext4.json aa-tmpfs.json >"$TEST_TMP/pair.json" ||
	fail "compare --json: one host"
cmp "$TEST_TMP/pair.json" golden/aa-pair-compare.json ||
	fail "one host: compare's JSON changed"
"$RAIDLAB" report aa-ext4.json aa-tmpfs.json >"$TEST_TMP/pair-report.txt" ||
	fail "report: one host"
cmp "$TEST_TMP/pair-report.txt" golden/aa-pair-report.txt ||
	fail "one host: the report changed"
exit 0
