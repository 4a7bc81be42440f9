# classic: the core workload with MGLRU switched off while the recording
# runs (after its header).  The record notices and says so; the MGLRU hooks
# stay attached but fall quiet; the tracepoints, shrink_lruvec and
# handle_reclaim_writeback (shared by both LRUs) go on attributing.
MGLRU_OFF_AFTER_START=1
. /scenarios/core.sh
