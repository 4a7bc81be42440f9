# global: no memcg limit; the guest as a whole runs short.  Two memcgs on a
# real (virtio) disk: g1 reads a 1100 MiB file (more than the guest has)
# through mmap, g2 churns 160 MiB of anonymous memory.  kswapd and direct
# reclaim scan the memcgs' LRUs.
setup_disk_fs
rs-workload write /mnt/data 1100
mkmemcg g1 max
mkmemcg g2 max
sync
echo 3 >/proc/sys/vm/drop_caches
# no watermark boosts: the high watermarks kswapd balances to stay as
# /proc/zoneinfo shows them, so check.py can hold each run's to them
echo 0 >/proc/sys/vm/watermark_boost_factor
start_record -i 1 --events
snapshot_counters before g1 g2
in_memcg g2 rs-workload anon 160 12 &
anon_pid=$!
in_memcg g1 rs-workload mmap /mnt/data 2 0
wait $anon_pid
snapshot_counters after g1 g2
stop_record
log "done"
