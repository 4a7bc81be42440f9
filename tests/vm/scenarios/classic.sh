# classic: the core workload with MGLRU switched off at run time.  The MGLRU
# hooks stay attached but fall quiet; the tracepoints, shrink_lruvec and
# handle_reclaim_writeback (shared by both LRUs) go on attributing.
echo n >/sys/kernel/mm/lru_gen/enabled
. /scenarios/core.sh
