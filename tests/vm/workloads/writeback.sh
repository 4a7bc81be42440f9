# writeback: the reproducer of "mm/vmscan: unify writeback reclaim statistic
# and throttling" (seed 010), scaled down:
#
#   "dd if=/dev/zero of=/mnt/slow/testfile bs=1M count=192" in a 128M memcg
#   on a dm-delay device delaying writes by 1000 ms.  "Before this commit,
#   `dd` will get OOM killed immediately if MGLRU is enabled.  Classic LRU
#   is fine."
#
# The same sizes as the seed (they fit the guest); dirty limits raised as
# in the wbstorm scenario so that reclaim, not background writeback, meets
# the dirty folios.  Outcome: dd finished (MB/s) or was OOM-killed.
SWAP=none
MEMCGS=wb
case "$SIZE" in
smoke) WB_MB=96 WB_LIMIT=64M ;;
*) WB_MB=192 WB_LIMIT=128M ;;
esac
workload_setup() {
	echo 100 >/proc/sys/vm/dirty_ratio
	echo 99 >/proc/sys/vm/dirty_background_ratio
	echo 360000 >/proc/sys/vm/dirty_expire_centisecs
	setup_slow_fs 300 1000
	mkmemcg wb "$WB_LIMIT"
}
workload_run() {
	rs-labload writeback /wb /mnt/testfile "$WB_MB"
}
workload_teardown() {
	teardown_slow_fs
}
