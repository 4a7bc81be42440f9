# Sourced by tests/host/run.sh after the workload, while `daemon`,
# Prometheus and `top` (in tmux) still run: collects what the views show
# into $work, for views_check.py to judge.

# the daemon's next snapshot covers the end of the workload; Prometheus
# scrapes it once more
sleep 2.5
curl -sf "http://127.0.0.1:$daemon_port/metrics" >"$work/metrics.txt"
promtool_rc=0
promtool check metrics <"$work/metrics.txt" >"$work/promtool.out" 2>&1 || promtool_rc=$?
echo $promtool_rc >"$work/promtool.rc"
curl -sf "http://127.0.0.1:$daemon_port/api/v1/snapshot" >"$work/api.json"
curl -sf "http://127.0.0.1:$daemon_port/api/v1/snapshot?metrics=1" >"$work/api.metrics.json"
# The daemon runs with --bpf-stats: its hook cost metrics against the
# kernel's own timing of its programs (bpftool, before and after one
# /metrics read; the daemon's programs told apart by the ids it holds).
for f in /proc/"$daemon_pid"/fdinfo/*; do
	# an fd the daemon closed meanwhile (a file it read) is no program
	sed -n 's/^prog_id:[[:space:]]*//p' "$f" 2>/dev/null || true
done >"$work/daemon-prog-ids.txt"
bpftool prog show --json >"$work/progs.before.json"
sleep 1.2 # two refreshes (-i 0.5)
curl -sf "http://127.0.0.1:$daemon_port/metrics" >"$work/metrics.cost.txt"
bpftool prog show --json >"$work/progs.after.json"
end=$(date +%s)
curl -sf "http://127.0.0.1:$prom_port/api/v1/query_range" \
	--data-urlencode "query=sum by (memcg) (reclaimscope_reclaimed_pages_total{memcg=\"$rel\"})" \
	--data-urlencode "start=$((end - 300))" --data-urlencode "end=$end" \
	--data-urlencode "step=1" >"$work/promql.json"
# for the failure message: which memcgs Prometheus has at all
curl -sf "http://127.0.0.1:$prom_port/api/v1/query" \
	--data-urlencode "query=count by (memcg) (reclaimscope_reclaimed_pages_total)" \
	>"$work/promql-memcgs.json"
curl -sf "http://127.0.0.1:$prom_port/api/v1/targets" >"$work/prom-targets.json"

# Requests a read-only server must refuse, then still serve.
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
base="http://127.0.0.1:$daemon_port"
{
	echo "post $(status -X POST -d x=1 "$base/metrics")"
	echo "delete $(status -X DELETE "$base/api/v1/snapshot")"
	echo "missing $(status "$base/nope")"
	echo "oversized $(status -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' a)" "$base/metrics")"
	echo "head $(status -I "$base/metrics")"
	# a client that sends half a request and stops must not hold the
	# server: it is answered or cut off while others are served
	python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
import time; time.sleep(30)' "$daemon_port" &
	slow=$!
	sleep 0.5
	echo "during-slow $(status -m 5 "$base/healthz")"
	kill $slow 2>/dev/null
	wait $slow 2>/dev/null || true
	echo "garbage $(printf 'NOT HTTP AT ALL\r\n\r\n' | python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.stdin.buffer.read())
s.settimeout(5)
print((s.recv(100).split(b" ") + [b"none", b"none"])[1].decode())' "$daemon_port")"
	echo "after $(status "$base/healthz")"
} >"$work/http.txt"

wait "$batch_pid" || batch_rc=$?
echo "${batch_rc:-0}" >"$work/top-batch.rc"

# A second daemon at once, on a Unix socket: instances are independent.
sock="$work/daemon.sock"
"$bin" daemon --listen "unix:$sock" 2>"$work/daemon-unix.err" &
unix_pid=$!
for _ in $(seq 300); do
	curl -sf --unix-socket "$sock" http://x/healthz >/dev/null && break
	sleep 0.1
done
unix_status=$(curl -s -o "$work/metrics-unix.txt" -w '%{http_code}' --unix-socket "$sock" http://x/metrics)
kill -INT "$unix_pid"
unix_rc=0
wait "$unix_pid" || unix_rc=$?
echo "unix $unix_status $unix_rc $([ -e "$sock" ] && echo left || echo removed)" >"$work/unix.txt"

# top, driven by keys in its 80x24 terminal
session="rs-top-$$"
capture() { sleep "$1"; tmux capture-pane -p -t "$session" >"$work/top.$2.txt"; }
keys() { tmux send-keys -t "$session" "$@"; }
capture 1 start
keys '>'
capture 1 sorted
keys '/'
sleep 0.3
keys 'no-such-memcg' Enter
capture 1 filtered-out
keys '/'
sleep 0.3
keys "${rel##*/}" Enter
capture 1 filtered
keys Enter
capture 1 details
keys Escape
sleep 0.3
keys h
capture 1 help
keys Escape t
capture 1 tree
tmux resize-window -t "$session" -x 100 -y 30
capture 1 resized
keys q
# it ends once its programs are detached and its maps freed: under the
# sanitizer on a busy machine that took longer than a second
for _ in $(seq 30); do
	capture 0.5 quit
	grep -q top-exited "$work/top.quit.txt" && break
done


kill -TERM "$daemon_pid"
daemon_rc=0
wait "$daemon_pid" || daemon_rc=$?
echo $daemon_rc >"$work/daemon.rc"
daemon_pid=""
kill "$prom_pid"
wait "$prom_pid" 2>/dev/null || true
prom_pid=""
