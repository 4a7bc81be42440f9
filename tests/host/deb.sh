#!/usr/bin/env bash
# The Debian package (make deb) as an operator meets it: installed with apt
# into a Debian 12 chroot (debootstrap, cached), the way `dpkg -i` would,
# dependencies from the archive; the installed `reclaimscope probe` runs
# against this kernel; the unit is enabled and not started, its exposure
# (systemd-analyze security) is at most 2.0, and the package's daemon,
# confined as the unit says, serves as neither root nor able to write a
# sysctl (tests/host/unit.sh); an upgrade restarts a running daemon and
# leaves a stopped one stopped (maintainer scripts run against stubs of
# deb-systemd-invoke and systemctl); `dpkg -r` stops a running daemon and
# leaves no file of the package but its conffiles, `dpkg -P` none.
# usage: tests/host/deb.sh DEB
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cache=${RECLAIMSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reclaimscope}
base="$cache/chroot-bookworm.tar"
root="$top/build/debtest"
passed=0 failed=0
check() { # WHAT CMD...
	local what=$1
	shift
	if "$@" >"$root.out" 2>&1; then
		echo "  ok    $what"
		passed=$((passed + 1))
	else
		echo "  FAIL  $what: $(tail -n 5 "$root.out" | tr '\n' ' ')"
		failed=$((failed + 1))
	fi
}
in_root() { chroot "$root" env -i PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
cleanup() {
	for m in sys/kernel/debug sys/fs/bpf sys proc dev; do
		mountpoint -q "$root/$m" && umount -l "$root/$m"
	done
}
trap cleanup EXIT

# a minimal Debian 12, made once and kept as a tarball
mkdir -p "$cache"
if [ ! -f "$base" ]; then
	mirror=$("$top/scripts/debian-mirror.sh") || exit 1
	rm -rf "$root.boot"
	echo "deb: debootstrap of a minimal bookworm (once; cached)"
	debootstrap --variant=minbase bookworm "$root.boot" "$mirror" >"$root.boot.log" 2>&1 ||
		{ tail -n 20 "$root.boot.log"; exit 1; }
	tar -C "$root.boot" -cf "$base.tmp" . && mv "$base.tmp" "$base"
	rm -rf "$root.boot"
fi
cleanup
# never remove a tree that still has the host's /dev or /sys mounted in it
if awk -v r="$root/" 'index($2, r) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
	echo "deb: $root still has mounts in it; unmount them first" >&2
	exit 1
fi
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --bind /dev "$root/dev"
cp "$deb" "$root/tmp/reclaimscope.deb"
pkg_files() { dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' | grep -v '/$'; }

# systemd "runs" (/run/systemd/system), and deb-systemd-invoke and systemctl
# are stubs that log their calls and keep the daemon's state in a file:
# start and restart run it, stop stops it, try-restart restarts it only if
# it runs, as systemd's do
mkdir -p "$root/run/systemd/system" "$root/usr/local/sbin"
cat >"$root/usr/local/sbin/deb-systemd-invoke" <<'STUB'
#!/bin/sh
echo "deb-systemd-invoke $*" >>/run/stub.log
case $1 in
start | restart) touch /run/stub.running ;;
stop) rm -f /run/stub.running ;;
try-restart) [ ! -e /run/stub.running ] || echo restarted >>/run/stub.log ;;
esac
STUB
printf '#!/bin/sh\necho "systemctl $*" >>/run/stub.log\n' >"$root/usr/local/sbin/systemctl"
chmod 0755 "$root/usr/local/sbin/deb-systemd-invoke" "$root/usr/local/sbin/systemctl"
# the next version: the same package with a higher version number
next="$root/tmp/reclaimscope-next.deb"
rm -rf "$root.next" && dpkg-deb -R "$deb" "$root.next" &&
	sed -i 's/^Version: .*/&+next/' "$root.next/DEBIAN/control" &&
	dpkg-deb --root-owner-group -b "$root.next" "$next" >/dev/null &&
	rm -rf "$root.next"

check "apt installs the package and its dependencies" \
	in_root sh -c 'apt-get update -q && apt-get install -y -q /tmp/reclaimscope.deb'
check "the installed binary is the package's version" \
	sh -c "in_root() { chroot '$root' \"\$@\"; }; in_root /usr/sbin/reclaimscope --version | grep -q ' $(dpkg-deb -f "$deb" Version)\$'"
check "every file of the package is installed" \
	sh -c "for f in $(pkg_files | tr '\n' ' '); do test -e '$root'\$f || { echo missing \$f; exit 1; }; done"
# probe exits 0 when anything attached: a kernel with BTF and BPF allowed
if [ -r /sys/kernel/btf/vmlinux ] && [ "$(id -u)" = 0 ]; then
	check "the installed probe attaches on this kernel" in_root /usr/sbin/reclaimscope probe
else
	echo "  skip  the installed probe (no kernel BTF, or not root)"
fi
check "the unit is enabled (multi-user.target wants it)" \
	test -L "$root/etc/systemd/system/multi-user.target.wants/reclaimscope.service"
unit="$root/lib/systemd/system/reclaimscope.service"
check "systemd-analyze security: the unit's exposure is at most 2.0" \
	"$top/tests/host/unit.sh" score "$unit"
# the package's binary confined as its unit says (systemd is not PID 1
# here): it attaches and serves, and a process so confined cannot write a
# sysctl
if [ -r /sys/kernel/btf/vmlinux ] && [ "$(id -u)" = 0 ]; then
	check "the daemon confined as the unit says attaches and serves, not as root" \
		"$top/tests/host/unit.sh" serves "$unit" "$root/usr/sbin/reclaimscope"
	check "a process confined as the unit says cannot write core_pattern" \
		"$top/tests/host/unit.sh" sysctl "$unit"
else
	echo "  skip  the daemon under the unit's confinement (no kernel BTF, or not root)"
fi
check "the unit is not started on install" \
	sh -c "test ! -e '$root/run/stub.running' && ! grep -Eq 'invoke (start|restart)' '$root/run/stub.log'"
upgrade() { # what the stubs saw when the next version was installed
	: >"$root/run/stub.log"
	in_root dpkg -i /tmp/reclaimscope-next.deb && cat "$root/run/stub.log"
}
running() { upgrade && test -e "$root/run/stub.running" && grep -Eq '^(restarted|deb-systemd-invoke restart)' "$root/run/stub.log"; }
stopped() { upgrade && test ! -e "$root/run/stub.running"; }
touch "$root/run/stub.running"
check "an upgrade restarts the running daemon" running
rm -f "$root/run/stub.running"
check "an upgrade leaves a stopped daemon stopped" stopped
check "the man page, completion and rules are where the README says" \
	test -f "$root/usr/share/man/man8/reclaimscope.8.gz" -a \
	-f "$root/usr/share/bash-completion/completions/reclaimscope" -a \
	-f "$root/usr/share/reclaimscope/prometheus/reclaimscope-rules.yml"
touch "$root/run/stub.running"
check "dpkg -r removes it" in_root dpkg -r reclaimscope
check "dpkg -r stops a running daemon" test ! -e "$root/run/stub.running"
check "dpkg -r leaves no file of the package behind" \
	sh -c "for f in $(pkg_files | tr '\n' ' '); do test ! -e '$root'\$f || { echo left \$f; exit 1; }; done"
check "dpkg -P purges it" in_root dpkg -P reclaimscope
check "nothing is left: not the unit's enablement, not the package's records" \
	sh -c "test ! -e '$root/etc/systemd/system/multi-user.target.wants/reclaimscope.service' &&
		! ls '$root/var/lib/dpkg/info/reclaimscope.'* 2>/dev/null | grep -q ."
echo "deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
