#!/bin/sh
# Tail latency compared (raidlab(1), VERDICTS): a fio-style random write
# job on two directory variants, tmpfs and an ext4 loop device mounted
# "sync" (every write waits for the device: a slower target, the delay
# injected by the mount, not by the machine's speed), 4 interleaved
# repeats of 2048 writes each.
#  - compare --latency --json calls the sync variant's p99 write latency
#    worse, its interval of the change above 0;
#  - p99.9 rests on 2 writes beyond it in a round (it needs 10): marked
#    few-samples and not judged, on both sides;
#  - each cell's figures are the rounds' own p99, recomputed here from the
#    record's histograms by the bucket layout of raidlab(1); the mean and
#    the change follow from them;
#  - without --latency the table has no latency columns; the text report
#    has a Tail latency section that says the same.
# Root for the loop device and the mounts.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_root
need_cmd mkfs.ext4 python3 jq

mkdir -p "$TEST_TMP/tmpfs"
mount -t tmpfs -o size=64m raidlab-test "$TEST_TMP/tmpfs" || fail "mount tmpfs"
TEST_MOUNTS="$TEST_TMP/tmpfs$NL$TEST_MOUNTS"
new_loop dev 256M
mkfs.ext4 -q "$dev" || fail "mkfs.ext4 $dev"
do_mount "$dev" "$TEST_TMP/sync" sync
cat >"$TEST_TMP/lat.cfg" <<EOF
name = "lat";
repeats = 4;
order = "interleaved";
cache = "keep";
results = "$TEST_TMP/results";
variants = (
  { name = "tmpfs"; directory = "$TEST_TMP/tmpfs/d"; },
  { name = "sync"; directory = "$TEST_TMP/sync/d"; }
);
workloads = (
  { name = "io"; type = "fio"; rw = "randwrite"; size = "8M"; bs = "4K"; }
);
EOF
"$RAIDLAB" run "$TEST_TMP/lat.cfg" >/dev/null 2>"$TEST_TMP/run.err" ||
	fail "run: $(cat "$TEST_TMP/run.err")"
rec=$(ls "$TEST_TMP"/results/lat-*.json)
"$RAIDLAB" compare --latency --json "$rec" >"$TEST_TMP/cmp.json" ||
	fail "compare --latency --json"

# q Q FIELD [VARIANT]: FIELD of VARIANT's row (default sync) in the
# latency column of quantile Q
q() {
	jq -r --argjson q "$1" --arg v "${3:-sync}" \
		".tests[] | select(.quantile == \$q) | .rows[] |
		select(.variant == \$v) | $2" "$TEST_TMP/cmp.json"
}
expect_eq "p99: the operation" \
	"$(jq -r '.tests[] | select(.quantile == 0.99) | .op' "$TEST_TMP/cmp.json")" \
	write
expect_eq "p99: tmpfs is the baseline" "$(q 0.99 .verdict tmpfs)" baseline
expect_eq "p99: the sync mount is worse" "$(q 0.99 .verdict)" worse
# (Welch's test gives no interval when the baseline is too noisy for a
# ratio; where there is one, it lies above 0)
expect_eq "p99: the interval of the change is above 0" \
	"$(q 0.99 '.pct_lo == null or .pct_lo > 0')" true
expect_eq "p99: 2048 writes a round" "$(q 0.99 .lat_ops)" 2048
for v in tmpfs sync; do
	expect_eq "p99.9 $v: few samples" \
		"$(q 0.999 '.marks | index("few-samples") != null' $v)" true
done
expect_eq "p99.9: not judged" "$(q 0.999 .verdict)" none
expect_match "p99.9: the reason" "$(q 0.999 .marks_text)" \
	'p99\.9 rests on 2048 operations in a round: it needs 10000 \(10 beyond it\), so it is not judged'
[ "$(q 0.5 .verdict)" != none ] || fail "p50 was not judged"

# ---- the figures: each round's own p99, from the record's buckets
python3 - "$rec" "$TEST_TMP/cmp.json" <<'EOF' || fail "the rounds' p99"
import json, math, sys

def bucket_max(i):
    # under 16 ns exact; above, each power of two 2^p in 16 buckets
    # numbered on from 16 (p - 3) (raidlab(1)): the bucket's last value
    if i < 16:
        return i
    p, sub = i // 16 + 3, i % 16
    w = 1 << (p - 4)
    return (1 << p) + (sub + 1) * w - 1

def quantile(h, q):
    rank = max(1, math.ceil(q * h['n'] - 1e-9))
    seen = 0
    for i, c in sorted(h['buckets']):
        seen += c
        if seen >= rank:
            return min(max(bucket_max(i), h['min_ns']), h['max_ns'])

rec = json.load(open(sys.argv[1]))
cmp = json.load(open(sys.argv[2]))
test = [t for t in cmp['tests'] if t.get('quantile') == 0.99][0]
means = {}
for row in test['rows']:
    v = [quantile(r['tests'][0]['latency']['write'], 0.99) / 1e3
         for r in rec['runs'] if r['variant']['name'] == row['variant']
         and r.get('status') == 'ok']
    if len(v) != row['n'] or len(v) != 4:
        sys.exit("%s: %d rounds, n = %d" % (row['variant'], len(v), row['n']))
    m = sum(v) / len(v)
    if abs(m - row['mean']) > 1e-9 * m:
        sys.exit("%s: mean of the rounds' p99 %r, compare %r" %
                 (row['variant'], m, row['mean']))
    means[row['variant']] = m
    print("%s: p99 of each round %s us" %
          (row['variant'], ", ".join("%.1f" % x for x in v)))
pct = (means['sync'] / means['tmpfs'] - 1) * 100
got = [r for r in test['rows'] if r['variant'] == 'sync'][0]['pct']
if abs(pct - got) > 1e-6 * abs(pct):
    sys.exit("change %r, compare %r" % (pct, got))
EOF

# ---- the table: latency only when asked for; the report says it too
text=$("$RAIDLAB" compare "$rec") || fail "compare"
! printf '%s\n' "$text" | grep -q 'latency' ||
	fail "compare without --latency shows latency"
text=$("$RAIDLAB" compare --latency "$rec") || fail "compare --latency"
expect_match "compare --latency: the p99 block" "$text" \
	'^io: randwrite[^,]*, p99 write latency \((µs|us), lower is better\)$'
expect_match "compare --latency: few samples" "$text" \
	'^  ! sync: .*p99\.9 rests on 2048 operations'
"$RAIDLAB" report "$rec" >"$TEST_TMP/rep.txt" || fail "report"
sed -n '/^Tail latency$/,$p' "$TEST_TMP/rep.txt" >"$TEST_TMP/tail.txt"
expect_match "report: the section" "$(cat "$TEST_TMP/tail.txt")" \
	'^io: randwrite[^,]*, write latency$'
expect_match "report: sync's row" "$(cat "$TEST_TMP/tail.txt")" \
	'^  sync +[0-9.]+ (us|ms|s) +[0-9.]+ (us|ms|s) +[0-9.]+ (us|ms|s)$'
expect_match "report: p99's answer" \
	"$(tr '\n' ' ' <"$TEST_TMP/tail.txt" | tr -s ' ')" \
	'- p99: sync: [^!]*tmpfs'
# the Markdown and HTML reports: the same section, sync's p99 as compare
# --json has it, written in the unit that suits
p99=$(q 0.99 .mean | awk '{ v = $1
	if (v >= 1e6) printf "%.3g s", v / 1e6
	else if (v >= 1e3) printf "%.3g ms", v / 1e3
	else printf "%.3g µs", v }')
"$RAIDLAB" report -m "$rec" >"$TEST_TMP/rep.md" || fail "report -m"
sed -n '/^## Tail latency$/,/^## /p' "$TEST_TMP/rep.md" >"$TEST_TMP/tail.md"
grep -q "^| sync | .* | $p99 (.*) | .* |\$" "$TEST_TMP/tail.md" ||
	fail "report -m: no sync row with p99 $p99: $(cat "$TEST_TMP/tail.md")"
"$RAIDLAB" report --html -o "$TEST_TMP/rep.html" "$rec" || fail "report --html"
grep -q '<h2 id="latency">Tail latency</h2>' "$TEST_TMP/rep.html" ||
	fail "report --html: no Tail latency section"
grep -q "<th scope=\"row\">sync</th>.*<td class=\"num\">$p99<br><small>" \
	"$TEST_TMP/rep.html" || fail "report --html: no sync row with p99 $p99"
echo "latency: the slower target's p99 is called worse"
exit 0
