#!/bin/sh
# Torture: 20 runs on scratch disks, each stopped at a random point (kill
# -9, or SIGINT as a user's Ctrl-C), then `raidlab cleanup`. After every
# cycle, no device the run did not create has changed (the signature
# blkid finds and a hash of every byte of three bystander devices: an
# ext4, a btrfs and raw data), and nothing of the run is left: no mount,
# no loop device over its files, no scratch file, no journal. The lab
# rotates through an ext4 with an external journal, a btrfs raid1 and an
# xfs. RAIDLAB_TORTURE_SEED replays one sequence of kill points (printed
# at the start); RAIDLAB_TORTURE_CYCLES changes the count.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd losetup findmnt mkfs.ext4 mkfs.btrfs mkfs.xfs btrfs blkid \
    sha256sum timeout awk

state="$TEST_TMP/state"
scratch="$TEST_TMP/scratch"
RAIDLAB_STATE_DIR=$state
export RAIDLAB_STATE_DIR
pid=
mkdir -p "$scratch"
cycles=${RAIDLAB_TORTURE_CYCLES:-20}
seed=${RAIDLAB_TORTURE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "seed $seed (RAIDLAB_TORTURE_SEED=$seed replays it)"

undo_leftovers() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	undo_run "$state" "$scratch"
	cleanup
}
trap undo_leftovers EXIT

# Bystanders: not raidlab's, attached before any run.
new_loop b_ext4 64M
mkfs.ext4 -q -F "$b_ext4" || fail "mkfs.ext4 $b_ext4"
new_loop b_btrfs 128M
mkfs.btrfs -q -f "$b_btrfs" >/dev/null || fail "mkfs.btrfs $b_btrfs"
new_loop b_raw 16M
dd if=/dev/urandom of="$b_raw" bs=1M count=16 status=none oflag=direct ||
    fail "dd $b_raw"
bystanders="$b_ext4 $b_btrfs $b_raw"

fingerprint() {
	for d in $bystanders; do
		printf '%s %s %s\n' "$d" \
		    "$(blkid -p -o export "$d" 2>/dev/null |
			grep -E '^(TYPE|UUID|UUID_SUB)=' | tr '\n' ' ')" \
		    "$(sha256sum <"$d" | cut -d' ' -f1)"
	done
}
before=$(fingerprint)

for kind in ext4 btrfs xfs; do
	case $kind in
	ext4) v='array = { engine = "single"; devices = ["scratch:0"]; };
	    fs = { type = "ext4"; journal = { device = "scratch:1"; }; };' n=2 ;;
	btrfs) v='array = { engine = "btrfs"; level = "raid1";
	    devices = ["scratch:0", "scratch:1"]; }; fs = { type = "btrfs"; };' n=2 ;;
	xfs) v='array = { engine = "single"; }; fs = { type = "xfs"; };' n=1 ;;
	esac
	cat >"$TEST_TMP/$kind.cfg" <<EOF
name = "torture";
variants = (
  { name = "$kind"; scratch = { count = $n; size = "320M"; dir = "$scratch"; };
    $v }
);
workloads = ( { type = "smallfiles"; count = 3000; size = "4K"; } );
EOF
done

leftovers() {
	findmnt -rn -o TARGET | grep "^$state/"
	losetup -a | grep -F "$scratch/"
	ls "$scratch"
	ls "$state"/*.journal 2>/dev/null
}

# Cycle 0 runs whole: its time bounds the kill points.
t0=$(date +%s%N)
"$RAIDLAB" run "$TEST_TMP/ext4.cfg" --results "$TEST_TMP/res" \
    >"$TEST_TMP/out" 2>&1 || fail "an uninterrupted run: $(cat "$TEST_TMP/out")"
span=$((($(date +%s%N) - t0) / 1000000))
echo "an uninterrupted run: $span ms"
[ -z "$(leftovers)" ] || fail "an uninterrupted run left: $(leftovers)"

# The kill points: one awk draws them all from the seed.
awk -v s="$seed" -v n="$cycles" -v span="$span" 'BEGIN {
	srand(s % 2147483647);
	for (c = 1; c <= n; c++) {
		k = int(rand() * 3);
		print (k == 0 ? "ext4" : k == 1 ? "btrfs" : "xfs"),
		    int(rand() * span * 1.2), (rand() < 0.34 ? "INT" : "KILL")
	} }' >"$TEST_TMP/points"
c=0
while read -r kind delay_ms sig; do
	c=$((c + 1))
	"$RAIDLAB" run "$TEST_TMP/$kind.cfg" --results "$TEST_TMP/res" \
	    >"$TEST_TMP/out" 2>&1 &
	pid=$!
	sleep "$(awk -v d="$delay_ms" 'BEGIN { printf "%.3f", d / 1000 }')"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
	out=$(timeout 300 "$RAIDLAB" cleanup 2>&1)
	rc=$?
	what="cycle $c ($kind, SIG$sig after $delay_ms ms)"
	expect_eq "$what: cleanup exit status ($out)" "$rc" 0
	expect_eq "$what: the bystanders" "$(fingerprint)" "$before"
	[ -z "$(leftovers)" ] ||
	    fail "$what: left behind: $(leftovers)$NL cleanup said: $out"
	echo "$what: ok${out:+: $(printf '%s' "$out" | grep -c .) cleanup lines}"
done <"$TEST_TMP/points"
[ "$c" -eq "$cycles" ] || fail "ran $c cycles of $cycles"
exit 0
