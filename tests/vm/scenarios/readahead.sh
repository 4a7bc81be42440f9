# readahead: the strided-read model of the fault-path patch
# ("mm/mglru: use folio_mark_accessed to replace folio_set_active in PF"),
# scaled: a 160 MiB file read through mmap, 4 KiB every 64 KiB, over and over,
# in an 8 MiB memcg.  The 10 MiB the reader touches do not fit, so every pass
# faults some touched pages back in (refaults, for certain: with 24 MiB it
# depended on how long read-around stayed on); the pages read-around brings
# and nobody touches compete with them.  MGLRU keeps mapped pages hot, so
# reclaim takes many pages for the few it frees.
setup_loop_fs 200
rs-workload write /mnt/hot 160
mkmemcg ra 8M
sync
echo 3 >/proc/sys/vm/drop_caches
start_record -i 1 --events --refaults
snapshot_counters before ra
in_memcg ra rs-workload stride /mnt/hot 20 64
snapshot_counters after ra
stop_record
log "done"
