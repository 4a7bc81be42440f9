# stride: the strided read of "mm/mglru: use folio_mark_accessed to replace
# folio_set_active in PF" (seed 011), scaled down:
#
#   fio "--zonemode=strided --zonesize=4K --zonerange=64K [...]
#   --ioengine=mmap" over a 600M file in a 400M memcg: "File Refault Delta"
#   and the READ bandwidth, before and after.
#
# A 160M file, 4 KiB of every 64 KiB through mmap, in an 8M memcg (the
# touched 10M do not fit), no swap.  Outcome: MB/s of the 4 KiB reads,
# passes; refaults from the recording.
SWAP=none
MEMCGS=stride
case "$SIZE" in
smoke) ST_SECONDS=8 ;;
*) ST_SECONDS=30 ;;
esac
workload_setup() {
	setup_loop_fs 200
	rs-workload write /mnt/hot 160
	mkmemcg stride 8M
}
workload_run() {
	rs-labload stride /stride /mnt/hot "$ST_SECONDS" 64
}
