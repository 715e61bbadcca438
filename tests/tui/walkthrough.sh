#!/bin/sh
# The walk-through of issue 14, in tmux, as a new user drives the TUI:
# make a new lab from nothing (F7 or n on Lab files) with a name and a
# description, compose two btrfs variants (raid1, then a clone as raid0)
# on two 256M scratch disks each, add a small smallfiles workload, run
# it to the end (F5), read both variants' figures on Compare, save where
# save-as suggests (the user's lab directory), quit, reopen the saved
# lab (by path, or from Lab files) and see its results on Compare again.
# Passes at 80x24, 120x40 and 200x60, in colour, with --ascii (nothing
# but ASCII on any screen) and with NO_COLOR=1 (no colour). After each:
# the saved lab checks with raidlab check and keeps its name and
# description, the record names both variants, nothing is left mounted
# and no loop device is left over the scratch files. Then: a verdict
# with its interval (figures chosen here) is ASCII under --ascii, and a
# new lab over unsaved changes asks first (Esc, d, s). Root: loop
# devices and btrfs.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

need_root
need_cmd jq
need_cmd mkfs.btrfs

export RAIDLAB_STATE_DIR="$TEST_TMP/state"
trap 'tui_stop; undo_run "$RAIDLAB_STATE_DIR" "$TEST_TMP"/p*/scratch; cleanup' EXIT

ABOUT="two btrfs profiles on scratch disks"
ESC=$(printf '\033')

T0=$(date +%s)
# step WHAT: where the walk is, with the seconds since the start (in the
# log, to read a failure or a slow step).
step() {
	echo "$pass: $1 (at $(($(date +%s) - T0)) s)"
}

keys() {
	for _k in "$@"; do
		tui_keys "$_k"
		sleep 0.05
	done
}

# The form row of a field: "label  value" right of the list's border.
field() {
	tui_screen | grep -E "[│|] ?$1 {2,}" | head -n 1
}

# field_is LABEL REGEX: wait until the field's value matches.
field_is() {
	_n=$((50 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		field "$1" | grep -Eq -- "$2" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_dump
	fail "$pass: field '$1' never matched /$2/ (got: $(field "$1"))"
}

# look: what the mode promises on the screen at hand. --ascii: only
# ASCII characters; NO_COLOR: no colour in the pane (bold and reverse
# stay); colour: some colour.
look() {
	case $mode in
	ascii)
		if tui_screen | LC_ALL=C grep -q '[^ -~]'; then
			tui_screen | LC_ALL=C grep -n '[^ -~]' >&2
			fail "$pass: $1: not ASCII with --ascii"
		fi
		;;
	nocolor)
		if tmx capture-pane -e -p -t "$TUI_SESSION" |
		    grep -Eq "$ESC\\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5|48;5|9[0-7])[;m]"; then
			fail "$pass: $1: colour with NO_COLOR=1"
		fi
		;;
	colour)
		tmx capture-pane -e -p -t "$TUI_SESSION" |
		    grep -Eq "$ESC\\[([0-9;]*;)?(3[0-7]|38;5|4[0-7]|48;5)[;m]" ||
			fail "$pass: $1: no colour at all in colour mode"
		;;
	esac
}

# walk N COLS ROWS MODE: one pass, in its own directories.
walk() {
	pass="pass $1 (${2}x$3 $4)"
	mode=$4
	TUI_COLS=$2
	TUI_ROWS=$3
	TUI_ENV=
	args=
	case $mode in
	ascii) args=--ascii ;;
	nocolor) TUI_ENV=NO_COLOR=1 ;;
	esac
	dir="$TEST_TMP/p$1"
	XDG_CONFIG_HOME="$dir/config"
	XDG_DATA_HOME="$dir/data"
	XDG_STATE_HOME="$dir/xstate"
	export XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME
	scratch="$dir/scratch"
	mkdir -p "$scratch"
	saved="$XDG_CONFIG_HOME/raidlab/labs/walk.cfg"

	# ---- 1. a new lab from nothing, named and described
	step "new lab"
	# shellcheck disable=SC2086 # args: no word or one
	tui_start $args
	tui_wait_for '^ 1 Disks +2 Compose +3 Workloads'
	tui_wait_layout "$TUI_ROWS"
	look Disks
	if [ $(($1 % 2)) = 1 ]; then
		tui_keys F7
	else
		tui_keys "$(tui_tab 'Lab files')"
		tui_wait_for '^Lab quick'
		tui_keys n
	fi
	tui_wait_for 'New empty lab, its name:'
	tui_text walk
	tui_keys Enter
	tui_wait_for '^Lab walk +\[unsaved changes\]'
	tui_wait_for 'File: \(not saved yet\)'
	tui_wait_for 'variants: none; workloads: none'
	tui_wait_for '0 variants, 0 workloads'
	tui_keys e
	tui_wait_for 'Description:'
	tui_keys C-u
	tui_text "$ABOUT"
	tui_keys Enter
	tui_wait_for "^Lab walk +\\[unsaved changes\\] +$ABOUT"
	look 'Lab files'

	# ---- 2. two btrfs variants on scratch disks
	step "compose"
	tui_keys "$(tui_tab Compose)"
	tui_wait_for '# no variants yet: press a to add one'
	tui_keys a
	tui_wait_for 'New variant'
	tui_keys C-u
	tui_text r1
	tui_keys Enter
	tui_wait_gone 'New variant'
	field_is name 'r1'
	# The form opens on the engine: md -> btrfs, raid1 its first level.
	field_is engine 'md'
	tui_keys Right
	field_is engine 'btrfs'
	field_is level 'raid1'
	field_is 'scratch disks' '2'
	field_is devices 'every scratch disk \(2\)'
	# level, metadata profile, devices, scratch disks, scratch size:
	# 1G -> 512M -> 256M (mkfs.btrfs wants more than 128M).
	keys Down Down Down Down Down Left Left
	field_is 'scratch size' '256M'
	keys Down Enter C-u
	tui_text "$scratch"
	tui_keys Enter
	# Too long for a narrow form, the path keeps its end in view.
	field_is 'scratch dir' "/tmp/.*/p$1/scratch( |\$)"
	tui_plan_has "mkfs.btrfs -f -d raid1 '<scratch:0>'"
	look 'Compose'
	# The second: a clone of the first, as raid0.
	keys Escape c
	tui_wait_for 'Clone as'
	tui_keys C-u
	tui_text r0
	tui_keys Enter
	tui_wait_for '^  r0 '
	field_is name 'r0'
	# name, description, target, engine, level: raid1 -> raid0.
	keys Tab g Down Down Down Down Left
	field_is level 'raid0'
	field_is 'scratch size' '256M'
	tui_plan_has "mkfs.btrfs -f -d raid0 '<scratch:0>'"
	tui_keys Escape

	# ---- 3. one small workload
	step "workload"
	tui_keys "$(tui_tab Workloads)"
	tui_wait_for 'none: a adds one'
	tui_keys a
	tui_wait_for 'Add a workload'
	keys Down Enter
	tui_wait_for 'Workload smallfiles'
	# Named after its type, the list shows the name once, whole.
	tui_wait_for '^ +smallfiles +[│|]'
	field_is count '1000'
	# The lab's repeats, order, cache, then the workload's name, count.
	keys Tab g Down Down Down Down
	tui_wait_for 'count: files to write'
	keys Enter C-u
	tui_text 200
	tui_keys Enter
	field_is count '200'
	# Three rounds, the fewest that give the verdicts an interval: a
	# new lab's own (repeats is the form's first field).
	keys g
	field_is repeats '3'
	look Workloads

	# ---- 4. run it to the end
	step "run"
	tui_keys F5
	tui_wait_for 'run done: 6 runs, 0 failed' 90
	tui_wait_for '^Finished\.'
	look Run
	rec=$(ls "$XDG_DATA_HOME"/raidlab/results/walk-*.json 2>/dev/null)
	[ -n "$rec" ] && [ "$(printf '%s\n' "$rec" | wc -l)" = 1 ] ||
		fail "$pass: not one record walk-*.json: $rec"
	expect_eq "$pass: record status" "$(jq -r .status "$rec")" ok
	expect_eq "$pass: record variants" \
		"$(jq -r '[.runs[].variant.name] | unique | join(" ")' "$rec")" \
		"r0 r1"

	# ---- 5. compare: both variants, each with its figure
	step "compare"
	tui_keys "$(tui_tab Compare)"
	tui_wait_for 'Added 2 rows'
	compare_rows
	look Compare

	# ---- 6. save where save-as suggests; quit
	step "save"
	tui_keys "$(tui_tab 'Lab files')"
	tui_wait_for '^Lab walk'
	tui_keys s
	tui_wait_for "Save as: $saved"
	tui_keys Enter
	tui_wait_for "Saved to $saved"
	tui_wait_for "File: $saved"
	tui_wait_gone 'unsaved changes'
	if [ "$mode" = ascii ]; then
		tui_keys F10
	else
		tui_keys q
	fi
	expect_eq "$pass: quit: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
	"$RAIDLAB" check "$saved" >"$dir/check.out" 2>&1 ||
		fail "$pass: the saved lab does not check: $(cat "$dir/check.out")"
	grep -q '^name = "walk";' "$saved" || fail "$pass: no name in $saved"
	grep -q "^description = \"$ABOUT\";" "$saved" ||
		fail "$pass: no description in $saved"

	# ---- 7. reopen: the results come back on Compare
	step "reopen"
	if [ $(($1 % 2)) = 1 ]; then
		tui_start $args "$saved"
	else
		tui_start $args
		tui_wait_for '^ 1 Disks'
		tui_keys "$(tui_tab 'Lab files')"
		tui_wait_for '^ Recent labs'
		# Listed by its name; its path may lose its start.
		tui_wait_for '^    walk +.*/raidlab/labs/walk\.cfg *$'
		# The open lab (quick) is selected, below the three md-* presets:
		# the recent one is four up.
		tui_keys Up Up Up Up Enter
	fi
	tui_wait_for ' walk *$'
	tui_keys "$(tui_tab Compare)"
	tui_wait_for 'Lab walk: its latest results'
	compare_rows
	look 'Compare again'
	tui_keys q
	expect_eq "$pass: reopened: exit status" "$(tui_wait_exit)" 0
	tui_check_stderr
	tui_stop

	# ---- nothing left behind
	left=$(run_mounts "$RAIDLAB_STATE_DIR")
	[ -z "$left" ] || fail "$pass: still mounted: $left"
	left=$(losetup -n -O NAME,BACK-FILE | grep -F "$TEST_TMP/" || true)
	[ -z "$left" ] || fail "$pass: loop devices left: $left"
}

# compare_rows: the baseline row r1 and the row r0, each with the mean
# of its rounds in the record (files/s) in the table, written as
# the Compare screen writes figures: 2 decimals under 100, 1 under 10000.
compare_rows() {
	for v in r1 r0; do
		f=$(jq -r --arg v "$v" '[.runs[] | select(.variant.name == $v) |
		    .tests[0].value] | add / length' "$rec")
		[ -n "$f" ] && [ "$f" != null ] || fail "$pass: no figure for $v"
		f=$(awk -v f="$f" 'BEGIN { a = f < 0 ? -f : f;
		    printf(a < 100 ? "%.2f" : a < 10000 ? "%.1f" : "%.0f", f) }')
		tui_wait_for "^[B ] $v~ .* \\*?$f( |\$)"
	done
}

n=0
for size in 80x24 120x40 200x60; do
	for mode in colour ascii nocolor; do
		# NO_COLOR at 80x24 and 200x60; --ascii at 80x24 and 120x40.
		case $size.$mode in
		120x40.nocolor | 200x60.ascii) continue ;;
		esac
		n=$((n + 1))
		walk "$n" "${size%x*}" "${size#*x}" "$mode"
		echo "walk-through: pass $n ($size $mode): ok"
	done
done
# ---- a verdict with an interval, with --ascii: the last pass's lab
# reopened on a record made from its own, with figures chosen here (r1
# at 100 +-1 files/s, r0 at 150 +-2: +50%, certain), an hour newer so
# that it is the lab's latest. Measured figures may prove no change,
# which has no interval to print.
jq --arg when "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)" '
	.created = $when |
	{ r1: [100, 101, 99], r0: [150, 152, 148] } as $v |
	.runs |= map(. as $r | .tests |= map(.wall = 1.0 |
	    .value = $v[$r.variant.name][$r.repeat - 1]))' "$rec" \
	>"$XDG_DATA_HOME/raidlab/results/walk-fixed.json" ||
	fail "jq: the record with chosen figures"
pass="verdict (--ascii)"
mode=ascii
TUI_COLS=100
TUI_ROWS=30
TUI_ENV=
tui_start --ascii "$saved"
tui_wait_for ' walk *$'
tui_keys "$(tui_tab Compare)"
tui_wait_for 'Lab walk: its latest results \(.*walk-fixed\.json\)'
tui_wait_for '^  r0~ +\+50\.0% \+-[0-9.]+% .*150\.0 \+-2\.00'
look Compare
tui_keys q
expect_eq "$pass: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
# ---- a new lab over unsaved changes: asked as opening a lab asks
# (it used to refuse, and the name typed next ran as keys). Esc keeps
# the lab and its changes; d discards them for the new lab; s saves
# them first (where save-as suggests), then asks the new lab's name.
pass="new lab over changes"
mode=colour
tui_start "$saved"
tui_wait_for ' walk *$'
tui_keys "$(tui_tab Compose)"
tui_wait_for '^  r0 '
tui_keys d
tui_wait_for 'Delete variant r1\? y/n'
tui_keys y
tui_wait_for ' walk \*$'
tui_keys F7
tui_wait_for 'The lab walk has changes that are not saved\.'
tui_wait_for 's  save them, then make the new lab'
tui_wait_for 'd  discard them and make the new lab'
tui_keys Escape
tui_wait_gone 'Unsaved changes'
tui_wait_for '^Lab walk +\[unsaved changes\]'
tui_wait_for 'variants: r0;'
tui_keys n
tui_wait_for 'd  discard them and make the new lab'
tui_keys d
tui_wait_for 'New empty lab, its name:'
tui_text fresh
tui_keys Enter
tui_wait_for '^Lab fresh +\[unsaved changes\]'
tui_wait_for 'variants: none; workloads: none'
grep -q 'name = "r1";' "$saved" || fail "$pass: d changed $saved"
# The new lab changed (its description), then another: s saves it.
tui_keys e
tui_wait_for 'Description:'
tui_text "kept"
tui_keys Enter
tui_keys F7
tui_wait_for 's  save them, then make the new lab'
tui_keys s
tui_wait_for "Save as: $XDG_CONFIG_HOME/raidlab/labs/fresh\.cfg"
tui_keys Enter
tui_wait_for 'New empty lab, its name:'
grep -q '^description = "kept";' "$XDG_CONFIG_HOME/raidlab/labs/fresh.cfg" ||
	fail "$pass: s did not save the lab first"
tui_text second
tui_keys Enter
tui_wait_for '^Lab second +\[unsaved changes\]'
tui_keys q
tui_wait_for 'Unsaved changes'
tui_keys d
expect_eq "$pass: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui walkthrough: ok"
