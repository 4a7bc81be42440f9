# aging: the aging/OOM test of the series' cover letter (seed 001):
#
#   "Spawns multiple workers that keep reading the given file using mmap,
#   and pauses for 120ms after one file read batch.  It also spawns another
#   set of workers that keep allocating and freeing a given size of
#   anonymous memory.  The total memory size exceeds the memory limit (eg.
#   14G anon + 8G file, which is 22G vs a 16G memcg limit).
#   - MGLRU disabled: Finished 128 iterations.
#   - MGLRU enabled: OOM [...] after about ~10-20 iterations [...]
#   - MGLRU enabled after this series: Finished 128 iterations."
#
# As the hand runs of the lab's issue made it, which OOM-killed 6.18 with
# MGLRU in 6 of 8 runs at this scale: four readers of one shared 64 MiB
# file through mmap, pausing 120 ms after every 8 MiB, beside four anon
# workers each allocating, touching and freeing 28 MiB for as long as a
# reader reads (112M anon + 64M file against a 128M limit: the seed's 22
# over 16), no swap.  Outcome: passes every reader finished (the seed's
# "Finished N iterations"), OOM kills.
SWAP=none
MEMCGS=aging
case "$SIZE" in
smoke) AG_ITER=4 ;;
*) AG_ITER=24 ;;
esac
workload_setup() {
	setup_loop_fs 100
	rs-workload write /mnt/shared 64
	mkmemcg aging 128M
}
workload_run() {
	rs-labload aging /aging /mnt/shared 4 4 28 "$AG_ITER" 8
}
