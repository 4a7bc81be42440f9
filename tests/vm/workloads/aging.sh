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
# The reproducer itself is linked from the cover letter ([4],
# file-anon-mix-pressure in the author's test project); rs-labload aging
# has its shape, scaled from the cover letter's 14 GiB anon + 8 GiB file
# in a 16 GiB memcg to 112 MiB + 64 MiB in 128 MiB: reader processes,
# each with its own mapping of one shared 64 MiB file, read all of it and
# pause 120 ms, over and over; once each has read it once, threads of one
# process fault 112 MiB of anon between them, which is then freed, 1 s
# apart, round after round.  No swap.  Outcome: the rounds finished (the
# seed's "Finished N iterations"), OOM kills.
#
# 10 readers and 16 threads.  The reproducer starts one of each per CPU
# (96 of each on the seed's machine): more mms for aging to walk, more
# tasks reclaiming at once ("multiple direct reclaimers all hitting the
# age-then-break path simultaneously is what exhausts reclaim budget").
# Swept with MGLRU on 6.18 and 7.2, 2 runs each (counted clock): 4
# readers and 4 threads, 4 and 16, 8 and 16: no OOM kill on either
# kernel; 16 and 16: OOM kills on both (the readers' file more than what
# the anon leaves); 12 and 16: 6.18 OOM-killed the anon process in its
# first round with 60 MiB of file pages in the oldest generation, 7.2
# finished all 32 rounds, as in the seed.  But with 12 readers the
# classic LRU OOM-killed as well (6.18: 5 of 7 runs; also beside 96 MiB
# of anon), where the seed's classic LRU finished: the memcg was
# overcommitted whatever the LRU.  With 10 (6.18, 2026-12-07) the classic
# LRU finished its 32 rounds without an OOM kill (196 s) and MGLRU
# OOM-killed 9 processes (635 s): the seed's contrast, in that one run.
# The lab's 3 runs a group then: MGLRU OOM-killed in 3 of 3 on 6.18 and 0
# of 3 on 7.2, the classic LRU in 1 of 3 on 6.18 and 2 of 3 on 7.2 (the
# README's aging section): the memcg is still at the edge for it.  A run takes 200
# to 650 s of host time; 16 readers took up to 1,440 s on 7.2, so the
# lab gives a full-size aging run 3000 s (FULL_TIMEOUT in scripts/lab).
SWAP=none
MEMCGS=aging
case "$SIZE" in
smoke) AG_ROUNDS=2 ;;
*) AG_ROUNDS=32 ;;
esac
workload_setup() {
	setup_loop_fs 100
	rs-workload write /mnt/shared 64
	mkmemcg aging 128M
}
workload_run() {
	rs-labload aging /aging /mnt/shared 10 16 112 "$AG_ROUNDS"
}
