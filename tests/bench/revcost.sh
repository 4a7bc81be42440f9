#!/bin/bash
# What a change costs per event: `record` of each git revision given, run
# round by round (interleaved) over the same reclaim-bound workloads, each
# program's ns per run from the kernel's own timing (bpf_stats), the median
# over the rounds.  The first revision is the baseline the others are
# compared with, in the same run, on the same machine.
#
#   tests/bench/revcost.sh [-r ROUNDS] REV...   (as root, from the tree)
#
# Each revision is built in its own worktree under build/revcost/; the
# workloads are this tree's rs-workload.  Prints a Markdown table (what
# BENCHMARKS.md's notes quote) and keeps the raw figures in
# build/revcost/cost.jsonl.
set -euo pipefail

rounds=5
if [ "${1:-}" = -r ]; then
	rounds=$2
	shift 2
fi
[ $# -ge 2 ] || {
	echo "usage: $0 [-r ROUNDS] BASE_REV REV..." >&2
	exit 2
}
[ "$(id -u)" = 0 ] || { echo "revcost: run as root (BPF, cgroups)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/revcost
workload=$top/build/rs-workload
[ -x "$workload" ] || make -C "$top" build/rs-workload >/dev/null
mkdir -p "$out"
say() { echo "revcost: $*" >&2; }

revs=()
for rev in "$@"; do
	sha=$(git -C "$top" rev-parse --short "$rev^{commit}")
	revs+=("$sha")
	tree=$out/$sha
	if [ ! -x "$tree/build/reclaimscope" ]; then
		say "building $rev ($sha)"
		[ -d "$tree" ] || git -C "$top" worktree add -q --detach "$tree" "$sha"
		make -C "$tree" -j"$(nproc)" build/reclaimscope >"$out/$sha.build.log" 2>&1 ||
			{ tail -20 "$out/$sha.build.log" >&2; exit 1; }
	fi
done

if grep -q '^cgroup2 /sys/fs/cgroup ' /proc/mounts; then
	version=2 root=/sys/fs/cgroup
else
	version=1 root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
fi
memcg=$root/rs-revcost-$$      # a 64 MiB limit: limit reclaim
rl_memcg=$root/rs-revcost-rl-$$ # emptied by reclaimloop
stats_was=$(cat /proc/sys/kernel/bpf_stats_enabled)
tool_pid=""
cleanup() {
	set +e
	[ -n "$tool_pid" ] && kill -INT "$tool_pid" 2>/dev/null && wait "$tool_pid" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled="$stats_was"
	rmdir "$memcg" "$rl_memcg" 2>/dev/null
	rm -f "$out/data" "$out/rl"
}
trap cleanup EXIT
[ $version = 2 ] && { grep -qw memory "$root/cgroup.subtree_control" || echo +memory >"$root/cgroup.subtree_control"; }
mkdir "$memcg" "$rl_memcg"
if [ $version = 2 ]; then echo 64M >"$memcg/memory.max"; else echo 64M >"$memcg/memory.limit_in_bytes"; fi
dd if=/dev/urandom of="$out/data" bs=1M count=256 status=none conv=fsync
dd if=/dev/urandom of="$out/rl" bs=1M count=64 status=none conv=fsync
sysctl -qw kernel.bpf_stats_enabled=1
: >"$out/cost.jsonl"

for round in $(seq "$rounds"); do
	for sha in "${revs[@]}"; do
		rm -f "$out/rec.ndjson"
		"$out/$sha/build/reclaimscope" record -q -o "$out/rec.ndjson" 2>"$out/tool.log" &
		tool_pid=$!
		for _ in $(seq 300); do
			grep -q '"type":"header"' "$out/rec.ndjson" 2>/dev/null && break
			sleep 0.1
		done
		sync
		echo 1 >/proc/sys/vm/drop_caches
		sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" readlat "$3" 2' \
			sh "$memcg" "$workload" "$out/data" >/dev/null
		sh -c 'echo $$ >"$1/cgroup.procs" && dd if="$3" iflag=nocache count=0 status=none &&
			exec "$2" reclaimloop "$3" 40 "$1"' sh "$rl_memcg" "$workload" "$out/rl" >/dev/null
		bpftool prog show --json | python3 -c '
import json, sys
progs = [{"prog": p["name"], "runs": p.get("run_cnt", 0), "ns": p.get("run_time_ns", 0)}
         for p in json.load(sys.stdin) if p.get("name", "").startswith("rs_")]
print(json.dumps({"rev": sys.argv[1], "round": int(sys.argv[2]), "programs": progs}))' \
			"$sha" "$round" >>"$out/cost.jsonl"
		kill -INT "$tool_pid"
		wait "$tool_pid" || true
		tool_pid=""
	done
	say "round $round of $rounds"
done

python3 - "$out/cost.jsonl" "${revs[@]}" <<'EOF'
import json, re, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
revs = sys.argv[2:]
# per revision and program: ns per first-copy run, every copy summed (a
# program's copies are named alike up to a suffix _2 .. _5)
per = {}
for r in rows:
    runs, ns = {}, {}
    for p in r["programs"]:
        base = re.sub(r"_[2-5]$", "", p["prog"])
        ns[base] = ns.get(base, 0) + p["ns"]
        runs[base] = max(runs.get(base, 0), p["runs"])
    for b in ns:
        if runs[b]:
            per.setdefault(b, {}).setdefault(r["rev"], []).append((ns[b] / runs[b], runs[b]))
print("| program | events/round | " + " | ".join(revs) + " | " +
      " | ".join(f"{r} − {revs[0]}" for r in revs[1:]) + " |")
print("|---|---|" + "---|" * (2 * len(revs) - 1))
for prog in sorted(per):
    if not all(r in per[prog] for r in revs):
        continue
    med = {r: statistics.median(v for v, _ in per[prog][r]) for r in revs}
    spread = {r: (min(v for v, _ in per[prog][r]), max(v for v, _ in per[prog][r])) for r in revs}
    events = statistics.median(n for _, n in per[prog][revs[0]])
    print(f"| {prog} | {events:,.0f} | " +
          " | ".join(f"{med[r]:.0f} ({spread[r][0]:.0f}–{spread[r][1]:.0f})" for r in revs) + " | " +
          " | ".join(f"{med[r] - med[revs[0]]:+.0f}" for r in revs[1:]) + " |")
EOF
