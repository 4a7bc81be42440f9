# bench: the VM part of `make bench` on the series kernel, where the fentry
# hooks run.  Two workloads -- a reader of a file four times its memcg's
# limit (limit reclaim), and a memory.reclaim loop over a memcg full of page
# cache (almost nothing but reclaim) -- with no tool, `record`, `record -e`
# and the fair peer (rs-bench: one bare counter on each point record's
# programs are attached to, the floor), interleaved round by round; then each
# program's cost with the kernel's statistics on (bpftool), and the daemon's
# hook cost metrics against bpftool's figures.  Figures go to bench.jsonl
# and progs.*.json; tests/bench/report.py renders them, check.py only checks
# that they are complete and that the cost metrics are the kernel's.
#
# rs.bench_smoke=1 on the kernel command line: tiny sizes (CI).
if grep -q 'rs\.bench_smoke=1' /proc/cmdline; then
	smoke=true file_mb=8 limit=4M passes=1 loops=2 rounds=1
else
	smoke=false file_mb=64 limit=16M passes=1 loops=8 rounds=${BENCH_ROUNDS:-5}
fi
out=/results/bench.jsonl
setup_loop_fs $((file_mb * 2 + 32))
rs-workload write /mnt/data "$file_mb"
mkmemcg lim "$limit"
mkmemcg pro max
sync

printf '{"kind": "machine", "kernel": "%s", "cpu": "%s", "cpus": %d, "mem_kib": %d, "cgroup": 2, "date": "%s", "smoke": %s, "vm": true}\n' \
	"$(uname -r)" "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
	"$(grep -c ^processor /proc/cpuinfo)" "$(awk '/^MemTotal/ { print $2 }' /proc/meminfo)" \
	"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$smoke" >"$out"

# The memcg's pgsteal, for the reader's pages reclaimed.
steal() { awk '$1 == "pgsteal" { print $2 }' "$CG/$1/memory.stat"; }

tool_start() { # MODE
	TOOL_PID=""
	rm -f /tmp/"$1".ndjson tool.err # the last run's header or "attached"
	case $1 in
	none) return 0 ;;
	agg) reclaimscope record -q -o /tmp/agg.ndjson 2>tool.err & ;;
	stream) reclaimscope record -q -e -o /tmp/stream.ndjson 2>tool.err & ;;
	refaults) reclaimscope record -q --refaults -o /tmp/refaults.ndjson 2>tool.err & ;;
	fair) rs-bench attach fair 100000 /results/points.json >/tmp/fair.json 2>tool.err & ;;
	control) rs-bench attach control 100000 >/tmp/control.json 2>tool.err & ;;
	esac
	TOOL_PID=$!
	# record writes its header, rs-bench says "attached", once attached
	await "$1" $TOOL_PID tool.err \
		grep -q '"type":"header"\|attached' /tmp/"$1".ndjson tool.err
}

# One run of each workload; its JSON lines, tagged.
run_workloads() { # MODE ROUND
	echo 3 >/proc/sys/vm/drop_caches
	before=$(steal lim)
	line=$(in_memcg lim rs-workload readlat /mnt/data "$passes")
	after=$(steal lim)
	echo "{\"kind\": \"workload\", \"workload\": \"readlat\", \"mode\": \"$1\", \"round\": $2, ${line#\{}" |
		sed "s/}\$/, \"reclaimed\": $((after - before))}/" >>"$out"
	line=$(in_memcg pro rs-workload reclaimloop /mnt/data "$loops")
	echo "{\"kind\": \"workload\", \"workload\": \"reclaimloop\", \"mode\": \"$1\", \"round\": $2, ${line#\{}" >>"$out"
}

# --- 0. the points record attaches to: the fair peer's ------------------------------
tool_start agg
rs-bench points >/results/points.json
tool_stop
log "$(grep -o '"kind"' /results/points.json | wc -l) programs on the points"

# --- 1. workload slowdown, interleaved, the order rotated every round --------------
modes="none agg stream fair"
run_workloads warmup 0 >/dev/null
sed -i '/"mode": "warmup"/d' "$out"
r=1
while [ $r -le "$rounds" ]; do
	for k in 0 1 2 3; do
		mode=$(echo $modes | cut -d' ' -f$(((k + r - 1) % 4 + 1)))
		tool_start "$mode"
		run_workloads "$mode" "$r"
		tool_stop
	done
	log "round $r done"
	r=$((r + 1))
done

# --- 2. what each program costs per event ------------------------------------------
echo 1 >/proc/sys/kernel/bpf_stats_enabled
# (refaults: record with the opt-in per-folio refault hook, for its cost)
for mode in control agg stream fair refaults; do
	tool_start "$mode"
	run_workloads "cost-$mode" 0
	bpftool prog show --json >"progs.$mode.json"
	case $mode in
	agg | stream | refaults) rs-bench points >"points.$mode.json" ;; # ids to points
	esac
	tool_stop
	# the fair peer's own list names each program's point
	[ "$mode" != fair ] || cp /tmp/fair.json fair.cost.json
done
sed -i '/"mode": "cost-/d' "$out"
echo 0 >/proc/sys/kernel/bpf_stats_enabled
log "costs measured"

# --- 3. the daemon's hook cost metrics against bpftool -----------------------------
# (and a recording beside it, for the checks every scenario gets)
start_daemon --bpf-stats
start_record -i 1
snapshot_counters before pro
in_memcg pro rs-workload reclaimloop /mnt/data 2 >/dev/null
snapshot_counters after pro
for f in /proc/"$DAEMON_PID"/fdinfo/*; do
	sed -n 's/^prog_id:[[:space:]]*//p' "$f" 2>/dev/null
done >daemon-prog-ids.txt
bpftool prog show --json >progs.before.json
sleep 1.2 # two refreshes (-i 0.5)
wget -q -O metrics.cost.txt http://127.0.0.1:9782/metrics
bpftool prog show --json >progs.after.json
stop_record
stop_daemon
log "done"
