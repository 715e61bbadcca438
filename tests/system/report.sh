#!/bin/sh
# raidlab report, as a reader of the mail would check it, on a real run:
# a btrfs raid1 built on scratch loop devices beside a plain directory,
# small files, three interleaved repeats. The text report:
#  - is plain ASCII within 72 columns, with no tab or escape;
#  - says the question (the lab's description) and the host's kernel;
#  - has every command the record says ran, whole once its " \"
#    continuations are joined;
#  - has each variant's mean as `raidlab compare --json` gives it, and
#    the verdict's words beside it;
#  - ends with the lab text, which raidlab check reads back as the lab
#    the record ran.
# Markdown carries the same figures; a file that is not a record is
# refused naming it, and -o writes nothing then.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_root
need_cmd mkfs.btrfs jq python3

mkdir -p "$TEST_TMP/plain"
cat >"$TEST_TMP/lab.cfg" <<EOF
name = "share";
description = "Does btrfs raid1 on two scratch disks keep up with a plain directory for a few hundred small files?";
repeats = 3;
order = "interleaved";
results = "$TEST_TMP/results";
variants = (
  { name = "plain"; directory = "$TEST_TMP/plain"; },
  { name = "btrfs-raid1";
    scratch = { count = 2; size = "300M"; dir = "$TEST_TMP"; };
    array = { engine = "btrfs"; level = "raid1"; metadata_profile = "raid1";
              devices = [ "scratch:0", "scratch:1" ]; };
    fs = { type = "btrfs"; mount_options = "noatime"; }; }
);
workloads = (
  { name = "small"; type = "smallfiles"; count = 200; size = "4K"; dirs = 2; }
);
EOF
"$RAIDLAB" run "$TEST_TMP/lab.cfg" >"$TEST_TMP/run.out" 2>&1 ||
	fail "run: $(tail -5 "$TEST_TMP/run.out")"
rec=$(ls "$TEST_TMP"/results/share-*.json)
"$RAIDLAB" report "$rec" >"$TEST_TMP/report.txt" 2>"$TEST_TMP/report.err" ||
	fail "report: $(cat "$TEST_TMP/report.err")"
"$RAIDLAB" compare --json "$rec" >"$TEST_TMP/cmp.json" || fail "compare --json"

python3 - "$TEST_TMP/report.txt" "$TEST_TMP/cmp.json" "$rec" "$(uname -r)" <<'PYEOF' || fail "text report: see above"
import json, re, sys

text_path, cmp_path, rec_path, kernel = sys.argv[1:5]
raw = open(text_path, 'rb').read()
cmp = json.load(open(cmp_path))
rec = json.load(open(rec_path))
bad = []

def check(ok, what):
    if not ok:
        bad.append(what)

check(all(b < 128 for b in raw), "non-ASCII bytes")
check(b'\t' not in raw and b'\x1b' not in raw, "a tab or an escape")
text = raw.decode()
lines = text.split('\n')
for n, l in enumerate(lines, 1):
    check(len(l) <= 72, "line %d has %d columns: %r" % (n, len(l), l))
flat = ' '.join(' '.join(lines).split())
check(' '.join(rec['lab']['text'].split('description = "')[1].split('"')[0].split()) in flat,
      "the question")
check(kernel in text, "the kernel " + kernel)

# Commands: joined across their " \" continuations.
joined = re.sub(r' \\\n +', ' ', text)
# the first build that succeeded, as the report says (each round
# rebuilds, on whatever loop devices are free then)
first = [b for b in rec['builds'] if b.get('status') == 'ok'][0]
cmds = [st['command'] for st in first['steps'] if st.get('status') == 'ok']
check(len(rec['builds']) < 2 or 'Built %d times' % len(rec['builds']) in
      ' '.join(text.split()), "the report says the variant was rebuilt")
check(len(cmds) >= 4, "the build ran at least mkfs, mount: %r" % cmds)
for c in cmds:
    check(c in joined, "command %r" % c)

def fmt(v, unit):
    # compare_format_value(): two decimals under 100 and for seconds,
    # one under 10000, none above.
    if unit == 'seconds' or abs(v) < 100:
        return '%.2f' % v
    if abs(v) < 10000:
        return '%.1f' % v
    return '%.0f' % v

words = {'baseline': 'baseline', 'no_difference': 'no difference',
         'too_few': 'n<3', 'stopped': 'stopped'}
cells = 0
for t in cmp['tests']:
    for r in t['rows']:
        if r['n'] == 0:
            continue
        want = fmt(r['mean'], t['unit'])
        rows = [l for l in lines if l[4:].startswith(r['variant'] + ' ')]
        hit = [l for l in rows if (' ' + want + ' ') in l]
        check(hit, "%s %s: mean %s in %r" % (t['key'], r['variant'], want, rows))
        if hit:
            w = words.get(r['verdict'])
            if r['verdict'] in ('better', 'worse'):
                w = '%+.1f%%' % r['change']  # the test's change
            check(w is None or w in hit[0],
                  "%s %s: verdict %s (%r)" % (t['key'], r['variant'], w, hit[0]))
            cells += 1
check(cells >= 2, "two variants' figures")

# The lab text between the scissors, for raidlab check.
start = lines.index('-- 8< --')
end = lines.index('-- >8 --')
open(text_path + '.cfg', 'w').write('\n'.join(lines[start + 1:end]) + '\n')
open(text_path + '.orig.cfg', 'w').write(rec['lab']['text'])
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PYEOF

got=$("$RAIDLAB" check "$TEST_TMP/report.txt.cfg" 2>&1) ||
	fail "the report's lab does not check: $got"
want=$("$RAIDLAB" check "$TEST_TMP/report.txt.orig.cfg" 2>&1) ||
	fail "the record's lab does not check: $want"
expect_eq "the report's lab is the record's" "$got" "$want"

# Markdown: a table row per variant with its mean.
"$RAIDLAB" report --markdown "$rec" >"$TEST_TMP/report.md" || fail "markdown"
for v in plain btrfs-raid1; do
	# the interval's ends in % of the mean: both when they differ
	grep -Eq "^\| [*]? \| $v \| [0-9.]+ (±[0-9.]+|-[0-9.]+/[-+][0-9.]+)% \| 3 \|" \
		"$TEST_TMP/report.md" ||
		fail "markdown: no table row for $v"
done
grep -q '^```sh$' "$TEST_TMP/report.md" || fail "markdown: no command block"

# Bad input: named, non-zero, nothing written.
echo '{"format": "something else"}' >"$TEST_TMP/not.json"
if "$RAIDLAB" report -o "$TEST_TMP/out.txt" "$TEST_TMP/not.json" \
	2>"$TEST_TMP/bad.err"; then
	fail "a file that is not a record was reported"
fi
expect_match "bad input names the file" "$(cat "$TEST_TMP/bad.err")" "not.json"
[ ! -e "$TEST_TMP/out.txt" ] || fail "-o wrote a report from bad input"
"$RAIDLAB" report -o "$TEST_TMP/out.txt" "$rec" || fail "report -o"
cmp -s "$TEST_TMP/out.txt" "$TEST_TMP/report.txt" ||
	fail "report -o differs from standard output"
echo "report: text, markdown and the lab text check out"
