#!/bin/sh
# raidlab report --html on a fleet: the records of three hosts made from
# the stored A/A record as tests/system/compare-fleet.sh makes them
# (tests/data/fleet-host.jq), v2 12% faster on one host and the same on
# two. The page passes tidy without a warning; a section over the hosts
# comes right after the answer and before the first other table, and the
# contents list it. Headless Chromium reads the page back (--dump-dom):
# in what the browser built, every combined answer of compare --json's
# "fleet" is in the section's list, and each test and variant has a row
# group with each host's n, change and interval (formatted from the JSON
# by report-html-check.py) and verdict, and the combined row with the
# change over the hosts, its interval, its verdict and how the hosts
# agree (I², their range), the answer's own words. The section alone
# (the rest hidden by a stylesheet added to a copy) renders with the
# verdicts' colours. Records of one host have no such section. No root
# needed; skipped without tidy or chromium.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq python3 tidy timeout
chromium=$(command -v chromium || command -v chromium-browser) ||
	skip "needs chromium"
check=${top_srcdir:-.}/tests/system/report-html-check.py

export LC_ALL=C.UTF-8 TZ=UTC
src="$TESTDATA/aa-ext4.json"
# host NAME SWAP_A SWAP_B FACTOR OUT
host() {
	jq --arg host "$1" --arg a "$2" --arg b "$3" --argjson quiet 0.1 \
	    --argjson f "$4" -f "$TESTDATA/fleet-host.jq" "$src" >"$5" ||
		fail "fixture $5"
}
cd "$TEST_TMP" || fail "cd"
host h1 v1 v1 1.12 h1.json
host h2 v1 v3 1 h2.json
host h3 v2 v3 1 h3.json
out=$TEST_TMP/fleet.html
"$RAIDLAB" report --html -b v1 -o "$out" h1.json h2.json h3.json \
	2>err || fail "report --html: $(cat err)"
"$RAIDLAB" compare --json -b v1 h1.json h2.json h3.json >cmp.json ||
	fail "compare --json"
expect_eq "the fleet has items" \
	"$(jq '.fleet.tests | length > 0' cmp.json)" true

# ---- valid HTML5, self-contained, the section where it belongs
tidy -q -e "$out" >tidy.out 2>&1 || fail "tidy: $(cat tidy.out)"
for bad in '<script' 'http:' 'https:' '<link' '<img'; do
	! grep -qiF -- "$bad" "$out" || fail "the page has '$bad'"
done
grep -qF '<li><a href="#fleet">Over the 3 hosts</a></li>' "$out" ||
	fail "the contents do not list the fleet section"
python3 - "$out" <<'EOF' || fail "the fleet section is not after the answer"
import sys
page = open(sys.argv[1], encoding="utf-8").read()
answer = page.find('<section class="answer">')
fleet = page.find('<section class="fleet">')
summary = page.find('<h2 id="summary">')
if not 0 <= answer < fleet < summary:
    sys.exit("answer at %d, fleet at %d, summary at %d" %
             (answer, fleet, summary))
EOF

# ---- what a browser makes of it
# browser ARGS...: chromium headless, private profile, killed if it hangs.
browser() {
	HOME=$TEST_TMP timeout -k 10 120 "$chromium" --headless --no-sandbox \
		--disable-gpu --hide-scrollbars --no-first-run \
		--disable-extensions --user-data-dir="$TEST_TMP/chromium" "$@" \
		2>chromium.err || fail "chromium: $(tail -5 chromium.err)"
}
browser --dump-dom "file://$out" >dom.html
[ -s dom.html ] || fail "chromium gave no DOM"
python3 "$check" fleet cmp.json dom.html >check.out 2>&1 ||
	fail "$(cat check.out)"
# the words the fleet is for, as the browser holds them
t='.fleet.tests[] | select(.key == "files_4000" and .variant == "v2")'
expect_eq "files_4000: hosts' verdicts" \
	"$(jq -c "[$t | .hosts[].verdict]" cmp.json)" \
	'["better","same","same"]'
grep -q "faster on 1 of 3 hosts, the same on 2; the hosts disagree: I² [0-9]*%, their changes" \
	dom.html || fail "no 'faster on 1 of 3 hosts' in the browser's page"

# the section alone, rendered: the verdicts' colours (better, worse, the
# same) are drawn
sed 's|</head>|<style>main > :not(section.fleet){display:none}</style>\n</head>|' \
	"$out" >only.html
browser --window-size=1366,5000 --screenshot="$TEST_TMP/fleet.png" \
	"file://$TEST_TMP/only.html" >/dev/null
[ -s fleet.png ] || fail "chromium wrote no screenshot"
python3 "$check" colours fleet.png 500 92c5de,f4a582,e4e4e4 ||
	fail "the fleet section did not render its verdicts"

# ---- one host: no fleet section
"$RAIDLAB" report --html -o one.html "$src" 2>err || fail "report: $(cat err)"
! grep -q 'class="fleet"' one.html || fail "one host has a fleet section"
exit 0
