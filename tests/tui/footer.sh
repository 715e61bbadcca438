#!/bin/sh
# The status bar as in htop: each screen's own keys first, then the global
# ones; when the width runs out whole entries go (the global ones first,
# then the screen's from its last; F1 help stays), never one cut in the
# middle. Every screen at 200x60, 120x40, 80x24 and 60x18, in colour, with
# --ascii and with NO_COLOR=1.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

export XDG_DATA_HOME="$TEST_TMP/xdg"
export XDG_CONFIG_HOME="$TEST_TMP/config"
lab="$TEST_TMP/lab.cfg"
cat >"$lab" <<EOF2
name = "tuifoot"; cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/target"; } );
workloads = ( { name = "few"; type = "smallfiles"; counts = [10]; dirs = 1; } );
EOF2

# Each screen's entries in the order shown (a key and its word), and
# those it must show even at 60 and 80 columns.
screens='Disks Compose Workloads Run Compare Lab_files'
own_Disks='m member|s spare|a all|r rescan|Up/Down select'
need_Disks='m member|s spare'
own_Compose='Enter edit|a add|c clone|r rename|d delete|Left/Right change|K/J move|Esc back'
need_Compose='Enter edit|a add|c clone|r rename|d delete'
own_Workloads='Enter edit|a add|r rename|d delete|Left/Right change|K/J move|Esc back'
need_Workloads='Enter edit|a add|r rename|d delete'
own_Run='r run|x stop|l log|o other lines|c clear'
need_Run='r run|x stop'
own_Compare='a add|b baseline|Del remove|v view|y copy|w/W report|Left/Right test|t method|L latency'
need_Compare='a add|b baseline|Del remove|v view|y copy'
own_Lab_files='Enter open|s save|w save as|n new|a name|N copy|e describe|o path'
need_Lab_files='Enter open|s save|w save as|n new|a name'

# NO_COLOR=1 through a wrapper: tui_start clears it.
nocolor="$TEST_TMP/raidlab-nocolor"
printf '#!/bin/sh\nNO_COLOR=1 exec "%s" "$@"\n' "$RAIDLAB" >"$nocolor"
chmod +x "$nocolor"

bad="$TEST_TMP/bad"
: >"$bad"

# footer ROWS: the status bar row, as text.
footer() {
	tui_screen | sed -n "$1p"
}

# check MODE SCREEN COLS ROWS: the status bar now shown, entry by entry.
check() {
	eval "_own=\$own_$2 _need=\$need_$2"
	case $3 in
	200) _need="$_own|$globals" ;;
	120) _need="$_own|F1 help" ;;
	*) _need="$_need|F1 help" ;;
	esac
	footer "$4" | awk -v own="$_own" -v glob="$globals" -v need="$_need" \
		-v where="$1 $2 $3x$4" -v cols="$3" '
	{ line = $0 }
	END {
		n = split(own, o, "|")
		g = split(glob, gl, "|")
		for (i = 1; i <= n; i++) pos[o[i]] = i
		for (i = 1; i <= g; i++) pos[gl[i]] = n + i
		if (length(line) > cols)
			print where ": wider than the terminal: " line
		sub(/^ +/, "", line)
		sub(/ +$/, "", line)
		k = split(line, p, /  +/)
		last = 0
		for (i = 1; i <= k; i++) {
			if (!(p[i] in pos)) {
				print where ": an entry cut or unknown: \"" \
				    p[i] "\" in \"" line "\""
				continue
			}
			if (pos[p[i]] < last)
				print where ": out of order: \"" p[i] \
				    "\" in \"" line "\""
			last = pos[p[i]]
			seen[p[i]] = 1
		}
		m = split(need, r, "|")
		for (i = 1; i <= m; i++)
			if (!(r[i] in seen))
				print where ": \"" r[i] "\" missing from \"" \
				    line "\""
		# The global ones go first: one of them (but help) shown
		# means every entry of the screen is.
		for (i = 2; i <= g; i++)
			for (j = 1; (gl[i] in seen) && j <= n; j++)
				if (!(o[j] in seen))
					print where ": \"" gl[i] "\" shown, \"" \
					    o[j] "\" dropped: \"" line "\""
	}' >>"$bad"
}

for mode in colour ascii nocolor; do
	TUI_COLS=200 TUI_ROWS=60
	case $mode in
	colour) tui_start "$lab" ;;
	ascii) tui_start --ascii "$lab" ;;
	nocolor) RAIDLAB=$nocolor tui_start "$lab" ;;
	esac
	tui_wait_for 'tuifoot'
	tui_wait_layout 60
	# The tabs' number keys, read at full width.
	for s in $screens; do
		eval "tab_$s=\$(tui_tab \"\$(echo $s | tr _ ' ')\")"
		eval "[ -n \"\$tab_$s\" ]" || fail "no tab $s in the header"
	done
	globals="F1 help|q/F10 quit|F5 run|M mouse|1-$(tui_screen | head -n 1 |
		grep -Eo '[0-9] [A-Z]' | tail -n 1 | cut -c1) screens"
	# On Lab files before the first size's prev is read: a key still
	# queued would leave the start screen's bar there, and the switch to
	# that screen would then look like no change. Not fatal: the start
	# screen may be Lab files itself.
	start=$(footer 60)
	tui_keys "$tab_Lab_files"
	n=$((30 * TUI_WAIT_SCALE))
	while [ "$(footer 60)" = "$start" ] && [ $n -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
	done
	for size in 200x60 120x40 80x24 60x18; do
		cols=${size%x*} rows=${size#*x}
		# From the last screen, so that each key changes the bar.
		tui_keys "$tab_Lab_files"
		tui_resize "$cols" "$rows"
		tui_wait_layout "$rows"
		prev=$(footer "$rows")
		for s in $screens; do
			eval "tui_keys \$tab_$s"
			n=$((100 * TUI_WAIT_SCALE))
			while [ "$(footer "$rows")" = "$prev" ] && [ $n -gt 0 ]; do
				sleep 0.1
				n=$((n - 1))
			done
			[ $n -gt 0 ] || {
				tui_dump
				fail "$mode $size: the status bar stayed on switching to $s"
			}
			prev=$(footer "$rows")
			check "$mode" "$s" "$cols" "$rows"
		done
	done
	if [ "$mode" = ascii ]; then
		# --ascii: each screen's F1 help is plain ASCII too (Compare's
		# keys name their "+-" and "!=" marks)
		tui_resize 200 60
		tui_wait_layout 60
		for s in $screens; do
			eval "tui_keys \$tab_$s"
			tui_keys F1
			tui_wait_for 'q F10'
			tui_screen | LC_ALL=C grep -q '[^ -~]' &&
				echo "ascii: $s's help is not ASCII:" \
				"$(tui_screen | LC_ALL=C grep '[^ -~]' | head -n 2)" >>"$bad"
			tui_keys Escape
			tui_wait_gone 'q F10'
		done
	fi
	if [ "$mode" = nocolor ]; then
		# Without colours the keys still stand out (bold) on the bar.
		tmx capture-pane -t "$TUI_SESSION" -e -p | sed -n "${rows}p" |
			grep -Eq "$(printf '\033')\\[([0-9]+;)*1(;[0-9]+)*mEnter" ||
			echo "nocolor: the keys are not bold on the status bar" >>"$bad"
	fi
	tui_keys q
	expect_eq "$mode: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
	tui_stop
done
if [ -s "$bad" ]; then
	cat "$bad" >&2
	fail "the status bar: $(wc -l <"$bad") problems"
fi
