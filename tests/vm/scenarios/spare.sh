# spare: the core workload with every task's state kept in the spare map
# (rs_state in bpf/common.bpf.h), as if the kernel's task storage refused
# each one, as 6.18's does now and then (bpf_task_storage_busy).  The
# totals must stay exact: the spare path is the one those tasks take.
export RECLAIMSCOPE_TEST_SPARE_STATES=1
. /scenarios/core.sh
