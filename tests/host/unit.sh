#!/usr/bin/env bash
# The systemd unit's confinement, checked three ways (systemd need not be
# PID 1: the unit is never started here):
#   unit.sh score UNIT         systemd-analyze security rates the unit's
#                              exposure at MAX_EXPOSURE or lower
#   unit.sh serves UNIT BIN    BIN daemon, confined as the unit says
#                              (tests/host/unit_confine.py: its user,
#                              capabilities, system call filter, read-only
#                              paths), attaches, serves /metrics, and runs
#                              as neither root nor with a capability left
#                              beyond the unit's
#   unit.sh sysctl UNIT        a process confined so cannot write
#                              /proc/sys/kernel/core_pattern (it writes the
#                              value already there, so nothing changes
#                              if it can)
# serves needs root and a kernel with BTF, sysctl root (exit 77: skipped).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# 4.1 before the unit ran as a dynamic user with a system call filter
MAX_EXPOSURE=2.0
what=$1 unit=$2

# systemd-analyze wants ExecStart's binary where the unit says: a copy of
# the unit that names one that exists (the exposure does not depend on it)
analyzable() {
	local copy
	copy=$(mktemp -d)/$(basename "$unit")
	sed "s|^ExecStart=[^ ]*|ExecStart=/bin/true|" "$unit" >"$copy"
	echo "$copy"
}

needs_root_and_btf() {
	if [ "$(id -u)" != 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
		echo "unit.sh $what: needs root and a kernel with BTF" >&2
		exit 77
	fi
}

case $what in
score)
	copy=$(analyzable)
	out=$(systemd-analyze security --offline=true "$copy" 2>&1)
	rm -rf "$(dirname "$copy")"
	level=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	echo "exposure $level (at most $MAX_EXPOSURE)"
	[ -n "$level" ] || { printf '%s\n' "$out" | tail -n 5; exit 1; }
	# the settings that cost most, to say what changed
	printf '%s\n' "$out" | grep '✗' | sort -t' ' -k1 | tail -n 20 >&2
	awk -v l="$level" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(l <= m) }'
	;;
serves)
	needs_root_and_btf
	bin=$3
	port=$((20000 + RANDOM % 20000))
	log=$(mktemp)
	"$here/unit_confine.py" "$unit" -- "$bin" daemon --listen "127.0.0.1:$port" >"$log" 2>&1 &
	wrapper=$!
	ok=1
	for _ in $(seq 1 60); do
		curl -sf -o "$log.metrics" "http://127.0.0.1:$port/metrics" && { ok=0; break; }
		kill -0 "$wrapper" 2>/dev/null || break
		sleep 0.5
	done
	# the daemon is the wrapper's child (setpriv and the filter exec'd)
	daemon=$(pgrep -P "$wrapper" -x reclaimscope)
	status=
	[ -n "$daemon" ] && status=$(cat "/proc/$daemon/status")
	[ -n "$daemon" ] && kill "$daemon"
	wait "$wrapper"
	rc=$?
	cat "$log"
	[ "$ok" = 0 ] || { echo "no /metrics on port $port"; exit 1; }
	grep -q '^reclaimscope_' "$log.metrics" || { echo "/metrics without reclaimscope_ series"; exit 1; }
	rm -f "$log" "$log.metrics"
	printf '%s\n' "$status" | grep -E '^(Uid|CapEff|CapPrm|CapAmb|NoNewPrivs|Seccomp):'
	# a SIGSYS (a call outside the filter) or any failure ends it otherwise
	[ "$rc" = 0 ] || { echo "the daemon exited $rc on SIGTERM"; exit 1; }
	printf '%s\n' "$status" | awk '$1 == "Uid:" { exit $2 == 0 }' ||
		{ echo "the daemon runs as root"; exit 1; }
	printf '%s\n' "$status" | awk '$1 == "NoNewPrivs:" { exit $2 != 1 }' ||
		{ echo "no no-new-privs"; exit 1; }
	;;
sysctl)
	[ "$(id -u)" = 0 ] || { echo "unit.sh sysctl: needs root" >&2; exit 77; }
	f=/proc/sys/kernel/core_pattern
	before=$(cat "$f")
	"$here/unit_confine.py" "$unit" -- sh -c "cat $f >$f" && {
		echo "the confined process wrote $f"
		exit 1
	}
	[ "$(cat "$f")" = "$before" ] || { echo "$f changed"; exit 1; }
	;;
*)
	echo "usage: $0 score UNIT | serves UNIT BINARY | sysctl UNIT" >&2
	exit 2
	;;
esac
