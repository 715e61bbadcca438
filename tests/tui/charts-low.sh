#!/bin/sh
# Run charts without colour or UTF-8 (a C locale; NO_COLOR=1): a series
# near zero on the scale another sets draws '.' on the bottom row, never
# a full row of '#' (which reads as a figure of a row's height). 1-byte
# files, then 8M ones: the big files' MB/s sets the scale (thousands of
# times the small ones'), so the small files' MB/s is near zero all
# along, while their files/s is not and draws '#'.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

cat >"$TEST_TMP/low.cfg" <<EOF2
name = "low"; cache = "keep"; results = "$TEST_TMP/results";
variants = ( { name = "dir"; directory = "$TEST_TMP/dir"; } );
workloads = (
  { name = "tiny"; type = "smallfiles"; count = 8000; size = "1";
    write_size = "1"; dirs = 2; },
  { name = "big"; type = "smallfiles"; count = 20; size = "8M";
    write_size = "1M"; dirs = 1; } );
EOF2

TUI_COLS=200 TUI_ROWS=30
gw=$(((TUI_COLS - 1) / 2 - 8))
# grid N: the grid of chart N (0: MB/s, 1: files/s), one line a row:
# below the title border, above the time axis, after the border and
# the y scale (7 columns).
grid() {
	printf '%s\n' "$s" | sed -n '/^[┌+]/,/^[└+]/p' | sed '1d' | head -n -2 |
		LC_ALL=C.UTF-8 sed "s/^.\{$(($1 * (gw + 9) + 7))\}\(.\{$gw\}\).*/\1/"
}

# lone: the most columns in a row whose only mark is a '#' on the bottom
# row (one may be the sample the big files start in), while only the
# small files ran: left of the first column the big files draw higher
# (their own last samples, at a few percent of the peak, are a row of
# '#' rightly).
lone() {
	awk '{ r[NR] = $0 } END {
		for (c = 1; c <= length(r[NR]); c++) {
			for (i = 1; i < NR; i++)
				if (substr(r[i], c, 1) == "#")
					break
			if (i < NR)
				break
			alone = substr(r[NR], c, 1) == "#"
			for (i = 1; i < NR && alone; i++)
				if (substr(r[i], c, 1) != " ")
					alone = 0
			run = alone ? run + 1 : 0
			if (run > most)
				most = run
		}
		print most + 0
	}'
}

for mode in locale nocolor; do
	case $mode in
	locale) TUI_ENV=LC_ALL=C ;;
	nocolor) TUI_ENV=NO_COLOR=1 ;;
	esac
	tui_start "$TEST_TMP/low.cfg"
	tui_wait_for 'low'
	tui_keys F5
	tui_wait_for 'Finished|Stopped' 120
	s=$(tui_screen)
	printf '%s\n' "$s" | grep -q 'Finished' ||
		{ tui_dump; fail "$mode: the run did not finish"; }
	mbs=$(grid 0)
	# the big files draw '#' above the bottom row
	printf '%s\n' "$mbs" | head -n -1 | grep -q '#' ||
		{ tui_dump; fail "$mode: the big files' MB/s draws no '#'"; }
	# the small files': dots on the bottom row, no row of '#'
	printf '%s\n' "$mbs" | tail -n 1 | grep -q '\.' ||
		{ tui_dump; fail "$mode: no '.' for the small files' MB/s"; }
	n=$(printf '%s\n' "$mbs" | lone)
	[ "$n" -le 1 ] ||
		{ tui_dump; fail "$mode: a near-zero MB/s is a row of $n '#'"; }
	grid 1 | grep -q '#' ||
		{ tui_dump; fail "$mode: the small files' files/s draws no '#'"; }
	tui_keys q
	tui_wait_exit >/dev/null
	tui_check_stderr
done
echo "tui charts-low: ok"
