# readahead: the strided-read model of the fault-path patch
# ("mm/mglru: use folio_mark_accessed to replace folio_set_active in PF"),
# scaled: a 160 MiB file read through mmap, 4 KiB every 64 KiB, over and over,
# in a 24 MiB memcg: the 10 MiB it touches fit, what read-around brings does
# not.  Read-around fills the cache with mapped pages nobody touches; MGLRU
# keeps mapped pages hot, so reclaim takes many and frees few, evicts touched
# ones, and those fault back in: workingset_refault_file grows.
setup_loop_fs 200
rs-workload write /mnt/hot 160
mkmemcg ra 24M
sync
echo 3 >/proc/sys/vm/drop_caches
start_record -i 1 --events
snapshot_counters before ra
in_memcg ra rs-workload stride /mnt/hot 20 64
snapshot_counters after ra
stop_record
log "done"
