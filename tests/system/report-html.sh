#!/bin/sh
# raidlab report --html on a real record: two directory variants on
# loop-mounted ext4, a small smallfiles and a small fio run, 3 repeats.
# The page passes tidy without a warning; it names no script and no
# resource outside itself; it leads with the answer (a line per test and
# how it was judged, before any table); it holds one bar chart per test, one time
# series chart per workload and measure the record holds, one member
# activity chart per variant and workload when the record has members,
# one latency chart per test with histograms (all counted from the
# record with jq); every variant and every cell's mean (as compare
# --json gives it, formatted as the table shows it) and every answer are
# in the tables (report-html-check.py). Headless Chromium renders it: a
# screenshot of the first screen and of the whole page is not blank, has
# the chart colours, and charts lower down; --print-to-pdf makes a PDF.
# Root for the loop devices; skipped without tidy or chromium.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_root
need_cmd mkfs.ext4 jq python3 tidy timeout
chromium=$(command -v chromium || command -v chromium-browser) ||
	skip "needs chromium"
check=${top_srcdir:-.}/tests/system/report-html-check.py

for v in a b; do
	new_loop dev 256M
	mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4 $dev"
	do_mount "$dev" "$TEST_TMP/mnt-$v"
done
cat >"$TEST_TMP/lab.cfg" <<EOF
name = "html";
description = "Does <b> & \"quotes\" survive? ext4 against ext4";
repeats = 3;
cache = "keep";
results = "$TEST_TMP/results";
variants = (
  { name = "alpha"; directory = "$TEST_TMP/mnt-a"; },
  { name = "beta"; directory = "$TEST_TMP/mnt-b"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; counts = [300]; size = "1K";
    dirs = 2; },
  { name = "io"; type = "fio"; rw = "randrw"; size = "8M"; bs = "4K";
    runtime = 2; }
);
EOF
"$RAIDLAB" run "$TEST_TMP/lab.cfg" >"$TEST_TMP/run.out" 2>&1 ||
	fail "run: $(cat "$TEST_TMP/run.out")"
rec=$(ls "$TEST_TMP"/results/html-*.json)
out=$TEST_TMP/out.html
"$RAIDLAB" report --html -o "$out" "$rec" 2>"$TEST_TMP/err" ||
	fail "report --html: $(cat "$TEST_TMP/err")"
[ -s "$out" ] || fail "report --html wrote nothing"
"$RAIDLAB" compare --json "$rec" >"$TEST_TMP/cmp.json" || fail "compare --json"

# ---- valid HTML5, self-contained
tidy -q -e "$out" >"$TEST_TMP/tidy.out" 2>&1
rc=$?
[ "$rc" -lt 2 ] || fail "tidy errors: $(cat "$TEST_TMP/tidy.out")"
[ "$rc" -eq 0 ] || fail "tidy warnings: $(cat "$TEST_TMP/tidy.out")"
for bad in '<script' 'http:' 'https:' 'url(' '@import' '<link' '<img' \
	'<iframe' ' src='; do
	! grep -qiF -- "$bad" "$out" || fail "the page has '$bad'"
done
expect_match "lang" "$(sed -n 2p "$out")" '^<html lang="[a-z]+">$'
grep -q '^<meta charset="utf-8">$' "$out" || fail "no charset meta"
grep -q '<meta name="viewport"' "$out" || fail "no viewport meta"
grep -q '@media print' "$out" || fail "no print stylesheet"
grep -qF 'Does &lt;b&gt; &amp; &quot;quotes&quot; survive?' "$out" ||
	fail "the question is not escaped"
# the answer leads: its section, a line per test and how it was judged,
# all before the first table
ntests=$(jq '.tests | length' "$TEST_TMP/cmp.json")
python3 - "$out" "$ntests" <<'EOF' || fail "the answer does not lead the page"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
table = page.find("<table")
m = re.search(r'<section class="answer">(.*?)</section>', page, re.S)
if m is None or not 0 <= m.start() < table:
    sys.exit("no answer section before the first table")
tests = re.findall(r'<li><a href="#t-[0-9]+">', m.group(1))
if len(tests) != int(sys.argv[2]) or "How it was judged: " not in m.group(1):
    sys.exit("the answer has %d tests of %s, or no method" %
             (len(tests), sys.argv[2]))
EOF

# ---- the charts the record calls for, counted with jq
count() { grep -o "<svg class=\"chart $1\"" "$out" | wc -l; }
expect_eq "a bar chart per test" "$(count bars)" \
	"$(jq '.tests | length' "$TEST_TMP/cmp.json")"
# per workload, each of bytes written, bytes read, files that a run
# which did not fail counted
series=$(jq '[.runs[] | select(.status != "failed" and .series != null)
    | {w: .workload.name, s: .series}] | group_by(.w) | map(
    [(map(.s.bytes_written | add) | add), (map(.s.bytes_read | add) | add),
    (map(.s.files | add) | add)] | map(select(. > 0)) | length) | add' "$rec")
[ "$series" -ge 3 ] || fail "the record has only $series series"
expect_eq "a series chart per workload and measure" "$(count series)" "$series"
members=$(jq '[.runs[] | select(.status != "failed" and
    ((.series.members // []) | length) > 0)
    | "\(.workload.name) \(.variant.name)"] | unique | length' "$rec")
expect_eq "a member activity chart per variant and workload" \
	"$(count members)" "$members"
latency=$(jq '[.runs[] | select(.status != "failed") | .workload.name as $w
    | .tests[] | select((.latency // {}) | length > 0) | "\($w) \(.key)"]
    | unique | length' "$rec")
[ "$latency" -ge 2 ] || fail "the record has latency for $latency tests"
expect_eq "a latency chart per test with histograms" "$(count latency)" \
	"$latency"

# ---- the tables say what compare says
python3 "$check" tables "$TEST_TMP/cmp.json" "$out" >"$TEST_TMP/check.out" \
	2>&1 || fail "$(cat "$TEST_TMP/check.out")"
grep -qF '<pre class="lab">' "$out" || fail "no lab file"
grep -qF "$TEST_TMP/mnt-a" "$out" || fail "the lab's paths are missing"

# ---- rendered by a real browser
# shot SIZE FILE [ARGS]: chromium, private profile, killed if it hangs.
shot() {
	_size=$1 _file=$2
	shift 2
	HOME=$TEST_TMP timeout -k 10 120 "$chromium" --headless --no-sandbox \
		--disable-gpu --hide-scrollbars --no-first-run \
		--disable-extensions --user-data-dir="$TEST_TMP/chromium" \
		--window-size="$_size" "$@" "file://$out" \
		>"$TEST_TMP/chromium.out" 2>&1 ||
		fail "chromium: $(tail -5 "$TEST_TMP/chromium.out")"
	[ -s "$_file" ] || fail "chromium wrote no $_file"
}
shot 1366,900 "$TEST_TMP/screen.png" --screenshot="$TEST_TMP/screen.png"
# the first screen has the swatches of the summary at least
python3 "$check" png "$TEST_TMP/screen.png" 0 50 || fail "the first screen"
# the whole page: a window taller than it
shot 1366,9000 "$TEST_TMP/page.png" --screenshot="$TEST_TMP/page.png"
python3 "$check" png "$TEST_TMP/page.png" 2000 2000 || fail "the whole page"
shot 1366,900 "$TEST_TMP/out.pdf" --no-pdf-header-footer \
	--print-to-pdf="$TEST_TMP/out.pdf"
expect_eq "a PDF" "$(head -c 5 "$TEST_TMP/out.pdf")" "%PDF-"
# the page tree's /Count: a report this long takes more than a page
pages=$(grep -ao '/Count [0-9]*' "$TEST_TMP/out.pdf" |
	awk '$2 > n { n = $2 } END { print n + 0 }')
[ "$pages" -ge 2 ] || fail "the PDF has $pages pages"

# ---- long, uneven series with member activity (the record format's
# "members": per member read_bytes, write_bytes, busy a sample), written
# into the io runs with jq: thinned to at most 600 intervals a line (two
# vertices each), one member chart per variant, merging said in words
jq '(.runs[] | select(.workload.name == "io") | .series) |= (
    [range(1500)] as $i | {dropped: 0,
    dt: [$i[] | if . % 2 == 0 then 0.01 else 0.03 end],
    t: [$i[] | ((. + 1) / 2 | floor) * 0.04 +
        (if . % 2 == 0 then 0.01 else 0 end)],
    bytes_read: [$i[] | (. % 100) * 10000], bytes_written: [$i[] | 1000000],
    files: [$i[] | 0], ops: [$i[] | 10],
    members: [{name: "m0", read_bytes: [$i[] | 4096],
        write_bytes: [$i[] | 8192],
        busy: [$i[] | if . % 7 == 0 then null else (. % 10) / 10 end]},
      {name: "m1", read_bytes: [$i[] | 0], write_bytes: [$i[] | 8192],
        busy: [$i[] | 0.5]}]})' "$rec" >"$TEST_TMP/long.json" ||
	fail "jq: long series"
"$RAIDLAB" report --html -o "$out" "$TEST_TMP/long.json" 2>"$TEST_TMP/err" ||
	fail "report --html, long series: $(cat "$TEST_TMP/err")"
tidy -q -e "$out" >"$TEST_TMP/tidy.out" 2>&1 ||
	fail "tidy, long series: $(cat "$TEST_TMP/tidy.out")"
# every variant x workload whose runs carry members: the io runs above,
# and the small files runs' real ones
pairs=$(jq '[.runs[] | select((.series.members // []) | length > 0) |
	[.variant.name, .workload.name]] | unique | length' "$TEST_TMP/long.json")
[ "$pairs" -ge 2 ] || fail "long series: $pairs variant-workload pairs with members"
expect_eq "a member chart per variant and workload" "$(count members)" "$pairs"
python3 "$check" points "$out" series 1200 || fail "series not thinned"
python3 "$check" points "$out" members 1200 || fail "members not thinned"
grep -q 'samples are merged so that a line has at most 600 points' "$out" ||
	fail "the caption does not say the samples were merged"
grep -q '>m1</th>' "$out" || fail "no member table"
exit 0
