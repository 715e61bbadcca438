#!/bin/sh
# A lab with a fleet of three hosts on loopback addresses (127.0.0.2..4):
# raidlab check accepts it and prints the hosts normalized, and refuses
# a bad fleet with "file:line: field: reason" and a non-zero status;
# raidlab plan names the hosts each variant runs on and its devices
# there, after each host's mapping, checked against the lab's own disks
# lists with jq; raidlab run refuses variants placed on hosts selected
# together with local ones and writes no record, its dry run of the
# hosts' variants prints each host's ssh command, and a local variant of
# the same lab still runs. Nothing is sent to any host: no server is
# started and no address is contacted.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd jq

lab="${TESTDATA:-${top_srcdir:-.}/tests/data}/labs/hosts.cfg"

# check: accepted, the hosts list normalized, and a fixed point
out=$("$RAIDLAB" check "$lab")
expect_eq "check: exit status" "$?" 0
expect_match "check: three hosts" "$(printf '%s\n' "$out" |
	grep -c 'address = "127\.0\.0\.[234]";')" '^3$'
expect_match "check: a host's mapping" "$out" \
	'disks = \[ "scratch:0=/dev/vdb", "scratch:1=/dev/vdc" \];'
expect_match "check: a placement on every host" "$out" 'hosts = "all";'
expect_match "check: a placement on two" "$out" 'hosts = \[ "h3", "h4" \];'
printf '%s\n' "$out" >"$TEST_TMP/norm.cfg"
again=$("$RAIDLAB" check "$TEST_TMP/norm.cfg")
expect_eq "check: the normalized lab checks the same" "$again" "$out"

# check: a bad fleet, every problem with its line, status non-zero
cat >"$TEST_TMP/bad.cfg" <<'EOF2'
name = "bad";
workloads = ( { type = "smallfiles"; } );
hosts = (
  { name = "h2"; address = "127.0.0.2"; disks = [ "scratch:7=/dev/vdb" ]; },
  { name = "h3"; },
  { name = "h4"; address = "127.0.0.4"; }
);
variants = (
  { name = "d"; directory = "/tmp"; hosts = [ "h2", "h5" ]; }
);
EOF2
msgs=$("$RAIDLAB" check "$TEST_TMP/bad.cfg" 2>&1)
rc=$?
[ "$rc" -ne 0 ] || fail "check: a bad fleet passed"
want="$TEST_TMP/bad.cfg:4: hosts.h2.disks: scratch:7=/dev/vdb: no variant uses scratch:7
$TEST_TMP/bad.cfg:5: hosts.h3.address: missing: a host name or an IP address
$TEST_TMP/bad.cfg:9: variants.d.hosts: no host named 'h5' (the hosts are: h2, h3, h4)"
expect_eq "check: the bad fleet's messages" \
	"$(printf '%s\n' "$msgs" | sed 's/^raidlab check: //' | sort)" \
	"$(printf '%s\n' "$want" | sort)"
printf 'name = "b";\nhosts = ( { name = "x"; address = "127.0.0.2"; port = 0; } );\n' \
	>"$TEST_TMP/port.cfg"
msgs=$("$RAIDLAB" check "$TEST_TMP/port.cfg" 2>&1) &&
	fail "check: port 0 passed"
expect_match "check: a bad port" "$msgs" \
	"port\\.cfg:2: hosts\\.x\\.port: 0 is out of range \\(1\\.\\.65535\\)"
# fio's server has no authentication: never on every interface
printf 'name = "b";\nhosts = ( { name = "x"; address = "127.0.0.2";\n  fio_bind = "0.0.0.0"; } );\n' \
	>"$TEST_TMP/any.cfg"
msgs=$("$RAIDLAB" check "$TEST_TMP/any.cfg" 2>&1) &&
	fail "check: fio_bind 0.0.0.0 passed"
expect_match "check: a wildcard fio_bind" "$msgs" \
	"any\\.cfg:3: hosts\\.x\\.fio_bind: '0\\.0\\.0\\.0' is every interface"

# plan: each host and its devices there; nothing planned here for them
out=$("$RAIDLAB" plan "$lab")
expect_eq "plan: exit status" "$?" 0
expect_match "plan: the fleet runner" "$out" \
	'^# variant r1: runs on hosts, not here; raidlab run runs it there over ssh'
expect_match "plan: h2's devices" "$out" \
	'^#   on h2 \(raidlab@127\.0\.0\.2, ssh port 2222, fio server 127\.0\.0\.2:8765\): scratch:0 = /dev/vdb, scratch:1 = /dev/vdc$'
expect_match "plan: h3, one mapped" "$out" \
	'^#   on h3 \(127\.0\.0\.3, ssh port 22, fio server 127\.0\.0\.3:8766\): scratch:0 = /dev/sdc, scratch:1 \(a loop device there\)$'
expect_match "plan: a directory on h4" "$out" \
	'^#   on h4 \(127\.0\.0\.4, .*\): the directory /var/tmp/raidlab-hosts there$'
! printf '%s\n' "$out" | grep -q '^mdadm' ||
	fail "plan: a variant on hosts was planned here"

# plan --json: the mapping as the lab gives it, recomputed from the
# normalized lab's disks lists (not from raidlab's plan)
json=$("$RAIDLAB" plan -j "$lab")
expect_eq "plan -j: exit status" "$?" 0
got=$(printf '%s' "$json" | jq -r '.[] | select(.runner == "fleet") |
	.variant as $v | .hosts[] | .name as $h | .devices[] |
	"\($v) \($h) \(.device)=\(.on_host // "-")"' | sort)
want=$(awk '
	/name = "h[0-9]"/ { split($0, q, "\""); host = q[2] }
	/disks = / { n = split($0, q, "\""); for (i = 2; i < n; i += 2) map[host, substr(q[i], 1, index(q[i], "=") - 1)] = substr(q[i], index(q[i], "=") + 1) }
	END { for (h = 2; h <= 4; h++) for (s = 0; s < 2; s++) {
		d = "scratch:" s; t = map["h" h, d]; if (t == "") t = "-"
		print "r1 h" h " " d "=" t } }' "$TEST_TMP/norm.cfg" | sort)
expect_eq "plan -j: each host's devices" "$got" "$want"
expect_eq "plan -j: the directory variant's hosts" \
	"$(printf '%s' "$json" | jq -r '.[] | select(.variant == "dir") |
		[.hosts[].name] | join(",")')" "h3,h4"

# run: refused before anything is built or recorded; a local variant runs
sed -e "s|directory = \"/var/tmp\";|directory = \"$TEST_TMP/here\";|" \
	-e 's|^repeats = 1;|repeats = 1;\ncache = "keep";|' \
	"$lab" >"$TEST_TMP/run.cfg"
mkdir "$TEST_TMP/here"
msgs=$("$RAIDLAB" run "$TEST_TMP/run.cfg" 2>&1) && fail "run: ran a fleet lab"
expect_match "run: here and on hosts refused" "$msgs" \
	"run\\.cfg: variants here and variants on hosts are selected together"
out=$("$RAIDLAB" run -n -v r1 -v dir "$TEST_TMP/run.cfg" 2>&1) ||
	fail "run -n of the hosts' variants: $out"
expect_match "run -n: h2's command" "$out" \
	"^h2 \\(127\\.0\\.0\\.2\\): ssh .* -l raidlab -p 2222 -- 127\\.0\\.0\\.2 'raidlab run --fleet-host h2 --json --barrier -v r1 LAB'\$"
expect_match "run -n: h4's command" "$out" \
	"^h4 \\(127\\.0\\.0\\.4\\): ssh .*'raidlab run --fleet-host h4 --json --barrier -v r1 -v dir LAB'\$"
# Confirmations name the host: each host gets its own, a bare device none.
out=$("$RAIDLAB" run -n -v r1 --yes-destroy=/dev/vdb "$TEST_TMP/run.cfg" 2>&1) &&
	fail "run -n with a bare device to destroy: $out"
expect_match "run -n: a bare device refused" "$out" \
	"--yes-destroy: /dev/vdb: the variants run on hosts: name the host whose device it is, as HOST:DEV \\(h2:/dev/vdb\\)"
out=$("$RAIDLAB" run -n -v r1 --yes-destroy=h2:/dev/vdb,h3:/dev/sdc \
    "$TEST_TMP/run.cfg" 2>&1) || fail "run -n with HOST:DEV: $out"
expect_eq "run -n: each host its own devices" "$(printf '%s\n' "$out" |
    grep -o -e '^h[234]' -e "yes-destroy=[^']*" | tr '\n' ' ')" \
    "h2 yes-destroy=/dev/vdb h3 yes-destroy=/dev/sdc h4 "
[ -z "$(ls -A "$XDG_DATA_HOME/raidlab/results" 2>/dev/null)" ] ||
	fail "run: a refused run left a record"
"$RAIDLAB" run -v here "$TEST_TMP/run.cfg" >"$TEST_TMP/here.out" 2>&1 ||
	fail "run -v here: $(cat "$TEST_TMP/here.out")"
expect_match "run -v here: measured" "$(cat "$TEST_TMP/here.out")" \
	'here +smallfiles'
exit 0
