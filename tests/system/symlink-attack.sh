#!/bin/sh
# Another local user must not be able to steer a root run (issue 19,
# item 4). The attacker, an unprivileged process (nobody), owns the
# directory a root run works in, and swaps the directories root makes
# there (renameat2 RENAME_EXCHANGE) for its own, full of symlinks to a
# root-only file, so that root's O_CREAT|O_TRUNC opens would follow them.
# raidlab refuses such a directory (or one below such an ancestor) up
# front, naming it, its owner and its mode, and the victim stays as it
# was. The workloads' own *at()/O_NOFOLLOW discipline, with that check
# out of the way, is tested in tests/unit/test-wl-smallfiles.c.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd setpriv
[ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3"
id nobody >/dev/null 2>&1 || skip "needs the user nobody"

# The attacker's playground: nobody must reach it, TEST_TMP is 0700.
ATK=$(mktemp -d /tmp/raidlab-atk.XXXXXX) || fail "mktemp"
chmod 0755 "$ATK"
ATTACKER_PID=
atk_cleanup() {
	[ -n "$ATTACKER_PID" ] && kill "$ATTACKER_PID" 2>/dev/null
	[ -n "$ATTACKER_PID" ] && wait "$ATTACKER_PID" 2>/dev/null
	rm -rf "$ATK"
	cleanup
}
trap atk_cleanup EXIT

victim="$TEST_TMP/victim"
printf 'precious root-only data\n' >"$victim"
chmod 0600 "$victim"
want=$(sha256sum <"$victim")

# The attacker: waits for root's run directory R in its own directory D,
# and once R holds batch0 (its link count says so, no need to look
# inside) exchanges R for a directory of its own in which batch0 is a
# symlink back to the real one (root goes on unaware). Root then makes
# batch1 in the attacker's directory; once batch1 holds d0000 the
# attacker exchanges batch1 for one whose d0000 is full of symlinks to
# the victim. Prints "swapped" once both exchanges are done.
cat >"$ATK/attacker.py" <<'PY'
import ctypes, os, sys, time

libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2


def exchange(a, b):
    if libc.renameat2(AT_FDCWD, a.encode(), AT_FDCWD, b.encode(),
                      RENAME_EXCHANGE) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), a)


def wait_for(pred, deadline):
    while time.monotonic() < deadline:
        try:
            if pred():
                return True
        except OSError:
            pass
        time.sleep(0.0005)
    return False


d, victim, nfiles = sys.argv[1], sys.argv[2], int(sys.argv[3])
# A directory is only moved within its parent: moving it elsewhere would
# need write access to it (its ".."), and root's are 0700.
a1, c = os.path.join(d, "a1"), os.path.join(d, "c")
b = os.path.join(a1, "b")
for p in (a1, b, c):
    os.mkdir(p, 0o777)
# a1/batch0 names the real batch0 once the exchange has put it at a1.
os.symlink(os.path.join(a1, "batch0"), os.path.join(a1, "batch0"))
os.symlink(c, os.path.join(b, "d0000"))
for i in range(nfiles):
    os.symlink(victim, os.path.join(c, "f%07d" % i))
print("ready", flush=True)
deadline = time.monotonic() + 600
run = None
def found():
    global run
    for n in os.listdir(d):
        p = os.path.join(d, n)
        if n.startswith("raidlab-") and os.lstat(p).st_uid == 0:
            run = p
            return True
    return False
if not wait_for(found, deadline):
    sys.exit("no run directory appeared")
if not wait_for(lambda: os.lstat(run).st_nlink >= 3, deadline):
    sys.exit("no batch0 in " + run)
exchange(run, a1)
# After the exchange a1 holds root's real directory, run is ours.
batch1 = os.path.join(run, "batch1")
if not wait_for(lambda: os.lstat(batch1).st_nlink >= 3, deadline):
    sys.exit("no batch1/d0000 in " + run)
exchange(batch1, os.path.join(run, "b"))
print("swapped", flush=True)
PY
chmod 0644 "$ATK/attacker.py"

# victim_same WHAT: the victim holds what it held, else show what it has.
victim_same() {
	[ "$(sha256sum <"$victim")" = "$want" ] ||
	    fail "$1: the victim was overwritten: $(od -c "$victim" |
		head -3) (raidlab exited $rc)"
}

# start_attacker DIR: nobody attacks DIR (which nobody owns or can write).
start_attacker() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    /usr/bin/python3 "$ATK/attacker.py" "$1" "$victim" 4000 \
	    >"$ATK/attacker.out" 2>&1 &
	ATTACKER_PID=$!
	i=0
	until grep -q '^ready' "$ATK/attacker.out" 2>/dev/null; do
		kill -0 "$ATTACKER_PID" 2>/dev/null ||
		    fail "attacker died: $(cat "$ATK/attacker.out")"
		i=$((i + 1))
		[ "$i" -lt 1200 ] || fail "attacker not ready after 120 s"
		sleep 0.1
	done
}

stop_attacker() {
	kill "$ATTACKER_PID" 2>/dev/null
	wait "$ATTACKER_PID" 2>/dev/null
	ATTACKER_PID=
	sed 's/^/attacker: /' "$ATK/attacker.out" >&2
}

# lab DIR: two batches of many files in one directory each, so that the
# attacker has time between root's mkdirs and opens.
lab() {
	cat >"$TEST_TMP/lab.cfg" <<LAB
name = "attack";
cache = "keep";
variants = ( { name = "dir"; directory = "$1"; } );
workloads = ( { type = "smallfiles"; counts = [ 1000, 4000 ]; dirs = 1;
  size = "4K"; } );
LAB
}

# 1. A directory variant nobody owns: refused up front, naming the
# directory, its owner and mode; the victim unchanged.
install -d -o nobody -g nogroup -m 0755 "$ATK/d"
lab "$ATK/d"
start_attacker "$ATK/d"
"$RAIDLAB" run "$TEST_TMP/lab.cfg" --results "$TEST_TMP/res" \
    >"$TEST_TMP/out" 2>&1
rc=$?
stop_attacker
victim_same "victim after a run in nobody's directory"
[ "$rc" -ne 0 ] || fail "a run in nobody's directory exited 0: \
$(cat "$TEST_TMP/out")"
expect_match "refusal names the directory, owner and mode" \
	"$(cat "$TEST_TMP/out")" "$ATK/d.*(owned by|belongs to) nobody.*0755"
# No confirmation can make such a directory safe: none is offered.
! grep -q -- '--yes-destroy' "$TEST_TMP/out" ||
	fail "a directory refusal offers --yes-destroy: $(cat "$TEST_TMP/out")"
[ -z "$(find "$ATK/d" -name 'raidlab-*')" ] ||
	fail "root made a directory in nobody's directory"

# 2. The same with --target.
rm -rf "$ATK/d"
install -d -o nobody -g nogroup -m 0755 "$ATK/d"
start_attacker "$ATK/d"
"$RAIDLAB" run "$TEST_TMP/lab.cfg" --target "$ATK/d" \
    --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>&1
rc=$?
stop_attacker
victim_same "victim after --target in nobody's directory"
[ "$rc" -ne 0 ] || fail "--target in nobody's directory exited 0"
expect_match "--target refusal" "$(cat "$TEST_TMP/out")" \
	"$ATK/d.*nobody.*0755"

# 3. A root-owned directory below one nobody owns: nobody can still swap
# it, so it is refused too, naming the ancestor.
install -d -o nobody -g nogroup -m 0755 "$ATK/p"
install -d -m 0755 "$ATK/p/t"
lab "$ATK/p/t"
"$RAIDLAB" run "$TEST_TMP/lab.cfg" --results "$TEST_TMP/res" \
    >"$TEST_TMP/out" 2>&1 && fail "a run below nobody's directory exited 0"
expect_match "ancestor refusal" "$(cat "$TEST_TMP/out")" \
	"$ATK/p.*nobody"

# 4. A world-writable directory without the sticky bit, root's own:
# anybody may swap what root makes there.
install -d -m 0777 "$ATK/w"
chmod 0777 "$ATK/w"
# (the target itself exists: a missing one is a usage error first)
install -d -m 0755 "$ATK/w/x"
"$RAIDLAB" run "$TEST_TMP/lab.cfg" --target "$ATK/w/x" \
    --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>&1 &&
	fail "a run below a world-writable directory exited 0"
expect_match "world-writable refusal" "$(cat "$TEST_TMP/out")" \
	"$ATK/w.*0777"

# 5. What stays accepted: a directory of root's own in a sticky
# world-writable one (as /var/tmp), made by the run.
install -d -m 1777 "$ATK/s"
chmod 1777 "$ATK/s"
cat >"$TEST_TMP/ok.cfg" <<LAB
name = "ok";
cache = "keep";
variants = ( { name = "dir"; directory = "$ATK/s/mine"; } );
workloads = ( { type = "smallfiles"; count = 20; dirs = 2; } );
LAB
"$RAIDLAB" run "$TEST_TMP/ok.cfg" --results "$TEST_TMP/res" \
    >"$TEST_TMP/out" 2>&1 || fail "a run in a sticky directory: \
$(cat "$TEST_TMP/out")"
# 6. Links on the way are judged too: root's link to nobody's directory,
# and nobody's link (in the sticky directory) to root's. The target
# itself a link: named, since the run opens it without following one.
install -d -m 0755 "$ATK/d/x"
ln -s "$ATK/d" "$ATK/to-nobody"
"$RAIDLAB" run "$TEST_TMP/ok.cfg" --target "$ATK/to-nobody/x" \
    --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>&1 &&
	fail "a run through a link to nobody's directory exited 0"
expect_match "link to nobody's directory" "$(cat "$TEST_TMP/out")" \
	"$ATK/d, which belongs to nobody"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
    ln -s "$ATK" "$ATK/s/by-nobody" || fail "nobody's link"
"$RAIDLAB" run "$TEST_TMP/ok.cfg" --target "$ATK/s/by-nobody/s/mine" \
    --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>&1 &&
	fail "a run through nobody's link exited 0"
expect_match "nobody's link" "$(cat "$TEST_TMP/out")" \
	"$ATK/s/by-nobody, which belongs to nobody"
ln -s "$ATK/s/mine" "$ATK/s/to-mine"
"$RAIDLAB" run "$TEST_TMP/ok.cfg" --target "$ATK/s/to-mine" \
    --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>&1 &&
	fail "a run on a link exited 0"
expect_match "the target a link" "$(cat "$TEST_TMP/out")" \
	"$ATK/s/to-mine is a symbolic link"
# 7. Scratch disks in nobody's directory: losetup attaches an image by
# its name, which nobody could point at the victim; refused before any
# file is made there.
rm -rf "$ATK/d"
install -d -o nobody -g nogroup -m 0755 "$ATK/d"
cat >"$TEST_TMP/scratch.cfg" <<LAB
name = "scratch";
variants = ( { name = "one";
  scratch = { count = 1; size = "64M"; dir = "$ATK/d"; };
  array = { engine = "single"; }; fs = { type = "ext4"; }; } );
workloads = ( { type = "smallfiles"; count = 100; } );
LAB
"$RAIDLAB" run "$TEST_TMP/scratch.cfg" --results "$TEST_TMP/res" \
    >"$TEST_TMP/out" 2>&1 &&
	fail "scratch disks in nobody's directory: exit 0"
expect_match "scratch dir refusal" "$(cat "$TEST_TMP/out")" \
	"scratch\.cfg:[0-9]+: variants\.one\.scratch\.dir: $ATK/d belongs to nobody"
[ -z "$(ls -A "$ATK/d")" ] || fail "root made a file in nobody's directory"
victim_same "at the end"
exit 0
