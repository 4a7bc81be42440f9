# stride: seed 011's own reproducer ("mm/mglru: Use folio_mark_accessed to
# replace folio_set_active in PF"), scaled to the guest:
#
#   fio-3.42 --name=hot_ws --rw=read --bs=4K --size=600M --runtime=600
#       --zonemode=strided --zonesize=4K --zonerange=64K --time_based
#       --direct=0 --ioengine=mmap --fadvise_hint=0 ...
#   in a 400M memcg; warm up 30 s, then 60 s measured: "File Refault
#   Delta" (12,883,855 -> 0) and the READ bandwidth (58.5 -> 5,078 MiB/s).
#
# The job is rs-workload stride, not Debian's fio: that fio's mmap engine
# (3.33 here; sid's 3.41 not tried) reads every zone's 4 KiB from the
# file's first page (tests/vm/workload.c says how this was found).  The
# lab's 011 runs until 2026-12-07 ran that fio: they read one page, over
# and over, and their refaults were fio's own libraries read back from
# the tools disk.  rs-workload stride maps the file whole and shared, gives no
# advice, and copies 4 KiB from each 64 KiB zone's start, in order, over
# and over: the job as the seed describes it.
#
# Here a 160M file in a 32M memcg, no swap; a ramp stands for the warm-up,
# and the figures are of the measured part only.  The touched pages (4 KiB
# of every 64 KiB: 10M) fit; what read-around brings in beside them does
# not, and is what 011 stops from pushing them out.  The file is on the
# guest's virtio disk, as the seed's was on a real one: a refault waits for
# a read from a device, which is what 011's throughput figure measures.
# Read-around must go on, as it did in the seed (12.9 M refaults against
# 0.9 M reads: some 14 pages brought in and pushed out per page read).
# With the kernel's default read-ahead (128 KiB) it stops: each window
# ends before the next zone, so every read misses, and after 100 misses
# (MMAP_LOTSAMISS) a fault reads its own page only; the touched pages then
# fit (measured: 2,559 major faults, 17 MB read, no reclaim, no refault).
# qemu's virtio disk asks for 8 MiB, set here whatever qemu does: a miss
# reads the 8 MiB around it (read-around is centred on the fault), the 63
# zones ahead then hit and keep read-around going, and the file streams
# through the memcg.  The seed does not say its disk's read-ahead: 8 MiB
# is the lab's choice, made so that read-around goes on.
# Outcome: MB/s and reads per second (ops_per_s) of the measured part;
# refaults from the recording; the data disk's reads in vdb.stat.*.
SWAP=none
MEMCGS=stride
case "$SIZE" in
smoke) ST_RAMP=3 ST_SECONDS=6 ;;
*) ST_RAMP=20 ST_SECONDS=40 ;;
esac
workload_setup() {
	setup_disk_fs
	echo 8192 >/sys/block/vdb/queue/read_ahead_kb
	rs-workload write /mnt/hot_data.bin 160
	mkmemcg stride 32M
}
workload_run() {
	started=$(date +%s)
	rc=0
	in_memcg stride rs-workload stride /mnt/hot_data.bin "$ST_SECONDS" 64 "$ST_RAMP" \
		>stride.out 2>stride.err || rc=$?
	oom=false
	grep -q "^oom_kill [1-9]" "$CG/stride/memory.events" && oom=true
	awk -v rc="$rc" -v oom="$oom" -v d="$(($(date +%s) - started))" '
		match($0, /"reads":[0-9]+/) { reads = substr($0, RSTART + 8, RLENGTH - 8) }
		match($0, /"bytes":[0-9]+/) { bytes = substr($0, RSTART + 8, RLENGTH - 8) }
		match($0, /"seconds":[0-9.]+/) { secs = substr($0, RSTART + 10, RLENGTH - 10) }
		END {
			printf "{\"type\":\"outcome\",\"workload\":\"stride\",\"memcg\":\"/stride\"," \
				"\"exit_status\":%d,\"oom_killed\":%s,\"duration_s\":%d", rc, oom, d
			if (secs + 0 > 0)
				printf ",\"mb_per_s\":%.6g,\"ops_per_s\":%.6g", bytes / secs / 1e6, reads / secs
			printf "}\n"
		}' stride.out >>"$RS_OUTCOME"
	return "$rc"
}
