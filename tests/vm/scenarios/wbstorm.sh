# wbstorm: the writeback reproducer of "mm/vmscan: unify writeback reclaim
# statistic and throttling", scaled: dd of 192 MiB into a 128 MiB memcg on a
# device that delays writes by a second.  No folio may be written back
# before reclaim meets it at the LRU tail; reclaim then wakes the flushers
# and throttles instead of spinning or OOM-killing dd.  Three things would
# start writeback first, each seen with the kernel's writeback_start trace
# (background=1) ahead of the first memcg reclaim, and one in six runs lost
# the race:
# - the global dirty limits: raised to 100/99 % (the reproducer's 90/80 %);
# - the memcg's own writeback domain (cgroup writeback), whose background
#   limit is 99 % of the memcg's file pages plus headroom, so it is crossed
#   just before the memcg is full: cgroup writeback is turned off by binding
#   the io controller to a v1 hierarchy (the kernel does cgroup writeback
#   only with io on the v2 one), so the global limits alone apply;
# - the periodic flusher wakeup, which starts background writeback for a
#   device whose share of recent writeout (none yet) puts it over its part
#   of the limit: dirty_writeback_centisecs 0 turns it off.
echo 100 >/proc/sys/vm/dirty_ratio
echo 99 >/proc/sys/vm/dirty_background_ratio
echo 360000 >/proc/sys/vm/dirty_expire_centisecs
echo 0 >/proc/sys/vm/dirty_writeback_centisecs
mkdir -p /tmp/blkio
mount -t cgroup -o blkio none /tmp/blkio
if grep -qw io "$CG/cgroup.controllers"; then
	log "the io controller is still on cgroup v2: cgroup writeback stays on"
	exit 1
fi
setup_slow_fs 300 1000
mkmemcg wb 128M
sync
echo 3 >/proc/sys/vm/drop_caches
# a budget under the throttles' one-jiffy delays (4 ms at HZ=250): the
# kernel's throttles_over_budget is judged against records that are over
start_record -i 1 --events --budget-ms 3.3
# the daemon and top's batch frames (with who stalled) watch the same storm
start_daemon
reclaimscope top -b --tasks -i 0.5 >top-batch.txt 2>top-batch.err &
top_pid=$!
# its first frame: top is attached and counting
until [ -s top-batch.txt ]; do
	kill -0 $top_pid || { log "top -b died"; cat top-batch.err; exit 1; }
	usleep 100000
done
snapshot_counters before wb
# the kernel's own account of who started writeback first (the checker
# wants no background writeback before the first memcg reclaim)
T=/sys/kernel/tracing
echo 'for_background == 1' >$T/events/writeback/writeback_start/filter
echo 1 >$T/events/writeback/writeback_start/enable
echo 1 >$T/events/vmscan/mm_vmscan_memcg_reclaim_begin/enable
echo 1 >$T/tracing_on
in_memcg wb dd if=/dev/zero of=/mnt/testfile bs=1M count=192 2>dd.err
echo $? >dd.status
echo 0 >$T/tracing_on
grep -E 'writeback_start|memcg_reclaim_begin' $T/trace >writeback-order.txt || true
snapshot_counters after wb
fetch_daemon after
# fetch_daemon waited a second: top printed the frame with the end of dd
kill -INT $top_pid
wait $top_pid
echo "top exit $?" >top.status
stop_daemon
stop_record
teardown_slow_fs
log "done"
