#!/bin/bash
# Runs inside the md test guest (tests/vm/init starts it from the 9p share
# as /share/guest.sh), as root, under real bash. It changes the guest's
# disks and leaves what happened in /share/out for the host to check
# (tests/vm/check.sh); it asserts nothing itself, apart from saying on
# stdout (/share/guest.log) what it did. Stages, from /share/env's
# RAIDLAB_VM_STAGES:
#   selfcheck  the harness alone: mdadm --create a RAID1 on /dev/vdb and
#              /dev/vdc, wait for its resync, ext4 on it, tear it down and
#              wipe both; then mdadm --create with neither --run nor
#              --bitmap, stdin open and silent: mdadm 4.4 asks about a
#              bitmap and waits (then is killed), 4.2 does not ask
#   raidlab    raidlab run of labs/md.cfg (every md shape), labs/bitmap-
#              file.cfg (a bitmap file: mdadm 4.4 has none), labs/busy.cfg
#              (a guard refusal) and labs/killed.cfg (killed, then raidlab
#              cleanup), the binary under test driving real md
#   presets    every shipped preset (/share/presets: data/labs/*.cfg, as
#              shipped), scaled down (--scale $VM_SCALE) and pointed at
#              the guest's disks (--disk), with inspect.sh as the --hook
#              that looks at each variant while it is built
# and always, last, the state of the guest after everything: /proc/mdstat,
# /dev/md*, mounts, loop devices, wipefs of every disk, raidlab's journals.
# Disks: /dev/vda a small "system" disk (mounted here, so busy), /dev/vdb..
# the lab's disks. raidlab runs with stdin a pipe that stays open and
# never carries a byte (fd 3), stopped once silent for 300 s
# (quiet_kill): a prompt it left to mdadm would hang there, and shows as
# exit status 124.
set -u
shopt -s nullglob

# shellcheck source=/dev/null
. /share/env
export ASAN_OPTIONS UBSAN_OPTIONS
out=/share/out
rm -rf "$out"
mkdir -p "$out"

now() {
	cut -d' ' -f1 /proc/uptime
}

run() {
	echo "+ [$(now)] $*"
	"$@"
}

# quiet_kill SECS FILE CMD...: CMD, stopped (SIGTERM, then SIGKILL 10 s
# later; exit status 124, as timeout(1) gives) once FILE, where it writes
# as it goes, has not grown for SECS seconds. raidlab says every step it
# runs: a prompt left to mdadm is silence, while a host that others keep
# busy only makes it slower, which a bound on the total would fail.
quiet_kill() {
	local secs=$1 file=$2 pid size last=-1 quiet=0
	shift 2
	# stdin named: bash gives an unredirected background job /dev/null
	"$@" 0<&0 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		size=$(stat -c %s "$file" 2>/dev/null || echo 0)
		if [ "$size" != "$last" ]; then
			last=$size
			quiet=0
		elif [ $((quiet += 1)) -ge "$secs" ]; then
			echo "== $* silent for $secs s: stopped" >&2
			kill -TERM "$pid" 2>/dev/null
			for _ in $(seq 10); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 1
			done
			kill -KILL "$pid" 2>/dev/null
			wait "$pid"
			return 124
		fi
	done
	wait "$pid"
}

t_start=$(now)
echo "== guest up at $t_start s; stages: $RAIDLAB_VM_STAGES"

# The disks appear as the virtio driver probes them; they should all be
# there already, but wait a little rather than race.
for _ in $(seq 50); do
	disks=(/dev/vd?)
	[ "${#disks[@]}" -ge "$VM_DISKS" ] && break
	sleep 0.1
done
echo "== ${#disks[@]} disks: ${disks[*]}"
# what ran: the kernel, mdadm (check.sh holds them to VM_GEN), the disks
{
	uname -r
	mdadm --version 2>&1
	printf '%s\n' "${disks[@]}"
} >"$out/env"
mkfifo /run/vm-stdin
exec 3<>/run/vm-stdin
cat /proc/mdstat >"$out/mdstat-boot"

# queues DIR: each disk's scheduler and depth, as a lab that sets them
# must leave them (md.cfg's r1-write-mostly sets both).
queues() {
	local dev q
	for dev in "${disks[@]}"; do
		q=/sys/block/${dev#/dev/}/queue
		echo "$dev $(cat "$q/scheduler") $(cat "$q/nr_requests")"
	done >"$1/queues" 2>&1
}
queues "$out"

# fresh CASE: each case starts from clean disks. Whatever an earlier case
# left (a mount, an md array, a loop device, a signature on a data disk,
# a raidlab journal) is written to $out/leftover/CASE and removed, so
# that one case's failure is that case's FAIL, not every later case's.
# /dev/vda, the "system" disk, is the cases' own business.
fresh() {
	local f=$out/leftover/$1 m dev i
	mkdir -p "$out/leftover"
	: >"$f"
	for m in $(findmnt -rn -o TARGET,SOURCE | awk '$1 ~ "^/run/raidlab/" ||
		$1 == "/mnt/selfcheck" || $2 ~ "^/dev/md" { print $1 }' | sort -r); do
		echo "mounted: $m" >>"$f"
		umount "$m" || umount -l "$m"
	done
	# a nested array's legs stop once the array over them has
	for i in 1 2 3 4; do
		m=$(grep -Eo '^md[0-9]+ : .*' /proc/mdstat)
		[ -n "$m" ] || break
		[ "$i" = 1 ] && printf 'md: %s\n' "$m" >>"$f"
		for dev in $(printf '%s\n' "$m" | cut -d' ' -f1); do
			mdadm --stop "/dev/$dev" >/dev/null 2>&1
		done
	done
	losetup -a | sed 's/^/loop: /' >>"$f"
	losetup -D
	for dev in "${disks[@]:1}"; do
		wipefs -n "$dev" | sed "s|^|$dev: |" >>"$f"
		wipefs -a -q "$dev"
	done
	for m in /run/raidlab/*.journal; do
		echo "journal: $m" >>"$f"
		mkdir -p "$out/leftover/$1.journals"
		mv "$m" "$out/leftover/$1.journals/"
	done
	if [ -s "$f" ]; then
		echo "== before $1, left behind and now removed:"
		cat "$f"
	fi
}

selfcheck() {
	local d=$out/selfcheck a b md pid
	fresh selfcheck
	mkdir -p "$d"
	a=${disks[1]}
	b=${disks[2]}
	run mdadm --create /dev/md/selfcheck --run --level=1 --raid-devices=2 \
		--metadata=1.2 --bitmap=none "$a" "$b" >"$d/create.txt" 2>&1
	echo $? >"$d/create.status"
	cat /proc/mdstat >"$d/mdstat-created"
	run mdadm --wait /dev/md/selfcheck
	cat /proc/mdstat >"$d/mdstat"
	md=$(basename "$(readlink -f /dev/md/selfcheck)")
	for f in level layout chunk_size raid_disks consistency_policy \
		array_state sync_action bitmap/location; do
		printf '%s=%s\n' "$f" "$(cat "/sys/block/$md/md/$f" 2>&1)"
	done >"$d/sysfs"
	mdadm --detail /dev/md/selfcheck >"$d/detail" 2>&1
	mkdir -p /mnt/selfcheck
	if run mkfs.ext4 -q -F /dev/md/selfcheck &&
		run mount /dev/md/selfcheck /mnt/selfcheck; then
		echo "written in the guest" >/mnt/selfcheck/file
		run umount /mnt/selfcheck
		run mount -o ro /dev/md/selfcheck /mnt/selfcheck &&
			cat /mnt/selfcheck/file >"$d/readback"
		run umount /mnt/selfcheck
	fi
	run mdadm --stop /dev/md/selfcheck
	run mdadm --zero-superblock "$a" "$b"
	run wipefs -a "$a" "$b"
	cat /proc/mdstat >"$d/mdstat-stopped"

	# The hazard raidlab must steer clear of (it passes --run and
	# --bitmap): asked nothing else, mdadm 4.4 asks on stdin whether to
	# add a bitmap, and waits for an answer that never comes. Waited
	# for: the question, or mdadm's exit (a generous bound only catches
	# a hang); "waiting" if mdadm is still there once it has asked.
	echo "+ mdadm --create /dev/md/prompt (no --run, no --bitmap), stdin open"
	mdadm --create /dev/md/prompt --level=1 --raid-devices=2 \
		--metadata=1.2 "$a" "$b" <&3 >"$d/prompt.txt" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		grep -q 'want to enable it now' "$d/prompt.txt" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo waiting >"$d/prompt.state"
		kill "$pid"
	else
		echo exited >"$d/prompt.state"
	fi
	wait "$pid"
	echo $? >"$d/prompt.status"
	cat "$d/prompt.txt"
	[ -e /dev/md/prompt ] && run mdadm --stop /dev/md/prompt
	run mdadm --zero-superblock "$a" "$b"
	run wipefs -a -q "$a" "$b"
}

raidlab_stage() {
	local d=$out/raidlab t0
	mkdir -p "$d"
	# The busy "system" disk.
	run mkfs.ext4 -q -F -L system /dev/vda
	mkdir -p /mnt/sys
	run mount /dev/vda /mnt/sys
	echo "still here" >/mnt/sys/keep

	raidlab --version >"$d/version" 2>&1
	fresh md
	raidlab check /share/labs/md.cfg >"$d/check.txt" 2>&1
	echo $? >"$d/check.status"

	t0=$(now)
	echo "+ raidlab run /share/labs/md.cfg --results $d/results --json"
	quiet_kill 300 "$d/run.err" raidlab run /share/labs/md.cfg \
		--results "$d/results" --json <&3 >"$d/record.json" 2>"$d/run.err"
	echo $? >"$d/run.status"
	echo "$t0 $(now)" >"$d/run.time"
	echo "== raidlab run: exit status $(cat "$d/run.status"), $t0..$(now) s"
	tail -n 40 "$d/run.err"

	# A bitmap in a file on /dev/vda's ext4: built (mdadm 4.2) or
	# refused (4.4), by raidlab or by mdadm (check.sh says which).
	fresh bitmap-file
	raidlab check /share/labs/bitmap-file.cfg >"$d/bitmap-file-check.txt" 2>&1
	echo $? >"$d/bitmap-file-check.status"
	echo "+ raidlab run /share/labs/bitmap-file.cfg"
	quiet_kill 300 "$d/bitmap-file.err" raidlab run /share/labs/bitmap-file.cfg \
		--results "$d/bitmap-file-results" --json <&3 \
		>"$d/bitmap-file.json" 2>"$d/bitmap-file.err"
	echo $? >"$d/bitmap-file.status"
	tail -n 20 "$d/bitmap-file.err"
	ls -A /mnt/sys >"$d/sys-files" # the bitmap file is gone

	fresh busy
	echo "+ raidlab run /share/labs/busy.cfg"
	raidlab run /share/labs/busy.cfg --results "$d/busy-results" \
		>"$d/busy.out" 2>"$d/busy.err"
	echo $? >"$d/busy.status"
	cat "$d/busy.err"
	findmnt -n -o SOURCE /mnt/sys >"$d/busy-mounted" 2>&1
	cat /mnt/sys/keep >"$d/busy-keep" 2>&1
	cat /proc/mdstat >"$d/busy-mdstat"
	wipefs -n "${disks[1]}" "${disks[2]}" "${disks[3]}" >"$d/busy-wipefs" 2>&1
	run umount /mnt/sys
	killed_run "$d"
	reused_run "$d"
	phases_run "$d"
	rebuild_killed_run "$d"
}

# labs/phases.cfg: the workloads degraded, rebuilding and scrubbing.
phases_run() {
	local d=$1/phases
	mkdir -p "$d"
	fresh phases
	echo "+ raidlab run /share/labs/phases.cfg"
	raidlab run /share/labs/phases.cfg --results "$d/results" --json \
		>"$d/record.json" 2>"$d/run.err"
	echo $? >"$d/run.status"
	tail -n 20 "$d/run.err"
	cat /proc/mdstat >"$d/mdstat"
}

# labs/rebuild-killed.cfg: SIGKILLed while md rebuilds, then raidlab
# cleanup. The kill lands in the narrowest window: mdadm --add has
# returned, and raidlab has not yet journaled what it did. An mdadm
# first in PATH runs the real one, waits for md's recovery, and kills
# its parent, raidlab, while raidlab still waits for it.
rebuild_killed_run() {
	local d=$1/rebuild-killed pid wrap=/run/killwrap
	mkdir -p "$d" "$wrap"
	fresh rebuild-killed
	cat >"$wrap/mdadm" <<EOW
#!/bin/sh
$(command -v mdadm) "\$@"
rc=\$?
case " \$* " in
*" --add "*)
	for _ in \$(seq 300); do
		grep -q 'recovery = ' /proc/mdstat && break
		sleep 0.1
	done
	cat /proc/mdstat >"$d/mdstat-killed"
	echo "\$rc" >"$d/add.status"
	kill -KILL \$PPID ;;
esac
exit \$rc
EOW
	chmod 755 "$wrap/mdadm"
	echo "+ raidlab run /share/labs/rebuild-killed.cfg, killed once mdadm --add returned"
	PATH=$wrap:$PATH raidlab run /share/labs/rebuild-killed.cfg \
		--results "$d/results" >"$d/run.out" 2>"$d/run.err" &
	pid=$!
	wait "$pid"
	echo $? >"$d/run.status"
	rm -r "$wrap"
	cleanup_after_kill "$d"
}

# cleanup_after_kill DIR: raidlab cleanup after a killed run, and what
# is left after it (md arrays, mounts, signatures, raidlab's state).
cleanup_after_kill() {
	local d=$1 dev
	run raidlab cleanup >"$d/cleanup.txt" 2>&1
	echo $? >"$d/cleanup.status"
	cat "$d/cleanup.txt"
	cat /proc/mdstat >"$d/mdstat"
	grep -E ' /run/raidlab| /dev/md' /proc/self/mountinfo >"$d/mounts"
	for dev in "${disks[@]:1}"; do
		wipefs -n "$dev" | sed "s|^|$dev: |"
	done >"$d/wipefs" 2>&1
	ls -A /run/raidlab >"$d/state" 2>&1
}

# labs/killed.cfg's run, SIGKILLed once its four arrays are built and
# mounted, then raidlab cleanup: what was there before and after it.
killed_run() {
	local d=$1/killed pid
	mkdir -p "$d"
	fresh killed
	echo "+ raidlab run /share/labs/killed.cfg, killed once mounted"
	raidlab run /share/labs/killed.cfg --results "$d/results" \
		>"$d/run.out" 2>"$d/run.err" &
	pid=$!
	for _ in $(seq 900); do
		grep -Eq ' /run/raidlab/mnt/[0-9]+-killed ' /proc/self/mountinfo &&
			break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	sleep 2 # into the workload
	kill -KILL "$pid"
	wait "$pid"
	echo $? >"$d/run.status"
	tail -n 20 "$d/run.err"
	cat /proc/mdstat >"$d/mdstat-killed"
	grep ' /run/raidlab/mnt/' /proc/self/mountinfo >"$d/mounts-killed"
	ls -A /run/raidlab >"$d/state-killed" 2>&1
	# what cleanup judges by: the journal, and md's disk sequences now
	cat /run/raidlab/*.journal >"$d/journal-killed" 2>&1
	grep . /sys/block/md*/diskseq >"$d/diskseq-killed" 2>&1
	cleanup_after_kill "$d"
}

# labs/reused.cfg's run, SIGKILLed mounted; the user tidies up by hand
# and builds an array of their own on the same disks, with the same md
# name and a filesystem; then raidlab cleanup. The user's array, its
# members' superblocks and its filesystem must come out as they went in.
reused_run() {
	local d=$1/reused pid mnt a=${disks[1]} b=${disks[2]}
	mkdir -p "$d"
	fresh reused
	echo "+ raidlab run /share/labs/reused.cfg, killed once mounted"
	raidlab run /share/labs/reused.cfg --results "$d/results" \
		>"$d/run.out" 2>"$d/run.err" &
	pid=$!
	for _ in $(seq 900); do
		mnt=$(grep -Eo ' /run/raidlab/mnt/[0-9]+-reused ' \
			/proc/self/mountinfo)
		[ -n "$mnt" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "$pid"
	wait "$pid"
	echo $? >"$d/run.status"
	run umount $mnt
	run mdadm --stop /dev/md/rl-reused
	# What udev would do: without it, the stale link makes mdadm
	# --create open (and so bring back) the stopped array's node.
	rm -f /dev/md/rl-reused
	run mdadm --create /dev/md/rl-reused --run --level=1 --raid-devices=2 \
		--metadata=1.2 --bitmap=none --assume-clean "$a" "$b" \
		>"$d/theirs.txt" 2>&1
	run mkfs.ext4 -q -F /dev/md/rl-reused
	theirs() {
		mdadm --detail --export /dev/md/rl-reused | grep '^MD_UUID='
		blkid -p -o export /dev/md/rl-reused | grep '^UUID='
		for m in "$a" "$b"; do
			blkid -p -o export "$m" | grep -E '^(UUID|UUID_SUB)='
		done
	}
	theirs >"$d/before" 2>&1
	run raidlab cleanup >"$d/cleanup.txt" 2>&1
	echo $? >"$d/cleanup.status"
	cat "$d/cleanup.txt"
	theirs >"$d/after" 2>&1
	cat /proc/mdstat >"$d/mdstat"
	ls -A /run/raidlab >"$d/state" 2>&1
	# Their array goes, so that the guest ends clean.
	run mdadm --stop /dev/md/rl-reused
	run mdadm --zero-superblock "$a" "$b"
	run wipefs -a -q "$a" "$b"
}

# The presets name their disks scratch:0..5; here they are the guest's
# disks, the two large ones first and third (a RAID0+1's legs each hold
# one).
preset_disks=(--disk scratch:0=/dev/vdf --disk scratch:1=/dev/vdb
	--disk scratch:2=/dev/vdg --disk scratch:3=/dev/vdc
	--disk scratch:4=/dev/vdd --disk scratch:5=/dev/vde)

# Of preset_disks, those lab uses, into the array used: raidlab refuses
# a --disk no variant uses and names it, so what it names is left out.
lab_disks() {
	local unused i
	unused=$(raidlab plan --scale "$VM_SCALE" "${preset_disks[@]}" "$1" \
		2>&1 >/dev/null | grep -o 'scratch:[0-9]*=[^:]*: no variant' |
		cut -d= -f1)
	used=()
	for ((i = 1; i < ${#preset_disks[@]}; i += 2)); do
		grep -qx "${preset_disks[i]%%=*}" <<<"$unused" ||
			used+=(--disk "${preset_disks[i]}")
	done
}

# Each preset: its plan as JSON (what check.sh holds the built variants
# to), then the run, inspect.sh leaving what it saw under built/.
presets_stage() {
	local d=$out/presets lab name p t0 used
	mkdir -p "$d"
	# /var/tmp is where the presets keep files (seed-000's bitmap file,
	# quick's directory): on the guest's tmpfs md cannot use a bitmap
	# file, so it is /dev/vda's ext4 here, as on a real machine.
	run mkfs.ext4 -q -F -L system /dev/vda
	run mount /dev/vda /var/tmp
	chmod 1777 /var/tmp
	# mkfs.xfs (xfsprogs 6.1) refuses an xfs under 300M, or one whose
	# log would be under 64M (it sizes it below that under ~600M), unless
	# fstests' three variables are set: the presets' xfs on these small
	# disks need them. What is built (log placement, su/sw) is the same;
	# raidlab passes its environment on to mkfs.
	export TEST_DIR=/tmp TEST_DEV=/dev/null QA_CHECK_FS=1
	for lab in /share/presets/*.cfg; do
		name=$(basename "$lab" .cfg)
		p=$d/$name
		mkdir -p "$p/built"
		fresh "$name"
		echo "$p/built" >/run/vm-inspect
		lab_disks "$lab"
		echo "${used[*]}" >"$p/disks"
		raidlab plan --json --scale "$VM_SCALE" "${used[@]}" \
			"$lab" >"$p/plan.json" 2>"$p/plan.err"
		echo $? >"$p/plan.status"
		t0=$(now)
		echo "+ raidlab run $lab --scale $VM_SCALE --repeats 1 ${used[*]}"
		# One repeat: under TCG the figures are not numbers to judge
		# (md-in-vm.md), and --scale's 3 would triple this stage.
		quiet_kill 300 "$p/run.err" raidlab run "$lab" --scale "$VM_SCALE" \
			--repeats 1 "${used[@]}" --hook /share/inspect.sh \
			--results "$p/results" --json <&3 \
			>"$p/record.json" 2>"$p/run.err"
		echo $? >"$p/run.status"
		echo "== $name: exit status $(cat "$p/run.status"), $t0..$(now) s"
		tail -n 20 "$p/run.err"
	done
	rm -f /run/vm-inspect
	unset TEST_DIR TEST_DEV QA_CHECK_FS
	ls -A /var/tmp >"$d/var-tmp"
	run umount /var/tmp
}

for s in $RAIDLAB_VM_STAGES; do
	echo "== stage $s at $(now) s"
	case $s in
	selfcheck) selfcheck ;;
	raidlab) raidlab_stage ;;
	presets) presets_stage ;;
	*) echo "unknown stage $s" ;;
	esac
done

# What is left once everything ran.
a=$out/after
mkdir -p "$a"
cat /proc/mdstat >"$a/mdstat"
ls /sys/block >"$a/sys-block"
for f in /dev/md* /dev/md/*; do
	if [ -L "$f" ]; then
		echo "link $f -> $(readlink "$f")"
	elif [ -b "$f" ]; then
		echo "block $f"
	elif [ -d "$f" ]; then
		echo "dir $f"
	else
		echo "other $f"
	fi
done >"$a/dev-md"
cat /proc/self/mountinfo >"$a/mountinfo"
# the kernel's own words, for a failure's log ("md: mdN still in use")
dmesg >"$a/dmesg" 2>&1
losetup -a >"$a/losetup" 2>&1
for dev in "${disks[@]:1}"; do
	wipefs -n "$dev" | sed "s|^|$dev: |"
done >"$a/wipefs" 2>&1
ls -A /run/raidlab >"$a/state" 2>/dev/null
ls -A /run/raidlab/mnt >"$a/mnt" 2>/dev/null
queues "$a"
if [[ " $RAIDLAB_VM_STAGES " == *" raidlab "* ||
	" $RAIDLAB_VM_STAGES " == *" presets "* ]]; then
	raidlab cleanup >"$a/cleanup.txt" 2>&1
	echo $? >"$a/cleanup.status"
fi
echo "== done at $(now) s (guest script $t_start..$(now) s)"
echo "$t_start $(now)" >"$out/time"
