#!/bin/sh
# fio's json+ histogram imported as it is (raidlab(1), IMPORT):
#  - tests/data/fio-jsonplus.json (fio 3.33 --output-format=json+, a
#    randread job and a randrw one): every direction's histogram equals
#    the one built here from clat_ns.bins by the bucket layout of
#    raidlab(1) (each power of two in 16), its count is fio's total_ios
#    and clat N, and the runs' notes say the bins were used;
#  - plain JSON (no bins) still rebuilds from the percentiles, and says so;
#  - a real fio run with --output-format=json+ (when fio is installed):
#    the p50, p99 and p99.9 that raidlab compare --latency gives of the
#    import lie within the histogram's 1/16 of fio's own percentiles;
#  - damaged bins are refused, naming the file and the key's path.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd python3 jq

data=${top_srcdir:-.}/tests/data
out=$TEST_TMP/out
mkdir -p "$out"
check=$TEST_TMP/check.py
cat >"$check" <<'PYEOF'
import json, sys

def bucket(ns):
    # under 16 ns exact; above, the power of two 2^p (p >= 4) split in
    # 16 equal buckets, numbered on from 16 (p - 3) (raidlab(1))
    if ns < 16:
        return ns
    p = ns.bit_length() - 1
    return 16 * (p - 3) + (ns - (1 << p)) // (1 << (p - 4))

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def bins(src, rec):
    d = json.load(open(src))
    runs = {r['variant']['name']: r for r in json.load(open(rec))['runs']}
    n = 0
    for j in d['jobs']:
        run = runs[j['jobname']]
        t = run['tests'][0]
        for dn in ('read', 'write'):
            clat = j[dn]['clat_ns']
            want = {}
            for k, c in clat.get('bins', {}).items():
                want[bucket(int(k))] = want.get(bucket(int(k)), 0) + c
            want = {b: c for b, c in want.items() if c}
            h = t.get('latency', {}).get(dn)
            got = {b: c for b, c in h['buckets']} if h else {}
            what = "%s %s" % (j['jobname'], dn)
            if got != want:
                fail(what + ": buckets %r, want %r" % (got, want))
            total = h['n'] if h else 0
            if total != j[dn]['total_ios'] or total != clat['N']:
                fail(what + ": n %d, total_ios %d, N %d" %
                     (total, j[dn]['total_ios'], clat['N']))
            if h and (h['min_ns'] != clat['min'] or h['max_ns'] != clat['max']):
                fail(what + ": min/max")
            n += total
        if not any('json+ clat_ns.bins' in x for x in run.get('notes', [])):
            fail(j['jobname'] + ": notes %r" % run.get('notes'))
    print("bins: %d I/Os in the buckets fio's bins give" % n)

def pcts(src, cmp):
    # raidlab's percentile of each direction against fio's own: within
    # the 1/16 of a bucket
    d = json.load(open(src))
    c = json.load(open(cmp))
    said = 0
    for j in d['jobs']:
        for dn in ('read', 'write'):
            clat = j[dn]['clat_ns']
            if clat['N'] == 0:
                continue
            for q, key in ((0.5, '50.000000'), (0.99, '99.000000'),
                           (0.999, '99.900000')):
                tests = [t for t in c['tests'] if t.get('quantile') == q
                         and t.get('op') == dn]
                rows = [r for t in tests for r in t['rows']
                        if r['variant'] == j['jobname'] and r['n'] > 0]
                if len(rows) != 1:
                    continue  # another direction is the job's dominant
                got = rows[0]['mean'] * 1000
                want = clat['percentile'][key]
                if abs(got - want) > want / 16:
                    fail("%s %s p%g: raidlab %g ns, fio %d ns" %
                         (j['jobname'], dn, q * 100, got, want))
                print("%s %s p%g: raidlab %.0f ns, fio %d ns" %
                      (j['jobname'], dn, q * 100, got, want))
                said += 1
    if said < 3:
        fail("only %d percentiles compared" % said)

globals()[sys.argv[1]](*sys.argv[2:])
PYEOF

# ---- the captured json+: the histogram is fio's bins
"$RAIDLAB" import -o "$out/plus.json" "$data/fio-jsonplus.json" >/dev/null ||
	fail "import json+"
python3 "$check" bins "$data/fio-jsonplus.json" "$out/plus.json" ||
	fail "json+ bins"
expect_eq "json+: nothing missing of the latency" \
	"$(jq -r '.imported.missing | map(select(test("latency"))) | length' \
	"$out/plus.json")" 0

# ---- plain JSON: rebuilt from the percentiles, and said
"$RAIDLAB" import -o "$out/plain.json" "$data/fio-two-jobs.json" >/dev/null ||
	fail "import plain json"
expect_match "plain: the note" "$(jq -r '.runs[0].notes[]' "$out/plain.json")" \
	"^latency: rebuilt from fio's percentiles"
expect_match "plain: missing" "$(jq -r '.imported.missing[]' "$out/plain.json")" \
	'^latency distribution \(rebuilt from percentiles\)$'

# ---- a real fio run, json+
if command -v fio >/dev/null 2>&1; then
	mkdir -p "$TEST_TMP/fio"
	cat >"$TEST_TMP/jobs.fio" <<EOF
[global]
directory=$TEST_TMP/fio
size=8M
bs=4k
ioengine=psync

[rr]
rw=randread

[rw]
rw=randrw
rwmixread=70
EOF
	fio --output-format=json+ --output="$TEST_TMP/fio.json" \
		"$TEST_TMP/jobs.fio" >/dev/null 2>"$TEST_TMP/fio.err" ||
		fail "fio: $(cat "$TEST_TMP/fio.err")"
	"$RAIDLAB" import -o "$out/real.json" "$TEST_TMP/fio.json" >/dev/null ||
		fail "import the real json+"
	python3 "$check" bins "$TEST_TMP/fio.json" "$out/real.json" ||
		fail "real json+ bins"
	"$RAIDLAB" compare --latency --json "$out/real.json" \
		>"$TEST_TMP/cmp.json" || fail "compare --latency"
	python3 "$check" pcts "$TEST_TMP/fio.json" "$TEST_TMP/cmp.json" ||
		fail "percentiles"
else
	echo "fio is not installed: no real run"
fi

# ---- damaged bins: refused, named, nothing written
bad() { # NAME PYTHON-EXPR-ON-j REGEX
	python3 - "$data/fio-jsonplus.json" "$TEST_TMP/$1.json" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
j = d['jobs'][0]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], 'w'))
EOF
	"$RAIDLAB" import -o "$out/$1.json" "$TEST_TMP/$1.json" \
		2>"$TEST_TMP/err" >/dev/null
	expect_eq "$1: exit status" "$?" 2
	expect_match "$1: the message" "$(cat "$TEST_TMP/err")" "$3"
	[ ! -e "$out/$1.json" ] || fail "$1: a record was written"
}
bad key "j['read']['clat_ns']['bins']['12x'] = 1" \
	"key\\.json: jobs\\[0\\]\\.read\\.clat_ns\\.bins: job 1 \\(rr\\): bin '12x' is not a latency in nanoseconds"
bad negative "j['read']['clat_ns']['bins']['1000'] = -1" \
	'jobs\[0\]\.read\.clat_ns\.bins: job 1 \(rr\): the count of bin 1000 is not a whole number of 0 or more'
bad sum "j['read']['clat_ns']['bins']['99999999999'] = 7" \
	'jobs\[0\]\.read\.clat_ns\.bins: job 1 \(rr\): the bins count 1031 I/Os, N is 1024'
echo "import-fio-bins: fio's histogram, as fio counted it"
exit 0
