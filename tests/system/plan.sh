#!/bin/sh
# raidlab plan as a user meets it: the seed 003 lab's commands in order,
# with the geometry rule stated (the thread disputes stripe-width for a
# 4-disk RAID10 f2), scratch disks as placeholders, --json for scripts,
# one variant with -v, an unknown variant and an invalid lab refused.
# Nothing is run, so it needs no root and touches no device.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq

out=$("$RAIDLAB" plan seed-003-raid10-f2-vs-btrfs)
expect_eq "plan: exit status" "$?" 0
expect_match "plan: mdadm with every option" "$out" \
	"^mdadm --create /dev/md/rl-md-raid10-f2-ext4 --run --level=10 --raid-devices=4 --layout=f2 --chunk=256K --metadata=1.2 --bitmap=none --assume-clean '<scratch:0>' '<scratch:1>' '<scratch:2>' '<scratch:3>'\$"
expect_match "plan: the geometry and its rule" "$out" \
	'# geometry: stride=64, stripe-width=128 as the lab says \(RAID10 f2: 4 devices / 2 copies = 2 data disks'
expect_match "plan: md's own hint, for the dispute" "$out" \
	"md's own I/O hint, which mkfs reads when told nothing, counts 4"
expect_match "plan: mkfs with the lab's geometry" "$out" \
	'^mkfs.ext4 -F -b 4096 -E stride=64,stripe-width=128 /dev/md/rl-md-raid10-f2-ext4$'
# The mail set no readahead: its variants keep the kernel's; the
# thread's tuning (64K chunk, 4 disks x 256 sectors) is its own variant.
mail=$(printf '%s\n' "$out" | sed -n '/^# variant md-raid10-f2-ext4$/,/^# variant btrfs/p')
! printf '%s\n' "$mail" | grep -q 'setra' ||
	fail "plan: the mail's md variant sets a readahead the mail did not"
! printf '%s\n' "$out" | sed -n '/^# variant btrfs-raid10$/,/^# variant md/p' |
	grep -q 'setra' ||
	fail "plan: the mail's btrfs variant sets a readahead the mail did not"
expect_match "plan: the tuned variant's readahead" "$out" \
	'^blockdev --setra 1024 /dev/md/rl-md-raid10-f2-64k-[0-9a-f]{4}$'
expect_match "plan: the tuned variant's chunk" "$out" \
	'^mdadm --create /dev/md/rl-md-raid10-f2-64k-[0-9a-f]{4} .*--layout=f2 --chunk=64K '
expect_match "plan: btrfs" "$out" \
	"^mkfs.btrfs -f -d raid10 -m raid10 '<scratch:0>' '<scratch:1>' '<scratch:2>' '<scratch:3>'\$"
expect_match "plan: teardown" "$out" \
	"^mdadm --zero-superblock '<scratch:0>' '<scratch:1>' '<scratch:2>' '<scratch:3>'\$"
expect_match "plan: the scratch label" "$out" \
	'^# scratch: functional, not representative'

# Order: the run's own mount point first (a name that cannot be made
# stops the run before anything is wiped), wipe, create, mkfs, mount;
# teardown reversed.
order_of() { # the commands of the variant whose header matches $1
	printf '%s\n' "$out" | sed -n "/^# variant $1/,/^\$/p" |
		grep -Eo '^(wipefs|mdadm --create|mkfs.ext4|mkdir|mount|blockdev|umount|rmdir|mdadm --stop|mdadm --zero)' |
		paste -sd, -
}
expect_eq "plan: order" "$(order_of 'md-raid10-f2-ext4$')" \
	"mkdir,wipefs,mdadm --create,mkfs.ext4,mount,umount,wipefs,mdadm --stop,mdadm --zero,wipefs,rmdir"
expect_eq "plan: order, readahead after the mount" \
	"$(order_of 'md-raid10-f2-64k')" \
	"mkdir,wipefs,mdadm --create,mkfs.ext4,mount,blockdev,umount,wipefs,mdadm --stop,mdadm --zero,wipefs,rmdir"

# The cost of interleaving: each array variant built once per round.
expect_match "plan: the order" "$out" \
	'^# order = interleaved: round 1 of every variant, then round 2 starting one variant later, \.\.\.; 3 to 5 rounds'
expect_match "plan: the builds it costs" "$out" \
	'^# each array variant is built up to 5 times: once per round \(order = interleaved\)$'

json=$("$RAIDLAB" plan --json -v btrfs-raid10 seed-003-raid10-f2-vs-btrfs)
expect_eq "plan --json: one variant" "$(printf '%s' "$json" | jq length)" 1
expect_eq "plan --json: its name" \
	"$(printf '%s' "$json" | jq -r '.[0].variant')" btrfs-raid10
expect_eq "plan --json: setup argv" \
	"$(printf '%s' "$json" | jq -r '.[0].setup[2].argv | join(" ")')" \
	"mkfs.btrfs -f -d raid10 -m raid10 <scratch:0> <scratch:1> <scratch:2> <scratch:3>"
expect_eq "plan --json: devices for the guards" \
	"$(printf '%s' "$json" | jq -r '[.[0].devices[] | .role] | join(",")')" \
	member,member,member,member
expect_eq "plan --json: teardown" \
	"$(printf '%s' "$json" | jq -r '.[0].teardown[-2] | join(" ")')" \
	"btrfs device scan --forget <scratch:0> <scratch:1> <scratch:2> <scratch:3>"

"$RAIDLAB" plan -v nosuch seed-003-raid10-f2-vs-btrfs >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "plan: unknown variant exit status (usage)" "$?" 2
expect_match "plan: unknown variant named" "$(cat "$TEST_TMP/err")" \
	'no variant named nosuch'
[ -s "$TEST_TMP/out" ] && fail "plan: unknown variant printed a plan anyway"

printf 'name = "x";\nvariants = ( { name = "a"; array = { level = 7; }; } );\n' \
	>"$TEST_TMP/bad.cfg"
"$RAIDLAB" plan "$TEST_TMP/bad.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "plan: invalid lab exit status" "$?" 2
expect_match "plan: invalid lab says where" "$(cat "$TEST_TMP/err")" \
	'bad.cfg:2: variants.a.array.level'

out=$("$RAIDLAB" plan quick)
expect_match "plan: a directory variant builds nothing" "$out" \
	'variant tmpdir: the directory /var/tmp/raidlab-quick-'"$(id -un)"', nothing to build'
# ---- seed 000: the XFS log's stripe unit and the md bitmap's chunk, in
# the plan. The log's is held to mkfs.xfs itself: each variant's mkfs.xfs
# line run with -N (nothing written) on sparse files of the array's size.
out=$("$RAIDLAB" plan seed-000-bitmap-xfs-log)
expect_eq "seed 000 plan: exit status" "$?" 0
# "stripe unit 32K" -> 32768, "no stripe unit" -> 0
said_su() {
	printf '%s\n' "$1" | sed -n 's/^# log: .*stripe unit \([0-9]*\)K[:,].*/\1/p;
		s/^# log: .*no stripe unit.*/0/p' |
		awk '{ print $1 * ($1 == 0 ? 1 : 1024) }'
}
if command -v mkfs.xfs >/dev/null 2>&1; then
	truncate -s 1536M "$TEST_TMP/data.img"
	truncate -s 128M "$TEST_TMP/log.img"
fi
n=0
for v in $(printf '%s\n' "$out" | sed -n 's/^# variant //p'); do
	part=$(printf '%s\n' "$out" | sed -n "/^# variant $v\$/,/^\$/p")
	log=$(printf '%s\n' "$part" | grep '^# log: ') ||
		fail "seed 000 $v: the plan does not say where the log goes"
	su=$(said_su "$log")
	[ -n "$su" ] || fail "seed 000 $v: no stripe unit in '$log'"
	case $v in
	log-internal-*) expect_match "$v: internal log" "$log" '^# log: internal, ' ;;
	log-raid1-*) expect_match "$v: log on the RAID1" "$log" \
		'^# log: on /dev/md/rl-[^ ]*-log, ' ;;
	esac
	bm=$(printf '%s\n' "$part" | grep '^# bitmap: ')
	create=$(printf '%s\n' "$part" | grep '^mdadm --create' | tail -n 1)
	case $v in
	*-bitmap-none) expect_eq "$v: no bitmap line" "$bm" '' ;;
	*)
		# pinned in the preset, and the plan says the chunk mdadm gets
		chunk=$(printf '%s' "$create" |
			sed -n 's/.* --bitmap-chunk=\([^ ]*\) .*/\1/p')
		[ -n "$chunk" ] || fail "$v: the bitmap chunk is not pinned: $create"
		expect_match "$v: the plan says the chunk" "$bm" \
			"^# bitmap: (internal|file [^ ]*), chunk $chunk "
		;;
	esac
	command -v mkfs.xfs >/dev/null 2>&1 || continue
	mkfs=$(printf '%s\n' "$part" | grep '^mkfs.xfs ')
	# the plan's own options, on the files
	set -- $(printf '%s' "$mkfs" | sed "s|logdev=[^ ]*|logdev=$TEST_TMP/log.img|")
	shift
	while [ $# -gt 1 ]; do args="${args:-} $1"; shift; done
	got=$(mkfs.xfs -N $args "$TEST_TMP/data.img" 2>&1 | awk '
		/^log +=/ { inlog = 1; match($0, /bsize=[0-9]+/)
			bs = substr($0, RSTART + 6, RLENGTH - 6); next }
		inlog && match($0, /sunit=[0-9]+/) {
			print substr($0, RSTART + 6, RLENGTH - 6) * bs; exit }')
	args=
	expect_eq "$v: the log's stripe unit, as mkfs.xfs makes it" "$got" "$su"
	n=$((n + 1))
done
if command -v mkfs.xfs >/dev/null 2>&1; then
	expect_eq "seed 000: variants held to mkfs.xfs" "$n" 5
else
	echo "note: no mkfs.xfs: the log's stripe unit not held to it" >&2
fi

printf '%s\n' 'name = "b";' \
	'variants = ( { name = "i"; scratch = { count = 2; size = "64M"; };' \
	'  array = { level = "1"; bitmap = "internal"; }; fs = { type = "ext4"; }; } );' \
	>"$TEST_TMP/bitmap.cfg"
expect_match "plan: an unpinned bitmap chunk is mdadm's default" \
	"$("$RAIDLAB" plan "$TEST_TMP/bitmap.cfg")" \
	"^# bitmap: internal, chunk mdadm's default: 64M"
echo "plan: ok"
