#!/bin/bash
# make bench: the host part of the benchmark suite (the VM part is the
# `bench` scenario, tests/vm/scenarios/bench.sh).  Every figure is one JSON
# line in $RS_BENCH_OUT/host.jsonl; tests/bench/report.py turns them, and the
# VM's, into a table and BENCHMARKS.md.
#
# Nothing here passes or fails on a figure: these machines are shared and
# noisy.  Slowdowns are ratios to the no-tool runs of the same invocation,
# the modes interleaved round by round, and medians over the rounds.
#
#   BENCH_SMOKE=1  tiny sizes, one round: keeps the scripts from rotting (CI)
#   BENCH_ROUNDS   rounds of the workload comparison (default 7)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${RS_BENCH_OUT:-$top/build/bench}
bin=$top/build/reclaimscope
bench=$top/build/rs-bench
workload=$top/build/rs-workload
mkdir -p "$out"
results=$out/host.jsonl
: >"$results"

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	rounds=1 file_mb=24 limit_mb=8 passes=1 idle_s=2 drain=200000
	sustain_s=1 model_memcgs=200 memcgs=20 rl_mb=4 loops=2
	view_memcgs="100 1000"
else
	rounds=${BENCH_ROUNDS:-7} file_mb=512 limit_mb=64 passes=3 idle_s=20
	drain=4000000 sustain_s=10 model_memcgs=10000 memcgs=10000 rl_mb=64 loops=80
	view_memcgs="1000 10000 100000"
fi

say() { echo "bench: $*" >&2; }
emit() { echo "$1" >>"$results"; }
now_ns() { date +%s%N; }

[ "$(id -u)" = 0 ] || { say "run as root (BPF, cgroups)"; exit 1; }
for f in "$bin" "$bench" "$workload"; do
	[ -x "$f" ] || { say "$f missing: run make bench"; exit 1; }
done

# Programs of another reclaimscope (or rs-bench) would run in every mode and
# be counted in the costs: refuse, saying which process holds them.
if ! bpftool prog show --json 2>/dev/null |
	python3 -c 'import json, sys; sys.exit(any(p.get("name", "").startswith("rs_") for p in json.load(sys.stdin)))'; then
	say "BPF programs named rs_* are loaded already (another reclaimscope?): stop it first"
	pgrep -a 'reclaimscope|rs-bench' >&2 || true
	exit 1
fi

# --- a memcg for the workload (cgroup v2, else v1) -----------------------------
if grep -q '^cgroup2 /sys/fs/cgroup ' /proc/mounts; then
	version=2 root=/sys/fs/cgroup
else
	version=1 root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
fi
[ -n "$root" ] || { say "no memory cgroup hierarchy is mounted"; exit 1; }
memcg=$root/rs-bench-$$
rl_memcg=$root/rs-bench-reclaim-$$ # no limit: emptied by rs-workload reclaimloop
churn=$root/rs-bench-many-$$
tool_pid=""
cleanup() {
	set +e
	[ -n "$tool_pid" ] && kill -INT "$tool_pid" 2>/dev/null && wait "$tool_pid" 2>/dev/null
	[ -n "${daemon_pid:-}" ] && kill -TERM "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled="${stats_was:-0}" 2>/dev/null
	rmdir "$memcg" "$rl_memcg" 2>/dev/null
	[ -d "$churn" ] && find "$churn" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
	rmdir "$churn" 2>/dev/null
	rm -f "$out/data" "$out/small" "$out/rl"
}
trap cleanup EXIT
if [ $version = 2 ]; then
	grep -qw memory "$root/cgroup.subtree_control" || echo +memory >"$root/cgroup.subtree_control"
	mkdir "$memcg" "$rl_memcg"
	echo $((limit_mb << 20)) >"$memcg/memory.max"
else
	mkdir "$memcg" "$rl_memcg"
	echo $((limit_mb << 20)) >"$memcg/memory.limit_in_bytes"
fi
stats_was=$(cat /proc/sys/kernel/bpf_stats_enabled)

dd if=/dev/urandom of="$out/data" bs=1M count="$file_mb" status=none conv=fsync
dd if=/dev/urandom of="$out/rl" bs=1M count="$rl_mb" status=none conv=fsync
say "cgroup v$version, workloads: read $file_mb MiB $passes times under a $limit_mb MiB limit;" \
	"$loops times read $rl_mb MiB and empty the memcg; $rounds rounds"

# The machine, for the report.
emit "$(printf '{"kind": "machine", "kernel": "%s", "cpu": "%s", "cpus": %d, "mem_kib": %d, "cgroup": %d, "date": "%s", "smoke": %s}' \
	"$(uname -r)" "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" "$(nproc)" \
	"$(awk '/^MemTotal/ { print $2 }' /proc/meminfo)" "$version" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	"$([ "${BENCH_SMOKE:-0}" = 1 ] && echo true || echo false)")"

# Pages reclaimed from the memcg: v2's pgsteal; v1 has none, and its
# pgpgout (pages uncharged) is the nearest, as the file's pages leave only
# by reclaim here.  (/proc/vmstat leaves limit reclaim out.)
pgsteal() {
	if [ $version = 2 ]; then
		awk '$1 == "pgsteal" { print $2 }' "$memcg/memory.stat"
	else
		awk '$1 == "pgpgout" { print $2 }' "$memcg/memory.stat"
	fi
}

# One workload run in the memcg: its JSON, with the pages reclaimed.
run_workload() {
	local before after line
	sync
	echo 1 >/proc/sys/vm/drop_caches
	before=$(pgsteal)
	line=$(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" readlat "$3" "$4"' \
		sh "$memcg" "$workload" "$out/data" "$passes")
	after=$(pgsteal)
	echo "${line%\}}, \"reclaimed\": $((after - before))}"
}

# A workload that is nearly all reclaim: read a file into an unlimited
# memcg's page cache and empty the memcg (v2 memory.reclaim, v1
# memory.force_empty), timing only the emptying (rs-workload reclaimloop).
# The file's cache is dropped first (dd nocache) so its pages are charged here.
run_reclaimloop() {
	sh -c 'echo $$ >"$1/cgroup.procs" && dd if="$3" iflag=nocache count=0 status=none &&
		exec "$2" reclaimloop "$3" "$4" "$1"' sh "$rl_memcg" "$workload" "$out/rl" "$loops"
}

# --- the tools around the workload ------------------------------------------------
have_bpftrace=0
command -v bpftrace >/dev/null && have_bpftrace=1
have_perf=0
perf record -q -e 'vmscan:mm_vmscan_lru_isolate' -o /dev/null -- true 2>/dev/null && have_perf=1

# bpftrace's equivalent of what we count: the same tracepoints, per cgroup
# (every vmscan tracepoint record attaches on a tracepoint-only kernel; the
# shrinkers' mm_shrink_slab_end fires several times a reclaim call, so a
# script without it would be measured on fewer events than we are)
bpftrace_script='
tracepoint:vmscan:mm_vmscan_lru_isolate { @isolated[cgroup] = sum(args->nr_taken); @scanned[cgroup] = sum(args->nr_scanned); }
tracepoint:vmscan:mm_vmscan_lru_shrink_inactive { @reclaimed[cgroup] = sum(args->nr_reclaimed); }
tracepoint:vmscan:mm_vmscan_lru_shrink_active { @deactivated[cgroup] = sum(args->nr_deactivated); }
tracepoint:vmscan:mm_vmscan_memcg_reclaim_begin { @start[tid] = nsecs; }
tracepoint:vmscan:mm_vmscan_memcg_reclaim_end /@start[tid]/ { @reclaim_ns[cgroup] = hist(nsecs - @start[tid]); delete(@start[tid]); }
tracepoint:vmscan:mm_vmscan_direct_reclaim_begin { @dstart[tid] = nsecs; }
tracepoint:vmscan:mm_vmscan_direct_reclaim_end /@dstart[tid]/ { @direct_ns[cgroup] = hist(nsecs - @dstart[tid]); delete(@dstart[tid]); }
tracepoint:vmscan:mm_shrink_slab_end /args->retval > 0/ { @slab_freed[cgroup] = sum(args->retval); }
tracepoint:vmscan:mm_vmscan_throttled { @throttled_us[cgroup] = hist(args->usec_delayed); }
tracepoint:vmscan:mm_vmscan_node_reclaim_begin { @node_reclaims[cgroup] = count(); }
tracepoint:vmscan:mm_vmscan_kswapd_wake { @kswapd_wakes[args->nid] = count(); }
tracepoint:vmscan:mm_vmscan_kswapd_sleep { @kswapd_sleeps[args->nid] = count(); }
'

# wait_for FILE PATTERN: until the tool says it is attached
wait_for() {
	for _ in $(seq 300); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		kill -0 "$tool_pid" 2>/dev/null || { cat "$1" >&2; return 1; }
		sleep 0.1
	done
	say "timed out waiting for $2 in $1"
	return 1
}

start_tool() { # MODE
	local log=$out/tool.log
	: >"$log"
	# the last run's recording holds a header: waiting for one must not
	# find it, or the tool would be signalled before it is attached
	rm -f "$out/$1.ndjson"
	tool_pid=""
	case $1 in
	none) return 0 ;;
	agg)
		"$bin" record -q -o "$out/agg.ndjson" 2>"$log" &
		tool_pid=$!
		wait_for "$out/agg.ndjson" '"type":"header"'
		;;
	stream)
		"$bin" record -q -e -o "$out/stream.ndjson" 2>"$log" &
		tool_pid=$!
		wait_for "$out/stream.ndjson" '"type":"header"'
		;;
	peer)
		"$bench" attach peer 100000 >"$out/peer.json" 2>"$log" &
		tool_pid=$!
		wait_for "$log" attached
		;;
	fair)
		"$bench" attach fair 100000 "$out/points.json" >"$out/fair.json" 2>"$log" &
		tool_pid=$!
		wait_for "$log" attached
		;;
	bpftrace)
		bpftrace -e "$bpftrace_script" >"$log" 2>&1 &
		tool_pid=$!
		wait_for "$log" Attaching
		sleep 0.5 # "Attaching" comes before the last probe is in
		;;
	perf)
		perf record -q -a -e 'vmscan:*' -o "$out/perf.data" 2>"$log" &
		tool_pid=$!
		sleep 2 # perf says nothing once attached
		kill -0 "$tool_pid"
		;;
	esac
}

stop_tool() {
	[ -n "$tool_pid" ] || return 0
	kill -INT "$tool_pid"
	wait "$tool_pid" || true
	tool_pid=""
}

# The fair peer's points: those record's programs are attached to here.
start_tool agg
"$bench" points >"$out/points.json"
stop_tool
modes="none agg stream fair peer"
[ $have_bpftrace = 1 ] && modes="$modes bpftrace" || say "no bpftrace: left out (apt-get install bpftrace)"
[ $have_perf = 1 ] && modes="$modes perf" || say "perf cannot record vmscan tracepoints here: left out"

# --- 1. workload slowdown, against the peers ------------------------------------------
# A warm-up run first (page tables, the file's blocks in the host's cache).
run_workload >/dev/null
run_reclaimloop >/dev/null
for round in $(seq "$rounds"); do
	# rotate the order every round so no mode always follows another
	read -ra all <<<"$modes"
	first=$(((round - 1) % ${#all[@]}))
	for mode in "${all[@]:first}" "${all[@]:0:first}"; do
		start_tool "$mode"
		line=$(run_workload)
		rl_line=$(run_reclaimloop)
		stop_tool
		emit "{\"kind\": \"workload\", \"workload\": \"readlat\", \"mode\": \"$mode\", \"round\": $round, ${line#\{}"
		emit "{\"kind\": \"workload\", \"workload\": \"reclaimloop\", \"mode\": \"$mode\", \"round\": $round, ${rl_line#\{}"
		say "round $round $mode: $line $rl_line"
	done
done

# --- 2. what each program costs per event (the kernel's own timing) -------------------
# Statistics on for these runs only; each tool's programs listed by bpftool
# while it is still attached.
sysctl -qw kernel.bpf_stats_enabled=1
cost_run() { # MODE
	start_tool "$1"
	if [ "$1" = control ]; then
		"$bench" attach control 100000 >/dev/null 2>"$out/tool.log" &
		tool_pid=$!
		wait_for "$out/tool.log" attached
	fi
	run_workload >/dev/null
	run_reclaimloop >/dev/null
	bpftool prog show --json >"$out/progs.$1.json"
	case $1 in
	agg | stream) "$bench" points >"$out/points.$1.json" ;; # ids to points
	esac
	stop_tool
	# the fair peer's own list names each program's point
	[ "$1" != fair ] || cp "$out/fair.json" "$out/fair.cost.json"
	emit "{\"kind\": \"cost\", \"mode\": \"$1\", \"programs\": $(python3 -c '
import json, sys
progs = json.load(open(sys.argv[1]))
print(json.dumps([{"prog": p["name"], "runs": p.get("run_cnt", 0), "run_ns": p.get("run_time_ns", 0)}
                  for p in progs if p.get("name", "").startswith(("rs_", "tracepoint_"))]))' "$out/progs.$1.json")}"
}
for mode in control agg stream fair peer; do
	cost_run $mode
	say "cost: $mode measured"
done
[ $have_bpftrace = 1 ] && cost_run bpftrace
sysctl -qw kernel.bpf_stats_enabled="$stats_was"

# --- 3. the consumer -----------------------------------------------------------------
emit "{\"kind\": \"drain\", $("$bench" drain "$drain" count | sed 's/^{//')"
emit "{\"kind\": \"drain\", $("$bench" drain $((drain / 20)) json | sed 's/^{//')"
emit "{\"kind\": \"sustain\", $("$bench" sustain 1000000 "$sustain_s" count | sed 's/^{//')"
emit "{\"kind\": \"sustain\", $("$bench" sustain 100000 "$sustain_s" json | sed 's/^{//')"
say "consumer measured"

# --- 4. footprint: start-up, idle, memory ---------------------------------------------
for i in $(seq 5); do
	t0=$(now_ns)
	"$bin" probe --json >/dev/null
	emit "{\"kind\": \"startup\", \"seconds\": $(echo "$t0 $(now_ns)" | awk '{ printf "%.4f", ($2 - $1) / 1e9 }')}"
done
emit "{\"kind\": \"model\", $("$bench" model "$model_memcgs" | sed 's/^{//')"
# a recording's timeline (lru_gens) per interval with as many memcgs
emit "{\"kind\": \"timeline\", $("$bench" timeline "$model_memcgs" | sed 's/^{//')"
# report and diff on recordings of many memcgs: peak memory and time
say "report and diff on $view_memcgs memcgs"
python3 "$(dirname "$0")/views.py" "${RS_BIN:-build/reclaimscope}" $view_memcgs >>"$results"

# The daemon with $memcgs live memcgs, each with a little reclaim of its own
# (one dd past a 1 MiB limit), then idle: its RSS and CPU share.
mkdir "$churn"
[ $version = 2 ] && echo +memory >"$churn/cgroup.subtree_control"
port=$((20000 + $$ % 20000))
"$bin" daemon -l "127.0.0.1:$port" --expire 0 2>"$out/daemon.log" &
daemon_pid=$!
for _ in $(seq 100); do
	curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break
	sleep 0.1
done
ticks=$(getconf CLK_TCK)
# The daemon's share of a core over $1 seconds, and its RSS (KiB).
share_and_rss() {
	local cpu0 cpu1
	cpu0=$(awk '{ print $14 + $15 }' "/proc/$daemon_pid/stat")
	sleep "$1"
	cpu1=$(awk '{ print $14 + $15 }' "/proc/$daemon_pid/stat")
	echo "$cpu0 $cpu1 $ticks $1" | awk '{ printf "%.5f ", ($2 - $1) / $3 / $4 }'
	awk '/^VmRSS/ { print $2 }' "/proc/$daemon_pid/status"
}
# first on the machine as it is: nothing reclaims
read -r quiet_share quiet_rss < <(share_and_rss "$idle_s")
say "making $memcgs memcgs, each reclaiming a little..."
# Each reads 2 MiB past a 1 MiB limit.  The file's cache is dropped first
# (fadvise, dd's nocache), or its pages would stay charged to the previous
# memcg and the read would reclaim nothing.
# A 1 MiB limit is tight (the reader's own pages count too): now and then
# the kernel kills a reader; its memcg has reclaimed all the same.
dd if=/dev/urandom of="$out/small" bs=64k count=32 status=none conv=fsync
killed=0
for i in $(seq "$memcgs"); do
	c=$churn/m$i
	mkdir "$c"
	if [ $version = 2 ]; then echo 1M >"$c/memory.max"; else echo 1M >"$c/memory.limit_in_bytes"; fi
	sh -c 'echo $$ >"$1/cgroup.procs" && dd if="$2" iflag=nocache count=0 status=none &&
		exec dd if="$2" of=/dev/null bs=64k status=none' sh "$c" "$out/small" ||
		killed=$((killed + 1))
	[ $((i % 1000)) = 0 ] && say "  $i"
done
[ "$killed" = 0 ] || say "  $killed readers were killed at their memcg's limit"
made=$SECONDS
sleep 3 # a refresh or two after the last
tracked=$(curl -sf "http://127.0.0.1:$port/metrics" | grep '^reclaimscope_reclaimed_pages_total{' |
	grep -o 'memcg="[^"]*"' | sort -u | wc -l)
# right after they reclaimed (each looked at every refresh), then once they
# have been idle for a minute (looked at every 10th refresh)
read -r recent_share rss < <(share_and_rss "$idle_s")
wait_s=$((made + 65 - SECONDS))
[ "${BENCH_SMOKE:-0}" = 1 ] || [ "$wait_s" -le 0 ] || sleep "$wait_s"
read -r later_share _ < <(share_and_rss "$idle_s")
emit "{\"kind\": \"daemon\", \"memcgs\": $memcgs, \"tracked_series\": $tracked, \"rss_kib\": $rss, \"idle_core_share\": $recent_share, \"later_core_share\": $later_share, \"quiet_core_share\": $quiet_share, \"quiet_rss_kib\": $quiet_rss}"
kill -TERM "$daemon_pid"
wait "$daemon_pid" || true
daemon_pid=""
say "done: $results"
