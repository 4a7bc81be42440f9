# core: a 64 MiB memcg reading a 100 MiB file through mmap while anonymous
# memory comes and goes, so that MGLRU both evicts and ages.  The host checks
# the recording against memory.stat and /sys/kernel/debug/lru_gen.
setup_loop_fs 160
rs-workload write /mnt/data 100
mkmemcg test 64M
sync
echo 3 >/proc/sys/vm/drop_caches
start_record -i 1 --events --budget-ms 2
if [ -n "${MGLRU_OFF_AFTER_START:-}" ]; then # classic.sh
	# after a first snapshot with MGLRU on
	until grep -q '"type":"snapshot"' /results/rec.ndjson; do usleep 100000; done
	echo n >/sys/kernel/mm/lru_gen/enabled
	sleep 2 # a refresh (every second) sees it
fi
if [ -n "${MGLRU_OFF_AFTER_START:-}" ]; then # classic.sh
	# an OOM under the classic LRU: its record must carry no generations
	# (lrugen, kept while MGLRU is off, holds 0 pages and stale births)
	mkmemcg hog 16M
	snapshot_counters before test hog
	in_memcg hog rs-workload hold 32 1 || log "the hog exited $? (an OOM kill)"
else
	snapshot_counters before test
fi
in_memcg test rs-workload mix /mnt/data 4 16
if [ -n "${MGLRU_OFF_AFTER_START:-}" ]; then
	snapshot_counters after test hog
else
	snapshot_counters after test
fi
# the memcg goes away before the end: the summary must keep its path
rmdir "$CG/test"
stop_record
log "done"
