#!/bin/sh
# raidlab import's memory is bounded by its input's size (raidlab(1),
# IMPORT): at most 64 MB plus 500 times the input. A ~9 MB fio 3.33 JSON
# (the jobs of tests/data/fio-two-jobs.json again and again) and a
# ~1 MB bonnie++ 1.98 CSV (a line per machine, every latency given)
# are imported, and must fit:
#  - a plain build: under `prlimit --as` (address space) at the bound;
#  - an ASan build reserves terabytes of address space: there the peak
#    RSS (the kernel's maxrss of the child) is checked against twice the
#    bound (redzones and shadow), with ASan's quarantine kept small;
#  - a TSan build: skipped (its shadow is several times the heap); the
#    plain and ASan builds of CI check it.
# fio JSON is checked at 64 MB + 16x as well: it needs about 8x.
# Before histograms were held sparse, the CSV needed about 3 GB.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd python3 prlimit

data=${top_srcdir:-.}/tests/data
if grep -q __tsan_init "$RAIDLAB"; then
	skip "a ThreadSanitizer build: memory bounds are checked in the plain and ASan builds"
fi
asan=
grep -q __asan_init "$RAIDLAB" && asan=yes

python3 - "$data" "$TEST_TMP" <<'PYEOF' || fail "cannot generate the inputs"
import copy, json, sys
data, out = sys.argv[1], sys.argv[2]
fio = json.load(open(data + '/fio-two-jobs.json'))
jobs, big = fio['jobs'], copy.deepcopy(fio)
big['jobs'] = []
i = 0
while len(json.dumps(big, indent=2)) < 9 * 10**6:
    for _ in range(100):
        j = copy.deepcopy(jobs[i % len(jobs)])
        j['jobname'] = 'job%d' % i
        big['jobs'].append(j)
        i += 1
json.dump(big, open(out + '/big-fio.json', 'w'), indent=2)
with open(out + '/big-bonnie.csv', 'w') as f:
    n = i = 0
    while n < 10**6:
        l = ('1.98,2.00a,host%d,1,1733216400,2G,,8192,5,1200,98,345678,'
             '65,123456,45,2400,99,456789,56,2345.6,78,16,,,,,'
             '+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,'
             '8912us,1201ms,30519us,6800us,2950us,102ms,'
             '314us,501us,1200us,390us,23us,812us\n' % i)
        f.write(l)
        n += len(l)
        i += 1
PYEOF

# The child's peak RSS in KiB (ru_maxrss), its exit status on stderr's
# last line when it fails.
maxrss() {
	python3 -c '
import os, resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$@"
}

# check NAME INPUT TIMES RUNS: import within 64 MB + TIMES x INPUT.
check() {
	size=$(stat -c %s "$2")
	bound=$((64 * 1048576 + $3 * size))
	rec=$TEST_TMP/$1.json
	rm -f "$rec"
	if [ -n "$asan" ]; then
		kib=$(ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8 \
			maxrss "$RAIDLAB" import -o "$rec" "$2" 2>"$TEST_TMP/err") ||
			fail "$1: import failed: $(tail -n 3 "$TEST_TMP/err")"
		[ $((kib * 1024)) -le $((2 * bound)) ] ||
			fail "$1: $size bytes took $((kib / 1024)) MB RSS under ASan, over twice the bound $((bound >> 20)) MB"
		echo "$1: $size bytes, $((kib / 1024)) MB RSS under ASan (bound x2: $((bound >> 19)) MB)"
	else
		prlimit --as="$bound" "$RAIDLAB" import -o "$rec" "$2" \
			>/dev/null 2>"$TEST_TMP/err" ||
			fail "$1: $size bytes do not import within $((bound >> 20)) MB of address space: $(tail -n 3 "$TEST_TMP/err")"
		echo "$1: $size bytes imported within $((bound >> 20)) MB of address space"
	fi
	got=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"]))' "$rec")
	expect_eq "$1: runs recorded" "$got" "$4"
}

fio_jobs=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["jobs"]))' "$TEST_TMP/big-fio.json")
csv_lines=$(wc -l <"$TEST_TMP/big-bonnie.csv")
check fio "$TEST_TMP/big-fio.json" 16 "$fio_jobs"
check bonnie "$TEST_TMP/big-bonnie.csv" 500 "$csv_lines"
