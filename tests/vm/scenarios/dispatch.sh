# dispatch: issue 33's question, measured before choosing.  record attaches
# five copies of each program where the kernel can preempt it, because the
# kernel skips a program whose earlier run on the CPU is still in progress.
# Would programs the kernel runs with preemption off need only one?  On
# record's own points (rs-bench points), the same bare per-cgroup counter:
#   fair       fentry, fexit, tp_btf: one each (the floor bench.sh uses)
#   fair5      the same, five loads on every point
#   nopreempt  a perf-event tracepoint program per tracepoint and one
#              kprobe-session program on every function (entry and exit)
#   kfunctions the functions' so, the tracepoints' as fair has them
#   ptracepoints the tracepoints' so, the functions' as fair has them
#   empty, empty5, nopreempt-empty  as fair, fair5 and nopreempt, with
#              nothing in the programs (RS_BENCH_EMPTY=1): dispatch alone
# 1. cost: `reclaimloop` interleaved round by round with no tool and with
#    record (dispatch.jsonl), without the kernel's statistics, which no mode
#    then pays (cost.MODE.ROUND.json: rs-bench's report of each round);
# 2. skips: the copies scenario's load (8 readers in sibling memcgs under a
#    128 MiB parent: 8 reclaimers on 2 CPUs) with record running (its
#    collector's map reads hold the CPU's bpf_prog_active, which kprobe and
#    perf programs share), once beside `fair` and once beside `nopreempt`:
#    each counter's skipped runs (skips.MODE.json).
# Run it under the counted clock (RS_VM_CLOCK=icount), where the guest's
# time is the instructions it ran.
if grep -q 'rs\.bench_smoke=1' /proc/cmdline; then
	file_mb=8 loops=2 rounds=1 tenant_mb=4
	: >smoke # the tenants then fit their parent: nothing to skip
else
	file_mb=64 loops=8 rounds=${DISPATCH_ROUNDS:-5} tenant_mb=24
fi
out=/results/dispatch.jsonl
setup_loop_fs $((file_mb * 2 + 8 * tenant_mb + 48))
rs-workload write /mnt/data "$file_mb"
for i in 1 2 3 4 5 6 7 8; do
	rs-workload write /mnt/data$i "$tenant_mb"
done
mkmemcg pro max
sync
: >"$out"

tool_start() { # MODE OUT
	TOOL_PID=""
	rm -f "$2" tool.err
	case $1 in
	none) return 0 ;;
	agg) reclaimscope record -q -o "$2" 2>tool.err & ;;
	fair) rs-bench attach fair 100000 /results/points.json >"$2" 2>tool.err & ;;
	fair5) rs-bench attach fair 100000 /results/points.json 5 >"$2" 2>tool.err & ;;
	nopreempt) rs-bench attach nopreempt 100000 /results/points.json >"$2" 2>tool.err & ;;
	kfunctions) rs-bench attach nopreempt 100000 /results/points.json functions >"$2" 2>tool.err & ;;
	ptracepoints) rs-bench attach nopreempt 100000 /results/points.json tracepoints >"$2" 2>tool.err & ;;
	empty) RS_BENCH_EMPTY=1 rs-bench attach fair 100000 /results/points.json >"$2" 2>tool.err & ;;
	empty5) RS_BENCH_EMPTY=1 rs-bench attach fair 100000 /results/points.json 5 >"$2" 2>tool.err & ;;
	nopreempt-empty) RS_BENCH_EMPTY=1 rs-bench attach nopreempt 100000 /results/points.json >"$2" 2>tool.err & ;;
	*) log "no mode $1"; return 1 ;;
	esac
	TOOL_PID=$!
	await "$1" $TOOL_PID tool.err grep -q '"type":"header"\|attached' "$2" tool.err
}

# --- 0. record's points ----------------------------------------------------------
tool_start agg /tmp/points.ndjson
rs-bench points >/results/points.json
tool_stop

# --- 1. cost ---------------------------------------------------------------------
modes="none agg fair fair5 nopreempt kfunctions ptracepoints empty empty5 nopreempt-empty"
[ -e smoke ] && modes="none fair nopreempt" # CI: that each kind loads and is reported
nmodes=$(echo $modes | wc -w)
echo 3 >/proc/sys/vm/drop_caches
in_memcg pro rs-workload reclaimloop /mnt/data "$loops" >/dev/null # warm-up
r=1
while [ $r -le "$rounds" ]; do
	k=0
	while [ $k -lt $nmodes ]; do
		mode=$(echo $modes | cut -d' ' -f$(((k + r - 1) % nmodes + 1)))
		tool_start "$mode" "/tmp/cost.$mode.json"
		echo 3 >/proc/sys/vm/drop_caches
		line=$(in_memcg pro rs-workload reclaimloop /mnt/data "$loops")
		tool_stop
		echo "{\"mode\": \"$mode\", \"round\": $r, ${line#\{}" >>"$out"
		case $mode in
		none | agg) ;;
		*) cp "/tmp/cost.$mode.json" "cost.$mode.$r.json" ;;
		esac
		k=$((k + 1))
	done
	log "round $r done"
	r=$((r + 1))
done

# --- 2. skips under 8 reclaimers, beside record ----------------------------------
# (the kernel's statistics on: without them it counts no runs, only skips)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
for mode in fair nopreempt; do
	tenants_make s$mode
	echo 3 >/proc/sys/vm/drop_caches
	[ $mode = nopreempt ] && rec=/results/rec.ndjson || rec=/results/rec.$mode.ndjson
	reclaimscope record -q -i 1 -o "$rec" 2>"record.$mode.err" &
	RECORD_PID=$!
	await record $RECORD_PID "record.$mode.err" test -s "$rec"
	tool_start "$mode" "/tmp/skips.$mode.json"
	tenants_run s$mode
	tool_stop
	cp "/tmp/skips.$mode.json" "skips.$mode.json"
	bpftool prog show --json >"progs.skips.$mode.json"
	stop_record
	[ $mode = nopreempt ] || mv record.status "record.$mode.status"
	log "skips beside $mode done"
done
echo 0 >/proc/sys/kernel/bpf_stats_enabled
log "done"
