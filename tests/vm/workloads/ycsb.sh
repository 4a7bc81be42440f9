# ycsb: the MongoDB YCSB workloadb run of the series' cover letter (seed
# 001), as its access pattern, scaled down:
#
#   "YCSB workloadb [...] does 95% read and 5% update to generate mixed
#   read and writeback pressure.  MongoDB is set up in a 10G cgroup [...]
#   Not using SWAP.
#   MGLRU Before: Throughput(ops/sec): 60653.502655,
#                 workingset_refault_file 12904916
#   MGLRU After:  Throughput(ops/sec): 82384.354760 (+35.8%),
#                 workingset_refault_file 7128285 (-44.7%)
#   MGLRU Disabled: Throughput(ops/sec): 93713.640901"
#
# Four workers doing 4 KiB pread/pwrite at zipfian (0.99, scrambled)
# offsets of a 192M file in a 48M memcg, no swap.  Outcome: ops/s, mean
# and p99 latency; refaults from the recording.
SWAP=none
MEMCGS=ycsb
case "$SIZE" in
smoke) YC_MB=96 YC_LIMIT=24M YC_SECONDS=8 ;;
*) YC_MB=192 YC_LIMIT=48M YC_SECONDS=30 ;;
esac
workload_setup() {
	setup_loop_fs $((YC_MB + 40))
	rs-workload write /mnt/db "$YC_MB"
	mkmemcg ycsb "$YC_LIMIT"
}
workload_run() {
	rs-labload ycsb /ycsb /mnt/db "$YC_SECONDS" 4
}
