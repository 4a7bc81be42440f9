# ycsb: the MongoDB YCSB workloadb run of the series' cover letter (seed
# 001; 006 quotes the same), with a real database at VM scale:
#
#   "YCSB workloadb (recordcount:20000000 operationcount:6000000,
#   threads:32), which does 95% read and 5% update to generate mixed read
#   and dirty writeback.  MongoDB is set up in a 10G cgroup using Docker,
#   and the WiredTiger cache size is set to 4.5G, using NVME as storage.
#   Not using SWAP.
#   MGLRU Before:   Throughput(ops/sec): 60653.502655,
#                   workingset_refault_file 12904916, pgpgin 165366622
#   MGLRU After:    Throughput(ops/sec): 82384.354760 (+35.8%),
#                   workingset_refault_file 7128285 (-44.7%),
#                   pgpgin 113170693 (-31.5%)
#   MGLRU Disabled: Throughput(ops/sec): 93713.640901"
#
# MongoDB and YCSB are not in Debian; PostgreSQL and its pgbench are, and
# fit the guest.  The server runs in the memcg with its cache in anonymous
# memory as WiredTiger's is (shared_buffers: shared anonymous memory, which
# without swap stays put), 44% of the limit as 4.5 of 10 GiB; its tables
# 2.4 times the limit, as 20 M records of 1 KB are twice 10 GiB, on the
# guest's virtio disk (/dev/vdb), so that only what the cache does not
# hold comes from the file LRU, and is refaulted.  A YCSB record is 1 KB
# (10 fields of 100 bytes), 8 to a database page; pgbench's row is about
# 120 bytes, some 60 to a page, so that a page in the cache serves 60
# keys rather than 8.  The tables are filled to 12 % of a page (pgbench
# -i -F 12, about 8 rows a page, as YCSB's): 100,000 rows, 153 MiB with
# the index and the WAL, in a 64 MiB memcg with a 28 MiB cache.  The seed
# ran 6 M operations over 20 M records, 0.3 a record; 60 s here at about
# 500 transactions a second is 0.3 a row.  The first tables here
# (2026-12-05: scale 16, full pages, 30 s, a 128 MiB memcg) refaulted
# 0.18 pages per transaction (the seed: 2 per operation, 12.9 M in 6 M),
# and the window began cold: reclaim was light.  pgbench, outside the
# memcg as YCSB's client was outside the container, runs 95% reads and 5%
# updates of one row each (which dirty the server's pages, written back
# as it evicts them), keys drawn zipfian and scrambled as YCSB draws them
# (pgbench's zipfian needs an exponent of at least 1.001, YCSB's is 0.99).
# Outcome: transactions/s, mean and p99 latency, pgpgin (lab.sh);
# refaults from the recording.  PostgreSQL comes from the host's Debian
# package on the tools disk (tests/vm/boot: /tools/pg).
SWAP=none
MEMCGS=ycsb
case "$SIZE" in
smoke) YC_SCALE=1 YC_LIMIT=64 YC_BUFFERS=28 YC_SECONDS=8 YC_WARM_MAX=60 ;;
*) YC_SCALE=1 YC_LIMIT=64 YC_BUFFERS=28 YC_SECONDS=60 YC_WARM_MAX=120 ;;
esac
YC_CLIENTS=4
PG_BIN=$(find /tools/pg/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort | tail -n1)
PG_DATA=/mnt/pg/data
PG_SOCK=/mnt/pg

# CMD... as the database's own user (PostgreSQL refuses to run as root),
# with the tools disk's libraries; the words must need no quoting
as_pg() {
	su -s /bin/sh pg -c "LD_LIBRARY_PATH=/tools/lib $*"
}

# pgbench's script files: one row read, one row updated, by a key drawn
# zipfian over the accounts and scrambled (permute) across the table
write_scripts() {
	key='\set aid permute(random_zipfian(1, 100000 * :scale, 1.001), 100000 * :scale)'
	printf '%s\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' \
		"$key" >/mnt/pg/read.sql
	printf '%s\n\\set delta random(-5000, 5000)\nUPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n' \
		"$key" >/mnt/pg/update.sql
	echo 'CHECKPOINT;' >/mnt/pg/checkpoint.sql
}

workload_setup() {
	[ -n "$PG_BIN" ] || { log "no PostgreSQL on the tools disk: install Debian's postgresql on the host (make deps)"; exit 3; }
	mkdir -p /etc
	grep -q '^pg:' /etc/passwd 2>/dev/null || echo 'pg:x:70:70:pg:/mnt/pg:/bin/sh' >>/etc/passwd
	grep -q '^pg:' /etc/group 2>/dev/null || echo 'pg:x:70:' >>/etc/group
	setup_disk_fs
	mkdir -p /mnt/pg
	write_scripts
	chown -R 70:70 /mnt/pg
	as_pg "$PG_BIN/initdb" -D $PG_DATA --locale=C -E UTF8 -U pg -A trust \
		--no-sync >initdb.log 2>&1 || { cat initdb.log; exit 3; }
	# no limit while the tables are loaded: the server's pages are
	# charged to the memcg, whose limit then applies to the run
	mkmemcg ycsb max
	# jit off: the tools disk has no LLVM; dynamic shared memory as SysV
	# segments, since the guest has no /dev/shm; WAL minimal, as nothing
	# replicates; checkpoints only when asked (the run is shorter than
	# one), so the dirty pages are written back as the cache evicts them
	in_memcg ycsb su -s /bin/sh pg -c "LD_LIBRARY_PATH=/tools/lib exec $PG_BIN/postgres \
		-D $PG_DATA -k $PG_SOCK -c listen_addresses= \
		-c shared_buffers=${YC_BUFFERS}MB -c jit=off \
		-c dynamic_shared_memory_type=sysv -c wal_level=minimal \
		-c max_wal_senders=0 -c max_wal_size=256MB -c checkpoint_timeout=1h \
		-c autovacuum=off" >postgres.log 2>&1 &
	PG_PID=$!
	# its socket comes before it takes connections: its own word instead
	await "postgres" $PG_PID postgres.log grep -q "ready to accept connections" postgres.log
	as_pg "$PG_BIN/pgbench" -h $PG_SOCK -U pg -i -q -s $YC_SCALE -F 12 postgres \
		>pgbench-init.log 2>&1 || { cat pgbench-init.log; exit 3; }
	as_pg "$PG_BIN/pgbench" -h $PG_SOCK -U pg -n -t 1 -f /mnt/pg/checkpoint.sql \
		postgres >checkpoint.log 2>&1 || { cat checkpoint.log; exit 3; }
	echo "${YC_LIMIT}M" >"$CG/ycsb/memory.max"
	log "ycsb: $(du -sm $PG_DATA | cut -f1) MiB of tables, ${YC_BUFFERS} MiB cache, ${YC_LIMIT} MiB memcg"
}

# pgbench's mix, as the window runs it; ARGS... before the database name
run_mix() {
	as_pg "$PG_BIN/pgbench" -h $PG_SOCK -U pg -n -c $YC_CLIENTS -j 2 \
		-D scale=$YC_SCALE "$@" -f /mnt/pg/read.sql@95 -f /mnt/pg/update.sql@5 postgres
}

# The window measures a warm database, as YCSB's run phase follows its
# load: the caches were dropped (lab.sh), so the mix runs 5 s at a time
# until the memcg reclaims (its cache and the page cache fill the limit),
# and 5 s more.  A cold window spent itself filling them: the smoke size's
# 8 s (2026-12-07) read 17 MB and reclaimed nothing.
workload_warmup() {
	scanned() { awk '$1 == "pgscan" { print $2 }' "$CG/ycsb/memory.stat"; }
	start=$(scanned) warm=0
	while [ "$(scanned)" = "$start" ] && [ $warm -lt $YC_WARM_MAX ]; do
		run_mix -T 5 >warmup.out 2>&1 || { cat warmup.out; exit 3; }
		warm=$((warm + 5))
	done
	[ "$(scanned)" != "$start" ] || { log "ycsb: the memcg did not reclaim in ${YC_WARM_MAX} s of warm-up"; exit 3; }
	run_mix -T 5 >warmup.out 2>&1 || { cat warmup.out; exit 3; }
	log "ycsb: warm after $((warm + 5)) s (the memcg reclaiming)"
}

workload_run() {
	started=$(date +%s)
	rc=0
	# the per-transaction log (-l): "client txn latency_us script ...",
	# in tmpfs, so that it is not I/O of the database's disk
	mkdir -p /tmp/pg && chown 70:70 /tmp/pg
	(cd /tmp/pg && run_mix -T "$YC_SECONDS" -l --log-prefix=/tmp/pg/txn) \
		>pgbench.out 2>pgbench.err || rc=$?
	oom=false
	grep -q "^oom_kill [1-9]" "$CG/ycsb/memory.events" && oom=true
	# latencies (µs) of the transactions that finished, for the median and
	# the tail pgbench's summary does not give
	cat /tmp/pg/txn.* 2>/dev/null | awk '$3 ~ /^[0-9]+$/ { print $3 }' |
		sort -n >latencies
	awk -v rc="$rc" -v oom="$oom" -v d="$(($(date +%s) - started))" \
		-v n="$(wc -l <latencies)" '
		FILENAME == "latencies" {
			i++
			if (i == int(n * 0.50 + 0.5)) p50 = $1
			if (i == int(n * 0.95 + 0.5)) p95 = $1
			if (i == int(n * 0.99 + 0.5)) p99 = $1
			next
		}
		/^number of transactions actually processed:/ { ops = $6; sub("/.*", "", ops) }
		/^latency average =/ { mean = $4 }
		/^tps = / { tps = $3 }
		END {
			printf "{\"type\":\"outcome\",\"workload\":\"ycsb\",\"memcg\":\"/ycsb\"," \
				"\"exit_status\":%d,\"oom_killed\":%s,\"duration_s\":%d", rc, oom, d
			if (ops != "") printf ",\"ops\":%d", ops
			if (tps != "") printf ",\"ops_per_s\":%.6g", tps
			if (mean != "") printf ",\"lat_mean_ms\":%.6g", mean
			if (p50 != "") printf ",\"lat_p50_ms\":%.6g", p50 / 1000
			if (p95 != "") printf ",\"lat_p95_ms\":%.6g", p95 / 1000
			if (p99 != "") printf ",\"lat_p99_ms\":%.6g", p99 / 1000
			printf "}\n"
		}' pgbench.out latencies >>"$RS_OUTCOME"
	stop_server
	return "$rc"
}

# An immediate shutdown of the server (its postmaster.pid names it;
# PG_PID is the shell that started it): the run is over and nothing needs
# its data, so no checkpoint.  At the window's end, before the counters'
# snapshot: an idle server's processes still allocate now and then, and
# in a memcg at its limit each allocation reclaims, so that lru_gen, read
# after the window, no longer equalled the recorder's last sample (the
# first warm runs, 2026-12-07: 38 to 70 file pages fewer in the oldest
# generation).
stop_server() {
	kill -QUIT "$(head -n1 $PG_DATA/postmaster.pid 2>/dev/null)" 2>/dev/null || true
	wait "$PG_PID" 2>/dev/null || true
}
workload_teardown() { stop_server; }
