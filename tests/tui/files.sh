#!/bin/sh
# The Lab files and Compare screens, in tmux. Lab files: a lab saved under
# a new path (the presets are templates: save asks where), quit, reopened
# with `raidlab tui PATH` shows its name and variants and is listed first
# among the recent labs; a preset opened from the list; a lab that does
# not load shows file:line: field: reason and the lab in the editor stays.
# Compare: a two-variant directory lab run twice headless (no root: cache
# "keep"), both records added through the picker, every variant of both
# with numbers, no best starred (2 repeats prove none), a baseline
# chosen, the bar chart of the selected column, a record removed again. Nothing on stderr (sanitizers).
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

# Recent labs and default results go to the test's files, not $HOME.
XDG_STATE_HOME="$TEST_TMP/state"
XDG_DATA_HOME="$TEST_TMP/data"
XDG_CONFIG_HOME="$TEST_TMP/config"
export XDG_STATE_HOME XDG_DATA_HOME XDG_CONFIG_HOME

# goto NAME: the screen whose tab says NAME, by its number in the header.
goto() {
	_n=$(tui_screen | head -n 1 | grep -Eo "[0-9] $1" | cut -c1)
	[ -n "$_n" ] || fail "no '$1' tab in the header"
	tui_keys "$_n"
}

ab_lab "$TEST_TMP/cmp.cfg" cmp 2 '{ name = "small"; type = "smallfiles";
    counts = [40]; size = "1K"; dirs = 2; }'
printf 'name = "broken";\nrepeats = "three";\n' >"$TEST_TMP/broken.cfg"

# Started on a lab that does not load: every message on stderr, as raidlab
# check gives them, and exit status 2 (it used to open an empty lab with
# the first message only).
printf 'name = "broken";\nrepeats = "three";\ncache = 5;\n' \
	>"$TEST_TMP/broken2.cfg"
tui_start "$TEST_TMP/broken2.cfg"
expect_eq "broken start: exit status" "$(tui_wait_exit)" 2
expect_match "broken start: the line and field" "$(cat "$TUI_ERR")" \
	'broken2\.cfg:2: repeats: expected a number of rounds'
expect_match "broken start: every message" "$(cat "$TUI_ERR")" \
	'broken2\.cfg:3: cache: expected a string'
tui_stop

# ---------------------------------------------------------------- save as
tui_start "$TEST_TMP/cmp.cfg"
tui_wait_for 'cmp *$'
goto 'Lab files'
tui_wait_for '^Lab cmp'
tui_wait_for 'variants: alpha, beta; workloads: small'
tui_wait_for 'Presets'
tui_wait_for 'quick +Smoke test'
# The name column fits the longest name.
tui_wait_for 'seed-003-raid10-f2-vs-btrfs +md RAID10'
tui_keys w
tui_wait_for "Save as: $TEST_TMP/cmp.cfg"
tui_keys C-u
tui_text "$TEST_TMP/saved.cfg"
tui_keys Enter
tui_wait_for "Saved to $TEST_TMP/saved.cfg"
[ -f "$TEST_TMP/saved.cfg" ] || fail "save as: no file"
grep -q 'name = "cmp";' "$TEST_TMP/saved.cfg" || fail "save as: lab name"
tui_wait_for "File: $(realpath "$TEST_TMP/saved.cfg")"
tui_wait_for 'Recent labs'
expect_eq "recent labs file" \
	"$(head -n 1 "$XDG_STATE_HOME/raidlab/recent")" \
	"$(realpath "$TEST_TMP/saved.cfg")"
# s now saves in place.
tui_keys s
tui_wait_for "Saved to $TEST_TMP/saved.cfg"
tui_keys q
expect_eq "quit after saving: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# ---------------------------------------------------------------- reopen
# The presets from a directory deep enough that "File: PATH" is wider than
# the screen, as in a distcheck tree: the path loses its start, never the
# file name or the preset note.
deep="$TEST_TMP$(printf '/a-rather-long-directory-name%.0s' 1 2 3 4)/data"
mkdir -p "$deep/labs" || fail "mkdir $deep"
cp "${RAIDLAB_DATADIR:-$top_srcdir/data}"/labs/*.cfg "$deep/labs/" ||
	fail "copy the presets"
RAIDLAB_DATADIR=$deep
export RAIDLAB_DATADIR
tui_start "$TEST_TMP/saved.cfg"
tui_wait_for 'cmp *$'
goto 'Lab files'
tui_wait_for "File: $(realpath "$TEST_TMP/saved.cfg")"
tui_wait_for 'variants: alpha, beta; workloads: small'
tui_wait_for '2 variants, 1 workload, 2 repeats'
tui_wait_for "\\* cmp +$(realpath "$TEST_TMP/saved.cfg")"

# A lab that does not load: its line and field, and nothing replaced.
tui_keys o
tui_wait_for 'Open:'
tui_text "$TEST_TMP/broken.cfg"
tui_keys Enter
tui_wait_for "^  broken\\.cfg:2: repeats: expected a number of rounds"
tui_wait_for 'Not opened'
tui_wait_for '^Lab cmp'
tui_keys Escape
tui_wait_gone 'expected an integer'
# A directory: said so, the lab stays open (libconfig's scanner used to
# end the process there, with the terminal left raw).
tui_keys o
tui_wait_for 'Open:'
tui_text "$TEST_TMP"
tui_keys Enter
tui_wait_for "$(basename "$TEST_TMP"): a directory, not a lab file"
tui_wait_for '^Lab cmp'
tui_keys Escape
tui_wait_gone 'not a lab file'

# A preset from the list: quick, after the recent lab and the three
# md-* presets (the list is in name order).
tui_keys Down Down Down Down Enter
tui_wait_for '^Lab quick'
tui_wait_for 'quick *$'
tui_wait_for 'File: .*name/data/labs/quick\.cfg  \(a preset: s saves a copy\)'
# Saving a preset asks for a new path instead of writing over it.
tui_keys s
tui_wait_for "Save as: $XDG_CONFIG_HOME/raidlab/labs/quick.cfg"
tui_keys Escape
tui_wait_gone 'Save as:'
tui_keys q
expect_eq "quit: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# ---------------------------------------------------------------- unsaved
# start_changed: the saved lab opened and changed from another screen
# (repeats + 1 in the Workloads form), then the Lab files screen.
start_changed() {
	tui_start "$TEST_TMP/saved.cfg"
	tui_wait_for 'cmp *$'
	goto Workloads
	tui_keys Tab Right
	tui_wait_for 'cmp \* *$'
	goto 'Lab files'
}
start_changed
tui_wait_for '\[unsaved changes\]'
# Opening another lab asks first; Esc keeps everything.
tui_keys Down Down Down Down Enter
tui_wait_for 'save them, then open quick.cfg'
tui_keys Escape
tui_wait_gone 'Unsaved changes'
tui_wait_for '^Lab cmp'
# q asks too; s saves where the lab came from, then quits.
tui_keys q
tui_wait_for 's +save them, then quit'
tui_wait_for 'd +discard them and quit'
tui_keys s
expect_eq "save and quit: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop
grep -q '^repeats = 3;' "$TEST_TMP/saved.cfg" ||
	fail "save and quit: repeats not saved"

# A save that fails (a directory where the file was) keeps the TUI open,
# and the quit it was for is off: the next save that works does not quit.
start_changed
mv "$TEST_TMP/saved.cfg" "$TEST_TMP/saved.bak"
mkdir "$TEST_TMP/saved.cfg"
tui_keys q
tui_wait_for 's +save them, then quit'
tui_keys s
tui_wait_for 'Not saved'
rmdir "$TEST_TMP/saved.cfg"
mv "$TEST_TMP/saved.bak" "$TEST_TMP/saved.cfg"
tui_keys s
tui_wait_for 'Saved to'
# F1, a key after the save: once its help shows, raidlab is done with
# the save and still there (had it quit, the help would never come).
tui_keys F1
tui_wait_for 'switch screen'
[ -s "$TEST_TMP/tui.status" ] && fail "a save after a failed save-and-quit quit"
tui_keys Escape
tui_wait_gone 'switch screen'
tui_keys q
expect_eq "failed save: exit status" "$(tui_wait_exit)" 0
tui_stop
sed -i 's/^repeats = 4;/repeats = 3;/' "$TEST_TMP/saved.cfg"

# d discards: the other lab opens, the file stays as it was.
start_changed
tui_wait_for '4 repeats'
tui_keys Down Down Down Down Enter
tui_wait_for 'save them, then open quick.cfg'
tui_keys d
tui_wait_for '^Lab quick'
tui_wait_for 'quick *$'
grep -q '^repeats = 3;' "$TEST_TMP/saved.cfg" ||
	fail "discard: the file changed"
tui_keys q
expect_eq "discard: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# ---------------------------------------------------------------- compare
"$RAIDLAB" run "$TEST_TMP/cmp.cfg" >"$TEST_TMP/run1.out" 2>&1 ||
	fail "raidlab run (first): $(cat "$TEST_TMP/run1.out")"
"$RAIDLAB" run "$TEST_TMP/cmp.cfg" >"$TEST_TMP/run2.out" 2>&1 ||
	fail "raidlab run (second): $(cat "$TEST_TMP/run2.out")"
[ "$(ls "$TEST_TMP/results" | wc -l)" = 2 ] || fail "two records"

# A lab of another name: the Compare screen starts empty (cmp's own
# latest results would join by themselves, see labs.sh).
sed 's/^name = "cmp";/name = "cmpview";/' "$TEST_TMP/cmp.cfg" \
	>"$TEST_TMP/cmpview.cfg"
tui_start "$TEST_TMP/cmpview.cfg"
tui_wait_for 'cmpview *$'
goto Compare
tui_wait_for 'No results to compare yet'
tui_keys a
tui_wait_for "Add results from $TEST_TMP/results"
[ "$(tui_screen | grep -Ec '^\[ \] .* cmp +ok +4 +2 +cmp-')" = 2 ] ||
	{ tui_screen >&2; fail "picker: two records of lab cmp"; }
tui_keys Space Space Enter
tui_wait_for 'Added 2 of 2 record files'
# the verdict (2 repeats: too few to tell), its marks, mean ±stddev (+-
# without UTF-8); no decimals from 10000 up, which a fast machine's
# tmpfs or disk reaches
num='\*?[0-9]+(\.[0-9]+)?'
pm='(±|\+-)'
marks='[!a-z -]*'
tui_wait_for "^B alpha #1 +baseline$marks +$num $pm$num *\$"
for row in 'beta #1' 'alpha #2' 'beta #2'; do
	tui_wait_for "^  $row +n<3$marks +$num $pm$num *\$"
done
# v: mean and % against the baseline
tui_keys v
tui_wait_for 'cells: mean % \(v\)'
tui_wait_for "^B alpha #1 +baseline$marks +$num \\+0\\.0%"
tui_keys v v
tui_wait_for 'cells: mean ±stddev \(v\)'
# 2 repeats prove no best: no star
tui_screen | grep -Eq '^(B| ) .*#[12] .* \*[0-9]' &&
	{ tui_screen >&2; fail "compare: a best starred with n<3"; }
tui_wait_for '40 files of 1K in 2 dirs, files/s \(higher is better\)'
tui_wait_for "^  alpha #1 +[#█▏▎▍▌▋▊▉]+ +[0-9.]+$"

# The second row becomes the baseline.
tui_keys Down b
tui_wait_for 'Baseline beta #1'
tui_wait_for "^B beta #1 +baseline$marks +$num $pm$num *\$"
tui_wait_for "2 runs: [0-9.]+, [0-9.]+ files/s"

# x is the Run screen's stop, never a removal here: nothing goes. Once
# v, a key after it, shows its view, both records' rows are still there.
tui_keys x v
tui_wait_for 'cells: mean % \(v\)'
for row in 'alpha #2' 'beta #2'; do
	tui_screen | grep -Eq "^[B ] $row .*%\$" ||
		{ tui_screen >&2; fail "x removed a record on the Compare screen"; }
done
tui_keys v v
tui_wait_for 'cells: mean ±stddev \(v\)'
# Del does: the other record's rows stay, renumbered.
tui_keys DC
tui_wait_for 'Removed the results of'
tui_wait_gone '#2'
tui_wait_for "^B alpha +baseline$marks +$num $pm$num *\$"
tui_wait_for "^  beta +n<3$marks +$num $pm$num *\$"
tui_keys q
expect_eq "compare: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui files: ok"
