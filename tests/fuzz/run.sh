#!/bin/sh
# Run the libFuzzer targets built by tests/fuzz/build.sh, each for
# FUZZ_TIME seconds (default 30): tests/fuzz/run.sh SRCDIR [lab|record|import],
# from the build directory (`make fuzz-run`). Seeds are the shipped and
# test labs, the test record and one record per workload type from a
# real run (tests/fuzz/seeds, series and latency cut), and inputs that
# once failed (record-untar-huge-times.json). What the fuzzer
# learns goes to tests/fuzz/work/corpus-*, a failing input to
# tests/fuzz/work/artifacts.
# Exits 1 on the first crash, leak, timeout or broken round trip, with
# the fuzzer's report and the input (text and base64) on stdout.
set -eu

srcdir=${1:?usage: run.sh SRCDIR [lab|record]}
shift
time=${FUZZ_TIME:-30}
work=tests/fuzz/work
targets=${*:-lab record import}

# Leaks count (the default); only the libconfig one in lsan.supp is
# forgiven, see there.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
LSAN_OPTIONS=suppressions=$srcdir/tests/fuzz/lsan.supp:print_suppressions=0
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

status=0
for t in $targets; do
	# lab: libconfig's leak (lsan.supp) fires on most mutated inputs, and
	# libFuzzer leak-checks each input that leaked with a full LSan scan:
	# 500 inputs/s instead of 5000. So the search runs without the check
	# per input (LSan still checks the whole run at exit), then every
	# input of the corpus it grew is replayed with the check per input,
	# which names the input that leaks.
	case $t in
	lab) seeds="$srcdir/data/labs $srcdir/tests/data/labs"
		opts="-dict=$srcdir/tests/fuzz/lab.dict -detect_leaks=0"
		replay=yes ;;
	record) seeds="$srcdir/tests/data/records $srcdir/tests/fuzz/seeds"
		opts=-dict=$srcdir/tests/fuzz/record.dict; replay= ;;
	# import: every fixture of tests/data (bonnie++ text, compilebench
	# summaries, fio JSON; libFuzzer reads the directory's subdirectories
	# too) and the CSV lines in tests/fuzz/seeds-import.
	import) seeds="$srcdir/tests/data $srcdir/tests/fuzz/seeds-import"
		opts=-dict=$srcdir/tests/fuzz/import.dict; replay= ;;
	*) echo "run.sh: no fuzz target $t" >&2; exit 2 ;;
	esac
	bin=tests/fuzz/fuzz-$t
	[ -x "$bin" ] || { echo "run.sh: $bin not built (make fuzz)" >&2; exit 2; }
	mkdir -p "$work/corpus-$t" "$work/artifacts"
	rm -f "$work/artifacts/$t-"*
	log=$work/fuzz-$t.log
	echo "== fuzz-$t: $time s"
	# The first corpus directory receives new inputs; the seeds are
	# only read. -timeout: an input that takes 10 s is a hang.
	ok=yes
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$time" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 $opts -artifact_prefix="$work/artifacts/$t-" \
		"$work/corpus-$t" $seeds > "$log" 2>&1 || ok=
	# A leak found by the check at exit (after "Done") belongs to no one
	# input: the unit libFuzzer writes then is just the last one run.
	if [ -z "$ok" ] && grep -q '^Done [0-9]* runs' "$log"; then
		echo "   a leak was reported at exit; the replay names its input"
		rm -f "$work/artifacts/$t-crash-"*
	fi
	# (A failure prints the stats twice: once each.)
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" |
		awk -F: '!seen[$3]++' || true
	echo "   corpus: $(find "$work/corpus-$t" -type f | wc -l) inputs"
	if [ -n "$replay" ]; then
		"$bin" -runs=0 -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$work/artifacts/$t-" \
			"$work/corpus-$t" >> "$log" 2>&1 || ok=
		echo "   corpus replayed with a leak check per input"
	fi
	[ -n "$ok" ] && continue
	status=1
	echo "fuzz-$t FAILED; its report:"
	sed -n '/ERROR\|^fuzz-[a-z]*: \|runtime error\|deadly signal\|Timeout\|out-of-memory/,$p' "$log" | head -150
	for f in "$work/artifacts/$t-"*; do
		[ -f "$f" ] || continue
		echo "---- failing input $f ($(wc -c < "$f") bytes), as text:"
		head -c 4096 "$f" | cat -v
		echo
		echo "---- as base64 (base64 -d > input; $bin input replays it):"
		base64 -w 0 "$f"
		echo
	done
done
exit "$status"
