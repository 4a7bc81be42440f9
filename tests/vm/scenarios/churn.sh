# churn: 2,000 memcgs made and removed under pressure, 100 names used 20 times
# each, while a recording and the daemon (forgetting removed memcgs after 2 s)
# run.  Each memcg reads a 3 MiB file through mmap under a 2 MiB limit, so
# that it reclaims (the checks need some reclaim in each, not much: the reads
# were most of this scenario's time in CI), and is emptied, so that nothing
# is left for reclaim to find once it is dying: memory.max=0, then
# memory.reclaim, which first drains the per-CPU LRU batches
# (lru_add_drain_all), where a few pages can sit out of reclaim's sight.  Its
# memory.stat and cgroup id are noted just before its rmdir, which comes
# CHURN_SETTLE_CS after it was emptied: a memory.stat reader flushes the
# memcg's per-CPU counters only when enough updates are pending, so the last
# few can stay unflushed until the periodic flush, every 2 s
# (mm/memcontrol.c, flush_memcg_stats_dwork).  Meanwhile the next memcgs run,
# up to CHURN_DEPTH of them (fewer than CHURN_NAMES, so a name is free again
# before it is reused).  check.py: every memcg is its own entry in the
# recording with totals equal to its memory.stat; the daemon showed them, then
# forgot them, and its memory stayed flat.
CHURN_MEMCGS=2000
CHURN_NAMES=100
CHURN_DEPTH=50
CHURN_SETTLE_CS=300
setup_loop_fs 64
rs-workload write /mnt/data 3
mkmemcg churn max
echo +memory >"$CG/churn/cgroup.subtree_control"
sync
echo 3 >/proc/sys/vm/drop_caches
start_daemon --expire 2
start_record -i 1
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
# /proc/uptime in centiseconds ("1234.56" -> 123456; uptime is past 1 s here)
uptime_cs() {
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}"
}
empty_memcg() { # PATH
	echo 0 >"$CG/$1/memory.max"
	echo 8M >"$CG/$1/memory.reclaim" 2>/dev/null || true
}
# Note memcg number $1's counters once they have settled, then remove it.
finish_memcg() {
	eval "fm_path=\$churn_path_$1 fm_emptied=\$churn_emptied_$1"
	fm_wait=$((fm_emptied + CHURN_SETTLE_CS - $(uptime_cs)))
	[ $fm_wait -le 0 ] || usleep $((fm_wait * 10000))
	# pages still on its LRUs: empty it again, and let that settle too
	fm_try=0
	while [ $fm_try -lt 3 ] && grep -Eq '^(anon|file) [1-9]' "$CG/$fm_path/memory.stat"; do
		empty_memcg "$fm_path"
		sleep 3
		fm_try=$((fm_try + 1))
	done
	fm_id=$(stat -c %i "$CG/$fm_path")
	echo "$fm_id /$fm_path" >>churn.ids
	{
		echo "memcg $fm_id"
		grep -E '^(pgscan|pgsteal|anon|file) ' "$CG/$fm_path/memory.stat"
	} >>churn.memstat
	rmdir "$CG/$fm_path"
	unset "churn_path_$1" "churn_emptied_$1"
}
: >churn.ids
: >churn.memstat
: >churn.rss
i=0
while [ $i -lt $CHURN_MEMCGS ]; do
	m=churn/c$((i % CHURN_NAMES))
	mkdir "$CG/$m"
	echo 2M >"$CG/$m/memory.max"
	in_memcg "$m" rs-workload mmap /mnt/data 1 0
	empty_memcg "$m"
	eval "churn_path_$i=\$m churn_emptied_$i=\$(uptime_cs)"
	[ $i -lt $CHURN_DEPTH ] || finish_memcg $((i - CHURN_DEPTH))
	if [ $((i % 100)) -eq 0 ]; then
		echo "$i $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>churn.rss
	fi
	# halfway: the daemon shows the memcgs removed in the last 2 s
	[ $i -eq $((CHURN_MEMCGS / 2)) ] && fetch_daemon mid
	i=$((i + 1))
done
j=$((i - CHURN_DEPTH))
while [ $j -lt $i ]; do
	finish_memcg $j
	j=$((j + 1))
done
echo "$i $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>churn.rss
sleep 4 # past --expire, and a refresh after it
fetch_daemon after
stop_record
stop_daemon
log "done"
