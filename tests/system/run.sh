#!/bin/sh
# raidlab run as a user meets it, on the real binary: a lab on a directory
# variant (created when missing) runs and records; the record parses and
# carries its provenance; without a terminal a line per test; a lab and
# the default lab run as an unprivileged user, noting what caches hide;
# SIGINT, SIGTERM, SIGHUP or SIGPIPE in the middle keeps an interrupted
# record and a clean target; after a kill -9 the record written at the
# start reads as interrupted; a bad lab is refused with exit 2. Array
# variants: tests/system/build.sh.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq

lab="$TEST_TMP/lab.cfg"
cat >"$lab" <<EOF
name = "runtest";
cache = "keep";
repeats = 2;
variants = (
  { name = "dir"; directory = "$TEST_TMP/target/sub"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; counts = [20, 40]; dirs = 2; }
);
EOF

"$RAIDLAB" run "$lab" --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "run: exit status" "$?" 0
err=$(cat "$TEST_TMP/err")
expect_match "run: a line per test without a terminal" "$err" \
	'\[dir\] small 2/2: 40 files of 4K in 2 dirs: [0-9.]+ files/s'
out=$(cat "$TEST_TMP/out")
expect_match "run: the table at the end" "$out" \
	'40 files of 4K in 2 dirs: mean of 2 runs [0-9.]+ s, [0-9.]+ files/s'
[ -d "$TEST_TMP/target/sub" ] || fail "run: the directory variant was not created"
[ -z "$(ls -A "$TEST_TMP/target/sub")" ] || fail "run: files left on the target"

rec=$(ls "$TEST_TMP"/res/runtest-*.json 2>/dev/null)
[ -n "$rec" ] || fail "run: no record in the results directory"
q() { jq -r "$1" "$rec"; }
expect_eq "record: format" "$(q .format)" raidlab-result
expect_eq "record: status" "$(q .status)" ok
expect_eq "record: kernel" "$(q .host.kernel)" "$(uname -r)"
expect_eq "record: cores" "$(q .host.cores)" "$(getconf _NPROCESSORS_ONLN)"
expect_match "record: version" "$(q .raidlab_version)" '^[0-9]+\.[0-9]+'
expect_match "record: the lab as loaded" "$(q .lab.text)" 'name = "runtest"'
expect_eq "record: runs" "$(q '.runs | length')" 2
# The last line: the mount on top when mounts are stacked (/dev/shm here).
expect_eq "record: target fs" "$(q '.runs[0].target.fstype')" \
	"$(findmnt -n -o FSTYPE --target "$TEST_TMP/target/sub" | tail -n 1)"
expect_eq "record: parameters" "$(q '.runs[0].workload.params.counts | join(",")')" 20,40
expect_eq "record: repeat" "$(q '.runs[1].repeat')" 2
expect_eq "record: tests" "$(q '.runs[0].tests | map(.key) | join(",")')" files_20,files_40
expect_eq "record: files counted" "$(q '.runs[0].tests[1].files')" 40
expect_eq "record: bytes counted" "$(q '.runs[0].tests[1].bytes_written')" 163840
expect_match "record: latency" "$(q '.runs[0].tests[1].latency.create.p99_ns')" '^[0-9]+$'
# A series is there, with samples (the last partial tick makes one even
# when the run is shorter than a tick), and they add up to the tests.
expect_eq "record: time series" \
	"$(q '.runs[0].series.t | type == "array" and length > 0')" true
expect_eq "record: the series adds up to the files" \
	"$(q '.runs[0] | ([.series.files[]] | add) == ([.tests[].files] | add)')" \
	true
# The figure is what the counters and the clock say.
expect_eq "record: files/s = files / wall" \
	"$(q '.runs[0].tests[1] | ((.value - .files / .wall) | fabs) < 1e-6 * .value')" true

# show prints the same tables from the record.
shown=$("$RAIDLAB" show "$rec") || fail "show of the run's record"
expect_match "show: same table" "$shown" \
	'40 files of 4K in 2 dirs: mean of 2 runs [0-9.]+ s, [0-9.]+ files/s'

# A selection naming nothing there: both names said, nothing run, no
# record (it used to run nothing and save an empty record, status ok).
"$RAIDLAB" run "$lab" -v nosuch -w nope --results "$TEST_TMP/res-none" \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "unknown -v/-w: exit status" "$?" 2
expect_match "unknown -v: said" "$(cat "$TEST_TMP/err")" \
	"lab.cfg: no variant named nosuch"
expect_match "unknown -w: said" "$(cat "$TEST_TMP/err")" \
	"lab.cfg: no workload named nope"
[ ! -e "$TEST_TMP/res-none" ] || fail "unknown -v/-w: a record was saved"

# Options out of range or excluding each other: said, nothing run.
"$RAIDLAB" run "$lab" -r 1001 >/dev/null 2>"$TEST_TMP/err"
expect_eq "-r 1001: exit status" "$?" 2
expect_match "-r 1001: said" "$(cat "$TEST_TMP/err")" \
	'--repeats: 1001 is not a number from 1 to 1000'
"$RAIDLAB" run "$lab" -j -c >/dev/null 2>"$TEST_TMP/err"
expect_eq "-j -c: exit status" "$?" 2
expect_match "-j -c: said" "$(cat "$TEST_TMP/err")" \
	'--json and --csv exclude each other'

# --json prints the record; --csv one line per test.
"$RAIDLAB" run "$lab" -v dir -r 1 --results "$TEST_TMP/res2" --json 2>/dev/null >"$TEST_TMP/j"
expect_eq "run --json: parses" "$(jq -r '.runs | length' "$TEST_TMP/j")" 1
"$RAIDLAB" run "$lab" -v dir -r 1 --results "$TEST_TMP/res3" --csv 2>/dev/null >"$TEST_TMP/c"
expect_match "run --csv: a line per test" "$(grep -c files_ "$TEST_TMP/c")" '^2$'

# As an unprivileged user, with caches to drop: it runs and says so.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$TEST_TMP/nobody" && chown 65534:65534 "$TEST_TMP/nobody"
	chmod 755 "$TEST_TMP"
	sed -e 's/cache = "keep"/cache = "drop"/' -e 's/repeats = 2/repeats = 1/' \
	    "$lab" >"$TEST_TMP/nobody/lab.cfg"
	HOME="$TEST_TMP/nobody" $NO_XDG setpriv --reuid=65534 --regid=65534 \
	    --clear-groups \
	    "$RAIDLAB" run "$TEST_TMP/nobody/lab.cfg" -v dir \
	    --target "$TEST_TMP/nobody" --results "$TEST_TMP/nobody/res" \
	    >/dev/null 2>"$TEST_TMP/err"
	expect_eq "run as nobody: exit status" "$?" 0
	expect_match "run as nobody: the cache note" "$(cat "$TEST_TMP/err")" \
		'page cache not dropped between phases \(needs root\)'

	# The default lab, as a newcomer without root would run it.
	# (A copy: the source tree may sit where nobody cannot read.)
	mkdir -p "$TEST_TMP/nobody/quick" && chown 65534:65534 "$TEST_TMP/nobody/quick"
	cp "$top_srcdir/data/labs/quick.cfg" "$TEST_TMP/nobody/quick.cfg"
	chmod 644 "$TEST_TMP/nobody/quick.cfg"
	HOME="$TEST_TMP/nobody" $NO_XDG setpriv --reuid=65534 --regid=65534 \
	    --clear-groups \
	    "$RAIDLAB" run "$TEST_TMP/nobody/quick.cfg" \
	    --target "$TEST_TMP/nobody/quick" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	expect_eq "quick lab as nobody: exit status" "$?" 0
	expect_match "quick lab as nobody: bonnie's table" "$(cat "$TEST_TMP/out")" \
		'Sequential Create'
	expect_match "quick lab as nobody: the memory note" "$(cat "$TEST_TMP/err")" \
		'fits in RAM'
	ls "$TEST_TMP"/nobody/.local/share/raidlab/results/quick-*.json >/dev/null 2>&1 ||
	    fail "quick lab as nobody: no record under ~/.local/share/raidlab"
fi

# A signal in the middle (Ctrl-C, kill, the terminal or the reader of
# stdout gone): an interrupted record, a clean directory, exit 130.
cat >"$TEST_TMP/long.cfg" <<EOF
name = "long"; cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/long"; } );
workloads = ( { type = "smallfiles"; count = 100000000; size = "0";
  sync = false; } );
EOF
for sig in INT TERM HUP PIPE; do
	rm -rf "$TEST_TMP/res4"
	"$RAIDLAB" run "$TEST_TMP/long.cfg" --results "$TEST_TMP/res4" \
	    >/dev/null 2>"$TEST_TMP/err" &
	pid=$!
	i=0
	while [ $i -lt 100 ] && ! ls -d "$TEST_TMP"/long/raidlab-* >/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5
	kill -"$sig" $pid
	start=$(date +%s)
	wait $pid
	expect_eq "SIG$sig: exit status" "$?" 130
	[ $(( $(date +%s) - start )) -lt 30 ] || fail "SIG$sig: took too long to stop"
	rec=$(ls "$TEST_TMP"/res4/long-*.json)
	expect_eq "SIG$sig: record status" "$(jq -r .status "$rec")" interrupted
	expect_eq "SIG$sig: run status" "$(jq -r '.runs[0].status' "$rec")" interrupted
	expect_eq "SIG$sig: the test is marked" "$(jq -r '.runs[0].tests[0].interrupted' "$rec")" true
	[ -z "$(ls -A "$TEST_TMP/long")" ] || fail "SIG$sig: files left on the target"
done

# kill -9 during the first workload: nothing can tear down or save, but
# the record written when the run started is there; while the run lives
# show says it is running, and once it is gone show and compare read the
# record as interrupted, never as a plain result.
wait_dir() { # DIR GLOB: until DIR/GLOB exists (60 s at most)
	i=0
	while ! ls -d "$1"/$2 >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 600 ] || { kill -KILL $pid 2>/dev/null; fail "$1/$2 never appeared"; }
		sleep 0.1
	done
}
"$RAIDLAB" run "$TEST_TMP/long.cfg" --results "$TEST_TMP/res6" \
    >/dev/null 2>"$TEST_TMP/err" &
pid=$!
wait_dir "$TEST_TMP/long" 'raidlab-*'
rec=$(ls "$TEST_TMP"/res6/long-*.json 2>/dev/null)
shown=$("$RAIDLAB" show "$rec" 2>&1)
[ -n "$rec" ] || { kill -KILL $pid; fail "kill -9: no record while running"; }
kill -KILL $pid
wait $pid
expect_match "running: show says so" "$shown" '^Lab long, created .*, status running$'
expect_match "running: and what runs" "$shown" '^Running: smallfiles on dir, repeat 1, since '
shown=$("$RAIDLAB" show "$rec")
expect_eq "kill -9: show exit status" "$?" 0
expect_match "kill -9: interrupted" "$shown" '^Lab long, created .*, status interrupted$'
expect_match "kill -9: why" "$shown" \
	"^raidlab \\(pid $pid\\) ended without finishing this record: killed, or the machine stopped$"
expect_match "kill -9: what it was doing" "$shown" \
	'^It stopped during smallfiles on dir, repeat 1, started .*; that run has no result$'
expect_eq "kill -9: show --json" "$("$RAIDLAB" show --json "$rec" | jq -r .status)" interrupted
rm -rf "$TEST_TMP/long"/raidlab-*

# The same with a finished run before the kill: compare labels it.
cat >"$TEST_TMP/two.cfg" <<EOF
name = "two"; cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/two"; } );
workloads = ( { name = "short"; type = "smallfiles"; count = 20; },
  { name = "endless"; type = "smallfiles"; count = 100000000; size = "0";
    sync = false; } );
EOF
"$RAIDLAB" run "$TEST_TMP/two.cfg" --results "$TEST_TMP/res7" \
    >/dev/null 2>"$TEST_TMP/err" &
pid=$!
wait_dir "$TEST_TMP/two" 'raidlab-endless.*'
kill -KILL $pid
wait $pid
rec=$(ls "$TEST_TMP"/res7/two-*.json)
expect_eq "kill -9: the finished run is kept" "$(jq -r '.runs[0].status' "$rec")" ok
expect_match "kill -9: compare marks the record" \
	"$("$RAIDLAB" compare --json "$rec" | jq -r '.records[0].source')" \
	'^two .* \(interrupted\)$'
rm -rf "$TEST_TMP/two"

# A bad lab: exit 2 with the file, line and field; nothing recorded.
printf 'name = "x";\nvariants = ( { name = "a"; directory = "/tmp"; } );\nworkloads = ( { type = "smallfiles"; cont = 3; } );\n' >"$TEST_TMP/bad.cfg"
"$RAIDLAB" run "$TEST_TMP/bad.cfg" --results "$TEST_TMP/res5" >/dev/null 2>"$TEST_TMP/err"
expect_eq "bad lab: exit status" "$?" 2
expect_match "bad lab: message" "$(cat "$TEST_TMP/err")" \
	"bad.cfg:3: workloads\\[0\\]\\.cont: unknown key; did you mean 'count'\\?"
[ ! -e "$TEST_TMP/res5" ] || fail "bad lab: something was recorded"
exit 0
