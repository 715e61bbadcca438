#!/bin/sh
# The Run screen's charts at 80x24 and 120x40, in colour, --ascii and
# NO_COLOR=1: each chart in a frame whose title ends in a whole figure
# (words go first, never a digit), a y scale down to 0, a time axis in
# seconds and a legend on the bottom border; without colour the areas
# and the finished variant's line have glyphs of their own, named in the
# legends. Opening another lab drops the finished variants of the last
# one. compilebench says which of its runs it is at, and when the last
# will be done.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

# mklab FILE NAME COUNT: two directory variants, a smallfiles workload.
mklab() {
	cat >"$1" <<EOF
name = "$2"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "$2a"; directory = "$TEST_TMP/$2a"; },
             { name = "$2b"; directory = "$TEST_TMP/$2b"; } );
workloads = ( { name = "w"; type = "smallfiles"; count = $3; dirs = 20; } );
EOF
}
mklab "$TEST_TMP/one.cfg" one 20000
mklab "$TEST_TMP/two.cfg" two 300000

# chart_rows: the screen's chart rows (from the first top border to the
# first bottom border).
chart_rows() {
	tui_screen | sed -n '/^[┌+]/,/^[└+]/p'
}

# check_charts: the two charts as the test wants them, or why not on
# stdout (status 1). Uses mode, mark, tl, bl.
check_charts() {
	c=$(chart_rows)
	top=$(printf '%s\n' "$c" | head -n 1)
	bottom=$(printf '%s\n' "$c" | tail -n 1)
	want="# write  : read"
	[ $mode = colour ] && want="$mark write  $mark read"
	# both titles end in a figure, then a blank and the border
	[ "$(printf '%s\n' "$top" | grep -Eo '[0-9.]+[kMG]? [─-]' | wc -l)" -ge 2 ] ||
		{ echo "titles do not end in figures: $top"; return 1; }
	printf '%s\n' "$top" | grep -q "^$tl" || { echo "no frame: $top"; return 1; }
	printf '%s\n' "$top" | grep -q "MB/s" || { echo "no MB/s title"; return 1; }
	printf '%s\n' "$top" | grep -q "files/s" || { echo "no files/s title"; return 1; }
	printf '%s\n' "$bottom" | grep -q "^$bl" || { echo "no bottom: $bottom"; return 1; }
	printf '%s\n' "$bottom" | grep -qF "$want" ||
		{ echo "legend '$want' not on the border: $bottom"; return 1; }
	printf '%s\n' "$bottom" | grep -qF "$mark oneb" ||
		{ echo "files/s legend: $bottom"; return 1; }
	# the y scale ends at 0; the time axis counts seconds
	printf '%s\n' "$c" | grep -Eq '^[│|] +0 ' || { echo "no 0 on the y scale"; return 1; }
	printf '%s\n' "$c" | grep -Eq '^[│|] +[0-9.]+[kMG]? ' ||
		{ echo "no top of the y scale"; return 1; }
	printf '%s\n' "$c" | grep -Eq '[0-9]+s *[│|] *[│|].*[0-9]+s *[│|]$' ||
		{ echo "no time axis under both charts"; return 1; }
	[ $mode = colour ] && return 0
	# without colour: the areas in '#', the finished line in '1', named
	tui_screen | grep -q '^1 line: onea (done)' ||
		{ echo "no '1 line: onea (done)'"; return 1; }
	printf '%s\n' "$c" | sed '1d;$d' | grep -q '#' || { echo "no '#' area"; return 1; }
	# (the grid only: below the title, above the time axis, after the
	# border and the y scale, before the files/s chart)
	printf '%s\n' "$c" | sed '1d' | head -n -2 |
		LC_ALL=C.UTF-8 sed 's/^.......//; s/[│|] [│|].*//' | grep -q 1 ||
		{ echo "no '1' line in the MB/s chart"; return 1; }
}

for mode in colour ascii nocolor; do
	for size in 80x24 120x40; do
		TUI_COLS=${size%x*} TUI_ROWS=${size#*x} TUI_ENV=
		w="$mode at $size"
		case $mode in
		colour) tui_start "$TEST_TMP/one.cfg"; mark='█' tl='┌' bl='└' ;;
		ascii) tui_start --ascii "$TEST_TMP/one.cfg"; mark='#' tl='+' bl='+' ;;
		nocolor) TUI_ENV=NO_COLOR=1 tui_start "$TEST_TMP/one.cfg"
			mark='#' tl='┌' bl='└' ;;
		esac
		tui_wait_for 'one'
		tui_keys F5
		# onea finishes, oneb draws with onea's line over it
		tui_wait_for 'line: onea \(done\)' 60
		tui_wait_for 'files/s (now )?[0-9]' 30
		# Polled: each frame is drawn whole, but the first ones of oneb
		# may not have a sample yet.
		n=$((200 * TUI_WAIT_SCALE))
		until why=$(check_charts); do
			n=$((n - 1))
			[ $n -gt 0 ] || { tui_dump; fail "$w: $why"; }
			sleep 0.1
		done
		tui_keys x
		tui_wait_for 'Stopped|Finished' 30
		if [ "$size$mode" = 80x24colour ]; then
			# ---- another lab: onea's line goes with it
			tui_keys "$(tui_tab 'Lab files')"
			tui_keys o
			tui_wait_for 'Open:'
			tui_text "$TEST_TMP/two.cfg"
			tui_keys Enter
			tui_wait_for 'Lab two'
			tui_keys "$(tui_tab Run)"
			tui_wait_for 'Press r to run'
			tui_wait_gone 'line: one'
			tui_keys F5
			tui_wait_for 'files/s (now )?[0-9]' 30
			tui_wait_for 'two[ab]'
			tui_screen | grep -q 'one[ab]' &&
				fail "another lab: the last lab's variants are still shown"
			tui_keys x
			tui_wait_for 'Stopped' 30
		fi
		tui_keys q
		tui_wait_exit >/dev/null
		tui_check_stderr
	done
done

# ---- compilebench: run N/M, and when the last will be done
TUI_COLS=120 TUI_ROWS=30 TUI_ENV=
cat >"$TEST_TMP/cb.cfg" <<EOF
name = "cb"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "cba"; directory = "$TEST_TMP/cba"; } );
workloads = ( { name = "cb"; type = "compilebench"; initial = 2; runs = 100000;
  files = 50; size = "200K"; sync = false; } );
EOF
tui_start "$TEST_TMP/cb.cfg"
tui_wait_for 'cb'
tui_keys F5
tui_wait_for 'run [0-9]+/100000, [0-9.]+ s, about [0-9]+ s to the last' 60
tui_keys x
tui_wait_for 'Stopped' 30
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
echo "tui charts: ok"
