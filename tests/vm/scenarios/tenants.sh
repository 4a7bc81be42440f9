# tenants: 8 sibling memcgs under one parent limited to 128 MiB, each
# reading its own 24 MiB file through mmap at the same time.  Limit reclaim
# of the parent walks every child: each child's totals must equal its own
# memory.stat, and the parent's (hierarchical) counters their sum.  The
# daemon watches beside it: once the gates on its cgroupfs reads have had
# time to open (src/collect/memcg_files.c, RS_CG_LAG_S), each child's refaults in
# /metrics must equal its memory.stat too, though their parent's subtree
# count is what told the daemon to read them.  The recorder has room for
# 16 counter cells only (--cells), fewer than the tenants fill: the rest go
# to the reserve map, and the totals must be exact all the same.  120 idle
# memcgs sit beside them (below).
setup_loop_fs 240
# 120 idle memcgs beside them: the tier iterator walks every memcg, and a
# cgroup iterator's output buffer holds some 68 lruvecs' records (so the
# iterator keeps them in a map; before, a walk past it failed whole and
# the tenants' tiers were not read)
i=1
while [ $i -le 120 ]; do
	mkdir "$CG/idle$i"
	i=$((i + 1))
done
for i in 1 2 3 4 5 6 7 8; do
	rs-workload write /mnt/data$i 24
done
mkmemcg tenants 128M
echo +memory >"$CG/tenants/cgroup.subtree_control"
for i in 1 2 3 4 5 6 7 8; do
	mkdir "$CG/tenants/t$i"
done
sync
echo 3 >/proc/sys/vm/drop_caches
start_record -i 1 --events --cells 16
start_daemon
snapshot_counters before tenants tenants/t1 tenants/t2 tenants/t3 tenants/t4 \
	tenants/t5 tenants/t6 tenants/t7 tenants/t8
for i in 1 2 3 4 5 6 7 8; do
	in_memcg tenants/t$i rs-workload mmap /mnt/data$i 3 100 &
done
wait_workers() { # the background workloads, not the recorder or the daemon
	for pid in $(jobs -p); do
		[ "$pid" = "$RECORD_PID" ] || [ "$pid" = "$DAEMON_PID" ] || wait "$pid"
	done
}
wait_workers
snapshot_counters after tenants tenants/t1 tenants/t2 tenants/t3 tenants/t4 \
	tenants/t5 tenants/t6 tenants/t7 tenants/t8
stop_record
settle_daemon
fetch_daemon after
stop_daemon
log "done"
