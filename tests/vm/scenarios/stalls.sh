# stalls: short-lived threads (rs.stallers= on the kernel command line;
# default 18,000, past both bounds below, to keep `make test` short; 100,000
# by hand, README), 16 at a time, each writing 4K to a memcg's
# memory.reclaim once and exiting: a proactive reclaim stall of its own.
# A reader keeps the memcg's page cache full (64 MiB read through mmap over
# and over), so that each write ends in one reclaim call (an empty memcg
# would take 17, each walking every priority).  The per-task map stays
# bounded (an exited task's entry is taken out at the next read, folded
# into "(exited tasks)" past 4,096 in userspace), and the tasks' counts
# still add up to the memcg's.
#
# A second recording reads its maps only at its end (-i 3600): its own
# per-task map (16,384 entries) fills, and the stalls that find it full are
# counted.
STALLERS=$(sed -n 's/.*rs\.stallers=\([0-9]*\).*/\1/p' /proc/cmdline)
setup_loop_fs 96
rs-workload write /mnt/data 64
mkmemcg st max
sync
echo 3 >/proc/sys/vm/drop_caches
in_memcg st rs-workload mmap /mnt/data 1000000 0 &
reader_pid=$!
reclaimscope record -q -i 3600 -o /results/rec-slow.ndjson 2>record-slow.err &
slow_pid=$!
await record-slow $slow_pid record-slow.err test -s /results/rec-slow.ndjson
start_record -i 1
snapshot_counters before st
start=$(date +%s)
rs-workload stallers "$CG/st" "${STALLERS:-18000}" 16 >threads.txt
echo $(($(date +%s) - start)) >stallers.seconds
kill $reader_pid
wait $reader_pid || true
snapshot_counters after st
stop_record
kill -INT $slow_pid
wait $slow_pid
echo "record exit $?" >record-slow.status
log "done"
