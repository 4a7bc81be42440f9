#!/usr/bin/env bash
# Host test: real memory pressure in a memcg on the running kernel, recorded
# by `reclaimscope record`, then judged by check.py.
#
# The memcg is created beneath this process's own memory cgroup (cgroup v1's
# memory hierarchy or v2, whichever holds the memory controller), limited to
# 64 MiB, and made to write and read a 256 MiB file.  Skipped, with the reason,
# where BPF is not permitted or no memory controller is mounted.
set -euo pipefail
# a command that fails the script says which, so no failure is silent
trap 'echo "hosttest: line $LINENO: \"$BASH_COMMAND\" failed (status $?)" >&2' ERR
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=$(realpath -m "${RS_BIN:-$top/build/reclaimscope}") # RS_BIN: another build
work=$(realpath -m "${RS_WORK:-$top/build/hosttest}")
limit_mb=64
file_mb=256
daemon_port=${RS_TEST_DAEMON_PORT:-19782}
prom_port=${RS_TEST_PROM_PORT:-19090}

skip() { echo "hosttest: skipped: $*"; echo "host: 0 passed, 0 failed, 1 skipped"; exit 0; }

[ -x "$bin" ] || make -s -C "$top" "${bin#"$top"/}"
workload=$top/build/rs-workload # the OOM worker
[ -x "$workload" ] || make -s -C "$top" build/rs-workload
btf_without=$top/build/btf-without # a kernel without one member
[ -x "$btf_without" ] || make -s -C "$top" build/btf-without
[ "$(id -u)" -eq 0 ] || skip "needs root (BPF and cgroup writes)"
rm -rf "$work"
mkdir -p "$work"

# Can we load BPF at all?  probe exits 1 when nothing attaches.
if ! "$bin" probe --json >"$work/probe.json" 2>"$work/probe.err"; then
	skip "BPF not permitted here: $(head -n1 "$work/probe.err")"
fi

# --- the memcg ------------------------------------------------------------------
if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	version=2
	root=/sys/fs/cgroup
	self=$(sed -n 's/^0:://p' /proc/self/cgroup)
else
	version=1
	root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no memory cgroup controller is mounted"
	self=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
fi
self=${self%/}
parent="$root$self"
rel="$self/rs-hosttest-$$"
memcg="$root$rel"
moved=""
bad_names=()
cleanup() {
	set +e
	[ -n "${overload_pid:-}" ] && kill -CONT "$overload_pid" 2>/dev/null
	# only these: a bare wait would also wait for the daemon and
	# Prometheus, which are stopped below (a failure then hung the test)
	[ -n "${record_pid:-}" ] && kill -INT "$record_pid" "${filtered_pid:-}" "${overload_pid:-}" "${nopageout_pid:-}" 2>/dev/null &&
		wait "$record_pid" ${filtered_pid:-} ${overload_pid:-} ${nopageout_pid:-} 2>/dev/null
	tmux kill-session -t "rs-top-$$" 2>/dev/null
	[ -n "${prom_pid:-}" ] && kill "$prom_pid" 2>/dev/null
	[ -n "${daemon_pid:-}" ] && kill -TERM "$daemon_pid" 2>/dev/null
	wait 2>/dev/null
	rm -f "$work/data"
	rmdir "$memcg" 2>/dev/null
	if [ -n "${oom_memcg:-}" ]; then
		# the long path's directories, deepest first
		d=$oom_memcg
		while [ "$d" != "$parent" ]; do rmdir "$d" 2>/dev/null; d=$(dirname "$d"); done
	fi
	for name in "${bad_names[@]}"; do rmdir "$parent/$name" 2>/dev/null; done
	if [ -n "$moved" ]; then
		while read -r pid; do echo "$pid" >"$parent/cgroup.procs"; done <"$moved/cgroup.procs"
		rmdir "$moved"
	fi
}
trap cleanup EXIT
if [ "$version" = 2 ]; then
	# no internal processes: move ours into a leaf before enabling memory
	if [ "$self" != "" ] && ! grep -qw memory "$parent/cgroup.subtree_control"; then
		moved="$parent/rs-hosttest-runner-$$"
		mkdir "$moved"
		while read -r pid; do echo "$pid" >"$moved/cgroup.procs" 2>/dev/null || true; done <"$parent/cgroup.procs"
		echo +memory >"$parent/cgroup.subtree_control"
	fi
	mkdir "$memcg"
	echo $((limit_mb << 20)) >"$memcg/memory.max"
	echo 0 >"$memcg/memory.swap.max" 2>/dev/null || true
else
	mkdir "$memcg"
	echo $((limit_mb << 20)) >"$memcg/memory.limit_in_bytes"
fi
echo "hosttest: cgroup v$version memcg $rel, limit $limit_mb MiB, file $file_mb MiB"

# --- record around the workload ---------------------------------------------------
# wait_output PID NAME [EXT]: until $work/NAME.EXT (default ndjson) has
# something in it, i.e. the instance is loaded, attached and writing
wait_output() {
	for _ in $(seq 300); do
		[ -s "$work/$2.${3:-ndjson}" ] && return 0
		kill -0 "$1" 2>/dev/null || died "$1" "$2"
		sleep 0.1
	done
	echo "hosttest: $2 did not start"
	exit 1
}
# died PID NAME: an instance ended before the test was done with it; say
# how (a status, or the signal that killed it: a crash under the
# sanitizers says nothing else) and what it wrote
died() {
	local status=0
	wait "$1" || status=$?
	if [ "$status" -gt 128 ]; then
		echo "hosttest: $2 was killed by signal $((status - 128)) ($(kill -l "$status" 2>/dev/null || echo '?'))"
	else
		echo "hosttest: $2 exited with status $status before the test was done with it"
	fi
	cat "$work/$2.err"
	exit 1
}
"$bin" record -q -i 1 -o "$work/rec.ndjson" 2>"$work/rec.err" &
record_pid=$!
wait_output "$record_pid" rec
# A second instance at the same time, filtered to the test memcg, with
# event records: instances are independent, and the filter holds.
# --cgroup spelled as a user might: doubled slashes, "." and ".." (it
# must still match the memcg, check.py check_filtered)
"$bin" record -q -e -i 0.5 --cgroup "/$(dirname "$rel")/./$(basename "$rel")/../$(basename "$rel")/" \
	-o "$work/filtered.ndjson" 2>"$work/filtered.err" &
filtered_pid=$!
wait_output "$filtered_pid" filtered

# A kernel that dropped a member we read: the same programs loaded against
# this kernel's BTF without reclaim_stat.nr_pageout (7.3 dropped it).  Only
# pageout may be lost; reclaimed must equal the first instance's.
"$btf_without" /sys/kernel/btf/vmlinux "$work/no-pageout.btf" reclaim_stat.nr_pageout
"$bin" record -q -i 1 --btf "$work/no-pageout.btf" -o "$work/nopageout.ndjson" 2>"$work/nopageout.err" &
nopageout_pid=$!
wait_output "$nopageout_pid" nopageout

# Overload: a third one with event records into a 16 KiB ring, its
# consumer stopped (SIGSTOP) for the whole workload.  Records that do not
# fit are dropped and counted; the in-kernel totals must stay exact.
"$bin" record -q -e -i 1 --ring-size 16K -o "$work/overload.ndjson" 2>"$work/overload.err" &
overload_pid=$!
wait_output "$overload_pid" overload
kill -STOP "$overload_pid"

# The daemon beside them, scraped by a real Prometheus every second.
"$bin" daemon -i 0.5 --bpf-stats --listen "127.0.0.1:$daemon_port" 2>"$work/daemon.err" &
daemon_pid=$!
cat >"$work/prometheus.yml" <<EOF
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: reclaimscope
    static_configs: [{targets: ['127.0.0.1:$daemon_port']}]
EOF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prom" \
	--web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
prom_pid=$!
for _ in $(seq 300); do
	curl -sf "http://127.0.0.1:$daemon_port/healthz" >/dev/null &&
		curl -sf "http://127.0.0.1:$prom_port/-/ready" >/dev/null && break
	kill -0 "$daemon_pid" 2>/dev/null || died "$daemon_pid" daemon
	kill -0 "$prom_pid" 2>/dev/null || { tail "$work/prometheus.log"; exit 1; }
	sleep 0.1
done
# Prometheus hands static targets to its scrapers after up to 5 s: wait for
# the first scrape, or the PromQL check would see nothing of the workload
for _ in $(seq 300); do
	curl -sf "http://127.0.0.1:$prom_port/api/v1/targets" | grep '"health":"up"' >/dev/null && break
	sleep 0.1
done
# ... and `top` in a terminal of 80x24 (tmux), driven by keys later
tmux new-session -d -s "rs-top-$$" -x 80 -y 24 \
	"$bin top -i 0.5 --all 2>$work/top.err; echo top-exited-\$?; sleep 60"

# ... and plain-text frames of it while the workload runs.  The workload
# waits for its first frame: under the sanitizer, with wrk on both CPUs, it
# once came up after the workload was over.
"$bin" top -b -n 12 -i 0.5 >"$work/top-batch.txt" 2>"$work/top-batch.err" &
batch_pid=$!
wait_output "$batch_pid" top-batch txt

# Load: wrk hammers /metrics on loopback while the events flow (its
# latency figures go to the README's reliability section).
wrk -t2 -c16 -d8s --latency "http://127.0.0.1:$daemon_port/metrics" >"$work/wrk.txt" 2>&1 &
wrk_pid=$!

# The global counters are an oracle only while nothing else reclaims.
cp /proc/vmstat "$work/vmstat.quiet"
sleep 1
cp /proc/vmstat "$work/vmstat.before"
[ "$version" = 2 ] && cp "$memcg/memory.stat" "$work/memstat.before"
# The reads are spread over seconds, so that the daemon's scrapes see the
# counters grow (on a fast machine all of it fits in one second).
sh -c 'echo $$ >"$1/cgroup.procs" &&
	dd if=/dev/zero of="$2" bs=1M count="$3" status=none conv=fsync &&
	for i in 1 2 3 4 5; do cat "$2" >/dev/null && sleep 0.7; done' \
	sh "$memcg" "$work/data" "$file_mb"
# Churn: memcgs that live well under a refresh interval, each writing more
# than its limit; the kernel names them (cgroup_mkdir), and each keeps its
# own entry and totals under its path once gone (check.py check_churn).
for i in 1 2 3 4 5; do
	c="$parent/rs-churn-$$-$i"
	mkdir "$c"
	if [ "$version" = 2 ]; then echo 4M >"$c/memory.max"; else echo 4M >"$c/memory.limit_in_bytes"; fi
	sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=8 status=none' \
		sh "$c" "$work/churn-$i"
	echo "$(stat -c %i "$c") $self/rs-churn-$$-$i" >>"$work/churn.ids"
	rmdir "$c"
	rm -f "$work/churn-$i"
done
# Hostile names: cgroup names are bytes.  One not valid UTF-8, one with a
# terminal escape; both reclaim and stay until the end, so that every view
# shows them (check.py check_names, views_check.py: promtool still accepts
# /metrics).
bad_names=("rs-bad-$$"$'\xff' $'\x1b[31mred\x1b[0m'"-$$")
# top -b as they reclaim: a memcg is a row once it did something
"$bin" top -b -n 10 -i 0.3 --all >"$work/top-names.txt" 2>"$work/top-names.err" &
top_names_pid=$!
wait_output "$top_names_pid" top-names txt
for name in "${bad_names[@]}"; do
	c="$parent/$name"
	mkdir "$c"
	if [ "$version" = 2 ]; then echo 4M >"$c/memory.max"; else echo 4M >"$c/memory.limit_in_bytes"; fi
	sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=8 status=none' \
		sh "$c" "$work/bad-name-data"
	rm -f "$work/bad-name-data"
done
printf '%s\n' "${bad_names[@]/#/$self/}" >"$work/bad-names.txt"
wait "$top_names_pid" || echo "hosttest: top -b for the names exited $?" >&2
# OOM: more anonymous memory than the limit, no swap to take it: the kernel
# kills the worker.  Our oom_kills must equal the memcg's own count
# (memory.oom_control in v1, memory.events in v2; check.py check_oom).
# Its path is longer than 700 bytes: cgroup paths can reach PATH_MAX, and
# its count must still be read (not shown as 0).
long=$(printf 'l%.0s' $(seq 200))
oom_rel="rs-oom-$$/$long/$long/$long/oom"
oom_memcg="$parent/$oom_rel"
mkdir -p "$oom_memcg"
if [ "$version" = 2 ]; then
	echo 16M >"$oom_memcg/memory.max"
	echo 0 >"$oom_memcg/memory.swap.max" 2>/dev/null || true
	oom_file=memory.events
else
	echo 16M >"$oom_memcg/memory.limit_in_bytes"
	echo 16M >"$oom_memcg/memory.memsw.limit_in_bytes" 2>/dev/null || true
	oom_file=memory.oom_control
fi
# (in a subshell that cannot exec it: the kill is the point, and bash would
# report it)
oom_rc=0
(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" hold 48 2' sh "$oom_memcg" "$workload"; exit $?) \
	>/dev/null 2>&1 || oom_rc=$?
[ "$oom_rc" = 137 ] || echo "hosttest: the OOM worker exited $oom_rc, not killed (SIGKILL: 137)" >&2
echo "$self/$oom_rel $(awk '$1 == "oom_kill" { print $2 }' "$oom_memcg/$oom_file")" >"$work/oom.count"
cp /proc/vmstat "$work/vmstat.after"
[ "$version" = 2 ] && cp "$memcg/memory.stat" "$work/memstat.after"
kill -CONT "$overload_pid"
kill -INT "$record_pid" "$filtered_pid" "$overload_pid" "$nopageout_pid"
wait "$record_pid"
wait "$filtered_pid"
wait "$overload_pid"
wait "$nopageout_pid"
record_pid=""
overload_pid=""

wait "$wrk_pid" || echo "wrk exit $?" >>"$work/wrk.txt"

# The hostile names in a report (check.py check_names)
"$bin" report "$work/rec.ndjson" >"$work/report.txt" 2>"$work/report.err" || true

# The views, while the daemon and top still run (tests/host/views.sh).
. "$here/views.sh"

rc=0
python3 "$here/check.py" "$work" "$rel" "$limit_mb" "$file_mb" "$version" || rc=1
python3 "$here/views_check.py" "$work" "$rel" || rc=1
# every kernel field we read, and what dropping each costs (fields.sh)
"$here/fields.sh" "$bin" "$work/fields" || rc=1
# how processes end, privileges, bad options (tests/host/lifecycle.py)
# (its SIGSEGV must kill, not be reported as a crash by the sanitizer)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" \
	python3 "$here/lifecycle.py" "$bin" "$work/lifecycle" || rc=1
# a sanitizer build (make sanitize) reports on stderr: none is allowed
if reports=$(grep -lE "ERROR: (Address|Leak)Sanitizer|runtime error:" \
	"$work"/*.err "$work"/lifecycle/*.err 2>/dev/null); then
	echo "hosttest: FAIL sanitizer reports in: $reports"
	rc=1
fi
exit $rc
