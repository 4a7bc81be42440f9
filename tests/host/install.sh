#!/usr/bin/env bash
# `make install` into a scratch DESTDIR: the files land where PREFIX says,
# the binary runs, the man page renders without warnings, systemd accepts
# the unit, and the bash completion completes (tests/host/completion.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dest="$top/build/installtest"
passed=0 failed=0
check() { # WHAT CMD...
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then
		echo "  ok    $what"
		passed=$((passed + 1))
	else
		echo "  FAIL  $what"
		failed=$((failed + 1))
	fi
}
rm -rf "$dest"
make -s -C "$top" install DESTDIR="$dest" PREFIX=/usr >/dev/null
unit="$dest/usr/lib/systemd/system/reclaimscope.service"
check "binary installed and runs" "$dest/usr/sbin/reclaimscope" --help
check "man page installed" test -f "$dest/usr/share/man/man8/reclaimscope.8"
check "man page renders without warnings" \
	sh -c "! MANWIDTH=80 man --warnings -l '$dest/usr/share/man/man8/reclaimscope.8' 2>&1 >/dev/null | grep -q ."
check "unit points at the installed binary" grep -q "^ExecStart=/usr/sbin/reclaimscope daemon" "$unit"
check "unit listens on loopback" grep -q -- "--listen 127.0.0.1:" "$unit"
# systemd-analyze wants the ExecStart binary at its real path: check a copy
# of the unit whose ExecStart names the DESTDIR binary
sed "s|^ExecStart=/usr/sbin/|ExecStart=$dest/usr/sbin/|" "$unit" >"$dest/reclaimscope.service"
check "systemd-analyze verify accepts the unit" \
	sh -c "! systemd-analyze verify --man=no '$dest/reclaimscope.service' 2>&1 | grep ."
check "systemd-analyze security: the unit's exposure is at most 2.0" \
	"$top/tests/host/unit.sh" score "$unit"
check "Prometheus rules installed" test -f "$dest/usr/share/reclaimscope/prometheus/reclaimscope-rules.yml"
check "bash completion installed" test -f "$dest/usr/share/bash-completion/completions/reclaimscope"
# the installed completion, driven as bash drives it
if "$top/tests/host/completion.sh" "$dest/usr/share/bash-completion/completions/reclaimscope" \
	"$dest/usr/sbin/reclaimscope"; then
	passed=$((passed + 1))
else
	echo "  FAIL  bash completion"
	failed=$((failed + 1))
fi
echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
