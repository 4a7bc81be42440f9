# proactive: page cache in a memcg without a limit, then four 8 MiB
# memory.reclaim writes (reclaimer "proactive") and three forced agings
# through /sys/kernel/debug/lru_gen ("+ memcg_id node max_seq").
setup_loop_fs 160
rs-workload write /mnt/data 64
mkmemcg pro max
sync
echo 3 >/proc/sys/vm/drop_caches
start_record -i 1 --events
snapshot_counters before pro
in_memcg pro rs-workload mmap /mnt/data 2 0
for i in 1 2 3 4; do
	echo 8M >"$CG/pro/memory.reclaim" || log "memory.reclaim $i: short"
done
id=$(awk '$1 == "memcg" && $3 == "/pro" { print $2 }' /sys/kernel/debug/lru_gen)
for i in 1 2 3; do
	seq=$(awk -v id="$id" '$1 == "memcg" { on = ($2 == id) }
		on && $1 ~ /^[0-9]+$/ && NF >= 4 { max = $1 } END { print max }' \
		/sys/kernel/debug/lru_gen)
	echo "+ $id 0 $seq" >/sys/kernel/debug/lru_gen
done
echo 3 >forced_agings
snapshot_counters after pro
stop_record
log "done"
