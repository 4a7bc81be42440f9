# copies: how many copies of each program exactness needs (issue 20, "how
# many copies are needed").  The tenants load (8 readers in sibling memcgs
# under a 128 MiB parent, 8 reclaimers on the guest's 2 CPUs: the heaviest
# contention the VM makes) once per `record --copies N`, N = 1, 2, 3, 5,
# each in fresh memcgs with memory.stat read before and after; the host
# (check.py scenario_copies) counts the events lost and compares the totals.
setup_loop_fs 240
for i in 1 2 3 4 5 6 7 8; do
	rs-workload write /mnt/data$i 24
done
sync
for n in 1 2 3 5; do
	tenants_make c$n
	names=""
	for i in 1 2 3 4 5 6 7 8; do
		names="$names c$n/t$i"
	done
	echo 3 >/proc/sys/vm/drop_caches
	out=/results/rec.c$n.ndjson
	[ $n -eq 5 ] && out=/results/rec.ndjson # the one common() reads
	reclaimscope record -q --copies $n -i 1 -o "$out" 2>"record.c$n.err" &
	RECORD_PID=$!
	await record $RECORD_PID "record.c$n.err" test -s "$out"
	snapshot_counters "before.c$n" $names
	tenants_run c$n
	snapshot_counters "after.c$n" $names
	# each program's skipped runs (recursion_misses): where they fall
	bpftool prog show --json >"progs.c$n.json"
	stop_record
	# the last (five copies) keeps record.status, which common() reads
	[ $n -eq 5 ] || mv record.status "record.c$n.status"
	log "copies $n done"
done
log "done"
