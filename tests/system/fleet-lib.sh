# Hosts for the fleet tests, on one machine: host N is the loopback
# address 127.0.0.N with its own sshd (Debian's /usr/sbin/sshd, started
# here with a host key, sshd_config and authorized_keys made for the
# test in $TEST_TMP) and optionally its own fio server. Sourced after
# lib.sh, never run. Traffic stays in 127.0.0.0/8, and every server
# started here is stopped by its PID (and its sessions by theirs) by
# fleet_stop or the exit trap.
#
#   need_fleet            skip unless root, sshd, ssh and ssh-keygen exist
#   fleet_host N          start 127.0.0.N's sshd; its port in FLEET_PORT_N
#   fleet_stop N          kill that sshd and every session under it
#   fleet_forget N        drop N's host key from the client's known_hosts
#   fleet_fio_server N    start `fio --server` on 127.0.0.N (FLEET_FIO_N)
#   fleet_fio_stop N      kill it
#   fleet_ssh N CMD...    run CMD there (argv joined by ssh, as ssh does)
#   fleet_pids            every PID started here and still alive
# The client side: FLEET_SSH_CONFIG (ssh -F) with BatchMode, the test's
# key and known_hosts, StrictHostKeyChecking=yes. Host N's sessions get
# PATH=$FLEET_DIR/hN/bin:/usr/sbin:/usr/bin:/sbin:/bin and
# TMPDIR=$FLEET_DIR/hN/tmp (where a copied lab goes); its bin holds a
# `raidlab` that runs $RAIDLAB, which a test may replace or remove.

FLEET_DIR=$TEST_TMP/fleet
FLEET_SSH_CONFIG=$FLEET_DIR/ssh_config
FLEET_STARTED= # "N:PID" for each server, space-separated

need_fleet() {
	[ "$(id -u)" = 0 ] || skip "needs root (sshd's privilege separation)"
	[ -x /usr/sbin/sshd ] || skip "needs /usr/sbin/sshd (openssh-server)"
	need_cmd ssh ssh-keygen ps
}

# The client's key, config and known_hosts, once per test.
_fleet_init() {
	[ -f "$FLEET_DIR/client_key" ] && return 0
	mkdir -p "$FLEET_DIR" || fail "mkdir $FLEET_DIR"
	chmod 700 "$FLEET_DIR"
	ssh-keygen -q -t ed25519 -N '' -C raidlab-test \
	    -f "$FLEET_DIR/client_key" || fail "ssh-keygen (client)"
	: >"$FLEET_DIR/known_hosts"
	cat >"$FLEET_SSH_CONFIG" <<EOF
Host *
	User $(id -un)
	BatchMode yes
	IdentityFile $FLEET_DIR/client_key
	IdentitiesOnly yes
	UserKnownHostsFile $FLEET_DIR/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	UpdateHostKeys no
	CheckHostIP no
	ConnectTimeout 5
	ControlMaster no
	ControlPath none
	ForwardAgent no
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	LogLevel ERROR
EOF
	# Privilege separation needs it; Debian makes it at boot only.
	mkdir -p /run/sshd
}

# Every PID under $1 (its children, theirs...), then $1, one a line.
_fleet_tree() {
	ps -e -o pid= -o ppid= | awk -v root="$1" '
	{ parent[$1] = $2; pids[++n] = $1 }
	END {
		keep[root] = 1
		do {
			more = 0
			for (i = 1; i <= n; i++) {
				p = pids[i]
				if (!(p in keep) && (parent[p] in keep)) {
					keep[p] = 1
					more = 1
				}
			}
		} while (more)
		for (p in keep)
			if (p != root)
				print p
		print root
	}'
}

# _fleet_alive PID: running, not a zombie.
_fleet_alive() {
	_s=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	case $_s in Z*) return 1 ;; esac
	return 0
}

_fleet_pid() { # N KIND: the PID recorded for host N's sshd or fio
	for _e in $FLEET_STARTED; do
		case $_e in "$2$1:"*) echo "${_e#*:}" ;; esac
	done
}

_fleet_forget_pid() { # PID
	_l=
	for _e in $FLEET_STARTED; do
		[ "${_e#*:}" = "$1" ] || _l="$_l $_e"
	done
	FLEET_STARTED=$_l
}

# _fleet_gone PIDS...: SIGTERM each, wait (bounded) until each is gone,
# SIGKILL what is left.
_fleet_gone() {
	[ $# -gt 0 ] || return 0
	kill "$@" 2>/dev/null
	for _p in "$@"; do
		_i=0
		while _fleet_alive "$_p" && [ $_i -lt 100 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		_fleet_alive "$_p" && kill -9 "$_p" 2>/dev/null
	done
	return 0
}

# _fleet_kill PID: everything under that process, then the process, by
# PID. Children first, so that their parents reap them and none is left
# a zombie for init.
_fleet_kill() {
	# shellcheck disable=SC2046
	_fleet_gone $(_fleet_tree "$1" | sed '$d')
	_fleet_gone "$1"
	wait "$1" 2>/dev/null
	_fleet_forget_pid "$1"
	return 0
}

# The host's sshd_config (argument: N, port).
_fleet_sshd_config() {
	_h=$FLEET_DIR/h$1
	cat >"$_h/sshd_config" <<EOF
ListenAddress 127.0.0.$1:$2
HostKey $_h/host_key
PidFile $_h/sshd.pid
AuthorizedKeysFile $_h/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
PrintMotd no
X11Forwarding no
MaxStartups 64
SetEnv PATH=$_h/bin:/usr/sbin:/usr/bin:/sbin:/bin TMPDIR=$_h/tmp
EOF
}

# fleet_host N: start 127.0.0.N's sshd on a free port and wait until it
# listens. FLEET_PORT_N holds the port.
fleet_host() {
	_fleet_init
	_h=$FLEET_DIR/h$1
	mkdir -p "$_h/bin" "$_h/tmp" || fail "mkdir $_h"
	ssh-keygen -q -t ed25519 -N '' -C "host$1" -f "$_h/host_key" </dev/null ||
		fail "ssh-keygen (host $1)"
	cp "$FLEET_DIR/client_key.pub" "$_h/authorized_keys"
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$RAIDLAB" >"$_h/bin/raidlab"
	chmod 755 "$_h/bin/raidlab"
	for _try in 1 2 3 4 5; do
		# Ports from a range far from well-known and ephemeral ones.
		_port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 10000))
		_fleet_sshd_config "$1" "$_port"
		rm -f "$_h/sshd.pid"
		/usr/sbin/sshd -D -f "$_h/sshd_config" -E "$_h/sshd.log" &
		_pid=$!
		FLEET_STARTED="$FLEET_STARTED s$1:$_pid"
		# The pid file is written once the socket listens.
		_i=0
		while [ ! -s "$_h/sshd.pid" ] && _fleet_alive $_pid &&
		    [ $_i -lt 200 ]; do
			sleep 0.05
			_i=$((_i + 1))
		done
		if [ -s "$_h/sshd.pid" ] && _fleet_alive $_pid; then
			[ "$(cat "$_h/sshd.pid")" = "$_pid" ] ||
				fail "host $1: sshd.pid is not $_pid"
			eval "FLEET_PORT_$1=\$_port"
			printf '[127.0.0.%s]:%s %s\n' "$1" "$_port" \
			    "$(cut -d' ' -f1,2 "$_h/host_key.pub")" \
			    >>"$FLEET_DIR/known_hosts"
			printf 'Host 127.0.0.%s\n\tPort %s\n' "$1" "$_port" \
			    >>"$FLEET_SSH_CONFIG"
			return 0
		fi
		_fleet_kill $_pid
		grep -q 'Address already in use' "$_h/sshd.log" ||
			fail "host $1: sshd did not start: $(cat "$_h/sshd.log")"
	done
	fail "host $1: no free port for sshd"
}

# fleet_stop N: host N's sshd and every session it started.
fleet_stop() {
	for _p in $(_fleet_pid "$1" s); do
		_fleet_kill "$_p"
	done
}

# fleet_forget N: the client no longer knows host N's key.
fleet_forget() {
	grep -v "^\[127\.0\.0\.$1\]:" "$FLEET_DIR/known_hosts" \
	    >"$FLEET_DIR/known_hosts.new"
	mv "$FLEET_DIR/known_hosts.new" "$FLEET_DIR/known_hosts"
}

# fleet_ssh N CMD...: as a user would type `ssh host CMD...`.
fleet_ssh() {
	_n=$1
	shift
	ssh -F "$FLEET_SSH_CONFIG" "127.0.0.$_n" "$@" </dev/null
}

# fleet_fio_server N: `fio --server` bound to 127.0.0.N (it has no
# authentication: never on another address), listening before this
# returns. FLEET_FIO_N holds its port.
fleet_fio_server() {
	need_cmd fio ss
	_fleet_init
	mkdir -p "$FLEET_DIR/h$1"
	for _try in 1 2 3 4 5; do
		_port=$((30000 + $(od -An -N2 -tu2 /dev/urandom) % 10000))
		fio --server="ip:127.0.0.$1,$_port" \
		    >"$FLEET_DIR/h$1/fio.log" 2>&1 &
		_pid=$!
		FLEET_STARTED="$FLEET_STARTED f$1:$_pid"
		_i=0
		while _fleet_alive $_pid && [ $_i -lt 200 ]; do
			ss -Hltn "src 127.0.0.$1:$_port" | grep -q . && {
				eval "FLEET_FIO_$1=\$_port"
				return 0
			}
			sleep 0.05
			_i=$((_i + 1))
		done
		_fleet_kill $_pid
	done
	fail "host $1: fio --server did not listen: $(cat "$FLEET_DIR/h$1/fio.log")"
}

fleet_fio_stop() {
	for _p in $(_fleet_pid "$1" f); do
		_fleet_kill "$_p"
	done
}

# Every PID started here that is still alive, one a line.
fleet_pids() {
	for _e in $FLEET_STARTED; do
		_fleet_alive "${_e#*:}" && echo "${_e#*:}"
	done
	return 0
}

_fleet_cleanup() {
	for _e in $FLEET_STARTED; do
		_fleet_kill "${_e#*:}"
	done
	cleanup
}
trap _fleet_cleanup EXIT
