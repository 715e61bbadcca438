# Host-side checks of md's write amplification in the md guest's record
# (tests/vm/labs/md.cfg, workload "small": smallfiles, 50 files of 4K).
# Sourced after tests/vm/check.sh (vm_fail, vm_eq, rq and $vm_rec) by
# tests/system/md-vm.sh; vm_check_raidlab calls vm_check_wamp.
#
# Two figures per variant, recomputed here from the record's own series:
#   total: what raidlab's compare calls the write amplification, the
#     bottom devices' bytes over the workload's (tests' bytes_written).
#     RAID1 of 2 writes every block twice: at least 1.9. RAID5 of 4
#     written 4K at a time cannot write full stripes: each write is a
#     data block and its parity (read-modify-write or reconstruct-write,
#     about 2 per block) plus the internal bitmap's updates on every
#     member, and ext4's metadata and journal for 50 small files come on
#     top: far above the full-stripe 4/3, at least twice it (2.667).
#   level: what the bottom devices wrote per byte the md array was
#     written (role "member" over role "array"): md's own amplification,
#     whatever the filesystem did. RAID1 of 2: 1.9-2.5 (above 2: md's
#     superblock, rewritten on every member outside the array's counters
#     at each active/clean switch). RAID5 of 4: above 1.3 only, a sanity
#     floor: ext4's lazy inode table init (mkfs without
#     lazy_itable_init=0) may zero long runs in full stripes, at 4/3,
#     while the workload runs.
# md accounts I/O on its array device since Linux 5.x; a guest kernel
# whose md device reads 0 bytes written checks the total alone.
# The record fields relied on: .runs[] {variant.name, status,
#   tests[].bytes_written, series.members[] {name, role, write_bytes[]}}.

# wamp_bytes VARIANT ROLES: bytes the devices of ROLES (a jq array) wrote
# over the variant's successful runs.
wamp_bytes() {
	jq -r --arg v "$1" --argjson roles "$2" '[.runs[]? | select(
		.variant == $v or ((.variant | objects | .name) == $v))
		| select(.status == "ok")
		| [.series.members[]? | select(.role as $r | $roles | index($r))
		   | .write_bytes | add] | add // 0] | add // 0' "$vm_rec" 2>&1
}

# wamp_ratio A B: A / B to 3 decimals, "nan" when B is 0.
wamp_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b + 0 == 0) print "nan"; else printf "%.3f\n", a / b }'
}

# wamp_atleast WHAT VALUE MIN [MAX]
wamp_atleast() {
	awk -v x="$2" -v lo="$3" -v hi="${4:-1e300}" \
		'BEGIN { exit !(x != "nan" && x >= lo && x <= hi) }' ||
		vm_fail "$1: $2 outside $3..${4:-}"
}

# wamp_variant VARIANT LEVEL_MIN LEVEL_MAX TOTAL_MIN
wamp_variant() {
	v=$1
	bottom='["member","device","journal","log"]'
	members=$(wamp_bytes "$v" "$bottom")
	array=$(wamp_bytes "$v" '["array"]')
	wrote=$(rq "$v" 'map(select(.status == "ok") | [.tests[].bytes_written]
		| add) | add // 0')
	vm_eq "$v: the runs watched their members" \
		"$(awk -v m="$members" 'BEGIN { print (m > 0) }')" 1 || return
	total=$(wamp_ratio "$members" "$wrote")
	printf 'wamp %s: total %s (members %s B, workload %s B, array %s B)\n' \
		"$v" "$total" "$members" "$wrote" "$array"
	wamp_atleast "$v: write amplification" "$total" "$4"
	if [ "$array" = 0 ]; then
		printf 'wamp %s: md reports no bytes written on its array: level not checked\n' "$v"
		return
	fi
	level=$(wamp_ratio "$members" "$array")
	printf 'wamp %s: members over array %s\n' "$v" "$level"
	wamp_atleast "$v: md's own amplification" "$level" "$2" "$3"
}

# wamp_roles VARIANT: the roles its first run's series gave, sorted, as
# name:role pairs ("vdb:member,vde:journal").
wamp_roles() {
	rq "$1" '[.[0].series.members[]? | "\(.name):\(.role)"] | sort
		| join(",")'
}

vm_check_wamp() {
	wamp_variant r1-resync 1.9 2.5 1.9
	wamp_variant r5-bitmap 1.3 1000 2.667
	# The md write journal (/dev/vde) and the XFS log's mirror (vdb,
	# vdc) are tagged as such; the md arrays stay "array".
	vm_match "r5-journal: roles" "$(wamp_roles r5-journal)" \
		'(^|,)vde:journal(,|$)'
	vm_match "r5-journal: members" "$(wamp_roles r5-journal)" \
		'(^|,)vdb:member(,|$)'
	vm_match "xfs-log: roles" "$(wamp_roles xfs-log)" \
		'(^|,)vdb:log,vdc:log(,|$)'
	vm_match "xfs-log: data" "$(wamp_roles xfs-log)" \
		'(^|,)vdf:member,vdg:member(,|$)'
}
