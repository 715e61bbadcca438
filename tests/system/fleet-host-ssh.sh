#!/bin/sh
# A fleet host's run over a real ssh session (the fleet harness: an sshd
# on 127.0.0.2, tests/system/fleet-lib.sh) whose connection is lost: the
# controller (tests/system/fleet-host-driver.py) runs `ssh 127.0.0.2
# raidlab run --fleet-host h2 --json --barrier LAB`, lets round 1 go,
# and kills its ssh client at the first live line. The host's raidlab
# then stops as ^C would stop it (exit status 130), and the directory
# the run made there is gone: a lost connection leaves nothing behind.
. "${top_srcdir:-.}/tests/system/lib.sh"
. "${top_srcdir:-.}/tests/system/fleet-lib.sh"

need_fleet
need_cmd python3

DRIVER="${top_srcdir:-.}/tests/system/fleet-host-driver.py"
fleet_host 2
# The host's raidlab, telling the test how it ended.
printf '#!/bin/sh\n"%s" "$@"\necho $? >"%s"\n' "$RAIDLAB" \
	"$TEST_TMP/h2-status" >"$FLEET_DIR/h2/bin/raidlab"
cat >"$TEST_TMP/lab.cfg" <<EOF
name = "fleet-host-ssh";
repeats = 2;
hosts = ( { name = "h2"; address = "127.0.0.2"; } );
variants = ( { name = "each"; hosts = "all"; directory = "$TEST_TMP/d-%h"; } );
workloads = ( { type = "fio"; rw = "write"; size = "4M"; runtime = 5; } );
EOF

python3 "$DRIVER" kill "$TEST_TMP/d-h2" "$TEST_TMP/out.json" \
	ssh -F "$FLEET_SSH_CONFIG" 127.0.0.2 raidlab run --fleet-host h2 \
	--json --barrier --tick 50 "$TEST_TMP/lab.cfg" >"$TEST_TMP/t" ||
	fail "driver: $(cat "$TEST_TMP/t")"
expect_match "the connection lost mid-run" \
	"$(grep -v '^msg ' "$TEST_TMP/t" | sed 's/^live .*/live/' | uniq |
		tr '\n' ' ')" \
	'^ready h2 wait 1 .* go 1 live killed rc -9 $'
# The host's raidlab notices, stops and tears down: wait for its end.
i=0
while [ ! -s "$TEST_TMP/h2-status" ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s "$TEST_TMP/h2-status" ] ||
	fail "the host's raidlab still runs 60 s after its connection was lost"
expect_eq "the host's run: stopped as by ^C" "$(cat "$TEST_TMP/h2-status")" 130
[ ! -e "$TEST_TMP/d-h2" ] || fail "d-h2, made by the run, is still there"
