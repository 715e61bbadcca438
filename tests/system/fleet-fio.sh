#!/bin/sh
# fio workloads through fio's own client/server (src/fleet/fleet-fio),
# on three loopback hosts of the fleet harness, through `raidlab run`
# (ui/cli/cli-run-fio.c). Real fio (3.33 in Debian 12, in ./setup's
# packages), real servers: raidlab starts each host's `fio --server` over
# ssh, bound to 127.0.0.N, and stops it. The hosts need no raidlab: a lab
# of fio_server workloads only never starts one there.
#   - A directory variant on h2, h3, h4 (one shared directory, as an NFS
#     mount would be), 4k randwrite, 8M, 2 s: each host has its own run in
#     its record, keyed by its name; the aggregate is the sum of the
#     hosts' bandwidth and IOPS as jq reads them from fio's raw JSON (the
#     entries named after the hosts, never fio's "All clients").
#   - Every fio server raidlab started is gone afterwards (each PID the
#     module reports), and no job file, pidfile or fio data file is left.
#   - h3's fio says another version: h3 is named with both versions and
#     left out, h2 and h4 still run.
#   - h4 reached through an ssh tunnel (fio_tunnel = true): its server
#     listens on 127.0.0.1 only.
#   - A lab with a fio_server workload and a smallfiles one: both at once
#     refused; with -w, the first through fio's client/server, the second
#     by each host's raidlab through the fleet controller; a record of
#     each per host.
#   - raidlab killed outright (SIGKILL) in the middle of a round: each
#     host's guard session sees its stdin end and stops the server; no
#     server, tunnel or server directory is left.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/system/fleet-lib.sh"

need_fleet
need_cmd fio jq ss

# run NAME LAB: raidlab run into $TEST_TMP/NAME; its stderr in $out.
# Then rec H: host H's record, raw R: round R's raw fio JSON.
run() { # NAME LAB [OPTION...]
	_n=$1 _l=$2
	shift 2
	mkdir -p "$TEST_TMP/$_n"
	out=$("$RAIDLAB" run --ssh-config "$FLEET_SSH_CONFIG" \
	    -o "$TEST_TMP/$_n" "$@" "$_l" 2>&1 >/dev/null)
}
rec() { ls "$TEST_TMP/$1"/fleet-fio-*-"$2".json 2>/dev/null; }

for n in 2 3 4; do
	fleet_host $n
	rm "$FLEET_DIR/h$n/bin/raidlab"
done
# One port for all: each host has its own address. A free one, far from
# fio's 8765, so that a fio server of the machine's own is not met.
FIO_PORT=$((40000 + $(od -An -N2 -tu2 /dev/urandom) % 10000))
SHARED=$TEST_TMP/shared
mkdir -p "$SHARED"
export TMPDIR="$TEST_TMP/ctl"
mkdir -p "$TMPDIR"

# The servers' directories (mktemp there: the hosts share this /tmp).
server_dirs() {
	ls -d /tmp/raidlab-fio.* 2>/dev/null
	return 0
}
dirs_before=$(server_dirs)
# Should the module fail to stop a server, stop it here all the same, by
# the PID in its pidfile, so that the test leaves none behind.
_fio_cleanup() {
	for d in $(server_dirs); do
		printf '%s\n' "$dirs_before" | grep -qx "$d" && continue
		[ -s "$d/fio.pid" ] && kill "$(cat "$d/fio.pid")" 2>/dev/null
		rm -rf "$d"
	done
	_fleet_cleanup
}
trap _fio_cleanup EXIT

# lab FILE [EXTRA h4 KEYS [RUNTIME]]
lab() {
	cat >"$1" <<EOF
name = "fleet-fio";
repeats = 2;
hosts = (
  { name = "h2"; address = "127.0.0.2"; fio_port = $FIO_PORT; },
  { name = "h3"; address = "127.0.0.3"; fio_port = $FIO_PORT; },
  { name = "h4"; address = "127.0.0.4"; fio_port = $FIO_PORT; ${2-} }
);
variants = ( { name = "nfs"; directory = "$SHARED"; hosts = "all"; } );
workloads = ( { name = "rw4k"; type = "fio"; fio_server = true;
  rw = "randwrite"; bs = "4K"; size = "8M"; runtime = ${3:-2}; } );
EOF
}

# fio processes serving this test's port, one PID a line (another
# test may run fio servers of its own meanwhile).
fio_servers() {
	ps -e -o pid= -o args= |
	    awk -v port=",$FIO_PORT" '$2 ~ /fio$/ && /--server/ && index($0, port) { print $1 }'
}

before=$(fio_servers)
lab "$TEST_TMP/a.lab"
# --dry-run: each host's server and job file; nothing started.
dry=$("$RAIDLAB" run --dry-run "$TEST_TMP/a.lab") || fail "dry run: $dry"
for h in h2 h3 h4; do
	expect_match "dry run: $h's server" "$dry" \
	    "^rw4k on nfs, host $h: fio --server=ip:127\.0\.0\.${h#h},$FIO_PORT; its job file:$"
	expect_match "dry run: $h's job" "$dry" "^\[$h\]$"
done
expect_match "dry run: the directory" "$dry" "^directory=$SHARED$"
expect_match "dry run: file names" "$dry" "^unique_filename=0$"
expect_eq "dry run: no server" "$(fio_servers)" "$before"
run a "$TEST_TMP/a.lab" || fail "run: $out"
for h in h2 h3 h4; do
	rec=$(rec a $h)
	[ -s "$rec" ] || fail "no record for $h"
	expect_eq "$h's fleet.host" "$(jq -r .fleet.host "$rec")" "$h"
	expect_eq "$h's status" "$(jq -r .status "$rec")" ok
	expect_eq "$h's runs" "$(jq '.runs | length' "$rec")" 2
	expect_eq "$h's test" "$(jq -r '.runs[0].tests[0].key' "$rec")" \
	    randwrite
	expect_eq "$h's target" "$(jq -r '.runs[1].target.path' "$rec")" \
	    "$SHARED"
	jq -e '.runs[] | .tests[0] | .value > 0 and .bytes_written > 0 and
	    .latency.write.n > 0' "$rec" >/dev/null ||
		fail "$h: a run without figures: $(jq -c '.runs[0].tests' "$rec")"
done
agg=$TEST_TMP/a/aggregate.json
jq '.fleet.aggregate' "$(rec a h2)" >"$agg"
expect_eq "aggregate hosts" "$(jq -c '.[0].hosts' "$agg")" '["h2","h3","h4"]'
expect_eq "one fleet run" \
    "$(jq -r .fleet.run "$(rec a h2)" "$(rec a h3)" "$(rec a h4)" | sort -u |
    wc -l)" 1
expect_match "aggregate note" "$(jq -r '.[0].note' "$agg")" \
    'raidlab summed .*"All clients" entry is ignored'
expect_eq "aggregate in each record" \
    "$(jq -c '.fleet.aggregate[0].rounds[1].sum' "$(rec a h3)")" \
    "$(jq -c '.[0].rounds[1].sum' "$agg")"
for r in 1 2; do
	raw=$(jq -r ".[0].rounds[$((r - 1))].raw" "$agg")
	[ -s "$raw" ] || fail "round $r: no raw fio JSON ($raw)"
	# The sum, from fio's own output: the entries named after the hosts.
	want=$(jq -c '[.client_stats[] | select(.jobname | test("^h[234]$"))]
	    | { bw: (map(.write.bw_bytes) | add),
	        iops: (map(.write.iops) | add), n: length }' "$raw")
	got=$(jq -c ".[0].rounds[$((r - 1))].sum" "$agg")
	expect_eq "round $r: hosts in fio's output" \
	    "$(printf '%s' "$want" | jq .n)" 3
	expect_eq "round $r: the sum of the hosts' bandwidth" \
	    "$(printf '%s' "$got" | jq .write_bw_bytes)" \
	    "$(printf '%s' "$want" | jq .bw)"
	# IOPS are fractions: equal but for the last bits of the sum.
	printf '%s\n%s\n' "$got" "$want" | jq -se '
	    .[1].iops as $w | (.[0].write_iops - $w | fabs) < 1e-6 * $w' \
	    >/dev/null || fail "round $r: IOPS $got, fio's $want"
	expect_eq "round $r: nothing read" \
	    "$(printf '%s' "$got" | jq '.read_bw_bytes + .read_iops')" 0
	# Each host's run is its entry's figure (MB/s, 10^6 bytes).
	for h in h2 h3 h4; do
		f=$(jq ".client_stats[] | select(.jobname == \"$h\") |
		    .write.bw_bytes / 1e6 | . * 1000 | round" "$raw")
		g=$(jq ".runs[$((r - 1))].tests[0].value * 1000 | round" \
		    "$(rec a $h)")
		expect_eq "round $r: $h's MB/s" "$g" "$f"
	done
	jq -e '.[0].rounds[0].max_host_p99_ns.write > 0' "$agg" >/dev/null ||
		fail "no highest p99 of the hosts"
done
# compare takes them as raidlab's own runs, the host as the block.
cmp=$("$RAIDLAB" compare "$(rec a h2)" "$(rec a h3)" "$(rec a h4)") ||
	fail "compare: $cmp"
for h in h2 h3 h4; do
	expect_match "compare's row for $h" "$cmp" "^ +nfs@$h +[0-9.]+ "
done
expect_match "compare's test" "$cmp" \
    '^rw4k: randwrite \(fio-3\.[0-9]+ client/server\) \(MB/s'
# Nothing left: servers (by PID), job files here, files there.
pids=$(printf '%s\n' "$out" |
    sed -n 's/^raidlab run: h[234]: fio server started (pid \([0-9]*\) there)$/\1/p')
expect_eq "servers started" "$(printf '%s\n' "$pids" | grep -c .)" 3
for p in $pids; do
	_fleet_alive "$p" && fail "fio server $p is still there"
done
expect_eq "fio servers left" "$(fio_servers)" "$before"
expect_eq "controller's files left" "$(ls -A "$TMPDIR")" ""
expect_eq "data files left" "$(ls -A "$SHARED")" ""
expect_eq "server directories left" "$(server_dirs)" "$dirs_before"

# Another fio version on h3: named, left out; h2 and h4 run.
printf '#!/bin/sh\n[ "$1" = --version ] && { echo fio-3.35; exit 0; }\nexec fio "$@"\n' \
    >"$FLEET_DIR/h3/bin/fio"
chmod 755 "$FLEET_DIR/h3/bin/fio"
ours=$(fio --version)
run b "$TEST_TMP/a.lab" || fail "run without h3: $out"
expect_match "h3 left out" "$out" \
    "raidlab run: left out: h3 runs fio-3\.35, this controller $ours: fio's client and server must be the same version"
[ -n "$(rec b h3)" ] && fail "a record for h3, left out"
for h in h2 h4; do
	expect_eq "$h ran without h3" "$(jq '.runs | length' "$(rec b $h)")" 2
done
expect_eq "aggregate without h3" \
    "$(jq -c '.fleet.aggregate[0].hosts' "$(rec b h2)")" '["h2","h4"]'
expect_eq "left out in the aggregate" \
    "$(jq -r '.fleet.aggregate[0].left_out[0].host' "$(rec b h4)")" h3
rm "$FLEET_DIR/h3/bin/fio"
expect_eq "fio servers left (b)" "$(fio_servers)" "$before"

# h4 through a tunnel: its server on 127.0.0.1, fio --client through ssh.
lab "$TEST_TMP/c.lab" "fio_tunnel = true;"
run c "$TEST_TMP/c.lab" || fail "run with a tunnel: $out"
expect_eq "h4 through the tunnel" "$(jq '.runs | length' "$(rec c h4)")" 2
expect_eq "fio servers left (c)" "$(fio_servers)" "$before"
expect_eq "tunnels left" \
    "$(ps -e -o args= | grep -c "^ssh .*-L 127\.0\.0\.1:.*:127\.0\.0\.1:$FIO_PORT")" 0
expect_eq "data files left (c)" "$(ls -A "$SHARED")" ""

# fio_server and raidlab's own workload in one lab: selected together
# they are refused (each kind makes its own record per host, and one run
# is one record per host); run apart with -w, each its own way.
for n in 2 3 4; do
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$RAIDLAB" >"$FLEET_DIR/h$n/bin/raidlab"
	chmod 755 "$FLEET_DIR/h$n/bin/raidlab"
done
lab "$TEST_TMP/e.lab"
sed -i 's|runtime = 2; } );|runtime = 2; },\
  { name = "sf"; type = "smallfiles"; count = 50; size = "4K"; } );|' \
    "$TEST_TMP/e.lab"
rc=0
run e "$TEST_TMP/e.lab" || rc=$?
expect_eq "mixed run: exit status" "$rc" 2
expect_match "mixed run: refused" "$out" \
    "fio_server workloads and raidlab's own workloads are selected together.*-w NAME"
expect_eq "mixed run: no record" "$(ls "$TEST_TMP/e" | grep -c json)" 0
run e "$TEST_TMP/e.lab" -w rw4k || fail "fio part: $out"
run e2 "$TEST_TMP/e.lab" -w sf || fail "raidlab part: $out"
for h in h2 h3 h4; do
	# shellcheck disable=SC2046
	got=$(jq -r '.runs[].workload.name' $(rec e $h) $(rec e2 $h) |
	    sort | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')
	expect_eq "$h's runs of each workload" "$got" "rw4k=2 sf=2 "
done
expect_eq "fio servers left (e)" "$(fio_servers)" "$before"
expect_eq "data files left (e)" "$(ls -A "$SHARED")" ""

# raidlab killed mid-round: the guards stop every server it started.
lab "$TEST_TMP/d.lab" "fio_tunnel = true;" 30
mkdir -p "$TEST_TMP/d"
: >"$TEST_TMP/d.err"
"$RAIDLAB" run --ssh-config "$FLEET_SSH_CONFIG" -o "$TEST_TMP/d" \
    "$TEST_TMP/d.lab" >/dev/null 2>"$TEST_TMP/d.err" &
rl=$!
i=0
while ! grep -q "fio client/server: round 1" "$TEST_TMP/d.err" &&
    [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q "fio client/server: round 1" "$TEST_TMP/d.err" ||
	fail "round 1 did not start: $(cat "$TEST_TMP/d.err")"
pids=$(sed -n 's/^raidlab run: h[234]: fio server started (pid \([0-9]*\) there)$/\1/p' \
    "$TEST_TMP/d.err")
expect_eq "servers started (d)" "$(printf '%s\n' "$pids" | grep -c .)" 3
sleep 1
kill -9 $rl
wait $rl 2>/dev/null
for p in $pids; do
	i=0
	while _fleet_alive "$p" && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	_fleet_alive "$p" && fail "fio server $p outlived the killed raidlab"
done
expect_eq "fio servers left (d)" "$(fio_servers)" "$before"
i=0
while [ "$(server_dirs)" != "$dirs_before" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_eq "server directories left (d)" "$(server_dirs)" "$dirs_before"
i=0
while ps -e -o args= | grep -q "^ssh .*-L 127\.0\.0\.1:.*:127\.0\.0\.1:$FIO_PORT" &&
    [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_eq "tunnels left (d)" \
    "$(ps -e -o args= | grep -c "^ssh .*-L 127\.0\.0\.1:.*:127\.0\.0\.1:$FIO_PORT")" 0
exit 0
