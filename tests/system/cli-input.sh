#!/bin/sh
# Command-line input of `raidlab run`, and the messages around it (issue
# 19, items 15 and 16). Without root: --set refuses a number that does
# not fit and text after the value (exit 2, the option, key and value
# named, no record); --disk refuses an index no variant uses, naming the
# ones it does; --hook is checked before anything (run and run -n); a
# directory variant's hook result is recorded, its non-UTF-8 bytes kept
# as \xNN; compare writes 1e308 as 1e+308. As root, on loop devices:
# an array variant's hook keeps its bytes; --disk for an unused index is
# refused on a disk with data; a --yes-destroy entry matching nothing is
# reported beside a has-data refusal; as another user, run -n and run of
# an array lab say "building arrays needs root"; cleanup says a loop
# device that detached was detached, not that a new one is attached.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq

cat >"$TEST_TMP/lab.cfg" <<EOF
name = "inp";
repeats = 1;
cache = "keep";
results = "$TEST_TMP/results";
variants = ( { name = "alpha"; directory = "$TEST_TMP/a"; } );
workloads = ( { name = "small"; type = "smallfiles"; count = 1000;
  size = "1K"; dirs = 2; } );
EOF
lab=$TEST_TMP/lab.cfg

# bad WHAT REGEX ARGS...: exit 2, the message on stderr, no record.
bad() {
	_what=$1 _re=$2
	shift 2
	"$RAIDLAB" run "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	expect_eq "$_what: exit status ($(cat "$TEST_TMP/err"))" "$?" 2
	expect_match "$_what: said" "$(cat "$TEST_TMP/err")" "$_re"
	[ ! -d "$TEST_TMP/results" ] || fail "$_what: a record was written"
}

# ---- --set: a number that does not fit in 32 bits is not cut to 1
bad "--set 2^32+1" '^--set: small\.count: 4294967297 is out of range' \
	--set small.count=4294967297 "$lab"
bad "--set 2^32+1 (hex)" '^--set: small\.count: 4294967297 is out of range' \
	--set small.count=0x100000001 "$lab"
bad "--set 2^31" '^--set: small\.count: 2147483648 is out of range' \
	--set small.count=2147483648 "$lab"
bad "--set 2^32+1 bytes" '^--set: small\.size: 4294967297 is out of range' \
	--set small.size=4294967297 "$lab"
bad "--set over 64 bits" \
	'^--set: small\.count=99999999999999999999: the number is too large' \
	--set small.count=99999999999999999999 "$lab"
out=$("$RAIDLAB" plan --set small.count=50 "$lab" 2>&1) ||
	fail "plan --set small.count=50: $out"
expect_match "--set in range" "$out" 'workloads\.small\.count: 1000 -> 50'

# ---- --set: text after the value is refused, not half applied
bad "--set a second key" \
	'^--set: small\.count=10; sync = true: text after the value' \
	--set "small.count=10; sync = true" "$lab"
bad "--set a comment" '^--set: small\.count=10 /\* x \*/: text after the value' \
	--set "small.count=10 /* x */" "$lab"
bad "--set two numbers" '^--set: small\.count: expected an integer' \
	--set "small.count=10 20" "$lab"
bad "--set 10abc" '^--set: small\.count: expected an integer' \
	--set "small.count=10abc" "$lab"

# ---- --disk for an index no variant uses
"$RAIDLAB" plan --disk scratch:0=/dev/vdb --disk scratch:1=/dev/vdc \
	--disk scratch:2=/dev/vdd --disk scratch:3=/dev/vde \
	--disk scratch:7=/dev/vdz seed-003-raid10-f2-vs-btrfs \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "--disk unused index: exit status" "$?" 2
expect_match "--disk unused index: the indices used" "$(cat "$TEST_TMP/err")" \
	'^--disk: scratch:7=/dev/vdz: no variant of .* uses scratch:7 \(it uses scratch:0, scratch:1, scratch:2, scratch:3\)$'
bad "--disk on a lab of directories" \
	'^--disk: scratch:0=/dev/vdb: no variant of .* uses a scratch disk' \
	--disk scratch:0=/dev/vdb "$lab"

# ---- --hook: checked before anything, in run and run -n
printf 'not a program\n' >"$TEST_TMP/noexec"
for n in "" -n; do
	# shellcheck disable=SC2086
	bad "run $n --hook missing" \
		"^raidlab run: --hook: $TEST_TMP/nope: " \
		$n --hook "$TEST_TMP/nope" "$lab"
	# shellcheck disable=SC2086
	bad "run $n --hook not executable" \
		"^raidlab run: --hook: $TEST_TMP/noexec: not executable" \
		$n --hook "$TEST_TMP/noexec" "$lab"
	# shellcheck disable=SC2086
	bad "run $n --hook a directory" \
		"^raidlab run: --hook: $TEST_TMP: not a regular file" \
		$n --hook "$TEST_TMP" "$lab"
	# shellcheck disable=SC2086
	bad "run $n --hook not in PATH" \
		'^raidlab run: --hook: raidlab-no-such-hook: no such program' \
		$n --hook raidlab-no-such-hook "$lab"
done

# ---- a directory variant's hook is recorded, with bytes in Latin-1
cat >"$TEST_TMP/hook" <<'EOF'
#!/bin/sh
printf 'caf\351 %s\n' "$1"
EOF
chmod +x "$TEST_TMP/hook"
"$RAIDLAB" run --hook "$TEST_TMP/hook" "$lab" >/dev/null \
	2>"$TEST_TMP/err" || fail "run --hook: $(cat "$TEST_TMP/err")"
rec=$(ls "$TEST_TMP"/results/inp-*.json)
expect_eq "directory hook: recorded" \
	"$(jq -r '.hooks | map("\(.variant) \(.target) \(.status) \(.output)") |
	join("|")' "$rec")" "alpha $TEST_TMP/a 0 caf\\xe9 alpha"

# ---- compare: 1e308 is not a 31-digit number
jq '.runs[0].tests[0].value = 1e308' "$rec" >"$TEST_TMP/huge.json"
out=$("$RAIDLAB" compare "$TEST_TMP/huge.json") || fail "compare: $out"
expect_match "compare 1e308" "$out" '^ +alpha +1e\+308 '
! printf '%s\n' "$out" | grep -Eq '[0-9]{16}' ||
	fail "compare 1e308: a long number: $out"
# normal figures as before: the record's own, to one decimal or none
v=$(jq -r '.runs[0].tests[0].value' "$rec")
want=$(awk -v v="$v" 'BEGIN { if (v < 100) printf "%.2f", v;
	else if (v < 10000) printf "%.1f", v; else printf "%.0f", v }')
out=$("$RAIDLAB" compare "$rec") || fail "compare: $out"
expect_match "compare: a normal figure" "$out" "^ +alpha +$want "
rm -rf "$TEST_TMP/results"

# ================================================================ root
need_root
need_cmd losetup mkfs.ext4 setpriv findmnt timeout
state=$TEST_TMP/state
scratch=$TEST_TMP/scratch
RAIDLAB_STATE_DIR=$state
export RAIDLAB_STATE_DIR
mkdir -p "$scratch"
pid=
undo_leftovers() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	undo_run "$state" "$scratch"
	cleanup
}
trap undo_leftovers EXIT

# ---- an array variant's hook keeps its bytes too
cat >"$TEST_TMP/arr.cfg" <<EOF
name = "arr";
repeats = 1;
cache = "keep";
results = "$TEST_TMP/results";
variants = (
  { name = "dir"; directory = "$TEST_TMP/d"; },
  { name = "one"; scratch = { count = 1; size = "300M"; dir = "$scratch"; };
    array = { engine = "single"; }; fs = { type = "ext4"; }; }
);
workloads = ( { name = "small"; type = "smallfiles"; count = 100;
  size = "1K"; dirs = 2; } );
EOF
# A build step's own output keeps its bytes as well: mkfs.ext4 found
# first on PATH says a Latin-1 word, then is the real one.
mkdir -p "$TEST_TMP/bin"
real_mkfs=$(PATH=$PATH:/usr/sbin:/sbin command -v mkfs.ext4)
printf '#!/bin/sh\nprintf "caf\\351 mkfs\\n"\nexec %s "$@"\n' \
	"$real_mkfs" >"$TEST_TMP/bin/mkfs.ext4"
chmod 755 "$TEST_TMP/bin/mkfs.ext4"
PATH="$TEST_TMP/bin:$PATH" "$RAIDLAB" run --hook "$TEST_TMP/hook" \
	"$TEST_TMP/arr.cfg" >/dev/null 2>"$TEST_TMP/err" ||
	fail "run arrays --hook: $(cat "$TEST_TMP/err")"
rec=$(ls "$TEST_TMP"/results/arr-*.json)
expect_eq "array hook: its bytes" \
	"$(jq -r '.builds[0].hook.output' "$rec")" "caf\\xe9 one"
expect_match "build step: its bytes" "$(jq -r '.builds[0].steps[] |
	select(.argv[0] | endswith("mkfs.ext4")) | .output' "$rec")" \
	'^caf\\xe9 mkfs'
expect_eq "array hook: directory beside it" \
	"$(jq -r '[.hooks[].variant] | join(",")' "$rec")" "dir"

# ---- --disk for an unused index, on a disk with data
full='' blank=''
new_loop full 64M
mkfs.ext4 -q -F -L mine "$full" || fail "mkfs.ext4 $full"
"$RAIDLAB" run -n --disk "scratch:5=$full" "$TEST_TMP/arr.cfg" \
	>/dev/null 2>"$TEST_TMP/err"
expect_eq "--disk unused, data: exit status" "$?" 2
expect_match "--disk unused, data: said" "$(cat "$TEST_TMP/err")" \
	"^--disk: scratch:5=$full: no variant of .* uses scratch:5 \\(it uses scratch:0\\)"
expect_eq "--disk unused, data: kept" "$(blkid -o value -s LABEL "$full")" mine

# ---- --yes-destroy matching nothing, beside a has-data refusal
new_loop blank 64M
cat >"$TEST_TMP/data.cfg" <<EOF
name = "data";
cache = "keep";
results = "$TEST_TMP/results";
variants = ( { name = "v"; array = { engine = "single";
  devices = ["$full"]; }; fs = { type = "ext4"; }; } );
workloads = ( { type = "smallfiles"; count = 100; size = "1K"; } );
EOF
for n in -n ""; do
	# shellcheck disable=SC2086
	! "$RAIDLAB" run $n --yes-destroy="$blank" "$TEST_TMP/data.cfg" \
		>/dev/null 2>"$TEST_TMP/err" ||
		fail "run $n: a disk with data was not refused"
	expect_match "run $n: has data" "$(cat "$TEST_TMP/err")" "$full.*(data|ext4)"
	expect_match "run $n: the unmatched confirmation" \
		"$(cat "$TEST_TMP/err")" "names $blank, which no selected variant uses"
done
expect_eq "has data: kept" "$(blkid -o value -s LABEL "$full")" mine

# ---- another user: building arrays needs root, said up front
chmod 755 "$TEST_TMP"
mkdir -p "$TEST_TMP/nob"
chown nobody "$TEST_TMP/nob"
sed -e "s|$TEST_TMP/d\"|$TEST_TMP/nob/d\"|" \
	-e "s|$TEST_TMP/results|$TEST_TMP/nob/results|" \
	-e "s|dir = \"$scratch\"|dir = \"$TEST_TMP/nob\"|" \
	"$TEST_TMP/arr.cfg" >"$TEST_TMP/nob.cfg"
chmod 644 "$TEST_TMP/nob.cfg"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env HOME="$TEST_TMP/nob" RAIDLAB_STATE_DIR= "$@"
}
# A build in a directory closed to others (a private mktemp -d, a 0700
# home) cannot be run as nobody: that part is passed over, and said.
if ! as_nobody test -x "$RAIDLAB"; then
	echo "not run: nobody cannot execute $RAIDLAB (a directory above it is closed to others)"
else
	for n in -n ""; do
		# shellcheck disable=SC2086
		! as_nobody "$RAIDLAB" run $n "$TEST_TMP/nob.cfg" >/dev/null \
			2>"$TEST_TMP/err" ||
			fail "non-root run $n of arrays: exit 0"
		expect_match "non-root run $n: said" "$(cat "$TEST_TMP/err")" \
			'^raidlab run: building arrays needs root: variant one is an array'
		! grep -q 'every check passed\|state' "$TEST_TMP/err" ||
			fail "non-root run $n: $(cat "$TEST_TMP/err")"
	done
	[ ! -d "$TEST_TMP/nob/results" ] ||
		fail "non-root run: a record was written"
	as_nobody "$RAIDLAB" run -n -v dir "$TEST_TMP/nob.cfg" >/dev/null \
		2>"$TEST_TMP/err" ||
		fail "non-root run -n of a directory: $(cat "$TEST_TMP/err")"
fi

# ---- cleanup: a loop that detached is not "a new one attached"
cat >"$TEST_TMP/det.cfg" <<EOF
name = "det";
cache = "keep";
results = "$TEST_TMP/results";
variants = ( { name = "one";
  scratch = { count = 1; size = "300M"; dir = "$scratch"; };
  array = { engine = "single"; }; fs = { type = "ext4"; }; } );
workloads = ( { type = "smallfiles"; count = 100000000; size = "0";
  sync = false; } );
EOF
"$RAIDLAB" run "$TEST_TMP/det.cfg" >/dev/null 2>"$TEST_TMP/err" &
pid=$!
i=0
while [ -z "$(run_mounts "$state")" ]; do
	kill -0 "$pid" 2>/dev/null ||
		fail "run ended before its mount: $(cat "$TEST_TMP/err")"
	[ $i -lt 600 ] || fail "run: no mount within 60 s"
	sleep 0.1
	i=$((i + 1))
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
run_mounts "$state" | while IFS= read -r m; do umount "$m"; done
img=$(ls "$scratch"/raidlab-one-*.img)
dev=$(losetup -j "$img" | cut -d: -f1)
[ -n "$dev" ] || fail "killed run: $img is not attached"
losetup -d "$dev" || fail "losetup -d $dev"
out=$(timeout 300 "$RAIDLAB" cleanup 2>&1)
expect_eq "detached: cleanup exit status ($out)" "$?" 0
if [ -n "$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)" ]; then
	# somebody's losetup -f took the name meanwhile: then it is true
	echo "note: $dev was attached again meanwhile; not checked"
else
	expect_match "detached: said" "$out" "$dev was detached: nothing is attached"
	! printf '%s' "$out" | grep -q 'new one attached' ||
		fail "detached: a new one said attached: $out"
	! printf '%s' "$out" | grep -q 'left alone' ||
		fail "detached: something left alone: $out"
fi
[ ! -e "$img" ] || fail "detached: $img left"
echo "cli-input: ok"
