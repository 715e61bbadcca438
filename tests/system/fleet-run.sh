#!/bin/sh
# raidlab run LAB for a fleet: three loopback hosts of the fleet harness
# (127.0.0.2..4, each its own sshd and TMPDIR), a lab of two directory
# variants on "all" hosts ($TEST_TMP/fleet-HOST-a and -b through %h),
# a short smallfiles workload, two rounds, a barrier. Three records
# saved, one per host with the same fleet.run; `raidlab compare LAB`
# compares per host with the host as a factor; no host's round 2 started
# before every host's round 1 ended (the records' start and end times);
# nothing left in the hosts' directories, no copied lab, no raidlab
# process. Then the failures, each named with its host, the other hosts'
# records saved and nothing left behind: raidlab missing on one host,
# another version on one, a host that goes away mid-run, the controller
# killed (SIGKILL: every host's raidlab stops by itself on end of file),
# and interrupted (SIGINT: exit 130).
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/system/fleet-lib.sh"

need_fleet
need_cmd jq
export LC_ALL=C.UTF-8

for n in 2 3 4; do
	fleet_host $n
done
LAB=$TEST_TMP/fl.cfg
cat >"$LAB" <<EOF
name = "fl";
repeats = 2;
barrier = true;
cache = "keep";
hosts = (
  { name = "h2"; address = "127.0.0.2"; },
  { name = "h3"; address = "127.0.0.3"; },
  { name = "h4"; address = "127.0.0.4"; }
);
defaults = { hosts = "all"; };
variants = (
  { name = "a"; directory = "$TEST_TMP/fleet-%h-a"; },
  { name = "b"; directory = "$TEST_TMP/fleet-%h-b"; }
);
workloads = ( { name = "small"; type = "smallfiles"; count = 200; size = "4K"; } );
EOF

fleet_run() { # RESULTS ARGS...: raidlab run of the lab, records in RESULTS
	_r=$1
	shift
	"$RAIDLAB" run --ssh-config "$FLEET_SSH_CONFIG" -o "$_r" "$@" "$LAB"
}

# fleet_bg RESULTS: the same in the background, raidlab's own PID in ctl
# (a function run with & would be a shell around it), stderr in err.
fleet_bg() {
	"$RAIDLAB" run --ssh-config "$FLEET_SSH_CONFIG" -o "$1" "$LAB" \
	    >/dev/null 2>"$TEST_TMP/err" &
	ctl=$!
}

# hosts_of DIR: the fleet.host of each record in DIR, sorted, one line.
hosts_of() {
	for _f in "$1"/*.json; do
		[ -e "$_f" ] && jq -r '.fleet.host' "$_f"
	done | sort | tr '\n' ' '
}

# The raidlab processes of this test (their command lines name its
# directory: the copied lab in a host's TMPDIR, or our lab), one a line.
our_raidlabs() {
	ps -eo pid=,args= | grep -F "$TEST_TMP" | grep -E 'raidlab (run|--)' |
	    grep -v grep || true
}

# expect_clean WHAT: no raidlab of ours runs, the hosts' directories are
# empty or gone, no copied lab is left in a host's TMPDIR. Bounded wait
# for the processes: a stopped host tears down before it exits.
expect_clean() {
	_i=0
	while [ -n "$(our_raidlabs)" ] && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -z "$(our_raidlabs)" ] ||
		fail "$1: raidlab still running: $(our_raidlabs)"
	for _h in h2 h3 h4; do
		for _v in a b; do
			_d=$TEST_TMP/fleet-$_h-$_v
			[ ! -d "$_d" ] || [ -z "$(ls -A "$_d")" ] ||
				fail "$1: left in $_d: $(ls -A "$_d" | head -3)"
		done
	done
	_left=$(find "$FLEET_DIR"/h2/tmp "$FLEET_DIR"/h3/tmp \
	    "$FLEET_DIR"/h4/tmp -mindepth 1 2>/dev/null)
	[ -z "$_left" ] || fail "$1: copied labs left: $_left"
}

# gate_wrapper N: host N's raidlab, its stderr passed on line by line,
# except that its "wait 2" (it is ready for round 2) is held back: the
# file FLEET_DIR/hN/held says it came, and it goes on only once the file
# FLEET_DIR/hN/release exists. Until then the barrier keeps every host
# between round 1 and round 2: mid-run, whatever the machine's speed.
gate_wrapper() {
	_d=$FLEET_DIR/h$1
	rm -f "$_d/held" "$_d/release"
	cat >"$_d/bin/raidlab" <<EOF
#!/bin/sh
case "\$1" in --version) exec "$RAIDLAB" "\$@" ;; esac
{ "$RAIDLAB" "\$@" 2>&1 >&3 3>&- | while IFS= read -r l; do
	case \$l in
	"@fleet 1 wait 2")
		: >"$_d/held"
		i=0
		while [ ! -e "$_d/release" ] && [ \$i -lt 1200 ]; do
			sleep 0.1
			i=\$((i + 1))
		done
		;;
	esac
	printf '%s\n' "\$l" >&2
done; } 3>&1
EOF
	chmod 755 "$_d/bin/raidlab"
}
wait_held() { # WHAT N: host N's "wait 2" held back, bounded
	_i=0
	while [ ! -e "$FLEET_DIR/h$2/held" ] && [ $_i -lt 1200 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -e "$FLEET_DIR/h$2/held" ] || fail "$1: h$2 never got to round 2"
}
plain_wrapper() { # N
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$RAIDLAB" \
	    >"$FLEET_DIR/h$1/bin/raidlab"
	chmod 755 "$FLEET_DIR/h$1/bin/raidlab"
}
# ---------------------------------------------------------------- the run
# The default results directory, where `compare fl` looks.
R=$XDG_DATA_HOME/raidlab/results
out=$(fleet_run "$R" 2>"$TEST_TMP/err") ||
	fail "fleet run: $(cat "$TEST_TMP/err")"
expect_eq "records, one per host" "$(hosts_of "$R")" "h2 h3 h4 "
expect_eq "one fleet run" \
    "$(jq -r '.fleet.run' "$R"/*.json | sort -u | wc -l)" 1
expect_eq "every host listed" \
    "$(jq -c '.fleet.hosts' "$R"/*.json | sort -u)" '["h2","h3","h4"]'
expect_match "the records said" "$(cat "$TEST_TMP/err")" \
    "h3: record saved to $R/fl-.*-h3\.json"
expect_match "the barrier said" "$(cat "$TEST_TMP/err")" \
    "round 2 starts on every host"
for f in "$R"/*.json; do
	expect_eq "$f: runs" "$(jq '[.runs[] | select(.status == "ok")] |
	    length' "$f")" 4
	expect_eq "$f: the host's own directories" "$(jq -r --arg t "$TEST_TMP" \
	    '[.runs[].target.path | sub($t; "")] | unique | join(" ")' "$f")" \
	    "/fleet-$(jq -r .fleet.host "$f")-a /fleet-$(jq -r .fleet.host "$f")-b"
done
# The barrier: round 2's first start after round 1's last end, over all
# hosts (the times are exact UTC stamps of one format: they sort).
r1_end=$(jq -r '.runs[] | select(.repeat == 1) | .end' "$R"/*.json | sort |
    tail -n 1)
r2_start=$(jq -r '.runs[] | select(.repeat == 2) | .start' "$R"/*.json |
    sort | head -n 1)
[ -n "$r1_end" ] && [ -n "$r2_start" ] || fail "no run times in the records"
[ "$(printf '%s\n%s\n' "$r1_end" "$r2_start" | sort | head -n 1)" = \
    "$r1_end" ] ||
	fail "round 2 started at $r2_start, before round 1 ended at $r1_end"
expect_clean "the run"
# -j: one JSON object, a member per host, each its record.
out=$(fleet_run "$TEST_TMP/r-json" -j 2>"$TEST_TMP/err") ||
	fail "fleet run -j: $(cat "$TEST_TMP/err")"
expect_eq "-j: keyed by host" "$(printf '%s' "$out" | jq -r 'keys | join(" ")')" \
    "h2 h3 h4"
expect_eq "-j: each its host's record" "$(printf '%s' "$out" |
    jq -r '[to_entries[] | select(.key == .value.fleet.host)] | length')" 3
expect_clean "-j"
# By the lab's name: its newest fleet run, every host's record.
cmp=$("$RAIDLAB" compare fl 2>&1) || fail "compare fl: $cmp"
expect_match "compare by name: the fleet run" "$cmp" \
    "fl: its newest fleet run, fl-.*: 3 records"
expect_match "compare by name: rows per host" "$cmp" "b@h4"
expect_match "compare by name: the host as a factor" "$cmp" "of 3 hosts"
lst=$("$RAIDLAB" results fl) || fail "results fl: $lst"
for h in h2 h3 h4; do
	expect_match "results: $h's record" "$lst" " fl@$h .*-$h\.json\$"
done
expect_eq "results -j: the fleet run" \
    "$("$RAIDLAB" results -j fl | jq -r '[.[].fleet.run] | unique | length')" 1
rep=$("$RAIDLAB" report fl 2>&1) || fail "report fl: $rep"
for row in a@h2 b@h2 a@h3 b@h3 a@h4 b@h4; do
	expect_match "report by name: $row" "$rep" "$row"
done

# ---------------------------------------------------------------- failures
# run_failing WHAT RESULTS: a fleet run that must fail (exit status 1);
# its stderr in ERR.
run_failing() {
	_rc=0
	fleet_run "$2" >/dev/null 2>"$TEST_TMP/err" || _rc=$?
	[ $_rc = 1 ] || fail "$1: exit status $_rc: $(cat "$TEST_TMP/err")"
	ERR=$(cat "$TEST_TMP/err")
}

# (a) raidlab missing on h3.
rm "$FLEET_DIR/h3/bin/raidlab"
run_failing "missing" "$TEST_TMP/r-missing"
expect_match "missing: named" "$ERR" \
    "h3 \(127\.0\.0\.3\): raidlab is not installed there"
expect_eq "missing: the others' records" "$(hosts_of "$TEST_TMP/r-missing")" \
    "h2 h4 "
expect_clean "missing"
plain_wrapper 3

# (b) another version on h4.
printf '#!/bin/sh\necho "raidlab 9.9.9"\n' >"$FLEET_DIR/h4/bin/raidlab"
run_failing "version" "$TEST_TMP/r-version"
expect_match "version: named" "$ERR" \
    "h4 \(127\.0\.0\.4\): raidlab 9\.9\.9 there"
expect_eq "version: the others' records" "$(hosts_of "$TEST_TMP/r-version")" \
    "h2 h3 "
expect_clean "version"
plain_wrapper 4

# (d) the controller killed mid-run: each host's raidlab sees end of
# file on its stdin, stops and tears down by itself.
gate_wrapper 3
fleet_bg "$TEST_TMP/r-kill"
wait_held "kill" 3
kill -9 $ctl
wait $ctl
: >"$FLEET_DIR/h3/release"
_i=0
while [ -n "$(our_raidlabs)" ] && [ $_i -lt 600 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
# Each host's own shell removed its copy of the lab once raidlab ended.
expect_clean "kill"

# (e) interrupted mid-run: every host stops and tears down; exit 130.
gate_wrapper 3
fleet_bg "$TEST_TMP/r-int"
wait_held "interrupt" 3
kill -INT $ctl
: >"$FLEET_DIR/h3/release"
rc=0
wait $ctl || rc=$?
[ "$rc" = 130 ] || fail "interrupt: exit status $rc: $(cat "$TEST_TMP/err")"
expect_match "interrupt: said" "$(cat "$TEST_TMP/err")" "stopping every host"
expect_clean "interrupt"

# (c) h3 goes away mid-run: held between its rounds, then its sshd and
# every session under it killed. The barrier then lets the others on.
gate_wrapper 3
fleet_bg "$TEST_TMP/r-away"
wait_held "away" 3
fleet_stop 3
rc=0
wait $ctl || rc=$?
[ $rc = 1 ] || fail "away: exit status $rc: $(cat "$TEST_TMP/err")"
ERR=$(cat "$TEST_TMP/err")
expect_match "away: named" "$ERR" \
    "h3 \(127\.0\.0\.3\) went away during round [12]: [^;\\]+; (its runs are lost|the runs it finished are kept in its record, marked interrupted)"
# Its raidlab, stopped with its session, may have printed its record
# before the connection closed: then it is kept, and says interrupted.
case $(hosts_of "$TEST_TMP/r-away") in
"h2 h4 ")
	expect_match "away: said lost" "$ERR" "its runs are lost" ;;
"h2 h3 h4 ")
	expect_match "away: said kept" "$ERR" "kept in its record"
	expect_eq "away: h3's record" "$(jq -r 'select(.fleet.host == "h3")
	    | .status' "$TEST_TMP"/r-away/*.json)" interrupted ;;
*)
	fail "away: the others' records: $(hosts_of "$TEST_TMP/r-away"): $ERR" ;;
esac
# h3's raidlab died with its session: its directories and its copy are
# not ours to judge; the others' are.
rm -rf "$TEST_TMP"/fleet-h3-* "$FLEET_DIR"/h3/tmp/*
expect_clean "away"
exit 0
