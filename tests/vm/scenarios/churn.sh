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
# up to CHURN_DEPTH of them (fewer than the worker's names, so a name is free
# again before it is reused).  CHURN_WORKERS chains run at once, each with
# its own names, one per vCPU: a chain is mostly one process at a time, and
# this scenario was CI's longest.  check.py: every memcg is its own entry in the
# recording with totals equal to its memory.stat; the daemon showed them, then
# forgot them, and its memory stayed flat.
CHURN_MEMCGS=2000
CHURN_NAMES=100
CHURN_WORKERS=2
CHURN_DEPTH=25 # per worker
CHURN_SETTLE_CS=300
setup_loop_fs 64
# a file per worker: a page another chain's memcg faulted in first is
# charged there, so sharing one would leave each memcg less to read
for w in $(seq 0 $((CHURN_WORKERS - 1))); do
	rs-workload write /mnt/data.$w 3
done
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
# Is anything left on a memcg's LRUs (its memory.stat, read by builtins)?
lru_pages_left() { # PATH
	while read -r key value; do
		case $key in anon | file) [ "$value" -eq 0 ] || return 0 ;; esac
	done <"$CG/$1/memory.stat"
	return 1
}
# Note memcg number $1's counters once they have settled, then remove it.
finish_memcg() { # I WORKER
	eval "fm_path=\$churn_path_$1 fm_emptied=\$churn_emptied_$1"
	fm_wait=$((fm_emptied + CHURN_SETTLE_CS - $(uptime_cs)))
	[ $fm_wait -le 0 ] || usleep $((fm_wait * 10000))
	# pages still on its LRUs: empty it again, and let that settle too
	fm_try=0
	while [ $fm_try -lt 3 ] && lru_pages_left "$fm_path"; do
		empty_memcg "$fm_path"
		sleep 3
		fm_try=$((fm_try + 1))
	done
	fm_id=$(stat -c %i "$CG/$fm_path")
	echo "$fm_id /$fm_path" >>churn.ids.$2
	{
		echo "memcg $fm_id"
		while read -r key value; do
			case $key in pgscan | pgsteal | anon | file) echo "$key $value" ;; esac
		done <"$CG/$fm_path/memory.stat"
	} >>churn.memstat.$2
	rmdir "$CG/$fm_path"
	unset "churn_path_$1" "churn_emptied_$1"
}
# One chain: COUNT memcgs under the worker's CHURN_NAMES / CHURN_WORKERS
# names; how many it has made so far in churn.made.WORKER.
churn_worker() { # WORKER COUNT
	names=$((CHURN_NAMES / CHURN_WORKERS))
	: >churn.ids.$1
	: >churn.memstat.$1
	i=0
	while [ $i -lt $2 ]; do
		m=churn/c$(($1 * names + i % names))
		mkdir "$CG/$m"
		echo 2M >"$CG/$m/memory.max"
		in_memcg "$m" rs-workload mmap /mnt/data.$1 1 0
		empty_memcg "$m"
		eval "churn_path_$i=\$m churn_emptied_$i=\$(uptime_cs)"
		[ $i -lt $CHURN_DEPTH ] || finish_memcg $((i - CHURN_DEPTH)) $1
		i=$((i + 1))
		echo $i >churn.made.$1
	done
	j=$((i - CHURN_DEPTH))
	while [ $j -lt $i ]; do
		finish_memcg $j $1
		j=$((j + 1))
	done
}
# memcgs made so far by every worker
churn_made() {
	cm_all=0
	for cm_w in $(seq 0 $((CHURN_WORKERS - 1))); do
		read -r cm_n <churn.made.$cm_w 2>/dev/null || cm_n=0
		cm_all=$((cm_all + ${cm_n:-0}))
	done
	echo $cm_all
}
: >churn.rss
workers=""
for w in $(seq 0 $((CHURN_WORKERS - 1))); do
	echo 0 >churn.made.$w
	churn_worker $w $((CHURN_MEMCGS / CHURN_WORKERS)) &
	workers="$workers $!"
done
# Halfway, the daemon shows the memcgs removed in the last 2 s; and the
# daemon's and record's RSS about every 100 memcgs, the first past halfway
# after that fetch (check.py's baseline: serving it allocates).  Until
# every memcg is made, or no worker is left (one failed: wait says so).
sampled=-1 halfway=false
while :; do
	made=$(churn_made)
	if ! $halfway && [ "$made" -ge $((CHURN_MEMCGS / 2)) ]; then
		halfway=true
		fetch_daemon mid
	fi
	if [ $((made / 100)) -gt $sampled ]; then
		sampled=$((made / 100))
		echo "$made $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>churn.rss
	fi
	[ "$made" -lt $CHURN_MEMCGS ] || break
	alive=0
	for pid in $workers; do
		! kill -0 "$pid" 2>/dev/null || alive=$((alive + 1))
	done
	[ $alive -gt 0 ] || break
	usleep 200000
done
for pid in $workers; do
	wait "$pid" || { log "a churn worker failed"; exit 1; }
done
echo "$(churn_made) $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>churn.rss
cat churn.ids.* >churn.ids
cat churn.memstat.* >churn.memstat
rm -f churn.ids.* churn.memstat.* churn.made.*
sleep 4 # past --expire, and a refresh after it
fetch_daemon after
stop_record
stop_daemon
log "done"
