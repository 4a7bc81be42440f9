# wbstorm: the writeback reproducer of "mm/vmscan: unify writeback reclaim
# statistic and throttling", scaled: dd of 192 MiB into a 128 MiB memcg on a
# device that delays writes by a second.  The dirty limits are raised to
# 100/99 % (the reproducer's 90/80 % let background writeback clean the tail
# first in some runs under TCG, a race): no folio is written back before
# reclaim meets it at the LRU tail.  Reclaim then wakes the flushers and
# throttles instead of spinning or OOM-killing dd.
echo 100 >/proc/sys/vm/dirty_ratio
echo 99 >/proc/sys/vm/dirty_background_ratio
echo 360000 >/proc/sys/vm/dirty_expire_centisecs
setup_slow_fs 300 1000
mkmemcg wb 128M
sync
echo 3 >/proc/sys/vm/drop_caches
start_record -i 1 --events
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
in_memcg wb dd if=/dev/zero of=/mnt/testfile bs=1M count=192 2>dd.err
echo $? >dd.status
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
