#!/bin/sh
# The fleet harness itself (tests/system/fleet-lib.sh): three loopback
# hosts, each its own sshd, answer through ssh with their host keys
# checked, each on its own address and port; a host whose key the client
# does not know is refused at once, with no prompt; a fio server listens
# on its host's address only; and once stopped,
# nothing the harness started is left, not even a session that was still
# running a command.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/system/fleet-lib.sh"

need_fleet

for n in 2 3 4; do
	fleet_host $n
done

# SSH_CONNECTION is "client port server port": the sshd that answered.
port=
for n in 2 3 4; do
	got=$(fleet_ssh $n 'echo "$SSH_CONNECTION"') || fail "ssh to host $n"
	eval "port=\$FLEET_PORT_$n"
	expect_match "host $n's connection" "$got" \
	    "^127\.[0-9.]+ [0-9]+ 127\.0\.0\.$n $port\$"
done

# An unknown host key: refused in batch mode, never asked about. The
# bound only catches a prompt that would hang.
fleet_forget 3
out=$(timeout 30 ssh -F "$FLEET_SSH_CONFIG" 127.0.0.3 true 2>&1 </dev/null)
expect_eq "ssh to an unknown host key, exit status" "$?" 255
expect_match "ssh's reason" "$out" "Host key verification failed"
fleet_ssh 2 true || fail "host 2 no longer answers"
fleet_ssh 4 true || fail "host 4 no longer answers"

# A fio server on host 2's address alone.
if command -v fio >/dev/null 2>&1; then
	fleet_fio_server 2
	expect_eq "fio's listening socket" \
	    "$(ss -Hltn "sport = :$FLEET_FIO_2" | awk '{ print $4 }')" \
	    "127.0.0.2:$FLEET_FIO_2"
	fio_pid=$(_fleet_pid 2 f)
	fleet_fio_stop 2
	_fleet_alive "$fio_pid" && fail "fio --server $fio_pid is left"
fi

# A session still running when its host is stopped goes with it.
: >"$TEST_TMP/session"
fleet_ssh 4 'echo up; exec sleep 600' >"$TEST_TMP/session" 2>&1 &
client=$!
i=0
while ! grep -q up "$TEST_TMP/session" && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q up "$TEST_TMP/session" || fail "the session on host 4 did not start"
all=
for n in 2 3 4; do
	for p in $(_fleet_pid $n s); do
		all="$all $(_fleet_tree "$p" | tr '\n' ' ')"
	done
done
# The listener, its session's monitor, and the command under it.
# shellcheck disable=SC2046
set -- $(_fleet_tree "$(_fleet_pid 4 s)")
[ $# -ge 3 ] || fail "host 4's session is not under its sshd: $*"
for n in 2 3 4; do
	fleet_stop $n
done
for p in $all; do
	_fleet_alive "$p" && fail "process $p is left: $(ps -o args= -p "$p")"
done
expect_eq "servers left" "$(fleet_pids)" ""
# The client sees its connection close.
i=0
while _fleet_alive $client && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
_fleet_alive $client && { kill $client; fail "ssh did not see host 4 go"; }
wait $client
expect_eq "the client's exit status" "$?" 255
exit 0
