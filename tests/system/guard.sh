#!/bin/sh
# The guard catalogue (issue 4) on the real binary and real loop devices:
# a variant naming a mounted device, an active swap, an ext4 device without
# confirmation, a wrong --yes-destroy list, the other member of a mounted
# two-device btrfs, the disk holding /, something that is not a block
# device, the same device twice (also through a symlink), an md bitmap
# file that exists already and one on a tmpfs is refused by `raidlab run
# --dry-run` and by `raidlab run` alike: exit status 1, the reason on
# stderr as "raidlab run: LAB:LINE: FIELD: DEV: REASON", and nothing
# changed (blkid -p of every device, the loop devices, mounts and swaps,
# the state journal: the same before and after), and a refused --dry-run
# prints no plan. Only a refusal that confirming lifts (data) ends with
# the hint to confirm with --yes-destroy; a busy device confirmed says
# --yes-destroy cannot override it, a mounted btrfs member too. With the
# right --yes-destroy the ext4 device is accepted and --dry-run prints the
# plan.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd blkid losetup findmnt mkfs.ext4 mkfs.btrfs btrfs mkswap swapon \
	swapoff
# The lab file format only takes device paths under /dev: the symlink and
# the regular file live in a private directory there.
DEVDIR=$(mktemp -d /dev/shm/raidlab-g4rd.XXXXXX 2>/dev/null ||
    mktemp -d /dev/raidlab-g4rd.XXXXXX) || skip "cannot create a directory under /dev"
STATE="$TEST_TMP/state"
RAIDLAB_STATE_DIR=$STATE
export RAIDLAB_STATE_DIR
SWAPS=
BTRFS_LOOPS=
BDIR=

guard_cleanup() {
	for s in $SWAPS; do
		swapoff "$s" 2>/dev/null
	done
	printf '%s\n' "$TEST_MOUNTS" | while IFS= read -r m; do
		[ -n "$m" ] || continue
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for l in $BTRFS_LOOPS; do
		btrfs device scan --forget "$l" >/dev/null 2>&1
	done
	rm -rf "$DEVDIR" ${BDIR:+"$BDIR"}
	cleanup
}
trap guard_cleanup EXIT

# Devices: a free partner for every two-device variant, the case devices.
new_loop FREE 64M
new_loop OTHER 64M
new_loop MNT 64M
mkfs.ext4 -q -F -L g4rdmnt "$MNT" || fail "mkfs.ext4 $MNT"
do_mount "$MNT" "$TEST_TMP/mnt"
new_loop SWAP 64M
mkswap -L g4rdswap "$SWAP" >/dev/null || fail "mkswap $SWAP"
swapon "$SWAP" || skip "swapon $SWAP failed here"
SWAPS=$SWAP
new_loop EXT 64M
mkfs.ext4 -q -F -L g4rdlbl "$EXT" || fail "mkfs.ext4 $EXT"
new_loop BT1 256M
new_loop BT2 256M
BTRFS_LOOPS="$BT1 $BT2"
mkfs.btrfs -q -f -L g4rdbt -d raid1 -m raid1 "$BT1" "$BT2" >/dev/null ||
    fail "mkfs.btrfs $BT1 $BT2"
do_mount "$BT1" "$TEST_TMP/bt"
BTUUID=$(blkid -p -s UUID -o value "$BT2")
[ -n "$BTUUID" ] || fail "no btrfs UUID on $BT2"
ln -s "$FREE" "$DEVDIR/link" || fail "symlink"
: >"$DEVDIR/file.img"

# The device / is on: findmnt, or mountinfo's major:minor through sysfs.
ROOT=$(findmnt -no SOURCE / 2>/dev/null)
if [ ! -b "$ROOT" ]; then
	mm=$(awk '$5 == "/" { print $3; exit }' /proc/self/mountinfo)
	name=$(basename "$(readlink "/sys/dev/block/$mm" 2>/dev/null)" 2>/dev/null)
	ROOT=${name:+/dev/$name}
fi
[ -b "$ROOT" ] || ROOT=

DEVS="$FREE $OTHER $MNT $SWAP $EXT $BT1 $BT2 $ROOT"
LOOPRE=$(printf '%s|' $FREE $OTHER $MNT $SWAP $EXT $BT1 $BT2)
LOOPRE="(${LOOPRE%|})( |$)"

# Everything a run could change, ours only (other processes use loop
# devices and mounts concurrently): signatures, attached loops of ours or
# of these variants, mounts, swaps, journals and mount points.
snapshot() {
	for d in $DEVS; do
		printf '== %s\n' "$d"
		blkid -p "$d" 2>&1
		echo "rc=$?"
	done
	losetup -nO NAME,BACK-FILE 2>/dev/null | grep -E "$TEST_TMP|raidlab-g4rd" |
	    awk '{ print $1, $2 }' | sort
	findmnt -rn -o SOURCE,TARGET | grep -E "$LOOPRE|$TEST_TMP|g4rd" | sort
	sed 1d /proc/swaps | awk '{ print $1 }' | grep -E "$LOOPRE" | sort
	find "$STATE" -name '*.journal' 2>/dev/null
	ls -A "$STATE/mnt" 2>/dev/null
}

# lab NAME DEV...: a two-device btrfs raid1 variant g4rd-NAME; its devices
# are on line 3, so every refusal reads "NAME.cfg:3: ...devices...: ".
lab() {
	n=$1
	shift
	list=
	for d in "$@"; do
		list="$list${list:+, }\"$d\""
	done
	cat >"$TEST_TMP/$n.cfg" <<EOF
name = "g4rd-$n";
variants = ( { name = "g4rd-$n";
  array = { engine = "btrfs"; level = "raid1"; devices = [ $list ]; };
  fs = { type = "btrfs"; }; } );
workloads = ( { name = "small"; type = "smallfiles"; counts = [10]; } );
EOF
	"$RAIDLAB" check --quiet "$TEST_TMP/$n.cfg" >/dev/null 2>"$TEST_TMP/err" ||
	    fail "lab $n does not pass raidlab check: $(cat "$TEST_TMP/err")"
}

# at NAME DEV: the start of a refusal line about DEV in lab NAME.
at() {
	printf 'raidlab run: [^ ]*%s\\.cfg:3: variants\\.g4rd-%s\\.array\\.devices(\\[[0-9]\\])?: %s' \
	    "$1" "$1" "$2"
}

# run_lab NAME MODE ARGS...: run, keeping stdout, stderr and the status.
run_lab() {
	n=$1
	mode=$2
	shift 2
	"$RAIDLAB" run "$TEST_TMP/$n.cfg" --results "$TEST_TMP/res-$n" $mode "$@" \
	    >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
	RC=$?
	ERR=$(cat "$TEST_TMP/err")
	OUT=$(cat "$TEST_TMP/out")
}

# refused NAME REGEX [REGEX...] -- [ARGS...]: with --dry-run first, then
# for real (only once the dry run refused as it should), exit status 1,
# every REGEX on stderr (!REGEX: not on stderr), nothing on stdout (a
# refused dry run prints no plan: its commands would never run), nothing
# changed.
refused() {
	n=$1
	shift
	res=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		res="$res$1$NL"
		shift
	done
	[ $# -gt 0 ] && shift
	for mode in --dry-run ""; do
		what="$n${mode:+ $mode}"
		before=$(snapshot)
		run_lab "$n" "$mode" "$@"
		after=$(snapshot)
		expect_eq "$what: exit status (stderr: $ERR)" "$RC" 1
		expect_eq "$what: stdout (no plan)" "$OUT" ""
		printf '%s' "$res" | while IFS= read -r re; do
			case $re in
			'') ;;
			!*)	! printf '%s' "$ERR" | grep -Eq -- "${re#!}" ||
				    fail "$what: stderr matches /${re#!}/: $ERR" ;;
			*)	expect_match "$what: refusal" "$ERR" "$re" ;;
			esac
		done || exit 1
		[ "$before" = "$after" ] ||
		    fail "$what: something changed:$NL$(printf '%s\n' "$before" >"$TEST_TMP/b";
			printf '%s\n' "$after" >"$TEST_TMP/a"; diff "$TEST_TMP/b" "$TEST_TMP/a")"
	done
}

# A mounted device, confirmed or not. Nothing a confirmation could lift:
# no hint to confirm.
HINT='or confirm the ones whose data may be destroyed'
lab mounted "$MNT" "$FREE"
refused mounted "$(at mounted "$MNT"): mounted on $TEST_TMP/mnt" \
	'refused: nothing was changed\.$' "!$HINT"
refused mounted "$(at mounted "$MNT"): mounted on $TEST_TMP/mnt \(--yes-destroy cannot override this\)" \
	"!$HINT" -- --yes-destroy="$MNT"

# Active swap.
lab swap "$FREE" "$SWAP"
refused swap "$(at swap "$SWAP"): active swap"

# An ext4 signature without confirmation: the signature, label and UUID,
# and how to confirm.
lab ext "$EXT" "$FREE"
refused ext "$(at ext "$EXT"): has data: ext4 signature \\(label \"g4rdlbl\", UUID [0-9a-f-]+\\)" \
	"refused: nothing was changed\\. Free the devices, $HINT with --yes-destroy=DEV"

# ... and with it: accepted, and --dry-run prints the plan, changing nothing.
before=$(snapshot)
run_lab ext --dry-run --yes-destroy="$EXT"
after=$(snapshot)
expect_eq "ext confirmed --dry-run: exit status (stderr: $ERR)" "$RC" 0
expect_match "ext confirmed --dry-run: the plan" "$OUT" "mkfs\\.btrfs"
expect_match "ext confirmed --dry-run: the plan names the device" "$OUT" "$EXT"
[ "$before" = "$after" ] || fail "ext confirmed --dry-run: something changed"
[ ! -e "$TEST_TMP/res-ext" ] || [ -z "$(ls -A "$TEST_TMP/res-ext")" ] ||
    fail "ext confirmed --dry-run: a record was written"

# A confirmation list that does not match what would be destroyed.
refused ext "$(at ext "$EXT"): has data: ext4 signature" \
	"--yes-destroy names $FREE, which holds no data: remove it from --yes-destroy" -- \
	--yes-destroy="$FREE"
refused ext "--yes-destroy names $OTHER, which (is not in this variant|no selected variant uses)" -- \
	--yes-destroy="$EXT,$OTHER"
refused ext "--yes-destroy names $DEVDIR/nope, which does not exist" -- \
	--yes-destroy="$EXT,$DEVDIR/nope"

# The member of a mounted two-device btrfs that mountinfo does not name.
lab btrfs "$FREE" "$BT2"
refused btrfs "$(at btrfs "$BT2"): member of the mounted btrfs $BTUUID \\(mounted on $TEST_TMP/bt\\)"
refused btrfs "$(at btrfs "$BT2"): member of the mounted btrfs $BTUUID \\(mounted on $TEST_TMP/bt\\) \\(--yes-destroy cannot override this\\)" \
	"!$HINT" -- --yes-destroy="$BT2"

# The disk that holds /, even confirmed (/dev/vda cannot even be opened
# here: the refusal must come all the same).
if [ -n "$ROOT" ]; then
	lab root "$ROOT" "$FREE"
	refused root "$(at root "$ROOT"): .*holds /.*never used, not even with --yes-destroy"
	refused root "$(at root "$ROOT"): .*holds /.*never used, not even with --yes-destroy" -- \
		--yes-destroy="$ROOT"
else
	echo "note: / is not on a block device here; root case left out" >&2
fi

# Not block devices, and a path that does not exist.
lab null /dev/null "$FREE"
refused null "$(at null /dev/null): not a block device"
lab file "$DEVDIR/file.img" "$FREE"
refused file "$(at file "$DEVDIR/file.img"): not a block device"
lab nope "$DEVDIR/nope" "$FREE"
refused nope "$(at nope "$DEVDIR/nope"): does not exist"

# The same device twice, through a symlink (the lab check already refuses
# the same string twice).
lab twice "$FREE" "$DEVDIR/link"
refused twice "$(at twice "$DEVDIR/link") \\($FREE\\): appears twice: the same device as $FREE"

# An md bitmap file that exists already: mdadm would refuse it, and the
# undo of the failed create would then remove it. Refused before anything
# runs, devices and file untouched (also here, where md is missing).
# (Not under /dev, where a TMPDIR on /dev/shm would put it: the lab check
# refuses bitmap files there.)
BDIR=$(mktemp -d /var/tmp/raidlab-g4rd.XXXXXX) || fail "mktemp /var/tmp"
echo "not raidlab's" >"$BDIR/kept.bitmap"
cat >"$TEST_TMP/bitmap.cfg" <<EOF
name = "g4rd-bitmap";
variants = ( { name = "g4rd-bitmap";
  array = { level = 1; bitmap = { file = "$BDIR/kept.bitmap"; }; devices = [ "$FREE", "$OTHER" ]; }; } );
workloads = ( { name = "small"; type = "smallfiles"; counts = [10]; } );
EOF
refused bitmap "raidlab run: [^ ]*bitmap\\.cfg:3: variants\\.g4rd-bitmap\\.array\\.bitmap\\.file: $BDIR/kept\\.bitmap already exists" \
	'refused: nothing was changed\.$'
expect_eq "bitmap: the file kept" "$(cat "$BDIR/kept.bitmap")" "not raidlab's"

# A bitmap file on a tmpfs: md maps the file's blocks (bmap), which tmpfs
# cannot, so mdadm's create would fail only after the members were wiped.
# Refused before anything runs.
mkdir "$BDIR/tmpfs" && mount -t tmpfs -o size=1M raidlab-g4rd "$BDIR/tmpfs" ||
	fail "mount a tmpfs"
TEST_MOUNTS="$TEST_MOUNTS$NL$BDIR/tmpfs"
sed "s|$BDIR/kept.bitmap|$BDIR/tmpfs/new.bitmap|" "$TEST_TMP/bitmap.cfg" \
	>"$TEST_TMP/bitmapfs.cfg"
refused bitmapfs "raidlab run: [^ ]*bitmapfs\\.cfg:3: variants\\.g4rd-bitmap\\.array\\.bitmap\\.file: $BDIR/tmpfs is on tmpfs, where md cannot keep a bitmap file" \
	'refused: nothing was changed\.$'
[ -z "$(ls -A "$BDIR/tmpfs")" ] || fail "bitmapfs: a file was made on the tmpfs"

# Nothing of ours is left attached or mounted by raidlab.
[ -z "$(losetup -nO NAME,BACK-FILE | grep raidlab-g4rd)" ] ||
    fail "a scratch loop device of these labs is still attached"
exit 0
