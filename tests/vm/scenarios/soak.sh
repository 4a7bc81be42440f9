# soak (make soak; not in make test): four tenants under a 96 MiB parent
# (two mmap readers, a reader with an anon worker, a writer) run round after
# round for rs.soak= seconds (kernel command line; default 3600), with
# memory.reclaim on the parent after each round.  A recording streams every
# event at the default ring size; its event lines are counted and dropped
# on the way to disk (an hour of them would not fit), the rest kept.  The
# daemon runs beside it, scraped every 10 s.  Every 60 s the RSS of both is
# noted.  check.py: nothing dropped, every event delivered, exact totals per
# tenant against memory.stat, both RSS flat over the second half.
SOAK_SECONDS=$(sed -n 's/.*rs\.soak=\([0-9]*\).*/\1/p' /proc/cmdline)
SOAK_SECONDS=${SOAK_SECONDS:-3600}
setup_loop_fs 200
for i in 1 2 3; do
	rs-workload write /mnt/data$i 32
done
mkmemcg soak 96M
echo +memory >"$CG/soak/cgroup.subtree_control"
for i in 1 2 3 4; do
	mkdir "$CG/soak/r$i"
	echo 32M >"$CG/soak/r$i/memory.max"
done
sync
echo 3 >/proc/sys/vm/drop_caches
start_daemon --expire 60
mkfifo /tmp/rec.fifo
awk '/"type":"event"/ { n++; next } { print; fflush() }
	END { print n + 0 >"/results/soak.events" }' </tmp/rec.fifo >/results/rec.ndjson &
FILTER_PID=$!
reclaimscope record -q -v -i 10 --events -o /tmp/rec.fifo 2>record.err &
RECORD_PID=$!
until [ -s /results/rec.ndjson ]; do
	kill -0 $RECORD_PID 2>/dev/null || { log "record died"; cat record.err; exit 1; }
	usleep 100000
done
snapshot_counters before soak soak/r1 soak/r2 soak/r3 soak/r4
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
start=$(cut -d. -f1 /proc/uptime)
next_rss=$start
next_scrape=$start
round=0
: >soak.rss
while [ $(($(cut -d. -f1 /proc/uptime) - start)) -lt "$SOAK_SECONDS" ]; do
	round=$((round + 1))
	in_memcg soak/r1 rs-workload mmap /mnt/data1 2 100 &
	w1=$!
	in_memcg soak/r2 rs-workload mmap /mnt/data2 2 100 &
	w2=$!
	in_memcg soak/r3 rs-workload mix /mnt/data3 2 8 &
	w3=$!
	in_memcg soak/r4 rs-workload write /mnt/out4 24 &
	w4=$!
	for pid in $w1 $w2 $w3 $w4; do
		wait "$pid" || log "round $round: worker $pid exited $?"
	done
	echo 8M >"$CG/soak/memory.reclaim" 2>/dev/null || true
	rm -f /mnt/out4
	now=$(cut -d. -f1 /proc/uptime)
	if [ "$now" -ge "$next_scrape" ]; then
		wget -q -O /dev/null http://127.0.0.1:9782/metrics || log "scrape failed"
		next_scrape=$((now + 10))
	fi
	if [ "$now" -ge "$next_rss" ]; then
		echo "$((now - start)) $round $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>soak.rss
		next_rss=$((now + 60))
	fi
done
echo "$(($(cut -d. -f1 /proc/uptime) - start)) $round $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>soak.rss
snapshot_counters after soak soak/r1 soak/r2 soak/r3 soak/r4
kill -INT $RECORD_PID
wait $RECORD_PID
echo "record exit $?" >record.status
wait $FILTER_PID
stop_daemon
log "done: $round rounds"
