#!/bin/sh
# What a fleet costs its controller: for 3, 10 and 30 hosts (or the
# counts given), each a loopback address 127.0.0.N with its own sshd
# (tests/system/fleet-lib.sh), two labs with a directory variant on every
# host, each run once by `raidlab run`: a short small-files workload run
# by each host's raidlab (kind raidlab), and a short fio job through
# fio's client/server (kind fio). Prints
# per count and kind the run's wall time; the controller's own CPU
# seconds and peak memory (VmHWM), sampled every 0.2 s from /proc, each
# also per host; and its children's (kid_: the ssh clients, and for fio
# the `fio --client`) CPU (GNU time's rusage of raidlab and what it
# reaped, less raidlab's own) and resident memory together at its peak,
# each also per host. The hosts' own raidlab runs share this machine,
# so the wall time grows with the count; the controller's figures are
# its own. Root only (sshd). Traffic stays on 127.0.0.0/8.
#
#   sh bench/fleet-scale.sh [COUNT...]    default: 3 10 30
me=fleet-scale
top=$(cd "$(dirname "$0")/.." && pwd)
: "${RAIDLAB:=$top/raidlab}"
RAIDLAB=$(cd "$(dirname "$RAIDLAB")" && pwd)/$(basename "$RAIDLAB")
export RAIDLAB
. "$top/tests/system/lib.sh"
. "$top/tests/system/fleet-lib.sh"
need_fleet
need_cmd /usr/bin/time
[ $# -gt 0 ] || set -- 3 10 30

# lab KIND COUNT FILE: hosts h2..h(COUNT+1), a directory of each host's
# own; KIND raidlab: a small-files workload run by each host's raidlab,
# two rounds with a barrier; KIND fio: a 2 s 4K random-write fio job on
# every host at once through fio's client/server, two rounds.
lab() {
	{
		printf 'name = "scale-%s-%s";\nrepeats = 2;\ncache = "keep";\n' "$1" "$2"
		[ "$1" = raidlab ] && printf 'barrier = true;\n'
		printf 'results = "%s/results-%s-%s";\nhosts = (\n' "$TEST_TMP" "$1" "$2"
		i=2 sep=' '
		while [ $i -le $(($2 + 1)) ]; do
			eval "port=\$FLEET_PORT_$i"
			printf ' %s { name = "h%s"; address = "127.0.0.%s"; port = %s; fio_port = %s; }\n' \
			    "$sep" $i $i "$port" "$FIO_PORT"
			i=$((i + 1)) sep=,
		done
		printf ');\nvariants = ( { name = "d"; hosts = "all"; '
		printf 'directory = "%s/d-%%h"; } );\n' "$TEST_TMP"
		if [ "$1" = raidlab ]; then
			printf 'workloads = ( { name = "small"; type = "smallfiles"; '
			printf 'counts = [1000]; dirs = 10; } );\n'
		else
			printf 'workloads = ( { name = "rw"; type = "fio"; fio_server = true; '
			printf 'rw = "randwrite"; bs = "4K"; size = "8M"; runtime = 2; } );\n'
		fi
	} >"$3"
}

# watch PID OUT: until PID is gone, every 0.2 s, its own CPU seconds
# (utime + stime), its VmHWM (KiB) and the resident sum of its children
# (the ssh clients, KiB); OUT gets the last CPU and HWM seen and the
# children's peak.
watch() {
	hz=$(getconf CLK_TCK) cpu=0 hwm=0 kids=0
	while [ -r "/proc/$1/stat" ]; do
		c=$(awk -v hz="$hz" '{ print ($14 + $15) / hz }' "/proc/$1/stat" 2>/dev/null)
		h=$(awk '/^VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null)
		k=$(ps -o rss= --ppid "$1" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
		[ -n "$c" ] && cpu=$c
		[ -n "$h" ] && hwm=$h
		[ "$k" -gt "$kids" ] && kids=$k
		sleep 0.2
	done
	echo "$cpu $hwm $kids" >"$2"
}

# One fio port for every host, each on its own address; far from fio's
# 8765, so that a fio server of the machine's own is not met.
FIO_PORT=$((40000 + $(od -An -N2 -tu2 /dev/urandom) % 10000))

printf '%-7s %5s %6s | %8s %9s %8s %9s | %8s %9s %9s %9s\n' \
    kind hosts wall_s cpu_s ms/host hwm_MiB KiB/host kid_cpu ms/host \
    kid_MiB KiB/host
started=1
for n in "$@"; do
	while [ $started -le $n ]; do
		started=$((started + 1))
		fleet_host $started
		# The fio path needs the directory there (a mount, usually).
		mkdir -p "$TEST_TMP/d-h$started"
	done
	for kind in raidlab fio; do
		lab "$kind" "$n" "$TEST_TMP/lab-$kind-$n.cfg"
		/usr/bin/time -f '%e %U %S' -o "$TEST_TMP/time-$kind-$n" \
		    "$RAIDLAB" run --ssh-config "$FLEET_SSH_CONFIG" \
		    "$TEST_TMP/lab-$kind-$n.cfg" >"$TEST_TMP/out-$kind-$n" 2>&1 &
		tpid=$!
		rpid=
		while [ -z "$rpid" ] && kill -0 $tpid 2>/dev/null; do
			rpid=$(ps -o pid= --ppid $tpid | tr -d ' ')
		done
		watch "$rpid" "$TEST_TMP/watch-$kind-$n"
		wait $tpid || { cat "$TEST_TMP/out-$kind-$n"; fail "$kind, $n hosts: raidlab run failed"; }
		recs=$(ls "$TEST_TMP/results-$kind-$n"/*.json | wc -l)
		[ "$recs" -eq "$n" ] || fail "$kind, $n hosts: $recs records"
		read -r wall user sys <"$TEST_TMP/time-$kind-$n"
		read -r cpu hwm kids <"$TEST_TMP/watch-$kind-$n"
		# time's user + sys: raidlab's and the children it reaped (ssh).
		awk -v kind="$kind" -v n="$n" -v w="$wall" -v t="$user + $sys" -v u="$user" -v s="$sys" \
		    -v c="$cpu" -v h="$hwm" -v k="$kids" 'BEGIN {
			sc = u + s - c
			printf "%-7s %5d %6.1f | %8.2f %9.1f %8.1f %9.0f | %8.2f %9.1f %9.1f %9.0f\n",
			    kind, n, w, c, c * 1000 / n, h / 1024, h / n, sc, sc * 1000 / n,
			    k / 1024, k / n }'
	done
done
