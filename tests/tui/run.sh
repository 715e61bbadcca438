#!/bin/sh
# The Run screen in tmux: a lab on a directory starts with r, the charts'
# values change between captures while it runs (MB/s counting writes),
# the window can be resized mid-run (a relayout each time), x stops it
# cleanly (the record says interrupted, the target is clean), so do
# Ctrl-C, q (asked twice), SIGTERM and a terminal that goes away, and a
# run to the end (F5 from the first screen) saves a record that raidlab
# show reads and the Compare screen shows; with four variants the
# completed ones stay on the charts as named lines, two at a time, o
# stepping to the older ones. As root: the typed confirmation before
# destroying a device with data refuses a wrong name and changes nothing.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq

export XDG_DATA_HOME="$TEST_TMP/xdg"
lab="$TEST_TMP/lab.cfg"
# Far more files than the seconds before x can make, even on tmpfs.
cat >"$lab" <<EOF
name = "tuirun"; cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/target"; } );
workloads = (
  { name = "big"; type = "smallfiles"; counts = [2000000]; dirs = 100; }
);
EOF

tui_start "$lab"
tui_wait_for 'tuirun'
tui_keys "$(tui_tab Run)"
tui_wait_for 'Press r to run'
tui_keys r
tui_wait_for 'dir: big round 1 of 1' 20
tui_wait_for 'files/s now [0-9]' 20
# Its 4K files are writes: the MB/s figures are read + write, not read
# alone (which stayed 0 for any write workload once).
tui_wait_for 'MB/s read\+write now [^ ]+ avg ([1-9]|0\.[0-9]*[1-9])' 20
# Which colour is which of the stacked areas.
tui_wait_for '█ write  █ read ─'
# Rounded to a few digits, a steady rate can print the same twice: the
# figures must change within 10 s, not at once.
a=$(tui_screen | grep -Eo 'files/s now [^ ]+ avg [^ ]+')
for _i in $(seq 1 20); do
	sleep 0.5
	b=$(tui_screen | grep -Eo 'files/s now [^ ]+ avg [^ ]+')
	[ "$a" != "$b" ] && break
done
[ -n "$a" ] && [ "$a" != "$b" ] || fail "the figures did not change: '$a' then '$b'"

tui_resize 80 24
tui_wait_layout 24
tui_wait_for 'files/s now'
tui_resize 120 40
tui_wait_layout 40
tui_wait_for 'files/s now'

tui_keys x
tui_wait_for 'run stopped: [0-9]+ runs? done' 20
tui_wait_for '^Stopped \(the record says interrupted\)'
rec=$(ls "$XDG_DATA_HOME"/raidlab/results/tuirun-*.json)
expect_eq "stop: record status" "$(jq -r .status "$rec")" interrupted
expect_eq "stop: run status" "$(jq -r '.runs[0].status' "$rec")" interrupted
expect_eq "stop: target clean" "$(ls -A "$TEST_TMP/target")" ""
tui_keys q
expect_eq "quit: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# Signals mid-run never leave a run behind: the run stops, the target is
# cleaned, the record says interrupted. Ctrl-C stops the run and keeps the
# lab open (a second Ctrl-C quits); SIGTERM quits with 143; a terminal
# that goes away (SIGHUP, or stdin hung up) quits too.
start_big() {
	rm -f "$XDG_DATA_HOME"/raidlab/results/tuirun-*.json
	tui_start "$lab"
	tui_wait_for 'tuirun'
	tui_keys "$(tui_tab Run)"
	tui_wait_for 'Press r to run'
	tui_keys r
	tui_wait_for 'files/s now [0-9]' 20
}
# stopped WHAT: within 30 s, an interrupted record and a clean target.
stopped() {
	for _i in $(seq 1 300); do
		rec=$(ls "$XDG_DATA_HOME"/raidlab/results/tuirun-*.json 2>/dev/null)
		[ -n "$rec" ] && [ "$(jq -r .status "$rec")" = interrupted ] &&
			[ -z "$(ls -A "$TEST_TMP/target")" ] && return 0
		sleep 0.1
	done
	fail "$1: no interrupted record or the target not clean: $(ls -A "$TEST_TMP/target" | head -3)"
}
start_big
tui_keys C-c
tui_wait_for 'run stopped' 20
stopped "Ctrl-C"
tui_wait_for '^ 1 Disks'
tui_keys C-c
expect_eq "Ctrl-C with no run: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# q during a run asks first, on every screen (Lab files once quit at
# once); a second q stops the run and quits.
start_big
tui_keys "$(tui_tab 'Lab files')"
tui_wait_for 'Enter open'
tui_keys q
tui_wait_for 'a run is in progress: q or F10 again stops it'
tui_keys q
expect_eq "q q during a run: exit status" "$(tui_wait_exit 30)" 0
stopped "q q"
tui_check_stderr
tui_stop

start_big
pid=$(pgrep -P "$(tmx display -p -t "$TUI_SESSION" '#{pane_pid}')" raidlab)
[ -n "$pid" ] || fail "SIGTERM: no raidlab process in the pane"
kill -TERM "$pid"
expect_eq "SIGTERM: exit status" "$(tui_wait_exit 30)" 143
stopped SIGTERM
tui_check_stderr
tui_stop

start_big
pid=$(pgrep -P "$(tmx display -p -t "$TUI_SESSION" '#{pane_pid}')" raidlab)
tui_stop # the terminal goes away
stopped "terminal gone"
for _i in $(seq 1 100); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "terminal gone: raidlab still runs"
[ -s "$TUI_ERR" ] && { cat "$TUI_ERR" >&2; fail "terminal gone: stderr"; }

# A short run to the end: a record raidlab show reads back.
sed -i 's/counts = \[2000000\]; dirs = 100;/counts = [50]; dirs = 2;/' "$lab"
rm -f "$XDG_DATA_HOME"/raidlab/results/tuirun-*.json
tui_start "$lab"
tui_wait_for 'tuirun'
tui_keys F5 # the run key, from the first screen
tui_wait_for 'run done: 1 run, 0 failed' 30
tui_wait_for '^Finished\.'
tui_wait_for 'big: 50 files of 4K in 2 dirs: [0-9.]+ files/s' # with its unit
rec=$(ls "$XDG_DATA_HOME"/raidlab/results/tuirun-*.json)
expect_eq "done: record status" "$(jq -r .status "$rec")" ok
expect_match "done: raidlab show" "$("$RAIDLAB" show "$rec")" \
	'50 files of 4K in 2 dirs'
# The finished run joins the Compare screen by itself.
tui_keys "$(tui_screen | head -n 1 | grep -Eo '[0-9] Compare' | cut -c1)"
tui_wait_for 'Added 1 row'
tui_wait_for '^ *B? *dir '
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
tui_stop

# Four variants: the completed ones' curves stay on the charts as lines,
# named under them, the newest two first; o shows the older ones, then
# the newest again.
cat >"$TEST_TMP/four.cfg" <<EOF
name = "tuifour"; cache = "keep";
variants = (
  { name = "va"; directory = "$TEST_TMP/a"; },
  { name = "vb"; directory = "$TEST_TMP/b"; },
  { name = "vc"; directory = "$TEST_TMP/c"; },
  { name = "vd"; directory = "$TEST_TMP/d"; }
);
workloads = ( { type = "fio"; rw = "write"; size = "4M"; runtime = 1; } );
EOF
tui_start "$TEST_TMP/four.cfg"
tui_wait_for 'tuifour'
tui_keys F5
tui_wait_for 'line: va \(done\)' 30
tui_wait_for 'run done: 4 runs, 0 failed' 30
tui_wait_for 'line: vc \(done\) +line: vb \(done\)'
tui_keys o
tui_wait_for 'line: vb \(done\) +line: va \(done\)'
tui_keys o
tui_wait_for 'line: vc \(done\) +line: vb \(done\)'
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
tui_stop

if [ "$(id -u)" = 0 ] && command -v mkfs.btrfs >/dev/null 2>&1; then
	new_loop d1 256M
	new_loop d2 256M
	mkfs.ext4 -q "$d1" || fail "mkfs.ext4"
	before=$(blkid -p "$d1" "$d2" 2>&1)
	cat >"$TEST_TMP/data.cfg" <<EOF
name = "tuidata"; cache = "keep";
variants = ( { name = "b"; array = { engine = "btrfs"; level = "raid1";
  devices = [ "$d1", "$d2" ]; }; } );
workloads = ( { type = "smallfiles"; counts = [10]; } );
EOF
	export RAIDLAB_STATE_DIR="$TEST_TMP/state"
	# Wide enough for the log's refusal lines whole.
	TUI_COLS=200 tui_start "$TEST_TMP/data.cfg"
	tui_wait_for 'tuidata'
	tui_keys "$(tui_tab Run)" r
	tui_wait_for 'hold data that the run will destroy'
	tui_wait_for "$d1"
	tui_text "$d2"
	tui_keys Enter
	tui_wait_for 'not the devices to destroy: refused'
	# The log tells of what the TUI has, not of an option it has not.
	tui_wait_for "$d1: has data: .*; to destroy it, name it in the typed confirmation"
	tui_wait_for 'or confirm the ones whose data may be destroyed by typing their names when the run asks'
	tui_screen | grep -q -- '--yes-destroy' &&
	    fail "the TUI's log names --yes-destroy: $(tui_screen | grep -- --yes-destroy)"
	expect_eq "wrong name: nothing changed" "$(blkid -p "$d1" "$d2" 2>&1)" \
		"$before"
	[ -z "$(findmnt -n -l -o TARGET | grep -F "$TEST_TMP/state")" ] ||
		fail "wrong name: something was mounted"
	tui_keys q
	tui_wait_exit >/dev/null
	tui_check_stderr
fi
echo "tui run: ok"
