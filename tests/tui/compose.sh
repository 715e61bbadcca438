#!/bin/sh
# The Compose and Workloads screens, in tmux, on a copy of the quick lab:
# a new variant composed through the form as btrfs raid10 on 4 scratch
# disks shows mkfs.btrfs -d raid10 in the plan preview; RAID6 on 3 disks
# shows lab_check's message under the scratch disks field and in the
# preview; assume clean (a field from the schema table) reaches the plan
# and goes back to its default; the data mode (an fs field from the
# table) reaches the plan and the saved lab; RAID1 has no layout field (RAID10 has
# one); the device picker
# marks a spare; typed text reaches the plan (mount -o); Del/u puts a
# default back; the variant list clones, reorders and deletes; a workload
# is added and a parameter typed, with its default and help shown; text
# is checked as it is typed (the message under the field and the plan
# preview follow each key, Esc puts the value back; a name of 65 bytes is
# refused as lab files refuse it, and the name prompt takes 64, the
# longest); RAID0+1 through the
# nesting fields; a journal on a device, then on an md mirror of its own
# edited in the picker; 80x24 and --ascii keep working, and quitting
# leaves nothing on stderr; legs that differ in a lab file are shown as
# they are until one choice sets them all. Scratch disks are placeholders in the
# preview; root is needed only for a blank loop device in the inventory,
# which a scratch variant's journal must not be given by default.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/tui/lib.sh"

lab="$TEST_TMP/lab.cfg"
cp "${RAIDLAB_DATADIR:-$top_srcdir/data}/labs/quick.cfg" "$lab" ||
	fail "copy the quick lab"
chmod u+w "$lab"

# The form row of a field: "label  value" right of the list's border.
field() {
	tui_screen | grep -E "[│|] ?$1 {2,}" | head -n 1
}

# field_is LABEL REGEX: wait until the field's value matches.
field_is() {
	_n=50
	while [ "$_n" -gt 0 ]; do
		field "$1" | grep -Eq -- "$2" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_screen >&2
	fail "field '$1' never matched /$2/ (got: $(field "$1"))"
}

# plan_wait ERE: the plan preview shows it within 10 s, scrolled down a
# page at a time if need be (the preview follows every key), then back
# at its top.
plan_wait() {
	_n=0
	_pages=0
	while [ "$_n" -lt 100 ]; do
		if tui_screen | grep -Eq -- "$1"; then
			while [ "$_pages" -gt 0 ]; do
				tui_keys PPage
				_pages=$((_pages - 1))
			done
			return 0
		fi
		_n=$((_n + 1))
		if [ $((_n % 5)) -eq 0 ]; then
			if [ "$_pages" -lt 4 ]; then
				tui_keys NPage
				_pages=$((_pages + 1))
			else
				while [ "$_pages" -gt 0 ]; do
					tui_keys PPage
					_pages=$((_pages - 1))
				done
			fi
		fi
		sleep 0.1
	done
	tui_screen >&2
	fail "the plan never showed /$1/"
}


# focus_is LABEL: wait until the field the keys go to (its value in
# reverse video) is LABEL's.
focus_is() {
	_n=$((50 * TUI_WAIT_SCALE))
	while [ "$_n" -gt 0 ]; do
		tmx capture-pane -t "$TUI_SESSION" -p -e |
			grep -F "$(printf '\033[7m')" |
			grep -Eq -- "[│|] ?$1 {2,}" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	tui_screen >&2
	fail "the focus never reached the field '$1'"
}

keys() {
	for _k in "$@"; do
		tui_keys "$_k"
		sleep 0.05
	done
}

# As root, a free (blank) loop device in the inventory: a variant on
# scratch disks must never be offered it to wipe by default.
if [ "$(id -u)" = 0 ]; then
	new_loop blank 64M
fi

tui_start "$lab"
tui_wait_for '^ 1 Disks +2 Compose +3 Workloads'
tui_keys 2
tui_wait_for '^Variants'
tui_wait_for 'tmpdir'
tui_wait_for 'directory +/var/tmp/raidlab-quick'
tui_wait_for 'nothing to build'

# ---- the name prompt takes up to 64 bytes, the longest name
tui_keys a
tui_wait_for 'New variant'
tui_keys C-u
tui_text "$(printf 'p%.0s' $(seq 70))"
tui_wait_for "name: p{64}([^p]|$)"
tui_keys Escape
tui_wait_gone 'New variant'

# ---- a new variant, composed as btrfs raid10 on 4 scratch disks
tui_keys a
tui_wait_for 'New variant'
tui_keys C-u
tui_text b10
tui_keys Enter
tui_wait_gone 'New variant'
tui_wait_for 'quick \*'
field_is name 'b10'
# The starting point: an md mirror of 2 scratch disks, planned at once.
field_is engine 'md'
field_is level 'RAID1'
plan_wait 'mdadm --create /dev/md/rl-b10 .*--level=1'

# ---- checked as typed: the name, before Enter; Esc keeps the old one
keys Up Up Up
field_is name 'b10'
keys Enter C-u
tui_text 'tmpdir'
tui_wait_for '! the name tmpdir is already used'
tui_text ' 2'
tui_wait_gone 'already used'
tui_wait_for "! 'tmpdir 2' is not a valid name"
# The message has rows of its own: the next field is not covered.
field_is description '\(no description\)'
tui_wait_for '# no plan until these are solved'
keys BSpace BSpace
tui_text -2
tui_wait_gone 'is not a valid name'
field_is name 'tmpdir-2'
tui_wait_for '^# variant tmpdir-2$'
# A name becomes a mount point and file names: 64 bytes at most, said as
# lab files are told.
n64=$(printf 'n%.0s' $(seq 64))
tui_keys C-u
tui_text "${n64}x"
tui_wait_for "! 'n{24}\\.\\.\\.' is 65 bytes long: a name"
tui_wait_for '# no plan until these are solved'
tui_keys BSpace
tui_wait_gone 'bytes long'
tui_wait_for "^# variant $n64\$"
tui_keys Escape
field_is name 'b10'
tui_wait_for '^# variant b10$'
# UTF-8 text, typed a byte at a time by the terminal; Backspace takes a
# whole character.
keys Down Enter C-u
tui_text 'Größe ½x'
tui_keys BSpace
tui_keys Enter
field_is description 'Größe ½ *$'
keys Down Down
# The engine field is the current one: Right cycles md -> btrfs.
tui_keys Right
field_is engine 'btrfs'
field_is level 'raid1'
plan_wait 'mkfs.btrfs -f -d raid1 '
field_is type 'btrfs \(the engine makes it\)'
# level: raid1 -> raid1c3 -> raid1c4 -> raid10.
keys Down Right Right Right
field_is level 'raid10'
# metadata profile (a table field: unset, mkfs decides), devices,
# scratch disks: 2 -> 3 -> 4.
field_is 'metadata profile' 'mkfs decides'
keys Down Down Down Right Right
field_is 'scratch disks' '4'
field_is devices 'every scratch disk \(4\)'
plan_wait "mkfs.btrfs -f -d raid10 '<scratch:0>' '<scratch:1>' '<scratch:2>' '<scratch:3>'"
tui_plan_has "btrfs device scan '<scratch:0>'"

# ---- an impossible choice: RAID6 on 3 devices
keys Up Up Up Up Left
field_is engine 'md'
field_is level 'RAID10'
plan_wait 'mdadm --create /dev/md/rl-b10 .*--level=10 --raid-devices=4'
keys Down Left
field_is level 'RAID6'
# level, layout, chunk, devices, spares, scratch disks: 4 -> 3.
keys Down Down Down Down Down Left
field_is 'scratch disks' '3'
tui_wait_for '! RAID6 needs at least 4 devices, got 3'
tui_wait_for 'no plan until these are solved'
tui_wait_for '! variants.b10.scratch.count: RAID6 needs at least 4 devices'
tui_wait_for '^! b10'
keys Right
field_is 'scratch disks' '4'
tui_wait_gone 'RAID6 needs at least'
plan_wait 'mdadm --create /dev/md/rl-b10 .*--level=6 --raid-devices=4'

# ---- assume clean, a field the schema table gives the form
# scratch disks, scratch size, scratch dir, superblock, bitmap, write
# journal, assume clean.
keys Down Down Down Down Down Down
focus_is 'assume clean'
field_is superblock '1\.2'
field_is 'assume clean' 'no'
keys Right
field_is 'assume clean' 'yes'
plan_wait '--assume-clean'
keys u
field_is 'assume clean' 'no'
tui_wait_gone '--assume-clean'

# ---- a geometry typed by hand: the plan follows each key, Esc undoes
# Leaving engine btrfs gave the filesystem its type back (ext4, the new
# variant's default), not the btrfs the engine made. From readahead, the
# last field: mount and mkfs options, geometry, data mode, journal size,
# journal, type.
keys G Up Up Up Up Up Up Up
field_is type 'ext4'
keys Down Down Down Down Right Right
field_is geometry 'by hand'
tui_wait_for '# geometry: stride=128, stripe-width=256 as the lab says \(RAID6'
keys Down Enter C-u
tui_text x
tui_wait_for "! 'x' is not a number"
tui_keys BSpace
tui_text 32
tui_wait_gone 'is not a number'
tui_wait_for '# geometry: stride=32, stripe-width=256 as the lab says; the rule'
tui_keys Escape
field_is stride '128'
tui_wait_for '# geometry: stride=128, stripe-width=256 as the lab says \(RAID6'
keys Up u
field_is geometry 'auto'
keys g Down Down Down Down Down Down Down Down Down
field_is 'scratch disks' '4'

# ---- RAID10 has a layout field, RAID1 none
keys Up Up Up Up Up Right
field_is level 'RAID10'
field layout | grep -q 'mdadm default' || fail "RAID10: no layout field"
keys Down Right Right Right
field_is layout 'f2'
plan_wait 'mdadm --create .*--level=10 .*--layout=f2'
keys Up Left Left Left Left
field_is level 'RAID1'
# Up, a key after the change, has shown its effect: the form is drawn as
# RAID1 left it.
tui_keys Up
focus_is engine
if tui_screen | grep -Eq '[│|](layout|chunk) {2,}'; then
	tui_screen >&2
	fail "RAID1: a layout or chunk field is shown"
fi
tui_keys Down
focus_is level
plan_wait 'mdadm --create /dev/md/rl-b10 .*--level=1 --raid-devices=4'

# ---- the device picker: scratch:3 becomes a spare
# level, nested legs (RAID0 and RAID1 can nest), devices.
keys Down Down Enter
tui_wait_for 'Members and spares'
tui_wait_for '\[M\] scratch:3'
keys Down Down Down Space
tui_wait_for '\[S\] scratch:3'
tui_keys Enter
tui_wait_gone 'Members and spares'
field_is devices 'scratch:0..2 \(3\)'
field_is spares 'scratch:3'
plan_wait "mdadm --create /dev/md/rl-b10 .*--raid-devices=3"
tui_wait_for "spare-devices=1"

# ---- typed text: mount options reach the plan; u puts the default back
tui_keys G
keys Up Enter
tui_text noatime,commit=60
tui_keys Enter
field_is 'mount options' 'noatime,commit=60'
tui_plan_has 'mount -t [a-z0-9]+ -o noatime,commit=60(,noinit_itable)? /dev/md/rl-b10'
tui_keys u
field_is 'mount options' 'none'
tui_plan_has 'mount -t [a-z0-9]+ (-o noinit_itable )?/dev/md/rl-b10'

# ---- the data mode, an fs field the schema table gives the form: it
# reaches the plan, and the saved lab (checked at the end)
# mount options, mkfs options, geometry, data mode.
keys Up Up Up
focus_is 'data mode'
field_is 'data mode' 'ordered'
keys Right
field_is 'data mode' 'writeback'
plan_wait 'mount -t ext4 -o data=writeback,noinit_itable'

# ---- the variant list: clone, move up, delete
keys Escape c
tui_wait_for 'Clone as'
tui_wait_for 'name: b10-copy'
tui_keys Enter
tui_wait_for '^  b10-copy'
tui_wait_for '^# variant b10-copy$'
tui_keys K
# The clone's row was there before K: wait for the order itself.
for _i in $(seq 1 100); do
	order=$(tui_screen | sed -n '3,5p' | cut -c1-14 | tr -s ' ' |
		tr '\n' ' ')
	printf '%s' "$order" | grep -Eq 'b10-copy +b10' && break
	sleep 0.1
done
expect_match "K moves the clone above b10" "$order" 'b10-copy +b10'
tui_keys d
tui_wait_for 'Delete variant b10-copy\? y/n'
tui_keys y
tui_wait_gone 'b10-copy'
tui_wait_for '^# variant b10$'

# ---- RAID0+1 (seed 002): a RAID1 nested over two RAID0 legs
tui_keys a
tui_wait_for 'New variant'
tui_keys C-u
tui_text r01
tui_keys Enter
field_is engine 'md'
# engine, level, nested legs, devices, spares, scratch disks: 2 -> 4.
keys Down Down Down Down Down Right Right
field_is 'scratch disks' '4'
keys Up Up Up
field_is 'nested legs' 'no'
tui_keys Right
field_is 'nested legs' '2'
field_is 'leg level' 'RAID0'
field_is 'leg 0' 'scratch:0 scratch:1 *(▾|$)'
field_is 'leg 1' 'scratch:2 scratch:3 *(▾|$)'
field_is devices 'scratch:0\.\.3 \(4\) over 2 legs'
tui_wait_for 'RAID0\+1: a RAID1 over 2 RAID0 legs'
# (Long commands wrap in the preview: their parts are matched alone.)
plan_wait 'mdadm --create /dev/md/rl-r01-leg0 --run --level=0 --raid-devices=2 '
plan_wait "^ +'<scratch:0>' '<scratch:1>'\$"
tui_plan_has 'mdadm --create /dev/md/rl-r01 --run --level=1 --raid-devices=2 '
tui_plan_has '/dev/md/rl-r01-leg0 /dev/md/rl-r01-leg1'
# The legs' chunk: mdadm's default, then 4K.
keys Down Down Right
field_is 'leg chunk' '4K'
plan_wait 'mdadm --create /dev/md/rl-r01-leg0 .*--chunk=4K'
# Three legs of 4 disks: the first takes the odd one; RAID0 of one disk
# is what lab_check says about the last leg.
keys Up Up Right
field_is 'nested legs' '3'
field_is 'leg 0' 'scratch:0 scratch:1 *(▾|$)'
tui_wait_for 'no plan until these are solved'
tui_wait_for '^! variants.r01.array.legs\[2\].devices: RAID0 needs at least 2 devices, got 1'
# Back to no legs: the devices come back to the array itself.
keys Left Left
field_is 'nested legs' 'no'
field_is devices 'scratch:0\.\.3 \(4\)$'
plan_wait 'mdadm --create /dev/md/rl-r01 --run --level=1 --raid-devices=4'
# Leave the form on mount options, where the 80x24 check below looks.
keys G Up Escape d
tui_wait_for 'Delete variant r01\? y/n'
tui_keys y
tui_wait_for '^# variant b10$'

# ---- a journal on an md mirror of its own (seed 000's XFS log)
tui_keys a
tui_wait_for 'New variant'
tui_keys C-u
tui_text lg
tui_keys Enter
field_is engine 'md'
keys Down Down Down Down Down Right Right Right Right
field_is 'scratch disks' '6'
# readahead, mount options, mkfs options, geometry, data mode, journal
# size, journal: internal -> device -> md array.
keys G Up Up Up Up Up Up Right
field_is journal 'device'
# A scratch disk, not a free real disk ($blank as root).
field_is 'journal device' 'scratch:5'
tui_keys Right
field_is journal 'md array'
field_is 'journal level' 'RAID1'
field_is 'journal array' 'scratch:4 scratch:5 *(▾|$)'
plan_wait 'mdadm --create /dev/md/rl-lg-log --run --level=1 --raid-devices=2 '
tui_wait_for "^ +'<scratch:4>' '<scratch:5>'\$"
tui_plan_has 'mke2fs -F -O journal_dev -b 4096 /dev/md/rl-lg-log'
# The log's disks have left the array: 4 members.
tui_plan_has 'mdadm --create /dev/md/rl-lg --run --level=1 --raid-devices=4 '
# Its devices in the picker: scratch:3 joins the log, leaving the array.
keys Down Down Enter
tui_wait_for "Devices of the journal's array"
tui_wait_for '\[L\] scratch:5'
keys Down Down Down Space
tui_wait_for '\[L\] scratch:3'
tui_keys Enter
tui_wait_gone "Devices of the journal's array"
field_is 'journal array' 'scratch:3 scratch:4 scratch:5 *(▾|$)'
plan_wait 'mdadm --create /dev/md/rl-lg-log --run --level=1 --raid-devices=3 '
tui_plan_has 'mdadm --create /dev/md/rl-lg --run --level=1 --raid-devices=3 '
keys Up Left
field_is 'journal level' 'RAID0'
plan_wait 'mdadm --create /dev/md/rl-lg-log --run --level=0 --raid-devices=3 '
# The form counts the members as the plan does (it counted the log's).
keys g
field_is devices 'the other scratch disks \(3\)'
keys G Up Escape d
tui_wait_for 'Delete variant lg\? y/n'
tui_keys y
tui_wait_for '^# variant b10$'

# ---- Workloads: add fio, type a parameter, see its default and help
tui_keys 3
tui_wait_for '^Workloads'
tui_wait_for 'small \(smallfiles\)'
field_is repeats '3'
field_is cache 'keep'
tui_keys a
tui_wait_for 'Add a workload'
keys Down Down Down Down Enter
# Named after its type: the name alone.
tui_wait_for '^ +fio +[│|]'
field_is name 'fio'
field_is rw 'read'
field_is bs '4K'
# name, rw, bs: type 64K.
keys Down Down Enter C-u
tui_text 64K
tui_keys Enter
field_is bs '64K'
tui_wait_for 'bs: block size \(bs=\) \(default 4K\)'
keys Enter C-u
tui_text lots
tui_wait_for "! 'lots' is not a size"
tui_keys Enter
tui_wait_gone "! 'lots' is not a size"
tui_wait_for "'lots' is not a size"
field_is bs '64K'
tui_keys Up Right
field_is rw 'write'

# ---- 80x24: the form above the plan, the screens still answer
tui_resize 80 24
tui_keys 2
tui_wait_for '^Variants'
tui_wait_for 'Plan \(PgUp/PgDn\)'
tui_wait_layout 24
tui_wait_for '^# variant b10$'
field_is 'mount options' 'none'
tui_keys F1
tui_wait_for 'add, clone, rename, delete a variant'
tui_keys x
tui_wait_gone 'add, clone, rename'

# Unsaved changes: q twice.
# Unsaved changes: s saves them and quits; the lab composed here checks
# clean with the command line and keeps what was typed.
keys Escape q
tui_wait_for 'Unsaved changes'
tui_keys s
expect_eq "quit: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop
"$RAIDLAB" check "$lab" >/dev/null 2>"$TEST_TMP/check.err" ||
	fail "the composed lab does not check: $(cat "$TEST_TMP/check.err")"
grep -q 'description = "Größe ½";' "$lab" ||
	fail "the UTF-8 description was not saved"
grep -q 'data = "writeback";' "$lab" ||
	fail "the data mode chosen in the form was not saved"

# ---- legs that differ (a lab file can give each its own level and
# chunk): each leg says its own, the choices say so, no geometry is
# computed for them, and one choice sets every leg.
cat >"$TEST_TMP/mixed.cfg" <<EOF
name = "mixed";
variants = (
  { name = "m"; scratch = { count = 5; size = "1G"; };
    array = { level = 1; legs = (
      { level = 0; chunk = "64K"; devices = [ "scratch:0", "scratch:1" ]; },
      { level = 5; chunk = "256K";
        devices = [ "scratch:2", "scratch:3", "scratch:4" ]; }
    ); }; }
);
workloads = ( { type = "smallfiles"; count = 10; } );
EOF
tui_start "$TEST_TMP/mixed.cfg"
tui_wait_for '^ 1 Disks'
tui_keys 2
tui_wait_for '^Variants'
field_is 'leg level' 'each leg its own'
field_is 'leg chunk' 'each leg its own'
field_is 'leg 0' 'RAID0, chunk 64K: scratch:0 scratch:1'
field_is 'leg 1' 'RAID5, chunk 256K: scratch:2 scratch:3 scratch:4'
tui_wait_for 'a RAID1 over 2 legs that differ'
tui_wait_for '^# geometry: the legs differ in level, chunk or device count'
# The form, then name .. nested legs .. leg level .. leg chunk; u: the
# default chunk, for every leg, the levels still their own.
keys Tab Down Down Down Down Down Down Down u
field_is 'leg chunk' 'mdadm default'
field_is 'leg level' 'each leg its own'
field_is 'leg 1' 'RAID5, chunk default: scratch:2'
# RAID0 is six choices before "each leg its own".
keys Up Left Left Left Left Left Left
field_is 'leg level' 'RAID0'
field_is 'leg 1' 'scratch:2 scratch:3 scratch:4 *(▾|$)'
tui_wait_for 'RAID0\+1: a RAID1 over 2 RAID0 legs'
tui_wait_gone 'the legs differ'
keys Escape q
tui_wait_for 'Unsaved changes'
tui_keys d
expect_eq "mixed legs: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# ---- a new variant made a directory: the user's own by default (%u),
# not a name in /var/tmp that another user could make first
tui_start "$lab"
tui_wait_for '^ 1 Disks'
tui_keys 2
tui_wait_for '^Variants'
tui_keys a
tui_wait_for 'New variant'
tui_keys C-u
tui_text dv
tui_keys Enter
tui_wait_gone 'New variant'
field_is engine 'md'
keys Up
field_is target 'array'
tui_keys Right
field_is directory '/var/tmp/raidlab-%u-dv *$'
keys Escape q
tui_wait_for 'Unsaved changes'
tui_keys d
expect_eq "directory default: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
tui_stop

# ---- --ascii: no line drawing on the Compose screen and its popups
tui_start --ascii "$lab"
tui_wait_for '^ 1 Disks'
tui_keys 2
tui_wait_for '^Variants'
tui_keys a
tui_wait_for 'New variant'
if tui_screen | grep -q '[│─┌┐└┘├‹›]'; then
	tui_screen >&2
	fail "--ascii: line-drawing characters on the Compose screen"
fi
tui_keys Enter
field_is engine '< md >'
keys Enter
tui_wait_for '\+-engine-'
if tui_screen | grep -q '[│─┌┐└┘├‹›]'; then
	tui_screen >&2
	fail "--ascii: line-drawing characters in the menu"
fi
keys Escape Escape q q
expect_eq "--ascii: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
echo "tui compose: ok"
