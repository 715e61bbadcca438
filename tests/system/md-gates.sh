#!/bin/sh
# What this machine's md cannot build is refused where the lab runs, not
# in the lab: a bitmap file under mdadm 4.4 or later (Debian 13 removed
# them) and a lockless bitmap without mdadm 4.6 and a kernel built with
# it. `raidlab check` and `raidlab plan` exit 3 naming the version, and
# `raidlab run` refuses before anything is touched, while the same lab
# checks clean under an older mdadm and its other variants stay
# selectable. The mdadm here is this machine's own, and a wrapper in
# PATH that answers --version as Debian 13's does (mdadm 4.4 itself runs
# in the VM test, tests/system/md-vm.sh).
# No root needed: nothing is built.
. "${top_srcdir:-.}/tests/system/lib.sh"

bin=$TEST_TMP/bin
mkdir -p "$bin"
# mdadm prints its version on stderr
cat >"$bin/mdadm" <<'SH'
#!/bin/sh
echo "mdadm - v4.4 - 2024-11-07 - Debian 4.4-11" >&2
SH
chmod +x "$bin/mdadm"

cat >"$TEST_TMP/lab.cfg" <<'LAB'
name = "gates";
defaults = { scratch = { count = 2; size = "1G"; }; };
variants = (
  { name = "internal"; array = { level = 1; bitmap = "internal"; }; },
  { name = "file";
    array = { level = 1; bitmap = { file = "/var/tmp/gates.bitmap"; }; }; },
  { name = "lockless"; array = { level = 1; bitmap = "lockless"; }; }
);
workloads = ( { type = "smallfiles"; counts = [10]; } );
LAB

PATH=$bin:$PATH "$RAIDLAB" check -q "$TEST_TMP/lab.cfg" >"$TEST_TMP/out" \
	2>"$TEST_TMP/err"
rc=$?
[ "$rc" = 3 ] || fail "check under mdadm 4.4: exit $rc, want 3: $(cat "$TEST_TMP/err")"
grep -qF 'lab.cfg:6: variants.file.array.bitmap: mdadm 4.4 has no bitmap files (removed in mdadm 4.4): use bitmap = "internal", or mdadm 4.3 or older (raidlab run refuses this here)' \
	"$TEST_TMP/err" || fail "check under mdadm 4.4 did not name it: $(cat "$TEST_TMP/err")"
grep -qF 'lab.cfg:7: variants.lockless.array.bitmap: a lockless bitmap needs mdadm 4.6 or later; this is mdadm 4.4' \
	"$TEST_TMP/err" || fail "check did not refuse lockless under 4.4: $(cat "$TEST_TMP/err")"
grep -q 'variants.internal' "$TEST_TMP/err" &&
	fail "check refused the internal bitmap: $(cat "$TEST_TMP/err")"

PATH=$bin:$PATH "$RAIDLAB" plan "$TEST_TMP/lab.cfg" >"$TEST_TMP/out" \
	2>"$TEST_TMP/err"
rc=$?
[ "$rc" = 3 ] || fail "plan under mdadm 4.4: exit $rc, want 3"
grep -qF '#   '"$TEST_TMP"'/lab.cfg:6: variants.file.array.bitmap: mdadm 4.4' \
	"$TEST_TMP/out" || fail "plan did not say the refusal: $(cat "$TEST_TMP/out")"

# Without the two, the lab is fine under 4.4: only the variants ask.
PATH=$bin:$PATH "$RAIDLAB" plan "$TEST_TMP/lab.cfg" -v internal \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" ||
	fail "plan -v internal under mdadm 4.4: $(cat "$TEST_TMP/err")"
grep -q -- '--bitmap=internal' "$TEST_TMP/out" ||
	fail "plan -v internal shows no mdadm command: $(cat "$TEST_TMP/out")"

# This machine's own mdadm (Debian 12's 4.2) builds bitmap files; no
# Debian kernel has the lockless bitmap, so lockless stays refused.
if command -v mdadm >/dev/null 2>&1 || [ -x /usr/sbin/mdadm ] || [ -x /sbin/mdadm ]; then
	PATH=$PATH:/usr/sbin:/sbin "$RAIDLAB" check -q "$TEST_TMP/lab.cfg" \
		>"$TEST_TMP/out" 2>"$TEST_TMP/err"
	v=$(PATH=$PATH:/usr/sbin:/sbin mdadm --version 2>&1)
	case $v in
	*v4.[0-3]*)
		grep -q 'variants.file' "$TEST_TMP/err" &&
			fail "check refused a bitmap file under $v: $(cat "$TEST_TMP/err")"
		grep -q 'variants.lockless.array.bitmap: kernel .* has no lockless bitmap' \
			"$TEST_TMP/err" || grep -q 'variants.lockless.array.bitmap: a lockless bitmap needs mdadm 4.6' "$TEST_TMP/err" ||
			fail "check accepted lockless here: $(cat "$TEST_TMP/err")"
		;;
	esac
fi
exit 0
