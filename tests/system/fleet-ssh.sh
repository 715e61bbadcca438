#!/bin/sh
# The ssh transport (src/fleet/ssh) against three loopback hosts of the
# fleet harness, through tests/unit/ssh-tool: the probe tells a ready
# host, one without raidlab in its PATH and one with another raidlab
# version apart, each named, also from three threads at once; awkward arguments and a lab path with
# spaces and shell characters arrive intact; stdin, a copy and its
# removal; stdout and stderr apart with the remote status; a live line
# seen while the command still runs; a timeout; a host whose sshd was
# killed, or whose key is unknown, reported as unreachable while the
# others still answer.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/system/fleet-lib.sh"

need_fleet
TOOL=${SSH_TOOL:-$(dirname "$RAIDLAB")/tests/unit/ssh-tool}
[ -x "$TOOL" ] || fail "no $TOOL (make check builds it)"
# Linux's errno values, as the module returns them negated.
ENOENT=2 EPROTO=71 ETIMEDOUT=110 EHOSTUNREACH=113 ESTALE=116

tool() { # N ARGS...: the module's call on 127.0.0.N
	_n=$1
	shift
	"$TOOL" "$FLEET_SSH_CONFIG" "127.0.0.$_n" "$@" </dev/null
}
field() { # NAME TEXT: the value of "NAME: value" in TEXT
	printf '%s\n' "$2" | sed -n "s/^$1: //p"
}

for n in 2 3 4; do
	fleet_host $n
done
ours=$("$RAIDLAB" --version | sed -n 's/^raidlab //p')
[ -n "$ours" ] || fail "no version from $RAIDLAB --version"
# Host 3 has no raidlab; host 4's is another version.
rm "$FLEET_DIR/h3/bin/raidlab"
printf '#!/bin/sh\necho "raidlab 9.9.9"\n' >"$FLEET_DIR/h4/bin/raidlab"

out=$(tool 2 probe "$ours") || fail "probe of host 2: $out"
expect_eq "host 2's state" "$(field state "$out")" ok
expect_eq "host 2's raidlab" "$(field path "$out")" "$FLEET_DIR/h2/bin/raidlab"
expect_eq "host 2's version" "$(field version "$out")" "$ours"

out=$(tool 3 probe "$ours") && fail "probe of host 3 passed: $out"
expect_eq "host 3's state" "$(field state "$out")" missing
expect_eq "host 3's code" "$(field rc "$out")" -$ENOENT
expect_match "host 3's message" "$(field msg "$out")" \
    "^127\.0\.0\.3: raidlab is not installed there"

out=$(tool 4 probe "$ours") && fail "probe of host 4 passed: $out"
expect_eq "host 4's state" "$(field state "$out")" version
expect_eq "host 4's code" "$(field rc "$out")" -$ESTALE
expect_match "host 4's message" "$(field msg "$out")" \
    "^127\.0\.0\.4: raidlab 9\.9\.9 there, $ours here"

# The three at once, a thread each, as a fleet runner would probe them.
out=$(tool 2,127.0.0.3,127.0.0.4 probe "$ours")
expect_eq "three probes at once" "$out" "$(printf '%s\n' \
    "127.0.0.2 state: ok" "127.0.0.3 state: missing" "127.0.0.4 state: version")"

# Each word as the remote printf got it; the login shell parses the line.
out=$(tool 2 run -- printf '<%s>' 'a b' "it's" '$(echo x)' '`id`' \
    'a;b|c&d' '*' '' '\' '"q"' '$HOME' '-n' '~' 'x=1') ||
	fail "awkward arguments: $out"
expect_eq "awkward arguments" "$(field out "$out")" \
    "<a b><it's><\$(echo x)><\`id\`><a;b|c&d><*><><\\><\"q\"><\$HOME><-n><~><x=1>"

# A lab path with spaces and shell characters, read there.
dir="$TEST_TMP/my lab;\$x 'q'"
mkdir -p "$dir"
printf 'name = "remote";\nline two\n' >"$dir/l a b.cfg"
out=$(tool 2 run -- cat "$dir/l a b.cfg") || fail "cat: $out"
expect_eq "the file read there" "$(field out "$out")" \
    "$(printf 'name = "remote";\nline two')"

# stdin from a file.
out=$(tool 2 run -i "$dir/l a b.cfg" -- wc -l) || fail "stdin: $out"
expect_eq "lines read from stdin" "$(field out "$out")" 2

# The copy: a new 0700 directory there, the file as NAME, then removed.
out=$(tool 2 copy "$dir/l a b.cfg" "l a b.cfg") || fail "copy: $out"
remote=$(field remote "$out")
expect_match "the copy's path" "$remote" "^/.*/raidlab\.[A-Za-z0-9]{6}/l a b\.cfg\$"
cmp "$dir/l a b.cfg" "$remote" || fail "the copy differs"
expect_eq "the copy's directory mode" "$(stat -c %a "${remote%/*}")" 700
out=$(tool 2 uncopy "$remote") || fail "uncopy: $out"
[ -e "${remote%/*}" ] && fail "the copy's directory is left"
out=$(tool 2 copy "$dir/nonexistent" x) && fail "a missing file was copied"
expect_match "a missing local file" "$(field msg "$out")" "cannot read .*nonexistent"
out=$(tool 2 copy "$dir/l a b.cfg" "../x") && fail "a path was taken as a name"
expect_eq "a bad name's code" "$(field rc "$out")" -22

# stdout and stderr apart, the remote status kept.
out=$(tool 2 run -- sh -c 'echo to-out; echo to-err >&2; exit 3') &&
	fail "exit 3 passed"
expect_eq "stdout" "$(field out "$out")" to-out
expect_eq "stderr" "$(field err "$out")" to-err
expect_eq "the remote status" "$(field status "$out")" 3
expect_eq "a failed command's code" "$(field rc "$out")" -$EPROTO
expect_match "a failed command's message" "$(field msg "$out")" \
    "^127\.0\.0\.2: sh failed \(exit status 3\): to-err"

# A live line: seen while the remote command waits for the go.
: >"$TEST_TMP/live"
tool 2 run -- sh -c 'echo started; while [ ! -e "$1" ]; do sleep 0.1; done
echo finished' sh "$TEST_TMP/go" >"$TEST_TMP/live" 2>&1 &
live=$!
i=0
while ! grep -q '^out: started$' "$TEST_TMP/live" && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q '^out: started$' "$TEST_TMP/live" || fail "no live line: $(cat "$TEST_TMP/live")"
_fleet_alive $live || fail "the command ended before the go"
grep -q "^out: finished" "$TEST_TMP/live" &&
	fail "finished before the go: $(cat "$TEST_TMP/live")"
touch "$TEST_TMP/go"
wait $live || fail "the live command failed: $(cat "$TEST_TMP/live")"
expect_eq "the live run's lines" "$(field out "$(cat "$TEST_TMP/live")")" \
    "$(printf 'started\nfinished')"

# A timeout gives up on the host; ssh's own timeout is not waited for.
out=$(tool 2 run -t 2 -- sleep 60) && fail "sleep 60 passed in 2 s"
expect_eq "a timeout's code" "$(field rc "$out")" -$ETIMEDOUT
expect_match "a timeout's message" "$(field msg "$out")" \
    "^127\.0\.0\.2: no answer within 2 s"

# Host 3's sshd killed: unreachable, named, with ssh's reason; the
# others still answer.
fleet_stop 3
out=$(tool 3 probe "$ours") && fail "probe of a stopped host passed"
expect_eq "a stopped host's state" "$(field state "$out")" unreachable
expect_eq "a stopped host's code" "$(field rc "$out")" -$EHOSTUNREACH
expect_match "a stopped host's message" "$(field msg "$out")" \
    "^could not reach 127\.0\.0\.3: .*Connection refused"
out=$(tool 2 probe "$ours") || fail "host 2 after host 3 went: $out"
out=$(tool 4 probe "$ours")
expect_eq "host 4 after host 3 went" "$(field state "$out")" version

# An unknown host key: refused as ssh refuses it, never asked.
fleet_forget 4
out=$(timeout 60 "$TOOL" "$FLEET_SSH_CONFIG" 127.0.0.4 probe "$ours" </dev/null)
expect_eq "an unknown key's state" "$(field state "$out")" unreachable
expect_match "an unknown key's message" "$(field msg "$out")" \
    "^could not reach 127\.0\.0\.4: Host key verification failed"
exit 0
