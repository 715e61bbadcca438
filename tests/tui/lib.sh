# Helpers for the TUI tests: the real binary inside a private tmux server
# (its own socket, so tests never touch a user's sessions), keys sent with
# send-keys, the screen read with capture-pane. Sourced after
# tests/system/lib.sh, never run. A test without tmux is skipped.

need_cmd tmux

TUI_N=0
TUI_SOCK="$TEST_TMP/tmux.0.sock"
TUI_SESSION=raidlab
TUI_ERR="$TEST_TMP/tui.stderr"
: "${TUI_COLS:=100}"
: "${TUI_ROWS:=30}"

tmx() {
	tmux -S "$TUI_SOCK" "$@"
}

# tui_start ARGS...: raidlab tui ARGS in a TUI_COLSxTUI_ROWS terminal. Its
# stderr (sanitizer reports) goes to TUI_ERR; its exit status to
# $TEST_TMP/tui.status when it ends. TUI_ENV: more NAME=value words for
# its environment (NO_COLOR=1).
tui_start() {
	# The screen the tests expect: UTF-8, colours, the pane's own size.
	_cmd="cd '$TEST_TMP' && env -u COLUMNS -u LINES -u NO_COLOR"
	_cmd="$_cmd LC_ALL=C.UTF-8 TERM=screen-256color ${TUI_ENV:-}"
	_cmd="$_cmd '$RAIDLAB' tui"
	for _a in "$@"; do
		_cmd="$_cmd '$_a'"
	done
	_cmd="$_cmd 2>'$TUI_ERR'; echo \$? >'$TEST_TMP/tui.status'; sleep 600"
	rm -f "$TEST_TMP/tui.status"
	# A fresh server per start: a killed one takes a moment to go. The
	# previous one goes first, or it would outlive the test.
	tui_stop
	TUI_N=$((TUI_N + 1))
	TUI_SOCK="$TEST_TMP/tmux.$TUI_N.sock"
	tmx -f /dev/null new-session -d -s "$TUI_SESSION" -x "$TUI_COLS" \
		-y "$TUI_ROWS" "$_cmd" || fail "tmux new-session"
}

# tui_tab NAME: the number key of screen NAME, read from the header.
tui_tab() {
	tui_screen | head -n 1 | grep -Eo "[0-9] $1" | cut -c1
}

# tui_keys KEY...: tmux key names (Enter, Tab, BTab, Escape, Up, F1, C-c)
# or literal strings.
tui_keys() {
	tmx send-keys -t "$TUI_SESSION" "$@"
}

# tui_text STRING: type a string literally.
tui_text() {
	tmx send-keys -t "$TUI_SESSION" -l -- "$1"
}

# The screen as text.
tui_screen() {
	tmx capture-pane -t "$TUI_SESSION" -p
}

# tui_dump: the screen, and what raidlab wrote to stderr or its exit
# status when it has gone (a sanitizer that halted it leaves its last
# frame on the pane, which reads like a hang).
tui_dump() {
	tui_screen >&2
	if [ -s "$TUI_ERR" ]; then
		echo "---- raidlab's stderr" >&2
		tail -n 60 "$TUI_ERR" >&2
	fi
	if [ -s "$TEST_TMP/tui.status" ]; then
		echo "---- raidlab exited with status $(cat "$TEST_TMP/tui.status")" >&2
	fi
}

# The waits are upper bounds: a run's first file or a build can sit behind
# another test's fsync on the same disk for many seconds (seen in CI under
# TSan), so each is stretched TUI_WAIT_SCALE times (3). Only a failing
# test waits the whole time.
TUI_WAIT_SCALE=${TUI_WAIT_SCALE:-3}

# tui_wait_for ERE [SECONDS]: until the screen matches (default 10 s,
# scaled); fails with the screen when it does not.
tui_wait_for() {
	_n=$(( ${2:-10} * 10 * TUI_WAIT_SCALE ))
	while [ "$_n" -gt 0 ]; do
		tui_screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "the screen never showed /$1/"
}

# tui_wait_gone ERE [SECONDS]: until the screen no longer matches.
tui_wait_gone() {
	_n=$(( ${2:-10} * 10 * TUI_WAIT_SCALE ))
	while [ "$_n" -gt 0 ]; do
		tui_screen | grep -Eq -- "$1" || return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "the screen still shows /$1/"
}

# tui_resize COLS ROWS
tui_resize() {
	tmx resize-window -t "$TUI_SESSION" -x "$1" -y "$2"
}

# tui_wait_layout ROWS: until raidlab has laid its screen out for ROWS
# rows: the screen tabs on the first row and the status bar (F1 help) on
# row ROWS, nowhere else (a pane cut to size without a relayout shows
# the old bar lower down, or not at all). Fails with the screen.
tui_wait_layout() {
	_n=$(( 100 * TUI_WAIT_SCALE ))
	while [ "$_n" -gt 0 ]; do
		_s=$(tui_screen)
		printf '%s\n' "$_s" | sed -n 1p | grep -Eq '^ 1 Disks' &&
			printf '%s\n' "$_s" | sed -n "$1p" | grep -q 'F1 help' &&
			[ "$(printf '%s\n' "$_s" | grep -c 'F1 help')" = 1 ] &&
			return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "the screen was not laid out for $1 rows"
}

# tui_wait_exit [SECONDS]: until raidlab has exited; prints its status.
tui_wait_exit() {
	_n=$(( ${1:-10} * 10 * TUI_WAIT_SCALE ))
	while [ ! -s "$TEST_TMP/tui.status" ] && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	[ -s "$TEST_TMP/tui.status" ] || fail "raidlab tui did not exit"
	cat "$TEST_TMP/tui.status"
}

# tui_check_stderr: no sanitizer report and nothing else on stderr.
tui_check_stderr() {
	if [ -s "$TUI_ERR" ]; then
		cat "$TUI_ERR" >&2
		fail "raidlab tui wrote to stderr"
	fi
}

tui_stop() {
	tmx kill-server 2>/dev/null
}

# Whatever happens, the tmux server goes with the test's files.
tui_cleanup() {
	tui_stop
	cleanup
}
trap tui_cleanup EXIT

# tui_plan_has ERE [PAGES]: the Compose plan preview shows ERE (a long
# command wraps: match a part of one line), paged down (PgDn) up to PAGES
# times (8) if need be, each page given a second (TUI_WAIT_SCALE times);
# then back at its top.
tui_plan_has() {
	_p=0
	while [ "$_p" -lt "${2:-8}" ]; do
		_m=$((10 * TUI_WAIT_SCALE))
		while [ "$_m" -gt 0 ]; do
			if tui_screen | grep -Eq -- "$1"; then
				while [ "$_p" -gt 0 ]; do
					tui_keys PPage
					_p=$((_p - 1))
				done
				return 0
			fi
			sleep 0.1
			_m=$((_m - 1))
		done
		tui_keys NPage
		_p=$((_p + 1))
	done
	tui_dump
	fail "the plan never showed /$1/"
}

# select_dev NAME: on the Disks screen, Down until the detail pane shows
# /dev/NAME, each step waiting for the pane to follow (no overshoot on a
# slow machine). A pane that does not change for 10 s is the end of the
# list (under load, and with ASan, a key can take seconds); then Up, in
# case devices that other tests attached or detached moved NAME above
# the selection.
select_dev() {
	_cur=$(tui_screen | grep -E '^/dev/' | head -n 1)
	_dir=Down
	for _i in $(seq 1 160); do
		case $_cur in "/dev/$1 "*) return 0 ;; esac
		tui_keys "$_dir"
		for _j in $(seq 1 200); do
			_new=$(tui_screen | grep -E '^/dev/' | head -n 1)
			[ "$_new" != "$_cur" ] && break
			sleep 0.05
		done
		if [ "$_new" = "$_cur" ]; then # an end of the list
			[ "$_dir" = Up ] && break
			_dir=Up
		fi
		_cur=$_new
	done
	tui_screen >&2
	fail "could not select $1"
}
