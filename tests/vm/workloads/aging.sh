# aging: the aging/OOM test of the series' cover letter (seed 001), scaled
# down:
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
# Here 120M anon (two workers of 60M) + 64M file (four readers of 16M)
# against a 128M limit (the seed's 22 G over 16 G, with anon a little
# closer to the limit), no swap.  Outcome:
# iterations every worker finished, OOM kills.
SWAP=none
MEMCGS=aging
case "$SIZE" in
smoke) AG_ITER=8 ;;
*) AG_ITER=64 ;;
esac
workload_setup() {
	setup_loop_fs 100
	for i in 0 1 2 3; do
		rs-workload write /mnt/file$i 16
	done
	mkmemcg aging 128M
}
workload_run() {
	rs-labload aging /aging /mnt 4 2 60 "$AG_ITER"
}
