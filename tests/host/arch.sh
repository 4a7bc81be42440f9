#!/usr/bin/env bash
# A build on the other architecture's kernel says what it is.  Without a
# user-mode emulator the shell refuses the program ("Exec format error");
# with one (qemu-user, binfmt_misc) it runs, and its BPF programs, built
# for its own registers, must not load: it must stop and say which build
# it is and which the kernel wants.  Each direction is tried on a BTF of
# the other architecture's struct pt_regs (build/btf-arch), the arm64 build
# under qemu-aarch64; then the arm64 build on this host's own kernel.
#
# usage: tests/host/arch.sh X86_BUILD ARM64_BUILD BTF_ARCH WORKDIR
set -euo pipefail
x86=$1 arm64=$2 btf_arch=$3 work=$4
mkdir -p "$work"
rc=0
"$btf_arch" "$work/x86-64.btf" x86-64
"$btf_arch" "$work/arm64.btf" arm64

# expect NAME WANT COMMAND...: it fails, and its stderr says WANT
expect() {
	local name=$1 want=$2 status=0
	shift 2
	"$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
	if [ "$status" = 0 ] || ! grep -qF "$want" "$work/$name.err"; then
		echo "arch: FAIL $name: exit $status, wanted it to say: $want"
		sed 's/^/  /' "$work/$name.err" | head -n 5
		rc=1
	else
		echo "arch: ok   $name: $(head -n 1 "$work/$name.err" | cut -c1-110)"
	fi
}
expect x86-on-arm64 "built for x86-64, and the BTF in $work/arm64.btf is arm64's (its struct pt_regs says so)" \
	"$x86" probe --btf "$work/arm64.btf"
expect arm64-on-x86 "built for arm64, and the BTF in $work/x86-64.btf is x86-64's (its struct pt_regs says so)" \
	qemu-aarch64 "$arm64" probe --btf "$work/x86-64.btf"
grep -qF "hint: give --btf the BTF of the kernel it runs on" "$work/arm64-on-x86.err" ||
	{ echo "arch: FAIL arm64-on-x86: no hint"; rc=1; }
# every hook says why, in probe's table too, and nothing is said tried
if ! grep -qE "^try_to_shrink_lruvec +failed: an arm64 build on an x86-64 kernel$" "$work/arm64-on-x86.out" ||
	! grep -qE "^fentry/fexit +not tried: an arm64 build on an x86-64 kernel" "$work/arm64-on-x86.out"; then
	echo "arch: FAIL arm64-on-x86: probe's table does not say why"
	sed 's/^/  /' "$work/arm64-on-x86.out" | head -n 5
	rc=1
fi
# the same architecture is not refused (what stops it then is another
# story: as nobody, the right to load BPF)
setpriv --reuid=65534 --regid=65534 --clear-groups "$x86" probe --btf "$work/x86-64.btf" \
	>/dev/null 2>"$work/same.err" || true
if ! grep -q "not permitted to load BPF programs" "$work/same.err" ||
	grep -q "is built for" "$work/same.err"; then
	echo "arch: FAIL x86-64 build on an x86-64 BTF: not past the check to the right to load"
	sed 's/^/  /' "$work/same.err" | head -n 3
	rc=1
else
	echo "arch: ok   x86-64 build on an x86-64 BTF: past the check (as nobody: not permitted to load)"
fi
case "$(uname -m)" in
x86_64)
	if [ -r /sys/kernel/btf/vmlinux ]; then
		expect arm64-here "built for arm64, and the kernel is x86-64's (its BTF's struct pt_regs says so)" \
			qemu-aarch64 "$arm64" probe
		grep -qF "hint: it runs here through an emulator (qemu-user, binfmt_misc); use the x86-64 build: the reclaimscope_*_amd64.deb package, or make ARCH=x86" \
			"$work/arm64-here.err" || { echo "arch: FAIL arm64-here: no hint"; rc=1; }
	else
		echo "arch: this kernel has no BTF: the arm64 build not tried on it"
	fi
	;;
esac
exit $rc
