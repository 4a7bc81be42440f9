# Helpers for guest-side scenarios (busybox sh).  Invoked as
# `sh -e lib.sh SCENARIO.sh`: defines the helpers, then runs the scenario in
# /results, where everything it writes is handed back to the host.
CG=/sys/fs/cgroup

log() { echo "scenario: $*"; }

# the kernel's page size (4 KiB on x86; 4, 16 or 64 on arm64), as its own
# smaps says it: the recording's header must say the same
grep -m1 KernelPageSize /proc/self/smaps >kernel_page_size 2>/dev/null || true

# A reclaimable filesystem: ext2 (mounted as ext4) on a loop device over a
# file in tmpfs.  Page cache of files in tmpfs itself is not reclaimable.
setup_loop_fs() { # SIZE_MB
	dd if=/dev/zero of=/tmp/backing bs=1M count="$1" 2>/dev/null
	LOOP=$(losetup -f)
	losetup "$LOOP" /tmp/backing
	mke2fs -q "$LOOP"
	mount -t ext4 "$LOOP" /mnt
}

# A real disk: ext2 (mounted as ext4) on the guest's virtio scratch disk
# (/dev/vdb, tests/vm/boot), so that a page read back waits for a device
# as it would on a machine, not a copy from the guest's own RAM.
setup_disk_fs() {
	mke2fs -q /dev/vdb >/dev/null
	mount -t ext4 /dev/vdb /mnt
}

# A slow device, as in the series' writeback reproducer: dm-delay delaying
# writes by DELAY_MS over a loop device, ext2 on it (mounted as ext4).
setup_slow_fs() { # SIZE_MB DELAY_MS
	dd if=/dev/zero of=/tmp/slow-backing bs=1M count="$1" 2>/dev/null
	SLOW_LOOP=$(losetup -f)
	losetup "$SLOW_LOOP" /tmp/slow-backing
	mke2fs -q "$SLOW_LOOP"
	SLOW_SECTORS=$(($1 * 2048))
	echo "0 $SLOW_SECTORS delay $SLOW_LOOP 0 0 $SLOW_LOOP 0 $2" |
		dmsetup create slow --noudevsync
	mount -t ext4 /dev/dm-0 /mnt
}

# Make the slow device fail fast, so that nothing waits on it at the end.
teardown_slow_fs() {
	echo "0 $SLOW_SECTORS error" | dmsetup load slow
	dmsetup resume slow --noudevsync
	umount -l /mnt
}

mkmemcg() { # NAME MAX ("max" for no limit)
	echo +memory >"$CG/cgroup.subtree_control"
	mkdir -p "$CG/$1"
	echo "$2" >"$CG/$1/memory.max"
}

# Run a command inside a memcg.
in_memcg() { # NAME CMD...
	name=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG/$name" "$@"
}

# Stop the tool a scenario's tool_start started in the background
# (TOOL_PID, its stderr in tool.err); none started: nothing to do.
TOOL_PID=""
tool_stop() {
	[ -n "$TOOL_PID" ] || return 0
	kill -INT $TOOL_PID
	wait $TOOL_PID || { log "the tool exited $?"; cat tool.err; return 1; }
	TOOL_PID=""
}

# The tenants load: 8 sibling memcgs t1..t8 under PARENT, a 128 MiB memcg
# made here, each reading its own /mnt/dataN through mmap 3 times (100 ms
# pauses): 8 reclaimers on the guest's CPUs, the heaviest contention the VM
# makes.  The files are the scenario's.
tenants_make() { # PARENT
	mkmemcg "$1" 128M
	echo +memory >"$CG/$1/cgroup.subtree_control"
	for i in 1 2 3 4 5 6 7 8; do
		mkdir "$CG/$1/t$i"
	done
}
tenants_run() { # PARENT: the 8 readers, back when all are done
	local pids="" i pid
	for i in 1 2 3 4 5 6 7 8; do
		in_memcg "$1/t$i" rs-workload mmap /mnt/data$i 3 100 &
		pids="$pids $!"
	done
	for pid in $pids; do wait $pid; done
}

# The kernel's own counters, for the host-side checker.  A memory.stat reader
# flushes the per-CPU counters only when enough updates are pending, so the
# last few updates of a workload that just stopped can stay unflushed until
# the periodic flush, every 2 s (mm/memcontrol.c, flush_memcg_stats_dwork):
# wait that out first.
snapshot_counters() { # TAG MEMCG...
	tag=$1
	shift
	sleep 3
	for m in "$@"; do
		f=$(echo "$m" | tr / _)
		cp "$CG/$m/memory.stat" "memstat.$f.$tag"
		cp "$CG/$m/memory.events" "memevents.$f.$tag"
	done
	cp /sys/kernel/debug/lru_gen "lru_gen.$tag"
	# when, on the clock of the recording's start_mono_ns (boot time,
	# which a guest never suspended keeps equal to the monotonic clock)
	cut -d' ' -f1 /proc/uptime >"lru_gen.$tag.uptime"
	# the walk and tier counters (lru_gen_full), where the kernel has them
	cp /sys/kernel/debug/lru_gen_full "lru_gen_full.$tag" 2>/dev/null || true
	cp /proc/vmstat "vmstat.$tag"
	cp /proc/meminfo "meminfo.$tag"
	cp /proc/zoneinfo "zoneinfo.$tag"
}

# Until CMD succeeds, while PID lives (60 s at most; 300 s in an emulated
# arm64 guest, where the verifier's checks of some 200 programs take
# minutes): a tool we started is up.  Otherwise say so, with its stderr
# (ERRFILE).
AWAIT_TRIES=600
[ "$(uname -m)" = aarch64 ] && AWAIT_TRIES=3000
await() { # WHAT PID ERRFILE CMD...
	local what=$1 pid=$2 err=$3 tries=0
	shift 3
	until "$@" 2>/dev/null; do
		tries=$((tries + 1))
		[ $tries -lt $AWAIT_TRIES ] || { log "$what did not start"; cat "$err"; return 1; }
		kill -0 "$pid" 2>/dev/null || { log "$what died"; cat "$err"; return 1; }
		usleep 100000
	done
}

# Start `reclaimscope record` and wait until its header (hooks attached).
start_record() { # ARGS...
	reclaimscope record -q -v -o /results/rec.ndjson "$@" 2>record.err &
	RECORD_PID=$!
	await record $RECORD_PID record.err test -s /results/rec.ndjson
}

stop_record() {
	kill -INT $RECORD_PID
	wait $RECORD_PID
	echo "record exit $?" >record.status
}

reclaimscope probe --json -v >probe.json 2>probe.err || true

# The daemon on the guest's loopback, until stop_daemon.
start_daemon() { # [DAEMON ARGS...]
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	reclaimscope daemon -i 0.5 "$@" 2>daemon.err &
	DAEMON_PID=$!
	await daemon $DAEMON_PID daemon.err \
		wget -q -O /dev/null http://127.0.0.1:9782/healthz
}

# Quiet long enough for the daemon's cgroupfs gates to have let through
# every count the kernel made: a memcg's files are read again once the
# kernel-wide count moved past a stamp taken RS_CG_LAG_S (10 s) before its
# last read (src/collect/memcg_files.c); snapshot_counters' 3 s came before this.
settle_daemon() {
	sleep 10
}

# What the daemon serves now, after its next refresh.
fetch_daemon() { # TAG
	sleep 1
	wget -q -O "metrics.$1.txt" http://127.0.0.1:9782/metrics
	wget -q -O "api.$1.json" http://127.0.0.1:9782/api/v1/snapshot
	wget -q -O "api-metrics.$1.json" "http://127.0.0.1:9782/api/v1/snapshot?metrics=1"
}

stop_daemon() {
	kill -TERM $DAEMON_PID
	wait $DAEMON_PID
	echo "daemon exit $?" >daemon.status
}

. "$1"
