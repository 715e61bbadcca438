#!/bin/bash
# What the interactive lab costs the measurement: the same lab run
# headless (`raidlab run`) and in the TUI (`raidlab tui` inside tmux, the
# Run screen shown at the default refresh), alternating, REPEATS times
# each. Prints each workload figure both ways with the ratio TUI/headless
# (medians), and the CPU the TUI's UI thread used (utime + stime of the
# main thread from /proc/PID/task/PID/stat) as a percentage of one core
# over the run. The issue's budget: UI thread <= 2%, figures within 2%.
#
# The lab saturates the target with the CPU: small files and a buffered
# fio write in a tmpfs directory (no disk noise: the CPU is the limit),
# where a busy UI would show most.
#
# The window is COLS x ROWS (default 120x40); a big one (400x110: two
# charts of about 200 x 75 braille cells) is the UI's worst case.
#
#   RAIDLAB=/path/to/raidlab [DIR=/dev/shm/raidlab-bench-tui] [REPEATS=5]
#       [COLS=120] [ROWS=40] bench/tui.sh
set -eu

RAIDLAB=${RAIDLAB:?set RAIDLAB to the raidlab binary}
REPEATS=${REPEATS:-5}
COLS=${COLS:-120}
ROWS=${ROWS:-40}
DIR=${DIR:-/dev/shm/raidlab-bench-tui}
command -v tmux >/dev/null || { echo "needs tmux" >&2; exit 1; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }

WORK=$(mktemp -d /var/tmp/raidlab-bench-tui.XXXXXX)
SOCK=$WORK/tmux.sock
cleanup() {
	tmux -S "$SOCK" kill-server 2>/dev/null || true
	rm -rf "$WORK" "$DIR"
}
trap cleanup EXIT

cat >"$WORK/lab.cfg" <<EOF
name = "benchtui"; cache = "keep";
variants = ( { name = "dir"; directory = "$DIR"; } );
workloads = (
  { name = "small"; type = "smallfiles"; counts = [20000]; dirs = 20; },
  { name = "write"; type = "fio"; rw = "write"; bs = "64K"; size = "256M";
    runtime = 8; }
);
EOF

# figures RECORD: "small write" figures of a record (files/s, MB/s).
figures() {
	jq -r '[.runs[] | .tests[0].value] | map(tostring) | join(" ")' "$1"
}

headless() {
	local res=$WORK/res-h-$1
	"$RAIDLAB" run "$WORK/lab.cfg" --results "$res" >/dev/null 2>&1
	figures "$(ls "$res"/*.json)"
}

# In tmux; prints the figures and the UI thread's CPU percentage.
tui() {
	local res=$WORK/xdg-$1 pid t0 t1 cpu0 cpu1 tab
	tmux -S "$SOCK" -f /dev/null new-session -d -s b -x "$COLS" -y "$ROWS" \
		"env XDG_DATA_HOME='$res' '$RAIDLAB' tui '$WORK/lab.cfg'"
	for _ in $(seq 50); do
		tab=$(tmux -S "$SOCK" capture-pane -t b -p | head -n 1 |
			grep -Eo '[0-9] Run' | cut -c1) && [ -n "$tab" ] && break
		sleep 0.1
	done
	pid=$(pgrep -n -f "raidlab tui $WORK/lab.cfg")
	tmux -S "$SOCK" send-keys -t b "$tab" r
	cpu0=$(awk '{print $14 + $15}' "/proc/$pid/task/$pid/stat")
	t0=$(date +%s.%N)
	until tmux -S "$SOCK" capture-pane -t b -p | grep -q 'run done'; do
		sleep 0.2
	done
	t1=$(date +%s.%N)
	cpu1=$(awk '{print $14 + $15}' "/proc/$pid/task/$pid/stat")
	tmux -S "$SOCK" send-keys -t b q
	sleep 0.5
	tmux -S "$SOCK" kill-server 2>/dev/null || true
	local hz
	hz=$(getconf CLK_TCK)
	echo "$(figures "$(ls "$res"/raidlab/results/*.json)") $(
		awk -v c="$((cpu1 - cpu0))" -v hz="$hz" -v a="$t0" -v b="$t1" \
		    'BEGIN { print c / hz / (b - a) * 100 }')"
}

median() {
	sort -g | awk '{v[NR] = $1} END {
		if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >"$WORK/h"
: >"$WORK/t"
for i in $(seq "$REPEATS"); do
	headless "$i" >>"$WORK/h"
	tui "$i" >>"$WORK/t"
done

hs=$(awk '{print $1}' "$WORK/h" | median)
hw=$(awk '{print $2}' "$WORK/h" | median)
ts=$(awk '{print $1}' "$WORK/t" | median)
tw=$(awk '{print $2}' "$WORK/t" | median)
ui=$(awk '{print $3}' "$WORK/t" | median)
uimax=$(awk '{print $3}' "$WORK/t" | sort -g | tail -n 1)
printf 'window %sx%s\n' "$COLS" "$ROWS"
printf '%-28s %12s %12s %8s\n' "median of $REPEATS" headless tui tui/head
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }
printf '%-28s %12.0f %12.0f %8.3f\n' "smallfiles 20000 (files/s)" \
	"$hs" "$ts" "$(ratio "$ts" "$hs")"
printf '%-28s %12.1f %12.1f %8.3f\n' "fio write 64K (MB/s)" \
	"$hw" "$tw" "$(ratio "$tw" "$hw")"
printf 'UI thread CPU: median %.2f%% of a core, worst %.2f%%\n' "$ui" "$uimax"
