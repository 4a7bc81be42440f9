# mix: the aging/OOM reproducer of the series' cover letter, scaled: two
# mmap readers of 48 MiB files that pause between passes, and two workers
# each holding 56 MiB of anonymous memory for 8 s (every page touched at
# least twice, however slow the machine), in a 96 MiB memcg without swap.
# More anon than the limit: the kernel ages and evicts the file cache, then
# OOM-kills an anon worker; both must be seen.  (Workers that freed and
# allocated again missed each other on a loaded host: no OOM kill.)
# The daemon watches beside it: its refaults and OOM kills, read through
# the gates on its cgroupfs reads, must equal the kernel's as well.
setup_loop_fs 160
rs-workload write /mnt/data1 48
rs-workload write /mnt/data2 48
mkmemcg mix 96M
sync
echo 3 >/proc/sys/vm/drop_caches
start_record -i 1 --events --refaults
start_daemon
snapshot_counters before mix
# the readers run under names of their own (a program's name is its
# command's, comm): check.py finds each one's stalls per task.  Readers,
# since each charges its page cache all along; an anon worker may have
# taken its memory before the limit was reached, and never reclaim.
ln -sf "$(command -v rs-workload)" /tmp/stall-a
ln -sf "$(command -v rs-workload)" /tmp/stall-b
in_memcg mix /tmp/stall-a mmap /mnt/data1 4 300 &
r1=$!
in_memcg mix /tmp/stall-b mmap /mnt/data2 4 300 &
r2=$!
in_memcg mix rs-workload hold 56 8 &
a1=$!
in_memcg mix rs-workload hold 56 8 &
a2=$!
# an OOM-killed worker exits non-zero: that is the point here
for pid in $r1 $r2 $a1 $a2; do
	wait "$pid" || log "worker $pid exited $?"
done
snapshot_counters after mix
# the swap counters the OOM records read, where kallsyms names them
grep -E ' (nr_swap_pages|total_swap_pages)$' /proc/kallsyms >kallsyms.swap || true
stop_record
settle_daemon
fetch_daemon after
stop_daemon
log "done"
