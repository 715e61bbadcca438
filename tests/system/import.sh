#!/bin/sh
# raidlab import, checked against the peers' own output read here
# independently (python3, not raidlab's parsers):
#  - seed 001's four bonnie++ 1.01b tables, pasted from the mail as they
#    are: every figure and %CP of every table, +++++ as too fast;
#  - seed 003's three compilebench summaries (quoted, lines wrapped):
#    every operation's mean, user and sys seconds;
#  - fio JSON captured from fio 3.33 (two jobs, group_reporting,
#    client/server with two hosts): each job's MB/s (10^6 bytes);
#  - a real bonnie++ run's CSV line, when bonnie++ is installed;
# and that compare and report take the imported records, and that bad
# input is refused naming the file, with nothing written.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd python3 jq

data=${top_srcdir:-.}/tests/data
check=$TEST_TMP/check.py
cat >"$check" <<'PYEOF'
import json, re, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def close(a, b, what):
    if a is None or b is None or abs(a - b) > 1e-6 * max(1, abs(a)):
        fail("%s: record %r, source %r" % (what, b, a))

def mail_lines(path):
    # the mail's text without quote marks; wrapped lines joined
    out = []
    for l in open(path):
        out.append(re.sub(r'^[>|\s]+', '', l.rstrip('\n')))
    return ' '.join(out)

def runs(rec):
    return [r for r in json.load(open(rec))['runs'] if 'tests' in r]

def bonnie(mail, rec):
    text = mail_lines(mail)
    io = re.findall(r'other-fs 2G ((?:\S+ ){11}\S+)', text)
    files = re.findall(r'files /sec %CP (?:/sec %CP ){5}16 ((?:\S+ ){11}\S+)',
                       text)
    if len(io) != 4 or len(files) != 4:
        fail("the mail has %d and %d tables?" % (len(io), len(files)))
    keys = ['seq_output_char', 'seq_output_block', 'seq_output_rewrite',
            'seq_input_char', 'seq_input_block', 'random_seeks',
            'seq_create', 'seq_read', 'seq_delete', 'random_create',
            'random_read', 'random_delete']
    rr = runs(rec)
    if len(rr) != 4:
        fail("%d runs, want 4" % len(rr))
    n = 0
    for t, r in enumerate(rr):
        f = (io[t] + ' ' + files[t]).split()
        tests = {x['key']: x for x in r['tests']}
        for i, k in enumerate(keys):
            v, cp = f[2 * i], f[2 * i + 1]
            x = tests[k]
            what = "table %d %s" % (t + 1, k)
            if v == '+++++':
                if not x['too_fast']:
                    fail(what + ": +++++ not too fast")
            else:
                close(float(v), x['value'], what)
                close(float(cp), round(x['cpu_percent']), what + " %CP")
            n += 1
    print("bonnie: %d figures equal to the mail's" % n)

def compilebench(mail, rec):
    text = mail_lines(mail)
    ops = re.findall(r'((?:intial create|create|patch|compile|clean|'
                     r'read tree|read compiled tree|delete tree|'
                     r'delete compiled tree|stat tree|stat compiled tree))'
                     r' total runs (\d+) avg ([\d.]+) (MB/s|seconds) '
                     r'\(user ([\d.]+)s sys ([\d.]+)s\)', text)
    rr = runs(rec)
    got = [t for r in rr for t in r['tests']]
    if len(ops) != 33 or len(got) != 33:
        fail("%d operations in the mail, %d in the record" % (len(ops), len(got)))
    for (name, nruns, avg, unit, user, sys_), t in zip(ops, got):
        what = "%s %s" % (name, t['key'])
        close(float(avg), t['value'], what)
        close(float(user), t['user'], what + " user")
        close(float(sys_), t['sys'], what + " sys")
        if ("(%s runs" % nruns) not in t['label']:
            fail(what + ": runs %s not in %r" % (nruns, t['label']))
    print("compilebench: 33 operations equal to the mail's")

def fio(src, rec):
    d = json.load(open(src))
    jobs = []
    if 'client_stats' in d:
        for j in d['client_stats']:
            if j['jobname'] != 'All clients':
                jobs.append((j['hostname'] + '/' + j['jobname'], j))
    else:
        jobs = [(j['jobname'], j) for j in d['jobs']]
    rr = {r['variant']['name']: r for r in runs(rec)}
    if len(rr) != len(jobs):
        fail("%d jobs, %d rows" % (len(jobs), len(rr)))
    for name, j in jobs:
        want = (j['read']['bw_bytes'] + j['write']['bw_bytes']) / 1e6
        got = sum(t['value'] for t in rr[name]['tests'] if t['unit'] == 'mbps')
        close(want, got, "%s %s MB/s" % (src, name))
    print("fio: %d jobs of %s equal" % (len(jobs), src))

def bonnie_csv(csv, rec):
    f = open(csv).read().strip().split('\n')[-1].split(',')
    # bonnie++ 1.98 CSV: figures and %CP from field 9 (putc) on; the
    # file tests from field 26 (seq_create), after num_files, max_size,
    # min_size, num_dirs and file_chunk_size
    idx = {'seq_output_char': 9, 'seq_output_block': 11,
           'seq_output_rewrite': 13, 'seq_input_char': 15,
           'seq_input_block': 17, 'random_seeks': 19,
           'seq_create': 26, 'seq_read': 28, 'seq_delete': 30,
           'random_create': 32, 'random_read': 34, 'random_delete': 36}
    tests = {x['key']: x for x in runs(rec)[0]['tests']}
    for k, i in idx.items():
        v = f[i]
        if v == '':
            continue
        if v.startswith('+'):
            if not tests[k]['too_fast']:
                fail(k + ": +++++ not too fast")
            continue
        close(float(v), tests[k]['value'], "bonnie++ csv " + k)
    print("bonnie++ csv: equal")

globals()[sys.argv[1]](*sys.argv[2:])
PYEOF

out=$TEST_TMP/out
mkdir -p "$out"
"$RAIDLAB" import -o "$out/s1.json" "$data/seed-001-bonnie.txt" >/dev/null ||
	fail "import seed 001"
python3 "$check" bonnie "$data/seed-001-bonnie.txt" "$out/s1.json" ||
	fail "seed 001"
expect_eq "imported from" "$(jq -r .imported.from "$out/s1.json")" \
	"bonnie++ 1.01b text"
"$RAIDLAB" import -n ext4,reiser3,btrfs -o "$out/s3.json" \
	"$data/seed-003-compilebench.txt" >/dev/null || fail "import seed 003"
python3 "$check" compilebench "$data/seed-003-compilebench.txt" \
	"$out/s3.json" || fail "seed 003"
expect_eq "seed 003 rows" \
	"$(jq -r '[.runs[].variant.name] | join(",")' "$out/s3.json")" \
	ext4,reiser3,btrfs
for f in fio-two-jobs fio-group fio-client-server; do
	"$RAIDLAB" import -o "$out/$f.json" "$data/$f.json" >/dev/null ||
		fail "import $f"
	python3 "$check" fio "$data/$f.json" "$out/$f.json" || fail "$f"
done

# The same table as a bonnie++ 1.0x CSV line reads the same figures.
echo 'other-fs,2G,5970,93,8058,6,2981,12,5774,80,8553,63,109.1,2,16,912,100,+++++,+++,+++++,+++,925,99,+++++,+++,5245,99' \
	>"$TEST_TMP/v10.csv"
"$RAIDLAB" import -o "$out/v10.json" "$TEST_TMP/v10.csv" >/dev/null ||
	fail "import 1.0x csv"
figs='[.runs[0].tests[] | [.key, .value, .too_fast, (.cpu_percent | round)]]'
expect_eq "1.0x CSV = the mail's first table" \
	"$(jq -c "$figs" "$out/v10.json")" "$(jq -c "$figs" "$out/s1.json")"
printf 'other-fs,2G,59x0,93,8058,6,2981,12,5774,80,8553,63,109.1,2,16,912,100,+++++,+++,+++++,+++,925,99,+++++,+++,5245,99\n' \
	>"$TEST_TMP/badcsv.csv"
"$RAIDLAB" import -o "$out/badcsv.json" "$TEST_TMP/badcsv.csv" 2>"$TEST_TMP/err"
expect_eq "bad CSV: exit status" "$?" 2
expect_match "bad CSV names file and line" "$(cat "$TEST_TMP/err")" \
	'badcsv\.csv:1:'
[ ! -e "$out/badcsv.json" ] || fail "a record was written from a bad CSV"

# compare and report take them: the four 2001 tables in one comparison,
# the mail's +++++ shown as such.
"$RAIDLAB" compare "$out/s1.json" >"$TEST_TMP/cmp.txt" || fail "compare"
expect_match "compare: the seed's rows" "$(cat "$TEST_TMP/cmp.txt")" \
	'other-fs-4 +132525'
"$RAIDLAB" report "$out/s1.json" "$out/s3.json" >"$TEST_TMP/rep.txt" ||
	fail "report"
expect_match "report: imported" "$(cat "$TEST_TMP/rep.txt")" \
	'Imported: bonnie\+\+ 1\.01b text'

# A real bonnie++ run's CSV line.
if command -v bonnie++ >/dev/null 2>&1; then
	mkdir -p "$TEST_TMP/b"
	bonnie++ -d "$TEST_TMP/b" -s 32M -r 16M -n 1 -u root -q \
		>"$TEST_TMP/b.csv" 2>/dev/null || fail "bonnie++"
	"$RAIDLAB" import -o "$out/b.json" "$TEST_TMP/b.csv" >/dev/null ||
		fail "import bonnie++ csv"
	python3 "$check" bonnie_csv "$TEST_TMP/b.csv" "$out/b.json" ||
		fail "bonnie++ csv"
fi

# Bad input: named, status 2, nothing written.
printf 'Version 1.01b ------Sequential Output------\nother-fs 2G 59x0 93\n' \
	>"$TEST_TMP/bad.txt"
"$RAIDLAB" import -o "$out/bad.json" "$TEST_TMP/bad.txt" 2>"$TEST_TMP/err"
expect_eq "bad input: exit status" "$?" 2
expect_match "bad input names the file" "$(cat "$TEST_TMP/err")" 'bad\.txt'
[ ! -e "$out/bad.json" ] || fail "a record was written from bad input"
echo "import: every figure equal to its source"
