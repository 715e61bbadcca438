# Host-side checks of what tests/vm/guest.sh left in the share once the
# guest powered off. Sourced by tests/system/md-vm.sh after lib.sh, which
# sets VM_GEN (bookworm: kernel 6.1, mdadm 4.2; trixie: kernel 6.12,
# mdadm 4.4) before checking each guest; every check runs (one boot is
# expensive, so a run reports all that is wrong), each failure prints
# "FAIL: [GEN] ..." and counts in vm_failures.
# The record fields relied on:
#   .status, .builds | length, .runs[] {variant.name, status, tests[].files}
#   .builds[] {variant, status, assume_clean,
#     steps[] and teardown[] {status "ok", exit_status 0 (or, for an
#     undo with nothing left to undo, a note)},
#     resync[] {device, status "done", seconds},
#     facts {md {"/dev/md/rl-V[-leg0|-leg1|-log]": {level, layout,
#         chunk_size, raid_disks, bitmap_location, consistency_policy (md's
#         sysfs text), mdadm_detail}}, mdstat, dumpe2fs, xfs_info,
#       mount {mount, super}}}

vm_failures=0
VM_GEN=${VM_GEN:-bookworm}

# ---- mdadm 4.4 and bitmap files: what trixie must show (THE place) ----
# mdadm 4.4 removed write-intent bitmaps in a file: it refuses any
# --bitmap= with a '/' ("Custom write-intent bitmap file option is not
# supported"). On trixie, the labs that ask for one (labs/bitmap-file.cfg,
# and every preset with a `bitmap = { file = ... }`, today seed-000's
# log-raid1-bitmap-file) must be refused, by:
#   mdadm    raidlab passes the file on and mdadm refuses it at create
#            time: the run fails with mdadm's words, and leaves nothing
#   raidlab  raidlab refuses it itself at check/plan time, with a message
#            naming mdadm's version ("4.4"), and builds nothing
# raidlab's gate (src/build/mdtools.c) does the second. busy.cfg's
# bitmap-file refusals (a file that exists, a file on tmpfs) accept
# "4.4" in their stead. Bookworm builds them all as before.
VM_TRIXIE_FILE_BITMAP=raidlab
VM_MDADM_NO_FILE_BITMAP='Custom write-intent bitmap file option is not supported'

vm_fail() {
	printf 'FAIL: [%s] %s\n' "$VM_GEN" "$*" >&2
	vm_failures=$((vm_failures + 1))
}

# vm_eq WHAT GOT WANT
vm_eq() {
	[ "$2" = "$3" ] || { vm_fail "$1: got '$2', want '$3'"; return 1; }
}

# vm_match WHAT TEXT ERE
vm_match() {
	printf '%s' "$2" | grep -Eq -- "$3" || vm_fail "$1: '$2' does not match /$3/"
}

# vm_nomatch WHAT TEXT ERE
vm_nomatch() {
	! printf '%s' "$2" | grep -Eq -- "$3" || vm_fail "$1: '$2' matches /$3/"
}

vm_file() {
	cat "$1" 2>/dev/null || printf '(missing %s)' "${1##*/}"
}

# The guest ran the generation's kernel and mdadm (guest.sh's out/env:
# uname -r, mdadm --version, the disks).
vm_check_env() {
	case $VM_GEN in
	bookworm) k='^6\.1\.' m='^mdadm - v4\.2 ' ;;
	trixie) k='^6\.12\.' m='^mdadm - v4\.4 ' ;;
	*) vm_fail "unknown generation"; return ;;
	esac
	vm_match "env: the kernel (uname -r)" "$(sed -n 1p "$1/env" 2>&1)" "$k"
	vm_match "env: mdadm --version" "$(sed -n 2p "$1/env" 2>&1)" "$m"
}

# The harness alone: mdadm, md, ext4 and the share work in the guest.
vm_check_selfcheck() {
	d=$1/selfcheck
	[ -d "$d" ] || { vm_fail "selfcheck: the stage did not run"; return; }
	vm_eq "selfcheck: mdadm --create" "$(vm_file "$d/create.status")" 0
	vm_match "selfcheck: /proc/mdstat once synced" "$(vm_file "$d/mdstat")" \
		'md[0-9]+ : active raid1 vd[a-z]\[1\] vd[a-z]\[0\]'
	vm_match "selfcheck: both mirrors in sync" "$(vm_file "$d/mdstat")" '\[2/2\] \[UU\]'
	vm_nomatch "selfcheck: no resync left" "$(vm_file "$d/mdstat")" 'resync|recovery'
	s=$(vm_file "$d/sysfs")
	vm_match "selfcheck: sysfs level" "$s" '(^|[[:space:]])level=raid1($|[[:space:]])'
	vm_match "selfcheck: sysfs raid_disks" "$s" 'raid_disks=2'
	vm_match "selfcheck: sysfs bitmap" "$s" 'bitmap/location=none'
	vm_match "selfcheck: sysfs idle" "$s" 'sync_action=idle'
	vm_eq "selfcheck: ext4 on md, read back" "$(vm_file "$d/readback")" \
		"written in the guest"
	vm_nomatch "selfcheck: stopped" "$(vm_file "$d/mdstat-stopped")" '^md[0-9]'
	# mdadm --create without --run or --bitmap, stdin open and silent:
	# 4.4 asks about a bitmap and is still waiting once it has asked
	# (the guest then kills it); 4.2 asks nothing and creates the array.
	q='do you want to enable it now\? \[y/N\]\?'
	case $VM_GEN in
	trixie)
		vm_match "selfcheck: mdadm 4.4 asks about a bitmap" \
			"$(vm_file "$d/prompt.txt")" "$q"
		vm_eq "selfcheck: mdadm 4.4 waits on stdin for the answer" \
			"$(vm_file "$d/prompt.state")" waiting
		;;
	*)
		vm_eq "selfcheck: mdadm 4.2 creates without asking" \
			"$(vm_file "$d/prompt.state") $(vm_file "$d/prompt.status")" "exited 0"
		vm_nomatch "selfcheck: mdadm 4.2 asks nothing" \
			"$(vm_file "$d/prompt.txt")" "$q"
		;;
	esac
}

# bq VARIANT FILTER: FILTER applied to the variant's build in the record.
bq() {
	jq -r --arg v "$1" '[.builds[]? | select(.variant == $v or
		((.variant | objects | .name) == $v))][0] | '"$2" "$vm_rec" 2>&1
}

# rq VARIANT FILTER: FILTER applied to the variant's runs, as one line.
rq() {
	jq -r --arg v "$1" '[.runs[]? | select(.variant == $v or
		((.variant | objects | .name) == $v))] | '"$2" "$vm_rec" 2>&1
}

# mdq VARIANT DEVICE FIELD: one md sysfs fact of the variant's build.
mdq() {
	jq -r --arg v "$1" --arg m "$2" '[.builds[]? | select(.variant == $v
		or ((.variant | objects | .name) == $v))][0]
		| (.facts.md[$m] // {}).'"$3"'
		// "(none)" | tostring' "$vm_rec" 2>&1
}

# md_check VARIANT ARRAY LEVEL RAID_DISKS CHUNK LAYOUT BITMAP POLICY
# "-" skips a field; BITMAP "internal" means an offset such as "+8".
md_check() {
	v=$1
	m=/dev/md/$2
	w="$v: $m"
	vm_eq "$w: level" "$(mdq "$v" "$m" level)" "raid$3"
	vm_eq "$w: raid_disks" "$(mdq "$v" "$m" raid_disks)" "$4"
	[ "$5" = - ] || vm_eq "$w: chunk_size" "$(mdq "$v" "$m" chunk_size)" "$5"
	[ "$6" = - ] || vm_eq "$w: layout" "$(mdq "$v" "$m" layout)" "$6"
	case $7 in
	-) ;;
	internal)
		vm_match "$w: bitmap_location" \
			"$(mdq "$v" "$m" bitmap_location)" '^\+[0-9]+$'
		;;
	*) vm_eq "$w: bitmap_location" "$(mdq "$v" "$m" bitmap_location)" "$7" ;;
	esac
	[ "$8" = - ] || vm_eq "$w: consistency_policy" \
		"$(mdq "$v" "$m" consistency_policy)" "$8"
	vm_match "$w: mdadm --detail" "$(bq "$v" ".facts.md[\"$m\"].mdadm_detail
		// \"(none)\"")" "Raid Level : raid$3"
}

# variant_check VARIANT: built, measured, torn down.
variant_check() {
	v=$1
	vm_eq "$v: build status" "$(bq "$v" '.status // "no build in the record"')" ok
	vm_eq "$v: every step exited 0" "$(bq "$v" '(.steps // []) |
		length > 0 and all(.status == "ok" and .exit_status == 0)')" true
	# a queue put back is a sysfs write: its status says it all
	vm_eq "$v: every teardown step exited 0 (or had nothing to undo)" \
		"$(bq "$v" '(.teardown // []) | length > 0 and
		all(.status == "ok" and (.exit_status == 0 or .note != null or
			.sysfs != null))')" true ||
		# what failed, for a log that is all there is of the guest
		bq "$v" '.teardown[]? | select(.status != "ok") |
		"  \(.command): \(.status): \(.output)" +
		(if .held_by then " held by: \(.held_by)" else "" end)' >&2
	vm_eq "$v: run status" "$(rq "$v" 'map(.status) | join(",")')" ok
	vm_eq "$v: files written" \
		"$(rq "$v" 'length > 0 and all(.tests | length > 0 and all(.files > 0))')" true
}

# knob VARIANT FIELD WANT: one md sysfs value of the variant's top array.
knob() {
	vm_eq "$1: md/$2" "$(mdq "$1" "/dev/md/rl-$1" "$2")" "$3"
}

# md's knobs as md shows them once built (labs/md.cfg's last variants),
# and each sysfs step's record: what it found, wrote and read back.
vm_check_knobs() {
	md_check r5-ppl-knobs rl-r5-ppl-knobs 5 4 65536 2 none ppl
	knob r5-ppl-knobs stripe_cache_size 1024
	knob r5-ppl-knobs group_thread_cnt 2
	knob r5-ppl-knobs skip_copy 1
	knob r5-ppl-knobs preread_bypass_threshold 0
	vm_eq "r5-ppl-knobs: the stripe cache's step found md's default" \
		"$(bq r5-ppl-knobs '[.steps[] | .sysfs? | objects
		| select(.attr == "md/stripe_cache_size")
		| "\(.found)>\(.value)=\(.now)"] | join(" ")')" "256>1024=1024"
	vm_match "r5-ppl-knobs: the plan line" \
		"$(bq r5-ppl-knobs '[.steps[].command // empty] | join("\n")')" \
		'echo 0 > /sys/block/\$\(basename \$\(realpath /dev/md/rl-r5-ppl-knobs\)\)/md/preread_bypass_threshold'
	md_check r5-journal-mode rl-r5-journal-mode 5 3 65536 2 none journal
	knob r5-journal-mode journal_mode "[write-through] write-back"
	knob r5-journal-mode stripe_cache_size 2048
	md_check r1-write-mostly rl-r1-write-mostly 1 3 - - internal bitmap
	knob r1-write-mostly bitmap_backlog 64
	vm_match "r1-write-mostly: vdd is write-mostly" \
		"$(bq r1-write-mostly '.facts.md["/dev/md/rl-r1-write-mostly"]
		.members | to_entries | map("\(.key)=\(.value)") | join(" ")')" \
		'(^| )vdd=[a-z_,]*write_mostly'
	vm_nomatch "r1-write-mostly: vdb is not" \
		"$(bq r1-write-mostly '.facts.md["/dev/md/rl-r1-write-mostly"]
		.members.vdb // "-"')" 'write_mostly'
	vm_match "r1-write-mostly: the versions that built it" \
		"$(bq r1-write-mostly '.facts.md_tools | "\(.mdadm) \(.kernel)"')" \
		'^[0-9]+\.[0-9]+ [0-9]+\.[0-9]+'
}

# pq VARIANT FILTER: FILTER applied to the phase of the variant's build.
pq() {
	bq "$1" ".phase | $2"
}

# phase_col VARIANT KEY LABEL: in $cmp (raidlab compare --json), the
# column of the phase's time has LABEL and VARIANT's one build's seconds.
phase_col() {
	vm_eq "compare: $3 of $1" \
		"$(printf '%s' "$cmp" | jq -r --arg v "$1" --arg k "$2" \
			'.tests[] | select(.type == "phase" and .key == $k)
			| "\(.label) \(.rows[] | select(.variant == $v)
			| "\(.n) \(.mean)")"' 2>&1)" \
		"$3 1 $(pq "$1" '.sync.seconds')"
}

# labs/phases.cfg: the arrays the workloads met, and what md did.
vm_check_phases() {
	d=$1/raidlab/phases
	saved_rec=$vm_rec
	vm_rec=$d/record.json
	vm_eq "phases: raidlab run: exit status" "$(vm_file "$d/run.status")" 0
	if ! jq -e .runs "$vm_rec" >/dev/null 2>&1; then
		vm_fail "phases: no record (stderr: $(tail -n 5 "$d/run.err" 2>/dev/null))"
		vm_rec=$saved_rec
		return
	fi
	for v in p-healthy p-degraded p-rebuild p-check r1-two-failed; do
		variant_check "$v"
	done
	vm_eq "p-healthy: no phase" "$(pq p-healthy '. // "none"')" none
	vm_eq "p-degraded: the last member failed" \
		"$(pq p-degraded '"\(.name) \(.failed | join(","))"')" \
		"degraded /dev/vde"
	vm_eq "p-degraded: md degraded by one while measured" \
		"$(pq p-degraded '.before.degraded')" 1
	vm_match "p-degraded: /proc/mdstat while measured" \
		"$(pq p-degraded '.before.mdstat')" '\[4/3\] \[UUU_\]'
	vm_eq "p-rebuild: md recovered onto the added member" \
		"$(pq p-rebuild '"\(.sync.action) \(.sync.complete)"')" "recover true"
	vm_eq "p-rebuild: its progress was sampled" \
		"$(pq p-rebuild '.sync.samples.done | length > 0')" true
	vm_eq "p-rebuild: its duration" \
		"$(pq p-rebuild '.sync.seconds > 0')" true
	vm_eq "p-rebuild: whole again after" \
		"$(pq p-rebuild '"\(.after.degraded) \(.after.sync_action)"')" "0 idle"
	vm_eq "p-rebuild: the speed limits as set" \
		"$(mdq p-rebuild /dev/md/rl-p-rebuild sync_speed_max)" \
		"200000 (local)"
	vm_eq "p-check: md scrubbed the array" \
		"$(pq p-check '"\(.sync.action) \(.sync.complete)"')" "check true"
	vm_eq "p-check: no mismatch" "$(pq p-check '.after.mismatch_cnt')" 0
	vm_eq "r1-two-failed: two of three mirrors gone" \
		"$(pq r1-two-failed '"\(.before.degraded) \(.failed | length)"')" "2 2"
	# raidlab compare: each phase's rebuild or scrub time is a figure
	# of its own column, the record's seconds
	cmp=$("$RAIDLAB" compare --json "$vm_rec" 2>&1)
	phase_col p-rebuild rebuild_s "Rebuild time (start to idle)"
	phase_col p-check check_s "Scrub time (start to idle)"
	vm_rec=$saved_rec

	d=$1/raidlab/rebuild-killed
	vm_match "rebuild-killed: killed while md rebuilt" \
		"$(vm_file "$d/mdstat-killed")" 'recovery = '
	vm_match "rebuild-killed: killed once the phase added the member back" \
		"$(vm_file "$d/run.err")" 'mdadm --add'
	vm_eq "rebuild-killed: mdadm --add succeeded before the kill" \
		"$(vm_file "$d/add.status")" 0
	vm_eq "rebuild-killed: raidlab died of the SIGKILL" \
		"$(vm_file "$d/run.status")" 137
	vm_eq "rebuild-killed: raidlab cleanup" "$(vm_file "$d/cleanup.status")" 0
	vm_nomatch "rebuild-killed: no array after cleanup" \
		"$(vm_file "$d/mdstat")" '^md[0-9]'
	vm_eq "rebuild-killed: no mount after cleanup" "$(vm_file "$d/mounts")" ""
	vm_eq "rebuild-killed: no signature after cleanup" "$(vm_file "$d/wipefs")" ""
	vm_nomatch "rebuild-killed: no journal after cleanup" \
		"$(vm_file "$d/state")" '\.journal'
}

vm_check_raidlab() {
	d=$1/raidlab
	[ -d "$d" ] || { vm_fail "raidlab: the stage did not run"; return; }
	vm_eq "raidlab check of the lab" "$(vm_file "$d/check.status")" 0
	[ "$(vm_file "$d/run.status")" = 124 ] &&
		vm_fail "raidlab run: silent for 300 s with stdin open (waiting on a prompt?)"
	vm_eq "raidlab run: exit status" "$(vm_file "$d/run.status")" 0
	vm_rec=$d/record.json
	if ! jq -e .runs "$vm_rec" >/dev/null 2>&1; then
		vm_rec=$(ls "$d"/results/*.json 2>/dev/null | head -n 1)
		[ -n "$vm_rec" ] || vm_rec=$d/record.json
	fi
	if ! jq -e .runs "$vm_rec" >/dev/null 2>&1; then
		vm_fail "raidlab run: no record (stderr: $(tail -n 5 "$d/run.err" 2>/dev/null))"
		return
	fi
	vm_eq "record: status" "$(jq -r .status "$vm_rec")" ok
	vm_eq "record: a build per variant" "$(jq -r '.builds | length' "$vm_rec")" 19

	for v in r0 r1-resync r5-bitmap r5-journal r6 \
		r10-n2-64k r10-n2-256k r10-f2-64k r10-f2-256k r10-o2-64k \
		r10-o2-256k r01 xfs-log ext4-geometry ext4-auto btrfs-on-r5 \
		r5-ppl-knobs r5-journal-mode r1-write-mostly; do
		variant_check "$v"
	done
	vm_check_knobs
	vm_check_wamp
	# the members' queues: set while built, as found after everything
	for m in /dev/vdb /dev/vdc /dev/vdd; do
		vm_eq "r1-write-mostly: $m's scheduler and depth" \
			"$(bq r1-write-mostly ".facts.queues[\"$m\"]
				| \"\\(.scheduler) \\(.nr_requests)\"")" \
			"mq-deadline 32"
	done
	vm_eq "the disks' queues after everything, as at boot" \
		"$(vm_file "$1/after/queues")" "$(vm_file "$1/queues")"

	#        variant      array             level disks chunk layout bitmap policy
	md_check r0 rl-r0 0 2 65536 - none -
	md_check r1-resync rl-r1-resync 1 2 - - none resync
	md_check r5-bitmap rl-r5-bitmap 5 4 65536 2 internal bitmap
	md_check r5-journal rl-r5-journal 5 3 65536 2 none journal
	md_check r6 rl-r6 6 4 65536 2 none resync
	# RAID10 layout: near copies in bits 0-7, far copies in 8-15, 0x10000
	# for offset: n2 = 0x102, f2 = 0x201, o2 = 0x10201.
	for c in 64:65536 256:262144; do
		md_check "r10-n2-${c%:*}k" "rl-r10-n2-${c%:*}k" 10 4 "${c#*:}" 258 none resync
		md_check "r10-f2-${c%:*}k" "rl-r10-f2-${c%:*}k" 10 4 "${c#*:}" 513 none resync
		md_check "r10-o2-${c%:*}k" "rl-r10-o2-${c%:*}k" 10 4 "${c#*:}" 66049 none resync
	done
	# md's own I/O hint for RAID10 divides by near copies only (seed 003's
	# dispute): 2 chunks per stripe for n2, 4 for f2 and o2 over 4 disks.
	# raidlab's plan says so next to the rule it uses.
	vm_eq "r10-n2-64k: md's optimal_io_size" \
		"$(mdq r10-n2-64k /dev/md/rl-r10-n2-64k optimal_io_size)" 131072
	vm_eq "r10-f2-64k: md's optimal_io_size" \
		"$(mdq r10-f2-64k /dev/md/rl-r10-f2-64k optimal_io_size)" 262144
	vm_eq "r10-o2-64k: md's optimal_io_size" \
		"$(mdq r10-o2-64k /dev/md/rl-r10-o2-64k optimal_io_size)" 262144
	vm_match "r10-f2-64k: the plan states md's hint" \
		"$(bq r10-f2-64k '.plan.geometry // ""')" "counts 4 \(it divides by near copies only\)"
	md_check r01 rl-r01 1 2 - - none -
	md_check r01 rl-r01-leg0 0 2 65536 - none -
	md_check r01 rl-r01-leg1 0 2 65536 - none -
	md_check xfs-log rl-xfs-log 1 2 - - none -
	md_check xfs-log rl-xfs-log-log 1 2 - - none -
	md_check ext4-geometry rl-ext4-geometry 5 4 65536 2 none -
	md_check ext4-auto rl-ext4-auto 5 4 65536 2 none -
	md_check btrfs-on-r5 rl-btrfs-on-r5 5 4 65536 2 none -

	# btrfs on md: mkfs.btrfs on the array, one btrfs device, mounted.
	show=$(bq btrfs-on-r5 '.facts.btrfs_show // ""')
	vm_match "btrfs-on-r5: one btrfs device" "$show" 'Total devices 1 '
	vm_match "btrfs-on-r5: the device is the array" "$show" 'path /dev/md[0-9]+$'
	# Debian 12's kernel drops a one-device btrfs at unmount: the forget
	# then finds nothing, which the record notes instead of failing.
	vm_match "btrfs-on-r5: btrfs device scan --forget" \
		"$(bq btrfs-on-r5 '.teardown[] | select(.argv[3] == "--forget") |
		"\(.status) \(.exit_status) \(.note // "")"')" \
		'^ok (0 |1 the kernel had forgotten the device already)'
	vm_eq "btrfs-on-r5: mounted as btrfs" \
		"$(bq btrfs-on-r5 '.facts.mount | objects | .fstype')" btrfs
	vm_match "btrfs-on-r5: mkfs.btrfs on the array" \
		"$(bq btrfs-on-r5 '[.steps[].argv | join(" ")] | join("\n")')" \
		'^mkfs.btrfs -f /dev/md/rl-btrfs-on-r5$'

	# The initial resync was waited for: the array was measured in sync.
	st=$(bq r1-resync '.facts.mdstat // ""')
	vm_match "r1-resync: mdstat in sync" "$st" '\[2/2\] \[UU\]'
	vm_nomatch "r1-resync: no resync in progress" "$st" 'resync|recovery'
	vm_eq "r1-resync: the resync was waited for" "$(bq r1-resync '.assume_clean,
		([.resync[]? | select(.device == "/dev/md/rl-r1-resync")][0]
		| .status, (.seconds > 0)) | tostring' | paste -sd' ')" "false done true"
	vm_eq "r5-bitmap: no resync wait with assume_clean" \
		"$(bq r5-bitmap '.assume_clean, (.resync | length) | tostring' |
		paste -sd' ')" "true 0"
	vm_match "r5-journal: the journal in mdstat" "$(bq r5-journal '.facts.mdstat // ""')" \
		'vd[a-z]\[[0-9]+\]\(J\)'
	vm_match "r01: RAID1 over the two legs in mdstat" "$(bq r01 '.facts.mdstat // ""')" \
		'raid1 md[0-9]+\[[01]\] md[0-9]+\[[01]\]'

	# xfs_info names the log device of a mounted fs ("external" otherwise).
	vm_match "xfs-log: xfs_info says the log is external" \
		"$(bq xfs-log '.facts.xfs_info // ""')" \
		'^log[[:space:]]*=(external|/dev/md/rl-xfs-log-log) '
	vm_match "xfs-log: mounted with logdev=" "$(bq xfs-log '.facts.mount
		| objects | [.mount, .super] | join(",")')" \
		'logdev=/dev/md/rl-xfs-log-log'
	vm_match "xfs-log: both mirrors in mdstat" "$(bq xfs-log '.facts.mdstat // ""' |
		grep -c 'active raid1')" '^2$'

	dg=$(bq ext4-geometry '.facts.dumpe2fs // ""')
	vm_match "ext4-geometry: RAID stride" "$dg" 'RAID stride:[[:space:]]+16($|[^0-9])'
	vm_match "ext4-geometry: RAID stripe width" "$dg" 'RAID stripe width:[[:space:]]+48($|[^0-9])'
	# auto: whatever block size mkfs chose, stride is one chunk and the
	# stripe three chunks (four-disk RAID5: three data disks).
	da=$(bq ext4-auto '.facts.dumpe2fs // ""')
	bs=$(printf '%s\n' "$da" | sed -n 's/^Block size:[[:space:]]*//p')
	st=$(printf '%s\n' "$da" | sed -n 's/^RAID stride:[[:space:]]*//p')
	sw=$(printf '%s\n' "$da" | sed -n 's/^RAID stripe width:[[:space:]]*//p')
	vm_eq "ext4-auto: stride x block size = chunk" \
		"$((${st:-0} * ${bs:-0}))" 65536
	vm_eq "ext4-auto: stripe width = 3 strides" "${sw:-none}" "$((${st:-0} * 3))"

	# The guard: /dev/vda is mounted in the guest.
	vm_eq "busy: exit status" "$(vm_file "$d/busy.status")" 1
	vm_match "busy: refused with the reason" "$(vm_file "$d/busy.err")" \
		'busy\.cfg:[0-9]+: variants\.on-busy\.array\.devices(\[0\])?: /dev/vda: .*mounted'
	vm_eq "busy: /dev/vda still mounted" "$(vm_file "$d/busy-mounted")" /dev/vda
	why_exists='/mnt/sys/keep already exists'
	why_tmpfs='/run is on tmpfs'
	if [ "$VM_GEN" = trixie ] && [ "$VM_TRIXIE_FILE_BITMAP" = raidlab ]; then
		why_exists="($why_exists|.*4\.4)"
		why_tmpfs="($why_tmpfs|.*4\.4)"
	fi
	vm_match "busy: an existing bitmap file refused" "$(vm_file "$d/busy.err")" \
		"busy\.cfg:[0-9]+: variants\.bitmap-exists\.array\.bitmap\.file: $why_exists"
	vm_eq "busy: its file intact" "$(vm_file "$d/busy-keep")" "still here"
	vm_match "busy: a bitmap file on tmpfs refused" "$(vm_file "$d/busy.err")" \
		"busy\.cfg:[0-9]+: variants\.bitmap-on-tmpfs\.array\.bitmap\.file: $why_tmpfs"
	vm_eq "busy: the other disks untouched" "$(vm_file "$d/busy-wipefs")" ""
	vm_nomatch "busy: no array" "$(vm_file "$d/busy-mdstat")" '^md[0-9]'
	vm_check_bitmap_file "$d"
	vm_check_killed "$d/killed"
	vm_check_reused "$d/reused"
}

# vm_file_bitmap_refused WHAT CHECK_STATUS CHECK_TEXT RUN_STATUS RECORD
# RUN_TEXT: on trixie, a lab with a bitmap file refused as
# VM_TRIXIE_FILE_BITMAP says (the files: raidlab check's or plan's status
# and words, the run's status, record and stderr). A one-variant lab
# (WHAT without blanks) has nothing built at all under raidlab's gate.
vm_file_bitmap_refused() {
	w=$1
	rs=$(vm_file "$4")
	[ "$rs" = 124 ] &&
		vm_fail "$w: silent for 300 s, stopped (waiting on a prompt?)"
	[ "$rs" != 0 ] || vm_fail "$w: the run succeeded (exit status 0)"
	case $VM_TRIXIE_FILE_BITMAP in
	mdadm)
		grep -qF "$VM_MDADM_NO_FILE_BITMAP" "$5" "$6" 2>/dev/null ||
			vm_fail "$w: mdadm's refusal ($VM_MDADM_NO_FILE_BITMAP) in neither ${5##*/} nor ${6##*/}"
		;;
	raidlab)
		[ "$(vm_file "$2")" != 0 ] ||
			vm_fail "$w: raidlab check/plan accepted the bitmap file"
		grep -q '4\.4' "$3" 2>/dev/null ||
			vm_fail "$w: the check/plan refusal does not name mdadm 4.4: $(tail -n 3 "$3" 2>&1)"
		grep -q '4\.4' "$5" "$6" 2>/dev/null ||
			vm_fail "$w: the run's refusal does not name mdadm 4.4: $(tail -n 3 "$6" 2>&1)"
		! grep -qF "$VM_MDADM_NO_FILE_BITMAP" "$5" "$6" 2>/dev/null ||
			vm_fail "$w: mdadm was asked for a bitmap file all the same"
		case $w in
		*" "*) ;;
		*) vm_eq "$w: nothing built" "$(jq -rs '.[0].builds // [] |
			length' "$5" 2>/dev/null || echo 0)" 0 ;;
		esac
		;;
	*) vm_fail "VM_TRIXIE_FILE_BITMAP: $VM_TRIXIE_FILE_BITMAP" ;;
	esac
}

# labs/bitmap-file.cfg: built with its bitmap in the file on bookworm,
# refused on trixie; the file gone afterwards either way.
vm_check_bitmap_file() {
	d=$1
	vm_eq "r1-bitmap-file: the file removed at teardown" \
		"$(vm_file "$d/sys-files" | tr '\n' ' ')" "keep lost+found "
	if [ "$VM_GEN" = trixie ]; then
		vm_file_bitmap_refused r1-bitmap-file "$d/bitmap-file-check.status" \
			"$d/bitmap-file-check.txt" "$d/bitmap-file.status" \
			"$d/bitmap-file.json" "$d/bitmap-file.err"
		return
	fi
	vm_eq "r1-bitmap-file: raidlab check" "$(vm_file "$d/bitmap-file-check.status")" 0
	vm_eq "r1-bitmap-file: raidlab run" "$(vm_file "$d/bitmap-file.status")" 0
	vm_rec=$d/bitmap-file.json
	variant_check r1-bitmap-file
	md_check r1-bitmap-file rl-r1-bitmap-file 1 2 - - file bitmap
	vm_match "r1-bitmap-file: mdadm --detail names the file" \
		"$(bq r1-bitmap-file '.facts.md["/dev/md/rl-r1-bitmap-file"]
		.mdadm_detail // ""')" 'Intent Bitmap : /mnt/sys/r1\.bitmap'
}

# An md array of the user's own, made on a killed run's disks under its
# md name: cleanup leaves the array, its members and its filesystem be,
# says why, and settles the run's journal all the same.
vm_check_reused() {
	r=$1
	[ -d "$r" ] || { vm_fail "reused: the run did not happen"; return; }
	vm_eq "reused: SIGKILL" "$(vm_file "$r/run.status")" 137
	vm_match "reused: their array, before" "$(vm_file "$r/before")" \
		'^MD_UUID='
	vm_eq "reused: their array, members and filesystem after cleanup" \
		"$(vm_file "$r/after")" "$(vm_file "$r/before")"
	vm_match "reused: still active after cleanup" "$(vm_file "$r/mdstat")" \
		'active raid1'
	vm_eq "reused: raidlab cleanup" "$(vm_file "$r/cleanup.status")" 0
	c=$(vm_file "$r/cleanup.txt")
	vm_match "reused: the md array left alone" "$c" \
		'left /dev/md/rl-reused alone'
	vm_match "reused: the members left alone" "$c" \
		'left /dev/vd[bc] alone'
	vm_nomatch "reused: no md undo ran" "$c" \
		'(--stop|--zero-superblock|wipefs)[^:]*: ok'
	vm_nomatch "reused: no journal left" "$(vm_file "$r/state")" '\.journal'
}

# A RAID0+1 with its journal on an md RAID1, SIGKILLed mounted: cleanup
# stops all four arrays, unmounts, and leaves no superblock or signature.
vm_check_killed() {
	k=$1
	[ -d "$k" ] || { vm_fail "killed: the run did not happen"; return; }
	vm_eq "killed: SIGKILL" "$(vm_file "$k/run.status")" 137
	m=$(vm_file "$k/mdstat-killed")
	vm_eq "killed: two RAID0 legs and two RAID1s active when killed" \
		"$(printf '%s\n' "$m" | grep -Eo 'active raid[01]' | sort |
			uniq -c | awk '{ printf "%s%s ", $1, $3 }')" "2raid0 2raid1 "
	vm_match "killed: mounted when killed" "$(vm_file "$k/mounts-killed")" \
		' /run/raidlab/mnt/[0-9]+-killed '
	vm_match "killed: its journal left" "$(vm_file "$k/state-killed")" '\.journal'
	vm_eq "killed: raidlab cleanup" "$(vm_file "$k/cleanup.status")" 0
	c=$(vm_file "$k/cleanup.txt")
	vm_match "killed: cleanup unmounted" "$c" 'umount /run/raidlab/mnt/[0-9]+-killed: ok'
	for a in rl-killed rl-killed-leg0 rl-killed-leg1 rl-killed-log; do
		vm_match "killed: cleanup stopped $a" "$c" \
			"mdadm --stop /dev/md/$a: ok"
	done
	vm_nomatch "killed: cleanup failed nothing" "$c" \
		'could not|exit status|malformed'
	vm_nomatch "killed: no array after cleanup" "$(vm_file "$k/mdstat")" \
		'(^|[[:space:]])md[0-9]+ :'
	vm_eq "killed: nothing mounted after cleanup" "$(vm_file "$k/mounts")" ""
	vm_eq "killed: no superblock or signature after cleanup" \
		"$(vm_file "$k/wipefs")" ""
	vm_nomatch "killed: no journal after cleanup" "$(vm_file "$k/state")" \
		'\.journal'
}

# Nothing left behind, whatever ran.
vm_check_after() {
	# Each case started from clean disks (guest.sh fresh): what the case
	# before left is its failure, said once here, not again by every
	# case after it.
	for f in "$1"/leftover/*; do
		[ -f "$f" ] && [ -s "$f" ] &&
			vm_fail "left behind before ${f##*/} (removed then): $(head -n 4 "$f" | paste -sd ';')"
	done
	a=$1/after
	[ -d "$a" ] || { vm_fail "after: the guest did not save its final state"; return; }
	vm_nomatch "after: no md array active" "$(vm_file "$a/mdstat")" '(^|[[:space:]])md[0-9]+ :'
	vm_nomatch "after: no md device in /sys/block" "$(vm_file "$a/sys-block")" '^md'
	# Without udev (the guest has none, like this project's machines),
	# mdadm --stop leaves the /dev/mdN node and /dev/md/NAME link it made:
	# shown, not failed.
	nb=$(grep -c '^block ' "$a/dev-md" 2>/dev/null)
	nl=$(grep -c '^link ' "$a/dev-md" 2>/dev/null)
	[ "${nb:-0}${nl:-0}" = 00 ] ||
		echo "md-vm: note: no udev in the guest: mdadm --stop left ${nb:-0}" \
			"/dev/mdN nodes and ${nl:-0} /dev/md/NAME links behind (not a failure)"
	vm_nomatch "after: nothing else in /dev/md*" "$(vm_file "$a/dev-md")" '^other '
	vm_nomatch "after: nothing mounted under /run/raidlab or from md" \
		"$(vm_file "$a/mountinfo")" ' /run/raidlab| /dev/md'
	vm_eq "after: no loop device" "$(vm_file "$a/losetup")" ""
	vm_eq "after: no signature on any disk" "$(vm_file "$a/wipefs")" ""
	vm_nomatch "after: no raidlab journal" "$(vm_file "$a/state")" '\.journal'
	vm_eq "after: no mount point left" "$(vm_file "$a/mnt")" ""
	if [ -f "$a/cleanup.status" ]; then
		vm_eq "after: raidlab cleanup" "$(vm_file "$a/cleanup.status")" 0
		vm_match "after: raidlab cleanup found nothing" "$(vm_file "$a/cleanup.txt")" \
			'nothing to clean up'
	fi
}

# What a preset's plan (raidlab plan --json, run in the guest with the
# same --scale and --disk) says each variant builds, one line per thing
# to hold the guest's tools to, fields separated by '|' ("-": not given):
#   md VARIANT NAME LEVEL RAID_DEVICES LAYOUT CHUNK BITMAP JOURNAL DEV,...
#   fs VARIANT FSTYPE FSDEV LOGDEV SU SW JOURNAL_DEV STRIDE STRIPE_WIDTH
#      DATA_PROFILE METADATA_PROFILE NDEVS
#   mount VARIANT MOUNT_OPTIONS
vm_plan_lines() {
	jq -r '
	def opt($a; $k): [$a[] | select(startswith("--" + $k + "="))
		| ltrimstr("--" + $k + "=")] | first // "-";
	def arg($a; $f): [range(0; $a | length) as $i
		| select($a[$i] == $f) | $a[$i + 1]] | first // "-";
	def kv($s; $k): if $s == "-" then "-" else [$s | split(",")[]
		| select(startswith($k + "=")) | ltrimstr($k + "=")]
		| first // "-" end;
	.[] | .variant as $v | .fstype as $t | .fsdev as $fd
	| ((.failed // []) | join(",")) as $failed
	| ("mount|\($v)|\(.mount_options // "-")"),
	  (.setup[] | (.argv // []) as $a | ($a[0] // "") as $c
	   | if $c == "mdadm" and $a[1] == "--create" then
		["md", $v, $a[2], opt($a; "level"), opt($a; "raid-devices"),
		 opt($a; "layout"), opt($a; "chunk"), opt($a; "bitmap"),
		 opt($a; "write-journal"),
		 ([$a[3:][] | select(startswith("/"))] | join(",")),
		 $failed]
		| join("|")
	     elif ($c | startswith("mkfs.")) then
		arg($a; "-l") as $l | arg($a; "-d") as $d
		| arg($a; "-E") as $e | arg($a; "-J") as $j
		| ["fs", $v, $t, $fd, kv($l; "logdev"), kv($d; "su"),
		   kv($d; "sw"), kv($j; "device"), kv($e; "stride"),
		   kv($e; "stripe-width"),
		   (if $t == "btrfs" then arg($a; "-d") else "-" end),
		   (if $t == "btrfs" then arg($a; "-m") else "-" end),
		   ([$a[] | select(startswith("/dev/"))] | length | tostring)]
		| join("|")
	     else empty end)' "$1" 2>&1
}

# md_built W FILE NAME LEVEL NDEV LAYOUT CHUNK BITMAP JOURNAL DEVS LINKS
# FAILED:
# mdadm --detail, taken while the variant stood, against its plan.
md_built() {
	w=$1 t=$(vm_file "$2")
	vm_match "$w: mdadm --detail name" "$t" "Name : ([^ ]*:)?${3##*/}( |\$)"
	vm_match "$w: level" "$t" "Raid Level : raid$4\$"
	vm_match "$w: raid devices" "$t" "Raid Devices : $5\$"
	case $4:$6 in
	10:n*) vm_match "$w: layout" "$t" "Layout : near=${6#n}\$" ;;
	10:f*) vm_match "$w: layout" "$t" "Layout : far=${6#f}\$" ;;
	10:o*) vm_match "$w: layout" "$t" "Layout : offset=${6#o}\$" ;;
	*:-) ;;
	*) vm_match "$w: layout" "$t" "Layout : $6\$" ;;
	esac
	[ "$7" = - ] || vm_match "$w: chunk" "$t" "Chunk Size : $7\$"
	case $8 in
	- | none) vm_nomatch "$w: no bitmap" "$t" 'Intent Bitmap :' ;;
	internal) vm_match "$w: internal bitmap" "$t" 'Intent Bitmap : Internal$' ;;
	*) vm_match "$w: bitmap file" "$t" "Intent Bitmap : $8\$" ;;
	esac
	if [ "$9" = - ]; then
		vm_nomatch "$w: no write journal" "$t" 'Consistency Policy : journal'
	else
		vm_match "$w: write journal" "$t" 'Consistency Policy : journal'
		vm_match "$w: journal device" "$t" "journal +$9\$"
	fi
	# a leg shows as its /dev/md/NAME or its /dev/mdN node, or as any
	# other link to that node: without udev the links of stopped arrays
	# stay, and Linux 6.12 gives their numbers to the next arrays
	for m in $(printf '%s' "${10}" | tr , ' '); do
		n=$(awk -v l="$m" '$1 == l { print $2 }' "${11}" 2>/dev/null)
		o=$(awk -v n="${n:-none}" '$2 == n { print $1 }' "${11}" 2>/dev/null |
			paste -sd'|')
		# near RAID10 names its mirror sets; a member the phase failed
		# (labs' phase, the plan's "failed") is removed, or rebuilding
		case ",${12}," in
		*",$m,"*) vm_match "$w: member $m (failed by the phase)" "$t" \
			"(removed|spare rebuilding +($m|${n:-$m}${o:+|$o})|active sync( set-[A-Z])? +($m|${n:-$m}${o:+|$o}))\$" ;;
		*) vm_match "$w: member $m" "$t" \
			"active sync( set-[A-Z])? +($m|${n:-$m}${o:+|$o})\$" ;;
		esac
	done
}

# fs_built W DIR FSTYPE FSDEV LOGDEV SU SW JDEV STRIDE SWIDTH DPROF MPROF
# NDEVS: xfs_info, dumpe2fs -h or btrfs filesystem df against the plan.
fs_built() {
	w=$1 b=$2
	vm_eq "$w: mounted as" "$(awk '{ print $3 }' "$b/mount" 2>&1)" "$3"
	case $3 in
	xfs)
		t=$(vm_file "$b/xfs_info")
		if [ "$5" = - ]; then
			vm_match "$w: xfs log internal" "$t" '^log +=internal'
		else
			vm_match "$w: xfs log external, on $5" "$t" "^log +=$5 "
		fi
		if [ "$6" != - ]; then
			# sunit and swidth are in blocks of bsize
			g=$(printf '%s\n' "$t" | awk '/^data/ { d = 1 }
				d && /bsize=/ && !bs { match($0, /bsize=[0-9]+/);
					bs = substr($0, RSTART + 6, RLENGTH - 6) }
				d && /sunit=/ { match($0, /sunit=[0-9]+/);
					su = substr($0, RSTART + 6, RLENGTH - 6);
					match($0, /swidth=[0-9]+/);
					sw = substr($0, RSTART + 7, RLENGTH - 7);
					print su * bs, sw / su; exit }')
			vm_eq "$w: xfs su and sw (bytes, stripe units)" "$g" "$6 $7"
		fi
		;;
	ext2 | ext3 | ext4)
		t=$(vm_file "$b/dumpe2fs")
		f=$(printf '%s\n' "$t" | sed -n 's/^Filesystem features: *//p')
		case $3 in
		ext2) vm_nomatch "$w: ext2 has no journal" "$f" 'has_journal' ;;
		ext3)
			vm_match "$w: ext3 has a journal" "$f" 'has_journal'
			vm_nomatch "$w: ext3 has no extents" "$f" 'extent'
			;;
		ext4) vm_match "$w: ext4 features" "$f" 'has_journal.* extent' ;;
		esac
		if [ "$8" = - ]; then
			vm_nomatch "$w: no journal device" "$t" '^Journal device:'
		else
			vm_match "$w: journal device" "$t" '^Journal device: +0x'
		fi
		[ "$9" = - ] || vm_match "$w: RAID stride" "$t" "^RAID stride: +$9\$"
		[ "${10}" = - ] || vm_match "$w: RAID stripe width" "$t" \
			"^RAID stripe width: +${10}\$"
		;;
	btrfs)
		t=$(vm_file "$b/btrfs-df")
		u=$(printf '%s' "${11}" | tr a-z A-Z | sed 's/^SINGLE$/single/')
		[ "${11}" = - ] || vm_match "$w: btrfs data profile" "$t" "^Data, $u:"
		u=$(printf '%s' "${12}" | tr a-z A-Z | sed 's/^SINGLE$/single/')
		[ "${12}" = - ] || vm_match "$w: btrfs metadata profile" "$t" \
			"^Metadata, $u:"
		vm_eq "$w: btrfs devices" "$(grep -c 'devid' "$b/btrfs-show" 2>&1)" "${13}"
		;;
	esac
}

# mount_built W DIR OPTIONS: the mount's data= mode and the options a
# user sees in /proc/mounts (defaults the kernel does not show, such as
# auto_da_alloc, are left out).
mount_built() {
	o=$(awk '{ print $4 }' "$2/mount" 2>&1)
	data=$(printf '%s' "$3" | tr , '\n' | sed -n 's/^data=//p')
	if [ -n "$data" ]; then
		vm_match "$1: data=$data" ",$o," ",data=$data,"
	else
		vm_nomatch "$1: default data= mode" ",$o," ',data=(journal|writeback),'
	fi
	for k in noatime nodiratime noinit_itable; do
		case ,$3, in
		*,$k,*) vm_match "$1: $k" ",$o," ",$k," ;;
		esac
	done
}

# Every shipped preset ran whole, scaled down, on the guest's disks; each
# variant was what its plan says while it stood; every workload run
# recorded figures.
vm_check_presets() {
	for lab in "$2"/*.cfg; do
		name=$(basename "$lab" .cfg)
		p=$1/presets/$name
		[ -d "$p" ] || { vm_fail "$name: the preset did not run"; continue; }
		# mdadm 4.4 has no bitmap files: refused whole, not checked
		# variant by variant (see VM_TRIXIE_FILE_BITMAP)
		if [ "$VM_GEN" = trixie ] &&
			grep -Eq 'bitmap *= *\{[^}]*file *=' "$lab"; then
			vm_file_bitmap_refused "$name (a bitmap file)" \
				"$p/plan.status" "$p/plan.err" "$p/run.status" \
				"$p/record.json" "$p/run.err"
			continue
		fi
		vm_eq "$name: raidlab plan" "$(vm_file "$p/plan.status")" 0
		vm_eq "$name: raidlab run" "$(vm_file "$p/run.status")" 0
		r=$p/record.json
		vm_eq "$name: record status" "$(jq -r .status "$r" 2>&1)" ok
		# with the guest's disks it uses, and no other (guest.sh
		# lab_disks): a preset with scratch disks uses some
		used=$(vm_file "$p/disks")
		grep -q 'scratch *=' "$lab" && [ -z "$used" ] &&
			vm_fail "$name: none of the guest's disks used"
		vm_match "$name: the record says it ran scaled down" \
			"$(jq -r '.lab.scaled // "(not scaled)"' "$r" 2>&1)" \
			"^--scale 0\.[0-9]+${used:+ $used}\$"
		vm_eq "$name: every run has figures" "$(jq -r '.runs | length > 0
			and all(.skipped == null and .status == "ok"
			and (.tests | length > 0 and all(.value | numbers))
			and any(.tests[]; .value > 0))' "$r" 2>&1)" true
		# every (variant, workload), as often as each other (the
		# guest runs --repeats 1; --scale alone keeps 3, lab-scale.h)
		vm_eq "$name: every variant ran every workload alike" "$(jq -r '
			[.runs[] | [.variant.name, .workload.name // .workload.type]] as $r
			| ($r | unique) as $u
			| ($u | length) == (($u | map(.[0]) | unique | length)
				* ($u | map(.[1]) | unique | length))
			  and ($r | group_by(.) | map(length) | unique | length) == 1' \
			"$r" 2>&1)" true
		planned=$(jq -r '.[].variant' "$p/plan.json" 2>&1 | sort)
		vm_eq "$name: every array variant built" \
			"$(jq -r '[.builds[]? | .variant | if type == "object"
				then .name else . end] | .[]' "$r" 2>&1 | sort)" \
			"$planned"
		vm_plan_lines "$p/plan.json" >"$TEST_TMP/plan-lines"
		[ -s "$TEST_TMP/plan-lines" ] || [ -z "$planned" ] ||
			vm_fail "$name: nothing read from the plan"
		while IFS='|' read -r k v a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11; do
			b=$p/built/$v
			w="$name: $v"
			[ -d "$b" ] || { vm_fail "$w: the hook saw nothing"; continue; }
			case $k in
			md) md_built "$w: $a1" "$b/md-${a1##*/}" "$a1" "$a2" \
				"$a3" "$a4" "$a5" "$a6" "$a7" "$a8" "$b/md-links" \
				"$a9" ;;
			fs) fs_built "$w" "$b" "$a1" "$a2" "$a3" "$a4" "$a5" \
				"$a6" "$a7" "$a8" "$a9" "$a10" "$a11" ;;
			mount) mount_built "$w" "$b" "$a1" ;;
			*) vm_fail "$w: plan: $k $a1" ;;
			esac
		done <"$TEST_TMP/plan-lines"
	done
}
