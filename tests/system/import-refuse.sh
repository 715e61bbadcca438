#!/bin/sh
# raidlab import refuses impossible values (issue 19, item 9): each input
# below exits 2 with a message naming the file, the line (for text) or
# the job and key path (for JSON), and the field; no record is written.
#  - bonnie++ CSV: a latency of 1e11 s (2^64 ns and over: converting it
#    was undefined behaviour, UBSan aborted) and a size that wraps
#    around 2^64 bytes (it was recorded as "0");
#  - fio JSON: negative bandwidth, zero and negative job_runtime,
#    negative CPU, negative io_bytes, a job that did no I/O;
#  - an input past its format's cap (4 MB of bonnie++ CSV).
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq

data=${top_srcdir:-.}/tests/data
out=$TEST_TMP/out
mkdir -p "$out"

# refuse NAME INPUT REGEX: exit 2, the message matches, nothing written.
refuse() {
	"$RAIDLAB" import -o "$out/$1.json" "$2" >/dev/null 2>"$TEST_TMP/err"
	rc=$?
	msg=$(cat "$TEST_TMP/err")
	expect_eq "$1: exit status (message: $msg)" "$rc" 2
	expect_match "$1: message" "$msg" "$3"
	[ ! -e "$out/$1.json" ] || fail "$1: a record was written"
	echo "$1: refused: $msg"
}

csv198() { # the latency of seq_output_block, then the size
	printf '1.98,2.00a,host1,1,1733216400,%s,,8192,5,1200,98,345678,65,123456,45,2400,99,456789,56,2345.6,78,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,8912us,%s,30519us,6800us,2950us,102ms,314us,501us,1200us,390us,23us,812us\n' \
		"$2" "$1"
}

# The good line imports: what follows differs from it in one field.
csv198 1201ms 2G >"$TEST_TMP/good.csv"
"$RAIDLAB" import -o "$out/good.json" "$TEST_TMP/good.csv" >/dev/null ||
	fail "the good CSV line does not import"

{ echo 'name,file_size'; csv198 1e11s 2G; } >"$TEST_TMP/lat.csv"
refuse latency "$TEST_TMP/lat.csv" \
	"lat\.csv:2: put_block: .*latency out of range: '1e11s'"
# 2^44 MiB is 2^64 bytes: it wrapped to 0.
csv198 1201ms 17592186044416 >"$TEST_TMP/size.csv"
refuse size-1.9x "$TEST_TMP/size.csv" \
	"size\.csv:1: file_size: .*size out of range"
echo 'other-fs,17592186044416,5970,93,8058,6,2981,12,5774,80,8553,63,109.1,2,16,912,100,+++++,+++,+++++,+++,925,99,+++++,+++,5245,99' \
	>"$TEST_TMP/size10.csv"
refuse size-1.0x "$TEST_TMP/size10.csv" \
	"size10\.csv:1: size: .*size out of range: '17592186044416'"

# fio: one change to the first job (w1, a writer) of a real output.
fio() { # NAME JQ REGEX
	jq "$2" "$data/fio-two-jobs.json" >"$TEST_TMP/$1.json" ||
		fail "jq $2"
	refuse "fio-$1" "$TEST_TMP/$1.json" "$1\.json: $3"
}
fio neg-bw '.jobs[0].write.bw_bytes = -5' \
	'jobs\[0\]\.write\.bw_bytes: job 1 \(w1\): bw_bytes is -5'
fio zero-runtime '.jobs[0].job_runtime = 0' \
	'jobs\[0\]\.job_runtime: job 1 \(w1\): job_runtime is 0: it must be over 0'
fio neg-runtime '.jobs[1].job_runtime = -3' \
	'jobs\[1\]\.job_runtime: job 2 \(r1\): job_runtime is -3'
fio neg-cpu '.jobs[0].usr_cpu = -12.5' \
	'jobs\[0\]\.usr_cpu: job 1 \(w1\): usr_cpu is -12\.5'
fio neg-bytes '.jobs[1].read.io_bytes = -4096' \
	'jobs\[1\]\.read\.io_bytes: job 2 \(r1\): io_bytes is -4096'
fio no-io '.jobs[0].write |= (.io_bytes = 0 | .total_ios = 0 | .bw_bytes = 0)' \
	'jobs: job 1 \(w1\): no I/O'
echo "import-refuse: every impossible value refused"

# Past its format's cap an input is refused before it is parsed, so the
# stated memory bound (64 MB + 500x the input) has a ceiling: 4 MB of
# bonnie++ CSV is some 16,000 runs, more than any real output.
python3 -c '
import sys
line = open(sys.argv[1]).read()
sys.stdout.write(line * (4 * 1048576 // len(line) + 1))' \
	"$TEST_TMP/good.csv" >"$TEST_TMP/huge.csv"
refuse huge-csv "$TEST_TMP/huge.csv" \
	"huge\.csv: [0-9]+ bytes: too large for bonnie-csv \(at most 4 MB"
