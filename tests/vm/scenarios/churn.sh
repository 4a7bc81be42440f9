# churn: 2,000 memcgs made and removed one after another under pressure,
# 100 names used 20 times each, while a recording and the daemon (forgetting
# removed memcgs after 2 s) run.  Each memcg reads a 6 MiB file through mmap
# under a 2 MiB limit, is emptied (memory.max=0, so nothing is left for
# reclaim to find once it is dying), and its memory.stat and cgroup id are
# noted before its rmdir.  check.py: every one of them is its own entry in the recording with
# totals equal to its memory.stat; the daemon showed them, then forgot them,
# and its memory stayed flat.
CHURN_MEMCGS=2000
CHURN_NAMES=100
setup_loop_fs 64
rs-workload write /mnt/data 6
mkmemcg churn max
echo +memory >"$CG/churn/cgroup.subtree_control"
sync
echo 3 >/proc/sys/vm/drop_caches
start_daemon --expire 2
start_record -i 1
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
: >churn.ids
: >churn.memstat
: >churn.rss
i=0
while [ $i -lt $CHURN_MEMCGS ]; do
	m=churn/c$((i % CHURN_NAMES))
	mkdir "$CG/$m"
	echo 2M >"$CG/$m/memory.max"
	in_memcg "$m" rs-workload mmap /mnt/data 1 0
	echo 0 >"$CG/$m/memory.max"
	id=$(stat -c %i "$CG/$m")
	echo "$id /$m" >>churn.ids
	{
		echo "memcg $id"
		grep -E '^(pgscan|pgsteal) ' "$CG/$m/memory.stat"
	} >>churn.memstat
	rmdir "$CG/$m"
	if [ $((i % 100)) -eq 0 ]; then
		echo "$i $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>churn.rss
	fi
	# halfway: the daemon still shows the memcgs removed in the last 2 s
	[ $i -eq $((CHURN_MEMCGS / 2)) ] && fetch_daemon mid
	i=$((i + 1))
done
echo "$i $(rss $DAEMON_PID) $(rss $RECORD_PID)" >>churn.rss
sleep 4 # past --expire, and a refresh after it
fetch_daemon after
stop_record
stop_daemon
log "done"
