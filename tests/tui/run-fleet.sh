#!/bin/sh
# The Run screen on a fleet, in tmux at 120x40: a lab whose two directory
# variants run on three hosts, 127.0.0.2 to .4, each its own sshd
# (tests/system/fleet-lib.sh), reached with `raidlab tui --ssh-config`.
# Each host's raidlab is a stand-in that speaks the fleet protocol
# (fleet/fleet-proto.h) with rates chosen here: ready, a message of its
# own, live lines until the test lets it finish, done, then a record
# (the stored A/A record named for the host). r runs the fleet: a line
# per host shows its state, variant, workload, round and its rates as
# the host sent them; the "all hosts" line shows their sum, recomputed
# here with awk from the rates given; each host's message is in the log
# pane with its name; at 80 columns every column still shows. Once the
# hosts finish, every record is saved and said, the status line says the
# fleet run ended with 3 of 3 hosts, and the Compare screen takes all
# three records (rows by host). Then the same lab for real, each host's
# raidlab running its share: every host ends done, its record has both
# variants' 3 repeats. No traffic leaves 127.0.0.0/8; every sshd is
# stopped by its PID. Nothing on stderr.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/system/fleet-lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"
# both exit traps: the tmux server and every sshd, by PID
trap 'tui_stop; _fleet_cleanup' EXIT

need_fleet
need_cmd jq awk

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
export XDG_STATE_HOME XDG_DATA_HOME
TUI_COLS=120
TUI_ROWS=40

# wait_line ERE [SECONDS]: until the screen as one line matches (10 s,
# scaled).
wait_line() {
	_n=$((${2:-10} * 10 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		tui_screen | tr '\n' ' ' | grep -Eq -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "the screen never said /$1/"
}

version=$("$RAIDLAB" --version | sed -n '1s/^raidlab //p')
[ -n "$version" ] || fail "no raidlab version"
release=$TEST_TMP/release
# stand_in N READ WRITE FILES: host N's raidlab: `run` speaks the
# protocol with these rates (until $release exists, 120 s at most),
# anything else (the probe's --version) is the real one.
stand_in() {
	jq --arg host "h$1" --arg a v1 --arg b v1 --argjson quiet 0.1 \
	    --argjson f 1.12 -f "$TESTDATA/fleet-host.jq" \
	    "$TESTDATA/aa-ext4.json" >"$FLEET_DIR/h$1/record.json" ||
		fail "record h$1"
	cat >"$FLEET_DIR/h$1/bin/raidlab" <<EOF
#!/bin/sh
[ "\$1" = run ] || exec '$RAIDLAB' "\$@"
echo "@fleet 1 ready h$1 $version" >&2
echo "h$1 is warming up" >&2
i=0
while [ ! -e '$release' ] && [ \$i -lt 600 ]; do
	echo "@fleet 1 live b small 2 $2 $3 $4" >&2
	sleep 0.2
	i=\$((i + 1))
done
echo "@fleet 1 done 6 0" >&2
cat '$FLEET_DIR/h$1/record.json'
EOF
}

for n in 2 3 4; do
	fleet_host "$n"
done
stand_in 2 10.000 20.000 100.000
stand_in 3 1.500 2.500 30.000
stand_in 4 100.000 0.000 5.000
for h in h2 h3 h4; do
	mkdir -p "$TEST_TMP/d-$h-a" "$TEST_TMP/d-$h-b"
done
cat >"$TEST_TMP/fl.cfg" <<EOF
name = "fl";
repeats = 3;
cache = "keep";
results = "$TEST_TMP/results";
hosts = (
  { name = "h2"; address = "127.0.0.2"; port = $FLEET_PORT_2; },
  { name = "h3"; address = "127.0.0.3"; port = $FLEET_PORT_3; },
  { name = "h4"; address = "127.0.0.4"; port = $FLEET_PORT_4; }
);
variants = (
  { name = "a"; hosts = "all"; directory = "$TEST_TMP/d-%h-a"; },
  { name = "b"; hosts = "all"; directory = "$TEST_TMP/d-%h-b"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; counts = [100]; size = "1K"; }
);
EOF

tui_start --ssh-config "$FLEET_SSH_CONFIG" "$TEST_TMP/fl.cfg"
tui_wait_layout 40
tui_keys "$(tui_tab Run)"
tui_wait_for 'Press r to run the lab'
tui_keys r
tui_wait_for '^Fleet run fl-[^ ]+ on 3 hosts'
tui_wait_for '^Host +State +Variant +Workload +Round +read MB/s +write MB/s +files/s'
# each host as it sent its rates
tui_wait_for '^h2 +running +b +small +2 +10\.0 +20\.0 +100$' 30
tui_wait_for '^h3 +running +b +small +2 +1\.5 +2\.5 +30$' 30
tui_wait_for '^h4 +running +b +small +2 +100\.0 +0\.0 +5$' 30
# the sum, recomputed from the rates given
sum=$(printf '%s\n' "10 20 100" "1.5 2.5 30" "100 0 5" |
	awk '{ r += $1; w += $2; f += $3 }
	    END { printf "%.1f +%.1f +%.0f", r, w, f }')
tui_wait_for "^all hosts +running +- +- +- +$sum\$"
# the hosts' own messages, named
for n in 2 3 4; do
	tui_wait_for "^h$n: h$n is warming up"
done
# 80 columns hold every column, narrower
tui_resize 80 24
tui_wait_for "^all hosts +running +- +- +- +$sum\$"
tui_wait_for '^h3 +running +b +small +2 +1\.5 +2\.5 +30$'
tui_resize 120 40
tui_wait_for '^h3 +running +b +small +2 +1\.5 +2\.5 +30$'

# ---- the hosts finish
: >"$release"
wait_line 'Fleet run fl-[^ ]+ ended: 3 of 3 hosts done, 3 records saved'
for n in 2 3 4; do
	tui_wait_for "^h$n: record saved to $TEST_TMP/results/fl-[^ ]*-h$n\\.json"
done
expect_eq "three records" "$(ls "$TEST_TMP"/results/fl-*-h*.json | wc -l)" 3
expect_eq "their hosts" "$(jq -r '.fleet.host' "$TEST_TMP"/results/fl-*-h*.json |
	sort | tr '\n' ' ')" "h2 h3 h4 "

# ---- the Compare screen takes them all
tui_keys "$(tui_tab Compare)"
tui_wait_for 'rows by host \(g\)'
tui_wait_for '^[B ] v1@h4 '

# ---- for real: each host's own raidlab runs its share of the lab
for n in 2 3 4; do
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$RAIDLAB" \
	    >"$FLEET_DIR/h$n/bin/raidlab"
done
tui_keys "$(tui_tab Run)"
tui_wait_for 'Press r to run again'
first=$(tui_screen | sed -n 's/^Fleet run \(fl-[^ ]*\) ended.*/\1/p')
[ -n "$first" ] || fail "no first fleet run id"
tui_keys r
# the second run's end: another id (the screen shows the first's until
# r is read)
_n=$((600 * TUI_WAIT_SCALE))
while :; do
	second=$(tui_screen |
	    sed -n 's/^Fleet run \(fl-[^ ]*\) ended: 3 of 3 hosts done, 3 records saved.*/\1/p')
	[ -n "$second" ] && [ "$second" != "$first" ] && break
	_n=$((_n - 1))
	[ "$_n" -gt 0 ] || { tui_dump; fail "the real fleet run never ended"; }
	sleep 0.1
done
for n in 2 3 4; do
	tui_wait_for "^h$n +done "
done
# every host ran both variants, 3 repeats each, all well
expect_eq "real run: runs ok per host" \
	"$(jq -r --arg run "$second" 'select(.fleet.run == $run) |
	    "\(.fleet.host) \([.runs[] | select(.status == "ok")] | length)"' \
	    "$TEST_TMP"/results/fl-*-h*.json | sort | tr '\n' ' ')" \
	"h2 6 h3 6 h4 6 "
tui_keys q
expect_eq "run fleet: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui run fleet: ok"
