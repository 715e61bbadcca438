#!/bin/sh
# Names and columns that fit, in tmux at 80x24: two variants that share a
# long prefix stay apart in the Compose list (cut in the middle, "…", or
# "..." with --ascii) and in the Compare table and bars, where the record
# number "#N" is never cut; a variant without a description says
# "(no description)", not a "none" that reads as its text; the Workloads
# form shows smallfiles' count and counts as one field, a list typed
# there setting counts and a number count; the Disks screen gives the
# root device's filesystem type (mountinfo's when it cannot be probed),
# never a bare "?"; at 60 columns the Run legend cuts the finished
# variant's name in the middle too.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

TUI_COLS=80
TUI_ROWS=24
A=log-internal-bitmap-none
B=log-internal-bitmap-internal

cat >"$TEST_TMP/names.cfg" <<EOF2
name = "names";
repeats = 1;
cache = "keep";
results = "$TEST_TMP/results";
variants = (
  { name = "$A"; directory = "$TEST_TMP/a"; },
  { name = "$B"; directory = "$TEST_TMP/b";
    description = "the bitmap inside"; }
);
workloads = (
  { name = "small"; type = "smallfiles"; counts = [100]; dirs = 2; }
);
EOF2
# Two records, so that the Compare rows carry a record number.
for i in 1 2; do
	"$RAIDLAB" run "$TEST_TMP/names.cfg" >"$TEST_TMP/run$i.out" 2>&1 ||
		fail "raidlab run: $(cat "$TEST_TMP/run$i.out")"
	[ "$i" = 2 ] || sleep 1 # a new record name
done

# rows ERE: the screen's lines that match, one a line.
rows() {
	tui_screen | grep -E -- "$1"
}

# apart ERE N: N lines match, all different up to the list's divider.
apart() {
	_all=$(rows "$1" | sed 's/ *[│|].*//; s/ *$//')
	expect_eq "lines matching /$1/" "$(printf '%s\n' "$_all" | grep -c .)" "$2"
	expect_eq "distinct lines matching /$1/" \
	    "$(printf '%s\n' "$_all" | sort -u | grep -c .)" "$2"
}

# ---- Compose: the list cuts in the middle. The same lab under another
# name: a lab's own results would load by themselves on Compare, and that
# part adds them by hand.
sed 's/^name = "names";/name = "namesview";/' "$TEST_TMP/names.cfg" \
	>"$TEST_TMP/namesview.cfg"
tui_start "$TEST_TMP/namesview.cfg"
tui_wait_layout 24
tui_keys 2
tui_wait_for '^Variants'
tui_wait_for '^  log-int[^│]*…[^│]*none *│'
tui_wait_for '^  log-int[^│]*…[^│]*internal *│'
apart '^  log-int' 2
# ---- the empty description is not a value
tui_wait_for '│description +\(no description\)'
rows '│description +none' && fail "description shows 'none'"
tui_keys Down
tui_wait_for '│description +the bitmap inside'

# ---- Workloads: count and counts are one field
tui_keys 3
tui_wait_for '^Workloads'
tui_wait_for '│ count +\[100\]'
rows '│ counts ' && fail "the form shows counts beside count"
tui_keys Enter
n=0
until rows '^ *│ count: files to write' >/dev/null; do
	n=$((n + 1))
	[ "$n" -le 12 ] || { tui_screen >&2; fail "never reached count"; }
	tui_keys Down
	sleep 0.1
done
tui_wait_for 'count: files to write .*a list'
tui_keys Enter C-u
tui_text '100, 200'
tui_keys Enter
tui_wait_for '│ count +\[100, 200\]'
tui_keys Enter C-u
tui_text 300
tui_keys Enter
tui_wait_for '│ count +300 *$'
tui_wait_for 'counts is back to its default'
tui_keys Escape

# ---- Compare: two records, each row's number whole
tui_keys 5
tui_wait_for 'No results to compare yet'
tui_keys a
tui_wait_for "Add results from $TEST_TMP/results"
tui_keys Space Down Space Enter
tui_wait_for 'Added 2 of 2 record files'
for r in 1 2; do
	tui_wait_for "^[B ] log-int[^ ]*…[^ ]*none #$r "
	tui_wait_for "^[B ] log-int[^ ]*…[^ ]*internal #$r "
done
# four table rows and four bars, each its own
apart '^[B ] log-int[^ ]* #[12] +[^█▏▎▍▌▋▊▉ ]' 4
apart '^  log-int[^ ]* #[12] +[█▏▎▍▌▋▊▉]' 4

# ---- Disks: the root device's filesystem type, not "?"
src=$(findmnt -no SOURCE / 2>/dev/null)
fst=$(findmnt -no FSTYPE / 2>/dev/null)
tui_keys 1
tui_wait_for '^  NAME +SIZE +TYPE'
case $src in
/dev/*)
	name=$(basename "$(readlink -f "$src")")
	tui_wait_for "^.. *([|\`]-|[├└]─)?$name .* $fst +busy "
	rows "^.. *([|\`]-|[├└]─)?$name .* \\? +busy " &&
		fail "the root device's FSTYPE is '?'"
	;;
*) echo "note: / is on $src, not a device: root row not checked" >&2 ;;
esac
# the edited lab asks first: d discards
tui_keys q
tui_wait_for 'discard them and quit'
tui_keys d
tui_wait_exit >/dev/null
tui_check_stderr

# ---- --ascii: "..." in the middle
tui_start --ascii "$TEST_TMP/names.cfg"
tui_wait_layout 24
tui_keys 2
tui_wait_for '^Variants'
tui_wait_for '^  log-[^|]*\.\.\.[^|]*none *\|'
tui_wait_for '^  log-[^|]*\.\.\.[^|]*nal *\|'
apart '^  log-' 2
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
# ---- Run at 60x18: the finished variant's legend cut in the middle
TUI_COLS=60
TUI_ROWS=18
tui_start "$TEST_TMP/names.cfg"
tui_wait_layout 18
tui_keys F5
tui_wait_for 'run done: 2 runs, 0 failed' 60
tui_wait_for '^line: log-[^ ]*…[^ ]*none \(done\)'
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
# ---- Lab files at 80x24: preset names that share "seed-00" keep their
# ends, a cut description says so with an ellipsis
TUI_COLS=80
TUI_ROWS=24
tui_start
tui_wait_layout 24
tui_keys "$(tui_tab 'Lab files')"
tui_wait_for '^ Presets'
tui_wait_for '^ +seed-003-[^ ]*…[^ ]*btrfs +md RAID10'
tui_wait_for '^ +seed-000-[^ ]*log +md bitmap .*…$'
tui_keys q
tui_wait_exit >/dev/null
tui_check_stderr
echo "tui names: ok"
