# One run of the reclaim lab (scripts/lab), in the guest: the workload
# named by rs.workload= (workloads/NAME.sh), under the LRU named by rs.lru=
# (mglru or classic), at the size named by rs.size= (full or smoke),
# recorded with `record --events` and the workload's own outcome
# (outcome.jsonl, `record --outcome`), between two snapshots of the
# kernel's counters of every memcg it uses (MEMCGS), as the scenarios take
# them.  Sourced by lib.sh, which defines the helpers.
#
# A workload script defines SWAP (zram or none; ZRAM_MB), MEMCGS,
# workload_setup (files, memcgs), workload_run (rs-labload, rs-workload
# or pgbench, writing outcome records to RS_OUTCOME) and, if it needs
# them, workload_warmup (after the caches are dropped, before the window)
# and workload_teardown.
param() { sed -n "s/.*rs\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
WORKLOAD=$(param workload)
LRU=$(param lru)
SIZE=$(param size)
: "${SIZE:=full}"
log "workload $WORKLOAD, LRU $LRU, size $SIZE"

# The LRU under test: MGLRU switched on or off before anything is cached.
lru_gen=/sys/kernel/mm/lru_gen/enabled
case "$LRU" in
mglru)
	[ -f $lru_gen ] || { log "this kernel has no MGLRU (CONFIG_LRU_GEN)"; exit 3; }
	echo y >$lru_gen
	;;
classic) [ ! -f $lru_gen ] || echo n >$lru_gen ;;
*) log "rs.lru must be mglru or classic, not '$LRU'"; exit 2 ;;
esac
cat $lru_gen >lru_gen.enabled 2>/dev/null || echo none >lru_gen.enabled
# what the lab's report states of the kernel: its preemption model
cat /sys/kernel/debug/sched/preempt >preempt 2>/dev/null || echo unknown >preempt

# Swap on zram from the kernel's own module, sized by ZRAM_MB.
setup_zram() { # SIZE_MB
	[ -e /sys/block/zram0 ] || { log "no zram device: the zram module did not load"; exit 3; }
	echo "${1}M" >/sys/block/zram0/disksize
	mkswap /dev/zram0 >/dev/null
	swapon /dev/zram0
}

# The tools disk's and the data disk's reads (their stat's third field:
# sectors of 512 bytes), beside the counters' snapshots.
tools_stat() { # before|after
	for disk in vdb vdc; do
		cat /sys/block/$disk/stat >"$disk.stat.$1" 2>/dev/null || echo "0 0 0" >"$disk.stat.$1"
	done
}

# What the machine read and wrote over the counters' window (the cover
# letter's pgpgin and pgpgout: /proc/vmstat, KiB), less what the tools
# disk gave (PostgreSQL's programs and libraries, read again after the
# caches were dropped: not the workload's data); an outcome record of
# its own, which the reader merges into the workload's.  tests/vm/check.py
# holds it to the snapshots.
io_outcome() {
	awk -v w="$WORKLOAD" '
		{ sign = FILENAME ~ /after$/ ? 1 : -1 }
		FILENAME ~ /^vdc/ { tools += sign * int($3 / 2); next }
		$1 == "pgpgin" || $1 == "pgpgout" { d[$1] += sign * $2 }
		END {
			printf "{\"type\":\"outcome\",\"workload\":\"%s\",\"pgpgin_kib\":%d,\"pgpgout_kib\":%d}\n",
				w, d["pgpgin"] - tools, d["pgpgout"]
		}' vmstat.before vmstat.after vdc.stat.before vdc.stat.after
}

workload_teardown() { :; }
workload_warmup() { :; }
. "/workloads/$WORKLOAD.sh"
if [ "$SWAP" = zram ]; then
	setup_zram "$ZRAM_MB"
else
	swapoff -a 2>/dev/null || true
fi
cat /proc/swaps >swaps
workload_setup
echo "$MEMCGS" >memcgs
sync
echo 3 >/proc/sys/vm/drop_caches
# a workload judged warm (ycsb: its cache full, its memcg at the limit)
# warms up here, outside the counters' window
workload_warmup
# a ring of 64 MiB: with 4 (the default) a storm of passes, agings and
# throttles on 2 starved vCPUs outran the recorder (30,264 records lost in
# a 7.2 aging run, its OOM records among them; 177,242 in a classic one)
start_record -i 1 --events --ring-size 64M --outcome /results/outcome.jsonl
snapshot_counters before $MEMCGS
tools_stat before
export RS_OUTCOME=/results/outcome.jsonl
# make demo (rs.demo=1): top's batch frames on the console, live; the
# workload starts once top is attached and has shown its first frame
if [ "$(param demo)" = 1 ]; then
	reclaimscope top -b -i 1 </dev/null >top-demo.txt 2>top-demo.err &
	TOP_PID=$!
	await "top -b" $TOP_PID top-demo.err test -s top-demo.txt
	tail -f top-demo.txt >/dev/console &
	TAIL_PID=$!
	echo "demo: $WORKLOAD starts; top's frames every second" >/dev/console
fi
# the workload's failure (an OOM kill) is its outcome, not the run's
workload_run || log "the workload exited $?"
if [ -n "${TOP_PID:-}" ]; then
	sleep 2 # the frame with the workload's end
	kill -INT $TOP_PID
	wait $TOP_PID || true
	kill $TAIL_PID
	echo "demo: $WORKLOAD done" >/dev/console
fi
snapshot_counters after $MEMCGS
tools_stat after
io_outcome >>"$RS_OUTCOME"
stop_record
workload_teardown
log "done"
