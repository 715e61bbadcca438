#!/bin/sh
# The mouse on the lists, in tmux at 80x24 (colour and --ascii) and 120x40:
# a click on a row selects that row (Lab files, Disks, Compose's variants
# and its device picker, Workloads, Compare's table and its picker of
# record files); a second click on the selected row does what Enter does
# where that is harmless (opens a lab, gives the form the keys, adds a
# record file; in the device picker, the next mark as Space gives); the
# wheel scrolls the pane under the pointer (Compose's plan, the list
# while the form has the keys); with the mouse off (M), clicks do nothing.
# A click whose release comes late counts once, and the next one too.
# Nothing on stderr (sanitizers).
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_cmd jq

XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
XDG_CONFIG_HOME="$TEST_TMP/config"
export XDG_STATE_HOME XDG_DATA_HOME XDG_CONFIG_HOME
TUI_COLS=80
TUI_ROWS=24

# The mouse as the terminal reports it (X10 encoding, what ncurses reads
# for TERM=screen: ESC [ M, then button+32, column+33, row+33), 0-based.
# mouse_seq BUTTON COL ROW: 0 press, 3 release, 64 wheel up, 65 down.
mouse_seq() {
	printf '\033[M'
	printf "\\$(printf %o $((32 + $1)))"
	printf "\\$(printf %o $((33 + $2)))"
	printf "\\$(printf %o $((33 + $3)))"
}
# mouse_ev BUTTON COL ROW: one report, sent alone.
mouse_ev() {
	tmx send-keys -t "$TUI_SESSION" -l "$(mouse_seq "$@")"
}
# click COL ROW: a press, then its release, sent apart as a terminal
# sends them: on a busy machine the release may come later than ncurses'
# click interval, and the press alone is then the click.
click() {
	mouse_ev 0 "$1" "$2"
	mouse_ev 3 "$1" "$2"
}
# dclick COL ROW: a double click, arriving whole (a fast hand, a slow
# link): ncurses makes one event of it.
dclick() {
	_c=$(mouse_seq 0 "$1" "$2")$(mouse_seq 3 "$1" "$2")
	tmx send-keys -t "$TUI_SESSION" -l "$_c$_c"
}
# click_key COL ROW BYTES: a click and a key right behind it, arriving
# together: ncurses then hands out the click's release alone.
click_key() {
	tmx send-keys -t "$TUI_SESSION" -l \
		"$(mouse_seq 0 "$1" "$2")$(mouse_seq 3 "$1" "$2")$3"
}

# The highlighted text of each body row that has some (the selection
# colour, black on white, or reverse video), one a line, trimmed.
sel_text() {
	tmx capture-pane -t "$TUI_SESSION" -p -e | sed '1d;$d' | awk '
	{
		n = match($0, /\033\[30m\033\[47m|\033\[7m/)
		if (n == 0)
			next
		s = substr($0, n + RLENGTH)
		sub(/\033\[.*/, "", s)
		gsub(/^ +| +$/, "", s)
		if (s != "")
			print s
	}'
}

# The screen line (1-based, as grep -n counts) of the first highlighted
# body row.
sel_line() {
	tmx capture-pane -t "$TUI_SESSION" -p -e | sed '$d' | awk '
	NR > 1 && /\033\[30m\033\[47m|\033\[7m/ { print NR; exit }'
}

# wait_sel_at LINE: until the highlighted row is screen line LINE.
wait_sel_at() {
	_n=$((100 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		[ "$(sel_line)" = "$1" ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "the highlighted row never was line $1 (it is $(sel_line))"
}

# wait_sel ERE: until the first highlighted text matches (10 s, scaled).
wait_sel() {
	_n=$((100 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		sel_text | head -n 1 | grep -Eq -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	echo "---- highlighted: $(sel_text | head -n 1)" >&2
	fail "the highlighted row never matched /$1/"
}

# wait_pick ERE: like wait_sel, for a picker: it opens at its field, and
# the field (highlighted too) comes first on the screen.
wait_pick() {
	_n=$((100 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		sel_text | grep -Eq -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	echo "---- highlighted: $(sel_text | tr '\n' '|')" >&2
	fail "no highlighted row matched /$1/"
}

# row_text ROW COL0 COL1: screen row ROW (0-based), columns COL0..COL1
# (1-based, as cut counts), trimmed.
row_text() {
	tui_screen | sed -n "$(($1 + 1))p" | cut -c"$2-$3" |
		sed 's/^ *//; s/ *$//'
}

goto() {
	_n=$(tui_screen | head -n 1 | grep -Eo "[0-9] $1" | cut -c1)
	[ -n "$_n" ] || fail "no '$1' tab in the header"
	tui_keys "$_n"
}

# A lab of 26 directory variants (more than Compose's list shows at
# 80x24), one md variant on scratch disks (for the device picker), and
# three workloads.
lab="$TEST_TMP/lab.cfg"
{
	cat <<EOF2
name = "tuimouse"; cache = "keep"; repeats = 2;
results = "$TEST_TMP/results";
defaults = { scratch = { count = 3; size = "64M"; dir = "$TEST_TMP"; }; };
variants = (
  { name = "md1"; array = { level = "1"; devices = [ "scratch:0", "scratch:1" ]; };
    fs = { type = "ext4"; }; },
EOF2
	for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 \
		20 21 22 23 24; do
		echo "  { name = \"v$i\"; directory = \"$TEST_TMP/t$i\"; },"
	done
	cat <<EOF2
  { name = "vlast"; directory = "$TEST_TMP/tl"; }
);
workloads = (
  { name = "w1"; type = "smallfiles"; counts = [20]; dirs = 1; },
  { name = "w2"; type = "smallfiles"; counts = [30]; dirs = 1; },
  { name = "w3"; type = "smallfiles"; counts = [40]; dirs = 1; }
);
EOF2
} >"$lab"

# Records of a two-variant directory lab (no root: cache "keep"), three,
# for Compare: the newest joins the table when the lab is opened.
ab_lab "$TEST_TMP/cmp.cfg" tuimousecmp 2 '{ name = "small";
    type = "smallfiles"; counts = [40]; size = "1K"; dirs = 2; }'
for i in 1 2 3; do
	"$RAIDLAB" run "$TEST_TMP/cmp.cfg" >"$TEST_TMP/run$i.out" 2>&1 ||
		fail "raidlab run: $(cat "$TEST_TMP/run$i.out")"
	[ "$i" = 3 ] || sleep 1 # another record name
done
expect_eq "three records" "$(ls "$TEST_TMP"/results/tuimousecmp-*.json |
	wc -l)" 3


for opt in "" --ascii; do
	what=${opt:-colour}
	tui_start $opt "$lab"
	tui_wait_layout 24

	# ---- Disks: a click on the second device selects it (when this
	# machine lists two). Other tests attach and detach loop devices
	# meanwhile: a click that met a list that changed under it is tried
	# again; one on a list that stayed must have selected its row.
	want=$(row_text 3 3 80)
	if [ -n "$want" ]; then
		_k=0
		while :; do
			dev=$(printf '%s' "$want" | cut -d' ' -f1)
			click 3 3
			_n=$((20 * TUI_WAIT_SCALE))
			until sel_text | head -n 1 | grep -q "^$dev " ||
				[ "$_n" -le 0 ]; do
				sleep 0.1
				_n=$((_n - 1))
			done
			[ "$_n" -gt 0 ] && break
			now=$(row_text 3 3 80)
			_k=$((_k + 1))
			[ "$now" != "$want" ] && [ $_k -lt 10 ] || {
				tui_dump
				fail "$what: a click on row 3 ($dev) did not select it"
			}
			want=$now
		done
	else
		echo "note: one device listed: the Disks click is not checked" >&2
	fi

	# ---- Compose: a click on a row of the variants selects it, the
	# list scrolled or not.
	goto Compose
	wait_sel '^md1$'
	want=$(row_text 5 3 18)
	click 3 5
	wait_sel "^$want\$"
	tui_keys End
	wait_sel '^vlast$'
	want=$(row_text 2 3 18)
	[ "$want" != md1 ] || fail "$what: the variants did not scroll"
	click 3 2
	wait_sel "^$want\$"
	# A second click on it gives the form the keys, as Enter does: the
	# row is underlined, no longer in the selection colour.
	click 3 2
	tui_wait_for "^  $want +(│|\|)name +$want"
	_n=100
	until tmx capture-pane -t "$TUI_SESSION" -p -e |
		grep -q "$(printf '\033')\\[1;4m  $want "; do
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || fail "$what: a second click: no form focus"
		sleep 0.1
	done
	# The wheel over the list moves its selection, the form's keys or not.
	next=$(row_text 3 3 18)
	mouse_ev 65 3 8
	wait_sel "^$next\$"
	mouse_ev 64 3 8
	wait_sel "^$want\$"

	# ---- Compose: the wheel over the plan scrolls the plan, not the
	# variants.
	tui_keys Home
	wait_sel '^md1$'
	tui_wait_for '^# variant md1$'
	plan=$(tui_screen | grep -n '^ Plan ' | cut -d: -f1)
	second=$(row_text "$((plan + 1))" 1 80)
	mouse_ev 65 10 "$((plan + 2))"
	tui_wait_for "^$(printf '%s' "$second" | sed 's/[][\\.*^$()+?{}|]/\\&/g')"
	expect_eq "$what: the wheel on the plan: the variant" \
		"$(sel_text | head -n 1)" md1
	mouse_ev 64 10 "$((plan + 2))"
	tui_wait_for '^# variant md1$'

	# ---- Compose's device picker: a click selects a device; a second
	# click on it gives it the next mark, as Space does. Esc: no change.
	dev=$(tui_screen | grep -En "(│|\|)devices " | cut -d: -f1)
	[ -n "$dev" ] || fail "$what: no devices field"
	click 25 "$((dev - 1))"
	tui_keys Enter
	tui_wait_for 'Members and spares'
	row=$(tui_screen | grep -n '\[ \] scratch:2' | cut -d: -f1)
	[ -n "$row" ] || fail "$what: no scratch:2 in the picker"
	col=$(tui_screen | sed -n "${row}p" | awk '{ print index($0, "scratch:2") }')
	click "$col" "$((row - 1))"
	wait_pick '^\[ \] scratch:2 '
	click "$col" "$((row - 1))"
	wait_pick '^\[M\] scratch:2 '
	tui_keys Escape
	tui_wait_gone 'Members and spares'
	tui_wait_for '(│|\|)devices +scratch:0 scratch:1 *$'

	# ---- Workloads: a click selects, a second click gives the form
	# the keys, the wheel over the list moves it while the form has them.
	goto Workloads
	tui_wait_for '^Workloads '
	row=$(tui_screen | grep -n '^ w3 ' | cut -d: -f1)
	click 3 "$((row - 1))"
	wait_sel '^w3 \(smallfiles\)$'
	tui_wait_for '(│|\|) Workload w3'
	click 3 "$((row - 1))"
	wait_sel '^[^ ]* ?2 ?[^ ]*$' # the form's first field: repeats
	mouse_ev 64 3 "$((row - 1))"
	wait_sel '^w2 \(smallfiles\)$'
	# Slow clicks: the release sent only once the press has acted, so
	# later than ncurses' click interval (a busy machine, a slow link).
	# Such a click counts once, and the click right after it counts too:
	# a second click on the row, it gives the form the keys.
	row=$(tui_screen | grep -n '^ w1 ' | cut -d: -f1)
	mouse_ev 0 3 "$((row - 1))"
	wait_sel '^w1 \(smallfiles\)$'
	mouse_ev 3 3 "$((row - 1))"
	click 3 "$((row - 1))"
	wait_sel '^[^ ]* ?2 ?[^ ]*$'
	# A slow second click gives the form the keys at its press; its late
	# release leaves them there: Down moves to the form's next field.
	tui_keys Escape
	wait_sel '^w1 \(smallfiles\)$'
	mouse_ev 0 3 "$((row - 1))"
	wait_sel '^[^ ]* ?2 ?[^ ]*$'
	mouse_ev 3 3 "$((row - 1))"
	tui_keys Down
	wait_sel '^[^ ]* ?interleaved ?[^ ]*$' # order, under repeats
	# A click with a key right behind it (a fast hand) is a click too:
	# it selects w2, then Down (keypad mode: ESC O B) selects w3.
	tui_keys Escape
	wait_sel '^w1 \(smallfiles\)$'
	row=$(tui_screen | grep -n '^ w2 ' | cut -d: -f1)
	click_key 3 "$((row - 1))" "$(printf '\033OB')"
	wait_sel '^w3 \(smallfiles\)$'

	# ---- Lab files: a click selects a lab, a second click opens it.
	goto 'Lab files'
	tui_wait_for '^Open a lab'
	row=$(tui_screen | grep -n '^    seed-001-' | cut -d: -f1)
	[ -n "$row" ] || fail "$what: no preset seed-001 listed"
	click 6 "$((row - 1))"
	wait_sel '^seed-001-'
	mouse_ev 65 6 "$((row - 1))"
	wait_sel '^seed-002-'
	mouse_ev 64 6 "$((row - 1))"
	wait_sel '^seed-001-'
	click 6 "$((row - 1))"
	tui_wait_for '^Lab seed-001-'
	tui_keys q
	expect_eq "$what: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr

	# ---- Compare: a click on a row of the table selects it; in the
	# picker, a click selects a record file and a second one adds it.
	tui_start $opt "$TEST_TMP/cmp.cfg"
	tui_wait_layout 24
	goto Compare
	tui_wait_for '^ +Variant '
	row=$(tui_screen | grep -n '^[B ] beta' | head -n 1 | cut -d: -f1)
	[ -n "$row" ] || fail "$what: no beta row on Compare"
	click 3 "$((row - 1))"
	wait_sel '^beta'
	row=$(tui_screen | grep -n '^[B ] alpha' | head -n 1 | cut -d: -f1)
	click 3 "$((row - 1))"
	wait_sel '^alpha'
	tui_keys a
	tui_wait_for 'Add results from'
	row=$(tui_screen | grep -En '^\[ \] .* tuimousecmp ' | sed -n 2p |
		cut -d: -f1)
	[ -n "$row" ] || fail "$what: the picker lacks the second record"
	click 6 "$((row - 1))"
	wait_sel_at "$row"
	click 6 "$((row - 1))"
	tui_wait_for "Added [0-9]+ rows from .*tuimousecmp-"
	tui_wait_gone 'Add results from'
	# A double click on another row adds that one.
	tui_keys a
	tui_wait_for 'Add results from'
	wait_sel_at "$((row - 1))"
	row=$(tui_screen | grep -En '^\[ \] .* tuimousecmp ' | sed -n 3p |
		cut -d: -f1)
	[ -n "$row" ] || fail "$what: the picker lacks the third record"
	dclick 6 "$((row - 1))"
	tui_wait_for "Added [0-9]+ rows from .*tuimousecmp-"
	tui_wait_gone 'Add results from'

	# ---- M: the mouse off, a click selects nothing.
	goto Compose
	wait_sel '^alpha$'
	tui_keys M
	tui_wait_for 'mouse off: the terminal selects text'
	click 3 3
	tui_keys Down # after the click: its effect, if any, is on screen
	wait_sel '^beta$'
	tui_keys M
	tui_wait_for 'mouse on'
	click 3 2
	wait_sel '^alpha$'
	tui_keys q
	expect_eq "$what: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
done

# ---- 120x40: the plan is the right pane; the wheel over it scrolls it,
# over the form it leaves the variant alone.
TUI_COLS=120
TUI_ROWS=40
tui_start "$lab"
tui_wait_layout 40
goto Compose
wait_sel '^md1$'
tui_wait_for '(│|\|) # variant md1 *$'
mouse_ev 65 90 5
tui_wait_for '(│|\|) # scratch: functional'
tui_wait_gone '# variant md1'
mouse_ev 65 40 5
tui_keys Escape
wait_sel '^md1$'
mouse_ev 64 90 5
tui_wait_for '(│|\|) # variant md1 *$'
tui_keys q
expect_eq "120x40: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui mouse: ok"
